"""Mutation testing of the rule modules: how many small, plausible mistakes do the tests catch?

A measurement, never part of the test suite or the CI gate. For each rule module it lists every
mutation site (the classic operators below), picks a seeded sample of them (the documented SplitMix64
generator, so the same seed picks the same mutants on every machine), applies each mutant to a
private copy of the project and runs the tests that concern that module. A mutant is *killed* when
those tests fail (or time out), and *survives* when they pass. Survivors are then judged by a person:
an *equivalent* mutant changes nothing observable (the reason is recorded), a *gap* is a mistake the
tests miss. Judgements live in ``benchmarks/mutation_verdicts.toml`` and are kept across runs.

Operators: a comparison flipped (``<`` to ``>=``, ``==`` to ``!=``, ``in`` to ``not in``, …); an
integer constant plus one (in a table this swaps a card id or moves a value or a band); ``and`` and
``or`` exchanged; a condition negated (``if``, ``while``, conditional expressions); a statement
deleted (replaced by ``pass``).

Usage::

    uv run python benchmarks/mutation.py --list                   # the modules and their tests
    uv run python benchmarks/mutation.py --sample 10 --seed 19    # run, write docs/mutation.json
    uv run python benchmarks/mutation.py --module reference/hanafuda/fishing.py --sample 20
    uv run python benchmarks/mutation.py --render                 # docs/mutation.md from the JSON

Runs take minutes per module (each mutant runs a test subset); see docs/mutation.md for the last
recorded results.
"""

from __future__ import annotations

import argparse
import ast
import copy
import datetime
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "mutation.json"
VERDICTS = ROOT / "benchmarks" / "mutation_verdicts.toml"
PAGE = ROOT / "docs" / "mutation.md"

#: The tests a reference game module shares with the others (filtered by the game's name).
_GAME_TESTS = ("tests/test_explain_illegal.py", "tests/test_invariants_fire.py", "tests/test_golden.py",
               "tests/test_fast_paths.py", "tests/test_mutation_gaps.py", "tests/test_transcriptions.py")

#: The tests a spec game module shares with the others (filtered by the game's name).
_SPEC_TESTS = ("tests/test_invariants_fire.py", "tests/test_transcriptions.py", "tests/test_catalogue.py",
               "tests/test_mutation_gaps.py")

#: Koi-Koi's engine variants and profiles (KK-YAKU-17 to 21, KK-TURN-8, the engine profiles).
_KOIKOI_TESTS = ("tests/test_koikoi_engines.py", "tests/test_koikoi_scorer.py")

#: Each rule module and the tests that concern it: test files and a ``-k`` filter ("" for none).
MODULES: dict[str, tuple[tuple[str, ...], str]] = {
    "reference/hanafuda/games/koikoi.py": (("tests/test_koikoi.py", *_KOIKOI_TESTS, *_GAME_TESTS), "koikoi"),
    "reference/hanafuda/games/kusurigui.py": (("tests/test_kusurigui.py", *_GAME_TESTS), "kusurigui"),
    "reference/hanafuda/games/kujuroku.py": (("tests/test_kujuroku.py", *_GAME_TESTS), "kujuroku"),
    "reference/hanafuda/games/musashino.py": (("tests/test_musashino.py", *_GAME_TESTS), "musashino"),
    "reference/hanafuda/games/kekoro.py": (("tests/test_kekoro.py", *_GAME_TESTS), "kekoro"),
    "spec/hanafuda_spec/games/koikoi.py": (("tests/test_koikoi.py", *_KOIKOI_TESTS, *_SPEC_TESTS), "koikoi"),
    "spec/hanafuda_spec/games/kusurigui.py": (("tests/test_kusurigui.py", *_SPEC_TESTS), "kusurigui"),
    "spec/hanafuda_spec/games/kujuroku.py": (("tests/test_kujuroku.py", *_SPEC_TESTS), "kujuroku"),
    "spec/hanafuda_spec/games/musashino.py": (("tests/test_musashino.py", *_SPEC_TESTS), "musashino"),
    "spec/hanafuda_spec/games/kekoro.py": (("tests/test_kekoro.py", *_SPEC_TESTS), "kekoro"),
    "reference/hanafuda/fishing.py": (("tests/test_fishing.py", "tests/test_koikoi.py", "tests/test_kujuroku.py",
                                       "tests/test_explain_illegal.py", "tests/test_mutation_gaps.py"), ""),
    "reference/hanafuda/yakumask.py": (("tests/test_koikoi.py", *_KOIKOI_TESTS, "tests/test_fast_paths.py"), "koikoi"),
    "reference/hanafuda/engine.py": (("tests/test_koikoi.py", "tests/test_kusurigui.py", "tests/test_records.py",
                                      "tests/test_fast_paths.py",
                                      "tests/test_mutation_gaps.py"), ""),
    "spec/hanafuda_spec/invariants.py": (("tests/test_invariants_fire.py", "tests/test_planted_bugs.py"), ""),
}

