"""Every failure of input or environment, for every subcommand: the documented exit code, exactly one
line on stderr naming what and where, never a traceback, and nothing written.

The table holds every row of issue 18's list of broken promises (marked ``#18``) and more. Each row
runs in a fresh empty directory with its input files made there; afterwards the directory must hold
exactly those input files (and, for a successful row, what it is documented to write).
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hanafuda.cli import build_parser, command_modules, main
from hanafuda.commands._common import MAX_GAMES, MAX_SEED
from hanafuda.registry import available

GAME_KEYS = [g.spec.key for g in available()]


@functools.cache
def _record_line() -> str:
    """One valid record, as a JSON line."""
    from hanafuda.records import record_match
    from hanafuda.registry import game

    return json.dumps(record_match(game("kekoro"), None, {}, 1, 1))


@dataclass(frozen=True)
class Row:
    args: list[str]
    code: int = 2
    err: str = ""  # a piece of the one stderr line
    out: str = ""  # a piece of stdout (for successful rows)
    files: dict[str, bytes] = field(default_factory=dict)  # input files made first
    stdin: bytes | None = None
    creates: tuple[str, ...] = ()  # what a successful row may write


def _truncated() -> bytes:
    line = _record_line()
    return line[: len(line) // 2].encode()


NESTED = b"[" * 10_000 + b"]" * 10_000
BINARY = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4  # a picture's first bytes
DEEP_OPEN = b"[" * 10_000


ROWS: dict[str, Row] = {
    # -- rulebook -------------------------------------------------------------------------------
    "#18 rulebook --report garbage": Row(["rulebook", "--report", "F", "--out", "site"], 2, "--report F: line 1",
                                         files={"F": b"garbage\n"}),
    "#18 rulebook --report truncated": Row(["rulebook", "--report", "F", "--out", "site"], 2, "truncated",
                                           files={"F": b'{"ok": true, "checks": [{"game": "koikoi"'}),
    "#18 rulebook --report null": Row(["rulebook", "--report", "F", "--out", "site"], 2,
                                      "not a 'hanafuda verify --json' report", files={"F": b"null"}),
    "#18 rulebook --report JSON Lines": Row(["rulebook", "--report", "F", "--out", "site"], 2, "JSON Lines",
                                            files={"F": b'{"checks": []}\n{"checks": []}\n'}),
    "rulebook --report a check of the wrong shape": Row(
        ["rulebook", "--report", "F", "--out", "site"], 2, "checks[0].examples",
        files={"F": b'{"checks": [{"game": "koikoi", "check": "x", "examples": "many"}]}'}),
    "rulebook --report binary": Row(["rulebook", "--report", "F", "--out", "site"], 2, "not UTF-8",
                                    files={"F": BINARY}),
    "rulebook --report missing": Row(["rulebook", "--report", "nope.json", "--out", "site"], 2,
                                     "nope.json: cannot read"),
    "rulebook --report a directory": Row(["rulebook", "--report", ".", "--out", "site"], 2, "is a directory"),
    "#18 rulebook --out /proc/nope": Row(["rulebook", "--out", "/proc/nope"], 2, "--out /proc/nope: cannot write"),
    "#18 rulebook --out an existing file": Row(["rulebook", "--out", "F"], 2, "--out F: exists and is not a directory",
                                               files={"F": b"x"}),
    "rulebook --out empty": Row(["rulebook", "--out", ""], 2, "output directory is empty"),
    # -- verify ---------------------------------------------------------------------------------
    "#18 verify --replay a binary file": Row(["verify", "--replay", "F"], 2, "--replay F: not UTF-8",
                                             files={"F": BINARY}),
    "#18 verify --replay 10,000 nested arrays": Row(["verify", "--replay", "F"], 2, "nested too deeply",
                                                    files={"F": NESTED}),
    "#18 verify --replay '[]'": Row(["verify", "--replay", "[]"], 2, "a JSON object, not a list"),
    "verify --jobs huge": Row(["verify", "--quick", "--jobs", "9" * 30], 2, "1 to 256"),
    "verify --replay a missing file": Row(["verify", "--replay", "nope.json"], 2, "--replay nope.json: cannot read"),
    "verify --replay truncated JSON": Row(["verify", "--replay", '{"game": "koikoi"'], 2, "truncated"),
    "verify --replay a 5000-digit number": Row(["verify", "--replay", "F"], 2, "more than 4300 digits",
                                               files={"F": b'{"seed": ' + b"9" * 5000 + b"}"}),
    "verify --replay a wrong game field": Row(["verify", "--replay", '{"game": 5}'], 2, "cannot replay"),
    "verify --replay an empty name": Row(["verify", "--replay", ""], 2, "file name is empty"),
    "verify --seed 2**64": Row(["verify", "--seed", str(2**64)], 2, "0 to 2**64-1"),
    "verify --game unknown": Row(["verify", "--game", "chess"], 2, "unknown game 'chess'"),
    "verify --game empty": Row(["verify", "--game", ""], 2, "game name is empty"),
    # -- record ---------------------------------------------------------------------------------
    "#18 record --seed 2**64-1 is a seed": Row(["record", "kekoro", "--seed", str(MAX_SEED)], 0,
                                               out=f'"seed":{MAX_SEED}'),
    "record --seed 2**64": Row(["record", "koikoi", "--seed", str(2**64)], 2, "--seed"),
    "record --seed 2**64-1 with --games 2 runs past it": Row(["record", "koikoi", "--seed", str(MAX_SEED),
                                                              "--games", "2"], 2, "would pass 2**64-1"),
    "record --seed -1": Row(["record", "koikoi", "--seed", "-1"], 2, "not a seed"),
    "record --seed with 5000 digits": Row(["record", "koikoi", "--seed", "9" * 5000], 2, "not a seed"),
    "record --seed x": Row(["record", "koikoi", "--seed", "x"], 2, "'x' is not a seed"),
    "#18 record --games over the one limit": Row(["record", "koikoi", "--games", str(MAX_GAMES + 1)], 2,
                                                 f"1 to {MAX_GAMES:,}"),
    "record --games 0": Row(["record", "koikoi", "--games", "0"], 2, "--games"),
    "record --pretty --games 2": Row(["record", "koikoi", "--pretty", "--games", "2"], 2, "--pretty"),
    "record unknown game": Row(["record", "chess"], 2, "unknown game 'chess'"),
    "record empty game": Row(["record", ""], 2, "game name is empty"),
    "record empty ruleset": Row(["record", "koikoi", "-r", ""], 2, "ruleset name is empty"),
    "record unknown option": Row(["record", "koikoi", "-o", "nope=1"], 2, "nope"),
    "record empty option": Row(["record", "koikoi", "-o", ""], 2, "expected KEY=VALUE"),
    # -- simulate -------------------------------------------------------------------------------
    "#18 simulate --seed 2**64": Row(["simulate", "koikoi", "--seed", str(2**64)], 2, "0 to 2**64-1"),
    "#18 simulate --games over the one limit": Row(["simulate", "koikoi", "--games", str(MAX_GAMES + 1)], 2,
                                                   f"1 to {MAX_GAMES:,}"),
    "simulate --games x": Row(["simulate", "koikoi", "--games", "x"], 2, "'x' is not a number of games"),
    "simulate bad option value": Row(["simulate", "koikoi", "-o", "five_brights=12"], 2, "five_brights"),
    "simulate empty game": Row(["simulate", " "], 2, "game name is empty"),
    "simulate --jobs 0": Row(["simulate", "koikoi", "--jobs", "0"], 2, "1 to 256"),
    "simulate --jobs x": Row(["simulate", "koikoi", "-j", "x"], 2, "'x' is not a number of jobs"),
    "validate --jobs 257": Row(["validate", "-", "--jobs", "257"], 2, "1 to 256"),
    # -- cards, rules ---------------------------------------------------------------------------
    "#18 cards ''": Row(["cards", ""], 2, "game name is empty"),
    "cards unknown game": Row(["cards", "nogame"], 2, "unknown game 'nogame'"),
    "cards bad option": Row(["cards", "kujuroku", "-o", "jizo=maybe"], 2, "jizo"),
    "rules ''": Row(["rules", ""], 2, "game name is empty"),
    "rules two games": Row(["rules", "koikoi", "kekoro"], 2, "unrecognized arguments: kekoro"),
    # -- vectors --------------------------------------------------------------------------------
    "#18 vectors ''": Row(["vectors", ""], 2, "output directory is empty"),
    "vectors into an existing file": Row(["vectors", "F", "--game", "kekoro", "--games", "0", "--piles", "0"], 2,
                                         "vectors F: exists and is not a directory", files={"F": b"x"}),
    "vectors /proc/nope": Row(["vectors", "/proc/nope", "--game", "kekoro", "--games", "0", "--piles", "0",
                               "--no-z3"], 2, "vectors /proc/nope: cannot write"),
    "vectors --games over the one limit": Row(["vectors", "out", "--games", str(MAX_GAMES + 1)], 2,
                                              f"0 to {MAX_GAMES:,}"),
    "vectors --piles -1": Row(["vectors", "out", "--piles", "-1"], 2, "--piles"),
    "vectors --game ''": Row(["vectors", "out", "--game", ""], 2, "game name is empty"),
    # -- score ----------------------------------------------------------------------------------
    "#18 score kekoro --json -- 120 40 20": Row(["score", "kekoro", "--json", "--", "120", "40", "20"], 0,
                                                out='"mist-island"'),
    "score options between the cards": Row(["score", "kekoro", "120", "--json", "40", "-r", "fudawiki", "20"], 0,
                                           out='"mist-island"'),
    "#18 score koikoi with no cards": Row(["score", "koikoi"], 2, "required: CARD"),
    "#18 score musashino month=3": Row(["score", "musashino", "10", "-o", "month=3"], 2,
                                       "no month-dependent yaku"),
    "#18 score kekoro month=3": Row(["score", "kekoro", "10", "-o", "month=3"], 2, "no month-dependent yaku"),
    "score koikoi month=3 with month_cards off": Row(["score", "koikoi", "30", "-o", "month=3",
                                                      "-o", "month_cards=off"], 2, "month_cards is off"),
    "score month=13": Row(["score", "koikoi", "30", "-o", "month=13"], 2, "a month is 1 to 12"),
    "score month=abc": Row(["score", "koikoi", "30", "-o", "month=abc"], 2, "a month is 1 to 12"),
    "#18 score viewing=weather without the table": Row(["score", "koikoi", "90", "30", "80", "-o",
                                                        "viewing=weather"], 2, "--table"),
    "score viewing=weather with the table": Row(["score", "koikoi", "90", "30", "80", "-o", "viewing=weather",
                                                 "--table", "110", "--json"], 0, out='"moon-viewing"'),
    "score --table where no rule looks at it": Row(["score", "koikoi", "10", "--table", "11"], 2,
                                                   "without looking at the table"),
    "score a card in the pile and on the table": Row(["score", "koikoi", "30", "-o", "viewing=weather",
                                                      "--table", "30"], 2, "both in the pile and on the table"),
    "score a card twice": Row(["score", "koikoi", "10", "10"], 2, "card '10' is given twice"),
    "score an option-like card after --": Row(["score", "koikoi", "--", "-5"], 2, "card '-5'"),
    "score unknown card": Row(["score", "koikoi", "999"], 2, "card '999'"),
    # -- validate -------------------------------------------------------------------------------
    "#18 validate /nonexistent": Row(["validate", "/nonexistent"], 2, "/nonexistent: [REC-JSON-1] cannot read"),
    "#18 validate a directory": Row(["validate", "."], 2, "is a directory"),
    "#18 validate a record with a UTF-8 BOM": Row(["validate", "F"], 0, out="1 valid",
                                                  files={"F": b"\xef\xbb\xbf" + b"RECORD\n"}),
    "#18 validate a 5,000-digit number": Row(["validate", "F"], 2, "more than 4300 digits",
                                             files={"F": b'{"seed": ' + b"9" * 5000 + b"}\n"}),
    "#18 validate truncated JSON": Row(["validate", "F"], 2, "ends early (truncated?)", files={"F": b"TRUNCATED"}),
    "validate --json truncated JSON": Row(["validate", "F", "--json"], 2, "ends early (truncated?)",
                                          files={"F": b"RECORD\nTRUNCATED"}),
    "validate --json truncated JSON, 2 jobs": Row(["validate", "F", "--json", "--jobs", "2"], 2,
                                                  "ends early (truncated?)", files={"F": b"RECORD\nTRUNCATED"}),
    "validate a ruleset no game has": Row(["validate", "F", "--ruleset", "nosuch"], 2,
                                          "--ruleset 'nosuch': no game has it (known: ", files={"F": b"RECORD\n"}),
    "validate an option no game has": Row(["validate", "F", "-o", "nosuch=1"], 2,
                                          "--option nosuch: no game has this option", files={"F": b"RECORD\n"}),
    "validate a binary file": Row(["validate", "F"], 2, "not UTF-8", files={"F": BINARY}),
    "validate deep nesting": Row(["validate", "F"], 2, "nested too deeply", files={"F": DEEP_OPEN + b"\n"}),
    "validate an empty file": Row(["validate", "F"], 2, "no records", files={"F": b""}),
    "validate an empty name": Row(["validate", ""], 2, "file name is empty"),
    "validate garbage on stdin": Row(["validate", "-"], 2, "malformed JSON", stdin=b"{'a': 1}\n"),
    # -- view (issue 28) ------------------------------------------------------------------------
    "view /nonexistent": Row(["view", "/nonexistent", "--out", "p.html"], 2, "FILE /nonexistent: cannot read"),
    "view truncated JSON": Row(["view", "F", "--out", "p.html"], 2, "ends early (truncated?)",
                               files={"F": b"TRUNCATED"}),
    "view a record the file lacks": Row(["view", "F", "--record", "2", "--out", "p.html"], 2, "no record 2",
                                        files={"F": b"RECORD\n"}),
    "view a record": Row(["view", "F", "--out", "p.html"], 0, out="valid", files={"F": b"RECORD\n"},
                         creates=("p.html",)),
    # -- referee --------------------------------------------------------------------------------
    "#18 referee --timeout 0": Row(["referee", "koikoi", "-e", "true", "--timeout", "0"], 2, "--timeout"),
    "referee --timeout nan": Row(["referee", "koikoi", "-e", "true", "--timeout", "nan"], 2, "--timeout"),
    "referee --games over the one limit": Row(["referee", "koikoi", "-e", "true", "--games", str(MAX_GAMES + 1)],
                                              2, "--games"),
    "referee --seed 2**64": Row(["referee", "koikoi", "-e", "true", "--seed", str(2**64)], 2, "--seed"),
    "referee an empty engine": Row(["referee", "koikoi", "-e", ""], 2, "engine command is empty"),
    "referee no engine": Row(["referee", "koikoi"], 2, "--engine"),
    "referee an engine that does not exist": Row(["referee", "koikoi", "-e", "./no-such-engine", "--games", "1"], 2,
                                                 "engine"),
    # -- perft ----------------------------------------------------------------------------------
    "perft --depth 13": Row(["perft", "koikoi", "--depth", "13"], 2, "a depth: a whole number 0 to 12"),
    "perft --seed 2**64": Row(["perft", "koikoi", "--seed", str(2**64)], 2, "0 to 2**64-1"),
    "perft --divide at depth 0": Row(["perft", "koikoi", "--depth", "0", "--divide"], 2, "--divide"),
    "perft empty game": Row(["perft", ""], 2, "game name is empty"),
    "perft --depth -1": Row(["perft", "koikoi", "--depth", "-1"], 2, "a depth: a whole number 0 to 12"),
    "perft --seed -1": Row(["perft", "koikoi", "--seed", "-1"], 2, "0 to 2**64-1"),
    "perft unknown game": Row(["perft", "nope"], 2, "unknown game 'nope'"),
    "perft unknown option": Row(["perft", "koikoi", "-o", "nope=1"], 2, "nope"),
    "perft --seed 2**64-1 is a seed": Row(["perft", "kekoro", "--seed", str(MAX_SEED), "--depth", "1"], 0,
                                          out="sequences"),
    # -- import ---------------------------------------------------------------------------------
    "import an unknown format": Row(["import", "nope", "F"], 2, "unknown format 'nope'", files={"F": b"x"}),
    "import a missing file": Row(["import", "koikoi-ai", "nope.json"], 2, "nope.json: cannot read"),
    "import garbage": Row(["import", "koikoi-ai", "F", "--out", "o.jsonl"], 2, "F", files={"F": b"garbage"}),
    "import a binary file": Row(["import", "battle-hanafuda", "F", "--out", "o.jsonl"], 2, "F", files={"F": BINARY}),
    "import an empty name": Row(["import", "koikoi-ai", ""], 2, "file name is empty"),
    # -- diagnose -------------------------------------------------------------------------------
    "diagnose a missing file": Row(["diagnose", "koikoi", "nope.jsonl"], 2, "nope.jsonl: cannot read"),
    "diagnose a directory": Row(["diagnose", "koikoi", "."], 2, "is a directory"),
    "diagnose truncated JSON": Row(["diagnose", "kekoro", "F"], 2, "truncated", files={"F": b"TRUNCATED"}),
    "diagnose a binary file": Row(["diagnose", "koikoi", "F"], 2, "not UTF-8", files={"F": BINARY}),
    "diagnose an empty file": Row(["diagnose", "koikoi", "F"], 2, "no records", files={"F": b""}),
    "diagnose records of another game": Row(["diagnose", "koikoi", "F", "--witness", "w"], 2,
                                            "is a kekoro record, not koikoi", files={"F": b"RECORD\n"}),
    "diagnose an unknown option": Row(["diagnose", "kekoro", "F", "-o", "nope=1"], 2, "nope",
                                      files={"F": b"RECORD\n"}),
    "diagnose valid records": Row(["diagnose", "kekoro", "F"], 0, out="nothing to diagnose",
                                  files={"F": b"RECORD\n"}),
    # -- identify -------------------------------------------------------------------------------
    "identify a missing file": Row(["identify", "koikoi", "nope.jsonl"], 2, "nope.jsonl: cannot read"),
    "identify a directory": Row(["identify", "koikoi", "."], 2, "is a directory"),
    "identify truncated JSON": Row(["identify", "kekoro", "F"], 2, "truncated", files={"F": b"TRUNCATED"}),
    "identify a binary file": Row(["identify", "koikoi", "F"], 2, "not UTF-8", files={"F": BINARY}),
    "identify an empty file": Row(["identify", "koikoi", "F"], 2, "no records", files={"F": b""}),
    "identify records of another game": Row(["identify", "koikoi", "F"], 2, "records of kekoro",
                                            files={"F": b"RECORD\n"}),
    "identify an empty game": Row(["identify", "", "F"], 2, "game name is empty", files={"F": b"RECORD\n"}),
    # -- separate (issue 30) ---------------------------------------------------------------------
    "separate an unknown game": Row(["separate", "hanafuda", "--a", "nintendo", "--b", "fudawiki"], 2, "hanafuda"),
    "separate an unknown ruleset": Row(["separate", "koikoi", "--a", "nope", "--b", "fudawiki"], 2,
                                       "unknown ruleset 'nope'"),
    "separate an unknown option": Row(["separate", "koikoi", "--a", "colour=red"], 2, "unknown option 'colour'"),
    "separate a bad option value": Row(["separate", "koikoi", "--b", "hand_size=9"], 2, "choices: 8, 10"),
    "separate two rulesets on a side": Row(["separate", "koikoi", "--a", "nintendo,fudawiki"], 2, "two rulesets"),
    "separate --bound -1": Row(["separate", "koikoi", "--bound", "-1"], 2, "a number of actions"),
    "separate --suite without --out": Row(["separate", "kekoro", "--suite"], 2, "--suite needs --out"),
    "separate --out a directory": Row(["separate", "koikoi", "--a", "length=1", "--b", "length=2", "--out", "."], 2,
                                      "is a directory"),
    "separate --update without --suite": Row(["separate", "koikoi", "--a", "nintendo", "--b", "fudawiki",
                                              "--update"], 2, "--update goes with --suite"),
    "separate --suite --update a garbage --out": Row(["separate", "kekoro", "--suite", "--update", "--out", "F"], 2,
                                                     "--out F: line 1 is not an entry", files={"F": b"garbage\n"}),
    "separate --suite --update an --out of other entries": Row(
        ["separate", "kekoro", "--suite", "--update", "--out", "F"], 2, "--out F: line 2 is not an entry",
        files={"F": b'{"option": "x", "values": ["a", "b"], "status": "separated"}\n{"option": "x"}\n'}),
    "separate without --a and --b": Row(["separate", "koikoi"], 2, "needs both --a RULES and --b RULES"),
    "separate without --b": Row(["separate", "koikoi", "--a", "nintendo"], 2, "(missing: --b)"),
    "separate a 5000-character ruleset": Row(["separate", "koikoi", "--a", "x" * 5000, "--b", "nintendo"], 2,
                                             "unknown ruleset '" + "x" * 60 + "…' for koikoi"),
    # -- koikoi-scorer's options (issue 13) ------------------------------------------------------
    "score rainy_four_brights=8": Row(["score", "koikoi", "10", "-o", "rainy_four_brights=8"], 2,
                                      "choices: 7, three-brights"),
    "score viewing=rain-pile with a table": Row(["score", "koikoi", "30", "90", "-o", "viewing=rain-pile",
                                                 "--table", "110"], 2, "without looking at the table"),
    "score -r koikoi-scorer": Row(["score", "koikoi", "10", "30", "80", "110", "-r", "koikoi-scorer", "--json"], 0,
                                  out='"three-brights"'),
    # -- --jobs and --cluster (issue 17) ----------------------------------------------------------
    "vectors --jobs 0": Row(["vectors", "out", "--jobs", "0"], 2, "1 to 256"),
    "vectors --jobs -1": Row(["vectors", "out", "--jobs", "-1"], 2, "1 to 256"),
    "vectors --jobs huge": Row(["vectors", "out", "--jobs", "9" * 30], 2, "a number of jobs"),
    "vectors --jobs x": Row(["vectors", "out", "-j", "x"], 2, "'x' is not a number of jobs"),
    "identify --jobs 0": Row(["identify", "koikoi", "F", "--jobs", "0"], 2, "1 to 256", files={"F": b"RECORD\n"}),
    "identify --jobs -1": Row(["identify", "koikoi", "F", "--jobs", "-1"], 2, "1 to 256", files={"F": b"RECORD\n"}),
    "identify --jobs huge": Row(["identify", "koikoi", "F", "--jobs", "257"], 2, "1 to 256",
                                files={"F": b"RECORD\n"}),
    "identify --jobs x": Row(["identify", "koikoi", "F", "-j", "two"], 2, "'two' is not a number of jobs",
                             files={"F": b"RECORD\n"}),
    "simulate --cluster empty": Row(["simulate", "kekoro", "--cluster", ""], 2, "the cluster address is empty"),
    "simulate --cluster garbage": Row(["simulate", "kekoro", "--cluster", "garbage"], 2,
                                      "'garbage' is not a Dask scheduler address"),
    "simulate --cluster unreachable": Row(["simulate", "kekoro", "--cluster", "tcp://127.0.0.1:1"], 2,
                                          "--cluster tcp://127.0.0.1:1: cannot reach the scheduler"),
    "validate --cluster empty": Row(["validate", "F", "--cluster", " "], 2, "the cluster address is empty",
                                    files={"F": b"RECORD\n"}),
    "validate --cluster an unknown scheme": Row(["validate", "F", "--cluster", "http://127.0.0.1:8786"], 2,
                                                "unknown address scheme 'http'", files={"F": b"RECORD\n"}),
    "validate --cluster unreachable": Row(["validate", "F", "--cluster", "tcp://127.0.0.1:1"], 2,
                                          "cannot reach the scheduler", files={"F": b"RECORD\n"}),
    "verify --cluster garbage": Row(["verify", "--quick", "--cluster", "tcp://host"], 2,
                                    "is not a Dask scheduler address"),
    "verify --cluster port 0": Row(["verify", "--quick", "--cluster", "127.0.0.1:0"], 2, "the port is not 1 to 65535"),
    "verify --cluster unreachable": Row(["verify", "--quick", "--cluster", "tcp://127.0.0.1:1"], 2,
                                        "cannot reach the scheduler"),
    "vectors --cluster empty": Row(["vectors", "out", "--cluster", ""], 2, "the cluster address is empty"),
    "vectors --cluster garbage": Row(["vectors", "out", "--cluster", "not an address"], 2,
                                     "is not a Dask scheduler address"),
    "vectors --cluster unreachable": Row(["vectors", "out", "--cluster", "tcp://127.0.0.1:1"], 2,
                                         "cannot reach the scheduler"),
    "identify --cluster empty": Row(["identify", "koikoi", "F", "--cluster", ""], 2, "the cluster address is empty",
                                    files={"F": b"RECORD\n"}),
    "identify --cluster garbage": Row(["identify", "koikoi", "F", "--cluster", "::::"], 2,
                                      "is not a Dask scheduler address", files={"F": b"RECORD\n"}),
    "identify --cluster unreachable": Row(["identify", "kekoro", "F", "--cluster", "tcp://127.0.0.1:1"], 2,
                                          "cannot reach the scheduler", files={"F": b"RECORD\n"}),
    "identify --cluster with --jobs": Row(["identify", "kekoro", "F", "--cluster", "tcp://127.0.0.1:1", "-j", "2"],
                                          2, "--cluster and --jobs: choose one", files={"F": b"RECORD\n"}),
    # -- --no-progress (a flag: it takes no value) -----------------------------------------------
    "simulate --no-progress with a value": Row(["simulate", "koikoi", "--no-progress=yes"], 2,
                                               "ignored explicit argument 'yes'"),
    "verify --no-progress with a value": Row(["verify", "--no-progress=1"], 2, "ignored explicit argument '1'"),
    # -- the program ----------------------------------------------------------------------------
    "no command": Row([], 2, "a COMMAND is required"),
    "unknown command": Row(["frobnicate"], 2, "unknown command 'frobnicate'"),
    "unknown top-level option": Row(["--frobnicate"], 2, "unrecognized arguments"),
}

def _materialize(data: bytes) -> bytes:
    """Input files that need a record: ``RECORD`` is a valid one, ``TRUNCATED`` half of one."""
    return data.replace(b"TRUNCATED", _truncated()).replace(b"RECORD", _record_line().encode())


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.parametrize("name", list(ROWS))
def test_bad_input_row(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    row = ROWS[name]
    monkeypatch.chdir(tmp_path)
    for fname, data in row.files.items():
        (tmp_path / fname).write_bytes(_materialize(data))
    if row.stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(row.stdin)))
    before = _tree(tmp_path)
    code = main(row.args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code == row.code, (code, out, err)
    after = _tree(tmp_path)
    if code == 0:
        assert err == "", err
        assert row.out in out, out
        assert after - before <= set(row.creates), after - before
        return
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("hanafuda: error: "), err
    assert row.err in lines[0], lines[0]
    assert after == before, f"written on failure: {sorted(after - before)}"  # nothing written
    assert "/proc/nope" not in str(list(Path("/proc").glob("nope*")))


@pytest.mark.parametrize("args", [["separate", "koikoi", "--a", "y" * 5000, "--b", "nintendo"],
                                  ["record", "koikoi", "--option", "k" * 5000 + "=v"],
                                  ["score", "koikoi", "10", "-r", "r" * 5000],
                                  ["validate", "F", "--ruleset", "v" * 5000],
                                  ["frobnicate" + "f" * 5000]])
def test_long_input_is_cut_in_the_one_line_error(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Input echoed in an error is cut after its first 60 characters, with "…" (issue 30), for every
    command: the program cuts the message it prints, not each command."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "F").write_text(_record_line() + "\n", encoding="utf-8")
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.splitlines()) == 1 and err.startswith("hanafuda: error: "), err
    assert "…" in err and len(err) < 1000, err


def test_long_input_is_cut_outside_an_escape() -> None:
    """A cut echo stays escaped: it never ends inside an escape such as ``\\x01``."""
    from hanafuda.errors import ECHO_LIMIT, clip_echoes

    for pad in range(4):
        text = "a" * pad + "\x01" * 100
        got = clip_echoes(f"bad name {text!r} here")
        inner = got.split("'")[1]
        assert inner.endswith("…") and len(inner) <= ECHO_LIMIT + 1, got
        assert inner[:-1].replace("a", "").replace("\\x01", "") == "", got
    assert clip_echoes("the game's rule 'short' and the players' turns") == (
        "the game's rule 'short' and the players' turns")


def test_every_row_of_the_issue_is_in_the_table() -> None:
    """The seventeen rows of issue 18's table (some split into several cases here)."""
    issue = [k for k in ROWS if k.startswith("#18")]
    assert len(issue) >= 17


