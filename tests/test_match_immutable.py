"""The immutable match layer: a :class:`~hanafuda.engine.Match` returned earlier is not changed by the ones
applied after it (each match's or state's round is taken by the next action; the one left behind keeps the
one before it and the action, replayed if it is read later), branching from an earlier match gives the
game a fresh start would, and the hand plays read a hexadecimal digit at a time
(:func:`~hanafuda.fishing.plays_of`) are those of :func:`~hanafuda.fishing.card_plays`."""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace
from typing import Any

import pytest
from hanafuda.engine import ACTION_ORDER, Action, GameOverError, IllegalActionError, Match
from hanafuda.fishing import CardIndex, card_plays, plays_of
from hanafuda.games.koikoi import GAME as KOIKOI
from hanafuda.games.kujuroku import INDEX as KJ_INDEX
from hanafuda.registry import available, game
from hanafuda_spec.cards import HANAFUDA
from hanafuda_spec.shuffle import SplitMix64
from hypothesis import given
from hypothesis import strategies as st


def _played(key: str, seed: int, pick: int) -> list[Match[Any, Any]]:
    g = game(key)
    rng = SplitMix64(pick)
    m = Match.start(g, g.rules(), seed)
    out = [m]
    while not m.over and len(out) < 120:
        legal = m.legal_actions()
        m = m.apply(legal[rng.below(len(legal))])
        out.append(m)
    return out


@given(seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_earlier_matches_are_not_changed_by_later_actions(seed: int, pick: int) -> None:
    for g in available():
        ms = _played(g.spec.key, seed, pick)
        # the same game again, each match's snapshot taken at once: the first pass read none of them until now
        again = _played(g.spec.key, seed, pick)
        assert [m.snapshot() for m in again] == [m.snapshot() for m in ms]
        assert [m.state for m in again] == [m.state for m in ms]
        assert [m.legal_actions() for m in again] == [m.legal_actions() for m in ms]


@given(seed=st.integers(0, 2**32), pick=st.integers(0, 2**32), at=st.integers(0, 60))
def test_branching_from_an_earlier_match_is_a_fresh_continuation(seed: int, pick: int, at: int) -> None:
    for g in available():
        ms = _played(g.spec.key, seed, pick)
        i = min(at, len(ms) - 1)
        if ms[i].over:
            continue
        for a in ms[i].legal_actions():  # every continuation of one earlier match, in turn
            fresh = _played(g.spec.key, seed, pick)[i]
            assert ms[i].apply(a).snapshot() == fresh.apply(a).snapshot()
        assert ms[i].snapshot() == _played(g.spec.key, seed, pick)[i].snapshot()


def test_a_read_state_keeps_its_round_and_a_copy_builds_its_own() -> None:
    g = KOIKOI
    m = Match.start(g, g.rules(), 11)
    m2 = m.apply(m.legal_actions()[0])
    state = m2.state
    assert state.table.field_mask  # read: the deferred fields are filled from the round
    assert g.held_round(state) is g.held_round(state)  # the round stays held
    twin = copy.copy(state)
    assert twin == state and g.legal(twin) == g.legal(state)
    assert g.held_round(twin) is not g.held_round(state)  # a copy never shares the round played in place
    assert m2.apply(m2.legal_actions()[-1]).snapshot() == Match.start(g, g.rules(), 11).apply(
        m.legal_actions()[0]).apply(m2.legal_actions()[-1]).snapshot()


@given(st.data())
def test_plays_of_reads_each_digit_as_card_plays_lists_it(data: st.DataObject) -> None:
    indexes: tuple[CardIndex[Any], ...] = (CardIndex(HANAFUDA.cards), KJ_INDEX)
    for index in indexes:
        ids = [c.id for c in index.cards]
        hand = data.draw(st.sets(st.sampled_from(ids), max_size=10))
        field = data.draw(st.sets(st.sampled_from(ids), max_size=12)) - hand
        h, f = index.mask_of(index.by_id[i] for i in hand), index.mask_of(index.by_id[i] for i in field)
        named = data.draw(st.sampled_from([4, 2, 6, 12, 0]))
        for must in (False, True):
            plays, captures = card_plays(index, h, f, named)
            want = captures if must and captures else plays
            if not index.id_order:
                want = sorted(want, key=ACTION_ORDER)
            assert plays_of(index, h, f, must, named) == want


def test_a_match_holding_its_round_refuses_and_accepts_as_game_apply_does() -> None:
    """A match that holds its round (no state built yet) checks an action as ``Game.apply`` does: an
    illegal one names its rule, an equal copy of a legal one is taken, and both leave the match as it was."""
    for g in available():
        m = Match.start(g, g.rules(), 5)
        m = m.apply(m.legal_actions()[0])
        legal = m.legal_actions()
        illegal = next(Action("play", (c,)) for c in range(100) if Action("play", (c,)) not in legal)
        with pytest.raises(IllegalActionError):
            m.apply(illegal)
        copied = Action(legal[-1].kind, legal[-1].cards, legal[-1].label)
        assert copied is not legal[-1]
        assert m.apply(copied).snapshot() == m.apply(legal[-1]).snapshot()
        assert m.legal_actions() == legal


def test_a_match_copied_or_compared_reads_its_state() -> None:
    """Equality, copies and pickles of a match that holds its round see its state, built from the round or,
    once the round has moved on, dealt again and replayed."""
    g = KOIKOI
    ms = _played("koikoi", 3, 4)[:12]
    again = _played("koikoi", 3, 4)[:12]
    for m, twin in zip(reversed(ms), reversed(again), strict=True):
        assert m == twin and copy.copy(m) == m and pickle.loads(pickle.dumps(m)).snapshot() == m.snapshot()
        assert replace(m, rng_state=m.rng_state) == m
    assert g.legal(ms[5].state) == ms[5].legal_actions()


def test_a_copied_match_and_the_last_one_play_as_the_match_holding_its_round() -> None:
    """A copy or an unpickled match holds no round: its ``over``, its legal actions and the match after each of
    them are the original's (through ``Game.apply`` on its state). The last match of a game, which holds the
    final round, is over, offers no action, refuses one as the match being over, and reads as its copy."""
    for g in available():
        rules = g.rules()
        rng = SplitMix64(6)
        m = Match.start(g, rules, 8)
        seen = 0
        while not m.over:
            legal = m.legal_actions()
            if seen % 9 == 0:
                for twin in (copy.copy(m), pickle.loads(pickle.dumps(m))):
                    assert not twin.over and twin.legal_actions() == legal
                    after, want = twin.apply(legal[-1]), m.apply(legal[-1])
                    assert after.snapshot() == want.snapshot() and after.info == want.info
            m = m.apply(legal[rng.below(len(legal))])
            seen += 1
        assert m.info.over and m.legal_actions() == ()
        with pytest.raises(GameOverError, match="match is over"):
            m.apply(Action("play", (1,)))
        assert copy.copy(m) == m and copy.copy(m).over and m.snapshot() == pickle.loads(pickle.dumps(m)).snapshot()
