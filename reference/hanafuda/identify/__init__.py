"""Which rules did the engine that wrote these records play? (``hanafuda identify``)

Every record is replayed (claims included, as ``validate`` does) under candidate rule assignments
of its game, ignoring the rules the record names. The search is deterministic:

1. **Rulesets.** Every named ruleset of the game is scored as it is; the ones under which the most
   records validate are the starting points (an engine that plays one of our rulesets or profiles
   exactly is found here, with no further search).
2. **Coordinate ascent.** From a starting point, every single change (one option set to one other
   value) is scored; the best change that improves the score is taken, and the step is repeated
   until no change improves it (a fixed point). A score is, in order: the number of records that
   validate, then how far the failing records replay before their first problem (the action index of
   the first problem; a claimed result counts as the end of its deal, a final claim as the end of the
   record), less the number of problems found at that same place (a claim whose deltas, notes and yaku
   all differ is further from right than one whose deltas alone differ), so that fixing one of several
   differences already counts as progress. Ties go to the earlier option and value in the catalogue's
   order. When no single change improves the score, pairs are tried among the single changes that
   altered some failing record's first problem or progress (the first :data:`PAIRS` of them, in
   catalogue order), then triples of the first :data:`TRIPLES`: differences that only show together in
   one claim (say, a multiplier, a yaku value and a field multiplier behind one wrong score) are found
   so. Four or more differences that only show together are not searched for; their records are
   reported as unexplained.
3. **Choice.** The starting points are searched best start score first (ties: the ruleset declared
   first), and the search stops at the first one whose end assignment validates every record; otherwise
   the end score that is best wins, ties going to fewer options changed, then to the ruleset declared
   first.
4. **Undetermined options.** For the chosen assignment, each other value of each option is tried
   on the records that validate: if every one of them still validates, the records cannot tell the
   values apart, and the option is reported as undetermined (with the values that fit) instead of
   being guessed. Then each remaining option's other values are tried together with each other value
   of an undetermined option, repeated until no more are found: an option can hide another (a yaku
   set without the viewing yaku hides which viewing rule was played), and both are then undetermined,
   an equivalence class of assignments the records cannot tell apart. An undetermined option is set
   back to the ruleset's value where that still fits, and is listed among the options only where it
   does not, so the ruleset plus the options listed is always an assignment under which every record
   counted as valid validates.

Cost. With *R* rulesets, *V* option values in all and *N* records, scoring the rulesets costs R × N
replays; one ascent step replays the failing records *V* times, and a step is taken only when the
score improves, so the ascent costs about (steps + 1) × V × (failing records) replays from each
starting point, plus V × (valid records) for step 4 (and V × U more for each undetermined option
found, U its values), where a value that some record rules out usually stops at that record. The
cost is linear in the number of option values and in the number of records, and the number of steps
grows with the number of differences found; it does not grow with the number of combinations of
values, except for the pairs (at most PAIRS² / 2) and triples (at most TRIPLES³ / 6) tried when a step
is stuck. To keep a step cheap on large inputs, a change is first scored on a probe of at most
:data:`PROBE` failing records, and only changes that gain there are scored on all records.

The search is written against a small protocol, :class:`~hanafuda.identify.search.Scorer`: in one
process it is :class:`~hanafuda.identify.search.LocalScorer`; with an executor of worker processes or a
cluster, :class:`~hanafuda.identify.workers.WorkerScorer`, which sends the replays in batches (see
:mod:`hanafuda.identify.workers`). The answer is the same with or without workers; only the time and
the number of replays differ. Records are replayed through :func:`hanafuda.records.replay` (its time
on a thousand records: docs/engines.md).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hanafuda_spec.catalogue import GameSpec
from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import GameRecord, Problem, parse_record

from hanafuda.identify.search import (
    PAIRS,
    PROBE,
    TRIPLES,
    Assignment,
    Early,
    LocalScorer,
    Score,
    Scorer,
    Search,
    changed,
    undetermined,
)
from hanafuda.identify.workers import WorkerScorer, held_for_workers
from hanafuda.parallel import Executor
from hanafuda.progress import OnProgress
from hanafuda.registry import game

__all__ = ["PAIRS", "PROBE", "TRIPLES", "Identification", "Unexplained", "held_for_workers", "identify", "parse_all"]

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
    #: the options that differ from the ruleset: with them, every record counted as valid validates (an
    #: undetermined option is listed only when the ruleset's own value does not fit)
    options: Mapping[str, str]
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


def identify(game_key: str, recs: Sequence[GameRecord], executor: Executor | None = None,
             on_progress: OnProgress | None = None, held: str | None = None) -> Identification:
    """Search the game's rulesets and option values for the rules under which the most records
    validate (see the module docstring); with an ``executor`` (:mod:`hanafuda.parallel`) the records
    scored under an assignment are replayed by its workers, with the same result. ``on_progress``
    is told the number of replays done (the total is not known ahead: ``None``). ``held``: the name
    :func:`held_for_workers` gave these records, if the executor's workers were forked while they
    were held (they then have the records, and none are sent; a worker without them asks for them)."""
    spec = game(game_key).spec
    sc: LocalScorer = (WorkerScorer(recs, executor, on_progress, held)
                       if executor is not None and not executor.in_process else LocalScorer(recs, on_progress))
    everyone = range(len(recs))

    def begin(ruleset: str) -> Assignment:
        return tuple(sorted(spec.resolve(ruleset).items()))

    if isinstance(sc, WorkerScorer):  # every ruleset in one batch
        sc.prefetch_groups([(rs.name, begin(rs.name), everyone) for rs in spec.rulesets])
    starts = [(sc.score(everyone, rs.name, begin(rs.name)), order, rs) for order, rs in enumerate(spec.rulesets)]
    top = max(s[0][0] for s in starts)
    # step 1: only the rulesets under which the most records validate are searched further
    tied = [(start, order, rs) for start, order, rs in sorted(starts, key=lambda s: (s[0], -s[1]), reverse=True)
            if start[0] == top]
    best: tuple[Score, int, int, str, Assignment] | None = None
    ahead: Iterator[tuple[Score, Assignment]] | None = None
    early: Early | None = None
    early_point: tuple[str, Assignment] | None = None
    try:
        for nth, (start, order, rs) in enumerate(tied):  # step 3: the starts in order
            if best is not None and best[0][0] == len(recs):
                break  # a start searched earlier explains every record
            if nth == 0:
                score, values = Search(spec, sc, rs.name).run(begin(rs.name), start)
            else:
                if ahead is None:  # the first start left records unexplained: the others
                    assert best is not None
                    ahead = sc.searches(spec, tied[1:], near=best[4])
                    early, early_point = sc.early(spec, best[3], best[4]), best[3:]  # queued after the searches
                score, values = next(ahead)
            base = dict(spec.resolve(rs.name))
            changes = sum(1 for k, v in values if base[k] != v)
            key = (score, -changes, -order, rs.name, values)
            if best is None or key[:3] > best[:3]:
                best = key
        assert best is not None
        if early is not None:
            early.settle(wanted=best[3:] == early_point)
    finally:
        if isinstance(ahead, Generator):
            ahead.close()  # the searches not begun are cancelled
        if early is not None:
            early.settle(wanted=False)
    return _answer(spec, sc, *best[3:])


def _answer(spec: GameSpec, sc: Scorer, ruleset: str, values: Assignment) -> Identification:
    """Step 4 for the end point chosen, and the answer."""
    base = dict(spec.resolve(ruleset))
    found = undetermined(spec, sc, ruleset, values)
    ok = sc.valid(ruleset, values)
    for opt_key in found:  # the ruleset's own value where it fits, so that ruleset + options is the answer
        cand = changed(values, opt_key, base[opt_key])
        if cand != values and all(sc.summary(i, ruleset, cand)[0] is None for i in ok):
            values = cand
    options = {k: v for k, v in values if base[k] != v}
    problems = [sc.summary(i, ruleset, values)[0] for i in range(len(sc.recs))]
    unexplained = tuple(Unexplained(i + 1, p.rule_id, str(p)) for i, p in enumerate(problems) if p is not None)
    return Identification(spec.key, ruleset, options, found, len(sc.recs), problems.count(None), unexplained)
