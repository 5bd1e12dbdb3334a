"""Which rules did the engine that wrote these records play? (``hanafuda identify``)

Every record is replayed (claims included, as ``validate`` does) under candidate rule assignments
of its game, ignoring the rules the record names. The search is deterministic:

1. **Rulesets.** Every named ruleset of the game is scored as it is; the ones under which the most
   records validate are the starting points (an engine that plays one of our rulesets or profiles
   exactly is found here, with no further search).
2. **Coordinate ascent.** From a starting point, every single change (one option set to one other
   value) is scored; the best change that improves the score is taken, and the step is repeated
   until no single change improves it. A score is, in order: the number of records that validate,
   then how far the failing records replay before their first problem (the sum of the action
   indices of the first problems; a claimed result counts as the end of its deal, a final claim as
   the end of the record), so that fixing one of several differences already counts as progress.
   Ties go to the earlier option and value in the catalogue's order. When no single change improves
   the score, pairs are tried among the single changes that altered the first problem of some
   record (at most :data:`PAIRS` of them, in catalogue order): two differences that only show
   together in one claim (say, a multiplier and a yaku value behind one wrong score) are found so.
   Three or more differences that only show together are not searched for; their records are
   reported as unexplained.
3. **Choice.** The starting point whose end score is best wins; ties go to fewer options changed,
   then to the ruleset declared first.
4. **Undetermined options.** For the chosen assignment, each other value of each option is tried
   on the records that validate: if every one of them still validates, the records cannot tell the
   values apart, and the option is reported as undetermined (with the values that fit) instead of
   being guessed; it is not listed among the options that differ from the ruleset.

Cost. With *R* rulesets, *V* option values in all and *N* records, scoring the rulesets costs R × N
replays; one ascent step replays the failing records *V* times, and a step is taken only when the
score improves, so the ascent costs about (steps + 1) × V × (failing records) replays from each
starting point, plus V × (valid records) for step 4, where a value that some record rules out
usually stops at that record. The cost is linear in the number of option values and in the number
of records; it does not grow with the number of combinations of values. To keep a step cheap on large inputs,
a change is first scored on a probe of at most :data:`PROBE` failing records, and only changes that
gain there are scored on all records. Records are replayed through :func:`hanafuda.records.replay`;
Koi-Koi records replay at tens of thousands of actions a second, so a thousand records take minutes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import GameRecord, Problem, parse_record

from hanafuda.parallel import Executor
from hanafuda.progress import OnProgress
from hanafuda.records import replay
from hanafuda.registry import game

__all__ = ["PROBE", "Identification", "Unexplained", "identify", "parse_all"]

#: How many failing records a candidate change is first scored on.
PROBE = 24
#: When no single change improves the score, pairs of the first this many changes that altered a
#: first problem are tried.
PAIRS = 24


@dataclass(frozen=True)
class Unexplained:
    """The first problem of a record that does not validate under the identified rules."""

    record: int
    rule: str
    message: str


@dataclass(frozen=True)
class Identification:
    """What :func:`identify` found."""

    game: str
    ruleset: str
    options: Mapping[str, str]  #: the options that differ from the ruleset (undetermined ones excluded)
    undetermined: Mapping[str, tuple[str, ...]]  #: option -> the values no record can tell apart
    records: int
    valid: int
    unexplained: tuple[Unexplained, ...]

    def to_json(self) -> dict[str, JsonValue]:
        return {"game": self.game, "ruleset": self.ruleset, "options": dict(self.options),
                "undetermined": {k: list(v) for k, v in self.undetermined.items()},
                "records": self.records, "valid": self.valid,
                "unexplained": [{"record": u.record, "rule": u.rule, "message": u.message} for u in self.unexplained]}


def parse_all(docs: Sequence[Any]) -> tuple[list[GameRecord], list[Problem]]:
    """Parse decoded documents; the records that cannot be parsed come back as problems."""
    recs: list[GameRecord] = []
    bad: list[Problem] = []
    for i, d in enumerate(docs, 1):
        rec, problems = parse_record(d, record=i)
        if rec is None:
            bad.extend(problems[:1])
        else:
            recs.append(rec)
    return recs, bad


Assignment = tuple[tuple[str, str], ...]


class _Scorer:
    def __init__(self, recs: Sequence[GameRecord], executor: Executor | None = None,
                 on_progress: OnProgress | None = None) -> None:
        self.recs = recs
        self.cache: dict[tuple[int, str, Assignment], Problem | None] = {}
        self.executor = executor
        self.on_progress = on_progress

    def first_problem(self, i: int, ruleset: str, values: Assignment) -> Problem | None:
        key = (i, ruleset, values)
        if key not in self.cache:
            self.cache[key] = _first_problem((i, self.recs[i]), ruleset, values)
            if self.on_progress is not None:  # replays done; how many the search takes is not known ahead
                self.on_progress(len(self.cache), None)
        return self.cache[key]

    def score(self, idx: Sequence[int], ruleset: str, values: Assignment) -> tuple[int, int]:
        self.prefetch(idx, ruleset, values)
        valid = progress = 0
        for i in idx:
            p = self.first_problem(i, ruleset, values)
            if p is None:
                valid += 1
            else:
                progress += self.position(i, p)
        return valid, progress

    def prefetch(self, idx: Sequence[int], ruleset: str, *assignments: Assignment) -> None:
        """With an executor of worker processes or a cluster, replay there the records of ``idx``
        not yet replayed under each assignment, in one batch (the same first problems as one by
        one; only the time differs)."""
        ex = self.executor
        missing = [(i, values) for values in assignments for i in idx if (i, ruleset, values) not in self.cache]
        if ex is None or ex.in_process or len(missing) < 2:
            return
        work = partial(_first_problem_of, ruleset=ruleset)
        chunk = max(1, len(missing) // (4 * ex.workers))
        items = [(i, self.recs[i], values) for i, values in missing]
        for (i, values), p in zip(missing, ex.map(work, items, chunksize=chunk), strict=True):
            self.cache[(i, ruleset, values)] = p
            if self.on_progress is not None:
                self.on_progress(len(self.cache), None)

    def position(self, i: int, p: Problem) -> int:
        """How far record ``i`` replays before problem ``p``: its action index; for a claim about a deal,
        the end of that deal; for a claim about the whole match, the end of the record."""
        if p.where.action is not None:
            return p.where.action
        rec = self.recs[i]
        if p.where.deal is not None:
            return sum(r.actions for r in rec.rounds[:p.where.deal]) + 1
        return len(rec.actions) + 1


def _first_problem(item: tuple[int, GameRecord], ruleset: str, values: Assignment) -> Problem | None:
    """The first problem of record ``item[0]`` replayed under ``ruleset`` and ``values`` (what a worker runs)."""
    i, rec = item
    probs = replay(replace(rec, ruleset=ruleset, options=dict(values)), i + 1).problems
    return probs[0] if probs else None


def _first_problem_of(item: tuple[int, GameRecord, Assignment], ruleset: str) -> Problem | None:
    return _first_problem(item[:2], ruleset, item[2])


def _set(values: Assignment, key: str, value: str) -> Assignment:
    return tuple((k, value if k == key else v) for k, v in values)


def identify(game_key: str, recs: Sequence[GameRecord], executor: Executor | None = None,
             on_progress: OnProgress | None = None) -> Identification:
    """Search the game's rulesets and option values for the rules under which the most records
    validate (see the module docstring); with an ``executor`` (:mod:`hanafuda.parallel`) the records
    scored under an assignment are replayed by its workers, with the same result. ``on_progress``
    is told the number of replays done (the total is not known ahead: ``None``)."""
    g = game(game_key)
    spec = g.spec
    sc = _Scorer(recs, executor, on_progress)
    everyone = range(len(recs))
    best: tuple[tuple[int, int], int, int, str, Assignment] | None = None
    starts = [(sc.score(everyone, rs.name, tuple(sorted(spec.resolve(rs.name).items()))), order, rs)
              for order, rs in enumerate(spec.rulesets)]
    top = max(s[0] for s, _, _ in starts)
    for start, order, rs in starts:
        score = start
        if score[0] != top:
            continue  # only the rulesets under which the most records validate are searched further
        values: Assignment = tuple(sorted(spec.resolve(rs.name).items()))
        while score[0] < len(recs):
            failing = [i for i in everyone if sc.first_problem(i, rs.name, values) is not None]
            probe = failing[:PROBE]
            base_probe = sc.score(probe, rs.name, values)
            step: tuple[tuple[int, int], Assignment] | None = None
            before = [str(sc.first_problem(i, rs.name, values)) for i in probe]
            moved: list[tuple[str, str]] = []  # single changes that alter some first problem of the probe
            sc.prefetch(probe, rs.name, *(_set(values, o.key, c) for o in spec.options for c in o.choices))
            for opt in spec.options:
                for choice in opt.choices:
                    if dict(values)[opt.key] == choice:
                        continue
                    cand = _set(values, opt.key, choice)
                    if sc.score(probe, rs.name, cand) <= base_probe:
                        after = (str(sc.first_problem(i, rs.name, cand)) for i in probe)
                        if any(x != y for x, y in zip(after, before, strict=True)):
                            moved.append((opt.key, choice))
                        continue
                    s = sc.score(everyone, rs.name, cand)
                    if s > score and (step is None or s > step[0]):
                        step = (s, cand)
            if step is None:  # two differences that only show together: pairs of the changes that moved
                for a, (k1, v1) in enumerate(moved[:PAIRS]):
                    for k2, v2 in moved[a + 1:PAIRS]:
                        if k1 == k2:
                            continue
                        cand = _set(_set(values, k1, v1), k2, v2)
                        if sc.score(probe, rs.name, cand) <= base_probe:
                            continue
                        s = sc.score(everyone, rs.name, cand)
                        if s > score and (step is None or s > step[0]):
                            step = (s, cand)
            if step is None:
                break
            score, values = step
        base = dict(spec.resolve(rs.name))
        changed = sum(1 for k, v in values if base[k] != v)
        key = (score, -changed, -order, rs.name, values)
        if best is None or key[:3] > best[:3]:
            best = key
    assert best is not None
    (valid, _), _, _, ruleset, values = best
    base = dict(spec.resolve(ruleset))
    ok = [i for i in everyone if sc.first_problem(i, ruleset, values) is None]
    undetermined: dict[str, tuple[str, ...]] = {}
    for opt in spec.options:
        current = dict(values)[opt.key]
        fits = [current]
        for choice in opt.choices:
            if choice != current and ok and all(sc.first_problem(i, ruleset, _set(values, opt.key, choice)) is None
                                                for i in ok):
                fits.append(choice)
        if len(fits) > 1:
            undetermined[opt.key] = tuple(c for c in opt.choices if c in fits)
    options = {k: v for k, v in values if base[k] != v and k not in undetermined}
    unexplained = []
    for i in everyone:
        p = sc.first_problem(i, ruleset, values)
        if p is not None:
            unexplained.append(Unexplained(i + 1, p.rule_id, str(p)))
    return Identification(spec.key, ruleset, options, undetermined, len(recs), valid, tuple(unexplained))
