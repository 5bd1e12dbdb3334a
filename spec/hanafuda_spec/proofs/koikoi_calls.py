"""Koi-Koi's call rule (KK-TURN-3) refined by play, turn by turn (issue 32, item 3).

KK-TURN-3: after both plays of a turn, a player whose capture pile forms a new yaku or improves one
(more points) decides koi-koi or shōbu; otherwise the turn passes; with koikoi_on=new only a new
yaku gives the decision (decision KK-10). Nothing in the count model or the decision tables says
when the decision comes, so here the reference plays random rounds and, at the end of each turn,
the spec scores the mover's capture pile with the catalogue's table (best per group,
:func:`~hanafuda_spec.yaku.best_per_group`) and compares it with the pile's yaku at the mover's
previous turn: the decision must come exactly when the rule says. The check fails unless its
sample reached a call on a new yaku, a call on an improved one (koikoi_on=new-or-improved), an
improved yaku without a call (koikoi_on=new) and a turn that changed nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import koikoi as kk
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs.common import SAMPLED, Case, Outcome, timed
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import best_per_group

__all__ = ["REPLAYS", "CallWatch", "checks", "option_sets", "replay_check"]

Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]

#: The option sets played: the standard turn, no month-dependent row (month_cards=off), each value of
#: koikoi_on.
OPTION_SETS = ({"month_cards": "off"}, {"month_cards": "off", "koikoi_on": "new"},
               {"month_cards": "off", "viewing": "off", "sake_cup": "animal"})

NEW, IMPROVED, UNCHANGED, IMPROVED_NO_CALL = ("a call on a new yaku", "a call on an improved yaku",
                                              "no call: nothing new or improved",
                                              "no call on an improved yaku (koikoi_on=new)")


def option_sets() -> list[dict[str, str]]:
    return [kk.SPEC.resolve(None, extra) for extra in OPTION_SETS]


class CallWatch:
    """Follows a Koi-Koi match action by action and checks, at the end of each turn, that the
    koi-koi decision comes exactly when KK-TURN-3 says (the spec scoring the mover's pile)."""

    def __init__(self, opts: Mapping[str, str]) -> None:
        self.opts = opts
        self.table = kk.yaku_table(opts, None)
        self.only_new = opts["koikoi_on"] == "new"
        self.seen: list[dict[str, int]] = [{}, {}]
        self.turns = 0
        self.reached: set[str] = set()

    def score(self, pile: Sequence[int]) -> dict[str, int]:
        return {y.id: y.points for y in best_per_group(self.table, pile)}

    def step(self, before: Snapshot, act: str, after: Snapshot, ended: bool) -> str | None:
        """Check one action (``after``: the position after it, the round's final one if it ended the round)."""
        p = before.to_move
        if p is None or act in ("koikoi", "stop") or before.phase not in ("play", "take"):
            return None
        if not ended and after.to_move == p and after.phase == "take":
            return None  # the drawn card waits for its target: the turn goes on
        now = self.score(after.zone(f"captured.{p}"))
        old = self.seen[p]
        new = any(k not in old for k in now)
        improved = new or any(v > old[k] for k, v in now.items() if k in old)
        want = new if self.only_new else improved
        called = not ended and after.phase == "call" and after.to_move == p
        self.seen[p] = now
        self.turns += 1
        if want != called:
            said = "a new" if new else "an improved" if improved else "no new or improved"
            got = "the koi-koi decision" if called else ("the end of the round" if ended else "the turn passing")
            return (f"seat {p}'s turn ({act!r}) leaves {sorted(now.items())} after {sorted(old.items())}: {said} "
                    f"yaku, koikoi_on={self.opts['koikoi_on']}, so {'a' if want else 'no'} koi-koi decision "
                    f"(KK-TURN-3); the reference gives {got}")
        self.reached.add(NEW if called and new else IMPROVED if called else
                         IMPROVED_NO_CALL if improved else UNCHANGED)
        return None

    def new_round(self) -> None:
        self.seen = [{}, {}]


def play(adapter: EngineAdapter, opts: Mapping[str, str], seed: int, watch: CallWatch,
         script: Sequence[str] | None = None) -> tuple[str | None, list[str]]:
    """A match (random actions from ``seed``, koi-koi called three times in four; or ``script``),
    every action checked by ``watch``: the first disagreement and the actions."""
    rng = SplitMix64(seed)
    adapter.start("koikoi", opts, seed)
    actions: list[str] = []
    while not adapter.match_over() and len(actions) < 5000:
        if script is not None and len(actions) == len(script):
            break
        legal = adapter.legal_actions()
        if script is not None:
            act = script[len(actions)]
        elif "koikoi" in legal:
            act = "koikoi" if rng.below(4) else "stop"
        else:
            act = legal[rng.below(len(legal))]
        before = adapter.snapshot()
        adapter.apply(act)
        actions.append(act)
        outs = adapter.rounds_ended()
        final = outs[0].final if outs else adapter.snapshot()
        bad = None if final is None else watch.step(before, act, final, bool(outs))
        if bad:
            return bad, actions
        if outs:
            watch.new_round()
    return None, actions


def refinement(adapter: EngineAdapter, quick: bool) -> Result:
    rng = SplitMix64(20261129)
    turns = 0
    reached: set[str] = set()
    for opts in option_sets():
        for _ in range(1 if quick else 4):
            watch = CallWatch(opts)
            seed = rng.next()
            bad, actions = play(adapter, opts, seed, watch)
            turns += watch.turns
            reached |= watch.reached
            if bad:
                return False, bad, {"kind": "play", "game": "koikoi", "options": dict(opts), "seed": seed,
                                    "actions": actions, "check": REPLAYS[0]}, turns, ()
    missed = sorted({NEW, IMPROVED, UNCHANGED, IMPROVED_NO_CALL} - reached)
    if missed:
        return False, f"{turns} turns agree, but the sample never reached: {'; '.join(missed)}", {}, turns, ()
    return True, (f"sampled: {turns} turns of {len(OPTION_SETS)} option sets, the koi-koi decision exactly where "
                  f"KK-TURN-3 puts it; reached: {'; '.join(sorted(reached))}"), {}, turns, ()


def checks(adapter: EngineAdapter, game: str, quick: bool) -> Iterator[Outcome]:
    """The call rule's check (Koi-Koi only)."""
    if game == "koikoi":
        yield timed(game, "koi-koi decision after each turn vs the spec's yaku, sampled, each case reached "
                          "(KK-TURN-3, KK-10)", lambda: refinement(adapter, quick), SAMPLED)


#: The counterexamples :func:`replay_check` re-runs (their ``check``).
REPLAYS = ("koikoi-calls",)


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a ``koikoi-calls`` counterexample: the first turn whose decision KK-TURN-3 contradicts,
    or None."""
    seed, actions = cx.get("seed"), cx.get("actions")
    if not isinstance(seed, int) or not isinstance(actions, list):
        raise ValueError("counterexample: 'seed' must be an integer and 'actions' a list")
    bad, _ = play(adapter, options, seed, CallWatch(options), [str(a) for a in actions])
    return bad

