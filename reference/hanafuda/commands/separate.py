"""``hanafuda separate GAME --a RULES --b RULES``: the shortest record found that tells two rule choices apart."""

from __future__ import annotations

import argparse
import json
from typing import Any

from hanafuda_spec.catalogue import OptionError

from hanafuda.commands._common import (
    GAMES_HELP,
    UsageError,
    add_command,
    count,
    game_name,
    print_json,
    write_atomic,
)
from hanafuda.separate import (
    Outcome,
    RuleChoice,
    Separation,
    better,
    recheck,
    refresh_explained,
    separate,
    settled,
    suite_entry,
    suite_key,
    suite_pairs,
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "separate", help="find a short record valid under one rules and invalid under another",
                    description="Play rules A and rules B side by side from the same deals and stop where they "
                    "part: a deal one cannot take or ends otherwise, an action legal under one only, a round "
                    "scored differently. Prints, each way, the shortest record found (format 1.1, every deal "
                    "given as zones) that validates under one and fails under the other, with the rule ids the "
                    "validator names, the actions it takes and how far it is known to be the shortest. When "
                    "the two resolve to the same option values, says so without searching; when nothing is "
                    "found within the bound, says so. RULES is a ruleset name and/or KEY=VALUE options, "
                    "separated by commas or spaces (nintendo; nintendo,packets=4; hand_size=10). With --suite, "
                    "writes the game's separating suite instead: every pair of values of every option.",
                    examples=["hanafuda separate koikoi --a nintendo --b fudawiki",
                              "hanafuda separate koikoi --a five_brights=10 --b five_brights=15 --out r.jsonl",
                              "hanafuda separate kekoro --a fudawiki --b kusaba --json",
                              "hanafuda separate musashino --suite --out musashino.jsonl",
                              "hanafuda separate kekoro --suite --update --out kekoro.jsonl"],
                    notes="--out writes JSON Lines, one record each way: its 'rules' are the rules it validates "
                    "under, its 'meta.fails_under' the rules ({ruleset, options}) under which it fails, "
                    "'meta.rule_ids' the rule ids the validator names there. Minimality: 'proved' for a record "
                    "of no action; 'shortest over the deals searched exhaustively' when every shorter action "
                    "sequence from the searched deals was tried; 'shortest from its deal'; or 'smallest found'.")
    p.add_argument("game", metavar="GAME", type=game_name, help=GAMES_HELP)
    p.add_argument("--a", dest="rules_a", metavar="RULES", default=None, help="the first rules (needed unless "
                   "--suite)")
    p.add_argument("--b", dest="rules_b", metavar="RULES", default=None, help="the second rules (needed unless "
                   "--suite)")
    p.add_argument("--out", "-O", metavar="FILE", default=None, help="write the records as JSON Lines")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--bound", type=count(0, 500, "a number of actions"), default=60, metavar="N",
                   help="the most actions a record may have, 0 to 500")
    p.add_argument("--suite", action="store_true", help="every pair of values of every option of GAME (the "
                   "separating suite that 'hanafuda vectors' ships): written to --out")
    p.add_argument("--update", action="store_true", help="with --suite: keep the pairs the --out file already "
                   "settles (separated both ways, or explained; each record checked again and its rule ids "
                   "named afresh) and search again only the others")
    p.set_defaults(run=run)


def _read_suite(path: str) -> dict[tuple[str, str, str, str], dict[str, Any]]:
    """The entries of an existing suite file, by pair (for --update); a one-line error if it is not one."""
    out: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    e = json.loads(line)
                    x, y = e["values"]
                    if not isinstance(e["status"], str) or not isinstance(e.get("context") or {}, dict):
                        raise TypeError
                    out[suite_key(str(e["option"]), str(x), str(y), e.get("context") or {})] = e
                except (ValueError, KeyError, TypeError, RecursionError):
                    raise UsageError(f"--out {path}: line {n} is not an entry of a separating suite") from None
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError:
        raise UsageError(f"--out {path}: not UTF-8") from None
    return out