def _subcommands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: argparse.ArgumentParser = sub.choices[command]
    return found


def _alone(command: str) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    parser = build_parser(command)
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


@pytest.mark.parametrize("command", _subcommands())
def test_a_command_run_builds_its_own_parser_alone_and_the_same(command: str) -> None:
    """Running a command registers that command only (the other commands' modules are not imported:
    a quarter of the start-up): its parser has the same help, arguments and defaults as in the full
    parser that ``hanafuda --help`` shows, and every command of the full parser can be built so."""
    alone = _alone(command)
    assert sorted(alone.choices) == [command]
    ours, full = alone.choices[command], _subparser(command)
    assert ours.format_help() == full.format_help()
    def actions(parser: argparse.ArgumentParser) -> list[tuple[object, ...]]:
        return [(a.dest, tuple(a.option_strings), a.default, a.nargs, a.required) for a in parser._actions]

    assert actions(ours) == actions(full)
    assert ours.get_default("run") is full.get_default("run")
    assert sorted(command_modules()) == _subcommands()


def test_running_a_command_imports_no_other_command() -> None:
    """In a fresh interpreter, ``hanafuda rules kekoro`` imports its own command module only."""
    code = ("import io, contextlib, sys\nfrom hanafuda.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['rules', 'kekoro']) == 0\n"
            "print(sorted(m for m in sys.modules if m.startswith('hanafuda.commands.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['hanafuda.commands._common', 'hanafuda.commands.rules']", out


@pytest.mark.parametrize("command", _subcommands())
def test_every_subcommand_rejects_an_unknown_option_in_one_line(command: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    required = {"score": ["koikoi", "10"], "referee": ["koikoi", "-e", "true"]}
    code = main([command, *required.get(command, ["koikoi"]), "--no-such-option"])
    _, err = capsys.readouterr()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "--no-such-option" in err or "required" in err, err


@pytest.mark.parametrize("command", _subcommands())
def test_every_subcommand_is_covered_by_a_bad_input_row(command: str) -> None:
    assert any(r.args[:1] == [command] for r in ROWS.values()), command


@pytest.mark.parametrize("command", _subcommands())
def test_help_shows_defaults_games_and_an_example(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "examples: hanafuda " + command in text
    assert "exit codes: 0 success, 1 a check failed, 2 bad input" in text
    parser = _subparser(command)
    if any(a.metavar == "GAME" for a in parser._actions):
        assert all(k in text for k in GAME_KEYS), text


@pytest.mark.parametrize(("command", "shown"), [
    ("record", ["(default: 1)", "(default: 0)"]),
    ("simulate", ["(default: 100)", "(default: 0)"]),
    ("vectors", ["(default: 5)", "(default: 200)"]),
    ("referee", ["(default: 10)", "(default: 10.0)", "(default: 0)"]),
    ("verify", ["(default: 20261121)"]),
])
def test_help_shows_the_defaults(command: str, shown: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(s in text for s in shown), text


def test_the_games_limit_and_seed_range_are_one_for_all(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("record", "simulate", "referee"):
        extra = ["-e", "true"] if command == "referee" else []
        assert main([command, "koikoi", *extra, "--games", str(MAX_GAMES + 1)]) == 2
        assert f"1 to {MAX_GAMES:,}" in capsys.readouterr().err
        assert main([command, "koikoi", *extra, "--seed", str(MAX_SEED + 1)]) == 2
        assert "0 to 2**64-1" in capsys.readouterr().err


# -- the environment: these need a real process ----------------------------------------------------


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hanafuda", *args], capture_output=True, text=True, check=False)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["record", "koikoi", "--games", "3"], ["rules", "koikoi"],
                                  ["score", "koikoi", "10", "30", "--json"]])
def test_a_full_disk_is_one_line_exit_2(args: list[str]) -> None:
    """#18: ``record koikoi --games 3 > /dev/full``."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "hanafuda", *args], stdout=full, stderr=subprocess.PIPE,
                           text=True, check=False)
    assert p.returncode == 2, p.stderr
    assert p.stderr.splitlines() == ["hanafuda: error: cannot write standard output: No space left on device"]


def test_a_closed_pipe_is_not_an_error() -> None:
    p = subprocess.Popen([sys.executable, "-m", "hanafuda", "record", "koikoi", "--games", "50"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait()
    assert p.returncode == 0 and err == "", err


def test_the_program_prints_mist_island() -> None:
    """Must show: ``hanafuda score kekoro --json -- 120 40 20`` prints Mist Island."""
    p = _run(["score", "kekoro", "--json", "--", "120", "40", "20"])
    assert p.returncode == 0 and p.stderr == ""
    assert json.loads(p.stdout)["yaku"] == [{"id": "mist-island", "points": 30}]
