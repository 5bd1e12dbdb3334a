"""Why do records fail? A ranked list of explanations for their failing rounds.

``hanafuda diagnose`` replays records round by round (the validator's replay, :func:`hanafuda.records.replay`)
and, for the rounds that fail, searches for the changes under which they replay legally and score
exactly: the catalogue's option values and rulesets, and the engine mistakes of
:mod:`hanafuda.deviations`. A change **explains** a round when the round, failing before, has no problem
under it; it is offered only if it also leaves every round that validated valid (a change that makes
one total equal by coincidence breaks other rounds, and is not offered). Changes are combined greedily:
the one explaining the most rounds is kept, and the rest are diagnosed again on top of it.

Each candidate is first tried on a sample of the failing rounds (replaying their records only up to
them), and only those explaining some of the sample are replayed over every record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import FORMAT_1_1, GameRecord, Problem

from hanafuda import deviations_other as other
from hanafuda.deviations import Deviation, deviant_rules, library
from hanafuda.records import RecordReport, _Replay, _Sink, replay
from hanafuda.registry import game

__all__ = ["Candidate", "Diagnosis", "Explanation", "Loaded", "Round", "diagnose", "failing_rounds", "held",
           "witness_record"]

#: Failing rounds a candidate is first tried on; candidates kept from the sample; greedy steps at most.
SAMPLE = 24
SHORTLIST = 6
STEPS = 12


@dataclass(frozen=True)
class Loaded:
    """One record to diagnose, with where it came from."""

    file: str
    record: int
    rec: GameRecord


@dataclass(frozen=True)
class Candidate:
    """A change to replay under: a ruleset replacing the record's, an option value, or a deviation."""

    kind: str  # "option" or "deviation"
    id: str
    parameters: tuple[tuple[str, str], ...]
    description: str
    rule: str | None = None
    ruleset: str | None = None
    option: tuple[str, str] | None = None
    deviation: Deviation | None = None


@dataclass(frozen=True)
class Round:
    """A round (deal) of a record, by the record's index in the input and the deal's number (from 1)."""

    index: int
    deal: int


@dataclass
class Explanation:
    """A change and the failing rounds it explains (on top of the explanations ranked before it)."""

    candidate: Candidate
    explains: list[Round]
    example: Round
    action: int | None

    def to_json(self, records: Sequence[Loaded]) -> dict[str, JsonValue]:
        c = self.candidate
        ex = records[self.example.index]
        return {"kind": c.kind, "id": c.id, "parameters": dict(c.parameters), "rule": c.rule,
                "description": c.description, "explains": len(self.explains),
                "example": {"file": ex.file, "record": ex.record, "round": self.example.deal, "action": self.action}}


@dataclass
class Diagnosis:
    """What :func:`diagnose` found: the counts, the explanations ranked, and the rounds left unexplained
    with their first problem under every explanation found."""

    records: int
    rounds: int
    failing: list[Round]
    explanations: list[Explanation]
    unexplained: list[tuple[Round, Problem | None]]
    replays: int = 0
    loaded: list[Loaded] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, JsonValue]:
        un: list[JsonValue] = []
        for r, p in self.unexplained:
            ld = self.loaded[r.index]
            un.append({"file": ld.file, "record": ld.record, "round": r.deal,
                       "action": p.where.action if p is not None else None,
                       "rule": p.rule_id if p is not None else None, "reason": p.reason if p is not None else None})
        return {"records": self.records, "rounds": self.rounds, "failing_rounds": len(self.failing),
                "explanations": [e.to_json(self.loaded) for e in self.explanations], "unexplained": un}


# -- candidates -----------------------------------------------------------------------------------


def candidates(key: str) -> list[Candidate]:
    """Every change tried for game ``key``: every value of every option, the game's deviation library
    (:mod:`hanafuda.deviations`, :mod:`hanafuda.deviations_other`), and the game's rulesets."""
    g = game(key)
    out: list[Candidate] = []
    rule_of: dict[str, str] = {}
    for r in g.spec.rules:
        if r.option is not None:
            rule_of.setdefault(r.option, r.id)
    for o in g.spec.options:
        for v in o.choices:
            out.append(Candidate("option", o.key, (("value", v),), f"the option {o.key}={v}: {o.text}",
                                 rule=rule_of.get(o.key), option=(o.key, v)))
    devs = library() if key == "koikoi" else other.library(key)
    out += [Candidate("deviation", d.id, d.parameters, d.description, rule=d.rule, deviation=d) for d in devs]
    # last: between changes explaining as many rounds, the smaller one is kept
    out += [Candidate("option", "ruleset", (("ruleset", r.name),), f"the rules of the ruleset {r.name}",
                      ruleset=r.name) for r in g.spec.rulesets]
    return out


