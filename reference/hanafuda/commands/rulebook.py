"""``hanafuda rulebook [--out DIR]``: build the rulebooks (a Sphinx site) from the catalogue."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from hanafuda.cli import UsageError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("rulebook", help="build the rulebooks (HTML) from the rule catalogue",
                       description="Build the rulebooks: one per game, generated from the rule catalogue, with "
                       "the sources and decisions, the spec, the CLI and the API. Warnings are errors. Needs "
                       "the dev dependencies (sphinx, furo, myst-parser, sphinxcontrib-bibtex) and a source "
                       "checkout (docs/).")
    p.add_argument("--out", "-o", type=Path, default=None, metavar="DIR",
                   help="output directory (default: docs/_build/html of the source checkout)")
    p.add_argument("--report", type=Path, metavar="FILE",
                   help="include a verification report (the output of 'hanafuda verify --json')")
    p.add_argument("--doctest", action="store_true", help="also run the worked examples (Sphinx doctest)")
    p.add_argument("--verbose", "-v", action="store_true", help="show Sphinx's progress")
    p.set_defaults(run=run)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def run(args: argparse.Namespace) -> int:
    from hanafuda.rulebook.build import DocsNotFoundError, build, docs_dir

    missing = [m for m in ("sphinx", "myst_parser", "furo", "sphinxcontrib.bibtex") if not _installed(m)]
    if missing:
        raise UsageError(f"rulebook needs the documentation tools (dev dependencies): missing {', '.join(missing)}")
    try:
        out: Path = args.out if args.out is not None else docs_dir() / "_build" / "html"
        if args.report is not None and not args.report.is_file():
            raise UsageError(f"--report {args.report}: no such file")
        code = build(out, "html", quiet=not args.verbose, report=args.report)
        if code == 0 and args.doctest:
            code = build(out / ".doctest", "doctest", quiet=not args.verbose)
    except DocsNotFoundError as e:
        raise UsageError(str(e)) from e
    if code != 0:
        print("hanafuda: error: the rulebook build failed (warnings are errors; see above)", file=sys.stderr)
        return 1
    print(f"rulebooks written to {out / 'index.html'}")
    return 0
