"""Fixed workloads of ``bench_summary.py``'s figures, and the byte-code instructions each Python function
executes in them: a count that is the same run after run, where CPU timings on the shared machine are not.

``python benchmarks/opcount.py WHAT GAME N [--count OUT]``: WHAT is ``play`` (N seeded matches through
:func:`~hanafuda.engine.play_match`, random choices as ``bench_summary.rounds`` makes them), ``validate``
(N passes of ``validate_stream`` over 40 recorded matches) or ``score`` (N passes of Koi-Koi scorings over
1,000 piles: GAME ``x`` the public ``GAME.score`` of card lists, ``mask`` the bit-mask ``score_mask``). With
``--count`` the workload runs under a tracer of byte-code instructions and OUT gets, per function, the
instructions executed and the calls. The difference of two values of N cancels the start-up; run it under
``valgrind --tool=callgrind`` for instructions of the machine (benchmarks/README.md has the commands). It
runs whichever ``hanafuda`` it imports: an older checkout's packages go first on ``PYTHONPATH``. GAME may
carry option values, ``musashino:players=4-no-field`` (``key:name=value,name=value``).
"""

from __future__ import annotations

import collections
import io
import json
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from hanafuda import engine
from hanafuda.records import record_match, validate_stream
from hanafuda.registry import game
from hanafuda_spec.cards import HANAFUDA
from hanafuda_spec.shuffle import SplitMix64, shuffled


def workload(what: str, key: str, n: int) -> Callable[[], int]:
    """The workload, ready to run (its data made): it returns what it played (rounds, actions, scorings)."""
    key, _, opts = key.partition(":")
    options = dict(kv.split("=", 1) for kv in opts.split(",") if kv)
    if what == "play":
        g = game(key)
        rules = g.rules(None, options)

        def play() -> int:
            rng = SplitMix64(1)
            done = 0
            for _ in range(n):
                info, _ = engine.play_match(g, rules, rng.next(), lambda legal: legal[rng.below(len(legal))])
                done += len(info.history)
            return done
        return play
    if what == "validate":
        g = game(key)
        data = "".join(json.dumps(record_match(g, None, options, s, s), separators=(",", ":")) + "\n"
                       for s in range(40)).encode()

        def validate() -> int:
            done = 0
            for _ in range(n):
                for rep in validate_stream(io.BytesIO(data)):
                    assert rep.ok
                    done += rep.actions
            return done
        return validate
    from hanafuda.games.koikoi import GAME as KOIKOI
    from hanafuda.games.koikoi import INDEX, score_mask

    rules = KOIKOI.rules()
    rng = SplitMix64(2)
    piles = [shuffled(HANAFUDA.cards, rng)[: 4 + rng.below(20)] for _ in range(1000)]
    masks = [INDEX.mask_of(p) for p in piles]

    def score() -> int:
        for _ in range(n):
            if key == "mask":
                for m in masks:
                    score_mask(rules, m, 3)
            else:
                for p in piles:
                    KOIKOI.score(rules, p)
        return n * len(piles)
    return score


def counted(run: Callable[[], int]) -> tuple[int, dict[str, list[int]]]:
    """``run()`` under a tracer: its answer, and per function (``file:line:name``) [instructions, calls]."""
    counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])

    def tracer(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        frame.f_trace_opcodes = True
        co = frame.f_code
        row = counts[f"{co.co_filename.rsplit('/', 1)[-1]}:{co.co_firstlineno}:{co.co_name}"]
        row[1] += 1

        def local(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
            if event == "opcode":
                row[0] += 1
            return local
        return local

    sys.settrace(tracer)
    try:
        done = run()
    finally:
        sys.settrace(None)
    return done, dict(counts)


def main(argv: list[str]) -> None:
    what, key, n = argv[0], argv[1], int(argv[2])
    run = workload(what, key, n)
    if len(argv) > 4 and argv[3] == "--count":
        done, counts = counted(run)
        with open(argv[4], "w", encoding="utf-8") as out:
            for name, (ops, calls) in sorted(counts.items(), key=lambda kv: -kv[1][0]):
                out.write(f"{ops} {calls} {name}\n")
        print(done, sum(v[0] for v in counts.values()), sum(v[1] for v in counts.values()))
    else:
        print(run())


if __name__ == "__main__":
    main(sys.argv[1:])
