"""Play games with KoiKoi-AI's own game code (guansanghai/KoiKoi-AI, ``koikoigame.py``) and write
their records as the engine writes them (``json.dump`` of ``KoiKoiGameState.log``), for the
``koikoi-ai`` importer's tests.

Both players choose uniformly at random among the moves the engine offers (its neural agents need
torch, which this driver stubs out: only their feature tensors use it). The engine draws its deals
from Python's ``random``; ``--seed`` seeds it. Run with a Python that has numpy (the engine's
dependency), outside the project's environment::

    python3 benchmarks/koikoi_ai_driver.py ENGINE_DIR OUT_DIR --games 20 --seed 1
    uv run hanafuda import koikoi-ai OUT_DIR/*.json | uv run hanafuda validate -

``ENGINE_DIR`` holds ``koikoigame.py`` (a checkout, or ``git archive`` of the repository).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import types
from pathlib import Path
from typing import Any


def play(kk: Any, rng: random.Random, stop_after_round: int | None = None) -> dict[str, Any]:
    """One game through the engine's state machine; ``stop_after_round`` abandons it in that round."""
    game = kk.KoiKoiGameState(player_name=["random-1", "random-2"])
    while not game.game_over:
        rs = game.round_state
        while rs.state != "round-over":
            if stop_after_round is not None and game.round == stop_after_round and rs.turn_16 > 3:
                game.log["record"][f"round{game.round}"] = rs.log  # as the engine's save does
                return dict(game.log)
            state, me = rs.state, rs.turn_player
            if state == "discard":
                action: Any = rng.choice(rs.hand[me])
            elif state in ("discard-pick", "draw-pick"):
                action = rng.choice(rs.pairing_card) if rs.wait_action else None
            elif state == "koikoi":
                action = rng.choice([True, False]) if rs.wait_action else None
            else:
                action = None
            rs.step(action)
        game.new_round()
    return dict(game.log)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    sys.modules.setdefault("torch", types.ModuleType("torch"))
    sys.path.insert(0, str(args.engine))
    kk = importlib.import_module("koikoigame")  # the engine's own code

    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.games):
        seed = args.seed + i
        random.seed(seed)  # the engine deals with the random module
        log = play(kk, random.Random(seed), stop_after_round=2 if i % 10 == 9 else None)
        (args.out / f"random-seed{seed}.json").write_text(json.dumps(log), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