def parse_rules(g: Any, text: str | None, which: str) -> RuleChoice:
    """``RULES``: a ruleset name and/or ``KEY=VALUE`` options, separated by commas or spaces; checked
    against the game's catalogue (a one-line :class:`~hanafuda.errors.UsageError` otherwise)."""
    if text is None:
        return RuleChoice()
    ruleset: str | None = None
    options: dict[str, str] = {}
    for part in text.replace(",", " ").split():
        key, sep, value = part.partition("=")
        if sep:
            if not key or key in options:
                raise UsageError(f"--{which} {text!r}: {'an empty option name' if not key else f'{key} given twice'}")
            options[key] = value
        elif ruleset is not None:
            raise UsageError(f"--{which} {text!r}: two rulesets ({ruleset!r} and {part!r})")
        else:
            ruleset = part
    if ruleset is None and not options:
        raise UsageError(f"--{which}: no ruleset or option given")
    choice = RuleChoice(ruleset, tuple(options.items()))
    try:
        choice.values(g)
    except OptionError as e:
        raise UsageError(f"--{which}: {e}") from None
    return choice


def run(args: argparse.Namespace) -> int:
    from hanafuda.registry import game

    g = game(args.game)
    if args.update and not args.suite:
        raise UsageError("--update goes with --suite")
    if args.suite:
        if args.out is None:
            raise UsageError("--suite needs --out FILE")
        old = _read_suite(args.out) if args.update else {}
        entries = []
        for pair in suite_pairs(g):
            before = old.get(suite_key(pair[0], pair[1], pair[2], dict(pair[3])))
            kept = refresh_explained(before) if before is not None and settled(before) else None
            kept = recheck(g, kept) if kept is not None else None
            entries.append(kept if kept is not None else better(before, suite_entry(g, *pair)))
        lines = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in entries]
        write_atomic(args.out, "".join(line + "\n" for line in lines), "--out")
        print(f"wrote {len(lines)} vectors to {args.out}")
        return 0
    a = parse_rules(g, args.rules_a, "a")
    b = parse_rules(g, args.rules_b, "b")
    if args.rules_a is None or args.rules_b is None:  # comparing the default with itself answers nothing
        missing = " and ".join(f"--{w}" for w, v in (("a", args.rules_a), ("b", args.rules_b)) if v is None)
        raise UsageError(f"separate needs both --a RULES and --b RULES (missing: {missing}), or --suite")
    got = separate(g, a, b, bound=args.bound)
    if args.out is not None:
        recs = [s.record for s in (got.a_not_b, got.b_not_a) if s is not None]
        write_atomic(args.out, "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                                       for r in recs), "--out")
    if args.json:
        print_json(got.to_json(g))
    else:
        _print(g, got)
    return 0


def _print(g: Any, got: Outcome) -> None:
    a, b = got.a.text(g), got.b.text(g)
    print(f"{g.spec.key}: A = {a}; B = {b}")
    for k, va, vb, ids in got.differing:
        print(f"  differ: {k}: {va} / {vb}" + (f" [{', '.join(ids)}]" if ids else ""))
    if got.equivalent is not None:
        print(f"equivalent: {got.equivalent}")
        return
    impossible = dict(got.impossible)
    for name, way, good, bad, sep in (("A, not B", "a_not_b", a, b, got.a_not_b),
                                      ("B, not A", "b_not_a", b, a, got.b_not_a)):
        print(f"{name}: none can exist: {impossible[way]}" if way in impossible else
              _line(name, good, bad, sep, got.bound))
    print(f"searched: {got.searched}")


def _line(name: str, good: str, bad: str, sep: Separation | None, bound: int) -> str:
    if sep is None:
        return f"{name}: none found within {bound} actions"
    return (f"{name}: a record of {sep.actions} action(s) ({sep.minimal}; deal: {sep.how}) validates under "
            f"{good} and fails under {bad}: [{', '.join(sep.rule_ids)}] {sep.reason}")
