"""``hanafuda validate FILE...``: replay game records through the reference and report every problem."""

from __future__ import annotations

import argparse
import errno
import itertools
import json
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial
from typing import IO, Any

from hanafuda_spec.games import all_specs
from hanafuda_spec.records import LIMITS, Problem, printable

from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import add_command, add_jobs_argument, add_rules_arguments, nonempty
from hanafuda.parallel import Executor, add_cluster_argument, executor_for
from hanafuda.progress import add_progress_argument, progress
from hanafuda.records import (
    RecordReport,
    Source,
    consequences,
    read_documents,
    suggest_options,
    validate_source,
    validate_stream,
)

_KEEP = 1000  # record summaries kept per file for --json (the rest are counted)
_SUGGEST = 20  # invalid records per file for which option values are tried
_MIN_PER_JOB = 64  # records per worker below which a file is validated in this process
_BLOCK = 32  # records a worker is sent at a time


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "validate", help="check game records (hanafuda-record/1 and 1.1) against the rules",
                    examples=["hanafuda validate r.jsonl", "hanafuda record koikoi | hanafuda validate -",
                              "hanafuda validate --json a.jsonl b.json", "hanafuda validate r.jsonl -o length=6"],
                    description="Replay each record (JSON Lines, or one JSON document) through the reference: "
                    "every action legal, every claimed position and result right. Reports every problem "
                    "with its location (record, deal, action index), the rule id broken and one line of "
                    "reason; after a record's first divergent deal, later problems are counted and grouped "
                    "as its consequences, and the option values that would make that deal validate are "
                    "named. Exit 0 all valid (abandoned records included when valid up to where they stop), "
                    "1 some record invalid, 2 unusable input (unreadable, not UTF-8, not JSON, too large, or "
                    "not a hanafuda-record object; reported on stderr, one line each). '-' reads stdin. A "
                    "UTF-8 byte order mark is allowed.",
                    notes=f"Limits: a record is at most {LIMITS['record_bytes'] // (1024 * 1024)} MiB; at most "
                    f"{LIMITS['problems']} problems are kept per record (the rest are counted as "
                    f"more_problems); --json keeps the summaries of the first {_KEEP} records of each file (the "
                    f"rest are counted as more_records); option values are tried for the first {_SUGGEST} "
                    "invalid records of each file. Deals count every shuffle (misdeals included); actions are "
                    "numbered from 0 over the whole record. The rules are layered: each record's own ruleset "
                    "and options; --ruleset replaces both (the record's options are then not used); --option "
                    "is applied on top of whichever applies (so --option alone changes one option of each "
                    "record's own rules). A hint names an option value only if under it the first divergent "
                    "deal replays and scores exactly and no deal that validated then fails.")
    p.add_argument("files", nargs="+", metavar="FILE", type=nonempty("file name"),
                   help="a file of records (JSON Lines, or one JSON document); '-' for stdin")
    p.add_argument("--json", action="store_true", help="machine-readable output: a summary of every record")
    p.add_argument("--lenient", action="store_true",
                   help="tolerate unknown extra fields, and a play that names the cards it captures where "
                   "there is no choice")
    add_rules_arguments(p)
    p.add_argument("--select", action="append", default=[], metavar="RULE",
                   help="report only problems of these rule ids or prefixes (repeatable; 'KK-CAP', 'REC-')")
    p.add_argument("--ignore", action="append", default=[], metavar="RULE",
                   help="do not report problems of these rule ids or prefixes (repeatable)")
    p.add_argument("--all", action="store_true", help="list every problem instead of grouping the consequences")
    p.add_argument("--no-suggest", action="store_true", help="do not try other option values")
    p.add_argument("--per-round", action="store_true",
                   help="each round's verdict: valid, invalid (with its first problem) or not checked (after a "
                   "problem that stops the replay); in --json, a 'rounds' list in each record's summary")
    add_jobs_argument(p, "files of fewer than 64 records per job")
    add_cluster_argument(p)
    add_progress_argument(p)
    p.set_defaults(run=run)


