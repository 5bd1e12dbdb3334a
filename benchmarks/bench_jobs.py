"""``--jobs 1`` against ``--jobs 2`` (and, with ``--cluster ADDRESS``, a Dask cluster) for the five
commands that take them: the median wall time of a few runs of each, as a user would run them
(what ``python -m hanafuda ...`` runs, start-up included), the CPU time they used (in parentheses:
the command and its workers), the CPU time of the main process alone at ``-j 2`` (start-up and the
share of the work that is not sent to workers: what two workers cannot shorten), and whether the
outputs are the same.

Two sizes of each workload: the small ones (a few seconds with one job, so the 0.5 s or so that the
program takes to start weighs on the ratio) and large ones (15 s or more with one job). Both are
reported; neither replaces the other.

    uv run python benchmarks/bench_jobs.py                       # every workload, medians of 3
    uv run python benchmarks/bench_jobs.py --size small --only validate
    uv run python benchmarks/bench_jobs.py --cluster 127.0.0.1:8786 --only simulate
    uv run python benchmarks/bench_jobs.py --before /tmp/main-tree --only validate   # before/after

``--before DIR`` also runs the source tree in DIR (a checkout or ``git archive`` of another commit:
its ``reference`` and ``spec`` directories go first on ``PYTHONPATH``), alternating its runs with this
tree's so that both see the same load; the table then has a row for each.

A measurement, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from hanafuda.records import record_match
from hanafuda.registry import game


@dataclass
class Workload:
    command: str
    size: str  # "small" or "large"
    what: str  # for the table
    args: list[str]


def _records(path: Path, n: int) -> Path:
    if not path.exists():
        path.write_text("".join(json.dumps(record_match(game("koikoi"), None, {}, s, s)) + "\n" for s in range(n)),
                        encoding="utf-8")
    return path


def _identify_input(path: Path, n: int) -> Path:
    """``n`` one-round Koi-Koi records under changed options, the fourth one broken."""
    if not path.exists():
        docs = [record_match(game("koikoi"), "battle-hanafuda", {"length": "1", "seven_double": "off"}, s, s + 100)
                for s in range(n)]
        actions = docs[3]["actions"]
        assert isinstance(actions, list)
        actions[1] = "koikoi"  # one record no assignment explains
        path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


def workloads(tmp: Path, sizes: set[str], only: list[str] | None) -> list[Workload]:
    """Each command with an input that takes seconds (small) or 15 s and more (large) on one core;
    the input files are written only for the workloads chosen."""
    chosen: list[Workload] = []

    def want(command: str, size: str) -> bool:
        return size in sizes and (not only or command in only)

    if want("simulate", "small"):
        chosen.append(Workload("simulate", "small", "2,000 games",
                               ["simulate", "koikoi", "--games", "2000", "--seed", "1", "--json"]))
    if want("validate", "small"):
        chosen.append(Workload("validate", "small", "2,000 records",
                               ["validate", str(_records(tmp / "koikoi-2000.jsonl", 2000)), "--json"]))
    if want("verify", "small"):
        chosen.append(Workload("verify", "small", "--quick, 2 games",
                               ["verify", "--quick", "--game", "koikoi", "--game", "kekoro", "--json"]))
    if want("vectors", "small"):
        chosen.append(Workload("vectors", "small", "defaults", ["vectors", str(tmp / "vectors-{where}")]))
    if want("identify", "small"):
        chosen.append(Workload("identify", "small", "8 records",
                               ["identify", "koikoi", str(_identify_input(tmp / "identify-8.jsonl", 8)), "--json"]))
    if want("simulate", "large"):
        chosen.append(Workload("simulate", "large", "20,000 games",
                               ["simulate", "koikoi", "--games", "20000", "--seed", "1", "--json"]))
    if want("validate", "large"):
        chosen.append(Workload("validate", "large", "10,000 records",
                               ["validate", str(_records(tmp / "koikoi-10000.jsonl", 10000)), "--json"]))
    if want("vectors", "large"):
        chosen.append(Workload("vectors", "large", "--games 100",
                               ["vectors", str(tmp / "vectors-{where}"), "--games", "100"]))
    if want("identify", "large"):
        chosen.append(Workload("identify", "large", "100 records",
                               ["identify", "koikoi", str(_identify_input(tmp / "identify-100.jsonl", 100)), "--json"]))
    return chosen


#: ``python -m hanafuda ARGS``, which also prints on its last line of stderr the CPU seconds of the
#: main process alone (``RUSAGE_SELF``: start-up and its share of the work, not its workers').
_WRAPPER = ("import resource, sys\n"
            "from hanafuda.cli import main\n"
            "code = main(sys.argv[1:])\n"
            "me = resource.getrusage(resource.RUSAGE_SELF)\n"
            "print(f'main-cpu {me.ru_utime + me.ru_stime:.3f}', file=sys.stderr)\n"
            "sys.exit(code)\n")


def run(args: list[str], tree: Path | None) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (the command and its workers), the main process's CPU seconds and
    the output of one run."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree / "reference"), str(tree / "spec"),
                                             env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", _WRAPPER, *args], capture_output=True, text=True, check=False,
                       env=env)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    main_cpu = float(p.stderr.strip().splitlines()[-1].removeprefix("main-cpu "))
    return dt, cpu, main_cpu, p.stdout


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


@dataclass
class Cell:
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    mains: list[float] = field(default_factory=list)

    def wall(self) -> float:
        return statistics.median(self.walls)

    def text(self) -> str:
        return f"{self.wall():.1f} s ({statistics.median(self.cpus):.1f})"

    def main_text(self) -> str:
        return f"{statistics.median(self.mains):.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--size", choices=["small", "large", "all"], default="all")
    ap.add_argument("--cluster", metavar="ADDRESS", help="also run on this Dask scheduler")
    ap.add_argument("--only", action="append", help="only this command (repeatable)")
    ap.add_argument("--before", metavar="DIR", type=Path,
                    help="also run the source tree in DIR (its reference/ and spec/), alternating with this one")
    opts = ap.parse_args()
    wheres: list[tuple[str, list[str]]] = [("-j 1", ["--jobs", "1"]), ("-j 2", ["--jobs", "2"])]
    if opts.cluster:
        wheres.append(("cluster", ["--cluster", opts.cluster]))
    trees: list[tuple[str, Path | None]] = [("before", opts.before), ("after", None)] if opts.before else [
        ("", None)]
    sizes = {"small", "large"} if opts.size == "all" else {opts.size}
    load = os.getloadavg()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load[0]:.2f} at the start, "
          f"median of {opts.repeat} runs; wall time (CPU time of the command and its workers), start-up included",
          flush=True)
    head = ["command", "workload", *(["tree"] if opts.before else []), *(label for label, _ in wheres),
            "speed-up -j 2", "-j 2 main CPU", "output"]
    print("| " + " | ".join(head) + " |")
    print("| " + " | ".join("---" if i < len(head) - len(wheres) - 3 else "---:" for i in range(len(head) - 1))
          + " | --- |", flush=True)
    with tempfile.TemporaryDirectory() as d:
        for w in workloads(Path(d), sizes, opts.only):
            cells = {(t, label): Cell() for t, _ in trees for label, _ in wheres}
            outputs: set[str] = set()
            for _ in range(opts.repeat):
                for label, extra in wheres:
                    for t, tree in trees:  # alternated, so that both trees see the same load
                        where = f"{t}{label.replace(' ', '')}"
                        dt, cpu, main_cpu, out = run([a.replace("{where}", where) for a in w.args] + extra, tree)
                        cells[(t, label)].walls.append(dt)
                        cells[(t, label)].cpus.append(cpu)
                        cells[(t, label)].mains.append(main_cpu)
                        outputs.add(comparable(w.command, out))
            for t, _ in trees:
                one, two = cells[(t, "-j 1")], cells[(t, "-j 2")]
                row = [w.command, f"{w.what} ({w.size})", *([t] if opts.before else []),
                       *(cells[(t, label)].text() for label, _ in wheres), f"{one.wall() / two.wall():.2f}x",
                       two.main_text(), "same" if len(outputs) == 1 else "DIFFERENT"]
                print("| " + " | ".join(row) + " |", flush=True)
    load = os.getloadavg()
    print(f"# load average {load[0]:.2f} at the end", flush=True)


if __name__ == "__main__":
    main()
