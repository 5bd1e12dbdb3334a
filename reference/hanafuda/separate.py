"""Separating records: a short game record that validates under one set of rules and fails under another.

Two rule choices of a game (a ruleset and option values each) are told apart by a record when the
validator accepts it under the first and rejects it under the second. :func:`separate` looks for the
shortest such record it can find, in each direction, by playing the two rule choices side by side
(*in lockstep*) from the same deals and stopping at the first place where they part:

* a deal the second rules cannot take (its zones have other sizes, ``REC-ZONES-1``) or end at once
  differently (hand yaku, misdeals);
* an action legal under the first rules and not under the second (the rule id the validator names
  is the one :meth:`~hanafuda.engine.Game.explain_illegal` gives);
* a round ending differently (its result, the scores after it, the end of the match).

The record is then written (format 1.1: every deal given explicitly, as zones; as a deck order
where the two rules deal the same order differently, such as ``packets``) and checked with the
validator under both rules: only a record that validates under the first and fails under the second
is kept. The deals searched form a *family*: seeded shuffles of the documented shuffle, the
canonical order and its rotations (whole months dealt together: hand yaku and field yaku), and,
for Koi-Koi, deals stacked so that the first player captures, play by play, the cards of a yaku whose
table row differs between the rules (:func:`yaku_targets`). Short records are searched exhaustively
(every action sequence up to a depth, on every deal of a small family), longer ones by guided random
play; a record of no action is minimal outright, one found by the exhaustive search is minimal over
the deals searched, and any other is only the smallest found: each :class:`Separation` says which.
Where two rule choices differ in one option whose values :mod:`hanafuda.separate_explained` argues
about, the way no record can take is not searched and the answer says why (:func:`argued`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import FORMAT_1_1, DealZones
from hanafuda_spec.shuffle import SplitMix64

from hanafuda.engine import Action, MatchInfo, RoundResult, RoundSetup, fast_shuffled
from hanafuda.records import deal_layout, order_from_zones, validate_document, zones_from_order
from hanafuda.separate_explained import explained

AnyGame = Any

__all__ = [
    "DealSource",
    "Outcome",
    "RuleChoice",
    "Separation",
    "argued",
    "better",
    "explain_equivalence",
    "month_patterns",
    "option_rule_ids",
    "recheck",
    "refresh_explained",
    "rotations",
    "seeded",
    "separate",
    "settled",
    "shipped_suite",
    "stacked",
    "suite_entry",
    "suite_key",
    "suite_pairs",
    "suite_records",
    "suite_summary",
    "verdict",
    "whole_months",
    "yaku_targets",
]


@dataclass(frozen=True)
class RuleChoice:
    """One side of a comparison: a ruleset (None: the game's default) and explicit option values."""

    ruleset: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    def values(self, g: AnyGame) -> dict[str, str]:
        """Every option's value (raises :class:`~hanafuda_spec.catalogue.OptionError` for a bad choice)."""
        out: dict[str, str] = g.spec.resolve(self.ruleset, dict(self.options))
        return out

    def name(self, g: AnyGame) -> str:
        """The ruleset's name (the game's default when none is given)."""
        return self.ruleset or str(g.spec.default_ruleset)

    def to_json(self, g: AnyGame) -> dict[str, JsonValue]:
        """``{"ruleset", "options"}`` as a record's ``rules`` and ``meta.fails_under`` carry them."""
        return {"ruleset": self.name(g), "options": dict(self.options)}

    def text(self, g: AnyGame) -> str:
        opts = " ".join(f"{k}={v}" for k, v in self.options)
        return self.name(g) + (f" {opts}" if opts else "")


@dataclass(frozen=True)
class Separation:
    """A record that validates under ``good`` and fails under ``bad``: its number of actions, the rule
    ids the validator names under ``bad`` (the first one first) with its first reason, and how far
    it is known to be the shortest (``minimal``: ``"proved"``, ``"over the deals searched"`` or
    ``"smallest found"``)."""

    record: dict[str, JsonValue]
    actions: int
    rule_ids: tuple[str, ...]
    reason: str
    minimal: str
    how: str

    def to_json(self) -> dict[str, JsonValue]:
        return {"actions": self.actions, "rule_ids": list(self.rule_ids), "reason": self.reason,
                "minimal": self.minimal, "how": self.how, "record": self.record}


@dataclass(frozen=True)
class Outcome:
    """What :func:`separate` found for rules ``a`` and ``b``: the options on which they differ (each with
    the catalogue's rule ids), a record each way (or None), the search's bound and, when the two
    cannot be told apart, the reason; ``impossible``: the ways (``a_not_b``, ``b_not_a``) no record
    can take, each with the argument of :mod:`hanafuda.separate_explained` (not searched)."""

    game: str
    a: RuleChoice
    b: RuleChoice
    differing: tuple[tuple[str, str, str, tuple[str, ...]], ...]
    a_not_b: Separation | None
    b_not_a: Separation | None
    bound: int
    searched: str
    equivalent: str | None = None
    impossible: tuple[tuple[str, str], ...] = ()

    def to_json(self, g: AnyGame) -> dict[str, JsonValue]:
        return {
            "game": self.game, "a": self.a.to_json(g), "b": self.b.to_json(g),
            "differing": [{"option": k, "a": va, "b": vb, "rule_ids": list(ids)} for k, va, vb, ids in self.differing],
            "equivalent": self.equivalent, "impossible": dict(self.impossible), "bound": self.bound,
            "searched": self.searched,
            "a_not_b": None if self.a_not_b is None else self.a_not_b.to_json(),
            "b_not_a": None if self.b_not_a is None else self.b_not_a.to_json(),
        }


# -- equivalence ------------------------------------------------------------------------------------


def option_rule_ids(g: AnyGame, key: str) -> tuple[str, ...]:
    """The catalogue's rules that an option changes."""
    return tuple(r.id for r in g.spec.rules if r.option == key)


def explain_equivalence(g: AnyGame, a: RuleChoice, b: RuleChoice) -> str | None:
    """Why no record can tell ``a`` from ``b``, when that follows from the catalogue alone: the two
    resolve to the same option values (an option given on one side is what the other side's ruleset,
    default or option links give anyway). None when they differ in some option's value."""
    va, vb = a.values(g), b.values(g)
    if va != vb:
        return None
    given = sorted({k for k, _ in a.options} ^ {k for k, _ in b.options} | {
        k for k in set(dict(a.options)) & set(dict(b.options)) if dict(a.options)[k] != dict(b.options)[k]})
    links = []
    for key in given:
        for link in g.spec.option(key).links:
            if va[link.other] in link.when:
                links.append(f"{key}={va[key]} is what {link.other}={va[link.other]} gives ({link.rule})")
    why = "; ".join(links) if links else "the rulesets and options name the same values"
    return f"both resolve to the same value of every option ({why}): every record validates alike under both"


def argued(g: AnyGame, a: RuleChoice, b: RuleChoice) -> dict[str, str]:
    """The ways no record can take (``a_not_b``: valid under ``a``, invalid under ``b``; ``b_not_a``),
    each with its reason and the name of its proof, when ``a`` and ``b`` differ in the value of one
    option only and :mod:`hanafuda.separate_explained` argues about that pair (the arguments hold
    whatever the other options: they read the game's code and every yaku table)."""
    va, vb = a.values(g), b.values(g)
    keys = [k for k in g.spec.option_keys if va[k] != vb[k]]
    if len(keys) != 1:
        return {}
    k = keys[0]
    swap = {"a_not_b": "b_not_a", "b_not_a": "a_not_b"}
    known = explained(g.spec.key, k, va[k], vb[k])
    flipped = {swap[w]: e for w, e in explained(g.spec.key, k, vb[k], va[k]).items()}
    return {w: f"{e.reason} (proved by {e.proof})" for w, e in sorted((known or flipped).items())}


# -- deals --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealSource:
    """A family member: the deck order (top first) of each deal, for the dealer who deals it. ``first``
    fixes the first deal (as zones, placed by the dealer's layout, or as an order); later deals are the
    documented shuffle of ``seed`` (or the first again, with ``repeat``)."""

    name: str
    seed: int
    first: DealZones | tuple[int, ...] | None = None
    repeat: bool = False

    def orders(self, g: AnyGame, rules: Any) -> Callable[[int, int], tuple[int, ...]]:
        deck = g.deck(rules)
        rng = SplitMix64(self.seed)
        cache: list[tuple[int, ...]] = []

        def order(k: int, dealer: int) -> tuple[int, ...]:
            if self.first is not None and (k == 0 or self.repeat):
                if isinstance(self.first, DealZones):
                    got = order_from_zones(deal_layout(g, rules, dealer), self.first, g.seats(rules))
                    if not isinstance(got, str):
                        return got
                else:
                    return self.first
            while len(cache) <= k:
                cache.append(tuple(c.id for c in fast_shuffled(deck.cards, rng)))
            return cache[k]
        return order


def rotations(g: AnyGame, rules: Any, step: int = 4) -> list[DealSource]:
    """The canonical order (months together) rotated by multiples of ``step``, dealt again each round."""
    ids = [c.id for c in g.deck(rules).cards]
    return [DealSource(f"canonical order rotated by {r}", r, tuple(ids[r:] + ids[:r]), repeat=True)
            for r in range(0, len(ids), step)]


def whole_months(g: AnyGame, rules: Any) -> list[DealSource]:
    """For each seat, a deal (the same every round) giving that seat whole months and the table one
    card of each other month: hand yaku without a misdeal of the table."""
    layout = deal_layout(g, rules, 0)
    sizes = {z: layout.count(z) for z in dict.fromkeys(layout)}
    cards = sorted(g.deck(rules).cards, key=lambda c: (getattr(c, "month", 0), c.id))
    out = []
    for seat in range(g.seats(rules)):
        rest = [c.id for c in cards]
        month = {c.id: getattr(c, "month", 0) for c in cards}
        zones: dict[str, list[int]] = {f"hand.{seat}": rest[:sizes.get(f"hand.{seat}", 0)]}
        del rest[:len(zones[f"hand.{seat}"])]
        field_: list[int] = []
        for c in list(rest):
            if len(field_) < sizes.get("field", 0) and month[c] not in {month[x] for x in field_}:
                field_.append(c)
                rest.remove(c)
        zones["field"] = field_
        for z, n in sizes.items():
            if z not in zones and z != "stock":
                zones[z] = rest[-n:] if n else []
                del rest[len(rest) - n:]
        if len(field_) != sizes.get("field", 0):
            continue
        hands = tuple(tuple(zones.get(f"hand.{i}", ())) for i in range(g.seats(rules)))
        other = tuple((z, tuple(v)) for z, v in zones.items() if z != "field" and not z.startswith("hand."))
        out.append(DealSource(f"whole months in seat {seat}'s hand", seat, DealZones(hands, tuple(field_), tuple(rest),
                                                                                     other), repeat=True))
    return out


#: How a zone's cards fall into months, for :func:`month_patterns` (padded with single cards).
PATTERNS = ((4,), (3,), (2, 2, 2, 2), (3, 3), (2, 2, 2), (4, 2, 2))


def month_patterns(g: AnyGame, rules: Any) -> list[DealSource]:
    """Deals where the table, or one seat's hand, holds a chosen pattern of months (four of a month,
    three, four pairs, four of a month with two pairs: both lucky hands at once, ...) and every other
    zone cards of different months as far as possible: table and hand yaku, misdeals and the options
    about them."""
    layout = deal_layout(g, rules, 0)
    sizes = {z: layout.count(z) for z in dict.fromkeys(layout)}
    cards = g.deck(rules).cards
    by_month: dict[int, list[int]] = {}
    for c in cards:
        by_month.setdefault(getattr(c, "month", 0), []).append(c.id)
    if len(by_month) < 8:
        return []
    out: list[DealSource] = []
    zones_named = ["field", *(f"hand.{i}" for i in range(min(2, g.seats(rules))))]
    for where in zones_named:
        for pat in PATTERNS:
            months = sorted(by_month)
            left = {m: list(v) for m, v in by_month.items()}
            chosen: list[int] = []
            for k, n in enumerate(pat):
                chosen += left[months[k]][:n]
                del left[months[k]][:n]
            for m in months[len(pat):]:
                if len(chosen) >= sizes.get(where, 0):
                    break
                chosen.append(left[m].pop(0))
            if len(chosen) != sizes.get(where, 0):
                continue
            # the rest interleaved by month: each other zone gets cards of different months
            rest = [c for i in range(4) for m in months for c in left[m][i:i + 1]]
            rest += [c.id for c in cards if c.id not in set(chosen) | set(rest)]
            zones: dict[str, list[int]] = {where: chosen}
            for z, n in sizes.items():
                if z not in zones and z != "stock":
                    zones[z], rest = rest[:n], rest[n:]
            hands = tuple(tuple(zones.get(f"hand.{i}", ())) for i in range(g.seats(rules)))
            other = tuple((z, tuple(v)) for z, v in zones.items() if z != "field" and not z.startswith("hand."))
            name = f"{where.replace('hand.', 'seat ')} holding months {'+'.join(map(str, pat))}"
            out.append(DealSource(name, len(out), DealZones(hands, tuple(zones.get("field", ())), tuple(rest), other)))
    return out


def seeded(n: int, start: int = 0) -> list[DealSource]:
    return [DealSource(f"seed {s}", s) for s in range(start, start + n)]


# -- lockstep play ----------------------------------------------------------------------------------


@dataclass
class _Side:
    g: AnyGame
    rules: Any
    info: MatchInfo
    state: Any = None


@dataclass
class _Node:
    """Both sides after the same actions from the same deals, and the record so far."""

    a: _Side
    b: _Side
    actions: list[str] = field(default_factory=list)
    deals: list[JsonValue] = field(default_factory=list)
    claims: list[dict[str, JsonValue]] = field(default_factory=list)
    in_deal: int = 0
    parted: str | None = None  # why the sides parted
    a_ended: bool = False  # parted where a round ended under the first rules (the record may go on)
    b_undealt: bool = False  # parted where the second rules cannot deal the deal

    def copy(self) -> _Node:
        return _Node(_Side(self.a.g, self.a.rules, self.a.info, self.a.state),
                     _Side(self.b.g, self.b.rules, self.b.info, self.b.state),
                     list(self.actions), list(self.deals), list(self.claims), self.in_deal, self.parted,
                     self.a_ended, self.b_undealt)


_MAX_DEALS = 24  # deals in one record at most


class _Lockstep:
    """Plays rules ``a`` and ``b`` side by side from the deals of a :class:`DealSource`."""

    def __init__(self, g: AnyGame, a: Any, b: Any, as_order: bool, first_dealer: int = 0) -> None:
        self.g, self.ra, self.rb, self.as_order, self.first_dealer = g, a, b, as_order, first_dealer
        self.seats = g.seats(a)
        #: the cards of each side's deck by id: rules ``a``'s, then ``b``'s
        self.cards = tuple({c.id: c for c in g.deck(rules).cards} for rules in (a, b))

    def start(self, src: DealSource) -> _Node:
        g = self.g
        node = _Node(_Side(g, self.ra, g.new_match(self.ra, self.first_dealer)),
                     _Side(g, self.rb, g.new_match(self.rb, self.first_dealer)))
        self.order = src.orders(g, self.ra)
        self._deal(node)
        return node

    def _deal(self, node: _Node) -> None:
        """Deal the next round to both sides and settle rounds over at once (dealing again)."""
        g = self.g
        while node.parted is None:
            a, b = node.a, node.b
            k = len(node.deals)
            if k >= _MAX_DEALS:  # a deal void again and again (a repeated misdeal): give up this line
                node.a.info = replace(node.a.info, over=True)
                return
            order_a = self.order(k, a.info.dealer)
            if self.as_order:
                order_b: tuple[int, ...] | str = order_a
                node.deals.append(list(order_a))
            else:
                zones = zones_from_order(deal_layout(g, self.ra, a.info.dealer), order_a, self.seats)
                node.deals.append(zones.to_json())
                order_b = order_from_zones(deal_layout(g, self.rb, b.info.dealer), zones, g.seats(self.rb))
            a.state = self._start(a, order_a)
            if isinstance(order_b, str):
                node.parted = f"the deal cannot be dealt: {order_b}"
                node.b_undealt = True
                return
            try:
                b.state = self._start(b, order_b)
            except (ValueError, KeyError) as e:  # another deck (a card the other rules do not have)
                node.parted = f"the deal cannot be dealt: {e}"
                node.b_undealt = True
                return
            node.in_deal = 0
            if a.info.scores != b.info.scores:  # an abandoned record claims the scores
                node.parted = "the scores differ"
                return
            if not self._settle(node):
                return

    def _start(self, side: _Side, order: Sequence[int]) -> Any:
        g, info = self.g, side.info
        setup = RoundSetup(info.rounds_played + 1, info.dealer, g.seats_in_play(side.rules, info), info.scores)
        cards = self.cards[1 if side.rules is self.rb else 0]
        return g.start_round(side.rules, [cards[c] for c in order], setup)

    def _settle(self, node: _Node) -> bool:
        """Settle a round over on either side; True when a new deal is needed (both over, alike)."""
        g = self.g
        ta, tb = g.is_terminal(node.a.state), g.is_terminal(node.b.state)
        if not ta and not tb:
            return False
        if tb and not ta:  # over under the second rules only: the next action shows it
            return False
        if ta != tb:
            node.parted = "the round ends under one rules and not the other"
            node.a_ended = ta
            if ta:
                node.claims.append(_claim(len(node.claims) + 1, node.in_deal, g.round_result(node.a.state)))
                node.a.info = g.settle(node.a.rules, node.a.info, g.round_result(node.a.state))
            return False
        ra, rb = g.round_result(node.a.state), g.round_result(node.b.state)
        node.claims.append(_claim(len(node.claims) + 1, node.in_deal, ra))
        node.a.info = g.settle(node.a.rules, node.a.info, ra)
        node.b.info = g.settle(node.b.rules, node.b.info, rb)
        if ra.to_json() != rb.to_json():
            node.parted = "the round's result differs"
            node.a_ended = True
            return False
        ia, ib = node.a.info, node.b.info
        if (ia.scores, ia.over, ia.dealer, ia.winners, ia.end_reason) != (
                ib.scores, ib.over, ib.dealer, ib.winners, ib.end_reason):
            node.parted = "the match after the round differs"
            node.a_ended = True
            return False
        return not ia.over

    def extend(self, node: _Node) -> _Node:
        """A node parted at the end of a round under the first rules only, played on under them into
        the next deal by one action (the first legal one)."""
        g = self.g
        out = node.copy()
        a = out.a
        out.parted = None
        for k in range(len(out.deals), len(out.deals) + 4):
            order_a = self.order(k, a.info.dealer)
            if self.order(k - 1, a.info.dealer) == order_a:  # a repeated deal: a shuffle instead
                order_a = tuple(c.id for c in fast_shuffled(g.deck(self.ra).cards, SplitMix64(k)))
            zones = zones_from_order(deal_layout(g, self.ra, a.info.dealer), order_a, self.seats)
            out.deals.append(list(order_a) if self.as_order else zones.to_json())
            a.state = self._start(a, order_a)
            if not g.is_terminal(a.state):
                act = g.legal(a.state)[0]
                out.actions.append(str(act))
                a.state = g.apply(a.state, act)
                out.parted = "the round ends under one rules and not the other"
                return out
            result = g.round_result(a.state)
            out.claims.append(_claim(len(out.claims) + 1, 0, result))
            a.info = g.settle(a.rules, a.info, result)
            if a.info.over:
                return out
        return out

    def legal(self, node: _Node) -> tuple[Action, ...]:
        if node.parted is not None or node.a.info.over:
            return ()
        out: tuple[Action, ...] = self.g.legal(node.a.state)
        return out

    def step(self, node: _Node, act: Action) -> None:
        """Play ``act`` (legal under ``a``) on both sides; marks the node parted where they part."""
        g = self.g
        node.actions.append(str(act))
        node.in_deal += 1
        if g.is_terminal(node.b.state) or act not in g.legal(node.b.state):
            node.a.state = g.apply(node.a.state, act)
            node.parted = "the action is illegal under the other rules"
            if g.is_terminal(node.a.state):  # it ended the round under the first rules: the record claims it
                node.a_ended = True
                result = g.round_result(node.a.state)
                node.claims.append(_claim(len(node.claims) + 1, node.in_deal, result))
                node.a.info = g.settle(node.a.rules, node.a.info, result)
            return
        node.a.state = g.apply(node.a.state, act)
        node.b.state = g.apply(node.b.state, act)
        if self._settle(node):
            self._deal(node)

    def record(self, node: _Node, good: RuleChoice, bad: RuleChoice, how: str) -> dict[str, JsonValue]:
        g = self.g
        info = node.a.info
        over = info.over
        doc: dict[str, JsonValue] = {
            "format": FORMAT_1_1, "game": g.spec.key,
            "rules": {"ruleset": good.name(g), "options": dict(good.values(g))},
            "first_dealer": self.first_dealer,
            "players": [f"seat {i}" for i in range(self.seats)],
            "deck": node.deals[0], "deals": list(node.deals[1:]),
            "actions": list(node.actions),
            "result": {"rounds": list(node.claims), "scores": list(info.scores),
                       **({"winners": list(info.winners), "end_reason": info.end_reason} if over else {})},
            "status": "complete" if over else "abandoned",
            "meta": {"separates": how, "fails_under": bad.to_json(g)},
        }
        if not doc["deals"]:
            del doc["deals"]
        return doc


def _claim(deal: int, actions: int, r: RoundResult) -> dict[str, JsonValue]:
    out: dict[str, JsonValue] = {"deal": deal, "actions": actions}
    out.update(r.to_json())  # type: ignore[arg-type]
    return out


# -- checking a record ------------------------------------------------------------------------------


def verdict(g: AnyGame, doc: dict[str, JsonValue], good: RuleChoice,
            bad: RuleChoice) -> tuple[tuple[str, ...], str] | None:
    """The rule ids the validator names under ``bad`` (and its first reason) when ``doc`` validates
    under ``good`` and fails under ``bad``; None otherwise."""
    if not validate_document(doc, ruleset=good.name(g), options=dict(good.options)).ok:
        return None
    rep = validate_document(doc, ruleset=bad.name(g), options=dict(bad.options))
    if rep.ok or not rep.problems:
        return None
    return tuple(dict.fromkeys(p.rule_id for p in rep.problems)), rep.problems[0].reason


# -- stacked deals for a yaku ---------------------------------------------------------------------


def yaku_targets(g: AnyGame, va: Mapping[str, str], vb: Mapping[str, str], limit: int = 8) -> list[frozenset[int]]:
    """Capture piles worth trying: for each row of the game's yaku table that differs between the two
    option values (its points, cards or group, or a row only one has), the fewest cards that form it;
    then the other rows' (a difference in how yaku combine shows with any yaku). At most ``limit``
    cards each. Only games whose catalogue builds the table from option values: Koi-Koi, and Musashino-Bana
    (its dekiyaku: one card of each part)."""
    table_of = getattr(_catalogue(g), "yaku_table", None)
    if table_of is not None and g.spec.key == "musashino":  # dekiyaku: one card of each part
        da = {r.id: r for r in table_of(va)}
        db = {r.id: r for r in table_of(vb)}
        rows = sorted((da | db).values(), key=lambda r: da.get(r.id) == db.get(r.id))
        got = [frozenset(min(part) for part in r.parts) for r in rows]
        return [t for t in dict.fromkeys(got) if len(t) <= limit]
    if table_of is None or g.spec.key != "koikoi":
        return []
    ta = {r.id: r for r in table_of(va, 1)}
    tb = {r.id: r for r in table_of(vb, 1)}
    differ = [r for k, r in (ta | tb).items() if ta.get(k) != tb.get(k)]
    rest = [r for k, r in ta.items() if ta.get(k) == tb.get(k)]
    out: list[frozenset[int]] = []
    for row in (*differ, *rest):
        want = set(row.required)
        for c in sorted(row.pool - row.forbidden - row.required, key=lambda c: (c not in row.doubled, c)):
            if row.count(row.pool, frozenset(want)) >= row.need:
                break
            want.add(c)
        if row.count(row.pool, frozenset(want)) >= row.need and len(want) <= limit and frozenset(want) not in out:
            out.append(frozenset(want))
    return out


def _catalogue(g: AnyGame) -> Any:
    import importlib

    return importlib.import_module(f"hanafuda_spec.games.{g.spec.key}")


def stacked(g: AnyGame, rules: Any, target: frozenset[int], mover: int, seed: int) -> DealSource | None:
    """A deal where seat ``mover`` holds, for each card of ``target`` laid on the table, a card of its
    month, so that each hand play captures one; the other cards spread over months so that the deal is
    an ordinary one (no four of a month together). None when the target does not fit."""
    layout = deal_layout(g, rules, 0)
    sizes = {z: layout.count(z) for z in set(layout)}
    seats = g.seats(rules)
    cards = [c for c in g.deck(rules).cards]
    month = {c.id: getattr(c, "month", 0) for c in cards}
    if len(target) > min(sizes.get("field", 0), sizes.get(f"hand.{mover}", 0)):
        return None
    used = set(target)
    mates: list[int] = []
    for t in sorted(target):
        mate = next((c.id for c in cards if month[c.id] == month[t] and c.id not in used), None)
        if mate is None:
            return None
        used.add(mate)
        mates.append(mate)
    rng = SplitMix64(seed)
    aimed = {month[t] for t in target}  # the other hands hold no card of these months: they cannot take them
    rest = [c.id for c in fast_shuffled([c for c in cards if c.id not in used], rng)]
    zones: dict[str, list[int]] = {"field": sorted(target), f"hand.{mover}": mates}
    for z in [f"hand.{i}" for i in range(seats)] + ["field"]:
        have = zones.setdefault(z, [])
        while len(have) < sizes.get(z, 0):
            counts = {m: sum(1 for c in have if month[c] == m) for m in {month[c] for c in have}}
            fits = [c for c in rest if counts.get(month[c], 0) < 2 and (z != "field" or month[c] not in {
                month[x] for x in zones[f"hand.{mover}"]} or month[c] in {month[x] for x in target})]
            pick = next((c for c in fits if z == "field" or month[c] not in aimed), fits[0] if fits else rest[0])
            rest.remove(pick)
            have.append(pick)
    hands = tuple(tuple(zones[f"hand.{i}"]) for i in range(seats))
    other = tuple((z, tuple(rest[:n])) for z, n in sizes.items() if z not in ("field", "stock")
                  and not z.startswith("hand."))
    rest = rest[sum(n for _, n in ((z, len(c)) for z, c in other)):]
    dz = DealZones(hands, tuple(zones["field"]), tuple(rest), other)
    names = ",".join(map(str, sorted(target)))
    return DealSource(f"stacked: seat {mover} captures {names} (seed {seed})", seed, dz)


# -- the search ---------------------------------------------------------------------------------------


@dataclass
class _Found:
    node: _Node
    source: DealSource
    ids: tuple[str, ...]
    reason: str
    exhaustive: bool
    from_deal: bool = False


def _check(ls: _Lockstep, node: _Node, src: DealSource, good: RuleChoice, bad: RuleChoice,
           exhaustive: bool) -> _Found | None:
    doc = ls.record(node, good, bad, src.name)
    got = verdict(ls.g, doc, good, bad)
    if got is None and node.a_ended and not node.a.info.over:
        # an abandoned record's last round is not checked when nothing follows it (it may be listed
        # unfinished): go on into the next deal under the first rules, one action
        node = ls.extend(node)
        if node.parted is None:
            return None
        doc = ls.record(node, good, bad, src.name)
        got = verdict(ls.g, doc, good, bad)
    if got is None and node.b_undealt and not node.actions and not ls.g.is_terminal(node.a.state):
        # a record that stops before its first action is not dealt: play one action of the deal
        node = node.copy()
        act = ls.g.legal(node.a.state)[0]
        node.actions.append(str(act))
        node.a.state = ls.g.apply(node.a.state, act)
        got = verdict(ls.g, ls.record(node, good, bad, src.name), good, bad)
    if got is None:
        return None
    return _Found(node, src, got[0], got[1], exhaustive)


def _exhaustive(ls: _Lockstep, sources: Sequence[DealSource], good: RuleChoice, bad: RuleChoice,
                depth: int, budget: int) -> tuple[_Found | None, int, bool]:
    """Breadth first over every action sequence from every deal of ``sources``, up to ``depth``
    actions and ``budget`` positions: the first separating record by number of actions, the depth
    fully searched without one, and whether the budget cut the search."""
    level: list[tuple[_Node, DealSource]] = []
    for src in sources:
        node = ls.start(src)
        if node.parted is not None:
            found = _check(ls, node, src, good, bad, True)
            if found is not None:
                return found, 0, False
        else:
            level.append((node, src))
    seen = len(level)
    for d in range(1, depth + 1):
        nxt: list[tuple[_Node, DealSource]] = []
        for node, src in level:
            for act in ls.legal(node):
                child = node.copy()
                ls.order = src.orders(ls.g, ls.ra)
                ls.step(child, act)
                seen += 1
                if child.parted is not None:
                    found = _check(ls, child, src, good, bad, True)
                    if found is not None:
                        return found, d - 1, False
                elif not child.a.info.over:
                    nxt.append((child, src))
                if seen > budget:
                    return None, d - 1, True
        level = nxt
        if not level:
            return None, d, False
    return None, depth, False


def _playout(ls: _Lockstep, src: DealSource, good: RuleChoice, bad: RuleChoice, bound: int, seed: int,
             target: frozenset[int] | None, seat: int | None = None) -> _Found | None:
    """One game played side by side from ``src``: random legal actions; with a ``target``, the action
    that leaves the most of its cards in the mover's capture pile, or with a ``seat`` too, by every
    player the action that leaves the most in ``seat``'s pile and the fewest in the others' (the
    other players keep out of the way); ties broken at random."""
    g = ls.g
    rng = SplitMix64(seed)
    node = ls.start(src)
    while len(node.actions) <= bound:
        if node.parted is not None:
            return _check(ls, node, src, good, bad, False)
        legal = ls.legal(node)
        if not legal:
            return None
        if len(node.actions) == bound:
            return None
        act = legal[rng.below(len(legal))]
        if target is not None and len(legal) > 1:
            best = -len(target) - 1
            mover = g.to_move(node.a.state)
            for cand in legal:
                snap = g.snapshot(g.apply(node.a.state, cand))
                got = (len(target & set(snap.zone(f"captured.{mover}"))) if seat is None else
                       sum(len(target & set(snap.zone(f"captured.{i}"))) * (1 if i == seat else -1)
                           for i in range(ls.seats)))
                if got > best or (got == best and rng.below(2)):
                    best, act = got, cand
        ls.step(node, act)
    return None


def _search(g: AnyGame, good: RuleChoice, bad: RuleChoice, bound: int, effort: int,
            as_order: bool, random_deals: int = 40) -> tuple[_Found | None, str]:
    """The shortest separating record found under ``good`` and not ``bad``, and what was searched."""
    ra, rb = g.rules(good.ruleset, dict(good.options)), g.rules(bad.ruleset, dict(bad.options))
    ls = _Lockstep(g, ra, rb, as_order)
    small = [*whole_months(g, ra), *month_patterns(g, ra), *seeded(4 * effort),
             *rotations(g, ra, 4 if effort > 1 else 12)]
    depth = min(bound, 3)
    found, full, cut = _exhaustive(ls, small, good, bad, depth, 4000 * effort)
    searched = (f"every action sequence of up to {full} actions from {len(small)} deals (whole months, month "
                "patterns, seeded shuffles, rotations of the canonical order)")
    if found is not None:
        return found, searched
    va, vb = good.values(g), bad.values(g)
    best: _Found | None = None
    targets = yaku_targets(g, va, vb)[: 6 * effort]
    tries: list[tuple[DealSource, frozenset[int] | None, int]] = []
    for i, t in enumerate(targets):
        for mover in range(min(2, g.seats(ra))):
            src = stacked(g, ra, t, mover, i)
            if src is not None:
                tries.append((src, t, mover))
    tries.extend((s, None, 0) for s in [*seeded(random_deals * effort, 1000), *rotations(g, ra, 6)])
    plays = 0
    for src, want, mover in tries:
        # with a target: four games where each player takes what it can, two where the others leave
        # the target to the seat the deal was stacked for
        ways = [(k, None) for k in range(4)] + [(k, mover) for k in range(2)] if want is not None else [
            (0, None), (1, None)]
        for k, seat in ways:
            limit = bound if best is None else len(best.node.actions) - 1
            if limit < 0:
                break
            got = _playout(ls, src, good, bad, limit, k, want, seat)
            plays += 1
            if got is not None:
                best = got
    searched += f"; {plays} guided and random games of up to {bound} actions from {len(tries)} more deals"
    if best is not None and 0 < len(best.node.actions) <= 6:
        # anything shorter from the deal where it was found, or from the small family?
        shorter, upto, cut = _exhaustive(ls, [best.source], good, bad, len(best.node.actions) - 1, 3000 * effort)
        if shorter is not None:
            best = shorter
        elif not cut:
            best.from_deal = True
            searched += f"; every action sequence of up to {upto} actions from the deal found"
    return best, searched


def separate(g: AnyGame, a: RuleChoice, b: RuleChoice, bound: int = 60, effort: int = 1,
             random_deals: int = 40) -> Outcome:
    """Search for a record that validates under ``a`` and fails under ``b``, and one the other way
    (see the module docstring). ``bound``: the most actions a record may have; ``effort`` scales
    the number of deals and positions searched."""
    va, vb = a.values(g), b.values(g)
    differing = tuple((k, va[k], vb[k], option_rule_ids(g, k)) for k in g.spec.option_keys if va[k] != vb[k])
    why = explain_equivalence(g, a, b)
    if why is not None:
        return Outcome(g.spec.key, a, b, differing, None, None, bound, "nothing (no search needed)", why)
    impossible = argued(g, a, b)
    if len(impossible) == 2:
        return Outcome(g.spec.key, a, b, differing, None, None, bound, "nothing (no search needed)",
                       "no record can tell them apart: " + "; ".join(dict.fromkeys(impossible.values())),
                       tuple(impossible.items()))
    ra, rb = g.rules(a.ruleset, dict(a.options)), g.rules(b.ruleset, dict(b.options))
    layouts_differ = any(deal_layout(g, ra, d) != deal_layout(g, rb, d) for d in range(g.seats(ra)))
    results: list[Separation | None] = []
    searched = ""
    note = ""
    for way, good, bad in (("a_not_b", a, b), ("b_not_a", b, a)):
        if way in impossible:
            results.append(None)
            continue
        found, searched = _search(g, good, bad, bound, effort, False, random_deals)
        if found is None and layouts_differ:
            found, searched = _search(g, good, bad, bound, effort, True, random_deals)
            note = (" (deals given as zones could not tell them apart; as deck orders, which the two rules "
                    "deal differently, they could)")
        results.append(None if found is None else _separation(g, found, good, bad))
    return Outcome(g.spec.key, a, b, differing, results[0], results[1], bound, searched + note, None,
                   tuple(impossible.items()))


def _separation(g: AnyGame, found: _Found, good: RuleChoice, bad: RuleChoice) -> Separation:
    n = len(found.node.actions)
    minimal = ("proved" if n == 0 else "shortest over the deals searched exhaustively" if found.exhaustive
               else "shortest from its deal" if found.from_deal else "smallest found")
    ls_doc = found.node
    doc = _Lockstep(g, g.rules(good.ruleset, dict(good.options)), g.rules(bad.ruleset, dict(bad.options)),
                    False).record(ls_doc, good, bad, found.source.name)
    meta = doc["meta"]
    assert isinstance(meta, dict)
    meta["rule_ids"] = list(found.ids)
    meta["minimal"] = minimal
    return Separation(doc, n, found.ids, found.reason, minimal, found.source.name)


# -- the separating suite -----------------------------------------------------------------------------


def suite_pairs(g: AnyGame) -> Iterator[tuple[str, str, str, tuple[tuple[str, str], ...], str | None]]:
    """Every option of the game and every pair of its values: ``(option, x, y, context, refused)``.
    The pair is compared from the default ruleset with only the option changed; where an option link
    refuses a value there (the option acts only under another option's value), under the first value of
    that other option that allows both (``context``); ``refused`` says why when none does."""
    spec = g.spec
    for o in spec.options:
        for i, x in enumerate(o.choices):
            for y in o.choices[i + 1:]:
                context: tuple[tuple[str, str], ...] = ()
                refused = None
                if not (_resolves(g, ((o.key, x),)) and _resolves(g, ((o.key, y),))):
                    refused = "refused under the default ruleset"
                    for link in o.links:
                        for v in spec.option(link.other).choices:
                            ctx = ((link.other, v),)
                            if _resolves(g, (*ctx, (o.key, x))) and _resolves(g, (*ctx, (o.key, y))):
                                context, refused = ctx, None
                                break
                        if refused is None:
                            break
                    if refused is not None:
                        rules = ", ".join(sorted({lk.rule for lk in o.links}))
                        refused = (f"{o.key}={x} and {o.key}={y} are never both allowed with the same other "
                                   f"options ({rules}): no pair of rule choices differing only in it exists")
                yield o.key, x, y, context, refused


def _resolves(g: AnyGame, options: tuple[tuple[str, str], ...]) -> bool:
    from hanafuda_spec.catalogue import OptionError

    try:
        g.spec.resolve(None, dict(options))
    except OptionError:
        return False
    return True


#: The separating suite's search budget per game: (bound in actions, random deals); Koi-Koi has the
#: most pairs (246) and the shortest rounds, so a smaller budget.
SUITE_BUDGET = {"koikoi": (30, 2)}
_SUITE_DEFAULT = (80, 4)
#: A larger budget for the options whose difference shows only late (the length of a match, a
#: bust, a round limit: many rounds) or rarely (an exact lead of 90, equal round scores, an exact
#: yaku total; a yaku only some deals form).
SUITE_OPTION_BUDGET = {
    ("koikoi", "koikoi_min"): (60, 40), ("koikoi", "viewing"): (60, 40), ("koikoi", "yaku_system"): (60, 2),
    ("kusurigui", "rounds"): (400, 4), ("kusurigui", "bust"): (400, 40),
    ("musashino", "length"): (400, 4), ("musashino", "insta_win_check"): (300, 100),
    ("kekoro", "round_limit"): (500, 40), ("kekoro", "eight_islands"): (80, 40),
    ("kekoro", "tie_dealer"): (500, 200), ("kekoro", "lead_test"): (500, 200),
}


def suite_entry(g: AnyGame, option: str, x: str, y: str, context: tuple[tuple[str, str], ...],
                refused: str | None, bound: int | None = None, random_deals: int | None = None) -> dict[str, JsonValue]:
    """One vector of the separating suite: the pair, its status (``separated`` both ways; ``separated
    one way`` with, in ``reason``, why no record exists the other way, or none when that is not known;
    ``explained`` with the reason no record can separate them; ``unresolved`` when the search found
    nothing within its bound) and its records. A way :mod:`hanafuda.separate_explained` proves
    impossible is recorded as such (``explained``: the reason by way). The budget is
    :data:`SUITE_OPTION_BUDGET`'s or :data:`SUITE_BUDGET`'s unless given."""
    budget = SUITE_OPTION_BUDGET.get((g.spec.key, option), SUITE_BUDGET.get(g.spec.key, _SUITE_DEFAULT))
    bound = budget[0] if bound is None else bound
    random_deals = budget[1] if random_deals is None else random_deals
    a = RuleChoice(None, (*context, (option, x)))
    b = RuleChoice(None, (*context, (option, y)))
    out: dict[str, JsonValue] = {"game": g.spec.key, "option": option, "values": [x, y],
                                 "context": dict(context), "option_rule_ids": list(option_rule_ids(g, option))}
    if refused is not None:
        out.update(status="explained", reason=refused, a_not_b=None, b_not_a=None)
        return out
    got = separate(g, a, b, bound=bound, random_deals=random_deals)
    one = got.to_json(g)
    known = dict(got.impossible)
    missing = [w for w in ("a_not_b", "b_not_a") if one[w] is None]
    if known:  # the ways no record can take, argued (not searched)
        out["explained"] = dict(known)
        reason = "; ".join(dict.fromkeys(known.values()))
        if len(known) == 2:
            status = "explained"
        elif len(missing) == 1:
            status = "separated one way"
        else:
            status = "unresolved"
            reason += f"; the other way: no separating record found within {bound} actions ({got.searched})"
    elif got.equivalent is not None:
        status, reason = "explained", got.equivalent
    elif not missing:
        status, reason = "separated", None
    elif len(missing) == 1:
        status, reason = "separated one way", None  # the other way neither found nor explained
    else:
        status, reason = "unresolved", f"no separating record found within {bound} actions ({got.searched})"
    ids: list[JsonValue] = []
    for side in (got.a_not_b, got.b_not_a):
        if side is not None:
            ids.extend(i for i in side.rule_ids if i not in ids)
    out.update(status=status, reason=reason, rule_ids=ids, searched=got.searched,
               a_not_b=one["a_not_b"], b_not_a=one["b_not_a"])
    return out


def suite_key(option: str, x: str, y: str, context: Mapping[str, str]) -> tuple[str, str, str, str]:
    """A suite entry's identity: the option, its two values and the context (other options set)."""
    return option, x, y, ",".join(f"{k}={v}" for k, v in sorted(context.items()))


def settled(entry: Mapping[str, Any]) -> bool:
    """Whether a suite entry needs no more search: separated both ways, explained, or separated one way
    with the other way explained."""
    return entry["status"] in ("separated", "explained") or (
        entry["status"] == "separated one way" and entry.get("reason") is not None)


def refresh_explained(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """A settled entry with its recorded reasons taken again from :mod:`hanafuda.separate_explained`
    (their wording may have changed); None when a way it says is explained is no longer (search again)."""
    out = dict(entry)
    was = entry.get("explained")
    if not was:
        return out
    known = explained(entry["game"], entry["option"], *entry["values"])
    if not set(was) <= set(known):
        return None
    out["explained"] = {w: f"{known[w].reason} (proved by {known[w].proof})" for w in was}
    out["reason"] = "; ".join(dict.fromkeys(out["explained"].values()))
    return out


def recheck(g: AnyGame, entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """A suite entry with each record checked again by the validator: its rule ids and first reason
    as the validator names them today; None when a record no longer separates (search again)."""
    out = dict(entry)
    ids: list[JsonValue] = []
    for way in ("a_not_b", "b_not_a"):
        sep = entry.get(way)
        if sep is None:
            continue
        doc = json.loads(json.dumps(sep["record"]))
        good = RuleChoice(doc["rules"]["ruleset"], tuple(sorted(doc["rules"]["options"].items())))
        bad_rules = doc["meta"]["fails_under"]
        bad = RuleChoice(bad_rules["ruleset"], tuple(sorted(bad_rules["options"].items())))
        got = verdict(g, doc, good, bad)
        if got is None:
            return None
        doc["meta"]["rule_ids"] = list(got[0])
        out[way] = dict(sep, rule_ids=list(got[0]), reason=got[1], record=doc)
        ids.extend(i for i in got[0] if i not in ids)
    if "rule_ids" in out:
        out["rule_ids"] = ids
    return out


def _known_ways(entry: Mapping[str, Any]) -> int:
    return sum(1 for w in ("a_not_b", "b_not_a") if entry.get(w) is not None or w in (entry.get("explained") or {}))


def better(old: Mapping[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """Of two entries for the same pair, the one that settles more ways (a record or an explanation
    each), ``new`` on a tie: a larger search never loses what an earlier one found."""
    if old is not None and _known_ways(old) > _known_ways(new):
        return dict(old)
    return new


def shipped_suite(key: str) -> list[dict[str, Any]]:
    """The separating suite shipped for a game (``hanafuda/separating/<game>.jsonl``, written by
    ``hanafuda separate GAME --suite --out FILE``); empty when none ships."""
    from importlib import resources

    res = resources.files("hanafuda").joinpath("separating", f"{key}.jsonl")
    if not res.is_file():
        return []
    return [json.loads(line) for line in res.read_text(encoding="utf-8").splitlines() if line.strip()]


def suite_records(suite: Sequence[Mapping[str, Any]]) -> list[dict[str, JsonValue]]:
    """The records of a suite, each with ``meta.vector`` naming its pair."""
    out: list[dict[str, JsonValue]] = []
    for e in suite:
        for way in ("a_not_b", "b_not_a"):
            sep = e.get(way)
            if sep is None:
                continue
            rec = dict(sep["record"])
            meta = dict(rec.get("meta") or {})
            meta["vector"] = {"option": e["option"], "values": e["values"], "context": e.get("context", {}),
                              "way": way, "minimal": sep["minimal"], "option_rule_ids": e["option_rule_ids"]}
            rec["meta"] = meta
            out.append(rec)
    return out


def suite_summary(key: str, suite: Sequence[Mapping[str, Any]]) -> dict[str, JsonValue]:
    """Every pair of a suite without its records, and the number of pairs of each status."""
    counts: dict[str, int] = {}
    pairs: list[JsonValue] = []
    for e in suite:
        status = e["status"]
        if status == "separated one way" and e.get("reason") is None:
            status = "separated one way, the other way unresolved"
        counts[status] = counts.get(status, 0) + 1
        pairs.append({k: v for k, v in e.items() if k not in ("a_not_b", "b_not_a", "_i")} | {
            way: None if e.get(way) is None else {k: v for k, v in e[way].items() if k != "record"}
            for way in ("a_not_b", "b_not_a")})
    return {"game": key, "counts": dict(sorted(counts.items())), "pairs": pairs}
