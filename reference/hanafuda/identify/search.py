"""The search of :mod:`hanafuda.identify` (its steps 2 and 4), written against :class:`Scorer`.

The search asks a scorer for the summary of a record under an assignment of option values, for
scores over sets of records, and whether some assignment of a group lets every given record validate.
:class:`LocalScorer` answers in this process, one replay at a time; the scorer of
:mod:`hanafuda.identify.workers` answers the same questions with batches of replays sent to worker
processes or a cluster. Both give the same answers; only the time and the number of replays differ.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from hanafuda_spec.catalogue import GameSpec, RulesetSpec
from hanafuda_spec.records import LIMITS, GameRecord, Problem

from hanafuda.progress import OnProgress
from hanafuda.records import replay

__all__ = ["PAIRS", "PROBE", "TRIPLES", "Assignment", "Early", "LocalScorer", "Score", "Scorer", "Search",
           "Summary", "changed", "changed_all", "single_checks", "summarize", "undetermined"]

#: How many failing records a candidate change is first scored on.
PROBE = 24
#: When no single change improves the score, pairs of the first this many changes that altered a
#: first problem are tried.
PAIRS = 24
#: When no pair improves it either, triples of the first this many such changes are tried.
TRIPLES = 12

#: An assignment: every option of the game with a value, in the catalogue's order.
Assignment = tuple[tuple[str, str], ...]
#: A score: records that validate, then how far the failing records replay (see :func:`summarize`).
Score = tuple[int, int]
#: A record under an assignment: its first problem (None if it validates) and its progress.
Summary = tuple[Problem | None, int]
#: Problems found at one place (one claim) count towards progress up to this many.
_AT_ONCE = 16


class Early(Protocol):
    """Step 4's first checks for an end point, begun ahead of time (see :meth:`Scorer.early`)."""

    def settle(self, wanted: bool) -> None:
        """Keep the answers (``wanted``: the end point is the one chosen) or drop them."""


class Scorer(Protocol):
    """What the search asks of the replays. ``prefetch``, ``searches`` and ``early`` only say what will
    be asked next, so that a scorer with workers can run it together; no answer depends on them."""

    @property
    def recs(self) -> Sequence[GameRecord]:
        """The records searched."""

    def known(self, ruleset: str, values: Assignment) -> dict[int, Summary]:
        """The summaries found so far under the rules, by record number."""

    def summary(self, i: int, ruleset: str, values: Assignment) -> Summary:
        """Record ``i`` under the rules (:func:`summarize`), replayed once and remembered."""

    def score(self, idx: Sequence[int], ruleset: str, values: Assignment) -> Score:
        """The records of ``idx`` that validate under the rules, and their progress summed."""

    def valid(self, ruleset: str, values: Assignment) -> list[int]:
        """The records that validate under the rules (their numbers, in order)."""

    def prefetch(self, idx: Sequence[int], ruleset: str, assignments: Iterable[Assignment]) -> None:
        """The records of ``idx`` will be scored under each of ``assignments`` (consumed only by a scorer
        that replays ahead)."""

    def fits_any(self, groups: Sequence[Sequence[Assignment]], ruleset: str, ok: Sequence[int]) -> list[bool]:
        """For each group of assignments, whether one of them lets every record of ``ok`` validate."""

    def searches(self, spec: GameSpec, starts: Sequence[tuple[Score, int, RulesetSpec]],
                 near: Assignment) -> Iterator[tuple[Score, Assignment]]:
        """The end points of :class:`Search` from each start, in order (lazily: a start not reached is
        never searched; ``near`` is the end point of the start searched first)."""

    def early(self, spec: GameSpec, ruleset: str, values: Assignment) -> Early:
        """Begin step 4's first checks (:func:`single_checks`) for an end point that may be chosen."""


class _NothingAhead:
    """:meth:`LocalScorer.early`: nothing was begun, nothing to settle."""

    def settle(self, wanted: bool) -> None:
        pass


