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

With an executor of worker processes or a cluster, the replays are sent in batches (every ruleset;
for each step of the first start, every single change on the probe, then the changes that gain there
on every record, every pair, then every triple; every check of step 4, each stopping at the first
record that rules its assignment out, as in one process), so that this process does little besides
choosing. A batch goes out in chunks that shrink towards its end, so that the workers finish it
together. The first chunk of each worker carries the records, and each worker keeps them; the others
send record numbers only (a worker without them is sent them again). When the first start's search
leaves records unexplained, the other tied starts are searched side by side, each whole in one worker
(a search depends only on its start and the records), sent longest first (a start that differs from
the first start's end point in more options usually takes more steps), and their end points are taken
in the order of step 3, as one process would; the searches a start that explains every record makes
unnecessary are cancelled if not yet begun. Queued behind them, the first checks of step 4 for the
first start's end point run on a worker that has no search left; they are kept if that point is still
the best. The answer is the same with or without workers; only the time and the number of replays
differ. Records are replayed through :func:`hanafuda.records.replay` (its time on a thousand records:
docs/engines.md).
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from hanafuda_spec.catalogue import GameSpec, RulesetSpec
from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import LIMITS, GameRecord, Problem, parse_record

from hanafuda.parallel import Executor
from hanafuda.progress import OnProgress
from hanafuda.records import replay
from hanafuda.registry import game

__all__ = ["PAIRS", "PROBE", "TRIPLES", "Identification", "Unexplained", "held_for_workers", "identify", "parse_all"]

#: How many failing records a candidate change is first scored on.
PROBE = 24
#: When no single change improves the score, pairs of the first this many changes that altered a
#: first problem are tried.
PAIRS = 24
#: When no pair improves it either, triples of the first this many such changes are tried.
TRIPLES = 12


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


Assignment = tuple[tuple[str, str], ...]
#: A score: records that validate, then how far the failing records replay (see :meth:`_Scorer.summary`).
Score = tuple[int, int]
#: Problems found at one place (one claim) count towards progress up to this many.
_AT_ONCE = 16


Summary = tuple[Problem | None, int]


class _Scorer:
    def __init__(self, recs: Sequence[GameRecord], executor: Executor | None = None,
                 on_progress: OnProgress | None = None, held: str | None = None) -> None:
        self.recs = recs
        #: (ruleset, assignment) -> record number -> its summary: the replays done (an assignment's long
        #: tuple is hashed once for all of its records, not once per record)
        self.cache: dict[tuple[str, Assignment], dict[int, Summary]] = {}
        self.replays = 0  # replays done here or by workers for this process
        self.executor = executor
        self.on_progress = on_progress
        self.refuters: list[int] = []  # the records that last ruled an assignment out (see fits_any)
        #: whether records are replayed by workers, in batches (else here, one by one)
        self.batched = executor is not None and not executor.in_process
        self.elsewhere = 0  # replays done by workers for searches of their own (not in the cache)
        #: the records as one object, and this search's name for them in the workers (see :meth:`map`)
        self.records, self.token = tuple(recs), held or secrets.token_hex(8)
        #: whether the workers have the records: a batch carried them, or they were forked holding them
        self.shipped = held is not None and executor is not None and executor.forked

    def report(self) -> None:
        """Tell ``on_progress`` how many replays are done."""
        if self.on_progress is not None:  # how many the search takes is not known ahead
            self.on_progress(self.replays + self.elsewhere, None)

    def map(self, fn: Callable[[_Task], _R | None], items: Sequence[_Task], cut: _Cut) -> list[_R]:
        """``fn`` over ``items`` by the workers, in order, in chunks that shrink towards the end of the
        batch as ``cut`` says (:func:`_guided`).
        An item is ``(token, records, ...)``, records None: unless the workers were forked holding the
        records (``held``, :func:`held_for_workers`), the first chunks of the first batch (one a worker)
        carry them (one object, pickled once in each chunk) and each worker keeps them under the token;
        the other items send record numbers only. An item whose worker does not hold the
        records (it took none of those chunks, or it is a new worker of a cluster) comes back None and is
        sent again with them."""
        return self.collect(fn, items, cut, self.submit(fn, items, cut))

    def submit(self, fn: Callable[[_Task], _R | None], items: Sequence[_Task], cut: _Cut) -> Iterator[_R | None]:
        """The first half of :meth:`map`: the items sent now; their answers, None where a worker lacked
        the records (closing the iterator cancels the chunks not begun)."""
        ex = self.executor
        assert ex is not None
        first = not self.shipped
        self.shipped = True
        return _guided(ex, fn, items, cut, self.records if first else None)

    def collect(self, fn: Callable[[_Task], _R | None], items: Sequence[_Task], cut: _Cut,
                sent: Iterator[_R | None]) -> list[_R]:
        """The second half of :meth:`map`: the answers of the items ``sent`` by :meth:`submit`, those a
        worker could not answer sent again with the records."""
        ex = self.executor
        assert ex is not None
        out = list(sent)
        again = [k for k, found in enumerate(out) if found is None]
        if again:
            redo = _guided(ex, fn, [_with_records(items[k], self.records) for k in again], cut)
            for k, found in zip(again, redo, strict=True):
                out[k] = found
        done: list[_R] = []
        for found in out:
            if found is None:  # cannot be: the records were sent with the item
                raise RuntimeError("identify: a worker did not take the records sent to it")
            done.append(found)
        return done

    def known(self, ruleset: str, values: Assignment) -> dict[int, Summary]:
        """The summaries found so far under the rules, by record number (filled in as records are replayed)."""
        key = (ruleset, values)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = {}
        return found

    def summary(self, i: int, ruleset: str, values: Assignment) -> Summary:
        """Record ``i`` under the rules: its first problem and its progress (:func:`_summary`)."""
        known = self.known(ruleset, values)
        found = known.get(i)
        if found is None:
            found = known[i] = _summary((i, self.recs[i]), ruleset, values)
            self.replays += 1
            self.report()
        return found

    def first_problem(self, i: int, ruleset: str, values: Assignment) -> Problem | None:
        return self.summary(i, ruleset, values)[0]

    def score(self, idx: Sequence[int], ruleset: str, values: Assignment) -> Score:
        self.prefetch(idx, ruleset, values)
        known = self.known(ruleset, values)
        valid = progress = 0
        for i in idx:
            found = known.get(i)
            p, g = found if found is not None else self.summary(i, ruleset, values)
            if p is None:
                valid += 1
            progress += g
        return valid, progress

    def prefetch(self, idx: Sequence[int], ruleset: str, *assignments: Assignment) -> None:
        """With an executor of worker processes or a cluster, replay there the records of ``idx``
        not yet replayed under each assignment, in one batch (the same summaries as one by one; only
        the time differs)."""
        self.prefetch_groups([(ruleset, values, idx) for values in assignments])

    def prefetch_groups(self, groups: Sequence[tuple[str, Assignment, Sequence[int]]]) -> None:
        """:meth:`prefetch` of any rulesets, assignments and records at once (``(ruleset, assignment,
        records)`` groups): one batch for the workers, so that they are not left waiting between small ones."""
        ex = self.executor
        if ex is None or not self.batched:
            return
        missing: list[tuple[int, dict[int, Summary], str, Assignment]] = []
        seen: set[tuple[str, Assignment]] = set()
        for ruleset, values, idx in groups:
            if (ruleset, values) not in seen:
                seen.add((ruleset, values))
                known = self.known(ruleset, values)
                missing.extend((i, known, ruleset, values) for i in idx if i not in known)
        if len(missing) < 2:
            return
        missing.sort(key=lambda m: m[0])  # by record: a worker replays one record under many rules in a row
        items = [(self.token, None, i, ruleset, values) for i, _, ruleset, values in missing]
        for (i, known, _, _), found in zip(missing, self.map(_summary_of, items, _REPLAYS), strict=True):
            known[i] = found
            self.replays += 1
        self.report()

    def fits_any(self, groups: Sequence[Sequence[Assignment]], ruleset: str, ok: Sequence[int]) -> list[bool]:
        """For each group of assignments, whether one of them lets every record of ``ok`` validate.
        In this process, a group's assignments are tried in turn, each stopping at the first record
        that does not validate (the records that last ruled an assignment out are tried first); with
        workers, every assignment of every group is one task that stops so, all sent at once. The
        answers are the same."""
        ex = self.executor
        if ex is None or not self.batched:
            return [any(self._fits(cand, ruleset, ok) for cand in group) for group in groups]
        answer, todo = self.fit_tasks(groups, ruleset, ok)
        if todo:
            self.take_fits(todo, self.map(_fits_of, todo, _CHECKS), answer)
        return [any(answer[c] for c in group) for group in groups]

    def fit_tasks(self, groups: Sequence[Sequence[Assignment]], ruleset: str, ok: Sequence[int]
                  ) -> tuple[dict[Assignment, bool], list[_Task]]:
        """For :meth:`fits_any` with workers: the answers the replays done tell already, and a task for
        each other assignment (:func:`_fits_of`)."""
        cands = list(dict.fromkeys(c for group in groups for c in group))
        answer: dict[Assignment, bool] = {}
        order = self.refuters_first(ok)
        every = tuple(order)  # one object: pickled once in each chunk of tasks
        todo: list[_Task] = []
        for cand in cands:
            known = self.known(ruleset, cand)
            seen = [known[i] for i in ok if i in known]
            if any(p is not None for p, _ in seen):
                answer[cand] = False
            elif len(seen) == len(ok):
                answer[cand] = True
            else:
                todo.append((self.token, None, ruleset, cand,
                             every if not seen else tuple(i for i in order if i not in known)))
        return answer, todo

    def take_fits(self, todo: Sequence[_Task], found: Sequence[tuple[int | None, list[tuple[int, Summary]]]],
                  answer: dict[Assignment, bool]) -> None:
        """The answers of the tasks of :meth:`fit_tasks`: their replays into the cache, and ``answer``."""
        for (_, _, ruleset, cand, _), (refuter, replayed) in zip(todo, found, strict=True):
            known = self.known(ruleset, cand)
            for i, summary in replayed:
                known[i] = summary
            self.replays += len(replayed)
            answer[cand] = refuter is None
            if refuter is not None:
                self._refuted_by(refuter)
        self.report()

    def valid(self, ruleset: str, values: Assignment) -> list[int]:
        """The records that validate under the rules (their numbers, in order)."""
        return [i for i in range(len(self.recs)) if self.first_problem(i, ruleset, values) is None]

    def refuters_first(self, ok: Sequence[int]) -> list[int]:
        """The records of ``ok``, those that last ruled an assignment out first (see :meth:`_refuted_by`)."""
        oks = set(ok)
        first = [i for i in self.refuters if i in oks]
        return [*first, *(i for i in ok if i not in first)]

    def _fits(self, cand: Assignment, ruleset: str, ok: Sequence[int]) -> bool:
        for i in self.refuters_first(ok):
            if self.first_problem(i, ruleset, cand) is not None:
                self._refuted_by(i)
                return False
        return True

    def _refuted_by(self, i: int) -> None:
        """Record ``i`` ruled an assignment out: it is tried first next time (move to front, 8 kept)."""
        if i in self.refuters:
            self.refuters.remove(i)
        self.refuters.insert(0, i)
        del self.refuters[8:]


def _summary(item: tuple[int, GameRecord], ruleset: str, values: Assignment) -> Summary:
    """Record ``item[1]`` (number ``item[0]`` from 0) replayed under ``ruleset`` and ``values``: its first
    problem, and its progress: the position of the first problem (:func:`_position`), less the problems
    found at that same place (a claim whose deltas, notes and yaku all differ is further from right than
    one whose deltas alone differ). This is what a worker runs."""
    i, rec = item
    probs = replay(rec, i + 1, ruleset=ruleset, options=dict(values), again=True).problems  # its own rules ignored
    if not probs:
        return None, 0
    first = probs[0]
    at = _position(rec, first)
    same = sum(1 for p in probs if p.where.deal == first.where.deal and _position(rec, p) == at)
    return first, at * _AT_ONCE - min(same, _AT_ONCE - 1)


#: What :meth:`_Scorer.map` sends: ``(token, records or None, ...)``.
_Task = tuple[Any, ...]
_R = TypeVar("_R")

#: In a worker process: the records of the searches it has served, by token (the last two kept), so that a
#: batch can send record numbers rather than records (see :meth:`_Scorer.map`).
_WORKER_RECORDS: dict[str, tuple[GameRecord, ...]] = {}


#: How a batch is cut into chunks (:func:`_guided`): the fewest items in a chunk, and how many chunks a
#: worker gets of what is left at each cut.
_Cut = tuple[int, int]
#: Replays of one record under one assignment (:func:`_summary_of`): a replay costs about as much as sending a
#: chunk and its answer, so 8 at least; of even cost, so big chunks first (benchmarks/README.md).
_REPLAYS: _Cut = (8, 2)
#: Checks of an assignment on every valid record (:func:`_fits_of`): most stop at the first record, one that
#: fits replays them all (a thousand times more work), so small chunks from the start.
_CHECKS: _Cut = (1, 8)


def _guided(ex: Executor, fn: Callable[[_Task], _R | None], items: Sequence[_Task], cut: _Cut,
            records: tuple[GameRecord, ...] | None = None) -> Iterator[_R | None]:
    """``fn`` over ``items`` by the workers of ``ex`` (all sent now; closing the answers cancels the chunks
    not begun), in chunks of what is left over ``spread`` times the number of workers, none smaller than
    ``least`` (``cut`` is ``(least, spread)``): big chunks first, for little overhead, then smaller and
    smaller ones, so that the workers finish a batch together rather than one waiting for the other's last
    big chunk (guided self-scheduling). With ``records``, the first chunk of each worker carries them
    (pickled once in each of those chunks)."""
    least, spread = cut
    chunks: list[Sequence[_Task]] = []
    at = 0
    while at < len(items):
        size = max(least, -(-(len(items) - at) // (spread * ex.workers)))
        chunk = items[at:at + size]
        chunks.append(chunk if records is None or len(chunks) >= ex.workers
                      else [_with_records(item, records) for item in chunk])
        at += size
    tasks: list[tuple[Callable[[_Task], _R | None], Sequence[_Task]]] = [(fn, chunk) for chunk in chunks]
    parts: Iterator[list[_R | None]] = ex.map(_chunk_of, tasks)
    return _flat(parts)


def _flat(parts: Iterator[list[_R | None]]) -> Generator[_R | None]:
    try:
        for part in parts:
            yield from part
    finally:
        if isinstance(parts, Generator):
            parts.close()  # the chunks not begun are cancelled


def _chunk_of(task: tuple[Callable[[_Task], _R | None], Sequence[_Task]]) -> list[_R | None]:
    """What a worker runs for :func:`_guided`: ``fn`` over one chunk of items."""
    fn, chunk = task
    return [fn(item) for item in chunk]


@contextmanager
def held_for_workers(recs: Sequence[GameRecord]) -> Iterator[str]:
    """Hold ``recs`` where the workers of an executor opened inside the ``with`` block by forking this
    process (:attr:`hanafuda.parallel.Executor.forked`) find them, and give their name for
    :func:`identify`'s ``held``: the records are then not pickled for each worker, and the workers start
    at once (for a thousand three-deal records, 1.9 MB pickled twice and read back in each worker)."""
    token = secrets.token_hex(8)
    _WORKER_RECORDS[token] = tuple(recs)
    try:
        yield token
    finally:
        _WORKER_RECORDS.pop(token, None)


def _with_records(item: _Task, records: tuple[GameRecord, ...]) -> _Task:
    return (item[0], records, *item[2:])


def _records_of(token: str, records: tuple[GameRecord, ...] | None) -> tuple[GameRecord, ...] | None:
    """In a worker: the search's records, sent with this item (and kept) or kept from an earlier one;
    None if this worker holds none."""
    if records is not None:
        if token not in _WORKER_RECORDS:
            _WORKER_RECORDS[token] = records
            while len(_WORKER_RECORDS) > 2:
                del _WORKER_RECORDS[next(iter(_WORKER_RECORDS))]
        return records
    return _WORKER_RECORDS.get(token)


def _summary_of(item: _Task) -> Summary | None:
    """What a worker runs for :meth:`_Scorer.prefetch_groups`: one record under one ruleset and assignment
    (None if this worker does not hold the records)."""
    token, records, i, ruleset, values = item
    recs = _records_of(token, records)
    return None if recs is None else _summary((i, recs[i]), ruleset, values)


#: In a worker process, the records that last ruled an assignment out there, most recent first (the
#: worker's own move-to-front list, as ``_Scorer.refuters`` in one process): the next task of this
#: worker tries them first. Only the order of the replays depends on it, never an answer.
_WORKER_REFUTERS: list[int] = []


def _fits_of(item: _Task) -> tuple[int | None, list[tuple[int, Summary]]] | None:
    """What a worker runs for :meth:`_Scorer.fits_any`: the records replayed under the assignment in
    turn (those that last ruled an assignment out in this worker first, then in the order given) until
    one does not validate; that record (None if every one does) and the summaries found (None if this
    worker does not hold the records)."""
    token, records, ruleset, cand, order = item
    recs = _records_of(token, records)
    if recs is None:
        return None
    first = {i: k for k, i in enumerate(_WORKER_REFUTERS)}
    found: list[tuple[int, Summary]] = []
    for i in sorted(order, key=lambda i: first.get(i, len(first))):  # stable: the others as given
        summary = _summary((i, recs[i]), ruleset, cand)
        found.append((i, summary))
        if summary[0] is not None:
            if i in first:
                _WORKER_REFUTERS.remove(i)
            _WORKER_REFUTERS.insert(0, i)
            del _WORKER_REFUTERS[8:]
            return i, found
    return None, found


def _position(rec: GameRecord, p: Problem) -> int:
    """How far ``rec`` replays before problem ``p``: its action index; for a claim about a deal, the end
    of that deal; for a claim about the whole match, past the end of the record; and, among problems at
    one index, the later deal is further (the claim of a deal comes before the first action of the next,
    and the actions running out in a deal the record does not have come after the claims of the deals it
    has; a claim is further than the actions running out at the same place)."""
    end = len(rec.actions) + 1
    deals = len(rec.rounds) + 1
    if p.where.action is not None:
        at = min(p.where.action, end)
    elif p.where.deal is not None:
        at = min(sum(r.actions for r in rec.rounds[:p.where.deal]), end)  # after the deal's last action
    else:
        at = end
    deal = deals if p.where.deal is None else min(p.where.deal, deals)
    return (at * (LIMITS["deals"] + 2) + deal) * 2 + (p.where.action is None)


def _set(values: Assignment, key: str, value: str) -> Assignment:
    return tuple((k, value if k == key else v) for k, v in values)


def _set_all(values: Assignment, changes: Sequence[tuple[str, str]]) -> Assignment:
    new = dict(changes)
    return tuple((k, new.get(k, v)) for k, v in values)


class _Search:
    """Coordinate ascent from one starting point (see the module docstring)."""

    def __init__(self, spec: GameSpec, sc: _Scorer, ruleset: str) -> None:
        self.spec, self.sc, self.ruleset = spec, sc, ruleset
        self.everyone = range(len(sc.recs))

    def run(self, values: Assignment, score: Score) -> tuple[Score, Assignment]:
        sc, rs, n = self.sc, self.ruleset, len(self.sc.recs)
        while score[0] < n:
            known = sc.known(rs, values)
            failing = [i for i in self.everyone if (known.get(i) or sc.summary(i, rs, values))[0] is not None]
            probe = failing[:PROBE]
            base_probe = sc.score(probe, rs, values)
            gains: list[tuple[Score, int, tuple[str, str]]] = []  # single changes that improve every record's score
            moved: list[tuple[str, str]] = []  # single changes that alter some problem of the probe
            before = [sc.summary(i, rs, values) for i in probe]
            sc.prefetch(probe, rs, *(_set(values, o.key, c) for o in self.spec.options for c in o.choices))
            # the changes that gain on the probe are scored on every record below: in one batch
            if sc.batched:
                sc.prefetch(self.everyone, rs, *(cand for o in self.spec.options for c in o.choices
                                                 if (cand := _set(values, o.key, c)) != values
                                                 and sc.score(probe, rs, cand) > base_probe))
            order = 0
            for opt in self.spec.options:
                current = dict(values)[opt.key]
                for choice in opt.choices:
                    if choice == current:
                        continue
                    order += 1
                    cand = _set(values, opt.key, choice)
                    if sc.score(probe, rs, cand) <= base_probe:
                        after = (sc.summary(i, rs, cand) for i in probe)
                        if any((str(x[0]), x[1:]) != (str(y[0]), y[1:]) for x, y in zip(after, before, strict=True)):
                            moved.append((opt.key, choice))
                        continue
                    s = sc.score(self.everyone, rs, cand)
                    if s > score:
                        gains.append((s, -order, (opt.key, choice)))
            step: tuple[Score, Assignment] | None = None
            if gains:
                gains.sort(reverse=True)  # the best gain; on a tie, the change first in catalogue order
                step = (gains[0][0], _set(values, *gains[0][2]))
            else:
                step = self.combined(values, score, probe, base_probe, moved)
            if step is None:
                break
            score, values = step
        return score, values

    def combined(self, values: Assignment, score: Score, probe: Sequence[int], base_probe: Score,
                 moved: Sequence[tuple[str, str]]) -> tuple[Score, Assignment] | None:
        """Differences that only show together: pairs, then triples, of the changes that moved a problem."""
        sc, rs = self.sc, self.ruleset
        for size, limit in ((2, PAIRS), (3, TRIPLES)):
            step: tuple[Score, Assignment] | None = None
            cands = [_set_all(values, combo) for combo in itertools.combinations(moved[:limit], size)
                     if len({k for k, _ in combo}) == size]
            if sc.batched:  # every combination on the probe, then the ones that gain there on every record
                sc.prefetch(probe, rs, *cands)
                sc.prefetch(self.everyone, rs, *(cand for cand in cands if sc.score(probe, rs, cand) > base_probe))
            for cand in cands:
                if sc.score(probe, rs, cand) <= base_probe:
                    continue
                s = sc.score(self.everyone, rs, cand)
                if s > score and (step is None or s > step[0]):
                    step = (s, cand)
            if step is not None:
                return step
        return None


def identify(game_key: str, recs: Sequence[GameRecord], executor: Executor | None = None,
             on_progress: OnProgress | None = None, held: str | None = None) -> Identification:
    """Search the game's rulesets and option values for the rules under which the most records
    validate (see the module docstring); with an ``executor`` (:mod:`hanafuda.parallel`) the records
    scored under an assignment are replayed by its workers, with the same result. ``on_progress``
    is told the number of replays done (the total is not known ahead: ``None``). ``held``: the name
    :func:`held_for_workers` gave these records, if the executor's workers were forked while they
    were held (they then have the records, and none are sent; a worker without them asks for them)."""
    g = game(game_key)
    spec = g.spec
    sc = _Scorer(recs, executor, on_progress, held)
    everyone = range(len(recs))
    best: tuple[Score, int, int, str, Assignment] | None = None
    sc.prefetch_groups([(rs.name, tuple(sorted(spec.resolve(rs.name).items())), everyone)
                        for rs in spec.rulesets])  # every ruleset in one batch
    starts = [(sc.score(everyone, rs.name, tuple(sorted(spec.resolve(rs.name).items()))), order, rs)
              for order, rs in enumerate(spec.rulesets)]
    top = max(s[0][0] for s in starts)
    # only the rulesets under which the most records validate are searched further
    tied = [(start, order, rs) for start, order, rs in sorted(starts, key=lambda s: (s[0], -s[1]), reverse=True)
            if start[0] == top]
    ahead: Iterator[tuple[Score, Assignment]] | None = None
    early: _Early | None = None
    try:
        for nth, (start, order, rs) in enumerate(tied):
            if best is not None and best[0][0] == len(recs):
                break  # a start searched earlier explains every record
            if nth == 1 and sc.batched:  # the first start left records unexplained: the others in the workers
                assert best is not None
                ahead = _searched_in_workers(spec, sc, tied[1:], near=best[4])
                early = _Early(spec, sc, best[3], best[4])  # queued after the searches
            if ahead is not None:
                score, values = next(ahead)
            else:
                score, values = _Search(spec, sc, rs.name).run(tuple(sorted(spec.resolve(rs.name).items())), start)
            base = dict(spec.resolve(rs.name))
            changed = sum(1 for k, v in values if base[k] != v)
            key = (score, -changed, -order, rs.name, values)
            if best is None or key[:3] > best[:3]:
                best = key
        assert best is not None
        if early is not None:
            early.settle(wanted=(best[3], best[4]) == (early.ruleset, early.values))
    finally:
        if isinstance(ahead, Generator):
            ahead.close()  # the searches not begun are cancelled
        if early is not None:
            early.settle(wanted=False)
    _, _, _, ruleset, values = best
    base = dict(spec.resolve(ruleset))
    undetermined = _undetermined(spec, sc, ruleset, values)
    ok = sc.valid(ruleset, values)
    for opt_key in undetermined:  # the ruleset's own value where it fits, so that ruleset + options is the answer
        cand = _set(values, opt_key, base[opt_key])
        if cand != values and all(sc.first_problem(i, ruleset, cand) is None for i in ok):
            values = cand
    options = {k: v for k, v in values if base[k] != v}
    valid = sum(1 for i in everyone if sc.first_problem(i, ruleset, values) is None)
    unexplained = []
    for i in everyone:
        p = sc.first_problem(i, ruleset, values)
        if p is not None:
            unexplained.append(Unexplained(i + 1, p.rule_id, str(p)))
    return Identification(spec.key, ruleset, options, undetermined, len(recs), valid, tuple(unexplained))


def _searched_in_workers(spec: GameSpec, sc: _Scorer, starts: Sequence[tuple[Score, int, RulesetSpec]],
                         near: Assignment) -> Generator[tuple[Score, Assignment]]:
    """The end points of the searches from ``starts``, in their order. Every search but one is a task run
    whole by one worker with its own cache (:func:`_search_of`), all sent now, longest first
    (:func:`_longest_first`), so that the workers search different starts side by side rather than
    waiting on each other at every step. The search likely shortest is run here, in batches as the first
    start's (:class:`_Search` through ``sc``): its batches queue behind the whole searches and are shared
    by the workers as they come free, which fills the end, where a worker would otherwise wait for the
    other's last search (and, with one start left, both workers share it). The end points are those of the
    same searches in one process (a search depends only on its start and the records); the summaries of
    every record at each end point join this process's cache. Closing the generator cancels the searches
    not begun (one under way finishes in its worker)."""
    assert sc.executor is not None
    tasks, begins = [], []
    for start, _, rs in starts:
        values = tuple(sorted(spec.resolve(rs.name).items()))
        begins.append(values)
        tasks.append((spec.key, sc.recs, rs.name, values, start,
                      [sc.summary(i, rs.name, values) for i in range(len(sc.recs))]))
    *whole, here = _longest_first(begins, near)
    return _ends(spec, sc, starts, whole, here,
                 sc.executor.map(_search_of, [tasks[k] for k in whole], chunksize=1))


def _longest_first(starts: Sequence[Assignment], near: Assignment) -> list[int]:
    """The order in which to send the searches from ``starts``: the ones likely to take longest first, so
    that the last to end are short ones and the workers end together rather than one finishing a long
    search alone. A search changes about one option a step, and the searches end near one another, so
    the options in which a start differs from ``near`` (the first start's end point) predict its length;
    ties keep the order of ``starts``. Only the time depends on it, never an answer.

    >>> _longest_first([(("a", "1"), ("b", "1")), (("a", "2"), ("b", "2")), (("a", "2"), ("b", "1"))],
    ...                (("a", "1"), ("b", "1")))
    [1, 2, 0]
    """
    def far(values: Assignment) -> int:
        return sum(1 for (_, v), (_, w) in zip(values, near, strict=True) if v != w)

    return sorted(range(len(starts)), key=lambda k: (-far(starts[k]), k))


def _ends(spec: GameSpec, sc: _Scorer, starts: Sequence[tuple[Score, int, RulesetSpec]], sent: Sequence[int],
          here: int, results: Iterator[tuple[Score, Assignment, list[Summary], int]]
          ) -> Generator[tuple[Score, Assignment]]:
    """The end points of :func:`_searched_in_workers` in the order of ``starts``: ``results`` are those of
    the searches sent to the workers, in the order they were sent (``sent``: their places in ``starts``),
    and the search from ``starts[here]`` is run here when its turn comes."""
    done: dict[int, tuple[Score, Assignment, list[Summary], int]] = {}
    answers = zip(sent, results, strict=True)
    try:
        for k, (start, _, rs) in enumerate(starts):
            if k == here:
                yield _Search(spec, sc, rs.name).run(tuple(sorted(spec.resolve(rs.name).items())), start)
                continue
            while k not in done:
                at, found = next(answers)
                done[at] = found
            score, values, summaries, replays = done.pop(k)
            known = sc.known(rs.name, values)
            for i, summary in enumerate(summaries):
                known.setdefault(i, summary)
            sc.elsewhere += replays
            sc.report()
            yield score, values
    finally:
        if isinstance(results, Generator):
            results.close()


def _search_of(task: tuple[str, Sequence[GameRecord], str, Assignment, Score, Sequence[Summary]]
               ) -> tuple[Score, Assignment, list[Summary], int]:
    """What a worker runs for :func:`_searched_in_workers`: the search from one start (``_Search.run``,
    in this process, the start's summaries given); its end score and assignment, the summary of every
    record there, and how many records it replayed."""
    key, recs, ruleset, values, start, known = task
    sc = _Scorer(recs)
    sc.known(ruleset, values).update(enumerate(known))
    score, end = _Search(game(key).spec, sc, ruleset).run(values, start)
    return score, end, [sc.summary(i, ruleset, end) for i in range(len(recs))], sc.replays


def _single_changes(spec: GameSpec, values: Assignment) -> list[tuple[str, str]]:
    """Every change of one option to one other value, in catalogue order."""
    current = dict(values)
    return [(opt.key, c) for opt in spec.options for c in opt.choices if c != current[opt.key]]


def _single_checks(spec: GameSpec, values: Assignment) -> list[list[Assignment]]:
    """The first checks of step 4 (:func:`_undetermined`, and sent early by :class:`_Early`): each
    single change, a group of its own."""
    return [[_set(values, key, c)] for key, c in _single_changes(spec, values)]


class _Early:
    """The first checks of step 4 (:func:`_undetermined`: each single change, on the records that
    validate) for the best end point so far, sent to the workers while the other starts are searched:
    queued after those searches, they run on a worker that has no search left, rather than after the
    last search ends. If that end point is still the best once every search is in (the usual case: the
    first start is the best one), :meth:`settle` takes their answers into the cache, where step 4 finds
    them; otherwise the checks not begun are cancelled. Only the time differs, never an answer."""

    def __init__(self, spec: GameSpec, sc: _Scorer, ruleset: str, values: Assignment) -> None:
        self.sc, self.ruleset, self.values = sc, ruleset, values
        self.sent: Iterator[tuple[int | None, list[tuple[int, Summary]]] | None] | None = None
        self.todo: list[_Task] = []
        ok = sc.valid(ruleset, values)
        if ok:
            _, self.todo = sc.fit_tasks(_single_checks(spec, values), ruleset, ok)
            if self.todo:
                self.sent = sc.submit(_fits_of, self.todo, _CHECKS)

    def settle(self, wanted: bool) -> None:
        """Take the answers into the cache (``wanted``), or cancel the checks not begun."""
        sent, self.sent = self.sent, None
        if sent is None:
            return
        if wanted:
            answer: dict[Assignment, bool] = {}
            self.sc.take_fits(self.todo, self.sc.collect(_fits_of, self.todo, _CHECKS, sent), answer)
        elif isinstance(sent, Generator):
            sent.close()


def _undetermined(spec: GameSpec, sc: _Scorer, ruleset: str, values: Assignment) -> dict[str, tuple[str, ...]]:
    """The options whose other values fit every record that validates: on their own, or together with
    other values of options already found undetermined (an option that hides another, such as a yaku
    set without the viewing yaku hiding their value), repeated until nothing more is found."""
    ok = sc.valid(ruleset, values)
    if not ok:
        return {}
    current = dict(values)
    found: dict[str, set[str]] = {}
    for (key, c), yes in zip(_single_changes(spec, values), sc.fits_any(_single_checks(spec, values), ruleset, ok),
                             strict=True):
        if yes:
            found.setdefault(key, {current[key]}).add(c)
    grew = True
    while grew:
        grew = False
        partners = [(k, c) for k, cs in found.items() for c in sorted(cs) if c != current[k]]
        others = [(opt.key, c) for opt in spec.options if opt.key not in found for c in opt.choices
                  if c != current[opt.key]]
        groups = [[_set_all(values, [(key, c), p]) for p in partners] for key, c in others]
        for (key, c), yes in zip(others, sc.fits_any(groups, ruleset, ok), strict=True):
            if yes:
                found.setdefault(key, {current[key]}).add(c)
                grew = True
    return {o.key: tuple(c for c in o.choices if c in found[o.key]) for o in spec.options if o.key in found}
