"""Zero-sum settlement over the settlement arithmetic, caps included (issue 32, item 4).

* Kujuroku: the catalogue's card-point settlement (:func:`~hanafuda_spec.games.kujuroku.card_point_deltas`)
  over its whole domain (every chip score of the chip table for each of three participants, with
  three and four seats and each seat sitting out): zero-sum, the seat sitting out untouched, nobody
  moving more than the chip table allows. The domain is finite, so the enumeration is a proof for
  all inputs.
* Kusuri-gui: the z3 result and payment tables (:mod:`hanafuda_spec.proofs.kusurigui`) are proved
  zero-sum and never below zero with ``bust=end``; here the engine is held to them near 0 chips,
  where random play from the starting chips never goes: matches started with a few chips through
  the adapter's optional :class:`~hanafuda_spec.adapter.ScoresAdapter`, every payment and
  settlement checked as the tables say (``ChipWatch`` of :mod:`hanafuda_spec.proofs.kusurigui`), so an
  engine without the cap fails.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping

from hanafuda_spec.adapter import EngineAdapter, ScoresAdapter
from hanafuda_spec.games import kujuroku as kj
from hanafuda_spec.games import kusurigui as kg
from hanafuda_spec.proofs.common import SAMPLED, Case, Outcome, timed
from hanafuda_spec.shuffle import SplitMix64

__all__ = ["REPLAYS", "checks", "kujuroku_zero_sum", "kusurigui_near_zero", "replay_check"]

Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]

def kujuroku_zero_sum() -> Result:
    bands = sorted({chips for _, chips in kj.CHIP_TABLE})
    most = max(abs(b) for b in bands)
    n = 0
    for seats in (3, 4):
        for parts in itertools.combinations(range(seats), kj.PLAYERS_PER_ROUND):
            for chips in itertools.product(bands, repeat=3):
                n += 1
                deltas = kj.card_point_deltas(dict(zip(parts, chips, strict=True)), seats)
                bad = None
                if sum(deltas) != 0:
                    bad = "not zero-sum"
                elif any(deltas[i] for i in range(seats) if i not in parts):
                    bad = "the seat sitting out pays or is paid"
                elif any(abs(d) > 2 * most for d in deltas):
                    bad = f"a seat moves more than {2 * most} chips"
                if bad:
                    given = dict(zip(parts, chips, strict=True))
                    return False, (f"KJ-SCORE-3…6: chip scores {given} with {seats} seats settle as {list(deltas)}: "
                                   f"{bad}"), {"kind": "model", "game": "kujuroku"}, n, ()
    return True, (f"proof for all inputs (exhaustive, {n} cases: every chip score of the table for three participants, "
                  "3 and 4 seats): zero-sum, the seat sitting out untouched"), {}, n, ()


#: The chips the near-zero matches start with (each seat), and the options they are played under.
NEAR_ZERO = ((1, 1), (1, 30), (30, 1), (2, 3), (3, 2))


def kusurigui_near_zero(adapter: EngineAdapter, quick: bool) -> Result:
    from hanafuda_spec.proofs.kusurigui import ChipWatch
    if not isinstance(adapter, ScoresAdapter):
        return True, "skipped: the adapter cannot start a match with given chips (ScoresAdapter)", {}, 0, ()
    rng = SplitMix64(20261127)
    rounds = cut = 0
    for extra in ({}, {"payment": "2"}):
        opts = kg.SPEC.resolve(None, {**extra, "bust": "end"})
        for scores in NEAR_ZERO[:3] if quick else NEAR_ZERO:
            for _ in range(1 if quick else 6):
                seed = rng.next()
                adapter.start_with_scores("kusurigui", opts, seed, scores)
                watch = ChipWatch(adapter, opts)
                actions: list[str] = []
                while not adapter.match_over() and len(actions) < 5000:
                    legal = adapter.legal_actions()
                    act = legal[rng.below(len(legal))]
                    actions.append(act)
                    bad = watch.play(act)
                    if bad:
                        return False, f"chips {scores} at the start: {bad}", {
                            "kind": "play", "game": "kusurigui", "options": opts, "seed": seed, "actions": actions,
                            "scores": list(scores), "check": REPLAYS[0]}, rounds, ()
                rounds += watch.rounds
                cut += int(min(adapter.snapshot().scores) <= 0)
    if not cut:
        return False, "no match ran a player out of chips: the cap was never reached", {}, rounds, ()
    return True, (f"sampled: {rounds} rounds from {len(NEAR_ZERO[:3] if quick else NEAR_ZERO)} near-zero chip "
                  f"counts, bust=end ({cut} matches ran a player out): every payment and settlement as the tables "
                  "say"), {}, rounds, ()


def checks(adapter: EngineAdapter, game: str, quick: bool) -> Iterator[Outcome]:
    """The zero-sum settlement checks of ``game`` (Kujuroku and Kusuri-gui)."""
    if game == "kujuroku":
        yield timed(game, "zero-sum card-point settlement, proof for all inputs (KJ-SCORE-3…6, exhaustive)",
                    kujuroku_zero_sum)
    elif game == "kusurigui":
        yield timed(game, "chips near 0 with bust=end vs reference play, sampled (KG-SCORE-3, KG-PAY-2)",
                    lambda: kusurigui_near_zero(adapter, quick), SAMPLED)


#: The counterexamples :func:`replay_check` re-runs (their ``check``).
REPLAYS = ("kusurigui-near-zero",)


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a ``kusurigui-near-zero`` counterexample (a match from the chips ``scores``): the first
    disagreement with the chip tables, or None."""
    from hanafuda_spec.proofs.kusurigui import ChipWatch
    seed, actions, scores = cx.get("seed"), cx.get("actions"), cx.get("scores")
    if not isinstance(seed, int) or not isinstance(actions, list) or not isinstance(scores, list):
        raise ValueError("counterexample: 'seed' must be an integer, 'actions' and 'scores' lists")
    if not isinstance(adapter, ScoresAdapter):
        raise ValueError("counterexample: the adapter cannot start a match with given chips (ScoresAdapter)")
    adapter.start_with_scores("kusurigui", options, seed, [int(x) for x in scores])
    watch = ChipWatch(adapter, options)
    for act in actions:
        bad = watch.play(str(act))
        if bad:
            return bad
    return None
