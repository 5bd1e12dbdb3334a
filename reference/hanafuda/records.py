"""Game records (``hanafuda-record/1``, see :mod:`hanafuda_spec.records`): writing them from
matches of the reference, and validating them by replaying every deal through it.

Validation reports **every** problem it can find, each with its location (record, deal, action
index), the rule id broken and one line of reason. After an illegal action the rest of that deal
cannot be replayed; when the record's per-round action counts add up, the replay resumes at the
next deal, settling the broken round with the record's own claimed result, so that later deals are
still checked. Files are read as JSON Lines, one record at a time (memory is bounded by the
largest record, itself limited by :data:`~hanafuda_spec.records.LIMITS`), or as one
pretty-printed document.

>>> doc = record_match(game("koikoi"), None, {}, seed=5, policy_seed=5)
>>> doc["format"], len(doc["deck"]), problems_of(doc)
('hanafuda-record/1', 48, [])
>>> doc["actions"][0] = "play 999"
>>> print(problems_of(doc)[0])  # doctest: +ELLIPSIS
record 1, deal 1, action 0, $.actions[0]: [KK-TURN-2] 'play 999' is illegal: ...
"""

from __future__ import annotations

import functools
import itertools
import json
import operator
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import IO, Any

from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.neutral import JsonValue, Snapshot
from hanafuda_spec.records import (
    FORMAT,
    FORMAT_1_1,
    LIMITS,
    ActionEntry,
    Deal,
    DealZones,
    GameRecord,
    Location,
    Problem,
    RoundClaim,
    parse_record,
)
from hanafuda_spec.shuffle import SplitMix64, shuffled
from hanafuda_spec.yaku import ScoredYaku

from hanafuda.engine import (
    Action,
    ActionSyntaxError,
    FastRound,
    Match,
    MatchInfo,
    RoundResult,
    RoundSetup,
    action,
    fast_shuffled,
    play_match,
)
from hanafuda.fishing import packet_plan
from hanafuda.parallel import Executor, open_executor
from hanafuda.registry import UnknownGameError, game

__all__ = [
    "Observer",
    "RecordReport",
    "Source",
    "convert",
    "deal_layout",
    "match_deal_zones",
    "order_from_zones",
    "problems_of",
    "read_documents",
    "record_match",
    "redeal",
    "replay",
    "suggest_options",
    "validate_document",
    "validate_record",
    "validate_stream",
    "zones_from_order",
]

AnyGame = Any


# -- writing ----------------------------------------------------------------------------------


#: A playing policy: the action to take among the legal ones, given the match and the policy's
#: generator.
Policy = Callable[[Match[Any, Any], Sequence[Action], SplitMix64], Action]


def random_policy(m: Match[Any, Any], legal: Sequence[Action], rng: SplitMix64) -> Action:
    """Uniformly random legal play: ``legal[rng.below(len(legal))]``."""
    return legal[rng.below(len(legal))]


def record_match(g: AnyGame, ruleset: str | None, options: Mapping[str, str], seed: int, policy_seed: int,
                 *, snapshots: bool = False, first_dealer: int = 0,
                 players: Sequence[str] | None = None, policy: Policy = random_policy,
                 snapshot_deal: int | None = None) -> dict[str, JsonValue]:
    """Play one match (by default random legal play; the policy's generator is SplitMix64 with
    ``policy_seed``) and return its record. With ``snapshots`` every action carries its seat and the
    position after it; with ``snapshot_deal`` only the actions of that deal (1 for the first) do."""
    rules = g.rules(ruleset, options)
    values = g.spec.resolve(ruleset, options)
    rng = SplitMix64(policy_seed)
    if policy is random_policy and not snapshots and snapshot_deal is None:
        # the common case, through the fast rounds (the same record: tests/test_fast_paths.py)
        info, deals = play_match(g, rules, seed, lambda legal: legal[rng.below(len(legal))], first_dealer)
        return _record(g, rules, ruleset, values, seed, first_dealer, players, info,
                       [str(a) for d in deals for a in d], [len(d) for d in deals])
    m: Match[Any, Any] = Match.start(g, rules, seed, first_dealer)
    counts = [0] * len(m.info.history)
    cur = 0
    acts: list[JsonValue] = []
    while not m.over:
        a = policy(m, m.legal_actions(), rng)
        if snapshots or len(m.info.history) + 1 == snapshot_deal:
            seat = g.to_move(m.state)
            after = g.snapshot(g.do(m.state, a), m.info)
            acts.append({"action": str(a), "seat": seat, "after": after.to_json()})
        else:
            acts.append(str(a))
        before = len(m.info.history)
        m = m.apply(a)
        cur += 1
        ended = len(m.info.history) - before
        if ended:
            counts.append(cur)
            counts.extend([0] * (ended - 1))
            cur = 0
    return _record(g, rules, ruleset, values, seed, first_dealer, players, m.info, acts, counts)


def _record(g: AnyGame, rules: Any, ruleset: str | None, values: Mapping[str, str], seed: int, first_dealer: int,
            players: Sequence[str] | None, info: MatchInfo, acts: list[JsonValue],
            counts: list[int]) -> dict[str, JsonValue]:
    """The record of a finished match: its actions and the number of actions of each deal."""
    history = info.history
    rng = SplitMix64(seed)
    deck = g.deck(rules)
    orders: list[JsonValue] = [[c.id for c in shuffled(deck.cards, rng)] for _ in history]
    seats = g.seats(rules)
    rounds: list[JsonValue] = [{"deal": k + 1, "actions": counts[k], **_result_json(r)}
                               for k, r in enumerate(history)]
    return {
        "format": FORMAT,
        "game": g.spec.key,
        "rules": {"ruleset": ruleset or g.spec.default_ruleset, "options": dict(values)},
        "seed": seed,
        "first_dealer": first_dealer,
        "players": list(players) if players is not None else [f"seat {i}" for i in range(seats)],
        "deck": orders[0],
        "deals": orders[1:],
        "actions": acts,
        "result": {
            "rounds": rounds,
            "scores": list(info.scores),
            "winners": list(info.winners),
            "end_reason": info.end_reason,
        },
    }


def _result_json(r: RoundResult) -> dict[str, JsonValue]:
    out: dict[str, JsonValue] = dict(r.to_json())  # type: ignore[arg-type]
    return out


# -- deals as zones (format 1.1) ----------------------------------------------------------------


def deal_layout(g: AnyGame, rules: Any, dealer: int) -> tuple[str, ...]:
    """The zone each position of a deck order (top first) is dealt to, by the game's deal rule, with
    ``dealer`` dealing: ``hand.N``, ``field``, ``stock`` or another zone (Kusuri-gui's
    ``facedown``). The inverse of the deal, used to turn a deal given as zones into a deck order;
    ``tests/test_records.py`` checks it against every game's ``start_round``."""
    key = g.spec.key
    n = len(g.deck(rules).cards)
    if key in ("koikoi", "kekoro"):  # KK-DEAL-1 / KE-DEAL-1: opponent, table, dealer, in packets
        size = rules.hand_size if key == "koikoi" else 8
        names = {"ko": f"hand.{1 - dealer}", "dealer": f"hand.{dealer}", "field": "field"}
        plan = [(names[w], k) for w, k in packet_plan((("ko", size), ("field", 8), ("dealer", size)),
                                                       rules.packets)]
    elif key == "musashino":  # MB-DEAL-3
        plan = [(w if w == "field" else f"hand.{w}", k) for w, k in rules.deals[dealer]]
    elif key == "kujuroku":  # KJ-DEAL-2
        seats = rules.seats
        who = {"2nd": f"hand.{(dealer + 1) % seats}", "3rd": f"hand.{(dealer + 2) % seats}",
               "dealer": f"hand.{dealer}", "field": "field"}
        from hanafuda_spec.games.kujuroku import DEAL_PLAN
        plan = [(who[w], k) for w, k in DEAL_PLAN]
    elif key == "kusurigui":  # KG-DEAL-2: ko 2, oya 2, 3 face down, ko 2, oya 2, 1 face up
        ko, oya = f"hand.{1 - dealer}", f"hand.{dealer}"
        plan = [(ko, 2), (oya, 2), ("facedown", 3), (ko, 2), (oya, 2), ("field", 1)]
    else:  # pragma: no cover - a sixth game must declare its deal here
        raise ValueError(f"no deal layout for {key}")
    out = [w for w, k in plan for _ in range(k)]
    return tuple(out + ["stock"] * (n - len(out)))


