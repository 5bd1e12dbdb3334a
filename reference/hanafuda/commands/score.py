"""``hanafuda score GAME CARD...``: the yaku a capture pile forms."""

from __future__ import annotations

import argparse

from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import add_rules_arguments, print_json
from hanafuda.registry import game
from hanafuda.rulebook.yakuview import display_names


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("score", help="score a capture pile", description="Score a capture pile: the yaku it "
                       "forms (after the game's exclusivity rules) and its card points. Cards are ids or "
                       "slugs; '--' ends options. Round-dependent yaku take --option month=N.")
    p.add_argument("game")
    p.add_argument("cards", nargs="*", metavar="CARD")
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    g = game(args.game)
    options = parse_options(args.option)
    month: int | None = None
    if "month" in options:
        raw = options.pop("month")
        if not raw.isdigit() or not 1 <= int(raw) <= 12:
            raise UsageError(f"--option month={raw!r}: a month is 1 to 12")
        month = int(raw)
    rules = g.rules(args.ruleset, options)
    deck = g.deck(rules)
    cards = deck.parse_many(args.cards)
    ps = g.score(rules, cards, month)
    names = dict(g.yaku_names(rules))
    if any(y.id not in names for y in ps.yaku):  # the names the catalogue's yaku data gives
        names = {**display_names(g.spec.key), **names}
    if args.json:
        print_json({
            "game": g.spec.key,
            "cards": [c.id for c in cards],
            "yaku": [{"id": y.id, "points": y.points} for y in ps.yaku],
            "yaku_total": ps.yaku_total,
            "card_points": ps.card_points,
        })
        return 0
    print(f"{g.spec.name}: {len(cards)} card(s)")
    for y in ps.yaku:
        print(f"  {names.get(y.id, y.id):32} {y.points:>4}")
    print(f"  {'yaku total':32} {ps.yaku_total:>4}")
    if ps.card_points is not None:
        print(f"  {'card points':32} {ps.card_points:>4}")
    return 0
