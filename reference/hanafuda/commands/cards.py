"""``hanafuda cards [GAME]``: the deck as a table."""

from __future__ import annotations

import argparse

from hanafuda_spec.cards import HANAFUDA, Card, DainiCard

from hanafuda.commands._common import GAMES_HELP, add_command, add_rules_arguments, game_name, print_json
from hanafuda.registry import game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "cards", help="show a game's deck (default: the 48 hanafuda cards)",
                    description="Show a deck as a table: every card's id, slug, month or rank, kind and names. "
                    "Without GAME, the 48 hanafuda cards; with GAME, the deck that game plays with under the "
                    "given rules (Kujuroku: the Daini deck).",
                    examples=["hanafuda cards", "hanafuda cards kujuroku", "hanafuda cards kujuroku -o jizo=on --json"])
    p.add_argument("game", nargs="?", type=game_name, metavar="GAME",
                   help=GAMES_HELP + "; default: the 48 hanafuda cards")
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from hanafuda.cli import parse_options

    if args.game is not None:
        g = game(args.game)
        deck = g.deck(g.rules(args.ruleset, parse_options(args.option)))
    else:
        deck = HANAFUDA
    rows = []
    for c in deck.cards:
        if isinstance(c, Card):
            rows.append({"id": c.id, "slug": c.slug, "month": c.month, "kind": c.kind.value,
                         "ribbon": c.ribbon.value if c.ribbon else None, "name": c.name_en, "name_ja": c.name_ja})
        elif isinstance(c, DainiCard):
            rows.append({"id": c.id, "slug": c.slug, "rank": c.rank, "special": c.special, "name": c.name_en,
                         "name_ja": c.name_ja})
    if args.json:
        print_json({"deck": deck.name, "size": len(deck), "cards": rows})
        return 0
    print(f"{deck.name} deck, {len(deck)} cards")
    cols = [k for k in rows[0] if k != "name_ja"] + ["name_ja"]
    widths = {k: max(len(k), *(len(str(r[k]) if r[k] is not None else "-") for r in rows)) for k in cols}
    print("  ".join(k.ljust(widths[k]) for k in cols).rstrip())
    for r in rows:
        print("  ".join(str(r[k] if r[k] is not None else "-").ljust(widths[k]) for k in cols).rstrip())
    return 0
