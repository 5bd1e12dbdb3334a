"""Tests written to kill mutants that survived a mutation run (docs/mutation.md): each names the
module and the mistake it catches."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.games.musashino import GAME as MUSASHINO
from hanafuda_spec.games import GAME_KEYS, spec_for
from hanafuda_spec.shuffle import SplitMix64

BRIGHTS = frozenset({10, 30, 80, 110, 120})


def _play(game: str, options: Mapping[str, str], seed: int) -> ReferenceAdapter:
    a = ReferenceAdapter()
    a.start(game, dict(spec_for(game).resolve(None, dict(options))), seed)
    return a


@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_deal_count_covers_every_round_played(game: str) -> None:
    """``MatchInfo.deals`` counts every deal, misdeals and the last one included, however the match ends
    (reference/hanafuda/games/kekoro.py: an instant victory counted two deals)."""
    opts = {"koikoi": {"length": "3"}, "kusurigui": {"rounds": "6"}, "musashino": {"length": "3"}}.get(game, {})
    for seed in (1, 2, 3):
        a = _play(game, opts, seed)
        rng = SplitMix64(seed)
        while not a.match_over():
            acts = a.legal_actions()
            a.apply(acts[rng.below(len(acts))])
        info = a.match.info
        assert info.deals == len(info.history), (seed, info.deals, len(info.history))


@pytest.mark.parametrize("mode", ["double", "count"])
def test_KK_SCORE_3_koikoi_field_multiplier_follows_the_brights_dealt(mode: str) -> None:
    """KK-SCORE-3: with field_multiplier=double a round is doubled only if a Bright was dealt to the
    table; with count, multiplied by one more than their number (reference/hanafuda/games/koikoi.py:
    'double' doubled every round)."""
    seen = set()
    for seed in range(1, 6):
        a = _play("koikoi", {"field_multiplier": mode, "length": "6"}, seed)
        rng = SplitMix64(seed)
        dealt = len(BRIGHTS & set(a.snapshot().zone("field")))
        while not a.match_over():
            acts = a.legal_actions()
            a.apply(acts[rng.below(len(acts))])
            for o in a.rounds_ended():
                notes = dict(o.notes)
                if "field" in notes:
                    want = (2 if dealt else 1) if mode == "double" else dealt + 1
                    assert notes["field"] == want, (seed, dealt, notes)
                    seen.add(dealt > 0)
            if a.rounds_ended() and not a.match_over():
                dealt = len(BRIGHTS & set(a.snapshot().zone("field")))
    assert seen == {True, False}  # both kinds of deal were scored


def test_MB_STORM_musashino_no_storm_without_the_storm_rule() -> None:
    """With storm=off nobody is ever stormed, though storm cards are captured (reference/hanafuda/games/
    musashino.py: the early 'storm is off' answer deleted)."""
    checked = 0
    for seed in (1, 2):
        a = _play("musashino", {"length": "3"}, seed)
        rng = SplitMix64(seed)
        while not a.match_over():
            state = a.match.state
            if state.taken:
                checked += 1
                assert not any(MUSASHINO.stormed(state, side) for side in range(3))
            acts = a.legal_actions()
            a.apply(acts[rng.below(len(acts))])
    assert checked


def test_an_action_compares_unequal_to_other_things() -> None:
    """``Action == x`` for an ``x`` that is not an action is False, not an error (reference/hanafuda/
    engine.py: the NotImplemented answer deleted)."""
    from hanafuda.engine import Action

    a = Action.parse("play 31 30")
    assert a not in ("play 31 30", ("play", (31, 30), ""), None, 3)
    assert a == Action("play", (31, 30)) and a in [None, "x", Action("play", (31, 30))]


# -- run of 2026-11-25 (seed 19, 20 mutants per module) ----------------------------------------------

def _kk_state(hands: tuple[list[int], list[int]], field: list[int], stock: list[int],
              captured: tuple[list[int], list[int]] = ([], []), **opts: str) -> Any:
    """A Koi-Koi position in mid-round, seat 0 to play."""
    from hanafuda.engine import RoundSetup
    from hanafuda.fishing import Table
    from hanafuda.games.koikoi import GAME, INDEX, KoiKoiState, Phase
    from hanafuda_spec.cards import card

    t = Table.deal(INDEX, [[card(i) for i in h] for h in hands], [card(i) for i in field],
                   [card(i) for i in stock], [[card(i) for i in c] for c in captured])
    return KoiKoiState(GAME.rules(None, opts), RoundSetup(1, 0, (0, 1), (0, 0)), t, 0, Phase.PLAY)


def _kk(s: Any, *actions: str) -> Any:
    from hanafuda.engine import Action
    from hanafuda.games.koikoi import GAME

    for a in actions:
        s = GAME.apply(s, Action.parse(a))
    return s


@pytest.mark.parametrize(("count", "points"), [("all", 5), ("both-players", 20)])
def test_KK_SCORE_5_koikoi_both_players_scores_the_opponents_yaku_too(count: str, points: int) -> None:
    """KK-SCORE-5: with yaku_count=both-players the stopper's base score adds the opponent's yaku (here
    5 + 5, doubled for 7 or more) (reference/hanafuda/games/koikoi.py: the addition deleted)."""
    from hanafuda.games.koikoi import GAME

    s = _kk_state(([60, 23], [33]), [100, 62], [101, 13], captured=([70, 71], [11, 21, 31]), yaku_count=count)
    s = _kk(s, "play 60", "stop")
    assert GAME.round_result(s).deltas == (points, 0)


def test_KK_TURN_3_koikoi_a_yaku_already_seen_is_not_new_after_the_opponents_call() -> None:
    """KK-TURN-3: seat 0 forms Boar-Deer-Butterfly and calls koi-koi, seat 1 forms Poetry Ribbons and
    calls; seat 0's next turn adds nothing, so the turn passes (reference/hanafuda/games/koikoi.py: seat
    1's new yaku overwrote seat 0's record of its own, which then looked new again)."""
    from hanafuda.games.koikoi import Phase

    s = _kk_state(([60, 22], [11, 33]), [62, 100, 12], [101, 43, 53, 82, 92, 102], captured=([70, 71], [21, 31]))
    s = _kk(s, "play 60")
    assert s.phase is Phase.CALL and s.turn == 0
    s = _kk(s, "koikoi", "play 11")
    assert s.phase is Phase.CALL and s.turn == 1
    s = _kk(s, "koikoi", "play 22")
    assert s.phase is Phase.PLAY and s.turn == 1


def test_KK_YAKU_17_koikoi_the_revalued_viewing_yaku_is_not_an_improvement() -> None:
    """KK-YAKU-17: with viewing_value=1-3 the first koi-koi call makes Moon-viewing worth 3; the caller's
    next turn, adding nothing, passes (reference/hanafuda/games/koikoi.py: the re-valued yaku was
    recorded for the wrong seat, so the 3 looked like an improvement)."""
    from hanafuda.games.koikoi import Phase

    s = _kk_state(([80, 22], [33, 43]), [81, 91], [90, 53, 63, 72, 102], viewing_value="1-3")
    s = _kk(s, "play 80")
    assert s.phase is Phase.CALL
    s = _kk(s, "koikoi", "play 33", "play 22")
    assert s.phase is Phase.PLAY and s.turn == 1


def test_KG_GAME_3_kusurigui_one_chip_left_is_not_bust() -> None:
    """KG-GAME-3: with bust=end the game ends after a round that leaves a player with no chips, and not
    with one (reference/hanafuda/games/kusurigui.py: '<= 0' moved to '<= 1')."""
    from hanafuda.engine import RoundSetup
    from hanafuda.games.kusurigui import GAME, KusuriGuiState, Phase
    from hanafuda_spec.cards import card

    def over(scores: tuple[int, int]) -> bool:
        # seat 0 holds the Poetry Ribbons (2), seat 1 nothing: seat 1 pays 2
        caps = (tuple(card(i) for i in (11, 21, 31)), ())
        s = KusuriGuiState(GAME.rules(None, {}), RoundSetup(1, 0, (0, 1), scores), ((), ()), (), (), caps, (), (),
                           1, Phase.OVER, 40, 4, None, (0, 0), (0, 0), "played-out")
        r = GAME.round_result(s)
        assert r.deltas == (2, -2)
        return r.ends_game

    assert not over((100, 3)) and over((100, 2))


def test_KG_SCORE_3_kusurigui_a_loser_left_with_no_chips_pays_nothing_more() -> None:
    """KG-SCORE-3 with bust=end (the default): a loser whom the round's own payments have left with no
    chips pays nothing on the totals (reference/hanafuda/games/kusurigui.py: 'max(0, ...)' moved to
    'max(1, ...)' made them pay one chip they do not have)."""
    from hanafuda.engine import RoundSetup
    from hanafuda.games.kusurigui import GAME, KusuriGuiState, Phase
    from hanafuda_spec.cards import card

    assert GAME.rules(None, {}).bust_ends
    caps = (tuple(card(i) for i in (11, 21, 31)), ())  # seat 0 holds the Poetry Ribbons (2), seat 1 nothing
    s = KusuriGuiState(GAME.rules(None, {}), RoundSetup(1, 0, (0, 1), (5, 1)), ((), ()), (), (), caps, (), (),
                       1, Phase.OVER, 40, 4, None, (1, -1), (0, 0), "played-out")
    assert GAME.round_result(s).deltas == (1, -1)  # the round's payment only: seat 1 had 1 chip and paid it


def _games() -> list[tuple[str, Any]]:
    import importlib

    return [(g, importlib.import_module(f"hanafuda.games.{g}").GAME) for g in GAME_KEYS]


@pytest.mark.parametrize(("game", "g"), _games(), ids=GAME_KEYS)
def test_a_round_is_dealt_from_the_whole_deck_only(game: str, g: Any) -> None:
    """Each game's ``start_round`` refuses a deck order missing a card (reference/hanafuda/games/kekoro.py:
    the refusal deleted; a short deck dealt a short stock)."""
    from hanafuda.engine import RoundSetup

    rules = g.rules(None, {})
    info = g.new_match(rules, 0)
    setup = RoundSetup(1, info.dealer, g.seats_in_play(rules, info), info.scores)
    cards = list(g.deck(rules).cards)
    g.start_round(rules, cards, setup)
    with pytest.raises(ValueError, match=r"deck|deals"):
        g.start_round(rules, cards[:-1], setup)


@pytest.mark.parametrize(("game", "g"), _games(), ids=GAME_KEYS)
def test_the_seats_in_play_are_distinct_seats_of_the_table_with_the_dealer(game: str, g: Any) -> None:
    """``seats_in_play`` names distinct seats of the table, the dealer among them, and every seat of a
    two-seat game, whoever deals (reference/hanafuda/games/koikoi.py: ``(1, 1)`` for ``(0, 1)`` went
    unnoticed, Koi-Koi's round never reading it)."""
    rules = g.rules(None, {})
    seats = g.seats(rules)
    for dealer in range(seats):
        info = g.new_match(rules, dealer)
        playing = g.seats_in_play(rules, info)
        assert info.dealer == dealer and dealer in playing, (dealer, playing)
        assert len(set(playing)) == len(playing) and set(playing) <= set(range(seats)), playing
        if seats == 2:
            assert tuple(playing) == (0, 1)


@pytest.mark.parametrize(("game", "g"), _games(), ids=GAME_KEYS)
def test_the_rules_expose_their_option_values(game: str, g: Any) -> None:
    """``rules.opt`` is every option's resolved value, in each game (reference/hanafuda/games/musashino.py:
    the property answered None and nothing noticed)."""
    values = spec_for(game).resolve(None, {})
    assert dict(g.rules(None, {}).opt) == dict(values)


def test_hand_plays_are_sorted_when_bits_do_not_follow_ids() -> None:
    """``fishing.hand_plays`` answers in action order even for an index whose bit order is not its id
    order (the Daini index: the Oni, id 0, is bit 40) (reference/hanafuda/fishing.py: the sort for such
    an index deleted; no game calls it with one today)."""
    from hanafuda.engine import ACTION_ORDER
    from hanafuda.fishing import Table, hand_plays
    from hanafuda.games.kujuroku import INDEX

    assert not INDEX.id_order
    hand = [INDEX.by_id[i] for i in (0, 10, 52)]
    t = Table.deal(INDEX, [hand, []], [INDEX.by_id[i] for i in (20, 53)], [])
    plays = hand_plays(t, 0)
    assert [a.cards for a in plays] == [(0,), (10,), (52,)]
    assert plays == sorted(plays, key=ACTION_ORDER)


@pytest.mark.parametrize("text", ["", "   ", "Play 10", "10 play", "play! 10"])
def test_action_syntax_an_action_starts_with_its_kind(text: str) -> None:
    """``Action.parse`` refuses text that does not start with an action kind, with ActionSyntaxError
    (reference/hanafuda/engine.py: the check deleted; empty text then failed with IndexError and a bad
    kind was accepted)."""
    from hanafuda.engine import Action, ActionSyntaxError

    with pytest.raises(ActionSyntaxError, match="not an action"):
        Action.parse(text)


@pytest.mark.parametrize("text", ["draw left 10", "koikoi yes 20 30"])
def test_action_syntax_cards_come_before_the_label(text: str) -> None:
    """An action's text is its kind, its cards, then at most one label: a card after the label is
    refused (reference/hanafuda/engine.py: the check deleted, such a text was read with the card)."""
    from hanafuda.engine import Action, ActionSyntaxError

    with pytest.raises(ActionSyntaxError, match="card after label"):
        Action.parse(text)
    assert str(Action.parse("draw 10 left")) == "draw 10 left"


@pytest.mark.parametrize("game", GAME_KEYS)
def test_no_action_is_legal_once_the_round_is_over(game: str) -> None:
    """``Game.apply`` on a finished round raises GameOverError whatever the action (reference/hanafuda/
    engine.py: the check deleted; the error then depended on each game's explanation)."""
    from hanafuda.engine import Action, GameOverError

    a = _play(game, {}, 1)
    m = a.match
    rng = SplitMix64(1)
    state = m.state
    while not m.game.is_terminal(state):
        acts = m.game.legal_actions(state)
        state = m.game.apply(state, acts[rng.below(len(acts))])
    assert m.game.legal_actions(state) == ()  # an empty tuple, not None (mutation run 8, koikoi.py)
    for text in ("play 10", "stop", "koikoi", "draw"):
        with pytest.raises(GameOverError, match="round is over"):
            m.game.apply(state, Action.parse(text))


@pytest.mark.parametrize(("field_three", "misdeal"), [("misdeal", True), ("play", False)])
def test_KK_DEAL_9_koikoi_three_of_a_month_on_the_table(field_three: str, misdeal: bool) -> None:
    """KK-DEAL-9: with field_three=misdeal, three cards of a month dealt to the table void the deal
    (reference/hanafuda/games/koikoi.py: 'three' moved to 'four'; no test played the option)."""
    from hanafuda.adapter import start_from_deck
    from hanafuda.games.koikoi import GAME

    from tests.stacking import koikoi_order

    order = koikoi_order([21, 31, 41, 51, 61, 71, 81, 91], [10, 11, 12, 20, 30, 40, 50, 60],
                         [22, 32, 42, 52, 62, 72, 82, 92])
    m = start_from_deck(GAME, GAME.rules(None, {"field_three": field_three}), order, seed=3)
    assert [o.reason for o in m.info.history] == (["misdeal"] if misdeal else [])


def test_KK_WILD_1_koikoi_a_wild_capture_counts_for_must_capture() -> None:
    """KK-WILD-1 with discard=must-capture (decision KK-13): when only the wild Lightning can capture,
    it must, and the cards that capture nothing may not be played (reference/hanafuda/games/koikoi.py:
    the filter deleted)."""
    from dataclasses import replace

    from hanafuda.games.koikoi import GAME

    s = _kk_state(([113, 33], [43]), [21, 40], [50, 51], lightning="wild", discard="must-capture")
    s = replace(s, lightning_wild=True)
    assert [str(a) for a in GAME.legal_actions(s)] == ["play 113 21", "play 113 40"]
    free = replace(_kk_state(([113, 33], [43]), [21, 40], [50, 51], lightning="wild"), lightning_wild=True)
    assert [str(a) for a in GAME.legal_actions(free)] == ["play 33", "play 113", "play 113 21", "play 113 40"]


@pytest.mark.parametrize("month_cards", ["on", "off"])
def test_KK_YAKU_14_koikoi_cards_of_the_month_on_the_table_scorer(month_cards: str) -> None:
    """KK-YAKU-14: ``score_on_table`` (the scorer used when the table matters) counts Cards of the Month
    exactly when month_cards is on (reference/hanafuda/games/koikoi.py: the condition negated)."""
    from hanafuda.games.koikoi import GAME
    from hanafuda_spec.cards import card

    rules = GAME.rules(None, {"month_cards": month_cards, "viewing": "weather"})
    got = GAME.score_on_table(rules, [card(i) for i in (30, 31, 32, 33)], [], 3)
    assert ("cards-of-the-month" in {y.id for y in got.yaku}) == (month_cards == "on")


@pytest.mark.parametrize(("game", "g"), _games(), ids=GAME_KEYS)
def test_a_round_in_play_has_no_result(game: str, g: Any) -> None:
    """``round_result`` of a round still in play raises ValueError, in each game (reference/hanafuda/games/
    koikoi.py: the check deleted; a live round was scored as if over)."""
    a = _play(game, {}, 1)
    with pytest.raises(ValueError, match="not over"):
        g.round_result(a.match.state)


@pytest.mark.parametrize(("called", "points"), [(False, 1), (True, 3)])
def test_KK_YAKU_17_koikoi_viewing_yaku_worth_1_then_3_after_a_call(called: bool, points: int) -> None:
    """KK-YAKU-17: with viewing_value=1-3 each viewing yaku is worth 1, or 3 once its holder has called
    koi-koi (spec/hanafuda_spec/games/koikoi.py: the two values exchanged)."""
    from hanafuda_spec.games import koikoi as kk

    values = spec_for("koikoi").resolve(None, {"viewing_value": "1-3"})
    rows = {y.id: y.points for y in kk.yaku_table(values, month=None, called=called)}
    assert (rows["flower-viewing"], rows["moon-viewing"]) == (points, points)


def test_a_capture_of_one_of_two_needs_its_target() -> None:
    """``fishing.capture`` of a card matching two field cards needs one of them as its target, and
    refuses none or another card (reference/hanafuda/fishing.py: the refusal deleted; the card then took
    both)."""
    from hanafuda.fishing import Table, capture
    from hanafuda.games.koikoi import INDEX
    from hanafuda_spec.cards import card

    t = Table.deal(INDEX, [[card(10)], []], [card(11), card(12), card(20)], [])
    assert capture(t, card(10), 12) == (INDEX.mask_of([card(11), card(20)]), INDEX.mask_of([card(10), card(12)]))
    for target in (None, 20, 13):
        with pytest.raises(ValueError, match="target"):
            capture(t, card(10), target)


@pytest.mark.parametrize("game", GAME_KEYS)
def test_no_action_once_the_match_is_over(game: str) -> None:
    """``Match.apply`` after the match ended says so (GameOverError, 'the match is over'), not only that
    the round is over (reference/hanafuda/engine.py: the match's own check deleted)."""
    from hanafuda.engine import Action, GameOverError

    opts = {"koikoi": {"length": "1"}, "kusurigui": {"rounds": "6"}, "musashino": {"length": "3"}}.get(game, {})
    a = _play(game, opts, 2)
    rng = SplitMix64(2)
    while not a.match_over():
        acts = a.legal_actions()
        a.apply(acts[rng.below(len(acts))])
    with pytest.raises(GameOverError, match="match is over"):
        a.match.apply(Action.parse("play 10"))


# -- mutation run 7 ------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "g"), _games(), ids=GAME_KEYS)
def test_a_snapshot_of_the_first_round_without_match_info_is_the_same(game: str, g: Any) -> None:
    """``snapshot(state)`` without the match's info shows the same scores as with it in the first round
    (no points yet), in each game (reference/hanafuda/games/kekoro.py and musashino.py: the default
    scores' 0 made 1 gave seat 0 a point)."""
    a = _play(game, {}, 1)
    m = a.match
    assert m.info.rounds_played == 0
    assert g.snapshot(m.state) == g.snapshot(m.state, m.info)


def test_an_illegal_action_error_says_why_and_names_the_rule() -> None:
    """The text of ``IllegalActionError`` is its reason followed by its rule id, as the command line
    shows it (reference/hanafuda/engine.py: the call to ``ValueError.__init__`` deleted left it empty)."""
    from hanafuda.engine import Action, IllegalActionError

    a = _play("koikoi", {}, 1)
    with pytest.raises(IllegalActionError) as caught:
        a.match.apply(Action.parse("stop"))
    err = caught.value
    assert err.reason and err.rule_id.startswith("KK-")
    assert str(err) == f"{err.reason} [{err.rule_id}]"
