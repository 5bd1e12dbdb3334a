"""Helpers shared by subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", "-r", metavar="R", help="named ruleset (default: the game's default)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", default=[],
                   help="set a rule option (repeatable); see 'hanafuda rules GAME'")


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, sort_keys=False, indent=2)
    sys.stdout.write("\n")
