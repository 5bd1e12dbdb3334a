"""Kujuroku: one test per rule id (KJ-…), stacked decks for every Oni and Jizo case, random play,
and the remaining-card predicate checked on random rounds and on an exhaustive one-rank model."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

import pytest
from hanafuda.adapter import ReferenceAdapter, start_from_deck
from hanafuda.cli import main
from hanafuda.engine import Action, IllegalActionError, Match, RoundSetup, evolve
from hanafuda.fishing import Table
from hanafuda.games.kujuroku import GAME, INDEX, KujurokuState, Phase
from hanafuda.simulate import simulate
from hanafuda_spec.cards import DAINI, DAINI_JIZO, DainiCard
from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.games import kujuroku as kj
from hanafuda_spec.games.kujuroku import JIZO, ONI, PROFILE, SPEC
from hanafuda_spec.invariants import run_random
from hanafuda_spec.shuffle import SplitMix64, shuffled
from hypothesis import given
from hypothesis import strategies as st

CARDS: dict[int, DainiCard] = {c.id: c for c in DAINI_JIZO.cards if isinstance(c, DainiCard)}


def ids(cards: Iterable[DainiCard]) -> list[int]:
    return [c.id for c in cards]


def order(second: Sequence[int] = (), third: Sequence[int] = (), dealer: Sequence[int] = (),
          field: Sequence[int] = (), stock: Sequence[int] = (), jizo: bool = False) -> list[int]:
    """A stacked deck (top first) dealing these cards by the attested plan (KJ-DEAL-2); the gaps are
    filled with the other numbered cards, one of each number in turn, and the jokers go to the bottom
    of the draw pile unless placed."""
    deck = DAINI_JIZO if jizo else DAINI
    want = {"2nd": list(second), "3rd": list(third), "dealer": list(dealer), "field": list(field)}
    placed = [*second, *third, *dealer, *field, *stock]
    if len(set(placed)) != len(placed):
        raise ValueError("a card is placed twice")
    rest = sorted((c.id for c in deck.cards if c.id not in placed), key=lambda i: (i < 10, i % 10, i // 10))
    pool = iter(rest)
    slots: list[int] = []
    got = dict.fromkeys(want, 0)
    for who, n in kj.DEAL_PLAN:
        for _ in range(n):
            mine = want[who]
            slots.append(mine[got[who]] if got[who] < len(mine) else next(pool))
            got[who] += 1
    slots.extend(stock)
    slots.extend(pool)
    return slots


def deal(deck: list[int], first_dealer: int = 0, **opts: str) -> Match[KujurokuState, object]:
    return start_from_deck(GAME, GAME.rules(None, opts), deck, first_dealer, seed=5)


def state(hands: Mapping[int, Sequence[int]], field: Sequence[int], stock: Sequence[int] = (),
          captured: Mapping[int, Sequence[int]] | None = None, turn: int = 0, dealer: int = 0,
          captive: int | None = None, **opts: str) -> KujurokuState:
    """A position built directly (no conservation needed) for the rare cases."""
    r = GAME.rules(None, opts)
    seats = r.seats
    caps = captured or {}
    t = Table.deal(INDEX, [[CARDS[i] for i in hands.get(s, ())] for s in range(seats)], [CARDS[i] for i in field],
                   [CARDS[i] for i in stock], [[CARDS[i] for i in caps.get(s, ())] for s in range(seats)])
    setup = RoundSetup(1, dealer, tuple((dealer + i) % seats for i in range(3)), (30,) * seats)
    s = KujurokuState(r, setup, t, Phase.PLAY, turn)
    return evolve(s, captive=CARDS[captive]) if captive is not None else s


def act(s: KujurokuState, text: str) -> KujurokuState:
    return GAME.apply(s, Action.parse(text))


def legal(s: KujurokuState) -> list[str]:
    return [str(a) for a in GAME.legal_actions(s)]


def play_out(m: Match[KujurokuState, object]) -> Match[KujurokuState, object]:
    """Finish the current round with the first legal action each time."""
    rounds = len(m.info.history)
    while len(m.info.history) == rounds and not m.over:
        m = m.apply(m.legal_actions()[0])
    return m


# -- equipment and the deal ------------------------------------------------------------------------

def test_KJ_EQ_1_and_2_deck_sizes() -> None:
    assert len(GAME.deck(GAME.rules())) == 41
    assert len(GAME.deck(GAME.rules(None, {"jizo": "on"}))) == 42


def test_KJ_EQ_4_thirty_chips_each() -> None:
    assert GAME.new_match(GAME.rules()).scores == (30, 30, 30, 30)
    assert GAME.new_match(GAME.rules(None, {"players": "3"})).scores == (30, 30, 30)


def test_KJ_DEAL_2_attested_dealing_order() -> None:
    deck = [c.id for c in shuffled(DAINI.cards, SplitMix64(3))]
    s = GAME.start_round(GAME.rules(), [CARDS[i] for i in deck], RoundSetup(1, 2, (2, 3, 0), (30,) * 4))
    t = s.table
    # Dealer 2: the 2nd player is seat 3, the 3rd seat 0; seat 1 sits out.
    assert ids(t.hands[3]) == sorted(deck[0:3] + deck[12:15])
    assert ids(t.hands[0]) == sorted(deck[3:6] + deck[15:18])
    assert ids(t.hands[2]) == sorted(deck[6:9] + deck[18:21])
    assert t.hands[1] == ()
    dealt_field = set(deck[9:12] + deck[21:24])
    assert set(ids(t.field)) | set(ids(t.captured[2])) == dealt_field
    assert ids(t.stock) == deck[24:] and len(t.stock) == 17


def test_KJ_DEAL_2_jizo_deck_leaves_eighteen_to_draw() -> None:
    m = deal(order(field=[20, 31, 52, 63, 72, 83], jizo=True), jizo="on")
    assert len(m.state.table.stock) == 18 == kj.stock_size(True)


def test_KJ_DEAL_3_four_of_a_number_on_the_field_is_a_misdeal_checked_first() -> None:
    m = deal(order(field=[50, 51, 52, 53, ONI, 60]))
    r = m.info.history[0]
    assert r.reason == "misdeal" and not r.counts and r.deltas == (0, 0, 0, 0)
    assert m.info.dealer == 0 and m.info.rounds_played == 0
    assert m.state.phase is not Phase.OVER  # dealt again by the same dealer


def test_KJ_DEAL_4_dealt_oni_takes_a_card_of_the_dealers_choice() -> None:
    m = deal(order(field=[ONI, 20, 31, 52, 63, 72]), first_dealer=1)
    s = m.state
    assert s.phase is Phase.DEAL_ONI and GAME.to_move(s) == 1
    assert legal(s) == ["collect 0 20", "collect 0 31", "collect 0 52", "collect 0 63", "collect 0 72"]
    m = m.apply(Action.parse("collect 0 52"))
    assert ids(m.state.table.captured[1]) == [0, 52] and m.state.captive == CARDS[52]
    assert m.state.phase is Phase.PLAY and GAME.to_move(m.state) == 1
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action.parse("collect 0 99"))
    assert e.value.rule_id == "KJ-DEAL-4"


def test_KJ_DEAL_4_dealt_oni_capture_earns_the_remaining_card() -> None:
    # KJ-3: the card taken with the dealt Oni is the Oni's capture; when the round is played out the
    # dealer (seat 0) receives the last card of that number, wherever it was when the round began.
    m = deal(order(field=[ONI, 20, 31, 52, 63, 72], dealer=[53], second=[50], third=[51]))
    start = GAME.apply(m.state, Action.parse("collect 0 52"))
    played_out = 0
    for policy in range(40):
        rng, s = SplitMix64(policy), start
        while not GAME.is_terminal(s):
            acts = GAME.legal_actions(s)
            s = GAME.do(s, acts[rng.below(len(acts))])
        if s.end == "exhaustive":
            played_out += 1
            assert s.remaining is not None and s.remaining.suit == 5
            assert s.remaining in s.table.captured[0] and CARDS[ONI] in s.table.captured[0]
            assert dict(GAME.round_result(s).notes)["remaining-card"] == s.remaining.id
    assert played_out >= 3


def test_KJ_DEAL_5_dealt_jizo_goes_to_the_dealer() -> None:
    m = deal(order(field=[JIZO, 20, 31, 52, 63, 72], jizo=True), jizo="on")
    assert m.state.phase is Phase.PLAY and ids(m.state.table.captured[0]) == [JIZO]
    assert len(m.state.table.field) == 5


def test_KJ_DEAL_5_oni_and_jizo_dealt_together_dealer_takes_both_and_nothing_else() -> None:
    m = deal(order(field=[ONI, JIZO, 20, 31, 52, 63], jizo=True), jizo="on")
    s = m.state
    assert s.phase is Phase.PLAY and ids(s.table.captured[0]) == [ONI, JIZO]
    assert ids(s.table.field) == [20, 31, 52, 63] and s.captive is None


def test_KJ_DEAL_6_three_of_a_number_dealer_takes_two_of_choice() -> None:
    m = deal(order(field=[40, 41, 42, 20, 31, 63]), first_dealer=3)
    s = m.state
    assert s.phase is Phase.DEAL_TRIPLE and GAME.to_move(s) == 3
    assert legal(s) == ["collect 40 41", "collect 40 42", "collect 41 42"]
    m = m.apply(Action.parse("collect 41 42"))
    assert ids(m.state.table.captured[3]) == [41, 42] and 40 in ids(m.state.table.field)
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action.parse("collect 40 20"))
    assert e.value.rule_id == "KJ-DEAL-6"


def test_KJ_DEAL_6_the_oni_is_resolved_before_the_triple() -> None:
    deck = order(field=[ONI, 50, 51, 52, 20, 31])
    m = deal(deck)
    assert m.state.phase is Phase.DEAL_ONI
    broke = m.apply(Action.parse("collect 0 51"))  # the Oni breaks the triple: no second choice
    assert broke.state.phase is Phase.PLAY and ids(broke.state.table.field) == [20, 31, 50, 52]
    kept = m.apply(Action.parse("collect 0 20"))  # the triple is still there: the dealer takes two
    assert kept.state.phase is Phase.DEAL_TRIPLE
    kept = kept.apply(Action.parse("collect 50 52"))
    assert ids(kept.state.table.captured[0]) == [0, 20, 50, 52] and ids(kept.state.table.field) == [31, 51]


def test_KJ_DEAL_6_two_triples_lowest_number_first() -> None:
    m = deal(order(field=[60, 61, 62, 50, 51, 52]))
    assert legal(m.state)[0] == "collect 50 51"
    m = m.apply(Action.parse("collect 50 51"))
    assert legal(m.state)[0] == "collect 60 61"
    m = m.apply(Action.parse("collect 61 62"))
    assert ids(m.state.table.field) == [52, 60] and m.state.phase is Phase.PLAY


def test_KJ_DEAL_7_four_of_a_number_in_a_hand_is_no_misdeal() -> None:
    m = deal(order(second=[50, 51, 52, 53], field=[20, 31, 42, 63, 72, 83]))
    assert m.state.phase is Phase.PLAY and not m.info.history


def test_KJ_YAKU_1_a_dekiyaku_formed_at_the_deal_ends_the_round() -> None:
    m = deal(order(field=[ONI, 10, 40, 41, 42, 63]))
    m = m.apply(Action.parse("collect 0 10"))
    m = m.apply(Action.parse("collect 40 41"))  # Oni, I-tsun, I-shi: Danjou
    r = m.info.history[0]
    assert r.reason == "dekiyaku" and r.winner == 0 and r.yaku[0][0].id == "danjou"
    assert r.deltas == (16, -8, -8, 0)


# -- the turn --------------------------------------------------------------------------------------

def test_KJ_TURN_1_dealer_first_then_to_the_right_skipping_the_seat_out() -> None:
    m = deal(order(field=[20, 31, 42, 63, 72, 83]), first_dealer=1)
    movers = []
    for _ in range(6):
        movers.append(GAME.to_move(m.state))
        m = m.apply(m.legal_actions()[0])
        while m.state.phase is Phase.TAKE:
            m = m.apply(m.legal_actions()[0])
    assert movers == [1, 2, 3, 1, 2, 3]
    assert m.state.table.hands[0] == () and m.state.table.captured[0] == ()


def test_KJ_TURN_2_a_hand_card_then_the_drawn_card() -> None:
    s = state({0: [20, 50], 1: [60]}, [21, 70], [80, 90])
    s = act(s, "play 20")
    assert ids(s.table.captured[0]) == [20, 21] and 80 in ids(s.table.field) and ids(s.table.stock) == [90]
    assert s.turn == 1


@pytest.mark.parametrize(("jizo", "draws"), [("off", 17), ("on", 18)])
def test_KJ_TURN_3_draws_in_a_round_played_out(jizo: str, draws: int) -> None:
    r = GAME.rules(None, {"jizo": jizo})
    rng = SplitMix64(11)
    played_out = 0
    while played_out < 3:
        s = GAME.start_round(r, shuffled(GAME.deck(r).cards, rng), RoundSetup(1, 0, (0, 1, 2), (30,) * 4))
        last = s
        while not GAME.is_terminal(s):
            last = s
            acts = GAME.legal_actions(s)
            s = GAME.do(s, acts[rng.below(len(acts))])
        if s.end != "exhaustive":
            continue
        played_out += 1
        assert s.draws == draws and s.table.stock == ()
        assert last.table.stock == () or (jizo == "on" and last.phase is Phase.PLAY)


def test_KJ_TURN_3_the_last_player_of_a_41_card_round_does_not_draw() -> None:
    s = state({2: [20]}, [21, 50], [], turn=2, captured={0: [60, 61], 1: [62, 63]})
    s = act(s, "play 20")
    assert s.phase is Phase.OVER and s.draws == 0 and ids(s.table.field) == [50]


def test_KJ_TURN_4_round_ends_when_every_hand_is_empty() -> None:
    s = state({0: [20], 1: [], 2: []}, [21], [])
    s = act(s, "play 20")
    assert GAME.is_terminal(s) and s.end == "exhaustive"


# -- capturing -------------------------------------------------------------------------------------

def test_KJ_CAP_1_special_and_plain_cards_of_a_number_match() -> None:
    s = act(state({0: [40, 90], 1: [60]}, [41, 70], [80, 91]), "play 40")
    assert ids(s.table.captured[0]) == [40, 41]


def test_KJ_CAP_1_jokers_match_nothing_by_number() -> None:
    from hanafuda.fishing import matches

    assert matches([CARDS[20], CARDS[0]], CARDS[1]) == ()


def test_KJ_CAP_3_two_matches_the_player_chooses() -> None:
    s = state({0: [40, 90], 1: [60]}, [41, 42, 70], [80, 91])
    assert "play 40" not in legal(s) and {"play 40 41", "play 40 42"} <= set(legal(s))
    with pytest.raises(IllegalActionError) as e:
        act(s, "play 40")
    assert e.value.rule_id == "KJ-CAP-3"
    s = act(s, "play 40 42")
    assert ids(s.table.captured[0]) == [40, 42]


def test_KJ_CAP_3_drawn_card_with_two_matches_waits_for_a_choice() -> None:
    s = act(state({0: [90, 92], 1: [60]}, [41, 42, 70], [40, 91]), "play 90")
    assert s.phase is Phase.TAKE and legal(s) == ["take 41", "take 42"]
    s = act(s, "take 41")
    assert ids(s.table.captured[0]) == [40, 41] and s.turn == 1


def test_KJ_CAP_4_three_matches_capture_all() -> None:
    s = act(state({0: [40, 90], 1: [60]}, [41, 42, 43], [80, 91]), "play 40")
    assert ids(s.table.captured[0]) == [40, 41, 42, 43]


def test_KJ_CAP_5_and_6_a_non_matching_card_may_be_played() -> None:
    s = state({0: [40, 90], 1: [60]}, [41], [80, 81])
    assert "play 90" in legal(s)
    s = act(s, "play 90")
    assert 90 in ids(s.table.field) and 41 in ids(s.table.field)
    with pytest.raises(IllegalActionError) as e:
        act(state({0: [40, 90], 1: [60]}, [41], [80, 81]), "play 90 41")
    assert e.value.rule_id == "KJ-CAP-2"


# -- the Oni-fuda -----------------------------------------------------------------------------------

def test_KJ_ONI_1_captures_any_one_card_of_the_players_choice() -> None:
    s = state({0: [ONI, 90], 1: [60]}, [21, 52, 73], [80, 81])
    assert [a for a in legal(s) if a.startswith("play 0")] == ["play 0 21", "play 0 52", "play 0 73"]
    s = act(s, "play 0 52")
    assert ids(s.table.captured[0]) == [0, 52] and s.captive == CARDS[52]
    with pytest.raises(IllegalActionError) as e:
        act(state({0: [ONI, 90], 1: [60]}, [21], [80]), "play 0 99")
    assert e.value.rule_id == "KJ-ONI-1"


def test_KJ_ONI_2_may_not_be_discarded_while_the_field_has_cards() -> None:
    s = state({0: [ONI, 90], 1: [60]}, [21], [80, 81])
    assert "play 0" not in legal(s)
    with pytest.raises(IllegalActionError) as e:
        act(s, "play 0")
    assert e.value.rule_id == "KJ-ONI-2"


def test_KJ_ONI_3_drawn_oni_must_capture_a_card_of_choice() -> None:
    s = act(state({0: [90, 91], 1: [60]}, [21, 52, 73], [ONI, 81]), "play 90")
    assert s.phase is Phase.TAKE and legal(s) == ["take 21", "take 52", "take 73", "take 90"]
    s = act(s, "take 73")
    assert ids(s.table.captured[0]) == [0, 73] and s.captive == CARDS[73] and s.turn == 1
    with pytest.raises(IllegalActionError) as e:
        act(act(state({0: [90, 91], 1: [60]}, [21, 52], [ONI, 81]), "play 90"), "take 99")
    assert e.value.rule_id == "KJ-ONI-3"


def test_KJ_ONI_3_drawn_oni_facing_one_card_takes_it() -> None:
    s = act(state({0: [20, 91], 1: [60]}, [21, 52], [ONI, 81]), "play 20")
    assert ids(s.table.captured[0]) == [0, 20, 21, 52] and s.captive == CARDS[52] and s.turn == 1


def test_KJ_ONI_4_from_hand_onto_an_empty_field_and_the_drawn_card_cannot_take_it() -> None:
    s = state({0: [ONI, 90], 1: [60]}, [], [50, 81])
    assert "play 0" in legal(s)
    s = act(s, "play 0")
    assert ids(s.table.field) == [50] and ids(s.out) == [ONI]  # KJ-ONI-5: removed as the turn ends
    assert s.table.captured[0] == () and s.captive is None


def test_KJ_ONI_4_drawn_onto_an_empty_field_it_is_discarded_and_removed() -> None:
    s = act(state({0: [20, 90], 1: [60]}, [21], [ONI, 81]), "play 20")
    assert ids(s.out) == [ONI] and s.table.field == () and s.turn == 1
    snap = GAME.snapshot(s)
    assert snap.zone("out.oni") == (0,) and 0 not in snap.zone("field")


def test_KJ_ONI_5_removed_oni_scores_for_nobody() -> None:
    s = state({0: [ONI]}, [], [], captured={0: [20, 21], 1: [22, 23]})
    s = act(s, "play 0")
    r = GAME.round_result(s)
    assert ids(s.out) == [ONI] and r.card_points is not None and sum(r.card_points) == 40


def test_KJ_ONI_6_the_remaining_card_goes_to_the_oni_holder_at_the_end() -> None:
    s = state({2: [61]}, [50, 60], [], turn=2, captive=51,
              captured={0: [ONI, 51], 1: [52, 53]})
    s = act(s, "play 61")
    assert s.phase is Phase.OVER and s.remaining == CARDS[50]
    assert 50 in ids(s.table.captured[0]) and s.table.field == ()
    assert dict(GAME.round_result(s).notes)["remaining-card"] == 50


def test_KJ_ONI_7_confirmed_remaining_card_completes_the_holders_dekiyaku() -> None:
    # Seat 0's Oni took 41; seat 0 then captures 42 with 43, so 40 (I-shi) is confirmed as seat 0's:
    # four 4s with the Oni is Shi-Dan.
    s = state({0: [43, 90], 1: [60], 2: [70]}, [42, 80], [81, 91], captive=41, captured={0: [ONI, 41]})
    after = act(s, "play 43")
    assert after.end == "dekiyaku" and after.winner == 0 and after.won[0].id == "shi-dan"
    assert 40 not in ids(after.table.captured[0])  # counted, not moved
    late = act(evolve(s, rules=GAME.rules(None, {"remaining_card": "end"})), "play 43")
    assert late.phase is Phase.PLAY and late.turn == 1


def test_KJ_ONI_7_confirmed_card_can_complete_another_players_dekiyaku() -> None:
    # KJ-8: seat 1's capture of 42 and 43 confirms 40 for seat 0 (Oni, I-tsun, I-shi: Danjou).
    s = state({1: [43, 90], 0: [60], 2: [70]}, [42, 80], [81, 91], turn=1, captive=41,
              captured={0: [ONI, 41, 10]})
    s = act(s, "play 43")
    assert s.end == "dekiyaku" and s.winner == 0 and s.won[0].id == "danjou"
    r = GAME.round_result(s)
    assert r.deltas == (16, -8, -8, 0) and r.next_dealer == 0


def test_KJ_ONI_6_end_option_may_still_complete_a_dekiyaku_at_the_end() -> None:
    s = state({2: [61]}, [40, 60], [], turn=2, captive=41, remaining_card="end",
              captured={0: [ONI, 41, 42, 43], 1: [52, 53]})
    s = act(s, "play 61")
    assert s.end == "dekiyaku" and s.winner == 0 and s.won[0].id == "shi-dan" and s.remaining == CARDS[40]


# -- the Jizo-fuda ---------------------------------------------------------------------------------

def test_KJ_JIZO_1_from_hand_it_captures_nothing_and_goes_to_the_pile_at_turn_end() -> None:
    s = state({0: [JIZO, 90], 1: [60]}, [21, 52], [81, 91], jizo="on")
    assert "play 1" in legal(s) and not any(a.startswith("play 1 ") for a in legal(s))
    with pytest.raises(IllegalActionError) as e:
        act(s, "play 1 21")
    assert e.value.rule_id == "KJ-JIZO-1"
    s = act(s, "play 1")
    assert ids(s.table.captured[0]) == [JIZO] and ids(s.table.field) == [21, 52, 81]


def test_KJ_JIZO_1_drawn_it_goes_to_the_players_pile() -> None:
    s = act(state({0: [20, 90], 1: [60]}, [21, 52], [JIZO, 91], jizo="on"), "play 20")
    assert ids(s.table.captured[0]) == [JIZO, 20, 21] and ids(s.table.field) == [52]


def test_KJ_JIZO_1_takes_two_matches_choice_with_the_jizo_on_the_field() -> None:
    s = act(state({0: [JIZO, 90], 1: [60]}, [21, 22], [23, 91], jizo="on"), "play 1")
    assert s.phase is Phase.TAKE and legal(s) == ["take 21", "take 22"]
    assert 1 in GAME.snapshot(s).zone("field")
    s = act(s, "take 22")
    assert ids(s.table.captured[0]) == [JIZO, 22, 23] and ids(s.table.field) == [21]


def test_KJ_JIZO_2_oni_used_from_hand_then_jizo_drawn() -> None:
    s = act(state({0: [ONI, 90], 1: [60]}, [21, 52], [JIZO, 91], jizo="on"), "play 0 52")
    assert ids(s.table.captured[0]) == [ONI, JIZO] and ids(s.table.field) == [21, 52]
    assert s.captive is None


def test_KJ_JIZO_3_oni_discarded_on_empty_field_then_jizo_drawn() -> None:
    s = act(state({0: [ONI, 90], 1: [60]}, [], [JIZO, 91], jizo="on"), "play 0")
    assert ids(s.table.captured[0]) == [ONI, JIZO] and s.out == () and s.table.field == ()


def test_KJ_JIZO_4_jizo_played_then_oni_drawn_captures_only_the_jizo() -> None:
    s = act(state({0: [JIZO, 90], 1: [60]}, [21, 52], [ONI, 91], jizo="on"), "play 1")
    assert ids(s.table.captured[0]) == [ONI, JIZO] and ids(s.table.field) == [21, 52] and s.captive is None


def test_KJ_JIZO_4_also_on_an_otherwise_empty_field() -> None:
    s = act(state({0: [JIZO, 90], 1: [60]}, [], [ONI, 91], jizo="on"), "play 1")
    assert ids(s.table.captured[0]) == [ONI, JIZO] and s.out == ()


def test_KJ_JIZO_1_a_drawn_jizo_does_not_subdue_an_earlier_oni() -> None:
    # KJ-23: the Oni captured 52 in an earlier turn (it is in seat 1's pile); seat 0 draws the Jizo.
    s = act(state({0: [20, 90], 1: [60]}, [21], [JIZO, 91], captive=52, captured={1: [ONI, 52]},
                  jizo="on"), "play 20")
    assert ids(s.table.captured[1]) == [ONI, 52] and s.captive == CARDS[52]
    assert ids(s.table.captured[0]) == [JIZO, 20, 21]


def test_KJ_JIZO_5_card_points_oni_zero_jizo_twelve() -> None:
    j = GAME.rules(None, {"jizo": "on"})
    assert GAME.score(j, [CARDS[ONI]]).card_points == 0 and GAME.score(j, [CARDS[JIZO]]).card_points == 12
    assert GAME.score(GAME.rules(), [CARDS[ONI]]).card_points == 12


def test_KJ_DEAL_5_oni_and_jizo_dealt_together_owe_no_remaining_card() -> None:
    m = deal(order(field=[ONI, JIZO, 20, 31, 52, 63], jizo=True), jizo="on")
    m = play_out(m)
    r = m.info.history[0]
    assert "oni-captive" not in dict(r.notes)


# -- stacked decks: every Oni and Jizo case of the source, played from a real deal -------------------

FIELD = [20, 31, 42, 53, 62, 73]
#: With FIELD dealt and 32, 50, 70 on top of the draw pile, three turns empty the field:
#: 21 takes 20 and 32 takes 31; 43 takes 42 and 50 takes 53; 63 takes 62 and 70 takes 73.
EMPTYING = ["play 21", "play 43", "play 63"]


def script(deck: list[int], actions: Sequence[str], **opts: str) -> Match[KujurokuState, object]:
    m = deal(deck, 0, **opts)
    for a in actions:
        m = m.apply(Action.parse(a))
    return m


def test_KJ_ONI_1_stacked_hand_oni_captures_a_card_of_choice() -> None:
    m = deal(order(dealer=[ONI], field=FIELD, stock=[81]))
    assert [a for a in legal(m.state) if a.startswith("play 0")] == [f"play 0 {i}" for i in FIELD]
    m = m.apply(Action.parse("play 0 53"))
    assert ids(m.state.table.captured[0]) == [0, 53] and m.state.captive == CARDS[53]
    assert 81 in ids(m.state.table.field) and GAME.to_move(m.state) == 1


def test_KJ_ONI_2_stacked_hand_oni_may_not_be_discarded() -> None:
    m = deal(order(dealer=[ONI], field=FIELD, stock=[81]))
    with pytest.raises(IllegalActionError) as e:
        m.apply(Action.parse("play 0"))
    assert e.value.rule_id == "KJ-ONI-2"


def test_KJ_ONI_3_stacked_drawn_oni_captures_a_card_of_choice() -> None:
    m = script(order(dealer=[90], field=FIELD, stock=[ONI]), ["play 90"])
    assert m.state.phase is Phase.TAKE and legal(m.state) == [f"take {i}" for i in sorted([*FIELD, 90])]
    m = m.apply(Action.parse("take 62"))
    assert ids(m.state.table.captured[0]) == [0, 62] and m.state.captive == CARDS[62]


def test_KJ_ONI_3_stacked_drawn_oni_facing_a_single_card() -> None:
    m = script(order(dealer=[21], second=[43], third=[63], field=FIELD, stock=[32, 50, ONI]), EMPTYING)
    assert ids(m.state.table.captured[2]) == [0, 62, 63, 73] and m.state.captive == CARDS[73]
    assert m.state.table.field == () and GAME.to_move(m.state) == 0


def test_KJ_ONI_4_stacked_hand_oni_onto_an_empty_field_then_removed() -> None:
    m = script(order(dealer=[21, ONI], second=[43], third=[63], field=FIELD, stock=[32, 50, 70, 80]), EMPTYING)
    assert m.state.table.field == () and "play 0" in legal(m.state)
    m = m.apply(Action.parse("play 0"))  # the drawn 80 cannot capture it; it leaves as the turn ends
    snap = GAME.snapshot(m.state)
    assert snap.zone("out.oni") == (0,) and snap.zone("field") == (80,) and m.state.captive is None


def test_KJ_ONI_4_stacked_drawn_oni_onto_an_empty_field_is_discarded() -> None:
    # With 41 cards a turn always draws onto an odd number of field cards, so this needs the Jizo
    # variant: the Jizo drawn on the first turn changes the parity (KJ-25).
    m = script(order(dealer=[21, 72], second=[32], third=[63], field=FIELD, stock=[JIZO, 43, 50, ONI], jizo=True),
               ["play 21", "play 32", "play 63", "play 72"], jizo="on")
    assert ids(m.state.out) == [ONI] and m.state.table.field == ()
    assert ids(m.state.table.captured[0]) == [JIZO, 20, 21, 72, 73]


def test_KJ_ONI_7_stacked_confirmed_card_completes_a_dekiyaku() -> None:
    # The Oni takes 41; 80 and 90 are placed; 50 takes 52 and 91 takes 90; then 43 takes 42, which
    # confirms 40 (still in seat 1's hand) as the dealer's: four 4s and the Oni, Shi-Dan.
    deck = order(dealer=[ONI, 43], second=[10], third=[50], field=[41, 42, 20, 31, 52, 63], stock=[80, 90, 91])
    m = script(deck, ["play 0 41", "play 10", "play 50"])
    assert 40 in ids(m.state.table.hands[1])
    m = m.apply(Action.parse("play 43"))
    r = m.info.history[0]
    assert r.reason == "dekiyaku" and r.winner == 0 and r.yaku[0][0].id == "shi-dan"
    assert r.deltas == (24, -12, -12, 0) and r.next_dealer == 0


def test_KJ_JIZO_1_stacked_from_hand_and_drawn() -> None:
    m = script(order(dealer=[JIZO], field=FIELD, stock=[81], jizo=True), ["play 1"], jizo="on")
    assert ids(m.state.table.captured[0]) == [JIZO] and ids(m.state.table.field) == sorted([*FIELD, 81])
    m = script(order(dealer=[90], field=FIELD, stock=[JIZO], jizo=True), ["play 90"], jizo="on")
    assert ids(m.state.table.captured[0]) == [JIZO] and 1 not in ids(m.state.table.field)


def test_KJ_JIZO_2_stacked_oni_used_then_jizo_drawn() -> None:
    m = script(order(dealer=[ONI], field=FIELD, stock=[JIZO], jizo=True), ["play 0 53"], jizo="on")
    assert ids(m.state.table.captured[0]) == [ONI, JIZO] and ids(m.state.table.field) == FIELD
    assert m.state.captive is None


def test_KJ_JIZO_3_stacked_oni_discarded_on_empty_field_then_jizo_drawn() -> None:
    m = script(order(dealer=[21, ONI], second=[43], third=[63], field=FIELD, stock=[32, 50, 70, JIZO], jizo=True),
               [*EMPTYING, "play 0"], jizo="on")
    assert ids(m.state.table.captured[0]) == [ONI, JIZO, 20, 21, 31, 32]
    assert m.state.out == () and m.state.table.field == ()


def test_KJ_JIZO_4_stacked_jizo_played_then_oni_drawn() -> None:
    m = script(order(dealer=[JIZO], field=FIELD, stock=[ONI], jizo=True), ["play 1"], jizo="on")
    assert ids(m.state.table.captured[0]) == [ONI, JIZO] and ids(m.state.table.field) == FIELD
    assert m.state.captive is None


# -- dekiyaku --------------------------------------------------------------------------------------

def yaku(cards: Sequence[int], **opts: str) -> dict[str, int]:
    r = GAME.rules(None, opts)
    return {y.id: y.points for y in GAME.score(r, [CARDS[i] for i in cards]).yaku}


@pytest.mark.parametrize(("config", "pile", "want"), [
    ("A", [40, 41, 42, 43], {"shi-yaku": 4}),
    ("A", [30, 31, 32, 33], {"san-yaku": 6}),
    ("A", [ONI, 10, 40], {"danjou": 8}),
    ("A", [ONI, 40, 41, 42, 43], {"shi-dan": 12}),
    ("A", [ONI, 40, 41, 42, 43, 30, 31, 32, 33], {"shi-dan-san": 18}),
    ("A", [ONI, 11, 40], {}),
    ("B", [ONI, 30, 40], {"danjou": 8}),
    ("B", [ONI, 31, 40], {}),
    ("B", [10, 12, 40, 41, 42, 43, 30, 31, 32, 33], {"shi-dan-san": 18}),
    ("B", [10, 40, 41, 42, 43, 30, 31, 32, 33], {"san-yaku": 6}),
    ("B", [ONI, 40, 41, 42, 43], {"shi-yaku": 4}),
    ("C", [10, 30, 40], {"danjou": 8}),
    ("C", [40, 41, 42, 43, 30, 31, 32, 33], {"shi-san": 10}),
    ("C", [40, 41, 42, 43, 10, 30], {"shi-dan": 12}),
    ("C", [30, 31, 32, 33, 10, 40], {"dan-san": 14}),
    ("C", [40, 41, 42, 43, 10, 30, 31, 32, 33], {"shi-dan-san": 18}),
    ("D", [30, 31, 32, 33], {"san-shima": 10}),
    ("D", [10, 40], {"danna": 15}),
    ("D", [10, 40, 30, 31, 32, 33], {"nejikomi": 30}),
    ("D", [40, 41, 42, 43], {}),
])
def test_KJ_YAKU_5_to_8_configurations(config: str, pile: list[int], want: dict[str, int]) -> None:
    assert yaku(pile, configuration=config) == want


def test_KJ_YAKU_3_configuration_option_and_its_values() -> None:
    assert SPEC.option("configuration").choices == ("A", "B", "C", "D")
    assert {k: [y.points for y in v] for k, v in kj.CONFIGURATIONS.items()} == {
        "A": [4, 6, 8, 12, 18], "B": [4, 6, 8, 18], "C": [4, 6, 8, 10, 12, 14, 18], "D": [10, 15, 30]}


def test_KJ_YAKU_4_only_the_highest_pays_unless_stacking() -> None:
    pile = [ONI, 10, 40, 41, 42, 43]
    assert yaku(pile) == {"shi-dan": 12}
    assert yaku(pile, dekiyaku_count="stack") == {"shi-yaku": 4, "danjou": 8, "shi-dan": 12}


def test_KJ_YAKU_4_stacked_payment() -> None:
    s = state({0: [43, 90], 1: [60], 2: [70]}, [42, 80], [81, 91], captured={0: [ONI, 10, 40, 41]},
              dekiyaku_count="stack")
    r = GAME.round_result(act(s, "play 43"))
    assert r.deltas == (48, -24, -24, 0)


def test_KJ_YAKU_2_each_other_participant_pays_the_seat_out_pays_nothing() -> None:
    s = state({1: [43, 90], 2: [60], 3: [70]}, [42, 80], [81, 91], turn=1, dealer=1,
              captured={1: [40, 41]})
    r = GAME.round_result(act(s, "play 43"))
    assert r.reason == "dekiyaku" and r.deltas == (0, 8, -4, -4) and len(r.deltas) == 4
    assert r.next_dealer == 1


def test_KJ_YAKU_1_checked_after_the_hand_card_before_the_draw() -> None:
    # The hand card forms Shi Yaku: the round ends before the Jizo is drawn (so the Oni is not subdued).
    s = state({0: [43, 90], 1: [60], 2: [70]}, [42, 80], [JIZO, 91], captured={0: [40, 41]}, jizo="on")
    s = act(s, "play 43")
    assert s.end == "dekiyaku" and ids(s.table.stock) == [JIZO, 91]


def test_KJ_YAKU_9_an_oni_captured_by_the_jizo_still_counts() -> None:
    s = act(state({0: [JIZO, 90], 1: [60], 2: [70]}, [21], [ONI, 91], captured={0: [10, 40]}, jizo="on"),
            "play 1")
    assert s.end == "dekiyaku" and s.won[0].id == "danjou"


# -- scoring without dekiyaku ----------------------------------------------------------------------

def test_KJ_SCORE_1_card_points_total_300_with_either_deck() -> None:
    assert GAME.score(GAME.rules(), list(DAINI.cards)).card_points == 300
    assert GAME.score(GAME.rules(None, {"jizo": "on"}), list(DAINI_JIZO.cards)).card_points == 300
    values = {r: kj.card_points(r * 10 + 1, False) for r in range(1, 11)}
    assert values == {1: 10, 2: 10, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10}
    assert sum(kj.card_points(i, False) for i in kj.DECK_IDS[False] if i != ONI) == 288 == 3 * kj.PAR


@pytest.mark.parametrize(("points", "chips"), [
    (300, 3), (116, 3), (115, 2), (106, 2), (105, 1), (96, 1), (95, -1), (86, -1), (85, -2), (76, -2),
    (75, -3), (0, -3),
])
def test_KJ_SCORE_2_chip_table(points: int, chips: int) -> None:
    assert kj.chip_score(points) == chips


def piles(*totals: int) -> dict[int, list[int]]:
    """Capture piles for seats 0, 1, 2 worth the given card points (subsets of the numbered cards)."""
    free = [i for i in kj.DECK_IDS[False] if i not in (ONI, JIZO)] + [ONI]  # the Oni only when needed
    out: dict[int, list[int]] = {}
    for seat, want in enumerate(totals):
        reach: dict[int, list[int]] = {0: []}  # a subset for every reachable sum
        for i in free:
            v = kj.card_points(i, False)
            for total, subset in list(reach.items()):
                if total + v <= want and total + v not in reach:
                    reach[total + v] = [*subset, i]
        out[seat] = reach[want]
        free = [i for i in free if i not in reach[want]]
    return out


def finished(totals: tuple[int, int, int], dealer: int = 0, **opts: str) -> KujurokuState:
    caps = piles(*totals)
    if dealer:
        caps = {(s + dealer) % 4: v for s, v in caps.items()}
    s = state({}, [], [], captured=caps, dealer=dealer, turn=dealer)
    return evolve(s, rules=GAME.rules(None, opts), phase=Phase.OVER, end="exhaustive")


def test_KJ_SCORE_3_two_negative_the_winner_is_paid_the_losers_scores() -> None:
    r = GAME.round_result(finished((120, 90, 78)))
    assert r.reason == "card-points" and r.deltas == (3, -1, -2, 0) and r.winner == 0
    r = GAME.round_result(finished((90, 100, 70)))  # the winner's own +1 does not matter
    assert r.deltas == (-1, 4, -3, 0) and r.next_dealer == 1


def test_KJ_SCORE_4_two_positive_the_loser_pays_each_winner() -> None:
    r = GAME.round_result(finished((100, 110, 60)))
    assert r.reason == "card-points" and r.deltas == (1, 2, -3, 0) and r.winner is None


def test_KJ_SCORE_5_all_positive_is_a_draw() -> None:
    r = GAME.round_result(finished((96, 96, 96)))
    assert r.reason == "draw" and r.deltas == (0, 0, 0, 0)
    r = GAME.round_result(finished((100, 100, 100)))  # the Oni's 12 points make it possible
    assert r.reason == "draw" and r.deltas == (0, 0, 0, 0) and r.next_dealer == 0


def test_KJ_SCORE_6_all_negative_is_a_draw() -> None:
    r = GAME.round_result(finished((90, 90, 90)))
    assert r.reason == "draw-all-negative" and r.deltas == (0, 0, 0, 0) and r.next_dealer == 0


def test_KJ_END_3_draw_keeps_the_dealer_even_without_the_most_points() -> None:
    r = GAME.round_result(finished((96, 104, 100)))
    assert r.reason == "draw" and r.next_dealer == 0
    r = GAME.round_result(finished((96, 104, 100), draw_dealer="most-points"))
    assert r.next_dealer == 1 and dict(r.notes)["deal-lost"] == 1


def test_KJ_END_1_a_tie_for_most_points_keeps_the_deal() -> None:
    r = GAME.round_result(finished((110, 110, 70), dealer=2))
    assert r.next_dealer == 2 and r.deltas == (-4, 0, 2, 2)


def test_KJ_END_1_another_players_dekiyaku_loses_the_deal() -> None:
    s = state({1: [43, 90], 2: [60], 0: [70]}, [42, 80], [81, 91], turn=1, captured={1: [40, 41]})
    r = GAME.round_result(act(s, "play 43"))
    assert r.winner == 1 and r.next_dealer == 1 and dict(r.notes)["deal-lost"] == 1


def test_KJ_END_2_the_losing_dealer_sits_out_next_round() -> None:
    g, r4 = GAME, GAME.rules()
    info = g.new_match(r4, 2)
    assert g.seats_in_play(r4, info) == (2, 3, 0)
    after = g.settle(r4, info, GAME.round_result(finished((70, 110, 110), dealer=2)))
    assert after.dealer == 3 and g.seats_in_play(r4, after) == (3, 0, 1)  # seat 2 sits out
    r3 = GAME.rules(None, {"players": "3"})
    info3 = g.new_match(r3, 2)
    assert g.seats_in_play(r3, info3) == (2, 0, 1)


def test_KJ_GAME_1_the_game_ends_when_every_player_has_lost_the_deal() -> None:
    for players in ("4", "3"):
        m = Match.start(GAME, GAME.rules(None, {"players": players}), seed=21)
        rng = SplitMix64(4)
        dealers: list[int] = []
        while not m.over:
            if not dealers or dealers[-1] != m.info.dealer:
                dealers.append(m.info.dealer)
            m = m.apply(m.legal_actions()[rng.below(len(m.legal_actions()))])
        lost = [dict(r.notes)["deal-lost"] for r in m.info.history]
        assert sum(lost) == int(players) and lost[-1] == 1
        assert dealers == [(i % int(players)) for i in range(int(players))]


def test_KJ_GAME_2_most_chips_wins_and_ties_are_shared() -> None:
    r = GAME.rules()
    info = GAME.new_match(r, 3)
    history = tuple(GAME.round_result(finished((70, 110, 110), dealer=d)) for d in (3, 0, 1))
    for res in history:
        info = GAME.settle(r, info, res)
    assert not info.over
    info = GAME.settle(r, info, GAME.round_result(finished((70, 110, 110), dealer=2)))
    assert info.over and sum(info.scores) == 120
    top = max(info.scores)
    assert info.winners == tuple(i for i, v in enumerate(info.scores) if v == top)


# -- the remaining card: random rounds and an exhaustive one-rank model -----------------------------

_OPTION_SETS = [{"jizo": j, "players": p, "remaining_card": rc, "configuration": c}
                for j in ("off", "on") for p in ("4", "3") for rc in ("confirmed", "end") for c in ("A", "D")]


def _outside(s: KujurokuState, rank: int) -> list[int]:
    held = {c.id for pile in s.table.captured for c in pile}
    return [rank * 10 + i for i in range(4) if rank * 10 + i not in held]


@given(st.sampled_from(_OPTION_SETS), st.integers(0, 2**32), st.integers(0, 2**32))
def test_KJ_ONI_6_the_card_remaining_is_always_exactly_one(opts: dict[str, str], seed: int, policy: int) -> None:
    """KJ-11/KJ-12: while the Oni's capture stands an odd number of its rank is uncaptured; at the end of a
    round played out exactly one is, and it goes to the Oni-holder; the field ends empty, so at least 288
    points are captured and three negative chip scores (KJ-13) cannot occur."""
    r = GAME.rules(None, opts)
    deck, rng, pol = GAME.deck(r), SplitMix64(seed), SplitMix64(policy)
    for dealer in range(3):
        setup = RoundSetup(1, dealer, (), (30,) * r.seats)
        s = GAME.start_round(r, shuffled(deck.cards, rng), setup)
        while not GAME.is_terminal(s):
            if s.captive is not None:
                assert len(_outside(s, s.captive.suit)) in (1, 3)
            if not r.jizo and s.phase is Phase.PLAY:  # KJ-25: a drawn Oni never meets an empty field
                assert len(s.table.field) % 2 == 0
            acts = GAME.legal_actions(s)
            s = GAME.do(s, acts[pol.below(len(acts))])
        if s.end != "exhaustive" and s.remaining is None:  # a misdeal, or a dekiyaku during play
            continue
        assert s.table.field == ()
        if s.captive is not None:
            assert s.remaining is not None and s.remaining.suit == s.captive.suit
            assert s.remaining in s.table.captured[s.oni_holder() or 0]
            assert _outside(s, s.captive.suit) == []
        else:
            assert s.remaining is None
        captured = sum(kj.card_points(c.id, r.jizo) for pile in s.table.captured for c in pile)
        assert captured == 300 - sum(kj.card_points(c.id, r.jizo) for c in s.out) >= 288
        if s.end == "exhaustive":
            assert GAME.round_result(s).reason != "draw-all-negative"


def _one_rank_model() -> tuple[int, int]:
    """Every way the four cards of one number can go, abstracted: ``f`` on the field, ``u`` unplayed
    (hand or stock), ``c`` captured in pairs, ``oni`` whether the Oni holds one of them, ``undo`` whether
    the Jizo could still return it this turn. Deal rules, plays in any order, the Oni's capture at the
    deal or in play, and the Jizo's undo are all explored. Returns (terminal states, those owed a card)."""
    seen: set[tuple[int, int, int, str, bool]] = set()
    todo: list[tuple[int, int, int, str, bool]] = []
    for f0 in range(4):  # four on the field is a misdeal (KJ-DEAL-3)
        u0 = 4 - f0
        starts = [(f0, u0, 0, "free", False)]
        if f0 >= 1:  # KJ-DEAL-4: the dealt Oni takes one of them
            starts.append((f0 - 1, u0, 0, "took", False))
        for f, u, c, oni, undo in starts:
            # KJ-DEAL-6: of three on the field the dealer takes two
            todo.append((1, u, c + 2, oni, undo) if f == 3 else (f, u, c, oni, undo))
    terminals = owed = 0
    while todo:
        st_ = todo.pop()
        if st_ in seen:
            continue
        seen.add(st_)
        f, u, c, oni, _undo = st_
        assert f <= 2, st_  # after the deal three of a number never lie on the field
        nxt: list[tuple[int, int, int, str, bool]] = []
        if u:  # a card of this number is played (from the hand or the draw pile)
            if f == 0:
                nxt.append((1, u - 1, c, oni, False))
            elif f == 3:
                nxt.append((0, u - 1, c + 4, oni, False))
            else:
                nxt.append((f - 1, u - 1, c + 2, oni, False))
        if oni == "free":
            if f:  # the Oni (from the hand or drawn) captures one of them
                nxt.append((f - 1, u, c, "took", True))
            nxt.append((f, u, c, "gone", False))  # or it is used elsewhere, removed, or subdued
        if st_[4]:  # the Jizo drawn right after: the card goes back to the field
            nxt.append((f + 1, u, c, "gone", False))
        todo.extend(nxt)
        if u == 0:
            terminals += 1
            if oni == "took":
                owed += 1
                assert f == 1 and c + f + 1 == 4, st_  # exactly one card remains, on the field
            else:
                assert f == 0, st_  # nothing is left over
    return terminals, owed