def _matches(rule: str, patterns: Sequence[str]) -> bool:
    return any(rule == p or rule.startswith(p if p.endswith("-") else p + "-") for p in patterns)


def run(args: argparse.Namespace) -> int:
    options = parse_options(args.option)
    _check_rules(args.ruleset, options)
    for pat in (*args.select, *args.ignore):
        if not pat.strip():
            raise UsageError("--select/--ignore: an empty rule id")
    with executor_for(args) as ex:
        return _run(args, options, ex)


def _run(args: argparse.Namespace, options: dict[str, str], ex: Executor) -> int:
    files_out: list[dict[str, Any]] = []
    any_invalid = any_unusable = False
    for name in args.files:
        label = printable(name)  # as messages show it: a file name cannot forge a line either
        summary: dict[str, Any] = {"file": name, "records": 0, "valid": 0, "invalid": 0, "unusable": 0,
                                "abandoned": 0, "actions": 0, "reports": [], "more_records": 0}
        try:
            if os.path.isdir(name):
                raise IsADirectoryError(errno.EISDIR, "is a directory, not a file")
            stream: IO[bytes] = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
        except OSError as e:
            any_unusable = True
            summary["error"] = f"cannot read: {e.strerror or e}"
            print(f"hanafuda: error: {label}: [REC-JSON-1] cannot read: {e.strerror or e}", file=sys.stderr)
            files_out.append(summary)
            continue
        try:
            size = _size(stream)  # the bar counts bytes of a file, records of a pipe
            with progress("validate", size, unit="record" if size is None else "B", unit_scale=size is not None,
                          no_progress=args.no_progress) as bar:
                start = stream.tell() if bar.shown and size is not None else 0
                for rep in _reports(stream, args, options, ex):
                    if isinstance(rep, _Valid):  # made by a worker: a valid record, its JSON already written
                        with nullcontext() if args.json or (rep.status != "abandoned" and not args.per_round) \
                                else bar.printing():
                            _account_valid(summary, rep, args, label)
                        bar(rep.record if size is None else stream.tell() - start, size)
                        continue
                    quiet = args.json or (rep.ok and rep.status != "abandoned" and not args.per_round)  # silent
                    with nullcontext() if quiet else bar.printing():
                        _account(summary, rep, args, label, options)
                    bar(rep.record if size is None else stream.tell() - start, size)
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        any_invalid |= summary["invalid"] > 0
        any_unusable |= summary["unusable"] > 0
        first_unusable = summary.pop("_first_unusable", None)
        if first_unusable is not None:
            more = summary["unusable"] - 1
            print(f"hanafuda: error: {first_unusable}" + (f" (and {more} more unusable record(s))" if more else ""),
                  file=sys.stderr)
        if summary["records"] == 0:
            any_unusable = True
            summary["error"] = "no records"
            print(f"hanafuda: error: {label}: [REC-JSON-1] no records in the input", file=sys.stderr)
        if not args.json:
            abandoned = f" ({summary['abandoned']} abandoned)" if summary["abandoned"] else ""
            print(f"{label}: {summary['records']} record(s), {summary['valid']} valid{abandoned}, "
                  f"{summary['invalid']} invalid, {summary['unusable']} unusable; {summary['actions']} actions")
        files_out.append(summary)
    code = 2 if any_unusable else 1 if any_invalid else 0
    if args.json:
        sys.stdout.write(_json_output(code, files_out))
    return code


@dataclass(frozen=True)
class _Valid:
    """A record that validated (after --select/--ignore), as a worker sends it back: what the
    summary counts, and the record's JSON summary already written (for the first records of a file
    under --json; see :func:`_report_json`)."""

    record: int
    actions: int
    deals: int
    status: str
    json_text: str | None


