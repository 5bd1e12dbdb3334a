"""Building the rulebooks: Sphinx with warnings as errors, from a private copy of ``docs/``.

The source tree is copied to a staging directory first, so that the generated pages of one
build never mix with another's (``docs/gen`` is only written by a direct ``sphinx-build docs``).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

__all__ = ["REPORT_ENV", "DocsNotFoundError", "build", "docs_dir"]

#: The environment variable ``docs/conf.py`` reads the verification report's path from.
REPORT_ENV = "HANAFUDA_VERIFY_REPORT"


class DocsNotFoundError(FileNotFoundError):
    """The Sphinx project (``docs/`` with its ``conf.py``) is not where it should be."""


def docs_dir() -> Path:
    """The ``docs/`` directory of the source tree this package runs from (or of the working directory)."""
    here = Path(__file__).resolve()
    for parent in (*here.parents, Path.cwd()):
        if (parent / "docs" / "conf.py").is_file() and (parent / "pyproject.toml").is_file():
            return parent / "docs"
    raise DocsNotFoundError("docs/conf.py not found: run from a source checkout of hanafuda")


def build(out: Path, builder: str = "html", docs: Path | None = None, quiet: bool = True,
          jobs: str = "auto", report: Path | None = None) -> int:
    """Build the site into ``out`` with ``-W -n`` (warnings are errors, every reference must resolve).

    Returns Sphinx's exit status (0 on success), or 1 without running Sphinx when an example
    round's record does not replay (:mod:`hanafuda.rulebook.example`). ``builder`` is a Sphinx builder name: ``html``,
    or ``doctest`` to run the worked examples. ``report`` is a ``hanafuda verify --json`` report
    whose results the status and decisions pages include.
    """
    from sphinx.cmd.build import build_main

    from hanafuda.rulebook.example import EXAMPLES, ExampleError, load_checked

    src = docs or docs_dir()
    try:  # the example rounds' records replay before anything is drawn (docs/conf.py checks them too)
        for key in EXAMPLES if (src / "examples").is_dir() else ():
            load_checked(key, src / "examples" / "records")
    except ExampleError as e:
        print(f"hanafuda: error: {e}", file=sys.stderr)
        return 1
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hanafuda-docs-") as tmp:
        stage = Path(tmp) / "docs"
        shutil.copytree(src, stage, ignore=shutil.ignore_patterns("_build", "gen", "__pycache__"))
        args = ["-W", "-n", "--keep-going", "-b", builder, "-d", str(Path(tmp) / "doctrees"), "-j", jobs]
        if quiet:
            args.append("-q")
        old = os.environ.get(REPORT_ENV)
        if report is not None:
            os.environ[REPORT_ENV] = str(report.resolve())
        else:
            os.environ.pop(REPORT_ENV, None)
        try:
            return build_main([*args, str(stage), str(out)])
        finally:
            if old is None:
                os.environ.pop(REPORT_ENV, None)
            else:
                os.environ[REPORT_ENV] = old
