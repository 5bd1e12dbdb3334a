"""``hanafuda score GAME CARD...``: the yaku a capture pile forms."""

from __future__ import annotations

import argparse

from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import GAMES_HELP, add_command, add_rules_arguments, game_name, print_json
from hanafuda.registry import game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "score", help="score a capture pile",
                    description="Score a capture pile: the yaku it forms (after the game's exclusivity rules) "
                    "and its card points. Cards are ids (month*10 + index, see 'hanafuda cards GAME') or slugs. "
                    "Options may come anywhere; '--' ends them. A round-dependent yaku (Koi-Koi's Cards of the "
                    "Month) takes --option month=N; a rule that looks at the table (Koi-Koi's viewing=weather) "
                    "takes the table's cards with --table.",
                    examples=["hanafuda score koikoi 10 30 80 110 120 --json",
                              "hanafuda score kekoro --json -- 120 40 20",
                              "hanafuda score koikoi 30 31 32 33 -o month=3",
                              "hanafuda score koikoi 30 90 -o viewing=weather --table 110,21"])
    p.add_argument("game", type=game_name, metavar="GAME", help=GAMES_HELP)
    p.add_argument("cards", nargs="+", metavar="CARD", help="the cards of the pile (ids or slugs)")
    add_rules_arguments(p)
    p.add_argument("--table", metavar="CARDS",
                   help="the cards on the table, comma-separated ('none' for an empty table); only for rules "
                   "whose yaku depend on the table")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    g = game(args.game)
    options = parse_options(args.option)
    raw_month = options.pop("month", None)
    rules = g.rules(args.ruleset, options)
    month: int | None = None
    if raw_month is not None:
        if not g.month_matters(rules):
            raise UsageError(f"--option month={raw_month}: {g.spec.name} has no month-dependent yaku under these "
                             "rules" + (" (month_cards is off)" if g.spec.key == "koikoi" else ""))
        if not raw_month.isdigit() or not 1 <= int(raw_month) <= 12:
            raise UsageError(f"--option month={raw_month!r}: a month is 1 to 12")
        month = int(raw_month)
    deck = g.deck(rules)
    cards = deck.parse_many(args.cards)
    if g.table_matters(rules):
        if args.table is None:
            raise UsageError(f"{g.spec.name}: under these rules a yaku depends on the cards on the table "
                             "(viewing=weather): give them with --table CARD,CARD (or --table none)")
        table = [] if args.table.strip().lower() == "none" else deck.parse_many(
            [t.strip() for t in args.table.split(",")])
        if set(table) & set(cards):
            both = sorted(c.id for c in set(table) & set(cards))
            raise UsageError(f"--table: card(s) {', '.join(map(str, both))} cannot be both in the pile and on the "
                             "table")
        ps = g.score_on_table(rules, cards, table, month)
    else:
        if args.table is not None:
            raise UsageError(f"--table: {g.spec.name} scores a pile without looking at the table under these rules "
                             "(only Koi-Koi's viewing=weather does)")
        ps = g.score(rules, cards, month)
    names = g.yaku_names(rules)
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