def zones_from_order(layout: Sequence[str], order: Sequence[int], seats: int) -> DealZones:
    """A deck order dealt by ``layout``, as zones."""
    got: dict[str, list[int]] = {}
    for w, c in zip(layout, order, strict=True):
        got.setdefault(w, []).append(c)
    hands = tuple(tuple(got.get(f"hand.{i}", ())) for i in range(seats))
    other = tuple((k, tuple(v)) for k, v in got.items() if k not in ("field", "stock") and not k.startswith("hand."))
    return DealZones(hands, tuple(got.get("field", ())), tuple(got.get("stock", ())), other)


def order_from_zones(layout: Sequence[str], zones: DealZones, seats: int) -> tuple[int, ...] | str:
    """The deck order that ``layout`` deals into ``zones`` (each zone's cards in the positions the
    deal gives it, in the order listed), or why there is none (a zone of the wrong size, a zone
    this deal does not have)."""
    want = Counter(layout)
    names = [f"hand.{i}" for i in range(max(seats, len(zones.hands)))] + ["field", "stock"]
    names += [k for k, _ in zones.other]
    for name in names:
        have = zones.zone(name) or ()
        if len(have) != want.get(name, 0):
            shown = name.replace("hand.", "seat ") + ("'s hand" if name.startswith("hand.") else "")
            if name.startswith("hand.") and int(name[5:]) >= seats:
                return f"{len(zones.hands)} hands for {seats} seats"
            return f"{shown} holds {len(have)} cards; the rules deal it {want.get(name, 0)}"
    queues = {name: list(zones.zone(name) or ()) for name in want}
    return tuple(queues[w].pop(0) for w in layout)


def match_deal_zones(m: Match[Any, Any]) -> dict[str, JsonValue]:
    """The current deal of a match as zones (JSON): what ``hanafuda referee --send-deals`` hands an
    engine with its own shuffle."""
    g, rules = m.game, m.rules
    layout = deal_layout(g, rules, m.info.dealer)
    return zones_from_order(layout, m.deck_order, g.seats(rules)).to_json()


def redeal(m: Match[Any, Any], zones: DealZones) -> Match[Any, Any]:
    """The match with its current deal replaced by ``zones`` (same dealer, round and scores):
    how an engine takes the opening position it is handed."""
    g, rules = m.game, m.rules
    order = order_from_zones(deal_layout(g, rules, m.info.dealer), zones, g.seats(rules))
    if isinstance(order, str):
        raise ValueError(order)
    deck = g.deck(rules)
    if sorted(order) != sorted(c.id for c in deck.cards):
        raise ValueError("the zones are not the deck")
    info = m.info
    setup = RoundSetup(info.rounds_played + 1, info.dealer, g.seats_in_play(rules, info), info.scores)
    state = g.start_round(rules, [deck.by_id(c) for c in order], setup)
    from dataclasses import replace as _replace
    return Match.advance(_replace(m, state=state, deck_order=tuple(order)))


# -- replaying --------------------------------------------------------------------------------


@dataclass
class RecordReport:
    """What validating one record found."""

    record: int
    line: int | None
    game: str | None
    actions: int
    deals: int
    problems: list[Problem]
    dropped: int = 0  # problems beyond LIMITS["problems"]
    unusable: bool = False  # the input could not be read as a record at all
    status: str = "complete"  # the record's status (1.1): "abandoned" records stop early
    meta: JsonValue = None  # the record's meta (1.1), echoed as given
    scores: tuple[int, ...] | None = None  # the scores the rules give where the replay stopped
    winners: tuple[int, ...] | None = None
    suggestions: list[str] = field(default_factory=list)  # option values that would explain the first problem
    source: GameRecord | None = field(default=None, repr=False, compare=False)  # the record replayed

    @property
    def ok(self) -> bool:
        return not self.problems and not self.dropped

    def first_deal(self) -> int | None:
        """The deal of the first problem (the record's first divergence), if it has one."""
        return next((p.where.deal for p in self.problems if p.where.deal is not None), None)

    def to_json(self) -> dict[str, JsonValue]:
        return {"record": self.record, "line": self.line, "game": self.game, "ok": self.ok,
                "status": self.status, "actions": self.actions, "deals": self.deals,
                "scores": list(self.scores) if self.scores is not None else None,
                "winners": list(self.winners) if self.winners is not None else None,
                "meta": self.meta,
                "problems": [p.to_json() for p in self.problems], "more_problems": self.dropped,
                "consequences": [{"rule": r, "what": w, "count": n} for (r, w), n in consequences(self)],
                "suggestions": list(self.suggestions)}


def consequences(rep: RecordReport) -> list[tuple[tuple[str, str], int]]:
    """The problems after the record's first divergent deal, grouped by rule id and what they are
    about (the field of a result, the kind of action), with counts, most frequent first."""
    first = rep.first_deal()
    if first is None:
        return []
    groups: Counter[tuple[str, str]] = Counter()
    for p in rep.problems:
        if p.where.deal is not None and p.where.deal > first:
            groups[(p.rule_id, _about(p))] += 1
    return groups.most_common()


def _about(p: Problem) -> str:
    path = p.where.path
    if ".result.rounds[" in path:
        return path.rsplit(".", 1)[-1] if not path.endswith("]") else "round"
    if path.startswith("$.actions"):
        return "action"
    return path.rsplit(".", 1)[-1] if path else "deal"


class _Sink:
    def __init__(self, record: int | None, line: int | None) -> None:
        self.record, self.line = record, line
        self.problems: list[Problem] = []
        self.dropped = 0

    def add(self, rule: str, reason: str, deal: int | None = None, action: int | None = None,
            path: str = "") -> None:
        if len(self.problems) >= LIMITS["problems"]:
            self.dropped += 1
            return
        self.problems.append(Problem(Location(self.record, deal, action, path, self.line), rule, reason))


@functools.lru_cache(maxsize=8192)
def _parse_action(text: str) -> Action | str:
    """The action a record's text names (the engines' shared instance, so that the legality test
    mostly compares identities), or the syntax error's message. Records repeat the same few
    hundred texts, hence the cache."""
    try:
        a = Action.parse(text)
    except ActionSyntaxError as e:
        return str(e)
    return action(a.kind, a.cards, a.label)


@functools.lru_cache(maxsize=8192)
def _plain_action(text: str) -> Action | None:
    """:func:`_parse_action`, None for text that is not an action (for the fast replay)."""
    a = _parse_action(text)
    return None if isinstance(a, str) else a


_EXTRAS = operator.attrgetter("seat", "after", "captures", "draw")
_NO_EXTRAS = {(None, None, None, None)}
_TEXT = operator.attrgetter("text")


