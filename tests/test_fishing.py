"""The shared fishing turn's promises that no game test pins down on its own."""

from __future__ import annotations

from hanafuda.fishing import CardIndex, Table, match_mask, matches
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