class LocalScorer:
    """The :class:`Scorer` of one process: every record replayed here when first asked for."""

    def __init__(self, recs: Sequence[GameRecord], on_progress: OnProgress | None = None) -> None:
        self.recs = recs
        #: (ruleset, assignment) -> record number -> its summary: the replays done (an assignment's long
        #: tuple is hashed once for all of its records, not once per record)
        self.cache: dict[tuple[str, Assignment], dict[int, Summary]] = {}
        self.replays = 0  # replays done here or by workers for this process
        self.elsewhere = 0  # replays done by workers for searches of their own (not in the cache)
        self.on_progress = on_progress
        self.refuters: list[int] = []  # the records that last ruled an assignment out (see fits_any)

    def report(self) -> None:
        """Tell ``on_progress`` how many replays are done."""
        if self.on_progress is not None:  # how many the search takes is not known ahead
            self.on_progress(self.replays + self.elsewhere, None)

    def known(self, ruleset: str, values: Assignment) -> dict[int, Summary]:
        key = (ruleset, values)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = {}
        return found

    def summary(self, i: int, ruleset: str, values: Assignment) -> Summary:
        known = self.known(ruleset, values)
        found = known.get(i)
        if found is None:
            found = known[i] = summarize(self.recs[i], i + 1, ruleset, values)
            self.replays += 1
            self.report()
        return found

    def first_problem(self, i: int, ruleset: str, values: Assignment) -> Problem | None:
        return self.summary(i, ruleset, values)[0]

    def score(self, idx: Sequence[int], ruleset: str, values: Assignment) -> Score:
        self.prefetch(idx, ruleset, (values,))
        known = self.known(ruleset, values)
        valid = progress = 0
        for i in idx:
            found = known.get(i)
            p, g = found if found is not None else self.summary(i, ruleset, values)
            if p is None:
                valid += 1
            progress += g
        return valid, progress

    def valid(self, ruleset: str, values: Assignment) -> list[int]:
        return [i for i in range(len(self.recs)) if self.first_problem(i, ruleset, values) is None]

    def prefetch(self, idx: Sequence[int], ruleset: str, assignments: Iterable[Assignment]) -> None:
        pass  # every record is replayed when first asked for

    def fits_any(self, groups: Sequence[Sequence[Assignment]], ruleset: str, ok: Sequence[int]) -> list[bool]:
        """A group's assignments are tried in turn, each stopping at the first record that does not
        validate (the records that last ruled an assignment out are tried first)."""
        return [any(self._fits(cand, ruleset, ok) for cand in group) for group in groups]

    def searches(self, spec: GameSpec, starts: Sequence[tuple[Score, int, RulesetSpec]],
                 near: Assignment) -> Iterator[tuple[Score, Assignment]]:
        for start, _, rs in starts:
            yield Search(spec, self, rs.name).run(tuple(sorted(spec.resolve(rs.name).items())), start)

    def early(self, spec: GameSpec, ruleset: str, values: Assignment) -> Early:
        return _NothingAhead()

    def refuters_first(self, ok: Sequence[int]) -> list[int]:
        """The records of ``ok``, those that last ruled an assignment out first (see :meth:`refuted_by`)."""
        oks = set(ok)
        first = [i for i in self.refuters if i in oks]
        return [*first, *(i for i in ok if i not in first)]

    def _fits(self, cand: Assignment, ruleset: str, ok: Sequence[int]) -> bool:
        for i in self.refuters_first(ok):
            if self.first_problem(i, ruleset, cand) is not None:
                self.refuted_by(i)
                return False
        return True

    def refuted_by(self, i: int) -> None:
        """Record ``i`` ruled an assignment out: it is tried first next time (move to front, 8 kept)."""
        if i in self.refuters:
            self.refuters.remove(i)
        self.refuters.insert(0, i)
        del self.refuters[8:]


def summarize(rec: GameRecord, number: int, ruleset: str, values: Assignment) -> Summary:
    """Record ``rec`` (record ``number`` of the input, from 1) replayed under ``ruleset`` and ``values``,
    its own rules ignored: its first problem, and its progress: the position of the first problem
    (:func:`_position`), less the problems found at that same place (a claim whose deltas, notes and yaku
    all differ is further from right than one whose deltas alone differ)."""
    probs = replay(rec, number, ruleset=ruleset, options=dict(values), again=True, first_deal_only=True).problems
    if not probs:
        return None, 0
    first = probs[0]
    at = _position(rec, first)
    same = sum(1 for p in probs if p.where.deal == first.where.deal and _position(rec, p) == at)
    return first, at * _AT_ONCE - min(same, _AT_ONCE - 1)


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


def changed(values: Assignment, key: str, value: str) -> Assignment:
    """``values`` with option ``key`` set to ``value``."""
    return tuple((k, value if k == key else v) for k, v in values)


def changed_all(values: Assignment, changes: Sequence[tuple[str, str]]) -> Assignment:
    """``values`` with each ``(key, value)`` of ``changes`` set."""
    new = dict(changes)
    return tuple((k, new.get(k, v)) for k, v in values)