def _fast_actions(entries: Sequence[ActionEntry]) -> list[Action | None]:
    """What the fast replay may play of each entry: its action, where the entry is plain (an action's
    text alone, not followed by a draw entry) and its text an action; else None."""
    try:
        plain = set(map(_EXTRAS, entries)) <= _NO_EXTRAS  # every entry plain: the common case
    except TypeError:  # an unhashable claim: not plain
        plain = False
    if plain:
        return list(map(_plain_action, map(_TEXT, entries)))
    n = len(entries)
    return [None if (e.seat is not None or e.after is not None or e.captures is not None or e.draw is not None
                     or (i + 1 < n and entries[i + 1].draw is not None)) else _plain_action(e.text)
            for i, e in enumerate(entries)]


def _order_problem(order: Sequence[int], canonical: Sequence[int], known: frozenset[int]) -> str | None:
    if sorted(order) == canonical:
        return None
    unknown = sorted({c for c in order if c not in known})
    counts = Counter(order)
    dup = sorted(c for c, n in counts.items() if n > 1 and c in known)
    missing = sorted(c for c in canonical if c not in counts)
    parts = []
    if unknown:
        parts.append(f"unknown card(s) {_ids(unknown)}")
    if dup:
        parts.append(f"duplicated card(s) {_ids(dup)}")
    if missing:
        parts.append(f"missing card(s) {_ids(missing)}")
    return f"{len(order)} cards, not the {len(canonical)}-card deck: " + "; ".join(parts)


def _ids(xs: Sequence[int]) -> str:
    shown = ", ".join(str(x) for x in xs[:12])
    return shown + (f" and {len(xs) - 12} more" if len(xs) > 12 else "")


#: What :func:`replay` calls as it goes, when given ``observe``: ``observe(event, deal, action, state, info)``
#: with event ``"deal"`` (the cards just dealt), ``"action"`` (the position after the entry at index
#: ``action``) or ``"settle"`` (the deal settled: ``info`` holds the new scores; ``state`` is None when the
#: deal was settled from the record's claimed result). ``hanafuda view`` draws its pages from these.
Observer = Callable[[str, int, int | None, Any, MatchInfo], None]


def replay(rec: GameRecord, record: int | None = 1, line: int | None = None, *, lenient: bool = False,
           ruleset: str | None = None, options: Mapping[str, str] | None = None,
           until_deal: int | None = None, again: bool = False, fast: bool = True,
           first_deal_only: bool = False, rules: Any = None, observe: Observer | None = None) -> RecordReport:
    """Replay a parsed record through the reference and report every problem (never raises for
    bad record content). ``ruleset``/``options``, when given, replace the record's own rules
    (``options`` alone are applied over the record's rules); ``rules``, a typed rules object of the
    record's game, replaces both (``hanafuda diagnose`` replays under rules with a deviation);
    ``until_deal`` stops after that deal;
    ``first_deal_only`` stops at the end of the deal of the first problem, when that problem is about a
    deal (``identify`` looks no further: the first problem and the others of its deal).
    ``again``: the record is replayed many times (``identify`` replays it under hundreds of rule
    assignments), so the deck orders its seed gives are kept for the next time (:func:`_seeded_order`);
    the report is the same. ``fast`` False replays every entry through the reference loop rather than
    the games' fast rounds (``_Replay.fast_replay``): the same report, which the tests check.
    ``observe`` (an :data:`Observer`) sees every position of that loop (it implies ``fast`` False)."""
    sink = _Sink(record, line)
    report = RecordReport(record or 0, line, rec.game, len(rec.actions), 0, sink.problems,
                          status=rec.status, meta=rec.meta)
    try:
        g = game(rec.game)
    except UnknownGameError as e:
        sink.add("REC-GAME-1", str(e), path="$.game")
        return report
    report.game = g.spec.key
    try:
        if rules is not None:
            pass
        elif ruleset is not None:
            rules = _rules(g, ruleset, options or {})
        else:
            rules = _rules(g, rec.ruleset, {**rec.options, **(options or {})})
    except OptionError as e:
        sink.add("REC-RULES-1", str(e), path="$.rules")
        return report
    seats = g.seats(rules)
    if len(rec.players) != seats:
        sink.add("REC-PLAYERS-1", f"{len(rec.players)} player(s) for {seats} seats", path="$.players")
    if rec.first_dealer >= seats:
        sink.add("REC-FIELD-1", f"first_dealer {rec.first_dealer}: there are {seats} seats", path="$.first_dealer")
        return report
    for i, r in enumerate(rec.rounds):
        d = r.fields.get("deltas")
        if isinstance(d, list) and len(d) != seats:
            sink.add("REC-FIELD-1", f"{len(d)} deltas: one per seat ({seats})", path=f"$.result.rounds[{i}].deltas")
            return report
    if rec.scores is not None and len(rec.scores) != seats:
        sink.add("REC-FIELD-1", f"{len(rec.scores)} final scores: one per seat ({seats})", path="$.result.scores")
    _Replay(g, rules, rec, sink, report, lenient, until_deal, again, fast and observe is None, first_deal_only,
            observe).run()
    report.dropped = sink.dropped
    return report


_NO_STEP = None


def _rules(g: AnyGame, ruleset: str | None, options: Mapping[str, str]) -> Any:
    """``g.rules(ruleset, options)``, resolved once per (game, ruleset, options) by
    ``_cached_rules``: typed rules are immutable values, and a stream of records mostly repeats
    the same rules (resolving them, and the tables their first use builds, costs a few actions'
    time per record). Options that make no key (unhashable or unorderable) are resolved as given."""
    try:
        key = tuple(sorted(options.items()))
        return _cached_rules(g, ruleset, key)
    except TypeError:
        return g.rules(ruleset, options)


@functools.lru_cache(maxsize=1024)
def _cached_rules(g: AnyGame, ruleset: str | None, options: tuple[tuple[str, str], ...]) -> Any:
    return g.rules(ruleset, dict(options))  # an OptionError propagates, and nothing is cached


#: Deck orders of seeded records already shuffled, for replays with ``again``: generator state before ->
#: (the deck's card ids, their order, the state after). ``identify`` replays each record under hundreds of
#: rule assignments, and each replay shuffled the same seed again (a tenth of its time).
_SEEDED: dict[int, tuple[list[int], tuple[int, ...], int]] = {}
_SEEDED_MAX = 4096


def _seeded_order(canonical: list[int], rng: SplitMix64) -> tuple[int, ...]:
    """``fast_shuffled(canonical, rng)`` as a tuple, ``rng`` left where the shuffle leaves it: the same
    result and state as shuffling, taken from :data:`_SEEDED` when this deck was shuffled from this state
    before."""
    found = _SEEDED.get(rng.state)
    if found is not None and found[0] == canonical:
        rng.state = found[2]
        return found[1]
    before = rng.state
    order = tuple(fast_shuffled(canonical, rng))
    if len(_SEEDED) >= _SEEDED_MAX:
        _SEEDED.clear()  # (one step, safe with threads)
    _SEEDED[before] = (list(canonical), order, rng.state)
    return order