@dataclass(frozen=True)
class _State:
    """Changes applied together: a ruleset (replacing the records' own), option values, deviations."""

    ruleset: str | None = None
    options: tuple[tuple[str, str], ...] = ()
    deviations: tuple[Deviation, ...] = ()
    chosen: bool = False  # a ruleset was chosen as an explanation (there is one at most)

    def plus(self, c: Candidate) -> _State | None:
        """This state with ``c`` added; None when it adds nothing or contradicts a change already made."""
        if c.ruleset is not None:
            return None if self.chosen or c.ruleset == self.ruleset else replace(self, ruleset=c.ruleset,
                                                                                   chosen=True)
        if c.option is not None:
            k, v = c.option
            if any(k == k2 for k2, _ in self.options):
                return None
            return replace(self, options=(*self.options, (k, v)))
        if c.deviation is not None:
            if any(d.id == c.deviation.id for d in self.deviations):
                return None  # one deviation of a kind at a time (two card moves: two steps of the same kind)
            return replace(self, deviations=(*self.deviations, c.deviation))
        return None

    def rules(self, rec: GameRecord) -> Any:
        """The typed rules a record is replayed under (raises ``OptionError`` for options it cannot take)."""
        g = game(rec.game)
        values = (g.spec.resolve(self.ruleset, dict(self.options)) if self.ruleset is not None
                  else g.spec.resolve(rec.ruleset, {**rec.options, **dict(self.options)}))
        if self.deviations:
            if g.spec.key != "koikoi":
                return other.deviant_rules(g.spec.key, values, self.deviations)
            return deviant_rules(values, self.deviations)
        return g.make_rules(values)


@dataclass(frozen=True)
class _Verdict:
    """One record replayed: the rounds it holds that fail (with their first problem), the last of its rounds
    the replay checked, and the number of rounds the record holds."""

    failing: Mapping[int, Problem]
    reached: int
    held: int = 0

    def ok(self, deal: int) -> bool:
        """The round replays and scores as claimed (a round after a problem that stopped the replay is
        neither failing nor valid: it was not checked)."""
        return deal <= self.reached and deal not in self.failing


def held(rec: GameRecord) -> int:
    """The rounds a record holds: those its result lists, and for an abandoned record the deal its actions
    go on into after them. A record is judged on these only: a deal the rules would go on to play is not
    one of its rounds (the record's last round, which it says ends the match, fails instead)."""
    n = len(rec.rounds)
    if rec.status == "abandoned" and len(rec.actions) > sum(r.actions for r in rec.rounds):
        n += 1
    return n


def _judge(ld: Loaded, state: _State, until: int | None = None) -> _Verdict:
    n = held(ld.rec)
    try:
        rules = state.rules(ld.rec)
    except (OptionError, ValueError):
        return _Verdict({}, 0, n)
    try:
        rep = replay(ld.rec, ld.record, None, rules=rules, until_deal=until, again=True)
    except Exception:  # a combination the game refuses to play: explains nothing
        return _Verdict({}, 0, n)
    return _verdict(rep, n)


def failing_rounds(rep: RecordReport, rec: GameRecord) -> dict[int, Problem]:
    """The rounds of ``rec`` (those it holds, :func:`held`) that fail in its replay ``rep``, each with its first
    problem: a round with a problem of its own; the rounds the rules never reach when they end the match
    earlier; and when no round fails otherwise, the last round for a problem after it (the rules play on
    where the record ends the match) or of the whole record."""
    return dict(_verdict(rep, held(rec)).failing)


def _verdict(rep: RecordReport, n: int) -> _Verdict:
    """The verdict on the ``n`` rounds a record holds (:func:`failing_rounds`; a problem after the last round or
    of the whole record is otherwise taken as a consequence of the failing rounds). A record that lists no
    round and has a problem counts as one round."""
    last = n or (1 if rep.problems else 0)
    failing: dict[int, Problem] = {}
    after: Problem | None = None
    for p in rep.problems:
        if p.where.deal is None:
            continue
        if p.where.deal > last:
            after = after or p
        else:
            failing.setdefault(p.where.deal, p)
    # a deal whose problem stopped the replay ("later deals not checked") ends what was reached
    reached = min(rep.deals if not rep.dropped else min(failing, default=rep.deals), last)
    whole = next((p for p in rep.problems if p.where.deal is None), None)
    if whole is not None and not rep.dropped:
        for deal in range(reached + 1, last + 1):  # rounds the rules never reach
            failing.setdefault(deal, whole)
    extra = after if after is not None else whole
    if not failing and last and extra is not None:
        failing[last] = extra
    return _Verdict(failing, reached, last)