def _reports(stream: IO[bytes], args: argparse.Namespace, options: dict[str, str],
             ex: Executor) -> Iterator[RecordReport | _Valid]:
    """The reports of a stream's records, in stream order, filtered by --select/--ignore: in this
    process (:func:`validate_stream`), or by the workers (:func:`_parallel_reports`) when the file
    has at least :data:`_MIN_PER_JOB` records per worker."""
    if ex.in_process:
        for rep in validate_stream(stream, lenient=args.lenient, ruleset=args.ruleset, options=options or None):
            _filter(rep, args.select, args.ignore)
            yield rep
        return
    sources = read_documents(stream, decode=False)
    first = list(itertools.islice(sources, ex.workers * _MIN_PER_JOB))
    if len(first) == ex.workers * _MIN_PER_JOB:
        yield from _parallel_reports(itertools.chain(first, sources), args, options, ex)
        return
    for src in first:  # too few records to be worth sending
        rep = validate_source(src, args.lenient, args.ruleset, options or None)
        _filter(rep, args.select, args.ignore)
        yield rep


def _parallel_reports(sources: Iterator[Source], args: argparse.Namespace, options: dict[str, str],
                      ex: Executor) -> Iterator[RecordReport | _Valid]:
    """The workers' share of :func:`_reports`. This process only reads the lines and cuts them into
    blocks (of :data:`_BLOCK` records, more on a cluster); a worker decodes, replays and filters each
    record of a block (:func:`_check_block`) and sends back, for a valid record, a :class:`_Valid`
    with its JSON summary already written (little to send back, nothing left to do here), for the
    others the report without the record. The option values tried for the first invalid records of
    a file are tried here as in one process, on the record decoded again from its line. A window of
    blocks is sent before the previous window's results are read, so that the workers do not wait."""
    size = max(_BLOCK, 2 * ex.chunk)
    work = partial(_check_block, lenient=args.lenient, ruleset=args.ruleset, options=options or None,
                   select=tuple(args.select), ignore=tuple(args.ignore), keep=_KEEP if args.json else 0,
                   per_round=args.per_round)

    def window() -> list[list[Source]]:
        blocks: list[list[Source]] = []
        while len(blocks) < 4 * ex.workers and (block := list(itertools.islice(sources, size))):
            blocks.append(block)
        return blocks

    invalid = 0
    blocks = window()
    running = ex.map(work, blocks)
    while blocks:
        current, blocks = blocks, window()
        following = ex.map(work, blocks) if blocks else iter(())
        for block, results in zip(current, running, strict=True):
            for src, rep in zip(block, results, strict=True):
                if isinstance(rep, RecordReport) and not rep.unusable:
                    invalid += 1
                    if invalid <= _SUGGEST and not args.no_suggest:  # see _account
                        rep.source = validate_source(src, args.lenient, args.ruleset, options or None).source
                yield rep
        running = following


def _check_block(block: Sequence[Source], lenient: bool, ruleset: str | None, options: dict[str, str] | None,
                 select: tuple[str, ...], ignore: tuple[str, ...], keep: int,
                 per_round: bool = False) -> list[RecordReport | _Valid]:
    """What a worker runs: a block of records validated and filtered (see :func:`_parallel_reports`),
    with the JSON summary of valid records among the first ``keep`` of the file (record numbers count
    a file's records from 1)."""
    out: list[RecordReport | _Valid] = []
    for src in block:
        rep = validate_source(src, lenient, ruleset, options)
        _filter(rep, select, ignore)
        if rep.ok and not rep.unusable:
            text = _report_json(rep, per_round) if rep.record <= keep else None
            out.append(_Valid(rep.record, rep.actions, rep.deals, rep.status, text))
        else:
            rep.source = None  # not sent back: decoded again here when it is needed
            out.append(rep)
    return out


