"""Koi-Koi options and engine profiles taken from open engines (issue 13): one test per rule id,
with stacked decks and hand-built positions, and random play under each profile."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hanafuda.adapter import ReferenceAdapter, start_from_deck
from hanafuda.engine import Action, MatchInfo, RoundResult
from hanafuda.fishing import Table
from hanafuda.games.koikoi import GAME, INDEX, KoiKoiRound, KoiKoiState, Phase
from hanafuda.records import problems_of, record_match
from hanafuda.registry import game
from hanafuda_spec.cards import card
from hanafuda_spec.catalogue import Evidence
from hanafuda_spec.games.koikoi import PROFILE, SPEC
from hanafuda_spec.invariants import run_random
from hanafuda_spec.sources import IMPLEMENTATION, SOURCES
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.stacking import koikoi_order
from tests.test_koikoi import state, yaku


def _call_state(hand0: list[int], captured0: list[int], calls: tuple[int, int] = (0, 0), **opts: str) -> KoiKoiState:
    """Seat 0 at a decision point (it has just formed a yaku)."""
    s = state((hand0, [12, 13]), [22, 23], [32, 33], (captured0, []), 0, **opts)
    return replace(s, phase=Phase.CALL, calls=calls)


# -- the koi-koi call --------------------------------------------------------------------------

def test_KK_TURN_8_one_koikoi_per_round_for_both_players() -> None:
    s = _call_state([42], [10, 30, 80], calls=(0, 1), koikoi_limit="once-per-round")
    assert [str(a) for a in GAME.legal_actions(s)] == ["stop"]
    assert GAME.explain_illegal(s, Action.parse("koikoi"))[0] == "KK-TURN-8"
    free = _call_state([42], [10, 30, 80], calls=(0, 1))
    assert [str(a) for a in GAME.legal_actions(free)] == ["koikoi", "stop"]
    first = _call_state([42], [10, 30, 80], koikoi_limit="once-per-round")
    assert [str(a) for a in GAME.legal_actions(first)] == ["koikoi", "stop"]


def test_KK_TURN_9_no_koikoi_with_an_empty_hand() -> None:
    s = _call_state([], [10, 30, 80], koikoi_last_turn="forbidden")
    assert [str(a) for a in GAME.legal_actions(s)] == ["stop"]
    assert GAME.explain_illegal(s, Action.parse("koikoi"))[0] == "KK-TURN-9"
    assert [str(a) for a in GAME.legal_actions(_call_state([], [10, 30, 80]))] == ["koikoi", "stop"]
    assert [str(a) for a in GAME.legal_actions(_call_state([42], [10, 30, 80], koikoi_last_turn="forbidden"))] \
        == ["koikoi", "stop"]


def _two_calls_record(ruleset: str) -> dict[str, Any]:
    """A reference-written record (under fudawiki) in which both players call koi-koi in one round,
    relabelled with ``ruleset``."""
    for seed in range(1, 400):
        doc = record_match(GAME, None, {"length": "1"}, seed=seed, policy_seed=seed)
        acts = [str(a) for a in doc["actions"]]  # type: ignore[union-attr]
        if acts.count("koikoi") >= 2:
            doc["rules"] = {"ruleset": ruleset, "options": {}}
            return doc
    raise AssertionError("no seed with two koi-koi calls in one round")


def test_KK_TURN_8_battle_hanafuda_rejects_two_calls_in_one_round() -> None:
    doc = _two_calls_record("battle-hanafuda")
    doc_f = dict(doc, rules={"ruleset": "fudawiki", "options": {"length": "1"}})
    assert problems_of(doc_f) == []
    doc["rules"] = {"ruleset": "battle-hanafuda", "options": {"length": "1", "teyaku": "win", "field_three": "play",
                                                              "packets": "4", "koikoi_last_turn": "allowed"}}
    probs = problems_of(doc)
    assert probs and probs[0].rule_id == "KK-TURN-8", [str(p) for p in probs]


# -- the deal ------------------------------------------------------------------------------

def test_KK_DEAL_9_three_of_a_month_on_the_table() -> None:
    order = koikoi_order([20, 21, 30, 31, 40, 41, 50, 60], [10, 11, 12, 70, 80, 90, 100, 110],
                         [22, 32, 42, 51, 61, 71, 81, 91])
    assert start_from_deck(GAME, GAME.rules(None, {"field_three": "misdeal"}), order).info.history[0].reason \
        == "misdeal"
    assert not start_from_deck(GAME, GAME.rules(), order).info.history


def test_KK_DEAL_12_four_of_a_month_on_the_table_is_played_on() -> None:
    order = koikoi_order([20, 21, 30, 31, 40, 41, 50, 60], [10, 11, 12, 13, 70, 80, 90, 100],
                         [22, 32, 42, 51, 61, 71, 81, 91])
    m = start_from_deck(GAME, GAME.rules(None, {"field_teyaku": "play"}), order)
    assert not m.info.history and {10, 11, 12, 13} <= {c.id for c in m.state.table.field}


FOUR_PAIRS = [10, 11, 20, 21, 30, 31, 40, 41]


def test_KK_DEAL_10_four_pairs_on_the_table_is_its_own_choice() -> None:
    order = koikoi_order([22, 23, 32, 42, 50, 60, 70, 80], FOUR_PAIRS, [51, 61, 71, 81, 90, 100, 110, 120])
    for ft in ("misdeal", "dealer-wins", "dealer-captures"):
        m = start_from_deck(GAME, GAME.rules(None, {"field_teyaku": ft}), order)
        assert m.info.history and m.info.history[0].reason == "misdeal", ft
        m = start_from_deck(GAME, GAME.rules(None, {"field_teyaku": ft, "field_pairs": "play"}), order)
        assert not m.info.history, ft


def test_KK_DEAL_11_four_pairs_in_a_hand() -> None:
    order = koikoi_order([22, 23, 32, 42, 50, 60, 70, 80], [51, 61, 71, 81, 90, 100, 110, 120], FOUR_PAIRS)
    assert start_from_deck(GAME, GAME.rules(), order).info.history[0].reason == "teyaku"
    assert not start_from_deck(GAME, GAME.rules(None, {"hand_pairs": "off"}), order).info.history
    four = koikoi_order([22, 23, 32, 42, 50, 60, 70, 80], [51, 61, 71, 81, 90, 100, 110, 120],
                        [10, 11, 12, 13, 30, 40, 111, 121])
    assert start_from_deck(GAME, GAME.rules(None, {"hand_pairs": "off", "teyaku": "misdeal"}), four) \
        .info.history[0].reason == "misdeal"


# -- yaku and scoring ----------------------------------------------------------------------------

def test_KK_YAKU_17_viewing_worth_1_then_3_after_own_call() -> None:
    rules = GAME.rules(None, {"viewing_value": "1-3"})
    pile = INDEX.mask_of([card(30), card(90), card(80)])
    from hanafuda.games.koikoi import score_mask
    assert {y.id: y.points for y in score_mask(rules, pile, None)} == {"flower-viewing": 1, "moon-viewing": 1}
    assert {y.id: y.points for y in score_mask(rules, pile, None, called=True)} == \
        {"flower-viewing": 3, "moon-viewing": 3}


def test_KK_YAKU_17_a_call_is_not_an_improvement() -> None:
    """The first call re-values the caller's viewing yaku (1 -> 3) without giving a new decision."""
    s = _call_state([42, 43], [30, 90], viewing_value="1-3")
    s = replace(s, seen=(KoiKoiRound(s).yaku(0), ()))
    after = GAME.do(s, Action.parse("koikoi"))
    assert after.calls == (1, 0)
    assert {y.id: y.points for y in after.seen[0]} == {"flower-viewing": 3}


