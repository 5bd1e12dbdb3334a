"""Every single-core figure of issues 17 and 26 as JSON: random rounds/s per game (the
``Match.apply`` loop, and :func:`~hanafuda.engine.play_match` where the engine has it), Koi-Koi pile
scorings/s (the public ``GAME.score`` of card lists, and the bit-mask ``score_mask``) and validation
actions/s per game. CPU seconds of the measuring process. A measurement, never a test.

Run: ``uv run python benchmarks/bench_summary.py`` (every figure in this one process). It measures
whichever ``hanafuda`` it imports, so an older checkout is measured with the same loops by putting its
packages first::

    PYTHONPATH=OLD/reference:OLD/spec uv run python benchmarks/bench_summary.py

``--only NAME`` measures one figure after a short warm-up (``--list`` names them); ``--seconds`` sets
each figure's CPU seconds. ``--pair OLD NEW`` compares two checkouts side by side: each figure in a
fresh process of its own, OLD and NEW in turn ``--runs`` times, so that a shared machine's drift falls
on both; it prints each side's median and the median of the run-by-run ratios NEW/OLD (higher is better
for NEW); with ``--only``, the figures whose names hold NAME. Older checkouts have no ``play_match``:
their rounds are the ``Match.apply`` loop alone.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

clock = time.process_time


def rounds(g: Any, rules: Any, seconds: float, fast: bool) -> float:
    from hanafuda import engine
    from hanafuda.engine import Match
    from hanafuda_spec.shuffle import SplitMix64

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
    from hanafuda.records import record_match, validate_stream
    from hanafuda.registry import game

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


def figures() -> dict[str, Callable[[float], float]]:
    """The figures in the order they are measured, each a function of the seconds to measure giving its rate."""
    from hanafuda import engine
    from hanafuda.games.koikoi import GAME as KOIKOI
    from hanafuda.games.koikoi import INDEX, score_mask
    from hanafuda.registry import available
    from hanafuda_spec.cards import HANAFUDA
    from hanafuda_spec.shuffle import SplitMix64, shuffled

    rules = KOIKOI.rules()
    rng = SplitMix64(2)
    piles = [shuffled(HANAFUDA.cards, rng)[: 4 + rng.below(20)] for _ in range(1000)]
    masks = [INDEX.mask_of(p) for p in piles]
    out: dict[str, Callable[[float], float]] = {
        "koikoi scorings/s, GAME.score of card lists": lambda s: per_second(lambda p: KOIKOI.score(rules, p), piles, s),
        "koikoi scorings/s, score_mask month 3": lambda s: per_second(lambda p: score_mask(rules, p, 3), masks, s),
    }
    for g in available():
        variants: list[tuple[dict[str, str], str]] = [({}, "")]
        if g.spec.key == "musashino":
            variants = [({"players": "3"}, " players=3"), ({"players": "4-no-field"}, " players=4-no-field")]
        for opts, label in variants:
            r = g.rules(None, opts)
            out[f"{g.spec.key}{label} rounds/s, Match.apply loop"] = (
                lambda s, g=g, r=r: rounds(g, r, s, False))  # type: ignore[misc]
            if hasattr(engine, "play_match"):
                out[f"{g.spec.key}{label} rounds/s, play_match"] = (
                    lambda s, g=g, r=r: rounds(g, r, s, True))  # type: ignore[misc]
    for g in available():
        out[f"{g.spec.key} validation actions/s"] = lambda s, k=g.spec.key: validation(k, s)  # type: ignore[misc]
    return out


def pair(old: Path, new: Path, runs: int, only: str | None, seconds: float) -> None:
    """Each figure (those whose name holds ``only``, if given) in fresh processes, OLD then NEW, ``runs``
    times; a Markdown table on stdout, the ratios' spread beside their median."""
    def run(tree: Path, *args: str) -> str:
        env = dict(os.environ, PYTHONPATH=f"{tree / 'reference'}{os.pathsep}{tree / 'spec'}")
        done = subprocess.run([sys.executable, __file__, *args], check=False, env=env, capture_output=True,
                              text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            print(f"bench_summary.py: {tree}: {' '.join(args)!r} failed: {last}", file=sys.stderr)
            sys.exit(2)
        return done.stdout

    names = [n for n in json.loads(run(new, "--list")) if only is None or only in n]
    if not names:
        print(f"bench_summary.py: no figure of {new} has {only!r} in its name (--list names them)", file=sys.stderr)
        sys.exit(2)
    print(f"| figure | {old} (median of {runs}) | {new} (median of {runs}) | ratio, median of {runs} pairs "
          "(lowest–highest) |")
    print("| --- | ---: | ---: | ---: |")
    for name in names:
        a: list[float] = []
        b: list[float] = []
        for _ in range(runs):
            for tree, got in ((old, a), (new, b)):
                got.extend(json.loads(run(tree, "--only", name, "--seconds", str(seconds), "--if-present")).values())
        if not a:
            print(f"| {name} | — | {statistics.median(b):,.0f} | — |", flush=True)
            continue
        ratios = [y / x for x, y in zip(a, b, strict=True)]
        print(f"| {name} | {statistics.median(a):,.0f} | {statistics.median(b):,.0f} | "
              f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f}) |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--only", metavar="NAME", help="measure this figure alone (--pair: names holding NAME)")
    ap.add_argument("--list", action="store_true", help="print the figures' names as JSON")
    ap.add_argument("--pair", nargs=2, metavar=("OLD", "NEW"), type=Path, help="compare two checkouts")
    ap.add_argument("--runs", type=int, default=3, help="runs of each side with --pair (default 3)")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of each figure (default 2)")
    ap.add_argument("--if-present", action="store_true", help=argparse.SUPPRESS)  # --pair: OLD may lack one
    a = ap.parse_args()
    if not 1 <= a.runs <= 1000 or not 0 < a.seconds < 3600:
        ap.error("--runs must be 1 to 1000 and --seconds above 0 and below 3600")
    for tree in a.pair or ():
        if not (tree / "reference" / "hanafuda").is_dir() or not (tree / "spec" / "hanafuda_spec").is_dir():
            ap.error(f"{str(tree)!r} is not a checkout (no reference/hanafuda and spec/hanafuda_spec in it)")
    if a.pair:
        pair(a.pair[0], a.pair[1], a.runs, a.only, a.seconds)
        return
    thunks = figures()
    if a.list:
        print(json.dumps(list(thunks)))
        return
    if a.only is not None:
        if a.only not in thunks:
            if not a.if_present:
                ap.error(f"no figure named {a.only!r} (--list names them)")
            print(json.dumps({}))  # a figure this checkout does not have (an older one)
            return
        thunks[a.only](min(0.2, a.seconds))  # a warm-up: the tables a first round fills are not timed
        thunks = {a.only: thunks[a.only]}
    print(json.dumps({k: round(f(a.seconds)) for k, f in thunks.items()}, indent=1))


if __name__ == "__main__":
    main()
