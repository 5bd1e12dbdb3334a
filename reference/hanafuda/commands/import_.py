"""``hanafuda import FORMAT FILE... [--out FILE]``: other engines' logs as game records (JSON Lines)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

from hanafuda.cli import UsageError
from hanafuda.importers import ENTRY_POINT_GROUP, ImporterError, importers


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "import", help="turn other engines' game logs into records (hanafuda-record/1.1)",
        description="Read each FILE with the importer FORMAT and write its records as JSON Lines "
        "(hanafuda-record/1.1), on stdout or in --out: deals as zones, captures as the cards taken, the "
        "engine's profile as the rules and the provenance (file, engine, commit) in meta. A file the "
        "importer cannot map (another format, a truncated log, an unknown card, a log that contradicts "
        "itself) is reported in one line on stderr as FILE:LINE: what, and nothing is written for it; "
        "the other files are still imported. Exit 0 every file imported, 2 some file refused (or an "
        "unknown FORMAT). Pipe the output into 'hanafuda validate -'.",
        epilog=f"Importers are plugins: a package adds one with an entry point in the group "
        f"'{ENTRY_POINT_GROUP}' (see hanafuda.importers). --list shows those installed.")
    p.add_argument("format", nargs="?", metavar="FORMAT", help="the importer (see --list)")
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--out", metavar="FILE", help="write the records to FILE instead of stdout "
                   "(written only when at least one file is imported; replaced atomically)")
    p.add_argument("--list", action="store_true", help="list the importers and exit")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    found = importers()
    if args.list:
        for name, imp in found.items():
            print(f"{name:18} {imp.summary}")
        return 0
    if not args.format:
        raise UsageError(f"import: name a FORMAT ({', '.join(found)}) and at least one FILE")
    if args.format not in found:
        raise UsageError(f"import: unknown format {args.format!r} (known: {', '.join(found)})")
    if not args.files:
        raise UsageError("import: no FILE given")
    imp = found[args.format]
    lines: list[str] = []
    failed = 0
    for name in args.files:
        try:
            if name == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(name, "rb") as f:
                    data = f.read()
        except OSError as e:
            print(f"{name}: cannot read: {e.strerror or e}", file=sys.stderr)
            failed += 1
            continue
        try:
            records = imp.read(name, data)
        except ImporterError as e:
            where = f"{name}:{e.line}" if e.line is not None else name
            print(f"{where}: {e.what}", file=sys.stderr)
            failed += 1
            continue
        except (RecursionError, MemoryError) as e:  # defensive: absurd input
            print(f"{name}: cannot import: {type(e).__name__}", file=sys.stderr)
            failed += 1
            continue
        lines.extend(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records)
    if args.out is None:
        for line in lines:
            sys.stdout.write(line + "\n")
    elif lines:
        _write_atomic(args.out, "".join(line + "\n" for line in lines))
    if failed:
        print(f"hanafuda import: {failed} of {len(args.files)} file(s) not imported", file=sys.stderr)
        return 2
    return 0


def _write_atomic(path: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".hanafuda-import-")
    except OSError as e:
        raise UsageError(f"--out {path}: cannot write: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        os.unlink(tmp)
        raise UsageError(f"--out {path}: cannot write: {e.strerror or e}") from None