def test_KJ_ONI_6_exhaustive_one_rank_model() -> None:
    terminals, owed = _one_rank_model()
    assert terminals > 0 and owed > 0


def test_KJ_ONI_6_predicate_examples() -> None:
    assert kj.remaining_card(52, [0, 52]) is None
    assert kj.remaining_card(52, [0, 52, 50, 53]) == 51
    assert kj.remaining_card(ONI, [0, 1]) is None and kj.remaining_card(JIZO, [0, 1]) is None


# -- random play, the CLI --------------------------------------------------------------------------

def _consistent(opts: dict[str, str]) -> bool:
    """Option values that do not conflict (OptionLink: e.g. a Sun without a Storm is refused)."""
    try:
        SPEC.resolve(None, opts)
    except OptionError:
        return False
    return True


options = st.fixed_dictionaries({o.key: st.sampled_from(o.choices) for o in SPEC.options}).filter(_consistent)


@given(options, st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_play_keeps_every_invariant(opts: dict[str, str], seed: int, policy: int) -> None:
    rep = run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(None, opts), seed, policy)
    assert not rep.violations, str(rep.violations[0])


def test_round_deltas_are_per_seat() -> None:
    m = Match.start(GAME, GAME.rules(), seed=2)
    rng = SplitMix64(2)
    while not m.over:
        m = m.apply(m.legal_actions()[rng.below(len(m.legal_actions()))])
    for r in m.info.history:
        assert len(r.deltas) == 4 and sum(r.deltas) == 0
    assert sum(m.info.scores) == 120