def test_KK_YAKU_18_poetry_blue_stacks() -> None:
    ribbons = [11, 21, 31, 61, 91, 101]
    assert yaku(ribbons, yaku_system="older-stacked") == \
        {"poetry-blue-ribbons": 10, "poetry-ribbons": 5, "blue-ribbons": 5, "ribbons": 2}
    assert yaku(ribbons, yaku_system="older") == {"poetry-ribbons": 5, "blue-ribbons": 5, "ribbons": 2}
    assert yaku(ribbons) == {"poetry-blue-ribbons": 10}


def test_KK_YAKU_19_older_yaku_sets() -> None:
    pile = [60, 70, 100, 30, 90, 10, 80, 110]
    full = yaku(pile)
    assert "boar-deer-butterfly" in full and "flower-viewing" in full and "rainy-four-brights" in full
    leaflet = yaku(pile, yaku_set="leaflet-1960s")
    assert "boar-deer-butterfly" not in leaflet and "flower-viewing" not in leaflet
    assert "rainy-four-brights" in leaflet
    book = yaku(pile, yaku_set="flower-card-game")
    assert "rainy-four-brights" not in book and yaku([10, 30, 80], yaku_set="flower-card-game") == {}


@pytest.mark.parametrize(("value", "count"), [("off", 10), ("sake", 11), ("lightning", 11), ("paulownia", 11),
                                              ("sake+lightning", 12), ("lightning+paulownia", 12), ("on", 13)])
