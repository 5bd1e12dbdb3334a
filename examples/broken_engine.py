"""A deliberately broken copy of ``examples/engine.py``, which the referee must catch.

Its bugs (choose with ``--bug NAME``, repeatable; default: all of them):

* ``forget-choice`` – when three or more actions are legal, it forgets to offer the last one;
* ``extra-action`` – it also offers playing a card it does not hold (the first card of the stock);
* ``double-deltas`` – it reports every round's score changes doubled.
"""

from __future__ import annotations

import sys
from typing import Any

sys.path.insert(0, __file__.rsplit("/", 1)[0])

from engine import Engine, main

BUGS = ("forget-choice", "extra-action", "double-deltas")


class BrokenEngine(Engine):
    def __init__(self, bugs: tuple[str, ...]) -> None:
        super().__init__()
        self.bugs = bugs

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
        return out


def _bugs(argv: list[str]) -> tuple[str, ...]:
    chosen = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--bug"]
    for b in chosen:
        if b not in BUGS:
            raise SystemExit(f"broken_engine: unknown bug {b!r} (known: {', '.join(BUGS)})")
    return tuple(chosen) or BUGS


if __name__ == "__main__":
    raise SystemExit(main(BrokenEngine(_bugs(sys.argv[1:]))))