_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_OP_TEXT = {ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!=",
            ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}


class UsageError(Exception):
    """Bad input on the command line or in a data file (one line on stderr, exit 2)."""


@dataclass(frozen=True)
class Site:
    """One mutation: the ``index``-th site of the module in walk order, what it does and where."""

    index: int
    line: int
    operator: str
    detail: str

    @property
    def key(self) -> str:
        return f"{self.line}:{self.operator}:{self.detail}"


def _skip(node: ast.AST, docstrings: set[int]) -> bool:
    return id(node) in docstrings


def _docstrings(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value,
                                                                                                    str):
                out.add(id(first))
    return out


def _annotations(tree: ast.Module) -> set[int]:
    """Nodes inside annotations, ``__all__`` and imports: mutating them changes nothing at run time."""
    out: set[int] = set()
    for node in ast.walk(tree):
        parts: list[ast.AST | None] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            parts = [node.returns, *[a.annotation for a in (*node.args.args, *node.args.kwonlyargs,
                                                             *node.args.posonlyargs)]]
        elif isinstance(node, ast.AnnAssign):
            parts = [node.annotation]
        elif isinstance(node, (ast.Import, ast.ImportFrom)) or (
                isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                     for t in node.targets)):
            parts = [node]
        for p in parts:
            if p is not None:
                out |= {id(n) for n in ast.walk(p)}
    return out


def _sites(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str, int]]:
    """(node, operator, detail, sub-index) of every mutation site, in a fixed walk order."""
    docs, dead = _docstrings(tree), _annotations(tree)
    for node in ast.walk(tree):
        if id(node) in dead:
            continue
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in _FLIP:
                    yield node, "flip-comparison", f"{_OP_TEXT[type(op)]} -> {_OP_TEXT[_FLIP[type(op)]]}", i
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, "constant-plus-one", f"{node.value} -> {node.value + 1}", 0
        elif isinstance(node, ast.BoolOp):
            yield node, "and-or", "and -> or" if isinstance(node.op, ast.And) else "or -> and", 0
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            yield node, "negate-condition", f"{type(node).__name__.lower()} not", 0
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.If, ast.For, ast.While, ast.With, ast.Try)):
            for i, st in enumerate(node.body):
                if not _skip(st, docs) and not isinstance(st, ast.Pass) and id(st) not in dead:
                    yield node, "delete-statement", f"{type(st).__name__.lower()} deleted", i


def sites(source: str) -> list[Site]:
    tree = ast.parse(source)
    return [Site(k, getattr(node, "lineno", 0) if op != "delete-statement" else node.body[sub].lineno,  # type: ignore[attr-defined]
                 op, detail)
            for k, (node, op, detail, sub) in enumerate(_sites(tree))]


def mutate(source: str, index: int) -> str:
    """The module's source with mutation ``index`` applied (re-parsed and unparsed)."""
    tree = ast.parse(source)
    for k, (node, op, _detail, sub) in enumerate(_sites(tree)):
        if k != index:
            continue
        if op == "flip-comparison":
            assert isinstance(node, ast.Compare)
            node.ops[sub] = _FLIP[type(node.ops[sub])]()
        elif op == "constant-plus-one":
            assert isinstance(node, ast.Constant) and type(node.value) is int
            node.value = int(node.value) + 1
        elif op == "and-or":
            assert isinstance(node, ast.BoolOp)
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif op == "negate-condition":
            assert isinstance(node, (ast.If, ast.While, ast.IfExp))
            node.test = ast.UnaryOp(ast.Not(), copy.deepcopy(node.test))
        else:
            body = node.body  # type: ignore[attr-defined]
            body[sub] = ast.copy_location(ast.Pass(), body[sub])
        return ast.unparse(ast.fix_missing_locations(tree))
    raise UsageError(f"no mutation site {index}")


def sample(n_sites: int, count: int, seed: int) -> list[int]:
    """``count`` distinct site indices drawn with the documented SplitMix64 generator."""
    sys.path[:0] = [str(ROOT / "spec")]
    from hanafuda_spec.shuffle import SplitMix64

    rng = SplitMix64(seed)
    pool = list(range(n_sites))
    picked: list[int] = []
    while pool and len(picked) < count:
        picked.append(pool.pop(rng.below(len(pool))))
    return sorted(picked)