class _Replay:
    def __init__(self, g: AnyGame, rules: Any, rec: GameRecord, sink: _Sink, report: RecordReport,
                 lenient: bool = False, until_deal: int | None = None, again: bool = False,
                 fast: bool = True, first_deal_only: bool = False, observe: Observer | None = None) -> None:
        self.g, self.rules, self.rec, self.sink, self.report = g, rules, rec, sink, report
        self.observe = observe
        self.lenient, self.until_deal, self.again, self.fast = lenient, until_deal, again, fast
        self.first_deal_only = first_deal_only
        deck = g.deck(rules)
        self.cards = deck.cards
        self.by_id = {c.id: c for c in deck.cards}
        self.canonical = [c.id for c in deck.cards]
        self.known = frozenset(self.canonical)
        self.seats = g.seats(rules)
        self.claimed_total = sum(r.actions for r in rec.rounds)
        self.counts_ok = self.claimed_total == len(rec.actions)
        self.orders: list[tuple[int, ...]] = []  # the deck order of every deal replayed
        self.dealers: list[int] = []
        # the step a draw entry (1.1) refers to: (stock, captured cards, played card) before it
        self.step: tuple[tuple[int, ...], frozenset[int], int | None] | None = None
        self.claimed: set[int] = set()
        self.plain: list[Action | None] | None = None  # the fast replay's view of the entries (_fast_actions)

    def fast_replay(self, fast: FastRound[Any], pos: int) -> int:
        """Replay the plain entries of a deal from ``pos`` through the game's fast round (where it has
        one): entries with only an action text, legal where they stand, and not followed by a draw entry
        (:meth:`FastRound.replay`). It stops at the first other entry (an illegal action, a claimed seat,
        captures, a snapshot, a draw), which the reference loop then checks from the position reached.
        The same positions as the reference loop (``tests/test_fast_paths.py``), so the same reports."""
        if self.plain is None:
            self.plain = _fast_actions(self.rec.actions)
        return fast.replay(self.plain, pos, len(self.plain))

    def order_for(self, deal: int, rng: SplitMix64 | None, dealer: int) -> tuple[int, ...] | None:
        rec, add = self.rec, self.sink.add
        seeded: tuple[int, ...] | None = None  # the same shuffle, on ids
        if rng is not None:  # (kept from an earlier replay of this record, if it is replayed again)
            seeded = _seeded_order(self.canonical, rng) if self.again else tuple(fast_shuffled(self.canonical, rng))
        listed: Deal | None
        if deal == 1:
            listed = rec.deck
            path = "$.deck"
        else:
            listed = rec.deals[deal - 2] if deal - 2 < len(rec.deals) else None
            path = f"$.deals[{deal - 2}]"
        if listed is None:
            if seeded is None:
                add("REC-DEALS-1", f"deal {deal} has no deck order (no seed, and $.deals lists {len(rec.deals)})",
                    deal, path="$.deals")
            return seeded
        if isinstance(listed, DealZones):
            bad = _order_problem(listed.cards(), self.canonical, self.known)
            if bad is not None:
                add("REC-ZONES-1", "the zones hold " + bad, deal, path=path)
                return None
            got = order_from_zones(deal_layout(self.g, self.rules, dealer), listed, self.seats)
            if isinstance(got, str):
                add("REC-ZONES-1", f"{got} (seat {dealer} deals)", deal, path=path)
                return None
            listed = got
        elif listed != seeded:  # (the seeded order, a permutation of the deck, needs no check)
            bad = _order_problem(listed, self.canonical, self.known)
            if bad is not None:
                add("REC-DECK-1", bad, deal, path=path)
                return seeded
        if seeded is not None and listed != seeded:
            i = next(k for k, (a, b) in enumerate(zip(listed, seeded, strict=True)) if a != b)
            add("REC-SHUFFLE-1", f"position {i} holds card {listed[i]}, the shuffle of seed {rec.seed} "
                f"puts {seeded[i]} there", deal, path=f"{path}[{i}]")
        return listed

    def run(self) -> None:
        g, rules, rec, add = self.g, self.rules, self.rec, self.sink.add
        abandoned = rec.status == "abandoned"
        if not self.counts_ok and not abandoned:
            add("REC-COUNT-1", f"the rounds claim {self.claimed_total} actions in all, the record has "
                f"{len(rec.actions)}", path="$.result.rounds")
        info: MatchInfo = g.new_match(rules, rec.first_dealer)
        rng = SplitMix64(rec.seed) if rec.seed is not None else None
        pos = 0
        deal = 0
        actions = rec.actions
        n_actions = len(actions)
        while not info.over:
            if abandoned and pos >= n_actions and deal >= len(rec.rounds):
                if (rec.deck if deal == 0 else rec.deals[deal - 1] if deal - 1 < len(rec.deals) else None):
                    self.order_for(deal + 1, rng, info.dealer)  # a deal listed but never played is checked too
                if deal < len(rec.rounds):
                    self.check_unfinished(deal + 1, rec.rounds[deal], 0)
                self.stop_abandoned(info, deal)  # stopped between deals
                return
            if self.first_deal_only and self.sink.problems and self.sink.problems[0].where.deal is not None:
                return  # the deal of the first problem is over
            deal += 1
            if self.until_deal is not None and deal > self.until_deal:
                return
            if deal > LIMITS["deals"]:
                add("REC-SIZE-1", f"the match is not over after {LIMITS['deals']} deals", deal)
                return
            self.report.deals = deal
            claim = rec.rounds[deal - 1] if deal - 1 < len(rec.rounds) else None
            start = pos
            order = self.order_for(deal, rng, info.dealer)
            broken = order is None
            state: Any = None
            if order is not None:
                self.orders.append(order)
                self.dealers.append(info.dealer)
                setup = RoundSetup(info.rounds_played + 1, info.dealer, g.seats_in_play(rules, info), info.scores)
                self.step = None
                fast: FastRound[Any] | None = g.deal_fast(rules, order, setup) if self.fast else None
                if fast is None:
                    state = g.start_round(rules, list(map(self.by_id.__getitem__, order)), setup)
                    fast = g.fast_round(state) if self.fast else None
                    if self.observe is not None:
                        self.observe("deal", deal, None, state, info)
                done: RoundResult | None = None
                if fast is not None:
                    pos = self.fast_replay(fast, pos)
                    if fast.over() and not (pos < n_actions and actions[pos].draw is not None):
                        done = fast.result()  # the round's result, without its final position
                    if done is None:
                        state = fast.state()
                # the hot loop: parse (cached), check legality, apply
                legal_actions, do, to_move = g.legal_actions, g.do, g.to_move
                while done is None:
                    seat = to_move(state)
                    if seat is None:
                        if pos < n_actions and actions[pos].draw is not None:  # a draw that ended the round
                            last = self.draw_entry(state, actions[pos], deal, pos)
                            if not last:
                                broken = True
                                break
                            if self.observe is not None:
                                self.observe("action", deal, pos, last, info)
                            pos += 1
                            continue
                        break
                    if pos >= n_actions:
                        if abandoned:
                            if claim is not None:
                                self.check_unfinished(deal, claim, pos - start)
                            self.stop_abandoned(info, deal - 1)
                            return
                        add("REC-ROUNDS-1", f"the actions end before the match does: deal {deal} is not over "
                            f"(seat {seat} to move; the reference expects {_expected(g, state)})", deal, pos,
                            "$.actions")
                        self.check_claimed_rounds(deal)
                        return
                    entry = actions[pos]
                    if entry.draw is not None:
                        nxt = self.draw_entry(state, entry, deal, pos)
                        if nxt is None:
                            broken = True
                            break
                        state = nxt
                        if self.observe is not None:
                            self.observe("action", deal, pos, state, info)
                        pos += 1
                        continue
                    a = _parse_action(entry.text)
                    if isinstance(a, str):
                        add("REC-ACTION-1", a, deal, pos, f"$.actions[{pos}]")
                        broken = True
                        break
                    if entry.seat is not None and entry.seat != seat:
                        add("REC-SEAT-1", f"claims seat {entry.seat} moves; seat {seat} is to move", deal, pos,
                            f"$.actions[{pos}].seat")
                    legal = legal_actions(state)
                    named: tuple[int, ...] = ()
                    if a not in legal:
                        named = a.cards[1:] if self.lenient else ()
                        alt = self.reading(legal, a, entry)
                        if alt is None:
                            rule_id, reason = _explain(g, state, a)
                            add(rule_id, f"{entry.text!r} is illegal: {reason} (the reference expects "
                                f"{_expected(g, state)})", deal, pos, f"$.actions[{pos}]")
                            broken = True
                            break
                        named = named if alt.cards != a.cards else ()
                        a = alt
                    tracked = (entry.captures is not None or bool(named)
                               or (pos + 1 < n_actions and actions[pos + 1].draw is not None))
                    if tracked:
                        before = g.snapshot(state)
                        self.step = (tuple(dict(before.zones).get("stock", ())), _captured(before),
                                     a.cards[0] if a.cards else None)
                        self.claimed = set()
                    state = do(state, a)
                    if entry.captures is not None or named:
                        self.check_captures(state, entry.captures if entry.captures is not None else named,
                                            deal, pos)
                    if entry.after is not None:
                        diff = _snapshot_diff(g.snapshot(state, info), entry.after)
                        if diff is not None:
                            add("REC-SNAPSHOT-1", diff, deal, pos, f"$.actions[{pos}].after")
                    if self.observe is not None:
                        self.observe("action", deal, pos, state, info)
                    pos += 1
            if broken:
                if claim is None or not self.counts_ok:
                    add("REC-ROUNDS-1", f"later deals not checked: the record's round action counts do not "
                        f"say where deal {deal} ends", deal)
                    return
                pos = start + claim.actions
                result = _claimed_result(claim, len(info.scores))
                if result is None:
                    lacks = [k for k in ("reason", "deltas") if not claim.fields.get(k)]
                    add("REC-RESULT-1", f"later deals not checked: deal {deal} was not replayed to its end, and "
                        f"its claimed result lacks {' and '.join(lacks) or 'a usable reason and deltas'}, "
                        f"needed to settle it", deal, path=f"$.result.rounds[{deal - 1}]")
                    return
            else:
                result = done if done is not None else g.round_result(state)
                played = pos - start
                if claim is None:
                    pass  # reported once the number of deals is known
                else:
                    if claim.actions != played:
                        add("REC-COUNT-1", f"claims {claim.actions} actions in this deal, {played} were played",
                            deal, path=f"$.result.rounds[{deal - 1}].actions")
                    self.compare_round(deal, claim, result)
            try:
                info = g.settle(rules, info, result)
            except Exception as e:  # a claimed result the game cannot settle
                add("REC-RESULT-1", f"later deals not checked: cannot settle deal {deal} with its claimed result "
                    f"({type(e).__name__}: {e})", deal, path=f"$.result.rounds[{deal - 1}]")
                return
            if self.observe is not None:
                self.observe("settle", deal, None, None if broken else state, info)
            self.report.scores = tuple(info.scores)
        if abandoned:
            add("REC-ROUNDS-1", "the record says it was abandoned, but the match is played out", path="$.status")
        if pos < n_actions:
            add("REC-ROUNDS-1", f"{n_actions - pos} action(s) after the match ended", None, pos, f"$.actions[{pos}]")
        self.check_claimed_rounds(deal)
        self.report.scores, self.report.winners = tuple(info.scores), tuple(info.winners)
        self.compare_final(info)

    def check_unfinished(self, deal: int, claim: RoundClaim, played: int) -> None:
        """The claim an abandoned record lists for the deal it stops in: it counts the actions the
        record holds for that deal and claims no result, since the deal never ended."""
        if claim.actions != played:
            self.sink.add("REC-COUNT-1", f"claims {claim.actions} actions in this unfinished deal, {played} were "
                          f"played", deal, path=f"$.result.rounds[{deal - 1}].actions")
        if claim.fields:  # (unknown claims were dropped when parsed; what is left claims a result)
            self.sink.add("REC-RESULT-1", f"the record stops before deal {deal} ends, yet claims its "
                          f"{', '.join(sorted(claim.fields))}", deal, path=f"$.result.rounds[{deal - 1}]")

    def stop_abandoned(self, info: MatchInfo, deals_done: int) -> None:
        """An abandoned record ends here: what it claims must fit the deals played out."""
        n = len(self.rec.rounds)
        if n not in (deals_done, deals_done + 1):
            self.sink.add("REC-ROUNDS-1", f"the result lists {n} round(s); the abandoned record plays "
                          f"{deals_done} deal(s) out", path="$.result.rounds")
        self.report.scores = tuple(info.scores)
        if self.rec.scores is not None and tuple(self.rec.scores) != tuple(info.scores):
            self.sink.add("REC-RESULT-2", f"scores when abandoned: the record says {list(self.rec.scores)}, the "
                          f"rules give {list(info.scores)}", path="$.result.scores")

    def reading(self, legal: Sequence[Action], a: Action, entry: ActionEntry) -> Action | None:
        """The legal action an illegal text stands for, where format 1.1 says it unambiguously: a
        play whose ``captures`` name the one target it needs; or, leniently, a play that names the
        cards it captures anyway (a target where there is no choice)."""
        if entry.captures is not None and len(a.cards) == 1:
            picks = [x for x in legal if x.kind == a.kind and len(x.cards) == 2 and x.cards[0] == a.cards[0]
                     and x.cards[1] in entry.captures]
            if len(picks) == 1:
                return picks[0]
        if self.lenient and len(a.cards) > 1:
            bare = action(a.kind, a.cards[:1], a.label)
            if bare in legal:
                self.claimed = set(a.cards[1:])
                return bare
        return None

    def check_captures(self, state: Any, captures: Sequence[int], deal: int, pos: int) -> None:
        """The cards a play claims it took (besides itself) are among those it did take (the draw
        that follows is checked by its own entry)."""
        assert self.step is not None
        moved = _captured(self.g.snapshot(state)) - self.step[1]
        played = self.step[2]
        claim = {c for c in captures if c != played}
        self.claimed = claim
        if not claim <= moved:
            own, drawn = self.split(moved - {played}, played)
            then = f" (and the draw that followed, {_ids(sorted(drawn))})" if drawn else ""
            self.sink.add("REC-CAPTURE-1", f"claims the hand play of {played} captured {_ids(sorted(claim))}; it "
                          f"captured {_ids(sorted(own)) or 'nothing'}{then}", deal, pos, f"$.actions[{pos}]")

    def draw_entry(self, state: Any, entry: ActionEntry, deal: int, pos: int) -> Any:
        """Check a draw entry (1.1) against the draw that followed the last play; when the drawn
        card matches two table cards, its ``captures`` choose the ``take``. The position after it,
        or None when the record and the rules part ways here."""
        add, g = self.sink.add, self.g
        path = f"$.actions[{pos}]"
        if self.step is None:
            add("REC-DRAW-1", "a draw entry must follow the play of the same turn", deal, pos, path)
            return None
        stock_before, cap_before, played = self.step
        legal: tuple[Action, ...] = g.legal_actions(state) if g.to_move(state) is not None else ()
        if len(legal) == 1 and legal[0].kind == "draw":  # a draw-only turn: the draw is the action
            state = g.do(state, legal[0])
            legal = g.legal_actions(state) if g.to_move(state) is not None else ()
        snap = g.snapshot(state)
        stock = tuple(dict(snap.zones).get("stock", ()))
        if (not stock_before or len(stock) >= len(stock_before)
                or stock != stock_before[len(stock_before) - len(stock):]):
            add("REC-DRAW-1", f"the record draws {entry.draw}, but no card was drawn here", deal, pos, path)
            return None
        drawn = stock_before[0]
        if entry.draw != drawn:
            add("REC-DRAW-1", f"the record draws {entry.draw}; the top of the draw pile is {drawn} (a different deal?)",
                deal, pos, f"{path}.draw")
            return None
        if legal and all(x.kind == "take" for x in legal):  # the drawn card's capture is a choice
            picks = [x for x in legal if entry.captures is not None and x.cards and x.cards[0] in entry.captures]
            if len(picks) != 1:
                options = ", ".join(str(x.cards[0]) for x in legal if x.cards)
                add("REC-DRAW-1", f"card {drawn} matches {options}: captures must name one of them", deal, pos,
                    f"{path}.captures")
                return None
            state = g.do(state, picks[0])
            snap = g.snapshot(state)
        if entry.captures is not None:
            moved = _captured(snap) - cap_before - {played, drawn}
            claim = ({c for c in entry.captures if c != drawn} | self.claimed) - {played}
            if claim != moved:
                got_play, got_draw = self.split(moved, played)
                said_play, said_draw = self.split(claim, played)
                add("REC-CAPTURE-1", f"the hand play of {played} captured {_ids(sorted(got_play)) or 'nothing'} and "
                    f"the draw of {drawn} captured {_ids(sorted(got_draw)) or 'nothing'}; the record says "
                    f"{_ids(sorted(said_play)) or 'nothing'} and {_ids(sorted(said_draw)) or 'nothing'}", deal, pos,
                    f"{path}.captures")
        self.step = None
        return state

    def split(self, cards: set[int] | frozenset[int], played: int | None) -> tuple[set[int], set[int]]:
        """Captured ``cards`` (the played and drawn cards left out) as the hand play's (the played card's
        month) and the draw's (the others)."""
        if played is None or played not in self.by_id:
            return set(), set(cards)
        suit = self.by_id[played].suit
        own = {c for c in cards if c in self.by_id and self.by_id[c].suit == suit}
        return own, set(cards) - own

    def check_claimed_rounds(self, deals: int) -> None:
        n = len(self.rec.rounds)
        if n != deals:
            self.sink.add("REC-ROUNDS-1", f"the result lists {n} round(s); the actions play {deals} deal(s)",
                          path="$.result.rounds")

    def compare_round(self, deal: int, claim: RoundClaim, result: RoundResult) -> None:
        want = result.to_json()
        if self.fast and claim.fields == want:  # every field claimed, each as the rules give it: nothing to report
            return
        breakdown: str | None = None
        for key, got in claim.fields.items():
            exp = want.get(key)
            if key == "yaku" and isinstance(got, list) and isinstance(exp, list):  # a null side is unknown
                got = [g_ if g_ is not None else e for g_, e in zip(got, exp, strict=False)]  # noqa: PLW2901
            if got != exp and _normal(key, got) != _normal(key, exp):  # (yaku may come in any order)
                why = f"round ended by {result.reason}"
                if key in ("deltas", "yaku", "notes", "winner"):  # what the score is made of, beside the claim
                    breakdown = breakdown or score_breakdown(self.g, self.rules, result)
                    why += f"; the rules score {breakdown}"
                self.sink.add("REC-RESULT-1", f"{key}: the record says {_short(got)}, the rules give {_short(exp)} "
                              f"({why})", deal, path=f"$.result.rounds[{deal - 1}].{key}")

    def compare_final(self, info: MatchInfo) -> None:
        rec, add = self.rec, self.sink.add
        if rec.scores is not None and tuple(rec.scores) != tuple(info.scores):
            add("REC-RESULT-2", f"final scores: the record says {list(rec.scores)}, the rules give "
                f"{list(info.scores)}", path="$.result.scores")
        if rec.winners is not None and tuple(rec.winners) != tuple(info.winners):
            add("REC-RESULT-2", f"winners: the record says {list(rec.winners)}, the rules give {list(info.winners)}",
                path="$.result.winners")
        if rec.end_reason is not None and rec.end_reason != info.end_reason:
            add("REC-RESULT-2", f"end reason: the record says {rec.end_reason!r}, the rules give "
                f"{info.end_reason!r}", path="$.result.end_reason")


