"""``hanafuda view FILE [--record N] [--out PAGE]``: one record as a self-contained HTML page.

The record is replayed through the reference as ``hanafuda validate`` replays it
(:mod:`hanafuda.view`); the page steps through every position with the arrow keys or its
buttons. An invalid record is still shown, its first problem highlighted at its action, and the
exit status is 1. A file that cannot be read as a record, or a record with nothing to deal (an
unknown game or option), is bad input: one line on stderr, exit 2, nothing written.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from hanafuda.commands._common import add_command, nonempty, read_bytes, write_atomic
from hanafuda.errors import UsageError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "view", help="show a game record as a self-contained HTML page (step through it)",
                    description="Replay one game record (ours or imported: anything 'hanafuda validate' reads) "
                    "through the reference and write one HTML page, with no network use and nothing outside "
                    "it: the hands, the table, the capture piles with their yaku, the scores, step by step "
                    "(arrow keys or buttons). An invalid record is still written, its first problem "
                    "highlighted at its action with the rule id, and the exit status is 1.",
                    examples=["hanafuda view game.json --out game.html",
                              "hanafuda view games.jsonl --record 3 --out third.html",
                              "hanafuda record koikoi --seed 5 | hanafuda view - --out koikoi.html"])
    p.add_argument("file", type=nonempty("file name"), metavar="FILE",
                   help="a record file: JSON Lines or one JSON document ('-': standard input)")
    p.add_argument("--record", "-r", type=_record_number, default=1, metavar="N",
                   help="which record of the file (1 for the first; default 1)")
    p.add_argument("--out", "-o", type=nonempty("output file name"), default=None, metavar="PAGE",
                   help="the page to write (default: FILE's name with .html, in the current directory; "
                   "'-': standard output)")
    p.add_argument("--lenient", action="store_true", help="read the record as 'validate --lenient' does")
    p.set_defaults(run=run)


def _record_number(text: str) -> int:
    try:
        n = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"--record {text!r}: not a whole number") from None
    if not 1 <= n <= 10**9:
        raise argparse.ArgumentTypeError(f"--record {n}: records are numbered from 1")
    return n


def _default_out(name: str, record: int) -> Path:
    stem = "record" if name == "-" else Path(name).stem or "record"
    return Path(f"{stem}.html" if record == 1 else f"{stem}-{record}.html")


def run(args: argparse.Namespace) -> int:
    from hanafuda.records import read_documents
    from hanafuda.view import ViewError, render_html, view_record

    name = args.file
    shown = repr(name) if not name.isprintable() else name
    out = None if args.out == "-" else Path(args.out) if args.out is not None else _default_out(name, args.record)
    if out is not None and out.is_dir():
        raise UsageError(f"--out {out}: is a directory")
    data = read_bytes(name, "FILE")
    src = None
    for s in read_documents(io.BytesIO(data)):
        if s.record == args.record:
            src = s
            break
    if src is None:
        raise UsageError(f"{shown}: there is no record {args.record} in the file")
    if src.problem is not None:
        raise UsageError(f"{shown}: {src.problem}")
    try:
        v = view_record(src.value, src.record, src.line, lenient=args.lenient)
    except ViewError as e:
        raise UsageError(f"{shown}: cannot show record {args.record}: {e}") from None
    page = render_html(v)
    if out is None:
        sys.stdout.write(page)
    else:
        write_atomic(out, page, "--out")
        first = f"; first problem: [{v.problems[0].rule_id}] {v.problems[0].where}" if v.problems else ""
        print(f"{out}: record {args.record} of {shown}, {len(v.frames)} steps, "
              f"{'valid' if v.valid else f'invalid ({len(v.problems)} problem(s))'}{first}")
    return 0 if v.valid else 1
