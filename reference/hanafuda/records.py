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
import json
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.neutral import JsonValue, Snapshot
from hanafuda_spec.records import (
    FORMAT,
    LIMITS,
    GameRecord,
    Location,
    Problem,
    RoundClaim,
    parse_record,
)
from hanafuda_spec.shuffle import SplitMix64, shuffled
from hanafuda_spec.yaku import ScoredYaku

from hanafuda.engine import Action, ActionSyntaxError, Match, MatchInfo, RoundResult, RoundSetup, action
from hanafuda.registry import UnknownGameError, game

__all__ = [
    "RecordReport",
    "Source",
    "problems_of",
    "read_documents",
    "record_match",
    "replay",
    "validate_document",
    "validate_stream",
]

AnyGame = Any


# -- writing ----------------------------------------------------------------------------------


def record_match(g: AnyGame, ruleset: str | None, options: Mapping[str, str], seed: int, policy_seed: int,
                 *, snapshots: bool = False, first_dealer: int = 0,
                 players: Sequence[str] | None = None) -> dict[str, JsonValue]:
    """Play one match of random legal play (the policy is SplitMix64 with ``policy_seed``) and
    return its record. With ``snapshots`` every action carries its seat and the position after it."""
    rules = g.rules(ruleset, options)
    values = g.spec.resolve(ruleset, options)
    m: Match[Any, Any] = Match.start(g, rules, seed, first_dealer)
    policy = SplitMix64(policy_seed)
    counts = [0] * len(m.info.history)
    cur = 0
    acts: list[JsonValue] = []
    while not m.over:
        legal = m.legal_actions()
        a = legal[policy.below(len(legal))]
        if snapshots:
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
    history = m.info.history
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
            "scores": list(m.info.scores),
            "winners": list(m.info.winners),
            "end_reason": m.info.end_reason,
        },
    }


def _result_json(r: RoundResult) -> dict[str, JsonValue]:
    out: dict[str, JsonValue] = dict(r.to_json())  # type: ignore[arg-type]
    return out


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

    @property
    def ok(self) -> bool:
        return not self.problems and not self.dropped

    def to_json(self) -> dict[str, JsonValue]:
        return {"record": self.record, "line": self.line, "game": self.game, "ok": self.ok,
                "actions": self.actions, "deals": self.deals,
                "problems": [p.to_json() for p in self.problems], "more_problems": self.dropped}


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


def replay(rec: GameRecord, record: int | None = 1, line: int | None = None) -> RecordReport:
    """Replay a parsed record through the reference and report every problem (never raises for
    bad record content)."""
    sink = _Sink(record, line)
    report = RecordReport(record or 0, line, rec.game, len(rec.actions), 0, sink.problems)
    try:
        g = game(rec.game)
    except UnknownGameError as e:
        sink.add("REC-GAME-1", str(e), path="$.game")
        return report
    report.game = g.spec.key
    try:
        rules = g.rules(rec.ruleset, rec.options)
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
    if len(rec.scores) != seats:
        sink.add("REC-FIELD-1", f"{len(rec.scores)} final scores: one per seat ({seats})", path="$.result.scores")
    _Replay(g, rules, rec, sink, report).run()
    report.dropped = sink.dropped
    return report


