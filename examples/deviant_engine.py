"""A deliberately wrong Koi-Koi engine that writes game records: the worked example of
``hanafuda diagnose`` (docs/validating.md, "Debugging an engine").

It plays random legal games with three mistakes at once, each one a real engine's kind of slip:

* ``sake-not-chaff`` – its Chaff yaku forgets that the Sake Cup also counts as a Chaff (KK-YAKU-15);
* ``bottom-draw`` – it draws from the bottom of the deck order instead of the top (KK-DEAL-1);
* ``alternate-dealer`` – it passes the deal after every round, instead of to the round's winner (KK-END-3).

Choose with ``--bug NAME`` (repeatable; default: all three). It is built on the reference's turn, with its
rules object answering three of the rule hooks wrongly: the records are what an engine with these bugs
writes, which validation then rejects round by round.

    python examples/deviant_engine.py -n 100 > wrong.jsonl
    hanafuda validate wrong.jsonl          # invalid
    hanafuda diagnose koikoi wrong.jsonl   # the three bugs, with counts
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from hanafuda.games.koikoi import KoiKoi, KoiKoiRules, scorer_of_table
from hanafuda.records import record_match
from hanafuda_spec.games import koikoi as spec
from hanafuda_spec.yaku import ScoredYaku

BUGS = ("sake-not-chaff", "bottom-draw", "alternate-dealer")


@dataclass(frozen=True)
class WrongRules(KoiKoiRules):
    """The reference's rules with this engine's mistakes."""

    bugs: tuple[str, ...] = BUGS

    def scorer(self, month: int | None, sake: str | None,
               called: bool = False) -> Callable[[int], tuple[ScoredYaku, ...]]:
        if "sake-not-chaff" not in self.bugs:
            return super().scorer(month, sake, called)
        table = tuple(replace(y, pool=y.pool - {spec.SAKE}, extra_pool=y.extra_pool - {spec.SAKE})
                      if y.id == "chaff" else y for y in spec.yaku_table(self.opt, month, sake, called))
        return scorer_of_table(table)

    def stock_order(self, order: Sequence[int]) -> Sequence[int]:
        stock = super().stock_order(order)
        return stock[::-1] if "bottom-draw" in self.bugs else stock

    def next_dealer(self, dealer: int, winner: int | None) -> int:
        return 1 - dealer if "alternate-dealer" in self.bugs else super().next_dealer(dealer, winner)


class WrongKoiKoi(KoiKoi):
    """Koi-Koi played with :class:`WrongRules`."""

    def __init__(self, bugs: tuple[str, ...]) -> None:
        super().__init__()
        self.bugs = bugs

    def make_rules(self, values: object) -> KoiKoiRules:
        return WrongRules(tuple(sorted(dict(values).items())), self.bugs)  # type: ignore[call-overload]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", "--games", type=int, default=20, help="games to play")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game")
    p.add_argument("--bug", action="append", choices=BUGS, help="a mistake to make (default: all)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option")
    args = p.parse_args(argv)
    g = WrongKoiKoi(tuple(args.bug or BUGS))
    options = dict(o.split("=", 1) for o in args.option)
    for k in range(args.games):
        seed = args.seed + k
        print(json.dumps(record_match(g, None, options, seed=seed, policy_seed=seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