def _captured(snap: Snapshot) -> frozenset[int]:
    return frozenset(c for k, z in snap.zones if k.startswith("captured") for c in z)


def score_breakdown(g: AnyGame, rules: Any, result: RoundResult) -> str:
    """A round's score as the rules give it: each side's yaku with its points and rule id, the
    multipliers and other notes, and the deltas."""
    ids = _yaku_rules(g, rules)
    sides = []
    for seat, side in enumerate(result.yaku):
        if side:
            shown = ", ".join(f"{y.id} {y.points}" + (f" [{ids[y.id]}]" if y.id in ids else "") for y in side)
            sides.append(f"seat {seat}: {shown}")
    notes = ", ".join(f"{k} {v}" for k, v in result.notes)
    parts = ["; ".join(sides) or "no yaku"]
    if notes:
        parts.append(notes)
    parts.append(f"deltas {list(result.deltas)}")
    return " | ".join(parts)


def _yaku_rules(g: AnyGame, rules: Any) -> Mapping[str, str]:
    """Yaku id -> the rule id that defines it, from the game spec's yaku table (empty for a game
    whose spec has none)."""
    values = getattr(rules, "values", None)
    if not isinstance(values, tuple):
        values = tuple(sorted(g.spec.resolve().items()))
    return _yaku_rules_of(g.spec.key, values)


