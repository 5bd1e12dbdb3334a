"""The shared fishing turn's promises that no game test pins down on its own."""

from __future__ import annotations

import pytest
from hanafuda.fishing import CardIndex, Table, match_mask, matches, resolve
from hanafuda_spec.cards import DAINI_JIZO


def test_jokers_match_nothing_and_nothing_matches_them() -> None:
    """``match_mask``: a card of suit 0 (the Oni-fuda, the Jizo-fuda) matches no field card, not even
    the other joker; a numbered card matches only its own number, never a joker."""
    idx = CardIndex(DAINI_JIZO.cards)
    by = idx.by_id
    field = [by[0], by[1], by[41], by[20]]
    t = Table.deal(idx, [[by[40]], []], field, [])
    assert idx.suit_mask(0) == 0
    for joker in (by[0], by[1]):
        assert match_mask(t, joker) == 0
        assert matches(list(field), joker) == ()
    assert idx.cards_of(match_mask(t, by[40])) == (by[41],)
    assert idx.cards_of(match_mask(t, by[21])) == (by[20],)
    assert matches(list(field), by[40]) == (by[41],)
    # the same promise from the index's tables and from resolve (a drawn joker against a field mask)
    every = sum(c.mask for c in idx.cards)
    for joker in (by[0], by[1]):
        assert idx.suit_of[joker.mask] == 0
        rest = every & ~joker.mask
        assert resolve(idx, rest, joker, None) == (rest | joker.mask, 0)  # laid on the field, nothing taken


def test_a_card_index_refuses_repeated_cards() -> None:
    """Two cards with one id (or one bit) cannot be told apart in a mask: the index refuses them."""
    with pytest.raises(ValueError, match="distinct ids and bits"):
        CardIndex([*DAINI_JIZO.cards, DAINI_JIZO.cards[0]])
