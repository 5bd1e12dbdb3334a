"""``hanafuda import FORMAT FILE... [--out FILE]``: other engines' logs as game records (JSON Lines)."""

from __future__ import annotations

import argparse
import json
import sys

from hanafuda.cli import UsageError
from hanafuda.commands._common import add_command, nonempty, write_atomic
from hanafuda.importers import ENTRY_POINT_GROUP, MAX_LOG_BYTES, ImporterError, importers


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(
        sub, "import", examples=["hanafuda import --list",
                                 "hanafuda import koikoi-ai game.json | hanafuda validate -",
                                 "hanafuda import battle-hanafuda watch.log --out records.jsonl",
                                 "hanafuda import koikoi-ai games/*.json --partial --out records.jsonl"],
        help="turn other engines' game logs into records (hanafuda-record/1.1)",
        description="Read each FILE with the importer FORMAT and write its records as JSON Lines "
        "(hanafuda-record/1.1), on stdout or in --out: deals as zones, captures as the cards taken, the "
        "engine's profile as the rules and the provenance (file, engine, commit) in meta. A file the "
        "importer cannot map (another format, a truncated log, an unknown card, a value of the wrong type, "
        "a log that contradicts itself, a file larger than "
        f"{MAX_LOG_BYTES >> 20} MiB) is reported in one line on stderr as FILE:LINE: expected ..., found "
        "...; then nothing is written at all (exit 2), unless --partial asks for the records of the other "
        "files (exit 1). Exit 0 every file imported. Pipe the output into 'hanafuda validate -'.",
        notes=f"Importers are plugins: a package adds one with an entry point in the group "
        f"'{ENTRY_POINT_GROUP}' (see hanafuda.importers). --list shows those installed.")
    p.add_argument("format", nargs="?", metavar="FORMAT", help="the importer (see --list)")
    p.add_argument("files", nargs="*", metavar="FILE", type=nonempty("file name"), help="a log file; '-' for stdin")
    p.add_argument("--out", metavar="FILE", type=nonempty("--out file name"),
                   help="write the records to FILE instead of stdout (whole, by a rename, or not at all)")
    p.add_argument("--partial", action="store_true",
                   help="when some files are refused, still write the records of the others, and exit 1")
    p.add_argument("--list", action="store_true", help="list the importers and exit")
    p.set_defaults(run=run)


def _read(name: str) -> bytes:
    """A log's bytes (``-``: stdin), at most :data:`~hanafuda.importers.MAX_LOG_BYTES`."""
    if name == "-":
        data: bytes = sys.stdin.buffer.read(MAX_LOG_BYTES + 1)
    else:
        with open(name, "rb") as f:
            data = f.read(MAX_LOG_BYTES + 1)
    if len(data) > MAX_LOG_BYTES:
        raise ImporterError(None, f"expected a log of at most {MAX_LOG_BYTES >> 20} MiB, found a larger file")
    return data


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
        shown_name = name.encode("unicode_escape").decode("ascii")  # a file name cannot forge a line
        try:
            data = _read(name)
            records = imp.read(name, data)
        except OSError as e:
            print(f"hanafuda: error: {shown_name}: cannot read: {e.strerror or e}", file=sys.stderr)
            failed += 1
            continue
        except ImporterError as e:
            where = f"{shown_name}:{e.line}" if e.line is not None else shown_name
            what = e.what.encode("unicode_escape").decode("ascii") if not e.what.isprintable() else e.what
            print(f"hanafuda: error: {where}: {what}", file=sys.stderr)
            failed += 1
            continue
        except (RecursionError, MemoryError) as e:  # defensive: absurd input
            print(f"hanafuda: error: {shown_name}: cannot import: {type(e).__name__}", file=sys.stderr)
            failed += 1
            continue
        lines.extend(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records)
    if failed and len(args.files) > 1:  # one line per refused file above; the count only when it adds something
        print(f"hanafuda: error: import: {failed} of {len(args.files)} file(s) not imported"
              + ("" if args.partial else "; nothing written (--partial writes the others)"), file=sys.stderr)
    if failed and (not args.partial or failed == len(args.files)):
        return 2  # a command that fails writes nothing
    if args.out is None:
        for line in lines:
            sys.stdout.write(line + "\n")
    else:
        write_atomic(args.out, "".join(line + "\n" for line in lines), "--out")
    return 1 if failed else 0
