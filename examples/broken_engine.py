"""A deliberately broken copy of ``examples/engine.py``, which the referee must catch.

Its bugs (choose with ``--bug NAME``, repeatable; default: all of them):

* ``forget-choice`` – when three or more actions are legal, it forgets to offer the last one;
* ``extra-action`` – it also offers playing a card it does not hold (the first card of the stock);
* ``double-deltas`` – it reports every round's score changes doubled;
* ``yaku-value`` – it scores one yaku (``--yaku ID``, default ``flower-viewing``) one point higher,
  in its round results (the side holding it gains that point) and in its pile scores.
"""

from __future__ import annotations

import sys
from typing import Any

sys.path.insert(0, __file__.rsplit("/", 1)[0])

from engine import Engine, main

BUGS = ("forget-choice", "extra-action", "double-deltas", "yaku-value")


class BrokenEngine(Engine):
    def __init__(self, bugs: tuple[str, ...], yaku: str = "flower-viewing") -> None:
        super().__init__()
        self.bugs = bugs
        self.yaku = yaku

    def bump(self, side: list[dict[str, Any]]) -> bool:
        """The wrong value of one yaku: one point more. Whether the side holds it."""
        held = False
        for y in side:
            if y["id"] == self.yaku:
                y["points"] += 1
                held = True
        return held

    def legal(self) -> list[str]:
        acts = super().legal()
        if "forget-choice" in self.bugs and len(acts) >= 3:
            acts = acts[:-1]
        if "extra-action" in self.bugs and acts and any(a.startswith("play") for a in acts):
            stock = self.adapter.snapshot().zone("stock")
            if stock:
                acts = sorted([*acts, f"play {stock[0]}"])
        return acts

    def rounds_ended(self) -> list[dict[str, Any]]:
        out = super().rounds_ended()
        if "double-deltas" in self.bugs:
            for r in out:
                r["deltas"] = [2 * d for d in r["deltas"]]
        if "yaku-value" in self.bugs:
            for r in out:
                for seat, side in enumerate(r["yaku"]):
                    if self.bump(side) and r["deltas"][seat] > 0:
                        r["deltas"][seat] += 1
        return out

    def score(self, msg: dict[str, Any]) -> dict[str, Any]:
        reply = super().score(msg)
        if "yaku-value" in self.bugs:
            self.bump(reply["yaku"])
        return reply


def _yaku(argv: list[str]) -> str:
    return next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--yaku"), "flower-viewing")


def _bugs(argv: list[str]) -> tuple[str, ...]:
    chosen = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--bug"]
    for b in chosen:
        if b not in BUGS:
            raise SystemExit(f"broken_engine: unknown bug {b!r} (known: {', '.join(BUGS)})")
    return tuple(chosen) or BUGS


if __name__ == "__main__":
    raise SystemExit(main(BrokenEngine(_bugs(sys.argv[1:]), _yaku(sys.argv[1:]))))
