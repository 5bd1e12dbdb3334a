"""``--jobs 1`` against ``--jobs 2`` (and, with ``--cluster ADDRESS``, a Dask cluster) for the five
commands that take them: the median wall time of a few runs of each, as a user would run them
(``python -m hanafuda ...``, start-up included), and whether the outputs are the same.

    uv run python benchmarks/bench_jobs.py                       # medians of 3
    uv run python benchmarks/bench_jobs.py --cluster 127.0.0.1:8786 --only simulate

A measurement, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hanafuda.records import record_match
from hanafuda.registry import game


def workloads(tmp: Path) -> dict[str, list[str]]:
    """Each command with an input that takes seconds on one core."""
    records = tmp / "koikoi.jsonl"
    records.write_text("".join(json.dumps(record_match(game("koikoi"), None, {}, s, s)) + "\n" for s in range(2000)),
                       encoding="utf-8")
    docs = [record_match(game("koikoi"), "battle-hanafuda", {"length": "1", "seven_double": "off"}, s, s + 100)
            for s in range(8)]
    actions = docs[3]["actions"]
    assert isinstance(actions, list)
    actions[1] = "koikoi"  # one record no assignment explains
    identify_in = tmp / "identify.jsonl"
    identify_in.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return {
        "simulate": ["simulate", "koikoi", "--games", "2000", "--seed", "1", "--json"],
        "validate": ["validate", str(records), "--json"],
        "verify": ["verify", "--quick", "--game", "koikoi", "--game", "kekoro", "--json"],
        "vectors": ["vectors", str(tmp / "vectors-{where}")],
        "identify": ["identify", "koikoi", str(identify_in), "--json"],
    }


def run(args: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "hanafuda", *args], capture_output=True, text=True, check=False)
    dt = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return dt, p.stdout


def comparable(command: str, out: str) -> str:
    """The output with what may differ removed: verify's times, the vectors directory's name."""
    if command == "verify":
        report = json.loads(out)
        for c in report["checks"]:
            c.pop("seconds", None)
            c["detail"] = re.sub(r"\d+\.\d+s\b", "_s", c.get("detail", ""))  # a proof's own timings
        return json.dumps(report)
    if command == "vectors":
        return out.split(" to ", maxsplit=1)[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cluster", metavar="ADDRESS", help="also run on this Dask scheduler")
    ap.add_argument("--only", action="append", help="only this command (repeatable)")
    opts = ap.parse_args()
    wheres: list[tuple[str, list[str]]] = [("-j 1", ["--jobs", "1"]), ("-j 2", ["--jobs", "2"])]
    if opts.cluster:
        wheres.append(("cluster", ["--cluster", opts.cluster]))
    with tempfile.TemporaryDirectory() as d:
        for command, args in workloads(Path(d)).items():
            if opts.only and command not in opts.only:
                continue
            medians: list[float] = []
            outputs: set[str] = set()
            for label, extra in wheres:
                times = []
                for _ in range(opts.repeat):
                    dt, out = run([a.replace("{where}", label.replace(" ", "")) for a in args] + extra)
                    times.append(dt)
                    outputs.add(comparable(command, out))
                medians.append(statistics.median(times))
            cells = ", ".join(f"{label} {m:.1f} s" for (label, _), m in zip(wheres, medians, strict=True))
            print(f"{command:9} {cells}; speed-up with 2 jobs {medians[0] / medians[1]:.2f}x; "
                  f"{'same output' if len(outputs) == 1 else 'OUTPUTS DIFFER'}", flush=True)


if __name__ == "__main__":
    main()