def _report_json(rep: RecordReport, per_round: bool = False) -> str:
    """A record's JSON summary as it stands in the --json output (indented to its depth there); with
    ``per_round``, each round's verdict (:func:`round_verdicts`) as ``rounds``."""
    out = rep.to_json()
    if per_round and not rep.unusable:
        out["rounds"] = round_verdicts(rep)  # type: ignore[assignment]
    text = json.dumps(out, ensure_ascii=False, indent=2)
    return "\n".join(_INDENT + line for line in text.split("\n"))


_INDENT = " " * 8  # {"files": [{"reports": [ ... ]}]}, two spaces a level


def _json_output(code: int, files_out: list[dict[str, Any]]) -> str:
    """The --json document: what ``json.dump(..., ensure_ascii=False, indent=2)`` writes, with the
    records' summaries (already written by :func:`_report_json`) put in place. Each file's list of
    summaries stands in the document as a string of a NUL character and its number, which JSON
    writes as an escape that no file name gives (a file name has no NUL)."""
    files = [{**f, "reports": f"\0{n}"} for n, f in enumerate(files_out)]
    text = json.dumps({"ok": code == 0, "exit": code, "files": files}, ensure_ascii=False, indent=2)
    for n, f in enumerate(files_out):
        reports = "[\n" + ",\n".join(f["reports"]) + "\n" + _INDENT[:-2] + "]" if f["reports"] else "[]"
        text = text.replace(json.dumps(f"\0{n}"), reports, 1)
    return text + "\n"


def round_verdicts(rep: RecordReport) -> list[dict[str, Any]]:
    """Each deal's verdict in a record's report: ``valid``, ``invalid`` with its first problem, or
    ``not checked`` (a deal after a problem that stopped the replay). Problems of the record as a
    whole (its final scores, its list of rounds) belong to no deal."""
    first: dict[int, Problem] = {}
    for p in rep.problems:
        if p.where.deal is not None:
            first.setdefault(p.where.deal, p)
    claimed = len(rep.source.rounds) if rep.source is not None else 0
    out: list[dict[str, Any]] = []
    for deal in range(1, max(rep.deals, claimed) + 1):
        found = first.get(deal)
        verdict = "not checked" if deal > rep.deals else "invalid" if found is not None else "valid"
        out.append({"round": deal, "verdict": verdict, "problem": found.to_json() if found is not None else None})
    return out


def _round_line(name: str, record: int, verdicts: list[dict[str, Any]]) -> str:
    parts = []
    for v in verdicts:
        p = v["problem"]
        parts.append(f"{v['round']} {v['verdict']}" + (f" [{p['rule']}]" if p is not None else ""))
    good = sum(1 for v in verdicts if v["verdict"] == "valid")
    return f"{name}: record {record}: rounds: {', '.join(parts)} ({good} of {len(verdicts)} valid)"


def _size(stream: IO[bytes]) -> int | None:
    """The bytes left to read in a regular file (None for a pipe or a terminal)."""
    try:
        st = os.fstat(stream.fileno())
        return max(0, st.st_size - stream.tell()) if stat.S_ISREG(st.st_mode) else None
    except (OSError, ValueError, AttributeError):
        return None


def _check_rules(ruleset: str | None, options: dict[str, str]) -> None:
    """A ruleset or option no game has is a usage error (one that a record's game lacks is that
    record's REC-RULES-1)."""
    if ruleset is None and not options:
        return
    specs = all_specs()  # the catalogues: no game module is imported for this
    if ruleset is not None and not any(ruleset in {r.name for r in sp.rulesets} for sp in specs):
        known = sorted({r.name for sp in specs for r in sp.rulesets})
        raise UsageError(f"--ruleset {ruleset!r}: no game has it (known: {', '.join(known)})")
    for key in options:
        if not any(key in {o.key for o in sp.options} for sp in specs):
            raise UsageError(f"--option {key}: no game has this option (see 'hanafuda rules GAME')")