class Sandbox:
    """A private copy of the project where one module at a time is mutated."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="hanafuda-mutation-"))
        for part in ("reference", "spec", "tests", "pyproject.toml"):
            src = ROOT / part
            if src.is_dir():
                shutil.copytree(src, self.dir / part, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(src, self.dir / part)
        self.env = {**os.environ, "PYTHONPATH": f"{self.dir / 'reference'}{os.pathsep}{self.dir / 'spec'}",
                    "CI": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        probe = subprocess.run([sys.executable, "-c", "import hanafuda, hanafuda_spec; "
                                "print(hanafuda.__file__); print(hanafuda_spec.__file__)"],
                               cwd=self.dir, env=self.env, capture_output=True, text=True, check=False)
        if probe.returncode or any(not line.startswith(str(self.dir)) for line in probe.stdout.split()):
            raise UsageError(f"the sandbox does not import its own copy of the packages: {probe.stdout.split()}")

    def run(self, tests: Sequence[str], keyword: str, timeout: float) -> tuple[str, float]:
        """``killed``, ``survived`` or ``timeout``, and the seconds taken."""
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
        if keyword:
            cmd += ["-k", keyword]
        start = time.monotonic()
        try:
            r = subprocess.run(cmd, cwd=self.dir, env=self.env, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return "timeout", time.monotonic() - start
        took = time.monotonic() - start
        if r.returncode == 5:
            raise UsageError(f"no tests selected by {tests} -k {keyword!r}")
        return ("survived" if r.returncode == 0 else "killed"), took

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def load_json(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"modules": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise UsageError(f"{path}: not a results file ({e})") from e
    if not isinstance(data, dict) or not isinstance(data.get("modules"), dict):
        raise UsageError(f"{path}: not a results file (no 'modules' object)")
    return data


def load_verdicts(path: Path) -> dict[str, dict[str, str]]:
    """``{"<module>::<line>:<operator>:<detail>": {"verdict": ..., "reason": ...}}``."""
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise UsageError(f"{path}: {e}") from e
    out: dict[str, dict[str, str]] = {}
    for key, v in data.items():
        if not isinstance(v, dict) or v.get("verdict") not in ("equivalent", "gap") or not isinstance(
                v.get("reason"), str):
            raise UsageError(f"{path}: entry {key!r} needs verdict = equivalent|gap and a reason")
        out[key] = {"verdict": v["verdict"], "reason": v["reason"]}
    return out


def run(modules: Sequence[str], count: int, seed: int, out: Path) -> int:
    data = load_json(out)
    commit = _commit()  # the code the sandbox copies (uncommitted changes included, marked "+")
    box = Sandbox()
    try:
        for mod in modules:
            tests, keyword = MODULES[mod]
            tests = (*tests, mod)  # the module's own doctests too
            original = (box.dir / mod).read_text(encoding="utf-8")  # the copy the sandbox was made from
            all_sites = sites(original)
            picked = sample(len(all_sites), count, seed)
            base_status, base_time = box.run(tests, keyword, timeout=1800)
            if base_status != "survived":
                raise UsageError(f"{mod}: the tests fail before any mutation ({base_status})")
            rows = []
            target = box.dir / mod
            for k in picked:
                s = all_sites[k]
                target.write_text(mutate(original, k), encoding="utf-8")
                status, took = box.run(tests, keyword, timeout=3 * base_time + 30)
                target.write_text(original, encoding="utf-8")
                rows.append({"site": k, "line": s.line, "operator": s.operator, "detail": s.detail,
                             "status": status, "seconds": round(took, 1)})
                print(f"{mod}:{s.line} {s.operator} ({s.detail}): {status} in {took:.0f}s", flush=True)
            killed = sum(1 for r in rows if r["status"] != "survived")
            data["modules"][mod] = {
                "date": datetime.date.today().isoformat(),
                "commit": commit,
                "seed": seed, "sites": len(all_sites), "sampled": len(rows), "killed": killed,
                "tests": list(tests), "keyword": keyword, "baseline_seconds": round(base_time, 1),
                "mutants": rows,
            }
            print(f"{mod}: {killed}/{len(rows)} killed ({len(all_sites)} sites)", flush=True)
            out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    finally:
        box.close()
    return 0


def _commit() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False)
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "reference", "spec", "tests"], cwd=ROOT,
                           capture_output=True, text=True, check=False).stdout.strip()
    return (r.stdout.strip() or "unknown") + ("+" if dirty else "")


def render(results: Path, verdicts_path: Path) -> str:
    """The results table and the survivors, as Markdown (the part of docs/mutation.md below its marker)."""
    data = load_json(results)
    verdicts = load_verdicts(verdicts_path)
    lines = ["| module | date | commit | sampled | killed | equivalent | gaps | score (equivalent excluded) |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    survivors = []
    for mod in MODULES:
        m = data["modules"].get(mod)
        if m is None:
            lines.append(f"| `{mod}` | not run | | | | | | |")
            continue
        eq = gaps = 0
        for r in m["mutants"]:
            if r["status"] != "survived":
                continue
            key = f"{mod}::{r['line']}:{r['operator']}:{r['detail']}"
            v = verdicts.get(key, {"verdict": "not judged", "reason": ""})
            eq += v["verdict"] == "equivalent"
            gaps += v["verdict"] != "equivalent"
            survivors.append(f"| `{mod}` | {r['line']} | {r['operator']}: `{r['detail']}` | {v['verdict']} | "
                             f"{v['reason']} |")
        real = m["sampled"] - eq
        score = f"{100 * m['killed'] / real:.0f}%" if real else "—"
        lines.append(f"| `{mod}` | {m['date']} | {m['commit']} | {m['sampled']} | {m['killed']} | {eq} | {gaps} | "
                     f"{score} |")
    lines += ["", "### Surviving mutants", ""]
    if survivors:
        lines += ["| module | line | mutation | verdict | reason |", "| --- | ---: | --- | --- | --- |", *survivors]
    else:
        lines.append("None.")
    return "\n".join(lines) + "\n"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line on stderr, exit 2 (not argparse's usage dump)
        raise UsageError(message)


MARKER = "<!-- generated by benchmarks/mutation.py --render: do not edit below -->"


def main(argv: Sequence[str] | None = None) -> int:
    p = _Parser(prog="mutation.py", description="Mutation testing of the rule modules.")
    p.add_argument("--module", action="append", help="a rule module (repeatable; default: all of them)")
    p.add_argument("--sample", type=int, default=10, help="mutants per module (default 10)")
    p.add_argument("--seed", type=int, default=19, help="seed of the sample (default 19)")
    p.add_argument("--out", type=Path, default=RESULTS, help=f"results file (default {RESULTS.relative_to(ROOT)})")
    p.add_argument("--list", action="store_true", help="list the modules, their mutation sites and their tests")
    p.add_argument("--show", metavar="MODULE:SITE", help="print the diff a mutant makes (to judge a survivor)")
    p.add_argument("--render", action="store_true", help="rewrite the table in docs/mutation.md from the results")
    try:
        args = p.parse_args(argv)
        modules = args.module or list(MODULES)
        unknown = [m for m in modules if m not in MODULES]
        if unknown:
            raise UsageError(f"--module: unknown rule module {unknown[0]!r} (see --list)")
        if args.sample < 1:
            raise UsageError(f"--sample: must be at least 1, not {args.sample}")
        if args.list:
            for m in modules:
                tests, kw = MODULES[m]
                n = len(sites((ROOT / m).read_text(encoding="utf-8")))
                print(f"{m}: {n} sites; tests {' '.join(tests)} and its doctests{f' -k {kw}' if kw else ''}")
            return 0
        if args.show:
            mod, _, k = args.show.rpartition(":")
            if mod not in MODULES or not k.isdigit():
                raise UsageError(f"--show: expected MODULE:SITE with a rule module, not {args.show!r}")
            src = (ROOT / mod).read_text(encoding="utf-8")
            if int(k) >= len(sites(src)):
                raise UsageError(f"--show: {mod} has {len(sites(src))} sites, not {int(k) + 1}")
            before = ast.unparse(ast.parse(src)).splitlines()
            after = mutate(src, int(k)).splitlines()
            sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(before, after, mod, "mutant", n=2,
                                                                               lineterm=""))
            return 0
        if args.render:
            table = render(args.out, VERDICTS)
            page = PAGE.read_text(encoding="utf-8")
            if MARKER not in page:
                raise UsageError(f"{PAGE}: the marker line is missing")
            PAGE.write_text(page.split(MARKER)[0] + MARKER + "\n\n" + table, encoding="utf-8")
            return 0
        return run(modules, args.sample, args.seed, args.out)
    except UsageError as e:
        print(f"mutation.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