@functools.lru_cache(maxsize=256)
def _yaku_rules_of(key: str, values: tuple[tuple[str, str], ...]) -> Mapping[str, str]:
    """:func:`_yaku_rules` of a game's resolved option values (once per rules: a failing claim of every
    record under the same rules names the same yaku)."""
    import inspect
    from importlib import import_module

    fn = getattr(import_module(f"hanafuda_spec.games.{key}"), "yaku_table", None)
    if fn is None:
        return MappingProxyType({})
    params = inspect.signature(fn).parameters.values()
    extra = [None] * (len(params) - 1 - sum(1 for p in params if p.default is not inspect.Parameter.empty))
    out: dict[str, str] = {}
    for y in fn(dict(values), *extra):
        rid = getattr(y, "rule", None)
        if isinstance(rid, str):
            out.setdefault(y.id, rid)
    return MappingProxyType(out)


#: What an action kind asks of the player to move, for the messages saying what the reference expects.
_KINDS = {"play": "a hand play", "take": "a choice of capture for the drawn card", "koikoi": "the koi-koi decision",
          "stop": "the koi-koi decision", "draw": "a draw"}


def _expected(g: AnyGame, state: Any) -> str:
    """What the reference expects of the player to move: the kind of step and its legal actions (never raises)."""
    try:
        legal = list(g.legal_actions(state))
    except Exception:  # a position the game cannot list: say nothing more
        return "another action"
    if not legal:
        return "no action"
    kinds = list(dict.fromkeys(_KINDS.get(a.kind, f"a {a.kind!r} action") for a in legal))
    shown = ", ".join(f"'{a}'" for a in legal[:6]) + (f" and {len(legal) - 6} more" if len(legal) > 6 else "")
    return f"{' or '.join(kinds)}: {shown}"