def _filter(rep: RecordReport, select: Sequence[str], ignore: Sequence[str]) -> None:
    if rep.unusable or not (select or ignore):
        return
    keep = [p for p in rep.problems if (not select or _matches(p.rule_id, select)) and not _matches(p.rule_id, ignore)]
    rep.problems[:] = keep
    if select or ignore:
        rep.dropped = 0 if not keep else rep.dropped


def _account(summary: dict[str, Any], rep: RecordReport, args: argparse.Namespace, name: str,
             options: dict[str, str]) -> None:
    summary["records"] += 1
    summary["actions"] += rep.actions
    if rep.status == "abandoned" and not rep.unusable:
        summary["abandoned"] += 1
    if rep.ok:
        summary["valid"] += 1
    else:
        summary["unusable" if rep.unusable else "invalid"] += 1
        if rep.source is not None and not args.no_suggest and summary["invalid"] <= _SUGGEST:
            rep.suggestions = suggest_options(rep.source, rep, ruleset=args.ruleset, options=options or None,
                                           lenient=args.lenient)
    if rep.unusable and "_first_unusable" not in summary:  # one line on stderr per file, --json or not:
        # the first such record, and how many more (see _run)
        summary["_first_unusable"] = f"{name}: {rep.problems[0]}" if rep.problems else f"{name}: unusable"
    if args.json:
        if len(summary["reports"]) < _KEEP:
            summary["reports"].append(_report_json(rep, args.per_round))
        else:
            summary["more_records"] += 1
        return
    if rep.unusable:
        return
    if rep.ok:
        if rep.status == "abandoned":
            print(f"{name}: record {rep.record}: abandoned after {rep.deals} deal(s); valid up to there")
        if args.per_round:
            print(_round_line(name, rep.record, round_verdicts(rep)))
        return
    _print_problems(name, rep, args.all)
    if args.per_round:
        print(_round_line(name, rep.record, round_verdicts(rep)))


def _account_valid(summary: dict[str, Any], rep: _Valid, args: argparse.Namespace, name: str) -> None:
    """:func:`_account` of a valid record made by a worker."""
    summary["records"] += 1
    summary["actions"] += rep.actions
    summary["valid"] += 1
    if rep.status == "abandoned":
        summary["abandoned"] += 1
    if args.json:
        if len(summary["reports"]) < _KEEP:
            if rep.json_text is None:
                raise AssertionError(f"record {rep.record}: its JSON summary was not made")
            summary["reports"].append(rep.json_text)
        else:
            summary["more_records"] += 1
    else:
        if rep.status == "abandoned":
            print(f"{name}: record {rep.record}: abandoned after {rep.deals} deal(s); valid up to there")
        if args.per_round:
            print(_round_line(name, rep.record, [{"round": d, "verdict": "valid", "problem": None}
                                                 for d in range(1, rep.deals + 1)]))


def _print_problems(name: str, rep: RecordReport, every: bool) -> None:
    first = rep.first_deal()
    shown: list[Problem] = [p for p in rep.problems if every or first is None or p.where.deal is None
                         or p.where.deal <= first]
    for p in shown:
        print(f"{name}: {p}")
    later = consequences(rep)
    if later and not every:
        n = sum(c for _, c in later)
        groups = "; ".join(f"{c} x [{r}] {w}" for (r, w), c in later[:8])
        more = f"; and {len(later) - 8} more kind(s)" if len(later) > 8 else ""
        print(printable(f"{name}: record {rep.record}: after deal {first}, {n} later problem(s), likely "
                        f"consequences: {groups}{more} (--all lists them)"))
    if rep.dropped:
        print(f"{name}: record {rep.record}: ... and {rep.dropped} more problem(s)")
    for s in rep.suggestions:
        print(f"{name}: record {rep.record}: hint: {s}")
    if rep.status == "abandoned":
        print(f"{name}: record {rep.record}: (the record says it was abandoned)")
