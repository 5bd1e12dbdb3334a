"""The :class:`~hanafuda.identify.search.Scorer` of :mod:`hanafuda.identify` for worker processes or a cluster.

The replays are sent in batches (every ruleset; for each step of the first start, every single change
on the probe, then the changes that gain there on every record, every pair, then every triple; every
check of step 4, each stopping at the first record that rules its assignment out, as in one process),
so that this process does little besides choosing. A batch goes out in chunks that shrink towards its
end, so that the workers finish it together. The first chunk of each worker carries the records, and
each worker keeps them; the others send record numbers only (a worker without them is sent them
again). When the first start's search leaves records unexplained, the other tied starts are searched
side by side, each whole in one worker (a search depends only on its start and the records), sent
longest first (a start that differs from the first start's end point in more options usually takes
more steps), and their end points are taken in the order of step 3, as one process would; the searches
a start that explains every record makes unnecessary are cancelled if not yet begun. Queued behind
them, the first checks of step 4 for the first start's end point run on a worker that has no search
left; they are kept if that point is still the best. The answers are those of
:class:`~hanafuda.identify.search.LocalScorer`; only the time and the number of replays differ.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from hanafuda_spec.catalogue import GameSpec, RulesetSpec
from hanafuda_spec.records import GameRecord

from hanafuda.identify.search import Assignment, Early, LocalScorer, Score, Search, Summary, single_checks, summarize
from hanafuda.parallel import Executor
from hanafuda.progress import OnProgress
from hanafuda.registry import game

__all__ = ["WorkerScorer", "held_for_workers"]

#: What :meth:`WorkerScorer.map` sends: ``(token, records or None, ...)``.
_Task = tuple[Any, ...]
_R = TypeVar("_R")

#: In a worker process: the records of the searches it has served, by token (the last two kept), so that a
#: batch can send record numbers rather than records (see :meth:`WorkerScorer.map`).
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


class WorkerScorer(LocalScorer):
    """A :class:`~hanafuda.identify.search.LocalScorer` whose replays run in the workers of an executor,
    in batches (see the module docstring). ``held``: the name :func:`held_for_workers` gave the records,
    if the workers were forked while they were held."""

    def __init__(self, recs: Sequence[GameRecord], executor: Executor, on_progress: OnProgress | None = None,
                 held: str | None = None) -> None:
        super().__init__(recs, on_progress)
        self.executor = executor
        #: the records as one object, and this search's name for them in the workers (see :meth:`map`)
        self.records, self.token = tuple(recs), held or secrets.token_hex(8)
        #: whether the workers have the records: a batch carried them, or they were forked holding them
        self.shipped = held is not None and executor.forked

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
        first = not self.shipped
        self.shipped = True
        return _guided(self.executor, fn, items, cut, self.records if first else None)

    def collect(self, fn: Callable[[_Task], _R | None], items: Sequence[_Task], cut: _Cut,
                sent: Iterator[_R | None]) -> list[_R]:
        """The second half of :meth:`map`: the answers of the items ``sent`` by :meth:`submit`, those a
        worker could not answer sent again with the records."""
        out = list(sent)
        again = [k for k, found in enumerate(out) if found is None]
        if again:
            redo = _guided(self.executor, fn, [_with_records(items[k], self.records) for k in again], cut)
            for k, found in zip(again, redo, strict=True):
                out[k] = found
        done: list[_R] = []
        for found in out:
            if found is None:  # cannot be: the records were sent with the item
                raise RuntimeError("identify: a worker did not take the records sent to it")
            done.append(found)
        return done

    def prefetch(self, idx: Sequence[int], ruleset: str, assignments: Iterable[Assignment]) -> None:
        """Replay in the workers the records of ``idx`` not yet replayed under each assignment, in one batch."""
        self.prefetch_groups([(ruleset, values, idx) for values in assignments])

    def prefetch_groups(self, groups: Sequence[tuple[str, Assignment, Sequence[int]]]) -> None:
        """:meth:`prefetch` of any rulesets, assignments and records at once (``(ruleset, assignment,
        records)`` groups): one batch for the workers, so that they are not left waiting between small ones."""
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
        """Every assignment of every group is one task that stops at the first record that does not
        validate, all sent at once; the answers are those of one process."""
        answer, todo = self.fit_tasks(groups, ruleset, ok)
        if todo:
            self.take_fits(todo, self.map(_fits_of, todo, _CHECKS), answer)
        return [any(answer[c] for c in group) for group in groups]

    def fit_tasks(self, groups: Sequence[Sequence[Assignment]], ruleset: str, ok: Sequence[int]
                  ) -> tuple[dict[Assignment, bool], list[_Task]]:
        """For :meth:`fits_any`: the answers the replays done tell already, and a task for each other
        assignment (:func:`_fits_of`)."""
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
                self.refuted_by(refuter)
        self.report()

    def searches(self, spec: GameSpec, starts: Sequence[tuple[Score, int, RulesetSpec]],
                 near: Assignment) -> Iterator[tuple[Score, Assignment]]:
        """Every search but one is a task run whole by one worker with its own cache (:func:`_search_of`),
        all sent now, longest first (:func:`_longest_first`), so that the workers search different starts
        side by side rather than waiting on each other at every step. The search likely shortest is run
        here, in batches: they queue behind the whole searches and are shared by the workers as they come
        free, which fills the end, where a worker would otherwise wait for the other's last search. The
        summaries of every record at each end point join this process's cache. Closing the generator
        cancels the searches not begun (one under way finishes in its worker)."""
        tasks, begins = [], []
        for start, _, rs in starts:
            values = tuple(sorted(spec.resolve(rs.name).items()))
            begins.append(values)
            tasks.append((spec.key, self.recs, rs.name, values, start,
                          [self.summary(i, rs.name, values) for i in range(len(self.recs))]))
        *whole, here = _longest_first(begins, near)
        return self._ends(spec, starts, whole, here,
                          self.executor.map(_search_of, [tasks[k] for k in whole], chunksize=1))

    def _ends(self, spec: GameSpec, starts: Sequence[tuple[Score, int, RulesetSpec]], sent: Sequence[int],
              here: int, results: Iterator[tuple[Score, Assignment, list[Summary], int]]
              ) -> Generator[tuple[Score, Assignment]]:
        """The end points of :meth:`searches` in the order of ``starts``: ``results`` are those of the
        searches sent to the workers, in the order they were sent (``sent``: their places in ``starts``),
        and the search from ``starts[here]`` is run here when its turn comes."""
        done: dict[int, tuple[Score, Assignment, list[Summary], int]] = {}
        answers = zip(sent, results, strict=True)
        try:
            for k, (start, _, rs) in enumerate(starts):
                if k == here:
                    yield Search(spec, self, rs.name).run(tuple(sorted(spec.resolve(rs.name).items())), start)
                    continue
                while k not in done:
                    at, found = next(answers)
                    done[at] = found
                score, values, summaries, replays = done.pop(k)
                known = self.known(rs.name, values)
                for i, summary in enumerate(summaries):
                    known.setdefault(i, summary)
                self.elsewhere += replays
                self.report()
                yield score, values
        finally:
            if isinstance(results, Generator):
                results.close()

    def early(self, spec: GameSpec, ruleset: str, values: Assignment) -> Early:
        return _Early(spec, self, ruleset, values)


class _Early:
    """Step 4's first checks (each single change, on the records that validate) for the best end point so
    far, sent to the workers while the other starts are searched: queued after those searches, they run on
    a worker that has no search left, rather than after the last search ends. If that end point is still
    the best once every search is in (the usual case: the first start is the best one), :meth:`settle`
    takes their answers into the cache, where step 4 finds them; otherwise the checks not begun are
    cancelled. Only the time differs, never an answer."""

    def __init__(self, spec: GameSpec, sc: WorkerScorer, ruleset: str, values: Assignment) -> None:
        self.sc = sc
        self.sent: Iterator[tuple[int | None, list[tuple[int, Summary]]] | None] | None = None
        self.todo: list[_Task] = []
        ok = sc.valid(ruleset, values)
        if ok:
            _, self.todo = sc.fit_tasks(single_checks(spec, values), ruleset, ok)
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
    :func:`hanafuda.identify.identify`'s ``held``: the records are then not pickled for each worker, and
    the workers start at once (for a thousand three-deal records, 1.9 MB pickled twice and read back in
    each worker)."""
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
    """What a worker runs for :meth:`WorkerScorer.prefetch_groups`: one record under one ruleset and
    assignment (None if this worker does not hold the records)."""
    token, records, i, ruleset, values = item
    recs = _records_of(token, records)
    return None if recs is None else summarize(recs[i], i + 1, ruleset, values)


