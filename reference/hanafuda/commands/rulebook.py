"""``hanafuda rulebook [--out DIR]``: build the rulebooks (a Sphinx site) from the catalogue."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from hanafuda.cli import UsageError
from hanafuda.commands._common import add_command, check_output_dir, nonempty, output_dir, read_json
from hanafuda.progress import add_progress_argument, progress, wanted

T = TypeVar("T")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "rulebook", help="build the rulebooks (HTML) from the rule catalogue",
                    description="Build the rulebooks: one per game, generated from the rule catalogue, with "
                    "the sources and decisions, the spec, the CLI and the API. Warnings are errors (exit 1, and "
                    "nothing is written). Needs the documentation tools (sphinx, furo, myst-parser, "
                    "sphinxcontrib-bibtex: the 'hanafuda[rulebook]' extra, or the dev dependencies) and a source "
                    "checkout (docs/).",
                    examples=["hanafuda rulebook --out site/",
                              "hanafuda verify --json > report.json && hanafuda rulebook --report report.json"])
    p.add_argument("--out", "-o", type=nonempty("output directory"), default=None, metavar="DIR",
                   help="output directory (default: docs/_build/html of the source checkout)")
    p.add_argument("--report", type=nonempty("report file name"), metavar="FILE",
                   help="include a verification report (the output of 'hanafuda verify --json')")
    p.add_argument("--doctest", action="store_true", help="also run the worked examples (Sphinx doctest)")
    p.add_argument("--verbose", "-v", action="store_true", help="show Sphinx's progress")
    add_progress_argument(p)
    p.set_defaults(run=run)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def read_report(name: str) -> object:
    """A ``hanafuda verify --json`` report, or a one-line error saying what is wrong with it."""
    data = read_json(name, "--report")
    where = f"--report {name}"
    if not isinstance(data, dict) or not isinstance(data.get("checks"), list):
        raise UsageError(f"{where}: not a 'hanafuda verify --json' report (an object with a list 'checks')")
    fields: dict[str, type | tuple[type, ...]] = {"game": str, "check": str, "kind": str, "ok": bool,
                                                  "examples": int, "seconds": (int, float), "detail": str}
    for i, c in enumerate(data["checks"]):
        if not isinstance(c, dict):
            raise UsageError(f"{where}: checks[{i}] is not an object")
        for key, kind in fields.items():
            if key in c and not isinstance(c[key], kind):
                raise UsageError(f"{where}: checks[{i}].{key} has the wrong type")
        if not isinstance(c.get("game"), str) or not isinstance(c.get("check"), str):
            raise UsageError(f"{where}: checks[{i}] has no 'game' or 'check'")
        cases = c.get("cases", [])
        if not isinstance(cases, list) or not all(isinstance(x, dict) for x in cases):
            raise UsageError(f"{where}: checks[{i}].cases is not a list of objects")
    return data


def run(args: argparse.Namespace) -> int:
    from hanafuda.rulebook.build import DocsNotFoundError, build, docs_dir

    missing = [m for m in ("sphinx", "myst_parser", "furo", "sphinxcontrib.bibtex") if not _installed(m)]
    if missing:
        raise UsageError(f"rulebook needs the documentation tools: missing {', '.join(missing)} (install the "
                         f"extra: pip install 'hanafuda[rulebook]'; in a checkout, 'uv run' has them)")
    report: Path | None = None
    try:
        out = Path(args.out) if args.out is not None else docs_dir() / "_build" / "html"
        check_output_dir(out, "--out")
        with tempfile.TemporaryDirectory(prefix="hanafuda-report-") as tmp:
            if args.report is not None:  # the build reads the checked report (stdin can be read once)
                report = Path(tmp) / "report.json"
                report.write_text(json.dumps(read_report(args.report)), encoding="utf-8")
            bars = not args.verbose and wanted(no_progress=args.no_progress)
            with output_dir(out, "--out") as stage, _sphinx_bars(bars):
                code = build(stage, "html", quiet=not args.verbose, report=report)
                if code == 0 and args.doctest:
                    code = build(stage / ".doctest", "doctest", quiet=not args.verbose)
                if code != 0:
                    raise _BuildFailedError
    except DocsNotFoundError as e:
        raise UsageError(str(e)) from e
    except _BuildFailedError:
        print("hanafuda: error: the rulebook build failed (warnings are errors; see above); nothing written",
              file=sys.stderr)
        return 1
    print(f"rulebooks written to {out / 'index.html'}")
    return 0


@contextmanager
def _sphinx_bars(enabled: bool) -> Iterator[None]:
    """While Sphinx builds, a bar for each of its phases (reading sources, writing output), fed by
    Sphinx's own progress steps (``status_iterator``, which ``-q`` otherwise keeps silent); with
    ``--verbose`` Sphinx shows its progress itself. Nothing if Sphinx has no such steps."""
    from sphinx import builders

    original = getattr(builders, "status_iterator", None)
    if not enabled or original is None:
        yield
        return

    def steps(iterable: Iterable[T], summary: str, color: str = "", length: int = 0, verbosity: int = 0,
              stringify_func: object = None) -> Iterator[T]:
        if not length:  # a step of unknown length: too short to show
            yield from iterable
            return
        with progress(summary.strip(" ."), length, unit="step", enabled=True) as bar:
            for i, item in enumerate(iterable, 1):
                bar(i, length)  # a parallel build steps after a chunk of documents, a serial one before a document
                yield item

    setattr(builders, "status_iterator", steps)  # noqa: B010 (a name the module does not export)
    try:
        yield
    finally:
        setattr(builders, "status_iterator", original)  # noqa: B010


class _BuildFailedError(Exception):
    """The Sphinx build reported errors: leave nothing behind."""
