"""Stacked decks for tests: a deck order that deals chosen cards to chosen places."""

from __future__ import annotations

from collections.abc import Sequence

from hanafuda_spec.cards import Deck


def fill(deck: Deck, fixed: Sequence[int | None]) -> list[int]:
    """Complete ``fixed`` (None = any card) with the remaining cards of ``deck`` in id order."""
    used = {c for c in fixed if c is not None}
    if len(used) != sum(1 for c in fixed if c is not None):
        raise ValueError("a card is placed twice")
    rest = iter(c.id for c in deck.cards if c.id not in used)
    out = [c if c is not None else next(rest) for c in fixed]
    out.extend(rest)
    return out


def koikoi_order(opponent: Sequence[int], field: Sequence[int], dealer: Sequence[int],
                 stock: Sequence[int] = (), packet: int = 4, hand: int = 8) -> list[int]:
    """A Koi-Koi deck order (top first) dealing these cards (padded with others) with packets of
    ``packet`` in the order opponent, table, dealer (KK-DEAL-1)."""
    from hanafuda_spec.cards import HANAFUDA

    want = {"o": hand, "f": 8, "d": hand}
    src = {"o": list(opponent), "f": list(field), "d": list(dealer)}
    for k, v in src.items():
        if len(v) > want[k]:
            raise ValueError(f"too many cards for {k}")
        src[k] = v + [None] * (want[k] - len(v))  # type: ignore[list-item]
    slots: list[int | None] = []
    got = {"o": 0, "f": 0, "d": 0}
    while any(got[k] < want[k] for k in want):
        for k in "ofd":
            n = min(packet, want[k] - got[k])
            slots.extend(src[k][got[k]:got[k] + n])
            got[k] += n
    slots.extend(stock)
    return fill(HANAFUDA, slots)