def test_score_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "kujuroku", "40", "41", "42", "43", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["yaku"] == [{"id": "shi-yaku", "points": 4}] and got["yaku_total"] == 4 and got["card_points"] == 16
    every = [str(c.id) for c in DAINI_JIZO.cards]
    assert main(["score", "kujuroku", *every, "--json", "--option", "jizo=on"]) == 0
    assert json.loads(capsys.readouterr().out)["card_points"] == 300
    assert main(["score", "kujuroku", "1"]) == 2  # no Jizo in the 41-card deck
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("hanafuda: error:")


@pytest.mark.parametrize("jizo", ["off", "on"])
def test_simulate_is_deterministic_for_both_decks(jizo: str) -> None:
    a = simulate(GAME, {"jizo": jizo}, None, 20, 9).to_json()
    b = simulate(GAME, {"jizo": jizo}, None, 20, 9).to_json()
    assert a == b and a["games"] == 20 and len(a["total_score_by_seat"]) == 4
    assert sum(a["total_score_by_seat"]) == 20 * 120


def test_KJ_SCORE_1_settlement_checked_exactly_from_the_final_position() -> None:
    """With the final position reported, the card-point settlement is recomputed from the final capture
    piles: chips moved between the right players but in the wrong amounts pass the shape check and are
    caught by the exact one."""
    from dataclasses import replace

    from hanafuda_spec.adapter import RoundOutcome
    from hanafuda_spec.invariants import Step

    options = SPEC.resolve()
    adapter, rng = ReferenceAdapter(), SplitMix64(4)
    adapter.start("kujuroku", options, 4)
    found: RoundOutcome | None = None
    while found is None:
        legal = adapter.legal_actions()
        adapter.apply(legal[rng.below(len(legal))])
        found = next((o for o in adapter.rounds_ended() if o.reason == "card-points"), None)
    assert found.final is not None and found.card_points is not None
    final = found.final
    checks = dict(PROFILE.invariants)
    exact, shape = checks["KJ-SCORE-1 settlement from the final capture piles"], checks["KJ-SCORE-3 settlement shape"]

    def step(o: RoundOutcome) -> Step:
        return Step(options, None, "play 10", final, (), (o,), False, 0)

    assert exact(step(found)) is None and shape(step(found)) is None
    d = list(found.deltas)
    paid = [i for i, x in enumerate(d) if x]
    # the player who balances the other two (the only one of its sign), and one of the two with room
    # for one chip more (each moves 1 to 3 chips)
    big = next(i for i in paid if sum(1 for k in paid if (d[k] > 0) == (d[i] > 0)) == 1)
    small = next(i for i in paid if i != big and abs(d[i]) < 3)
    sign = 1 if d[small] > 0 else -1
    d[small] += sign
    d[big] -= sign
    tampered = replace(found, deltas=tuple(d))
    assert shape(step(tampered)) is None  # the old bound-style check does not see it
    assert "chips moved" in (exact(step(tampered)) or "")