def _explain(g: AnyGame, state: Any, a: Action) -> tuple[str, str]:
    """The game's rule id and reason for an illegal action (never raises: odd input such as
    unknown card ids must still give a one-line problem)."""
    try:
        rule_id, reason = g.explain_illegal(state, a)
        return str(rule_id), str(reason)
    except Exception as e:  # a gap in the game's explain_illegal: still report the action
        legal = ", ".join(str(x) for x in g.legal_actions(state)[:6])
        return "REC-ACTION-1", f"not a legal action here (legal: {legal}...; {type(e).__name__}: {e})"


def _normal(key: str, v: Any) -> Any:
    if key == "yaku" and isinstance(v, list):
        return [sorted((y.get("id"), y.get("points")) for y in side if isinstance(y, dict))
                if isinstance(side, list) else side for side in v]
    return v


def _short(v: Any) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 200 else s[:197] + "..."


def _claimed_result(claim: RoundClaim, seats: int) -> RoundResult | None:
    f = claim.fields
    deltas, reason = f.get("deltas"), f.get("reason")
    if not isinstance(deltas, list) or not isinstance(reason, str) or len(deltas) != seats:
        return None
    yaku_raw = f.get("yaku") or []
    yaku = tuple(tuple(ScoredYaku(str(y.get("id")), _int(y.get("points"))) for y in side if isinstance(y, dict))
                 for side in yaku_raw if isinstance(side, list)) if isinstance(yaku_raw, list) else ()
    cp = f.get("card_points")
    notes = f.get("notes")
    winner, nd = f.get("winner"), f.get("next_dealer")
    return RoundResult(
        reason, tuple(int(d) for d in deltas if isinstance(d, int)),
        winner if isinstance(winner, int) else None, yaku,
        tuple(int(c) for c in cp if isinstance(c, int)) if isinstance(cp, list) else None,
        bool(f.get("counts", True)), bool(f.get("ends_game", False)),
        nd if isinstance(nd, int) and 0 <= nd < seats else None,
        tuple((str(k), int(v)) for k, v in notes.items() if isinstance(v, int)) if isinstance(notes, dict) else (),
    )


def _int(v: object) -> int:
    return v if isinstance(v, int) else 0


def _snapshot_diff(want: Snapshot, got: Snapshot) -> str | None:
    if want == got:
        return None
    wz, gz = dict(want.zones), dict(got.zones)
    for name in sorted(set(wz) | set(gz)):
        if name not in gz:
            return f"zone {name} is missing (it holds {_ids(list(wz[name]))})"
        if name not in wz:
            return f"zone {name} is not a zone of this game"
        if wz[name] != gz[name]:
            return f"zone {name}: the record says [{_ids(list(gz[name]))}], the position has [{_ids(list(wz[name]))}]"
    for key in ("game", "to_move", "phase", "dealer", "round", "scores"):
        a, b = getattr(want, key), getattr(got, key)
        if a != b:
            return f"{key}: the record says {b!r}, the position has {a!r}"
    return None


# -- documents and streams ----------------------------------------------------------------------


def validate_document(doc: Any, record: int = 1, line: int | None = None, lenient: bool = False, *,
                      ruleset: str | None = None, options: Mapping[str, str] | None = None,
                      fast: bool = True, observe: Observer | None = None) -> RecordReport:
    """Parse and replay one decoded document (see :func:`replay` for ``ruleset``, ``options`` and
    ``observe``; ``fast`` False: without the parser's shortcuts and the fast replay, the same report)."""
    rec, problems = parse_record(doc, record=record, line=line, lenient=lenient, fast=fast)
    if rec is None:
        g = doc.get("game") if isinstance(doc, dict) and isinstance(doc.get("game"), str) else None
        acts = doc.get("actions") if isinstance(doc, dict) else None
        unusable = any(p.rule_id == "REC-FORMAT-1" for p in problems)  # not a record at all
        meta = doc.get("meta") if isinstance(doc, dict) and doc.get("format") == FORMAT_1_1 else None
        return RecordReport(record, line, g, len(acts) if isinstance(acts, list) else 0, 0, problems,
                            unusable=unusable, meta=meta)
    report = replay(rec, record, line, lenient=lenient, ruleset=ruleset, options=options, fast=fast,
                    observe=observe)
    report.problems[:0] = problems
    report.source = rec
    return report


def validate_record(rec: GameRecord, ruleset: str | None = None, options: Mapping[str, str] | None = None,
                    *, lenient: bool = False) -> RecordReport:
    """Validate a parsed record under given rules: the library entry point (``identify`` uses it).
    ``ruleset`` (with ``options``) replaces the record's rules; ``options`` alone are applied over
    them. The report lists every problem, structured (:class:`~hanafuda_spec.records.Problem`)."""
    return replay(rec, 1, None, lenient=lenient, ruleset=ruleset, options=options)


def suggest_options(rec: GameRecord, report: RecordReport, *, ruleset: str | None = None,
                    options: Mapping[str, str] | None = None, lenient: bool = False) -> list[str]:
    """The single option values that would make the record's first divergent deal validate: one
    line each, saying whether the whole record then validates. Tries every other value of every
    option of the game, replaying the record up to that deal (a few dozen replays), then the
    whole record under each value that passes.

    A hint is a cause, never a coincidence: a value is offered only if, under it, that deal
    replays legally and scores exactly (every claim, not only a total) **and** no deal that
    validates under the record's rules then fails (a value that makes one total equal by chance
    breaks the other rounds it changes)."""
    deal = report.first_deal()
    if deal is None or report.unusable:
        return []
    bad_before = {p.where.deal for p in report.problems if p.where.deal is not None}
    try:
        g = game(rec.game)
        base = g.spec.resolve(ruleset, options) if ruleset is not None else g.spec.resolve(
            rec.ruleset, {**rec.options, **(options or {})})
    except (UnknownGameError, OptionError):
        return []
    out = []
    for o in g.spec.options:
        for v in o.choices:
            if v == base[o.key]:
                continue
            trial = {**base, o.key: v}
            try:
                rep = replay(rec, 1, None, lenient=lenient, ruleset=g.spec.default_ruleset, options=trial,
                             until_deal=deal)
            except Exception:  # an option combination the game refuses to play: not a suggestion
                continue
            if any(p.where.deal is None or p.where.deal <= deal for p in rep.problems):
                continue
            whole = replay(rec, 1, None, lenient=lenient, ruleset=g.spec.default_ruleset, options=trial)
            bad_after = {p.where.deal for p in whole.problems if p.where.deal is not None}
            reached = min(report.deals, whole.deals)
            if any(d not in bad_before and d in bad_after for d in range(1, reached + 1)) or (
                    whole.deals < report.deals and report.deals not in bad_before):
                continue  # it breaks a deal that validated: a coincidence, not a cause
            tail = "the whole record validates" if whole.ok else (
                f"deal {deal} validates" + (f" (first problem then at deal {whole.first_deal()})"
                                             if whole.first_deal() else ""))
            out.append(f"with `{o.key}={v}` {tail}")
    return out


