"""``hanafuda diagnose GAME FILE...``: why do these records fail? Ranked explanations of their failing rounds."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import IO

from hanafuda_spec.records import parse_record

from hanafuda.cli import parse_options
from hanafuda.commands._common import (
    GAMES_HELP,
    add_command,
    add_rules_arguments,
    check_output_dir,
    game_name,
    nonempty,
    output_dir,
    print_json,
)
from hanafuda.diagnose import SAMPLE, Diagnosis, Loaded, diagnose, witness_record
from hanafuda.records import read_documents
from hanafuda.registry import game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "diagnose", help="explain the failing rounds of game records: options and engine deviations",
                    examples=["hanafuda diagnose koikoi their-games.jsonl",
                              "hanafuda diagnose koikoi games.jsonl --json --witness witnesses/"],
                    description="Replay the records (JSON Lines or one JSON document per file, '-' for stdin) "
                    "round by round under their own rules, and for the rounds that fail find the changes under "
                    "which they replay legally and score exactly: the game's rulesets and option values, and "
                    "a library of engine deviations for each game, mistakes engines make, each naming the rule it "
                    "breaks (docs/validating.md lists them). A change is offered only if it also leaves every "
                    "round that validated valid. Changes are combined greedily: the one explaining the most "
                    "rounds is kept and the rest diagnosed again on top of it. Each explanation gives the "
                    "number of failing rounds that fail without it (all the others kept) and an example: the "
                    "failing round with the fewest actions (record, round, the action where it first differs). "
                    "Exit 0 every failing round explained (or nothing to diagnose), 1 some round unexplained, "
                    "2 unusable input.",
                    notes=f"Each change is first tried on the first failing round of up to {SAMPLE} records, and "
                    "replayed over every record only if it is among those explaining the most of them. The rules "
                    "are layered as in validate: each record's own ruleset and options; --ruleset replaces both; "
                    "--option on top of whichever applies.")
    p.add_argument("game", type=game_name, metavar="GAME", help=GAMES_HELP)
    p.add_argument("files", nargs="+", metavar="FILE", type=nonempty("file name"),
                   help="a file of records (JSON Lines, or one JSON document); '-' for stdin")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_arguments(p)
    p.add_argument("--witness", metavar="DIR", type=nonempty("directory name"),
                   help="write, for each explanation, its smallest failing round as a standalone record "
                   "(DIR/NN-ID.json)")
    p.set_defaults(run=run)


def _fail(msg: str) -> int:
    print(f"hanafuda: error: diagnose: {msg}", file=sys.stderr)
    return 2


def _shown(text: str) -> str:
    """Input text as it may appear in a message: control and other unprintable characters escaped."""
    return text if text.isprintable() else json.dumps(text)[1:-1]


def run(args: argparse.Namespace) -> int:
    g = game(args.game)
    key = g.spec.key
    options = parse_options(args.option)
    g.spec.resolve(args.ruleset, options)  # an unknown ruleset or option: one line (OptionError), exit 2
    loaded: list[Loaded] = []
    for name in args.files:
        shown = _shown(name)
        if name != "-" and os.path.isdir(name):
            return _fail(f"{shown}: is a directory, not a file")
        try:
            stream: IO[bytes] = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
        except OSError as e:
            return _fail(f"{shown}: cannot read: {e.strerror or e}")
        try:
            for src in read_documents(stream):
                if src.problem is not None:
                    return _fail(f"{shown}: {src.problem}")
                rec, problems = parse_record(src.value, record=src.record, line=src.line)
                if rec is None:
                    first = problems[0] if problems else f"record {src.record}: unreadable"
                    return _fail(f"{shown}: not a usable record: {first}")
                try:
                    other = game(rec.game).spec.key
                except Exception:
                    return _fail(f"{shown}: record {src.record}: unknown game {_shown(rec.game)!r}")
                if other != key:
                    return _fail(f"{shown}: record {src.record} is a {other} record, not {key}")
                loaded.append(Loaded(name, src.record, rec))
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
    if not loaded:
        return _fail("no records in the input")
    if args.witness is not None:
        check_output_dir(Path(args.witness), "--witness")
    found = diagnose(loaded, ruleset=args.ruleset, options=options)
    if args.witness is not None and found.explanations:
        _write_witnesses(found, Path(args.witness))
    if args.json:
        print_json(found.to_json())
    else:
        _print(found, key)
    return 1 if found.unexplained else 0


def _print(d: Diagnosis, key: str) -> None:
    if not d.failing:
        print(f"{key}: {d.records} record(s), {d.rounds} round(s), every round valid: nothing to diagnose")
        return
    print(f"{key}: {d.records} record(s), {d.rounds} round(s), {len(d.failing)} failing")
    for n, e in enumerate(d.explanations, 1):
        c = e.candidate
        params = ", ".join(f"{k}={v}" for k, v in c.parameters)
        rule = f" [{c.rule}]" if c.rule else ""
        ex = d.loaded[e.example.index]
        act = f", action {e.action}" if e.action is not None else ""
        print(f"{n:3}. {c.kind} {c.id}" + (f" ({params})" if params else "") + f"{rule}: {c.description}")
        print(f"     explains {len(e.explains)} round(s); e.g. {_shown(ex.file)} record {ex.record}, "
              f"round {e.example.deal}{act}")
    if d.unexplained:
        print(f"unexplained: {len(d.unexplained)} round(s)")
        for r, p in d.unexplained[:20]:
            ld = d.loaded[r.index]
            what = f": [{p.rule_id}] {p.reason}" if p is not None else ""
            print(f"  {_shown(ld.file)} record {ld.record}, round {r.deal}{what}")
        if len(d.unexplained) > 20:
            print(f"  ... and {len(d.unexplained) - 20} more (--json lists them)")
    else:
        print("every failing round explained")


def _write_witnesses(d: Diagnosis, path: Path) -> None:
    """Each explanation's smallest failing round, written into ``path`` all at once (nothing on failure)."""
    with output_dir(path, "--witness") as tmp:
        for n, e in enumerate(d.explanations, 1):
            ld = d.loaded[e.example.index]
            doc = witness_record(ld, e.example.deal, e)
            (tmp / f"{n:02d}-{e.candidate.id}.json").write_text(json.dumps(doc, ensure_ascii=False) + "\n",
                                                                encoding="utf-8")
