"""``hanafuda identify GAME FILE...``: which rules did the engine that wrote these records play?"""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Any

from hanafuda.commands._common import GAMES_HELP, add_command, add_jobs_argument, game_name, nonempty, print_json
from hanafuda.identify import held_for_workers, identify, parse_all
from hanafuda.parallel import add_cluster_argument, executor_for
from hanafuda.progress import add_progress_argument, progress
from hanafuda.records import read_documents
from hanafuda.registry import game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "identify", help="find the ruleset and options under which game records validate",
                    examples=["hanafuda identify koikoi their-games.jsonl",
                              "hanafuda import koikoi-ai game.json | hanafuda identify koikoi - --json"],
                    description="Replay the records (JSON Lines or one JSON document per file, '-' for stdin) "
                    "under the game's rulesets and option values, ignoring the rules they name, and report the "
                    "assignment under which the most of them validate (claims included): the ruleset, the "
                    "options that differ from it, how many records validate, and the first problem of each "
                    "other record with its rule id. Options that no record can tell apart are reported as "
                    "undetermined. The search is deterministic (see hanafuda.identify). Exit 0 all records "
                    "validate, 1 some do not, 2 unusable input.")
    p.add_argument("game", type=game_name, metavar="GAME", help=GAMES_HELP)
    p.add_argument("files", nargs="+", metavar="FILE", type=nonempty("file name"),
                   help="a file of records (JSON Lines, or one JSON document); '-' for stdin")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_jobs_argument(p)
    add_cluster_argument(p)
    add_progress_argument(p)
    p.set_defaults(run=run)


def _fail(msg: str) -> int:
    print(f"hanafuda: error: identify: {msg}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    key = game(args.game).spec.key
    docs: list[Any] = []
    for name in args.files:
        if name != "-" and os.path.isdir(name):
            return _fail(f"{name}: is a directory, not a file")
        try:
            stream: IO[bytes] = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
        except OSError as e:
            return _fail(f"{name}: cannot read: {e.strerror or e}")
        try:
            for src in read_documents(stream):
                if src.problem is not None:
                    return _fail(f"{name}: {src.problem}")
                docs.append(src.value)
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
    if not docs:
        return _fail("no records in the input")
    recs, bad = parse_all(docs)
    if bad:
        return _fail(f"not a usable record: {bad[0]}")
    other = sorted({r.game for r in recs if game(r.game).spec.key != key} if recs else set())
    if other:
        return _fail(f"records of {', '.join(other)}, not {key}")
    with (held_for_workers(recs) as held,  # the workers are forked holding the records
          executor_for(args, collector=False) as ex,  # the search makes no reference cycles (hanafuda.parallel)
          progress("identify", None, unit="replay", no_progress=args.no_progress) as bar):
        found = identify(key, recs, ex, on_progress=bar, held=held)
    if args.json:
        print_json(found.to_json())
    else:
        print(f"{found.game}: ruleset {found.ruleset}")
        if found.options:
            print("options: " + " ".join(f"{k}={v}" for k, v in found.options.items()))
        else:
            print("options: none changed")
        for k, vals in found.undetermined.items():
            print(f"undetermined: {k} ({'|'.join(vals)}: no record tells them apart)")
        print(f"{found.valid} of {found.records} record(s) validate")
        for u in found.unexplained:
            print(f"  record {u.record}: [{u.rule}] {u.message}")
    return 0 if found.valid == found.records else 1