def convert(doc: Any, to: str) -> dict[str, JsonValue]:
    """A record in another format version: ``hanafuda-record/1.1`` gives every deal as zones (and
    keeps ``meta``/``status``), ``hanafuda-record/1`` every deal as a deck order. The deals are
    found by replaying the record (the dealer of each deal depends on the rounds before it); a
    deal the replay does not reach is kept as given. Raises ``ValueError`` for a record that
    cannot be parsed, or a 1.1 record that cannot be written as version 1 (abandoned, or with
    1.1-only claims)."""
    if to not in (FORMAT, FORMAT_1_1):
        raise ValueError(f"unknown format {to!r}")
    rec, problems = parse_record(doc)
    if rec is None:
        raise ValueError(f"not a valid record: {problems[0] if problems else 'unreadable'}")
    g = game(rec.game)
    rules = g.rules(rec.ruleset, rec.options)
    run = _Replay(g, rules, rec, _Sink(1, None), RecordReport(1, None, rec.game, 0, 0, []))
    run.run()
    seats = g.seats(rules)
    given = (rec.deck, *rec.deals)
    dealt: list[Deal] = []
    for k, d in enumerate(given):
        if k < len(run.orders):
            order = run.orders[k]
            layout = deal_layout(g, rules, run.dealers[k])
            dealt.append(order if to == FORMAT else zones_from_order(layout, order, seats))
        else:
            dealt.append(d)
    if to == FORMAT and (rec.status != "complete" or any(isinstance(d, DealZones) for d in dealt)
                         or any(a.captures is not None or a.draw is not None for a in rec.actions)):
        raise ValueError("this record uses format 1.1 features (an abandoned status, a deal the replay "
                         "does not reach given as zones, captures or draw entries)")
    from dataclasses import replace
    new = replace(rec, format=to, deck=dealt[0], deals=tuple(dealt[1:]))
    out = new.to_json()
    if to == FORMAT:
        out.pop("meta", None)
        out.pop("status", None)
    return out


def problems_of(doc: Any, lenient: bool = False) -> list[Problem]:
    """Every problem of one decoded document (empty when the record is valid)."""
    return validate_document(doc, lenient=lenient).problems


@dataclass(frozen=True)
class Source:
    """One decoded document from a stream, or the reason it could not be decoded."""

    record: int
    line: int
    value: Any = None
    problem: Problem | None = None
    raw: bytes | None = None  # a line not decoded yet (read_documents(decode=False)); see decoded()

    def decoded(self) -> Source:
        """This document with its line decoded (itself if it was decoded when read)."""
        return self if self.raw is None else _decode(self.raw, self.record, self.line)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _decode(raw: bytes, record: int, line: int) -> Source:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return _bad(record, line, "REC-JSON-1", f"not UTF-8: byte 0x{raw[e.start]:02x} at byte {e.start + 1} "
                    f"of the line")
    return _loads(text, record, line)


def _loads(text: str, record: int, line: int) -> Source:
    try:
        return Source(record, line, json.loads(text, parse_constant=_reject_constant))
    except json.JSONDecodeError as e:
        end = len(text.rstrip())
        early = e.pos >= end or e.msg.startswith("Unterminated string")
        what = "the record ends early (truncated?)" if early else e.msg
        return _bad(record, line + e.lineno - 1, "REC-JSON-1", f"malformed JSON at column {e.colno}: {what}")
    except RecursionError:
        return _bad(record, line, "REC-SIZE-1", "JSON nested too deeply")
    except ValueError as e:  # huge integers, NaN/Infinity
        huge = "integer string conversion" in str(e)
        return _bad(record, line, "REC-JSON-1", "unusable JSON value: " + (
            f"a number with more than {sys.get_int_max_str_digits()} digits" if huge else str(e)))


def _bad(record: int, line: int, rule: str, reason: str) -> Source:
    return Source(record, line, None, Problem(Location(record, None, None, "", line), rule, reason))


def read_documents(stream: IO[bytes], limit: int | None = None, decode: bool = True) -> Iterator[Source]:
    """The records of a byte stream: JSON Lines (one record per line, read one line at a time), or
    one pretty-printed JSON document (whose first line is ``{`` or ``[``; a list holds records).
    With ``decode=False`` the lines of JSON Lines are left for :meth:`Source.decoded` (so that
    worker processes decode them)."""
    limit = LIMITS["record_bytes"] if limit is None else limit
    line_no = 0
    record = 0
    first = True
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        line_no += 1
        if line_no == 1 and raw.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte order mark: read past it
            raw = raw[3:]
        if len(raw) > limit and not raw.endswith(b"\n"):
            record += 1
            yield _bad(record, line_no, "REC-SIZE-1", f"a record longer than {limit} bytes")
            while raw and not raw.endswith(b"\n"):  # skip the rest of the line
                raw = stream.readline(1 << 20)
            first = False
            continue
        if not raw.strip():
            continue
        if first and raw.strip() in (b"{", b"["):
            rest = stream.read(limit + 1 - len(raw))
            if len(raw) + len(rest) > limit:
                yield _bad(1, line_no, "REC-SIZE-1", f"a document longer than {limit} bytes")
                return
            src = _decode(raw + rest, 1, line_no)
            if src.problem is None and isinstance(src.value, list):
                for i, v in enumerate(src.value):
                    yield Source(i + 1, line_no, v)
            else:
                yield src
            return
        first = False
        record += 1
        yield _decode(raw, record, line_no) if decode else Source(record, line_no, raw=raw)


def validate_stream(stream: IO[bytes], lenient: bool = False, limit: int | None = None, *,
                    ruleset: str | None = None, options: Mapping[str, str] | None = None,
                    jobs: int = 1, executor: Executor | None = None, fast: bool = True) -> Iterator[RecordReport]:
    """Validate every record of a stream, one at a time, in stream order. With ``jobs`` > 1 (or an
    ``executor`` of :mod:`hanafuda.parallel`: worker processes or a Dask cluster) the records are
    read here and decoded and validated by the workers, a window of records at a time, the next
    window sent while this one's reports are read (so memory stays bounded); the reports come back
    in stream order, the same as with one. Streams of fewer than 64 records per worker are
    validated in this process. ``fast`` as for :func:`validate_document`."""
    if executor is None and jobs > 1:
        with open_executor(jobs) as ex:
            yield from validate_stream(stream, lenient, limit, ruleset=ruleset, options=options, executor=ex,
                                       fast=fast)
        return
    workers = 1 if executor is None or executor.in_process else executor.workers
    sources = read_documents(stream, limit, decode=workers <= 1)
    chunk = 1 if executor is None else executor.chunk
    size = workers * max(64, 4 * chunk)
    window = list(itertools.islice(sources, size)) if workers > 1 else []
    if executor is None or len(window) < workers * 64:  # one process, or too few records for the workers
        for src in itertools.chain(window, sources):
            yield validate_source(src, lenient, ruleset, options, fast)
        return
    work = functools.partial(validate_source, lenient=lenient, ruleset=ruleset, options=options, fast=fast)
    running = executor.map(work, window, chunksize=chunk)
    while window:  # the next window is sent before this one's reports are read, so the workers keep busy
        window = list(itertools.islice(sources, size))
        following = executor.map(work, window, chunksize=chunk) if window else iter(())
        yield from running
        running = following


def validate_source(src: Source, lenient: bool, ruleset: str | None,
                    options: Mapping[str, str] | None, fast: bool = True) -> RecordReport:
    """One record of :func:`read_documents` decoded and validated: an unusable report for a line that
    is not a JSON record, else :func:`validate_document` (what :func:`validate_stream` does with each;
    ``hanafuda validate``'s workers call it on their blocks)."""
    src = src.decoded()
    if src.problem is not None:
        return RecordReport(src.record, src.line, None, 0, 0, [src.problem], unusable=True)
    return validate_document(src.value, src.record, src.line, lenient, ruleset=ruleset, options=options,
                             fast=fast)