class Search:
    """Coordinate ascent from one starting point (step 2 of :mod:`hanafuda.identify`)."""

    def __init__(self, spec: GameSpec, sc: Scorer, ruleset: str) -> None:
        self.spec, self.sc, self.ruleset = spec, sc, ruleset
        self.everyone = range(len(sc.recs))

    def run(self, values: Assignment, score: Score) -> tuple[Score, Assignment]:
        """The end point from ``values`` (whose score is ``score``) and its score."""
        sc, rs, n = self.sc, self.ruleset, len(self.sc.recs)
        while score[0] < n:
            known = sc.known(rs, values)
            failing = [i for i in self.everyone if (known.get(i) or sc.summary(i, rs, values))[0] is not None]
            probe = failing[:PROBE]
            base_probe = sc.score(probe, rs, values)
            gains: list[tuple[Score, int, tuple[str, str]]] = []  # single changes that improve every record's score
            moved: list[tuple[str, str]] = []  # single changes that alter some problem of the probe
            before = [sc.summary(i, rs, values) for i in probe]
            singles = [changed(values, key, c) for key, c in single_changes(self.spec, values)]
            sc.prefetch(probe, rs, singles)
            # the changes that gain on the probe are scored on every record below
            sc.prefetch(self.everyone, rs, (cand for cand in singles if sc.score(probe, rs, cand) > base_probe))
            for order, ((key, choice), cand) in enumerate(zip(single_changes(self.spec, values), singles,
                                                               strict=True)):
                if sc.score(probe, rs, cand) <= base_probe:
                    after = (sc.summary(i, rs, cand) for i in probe)
                    if any((str(x[0]), x[1:]) != (str(y[0]), y[1:]) for x, y in zip(after, before, strict=True)):
                        moved.append((key, choice))
                    continue
                s = sc.score(self.everyone, rs, cand)
                if s > score:
                    gains.append((s, -order, (key, choice)))
            step: tuple[Score, Assignment] | None = None
            if gains:
                gains.sort(reverse=True)  # the best gain; on a tie, the change first in catalogue order
                step = (gains[0][0], changed(values, *gains[0][2]))
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
            cands = [changed_all(values, combo) for combo in itertools.combinations(moved[:limit], size)
                     if len({k for k, _ in combo}) == size]
            # every combination on the probe, then the ones that gain there on every record
            sc.prefetch(probe, rs, cands)
            sc.prefetch(self.everyone, rs, (cand for cand in cands if sc.score(probe, rs, cand) > base_probe))
            for cand in cands:
                if sc.score(probe, rs, cand) <= base_probe:
                    continue
                s = sc.score(self.everyone, rs, cand)
                if s > score and (step is None or s > step[0]):
                    step = (s, cand)
            if step is not None:
                return step
        return None


def single_changes(spec: GameSpec, values: Assignment) -> list[tuple[str, str]]:
    """Every change of one option to one other value, in catalogue order."""
    current = dict(values)
    return [(opt.key, c) for opt in spec.options for c in opt.choices if c != current[opt.key]]


def single_checks(spec: GameSpec, values: Assignment) -> list[list[Assignment]]:
    """The first checks of step 4 (:func:`undetermined`): each single change, a group of its own."""
    return [[changed(values, key, c)] for key, c in single_changes(spec, values)]


def undetermined(spec: GameSpec, sc: Scorer, ruleset: str, values: Assignment) -> dict[str, tuple[str, ...]]:
    """Step 4: the options whose other values fit every record that validates: on their own, or together
    with other values of options already found undetermined (an option that hides another, such as a yaku
    set without the viewing yaku hiding their value), repeated until nothing more is found."""
    ok = sc.valid(ruleset, values)
    if not ok:
        return {}
    current = dict(values)
    found: dict[str, set[str]] = {}
    for (key, c), yes in zip(single_changes(spec, values), sc.fits_any(single_checks(spec, values), ruleset, ok),
                             strict=True):
        if yes:
            found.setdefault(key, {current[key]}).add(c)
    grew = True
    while grew:
        grew = False
        partners = [(k, c) for k, cs in found.items() for c in sorted(cs) if c != current[k]]
        others = [(opt.key, c) for opt in spec.options if opt.key not in found for c in opt.choices
                  if c != current[opt.key]]
        groups = [[changed_all(values, [(key, c), p]) for p in partners] for key, c in others]
        for (key, c), yes in zip(others, sc.fits_any(groups, ruleset, ok), strict=True):
            if yes:
                found.setdefault(key, {current[key]}).add(c)
                grew = True
    return {o.key: tuple(c for c in o.choices if c in found[o.key]) for o in spec.options if o.key in found}
