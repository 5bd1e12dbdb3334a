"""``hanafuda validate FILE...``: replay game records through the reference and report every problem."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from typing import IO, Any

from hanafuda.commands._common import add_command, nonempty
from hanafuda.records import RecordReport, validate_stream

_KEEP = 1000  # invalid-record reports kept per file for --json (the rest are counted)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "validate", help="check game records (hanafuda-record/1) against the rules",
                    examples=["hanafuda validate r.jsonl", "hanafuda record koikoi | hanafuda validate -",
                              "hanafuda validate --json a.jsonl b.json"],
                    description="Replay each record (JSON Lines, or one JSON document) through the reference: "
                    "every action legal, every claimed position and result right. Reports every problem "
                    "with its location (record, deal, action index), the rule id broken and one line of "
                    "reason. Exit 0 all valid, 1 some record invalid, 2 unusable input (unreadable, not UTF-8, "
                    "not JSON, too large, or not a hanafuda-record/1 object; one line on stderr then names the first "
                    "such problem). '-' reads stdin. A UTF-8 byte order mark is allowed. Deals count every "
                    "shuffle (misdeals included); actions are numbered from 0 over the whole record.")
    p.add_argument("files", nargs="+", metavar="FILE", type=nonempty("file name"),
                   help="a file of records (JSON Lines, or one JSON document); '-' for stdin")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--lenient", action="store_true", help="tolerate unknown extra fields")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    files_out: list[dict[str, Any]] = []
    any_invalid = any_unusable = False
    first_unusable: str | None = None
    for name in args.files:
        summary: dict[str, Any] = {"file": name, "records": 0, "valid": 0, "invalid": 0, "unusable": 0,
                                   "actions": 0, "reports": [], "more_reports": 0}
        try:
            if os.path.isdir(name):
                raise IsADirectoryError(errno.EISDIR, "is a directory, not a file")
            stream: IO[bytes] = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
        except OSError as e:
            any_unusable = True
            summary["error"] = f"cannot read: {e.strerror or e}"
            first_unusable = first_unusable or f"{name}: cannot read: {e.strerror or e}"
            files_out.append(summary)
            continue
        try:
            for rep in validate_stream(stream, lenient=args.lenient):
                _account(summary, rep, args.json, name)
                if rep.unusable and first_unusable is None:
                    first_unusable = f"{name}: {rep.problems[0]}" if rep.problems else f"{name}: unusable"
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        any_invalid |= summary["invalid"] > 0
        any_unusable |= summary["unusable"] > 0
        if summary["records"] == 0:
            any_unusable = True
            summary["error"] = "no records"
            first_unusable = first_unusable or f"{name}: [REC-JSON-1] no records in the input"
            if not args.json:
                print(f"{name}: [REC-JSON-1] no records in the input")
        if not args.json:
            print(f"{name}: {summary['records']} record(s), {summary['valid']} valid, {summary['invalid']} "
                  f"invalid, {summary['unusable']} unusable; {summary['actions']} actions")
        files_out.append(summary)
    code = 2 if any_unusable else 1 if any_invalid else 0
    if args.json:
        json.dump({"ok": code == 0, "exit": code, "files": files_out}, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    if first_unusable is not None:  # exit 2 always comes with one line on stderr saying why
        unusable = sum(1 for f in files_out if f.get("error") or f["unusable"])
        more = f" (and {unusable - 1} more unusable file(s))" if unusable > 1 else ""
        print(f"hanafuda: error: {first_unusable}{more}", file=sys.stderr)
    return code


def _account(summary: dict[str, Any], rep: RecordReport, as_json: bool, name: str) -> None:
    summary["records"] += 1
    summary["actions"] += rep.actions
    if rep.ok:
        summary["valid"] += 1
        return
    summary["unusable" if rep.unusable else "invalid"] += 1
    if as_json:
        if len(summary["reports"]) < _KEEP:
            summary["reports"].append(rep.to_json())
        else:
            summary["more_reports"] += 1
        return
    for p in rep.problems:
        print(f"{name}: {p}")
    if rep.dropped:
        print(f"{name}: record {rep.record}: ... and {rep.dropped} more problem(s)")