# -- KJ-27: the Jizo undo comes before the dekiyaku check ---------------------------------------------

def _kj27_first_turn(**opts: str) -> Match[KujurokuState, object]:
    """The dealer holds the Oni, the field is 40 41 42 50 60 70 and the Jizo tops the draw pile: the
    dealer takes two of the three 4s (KJ-DEAL-6), then the Oni takes the third. The last 4 (43) is
    then confirmed as the Oni-holder's (KJ-ONI-7): four 4s and the Oni, Shi-Dan."""
    m = deal(order(dealer=[ONI], field=[40, 41, 42, 50, 60, 70], stock=[JIZO], jizo=True), 0, jizo="on", **opts)
    assert m.state.phase is Phase.DEAL_TRIPLE
    m = m.apply(Action.parse("collect 40 41"))
    return m.apply(Action.parse("play 0 42"))


def test_KJ_JIZO_2_a_drawn_jizo_undoes_an_oni_capture_that_made_a_dekiyaku() -> None:
    m = _kj27_first_turn()
    assert len(m.info.history) == 0  # the round goes on: no Shi-Dan
    s = m.state
    assert ids(s.table.captured[0]) == [ONI, JIZO, 40, 41]  # the Jizo captured the Oni
    assert 42 in ids(s.table.field) and s.captive is None  # the Oni's card is back on the field
    assert s.phase is Phase.PLAY and s.turn == 1


def test_KJ_JIZO_2_at_capture_timing_ends_the_round_before_the_draw() -> None:
    m = _kj27_first_turn(jizo_timing="at-capture")
    r = m.info.history[0]
    assert r.reason == "dekiyaku" and [y.id for y in r.yaku[0]] == ["shi-dan"]
    assert r.deltas[:3] == (24, -12, -12)


def test_KJ_27_jizo_timing_needs_the_jizo() -> None:
    with pytest.raises(OptionError, match=r"jizo_timing=at-capture conflicts with jizo=off \(KJ-27"):
        SPEC.resolve(None, {"jizo_timing": "at-capture"})
    assert SPEC.resolve(None, {"jizo": "on"})["jizo_timing"] == "after-draw"