def _actions(ld: Loaded, deal: int) -> int:
    rounds = ld.rec.rounds
    return rounds[deal - 1].actions if deal - 1 < len(rounds) else 1 << 30


# -- the search ---------------------------------------------------------------------------------


def diagnose(loaded: Sequence[Loaded], only: Iterable[Candidate] | None = None, *, ruleset: str | None = None,
             options: Mapping[str, str] | None = None) -> Diagnosis:
    """Diagnose the failing rounds of ``loaded`` (records of one game): see the module docstring.
    ``only`` restricts the candidates (the tests). ``ruleset`` replaces the records' rules and ``options``
    are applied on top, as in ``validate`` (the option values then diagnosed are the others)."""
    records = list(loaded)
    if not records:
        return Diagnosis(0, 0, [], [], [], loaded=records)
    key = game(records[0].rec.game).spec.key
    pool = list(only) if only is not None else candidates(key)
    state = _State(ruleset, tuple(sorted((options or {}).items())))
    verdicts = [_judge(ld, state) for ld in records]
    replays = len(records)
    rounds = sum(v.held for v in verdicts)
    failing = _failing(verdicts)
    start = list(failing)
    first = {r: verdicts[r.index].failing.get(r.deal) for r in failing}
    found: list[Explanation] = []
    dropped: set[Candidate] = set()
    for _ in range(STEPS):
        if not failing:
            break
        sample = _sample(records, failing)
        scored: list[tuple[int, int, Candidate, _State]] = []
        for n, c in enumerate(pool):
            trial = state.plus(c)
            if trial is None or c in dropped:
                continue
            gain = 0
            broke = False
            for idx, deals in sample.items():
                # replayed up to the sampled round; to its end for a record's last round (judged by the end)
                until = max(deals)
                v = _judge(records[idx], trial, until if until < verdicts[idx].held else None)
                replays += 1
                base = verdicts[idx]
                if _broken(base, v, until):
                    broke = True
                    break
                gain += sum(1 for d in deals if v.ok(d))
            if broke:
                dropped.add(c)  # it breaks a round that validates: a coincidence here, and later (see above)
            elif gain:
                scored.append((gain, -n, c, trial))
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        shortlist = [c for _gain, _n, c, _trial in scored[:SHORTLIST]]
        best: tuple[int, Candidate, _State, list[_Verdict]] | None = None
        for c in shortlist:
            trial = state.plus(c)
            assert trial is not None
            vs = [_judge(ld, trial) for ld in records]
            replays += len(records)
            if _breaks(verdicts, vs):
                continue  # breaks a round that validated: a coincidence, not a cause
            explained = sum(1 for r in failing if vs[r.index].ok(r.deal))
            if explained and (best is None or explained > best[0]):
                best = (explained, c, trial, vs)
        if best is None:
            break
        _, c, trial, vs = best
        while True:  # the best, then the rest of the shortlist on top of it while each explains more
            explains = [r for r in failing if vs[r.index].ok(r.deal)]
            example = min(explains, key=lambda r: (_actions(records[r.index], r.deal), r.index, r.deal))
            p = verdicts[example.index].failing.get(example.deal)
            found.append(Explanation(c, explains, example, p.where.action if p is not None else None))
            shortlist.remove(c)
            state, verdicts = trial, vs
            failing = _still(start, verdicts)
            nxt = None
            for c in shortlist:
                more = state.plus(c)
                if more is None:
                    continue
                vs = [_judge(ld, more) for ld in records]
                replays += len(records)
                if not _breaks(verdicts, vs) and any(vs[r.index].ok(r.deal) for r in failing):
                    nxt = (c, more, vs)
                    break
            if nxt is None or not failing:
                break
            c, trial, vs = nxt
    if len(found) > 1:  # each explanation's count: the failing rounds that fail without it, all else kept
        covered = {r for e in found for r in e.explains}.intersection(start)
        for e in found:
            others = _State(ruleset, tuple(sorted((options or {}).items())))
            for o in found:
                if o is not e:
                    others = others.plus(o.candidate) or others
            vs = [_judge(ld, others) for ld in records]
            replays += len(records)
            needs = sorted((r for r in covered if not vs[r.index].ok(r.deal)), key=lambda r: (r.index, r.deal))
            if needs:
                e.explains = needs
                e.example = min(needs, key=lambda r: (_actions(records[r.index], r.deal), r.index, r.deal))
                p = first.get(e.example)
                e.action = p.where.action if p is not None else None
        found.sort(key=lambda e: len(e.explains), reverse=True)
    # the failing rounds left: a round that validates under the records' own rules is not one, even where it
    # fails under the explanations found (after a round that still fails, and is settled otherwise)
    unexplained = [(r, verdicts[r.index].failing.get(r.deal) or first.get(r)) for r in failing if r in first]
    return Diagnosis(len(records), rounds, start, found, unexplained, replays, loaded=records)


