"""``hanafuda score GAME CARD...``: the yaku a capture pile forms."""

from __future__ import annotations

import argparse

import hanafuda
from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import GAMES_HELP, add_command, add_rules_arguments, game_name, print_json
from hanafuda.registry import game
from hanafuda.rulebook.yakuview import display_names


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
    month: int | None = None
    if raw_month is not None:
        if not (raw_month.isdigit() and raw_month.isascii() and len(raw_month) <= 2):
            raise UsageError(f"--option month={raw_month!r}: a month is 1 to 12")
        month = int(raw_month)
    table: list[str] | None = None
    if args.table is not None:
        table = [] if args.table.strip().lower() == "none" else [t.strip() for t in args.table.split(",")]
    rules = g.rules(args.ruleset, options)
    try:
        ps = hanafuda.score(g, args.cards, ruleset=args.ruleset, options=options, month=month, table=table)
    except hanafuda.ScoringError as e:
        flag = f"--option month={raw_month}" if e.argument == "month" else "--table"
        if e.argument == "table" and table is None:
            raise UsageError(f"{flag}: {g.spec.name}: under these rules a yaku depends on the cards on the table "
                             "(viewing=weather): give them with --table CARD,CARD (or --table none)") from None
        raise UsageError(f"{flag}: {e}") from None
    cards = g.deck(rules).parse_many(args.cards)
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