class _Replay:
    def __init__(self, g: AnyGame, rules: Any, rec: GameRecord, sink: _Sink, report: RecordReport) -> None:
        self.g, self.rules, self.rec, self.sink, self.report = g, rules, rec, sink, report
        deck = g.deck(rules)
        self.cards = deck.cards
        self.by_id = {c.id: c for c in deck.cards}
        self.canonical = [c.id for c in deck.cards]
        self.known = frozenset(self.canonical)
        self.claimed_total = sum(r.actions for r in rec.rounds)
        self.counts_ok = self.claimed_total == len(rec.actions)

    def order_for(self, deal: int, rng: SplitMix64 | None) -> tuple[int, ...] | None:
        rec, add = self.rec, self.sink.add
        seeded = tuple(shuffled(self.canonical, rng)) if rng is not None else None  # the same shuffle, on ids
        if deal == 1:
            listed: tuple[int, ...] | None = rec.deck
            path = "$.deck"
        else:
            listed = rec.deals[deal - 2] if deal - 2 < len(rec.deals) else None
            path = f"$.deals[{deal - 2}]"
        if listed is None:
            if seeded is None:
                add("REC-DEALS-1", f"deal {deal} has no deck order (no seed, and $.deals lists {len(rec.deals)})",
                    deal, path="$.deals")
            return seeded
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
        if not self.counts_ok:
            add("REC-COUNT-1", f"the rounds claim {self.claimed_total} actions in all, the record has "
                f"{len(rec.actions)}", path="$.result.rounds")
        info: MatchInfo = g.new_match(rules, rec.first_dealer)
        rng = SplitMix64(rec.seed) if rec.seed is not None else None
        pos = 0
        deal = 0
        actions = rec.actions
        n_actions = len(actions)
        while not info.over:
            deal += 1
            if deal > LIMITS["deals"]:
                add("REC-SIZE-1", f"the match is not over after {LIMITS['deals']} deals", deal)
                return
            self.report.deals = deal
            claim = rec.rounds[deal - 1] if deal - 1 < len(rec.rounds) else None
            start = pos
            order = self.order_for(deal, rng)
            broken = order is None
            state: Any = None
            if order is not None:
                setup = RoundSetup(info.rounds_played + 1, info.dealer, g.seats_in_play(rules, info), info.scores)
                state = g.start_round(rules, [self.by_id[c] for c in order], setup)
                # the hot loop: parse (cached), check legality, apply
                legal_actions, do, to_move = g.legal_actions, g.do, g.to_move
                while True:
                    seat = to_move(state)
                    if seat is None:
                        break
                    if pos >= n_actions:
                        add("REC-ROUNDS-1", f"the actions end before the match does: deal {deal} is not over "
                            f"(seat {seat} to move)", deal, pos, "$.actions")
                        self.check_claimed_rounds(deal)
                        return
                    entry = actions[pos]
                    a = _parse_action(entry.text)
                    if isinstance(a, str):
                        add("REC-ACTION-1", a, deal, pos, f"$.actions[{pos}]")
                        broken = True
                        break
                    if entry.seat is not None and entry.seat != seat:
                        add("REC-SEAT-1", f"claims seat {entry.seat} moves; seat {seat} is to move", deal, pos,
                            f"$.actions[{pos}].seat")
                    if a not in legal_actions(state):
                        rule_id, reason = _explain(g, state, a)
                        add(rule_id, f"{entry.text!r} is illegal: {reason}", deal, pos, f"$.actions[{pos}]")
                        broken = True
                        break
                    state = do(state, a)
                    if entry.after is not None:
                        diff = _snapshot_diff(g.snapshot(state, info), entry.after)
                        if diff is not None:
                            add("REC-SNAPSHOT-1", diff, deal, pos, f"$.actions[{pos}].after")
                    pos += 1
            if broken:
                if claim is None or not self.counts_ok:
                    add("REC-ROUNDS-1", f"later deals not checked: the record's round action counts do not "
                        f"say where deal {deal} ends", deal)
                    return
                pos = start + claim.actions
                result = _claimed_result(claim, len(info.scores))
                if result is None:
                    add("REC-RESULT-1", f"later deals not checked: deal {deal}'s claimed result is incomplete",
                        deal, path=f"$.result.rounds[{deal - 1}]")
                    return
            else:
                result = g.round_result(state)
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
        if pos < n_actions:
            add("REC-ROUNDS-1", f"{n_actions - pos} action(s) after the match ended", None, pos, f"$.actions[{pos}]")
        self.check_claimed_rounds(deal)
        self.compare_final(info)

    def check_claimed_rounds(self, deals: int) -> None:
        n = len(self.rec.rounds)
        if n != deals:
            self.sink.add("REC-ROUNDS-1", f"the result lists {n} round(s); the actions play {deals} deal(s)",
                          path="$.result.rounds")

    def compare_round(self, deal: int, claim: RoundClaim, result: RoundResult) -> None:
        want = result.to_json()
        for key, got in claim.fields.items():
            exp = want.get(key)
            if got != exp and _normal(key, got) != _normal(key, exp):  # (yaku may come in any order)
                self.sink.add("REC-RESULT-1", f"{key}: the record says {_short(got)}, the rules give {_short(exp)} "
                              f"(round ended by {result.reason})", deal, path=f"$.result.rounds[{deal - 1}].{key}")

    def compare_final(self, info: MatchInfo) -> None:
        rec, add = self.rec, self.sink.add
        if tuple(rec.scores) != tuple(info.scores):
            add("REC-RESULT-2", f"final scores: the record says {list(rec.scores)}, the rules give "
                f"{list(info.scores)}", path="$.result.scores")
        if rec.winners is not None and tuple(rec.winners) != tuple(info.winners):
            add("REC-RESULT-2", f"winners: the record says {list(rec.winners)}, the rules give {list(info.winners)}",
                path="$.result.winners")
        if rec.end_reason is not None and rec.end_reason != info.end_reason:
            add("REC-RESULT-2", f"end reason: the record says {rec.end_reason!r}, the rules give "
                f"{info.end_reason!r}", path="$.result.end_reason")


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
    return s if len(s) <= 120 else s[:117] + "..."


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


def validate_document(doc: Any, record: int = 1, line: int | None = None, lenient: bool = False) -> RecordReport:
    """Parse and replay one decoded document."""
    rec, problems = parse_record(doc, record=record, line=line, lenient=lenient)
    if rec is None:
        g = doc.get("game") if isinstance(doc, dict) and isinstance(doc.get("game"), str) else None
        acts = doc.get("actions") if isinstance(doc, dict) else None
        unusable = any(p.rule_id == "REC-FORMAT-1" for p in problems)  # not a record at all
        return RecordReport(record, line, g, len(acts) if isinstance(acts, list) else 0, 0, problems,
                            unusable=unusable)
    report = replay(rec, record, line)
    report.problems[:0] = problems
    return report


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


def read_documents(stream: IO[bytes], limit: int | None = None) -> Iterator[Source]:
    """The records of a byte stream: JSON Lines (one record per line, read one line at a time), or
    one pretty-printed JSON document (whose first line is ``{`` or ``[``; a list holds records)."""
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
        yield _decode(raw, record, line_no)


def validate_stream(stream: IO[bytes], lenient: bool = False, limit: int | None = None) -> Iterator[RecordReport]:
    """Validate every record of a stream, one at a time."""
    for src in read_documents(stream, limit):
        if src.problem is not None:
            yield RecordReport(src.record, src.line, None, 0, 0, [src.problem], unusable=True)
            continue
        yield validate_document(src.value, src.record, src.line, lenient)