def _breaks(before: Sequence[_Verdict], after: Sequence[_Verdict]) -> bool:
    """Whether a round that validated before fails after, in some record (:func:`_broken`)."""
    return any(_broken(b, a, b.reached) for b, a in zip(before, after, strict=True))


def _broken(before: _Verdict, after: _Verdict, upto: int) -> bool:
    """Whether the first of a record's rounds (up to ``upto``) failing after a change validated before it. A
    round after one that fails is not judged: a round that replays to its end and scores otherwise (it needs
    a second change too) passes the deal to another dealer, and the rounds after it fail with it."""
    for d in range(1, upto + 1):
        if d in after.failing:
            return before.ok(d)
        if d > after.reached:
            return False
    return False


def _failing(verdicts: Sequence[_Verdict]) -> list[Round]:
    return [Round(i, d) for i, v in enumerate(verdicts) for d in sorted(v.failing)]


def _still(start: Sequence[Round], verdicts: Sequence[_Verdict]) -> list[Round]:
    """The rounds failing under ``verdicts``, and the rounds failing at the start that are still not valid
    (not reached: a problem before them stopped the replay)."""
    now = set(_failing(verdicts))
    now |= {r for r in start if not verdicts[r.index].ok(r.deal)}
    return sorted(now, key=lambda r: (r.index, r.deal))


def _sample(records: Sequence[Loaded], failing: Sequence[Round]) -> dict[int, list[int]]:
    """The first failing round of up to :data:`SAMPLE` records, spread over the input and preferring early
    rounds (a record is replayed only up to it): record index -> its deal in the sample."""
    first: dict[int, int] = {}
    for r in failing:
        first.setdefault(r.index, r.deal)
    ordered = sorted(first.items(), key=lambda t: (t[1], t[0]))
    picked = ordered[:: max(1, len(ordered) // SAMPLE)][:SAMPLE]
    return {i: [d] for i, d in picked}


# -- witnesses ------------------------------------------------------------------------------------


def witness_record(ld: Loaded, deal: int, explanation: Explanation) -> dict[str, JsonValue]:
    """The round ``deal`` of a record as a standalone record (format 1.1, ``status: "abandoned"`` after its
    one deal): its deal, its first dealer, its actions and its claimed result, replayable on its own. When
    the rules score by the round's month (Cards of the Month) and the round is not the first, the record
    is kept from its start up to that round instead, so that the month is the same."""
    rec = ld.rec
    g = game(rec.game)
    rules = g.rules(rec.ruleset, dict(rec.options)) if rec.ruleset is not None or rec.options else g.rules()
    run = _Replay(g, rules, rec, _Sink(1, None), RecordReport(1, None, rec.game, 0, 0, []))
    run.until_deal = deal
    run.run()
    c = explanation.candidate
    meta: dict[str, JsonValue] = {"witness": {"file": ld.file, "record": ld.record, "round": deal,
                                              "explanation": {"kind": c.kind, "id": c.id,
                                                              "parameters": dict(c.parameters)}},
                                  "source": rec.meta}
    start = sum(r.actions for r in rec.rounds[:deal - 1])
    partial = deal > len(rec.rounds)  # the deal an abandoned record stops in: the record up to its end
    stop = len(rec.actions) if partial else start + rec.rounds[deal - 1].actions
    if deal <= len(run.orders) and not partial and not (deal > 1 and g.month_matters(rules)):
        given = (rec.deck, *rec.deals)
        one = replace(rec, format=FORMAT_1_1, seed=None, first_dealer=run.dealers[deal - 1],
                      deck=given[deal - 1] if deal - 1 < len(given) and given[deal - 1] else run.orders[deal - 1],
                      deals=(),
                      actions=rec.actions[start:stop], rounds=(rec.rounds[deal - 1],), scores=None, winners=None,
                      end_reason=None, status="abandoned", meta=meta)
    else:
        given = (rec.deck, *rec.deals)
        one = replace(rec, format=FORMAT_1_1, deals=tuple(given[1:deal]), actions=rec.actions[:stop],
                      rounds=rec.rounds[:deal], scores=None, winners=None, end_reason=None, status="abandoned",
                      meta=meta)
    return one.to_json()
