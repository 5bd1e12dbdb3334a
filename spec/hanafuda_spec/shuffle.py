"""The documented seeded shuffle, so that any implementation can reproduce our deals.

Generator: **SplitMix64** (Steele, Lea and Flood, 2014) over unsigned 64-bit integers.
The state starts at ``seed mod 2**64``. Each call adds the golden-ratio increment
``0x9E3779B97F4A7C15`` to the state (mod 2**64) and returns the mixed value::

    z = state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9   (mod 2**64)
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB   (mod 2**64)
    return z ^ (z >> 31)

Bounded integers (``below(n)``, uniform in ``0 .. n-1``) use rejection so that every value
is equally likely: with ``limit = 2**64 - (2**64 mod n)``, draw ``x`` until ``x < limit``
and return ``x mod n``.

Shuffle: the deck starts in canonical order (ascending card id). Fisher–Yates runs from
the end: for ``i`` from ``len(deck) - 1`` down to ``1``, ``j = below(i + 1)`` and the cards
at positions ``i`` and ``j`` are swapped. Position 0 of the result is the **top** of the
deck, the first card dealt.

A match uses one generator for all its rounds: round *k* (counting misdeals, which are
reshuffled) shuffles the canonical deck again with the generator as the previous shuffle
left it.

Test vectors (also in ``SHUFFLE_VECTORS`` and checked by the test suite):

>>> rng = SplitMix64(0)
>>> hex(rng.next())
'0xe220a8397b1dcdaf'
>>> shuffle_ids(list(range(10)), SplitMix64(1))
[4, 2, 8, 1, 9, 3, 0, 6, 7, 5]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

__all__ = ["SHUFFLE_VECTORS", "SplitMix64", "shuffle_ids", "shuffled"]

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


class SplitMix64:
    """The SplitMix64 generator (documented above); the only randomness the reference uses."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GOLDEN) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` by rejection sampling."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly (``items[below(len(items))]``)."""
        return items[self.below(len(items))]


def shuffled(items: Sequence[T], rng: SplitMix64) -> list[T]:
    """A Fisher–Yates shuffle of ``items`` (taken as the canonical order)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffle_ids(ids: list[int], rng: SplitMix64) -> list[int]:
    """``shuffled`` for plain integers (the form the test vectors use)."""
    return shuffled(ids, rng)


#: (deck name, seed) -> the first shuffle of that deck, top first. Regenerate only deliberately.
SHUFFLE_VECTORS: dict[tuple[str, int], tuple[int, ...]] = {
    ("hanafuda", 0): (
        13,
        30,
        71,
        20,
        80,
        91,
        21,
        12,
        93,
        102,
        120,
        111,
        112,
        51,
        63,
        10,
        110,
        41,
        62,
        52,
        90,
        22,
        60,
        82,
        32,
        42,
        70,
        103,
        101,
        40,
        100,
        61,
        50,
        113,
        11,
        121,
        31,
        43,
        72,
        53,
        123,
        81,
        33,
        23,
        92,
        122,
        73,
        83,
    ),
    ("hanafuda", 1): (
        31,
        103,
        20,
        93,
        72,
        32,
        123,
        40,
        23,
        82,
        91,
        111,
        22,
        70,
        80,
        41,
        12,
        50,
        30,
        110,
        92,
        21,
        63,
        101,
        71,
        122,
        112,
        113,
        53,
        42,
        52,
        13,
        90,
        121,
        73,
        120,
        11,
        43,
        83,
        10,
        33,
        61,
        102,
        81,
        60,
        62,
        100,
        51,
    ),
    ("hanafuda", 42): (
        63,
        10,
        72,
        121,
        80,
        120,
        50,
        113,
        122,
        70,
        81,
        52,
        22,
        93,
        43,
        41,
        53,
        23,
        102,
        111,
        32,
        11,
        51,
        30,
        20,
        33,
        62,
        100,
        92,
        112,
        40,
        61,
        103,
        60,
        71,
        42,
        91,
        13,
        90,
        110,
        21,
        123,
        73,
        12,
        31,
        82,
        83,
        101,
    ),
    ("kusurigui", 0): (
        30,
        70,
        83,
        50,
        123,
        40,
        53,
        110,
        92,
        52,
        60,
        10,
        80,
        122,
        41,
        22,
        61,
        62,
        82,
        11,
        90,
        12,
        42,
        43,
        31,
        20,
        93,
        121,
        32,
        51,
        23,
        120,
        91,
        100,
        21,
        101,
        112,
        71,
        13,
        81,
        113,
        111,
        33,
        63,
    ),
    ("kusurigui", 7): (
        80,
        110,
        60,
        41,
        92,
        71,
        62,
        50,
        13,
        11,
        30,
        81,
        12,
        20,
        52,
        93,
        33,
        112,
        122,
        70,
        32,
        21,
        120,
        23,
        83,
        31,
        123,
        53,
        61,
        111,
        40,
        42,
        91,
        63,
        121,
        51,
        43,
        113,
        22,
        100,
        90,
        10,
        82,
        101,
    ),
    ("daini", 0): (
        92,
        50,
        40,
        30,
        12,
        83,
        60,
        61,
        82,
        80,
        103,
        73,
        22,
        11,
        20,
        71,
        72,
        100,
        63,
        101,
        33,
        91,
        52,
        41,
        0,
        70,
        32,
        42,
        90,
        43,
        51,
        21,
        102,
        31,
        23,
        81,
        93,
        13,
        10,
        53,
        62,
    ),
    ("daini", 7): (
        41,
        22,
        71,
        50,
        100,
        103,
        53,
        72,
        42,
        0,
        31,
        20,
        70,
        12,
        92,
        52,
        33,
        93,
        73,
        82,
        80,
        21,
        23,
        62,
        91,
        61,
        51,
        63,
        102,
        43,
        10,
        101,
        11,
        83,
        90,
        60,
        81,
        32,
        30,
        13,
        40,
    ),
    ("daini-jizo", 0): (
        1,
        61,
        92,
        103,
        60,
        30,
        70,
        31,
        20,
        42,
        53,
        40,
        72,
        22,
        21,
        0,
        12,
        52,
        91,
        50,
        82,
        51,
        90,
        32,
        10,
        43,
        100,
        81,
        71,
        11,
        62,
        23,
        102,
        41,
        80,
        13,
        83,
        33,
        63,
        101,
        73,
        93,
    ),
    ("daini-jizo", 7): (
        102,
        41,
        91,
        101,
        81,
        43,
        71,
        32,
        73,
        52,
        92,
        12,
        1,
        61,
        103,
        30,
        51,
        60,
        82,
        33,
        72,
        11,
        40,
        80,
        42,
        13,
        100,
        50,
        10,
        0,
        83,
        31,
        22,
        63,
        21,
        90,
        62,
        20,
        53,
        70,
        93,
        23,
    ),
}