def test_KK_YAKU_16_each_card_counts_as_two_chaff_on_its_own(value: str, count: int) -> None:
    pile = [12, 13, 22, 23, 32, 33, 42, 90, 113, 121]  # 7 plain chaff + Sake Cup, Lightning, yellow Paulownia
    assert yaku(pile, chaff_doubles=value).get("chaff", 0) == count - 9


@pytest.mark.parametrize(("own", "base", "want"), [(0, 5, 5), (1, 5, 6), (2, 5, 7), (3, 5, 8), (4, 5, 10),
                                                   (5, 5, 15), (4, 1, 2)])
def test_KK_SCORE_6_additive_koikoi_bonus(own: int, base: int, want: int) -> None:
    s = replace(_call_state([], [], calls=(own, 2), multiplier="additive", seven_double="off"),
                phase=Phase.OVER, end="shobu", winner=0)
    pts, _ = s.rules.shobu_points(s.calls, s.field_brights, 0, ((replace_points(base),), ()))
    assert pts == want


def replace_points(points: int) -> Any:
    from hanafuda_spec.yaku import ScoredYaku
    return ScoredYaku("chaff", points)


# -- the game ------------------------------------------------------------------------------

def test_KK_GAME_3_thirty_points_and_the_end_at_zero() -> None:
    rules = GAME.rules("koikoi-japan")
    info = GAME.new_match(rules, 0)
    assert info.scores == (30, 30)
    lost = RoundResult("shobu", (31, -31), 0, next_dealer=0)
    after = GAME.settle(rules, info, lost)
    assert after.over and after.end_reason == "zero" and after.winners == (0,)
    assert not GAME.settle(rules, info, RoundResult("shobu", (5, -5), 0, next_dealer=0)).over
    eight = MatchInfo((30, 30), 0, 7)
    assert GAME.settle(rules, eight, RoundResult("exhaustive", (1, -1), None, next_dealer=0)).over


# -- profiles and sources ---------------------------------------------------------------------------

PROFILES = ["battle-hanafuda", "koikoi-japan", "go-koikoi", "koikoi-scorer"]


def test_implementation_sources_name_repository_and_commit() -> None:
    engines = [s for s in SOURCES.values() if s.kind == IMPLEMENTATION]
    assert {s.key for s in engines} >= {"ENG-BH", "ENG-KKAI", "ENG-GOKK"}
    for s in engines:
        assert len(s.commit) == 40 and "/" in s.repository and s.commit in s.url
    for r in SPEC.rules:
        if r.evidence is Evidence.IMPLEMENTATION:
            assert all(SOURCES[c.source].kind == IMPLEMENTATION and ": " in c.section for c in r.citations), r.id


@pytest.mark.parametrize("profile", PROFILES)
def test_profiles_cite_the_engine(profile: str) -> None:
    rs = SPEC.ruleset(profile)
    assert SOURCES[rs.citation.source].kind == IMPLEMENTATION
    for key in rs.values:
        SPEC.option(key)


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_profiles_keep_the_invariants(profile: str, seed: int) -> None:
    rep = run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(profile), seed, seed + 1)
    assert not rep.violations, str(rep.violations[0])


@pytest.mark.parametrize("profile", PROFILES)
def test_profile_records_validate(profile: str) -> None:
    g = game("koikoi")
    doc = record_match(g, profile, {}, seed=7, policy_seed=7)
    assert problems_of(doc) == []
    if profile == "koikoi-japan":
        rules: Any = doc["rules"]
        assert rules["options"]["length"] == "8"


def test_KK_TURN_9_koikoi_japan_forces_the_stop_on_the_last_turn() -> None:
    """Random play under koikoi-japan: every decision point reached with an empty hand offers shōbu only,
    and some are reached."""
    from hanafuda.engine import Match
    from hanafuda_spec.shuffle import SplitMix64

    rules = GAME.rules("koikoi-japan")
    seen = 0
    for seed in range(10):
        m = Match.start(GAME, rules, seed)
        rng = SplitMix64(seed)
        while not m.over:
            legal = m.legal_actions()
            st_ = m.state
            if st_.phase is Phase.CALL and not st_.table.hand_masks[st_.turn]:
                assert [str(a) for a in legal] == ["stop"]
                seen += 1
            m = m.apply(legal[rng.below(len(legal))])
    assert seen


_ = Table  # (imported for type checkers of the helpers in tests.test_koikoi)
