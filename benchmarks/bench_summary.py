"""Every single-core figure of issue 17 in one run, as JSON: random rounds/s per game (the
``Match.apply`` loop, and :func:`~hanafuda.engine.play_match` where the engine has it), Koi-Koi pile
scorings/s (the public ``GAME.score`` of card lists, and the bit-mask ``score_mask``) and validation
actions/s per game. CPU seconds of this process. A measurement, never a test.

Run: ``uv run python benchmarks/bench_summary.py``. It measures whichever ``hanafuda`` it imports, so an
older checkout is measured with the same loops by putting its packages first::

    PYTHONPATH=OLD/reference:OLD/spec uv run python benchmarks/bench_summary.py

(older checkouts have no ``play_match``: their rounds are the ``Match.apply`` loop alone).
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from hanafuda import engine
from hanafuda.engine import Match
from hanafuda.records import record_match, validate_stream
from hanafuda.registry import available, game
from hanafuda_spec.cards import HANAFUDA
from hanafuda_spec.shuffle import SplitMix64, shuffled

clock = time.process_time


def rounds(g: Any, rules: Any, seconds: float, fast: bool) -> float:
    rng = SplitMix64(1)
    n = 0
    t0 = clock()
    while clock() - t0 < seconds:
        if fast:
            info, _ = engine.play_match(g, rules, rng.next(), lambda legal: legal[rng.below(len(legal))])
        else:
            m = Match.start(g, rules, rng.next())
            while not m.over:
                legal = m.legal_actions()
                m = m.apply(legal[rng.below(len(legal))])
            info = m.info
        n += len(info.history)
    return n / (clock() - t0)


def per_second(f: Callable[[Any], object], data: Sequence[Any], seconds: float = 2.0) -> float:
    n = 0
    t0 = clock()
    while clock() - t0 < seconds:
        for x in data:
            f(x)
        n += len(data)
    return n / (clock() - t0)


def validation(key: str, seconds: float = 2.0) -> float:
    g = game(key)
    data = "".join(json.dumps(record_match(g, None, {}, s, s), separators=(",", ":")) + "\n"
                   for s in range(40)).encode()
    n = 0
    t0 = clock()
    while clock() - t0 < seconds:
        for rep in validate_stream(io.BytesIO(data)):
            assert rep.ok
            n += rep.actions
    return n / (clock() - t0)


def main() -> None:
    from hanafuda.games.koikoi import GAME as KOIKOI
    from hanafuda.games.koikoi import INDEX, score_mask

    out: dict[str, float] = {}
    rules = KOIKOI.rules()
    rng = SplitMix64(2)
    piles = [shuffled(HANAFUDA.cards, rng)[: 4 + rng.below(20)] for _ in range(1000)]
    masks = [INDEX.mask_of(p) for p in piles]
    out["koikoi scorings/s, GAME.score of card lists"] = per_second(lambda p: KOIKOI.score(rules, p), piles)
    out["koikoi scorings/s, score_mask month 3"] = per_second(lambda p: score_mask(rules, p, 3), masks)
    for g in available():
        variants: list[tuple[dict[str, str], str]] = [({}, "")]
        if g.spec.key == "musashino":
            variants = [({"players": "3"}, " players=3"), ({"players": "4-no-field"}, " players=4-no-field")]
        for opts, label in variants:
            r = g.rules(None, opts)
            out[f"{g.spec.key}{label} rounds/s, Match.apply loop"] = rounds(g, r, 2.0, False)
            if hasattr(engine, "play_match"):
                out[f"{g.spec.key}{label} rounds/s, play_match"] = rounds(g, r, 2.0, True)
    for g in available():
        out[f"{g.spec.key} validation actions/s"] = validation(g.spec.key)
    print(json.dumps({k: round(v) for k, v in out.items()}, indent=1))


if __name__ == "__main__":
    main()
