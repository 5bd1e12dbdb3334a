"""Cards, decks and the documented shuffle."""

from __future__ import annotations

from collections import Counter

import pytest
from hanafuda_spec.cards import DAINI, DAINI_JIZO, HANAFUDA, KUSURIGUI, Card, Kind, UnknownCardError, card
from hanafuda_spec.shuffle import SHUFFLE_VECTORS, SplitMix64, shuffled
from hypothesis import given
from hypothesis import strategies as st


def test_hanafuda_deck_counts() -> None:
    kinds = Counter(c.kind for c in HANAFUDA.cards if isinstance(c, Card))
    assert kinds == {Kind.BRIGHT: 5, Kind.ANIMAL: 9, Kind.RIBBON: 10, Kind.CHAFF: 24}
    assert all(len([c for c in HANAFUDA.cards if c.suit == m]) == 4 for m in range(1, 13))


def test_ids_are_month_times_ten_plus_index() -> None:
    for c in HANAFUDA.cards:
        assert isinstance(c, Card)
        assert divmod(c.id, 10) == (c.month, c.index)
    assert sorted(c.bit for c in HANAFUDA.cards) == list(range(48))


def test_kusurigui_deck_drops_clover_and_maple_chaff() -> None:
    assert len(KUSURIGUI) == 44
    assert {c.id for c in HANAFUDA.cards} - {c.id for c in KUSURIGUI.cards} == {72, 73, 102, 103}


def test_daini_decks() -> None:
    assert len(DAINI) == 41 and len(DAINI_JIZO) == 42
    assert DAINI.parse("oni").id == 0 and DAINI_JIZO.parse("jizo").id == 1
    with pytest.raises(UnknownCardError):
        DAINI.parse("jizo")
    assert Counter(c.suit for c in DAINI.cards if c.suit) == dict.fromkeys(range(1, 11), 4)


@pytest.mark.parametrize("text", ["999", "pine", "", "10x", "-10"])
def test_unknown_cards_are_rejected(text: str) -> None:
    with pytest.raises(UnknownCardError):
        HANAFUDA.parse(text)


def test_parse_by_slug_and_id_agree() -> None:
    for c in HANAFUDA.cards:
        assert HANAFUDA.parse(c.slug) is HANAFUDA.parse(str(c.id))
    assert card("willow_lightning").id == 113


def test_duplicate_cards_rejected() -> None:
    with pytest.raises(UnknownCardError, match="twice"):
        HANAFUDA.parse_many(["10", "pine_crane"])


def test_splitmix64_reference_values() -> None:
    # First outputs of SplitMix64 seeded with 0, as published with the algorithm.
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize(("deck_name", "seed"), sorted(SHUFFLE_VECTORS))
def test_shuffle_vectors(deck_name: str, seed: int) -> None:
    from hanafuda_spec.cards import DECKS

    got = tuple(c.id for c in shuffled(DECKS[deck_name].cards, SplitMix64(seed)))
    assert got == SHUFFLE_VECTORS[(deck_name, seed)]


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=1000))
def test_below_is_in_range(seed: int, n: int) -> None:
    assert 0 <= SplitMix64(seed).below(n) < n


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_shuffle_is_a_permutation(seed: int) -> None:
    assert sorted(shuffled(HANAFUDA.cards, SplitMix64(seed))) == list(HANAFUDA.cards)
