"""The Hypothesis state machines (:mod:`hanafuda_spec.machines`) on the reference, every game that
exists: random legal play from shuffled and stacked first deals, every invariant after every step."""

from __future__ import annotations

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec.games import GAME_KEYS, spec_for
from hanafuda_spec.machines import DECKS, Stepper, deal_order, machine_for, place, probe_layout, run_machine
from hypothesis import given, settings
from hypothesis import strategies as st


def _available() -> list[str]:
    out = []
    for g in GAME_KEYS:
        try:
            spec_for(g)
        except ModuleNotFoundError:
            continue
        out.append(g)
    return out


GAMES = _available()


@pytest.mark.parametrize("game", GAMES)
def test_state_machine(game: str) -> None:
    machine = machine_for(ReferenceAdapter, game)
    machine.TestCase.settings = settings(machine.TestCase.settings, stateful_step_count=60)
    machine.TestCase().runTest()


def test_deal_order_places_wanted_cards() -> None:
    plan = [("a", 2), ("b", 2), ("a", 1)]
    order = deal_order(plan, {"a": [5, 6, 7]}, [1, 2, 3, 4, 5, 6, 7, 8])
    assert order[:2] == [5, 6] and order[4] == 7 and sorted(order) == [1, 2, 3, 4, 5, 6, 7, 8]


@given(st.data())
def test_koikoi_stacked_decks_deal_lucky_hands_or_table_misdeals(data: st.DataObject) -> None:
    """The stacked decks really deal what they promise: every one ends the first deal at once
    (misdeal, lucky hand, or the dealer capturing a table quad) under the default rules."""
    opts = spec_for("koikoi").resolve()
    deck = data.draw(DECKS["koikoi"](opts))
    st_ = Stepper(ReferenceAdapter(), "koikoi", opts, 1, deck)
    assert st_.start() is None
    ended = st_.adapter.rounds_ended()
    snap = st_.adapter.snapshot()
    # a voided or decided deal is settled at once: the match has moved to a new deal or scored
    assert snap.round >= 1
    assert ended == [] or all(o.reason in ("misdeal", "teyaku", "teyaku-draw") for o in ended)


def test_run_machine_reports_nothing_on_the_reference() -> None:
    assert run_machine(ReferenceAdapter, "koikoi", None, examples=3, steps=40) is None


@pytest.mark.parametrize(("game", "zone", "card"), [("kujuroku", "hand.1", 0), ("kujuroku", "field", 0),
                                                    ("kusurigui", "out.facedown", 111)])
def test_layout_places_the_wanted_card(game: str, zone: str, card: int) -> None:
    """A deal layout learnt through the adapter puts a wanted card where promised: the Oni-fuda in
    a hand or on the field (where the dealer must take it, KJ-DEAL-4), a willow face down."""
    if game not in GAMES:
        pytest.skip(f"{game} is not written yet")
    opts = spec_for(game).resolve()
    adapter = ReferenceAdapter()
    layout = probe_layout(adapter, game, opts, lambda s: s.phase == "play" and 0 not in s.zone("field"))
    deck = place(layout, {zone: [card]}, _deck(game, opts))
    adapter.start(game, opts, 1, deck)
    snap = adapter.snapshot()
    assert card in snap.zone(zone)
    if zone == "field" and game == "kujuroku":
        assert snap.phase == "deal-oni"


def _deck(game: str, opts: dict[str, str]) -> list[int]:
    from hanafuda_spec.games import profile_for

    return sorted(profile_for(game).deck(opts))


@pytest.mark.parametrize("game", ["kujuroku", "kusurigui"])
@given(data=st.data())
@settings(max_examples=10)
def test_layout_decks_are_whole_decks(game: str, data: st.DataObject) -> None:
    if game not in GAMES:
        return
    opts = spec_for(game).resolve()
    machine_for(ReferenceAdapter, game)  # sets the adapter the layouts are learnt with
    deck = data.draw(DECKS[game](opts))
    assert sorted(deck) == _deck(game, opts)