#: In a worker process, the records that last ruled an assignment out there, most recent first (the
#: worker's own move-to-front list, as ``LocalScorer.refuters`` in one process): the next task of this
#: worker tries them first. Only the order of the replays depends on it, never an answer.
_WORKER_REFUTERS: list[int] = []


def _fits_of(item: _Task) -> tuple[int | None, list[tuple[int, Summary]]] | None:
    """What a worker runs for :meth:`WorkerScorer.fits_any`: the records replayed under the assignment in
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
        summary = summarize(recs[i], i + 1, ruleset, cand)
        found.append((i, summary))
        if summary[0] is not None:
            if i in first:
                _WORKER_REFUTERS.remove(i)
            _WORKER_REFUTERS.insert(0, i)
            del _WORKER_REFUTERS[8:]
            return i, found
    return None, found


def _search_of(task: tuple[str, Sequence[GameRecord], str, Assignment, Score, Sequence[Summary]]
               ) -> tuple[Score, Assignment, list[Summary], int]:
    """What a worker runs for :meth:`WorkerScorer.searches`: the search from one start
    (:meth:`~hanafuda.identify.search.Search.run` with a scorer of its own, the start's summaries given);
    its end score and assignment, the summary of every record there, and how many records it replayed."""
    key, recs, ruleset, values, start, known = task
    sc = LocalScorer(recs)
    sc.known(ruleset, values).update(enumerate(known))
    score, end = Search(game(key).spec, sc, ruleset).run(values, start)
    return score, end, [sc.summary(i, ruleset, end) for i in range(len(recs))], sc.replays
