"""The options taken from koikoi-scorer (ENG-KKS) and its engine profile: one test per rule id, on piles
whose scores were worked out by hand from the scorer's code (src/scoring-hand-calculator.cpp,
src/score-table.cpp) at the commit its source entry names."""

from __future__ import annotations

import pytest
from hanafuda.records import problems_of, record_match
from hanafuda.registry import game
from hanafuda_spec.catalogue import Evidence
from hanafuda_spec.games.koikoi import SPEC
from hanafuda_spec.sources import IMPLEMENTATION, SOURCES

from tests.test_koikoi import yaku

SCORER = {k: v for k, v in SPEC.resolve("koikoi-scorer").items() if v != SPEC.resolve()[k]}


def test_KK_YAKU_20_rain_man_with_three_brights_is_three_brights() -> None:
    four = [10, 30, 80, 110]
    assert yaku(four) == {"rainy-four-brights": 7}
    assert yaku(four, rainy_four_brights="three-brights") == {"three-brights": 6}
    assert yaku(four, rainy_four_brights="three-brights", three_brights="5") == {"three-brights": 5}
    # the Rain Man with two others forms nothing either way; five and the dry four are unchanged
    assert yaku([10, 30, 110], rainy_four_brights="three-brights") == {}
    assert yaku([10, 30, 80, 110, 120], rainy_four_brights="three-brights") == {"five-brights": 15}
    assert yaku([10, 30, 80, 120], rainy_four_brights="three-brights") == {"four-brights": 8}
    # the book's yaku set has no Three Brights at all
    assert yaku(four, rainy_four_brights="three-brights", yaku_set="flower-card-game") == {}


@pytest.mark.parametrize(("value", "rained"), [("rain-pile", {110, 113}), ("willow-pile", {110, 111, 112, 113})])
def test_KK_YAKU_21_viewing_rained_off_by_the_holders_own_pile(value: str, rained: set[int]) -> None:
    for willow in (110, 111, 112, 113):
        got = yaku([30, 80, 90, willow], viewing=value)
        viewing = {k: v for k, v in got.items() if k.endswith("-viewing")}
        assert viewing == ({} if willow in rained else {"flower-viewing": 5, "moon-viewing": 5}), (value, willow)
    assert yaku([30, 90], viewing=value) == {"flower-viewing": 5}
    # the table does not matter (that is viewing=weather)
    assert yaku([30, 90], viewing="weather") == {"flower-viewing": 5}


def test_KK_YAKU_20_21_cite_the_scorer_code() -> None:
    for rid in ("KK-YAKU-20", "KK-YAKU-21"):
        rule = SPEC.rule(rid)
        assert rule.evidence is Evidence.IMPLEMENTATION
        assert all(c.source == "ENG-KKS" and ": ScoringHandCalculator::" in c.section for c in rule.citations)
    src = SOURCES["ENG-KKS"]
    assert src.kind == IMPLEMENTATION and src.repository == "sidsryu/koikoi-scorer"
    assert src.commit == "d8376a8340df10619d1c457f99cac1a5294c03a4"


def test_koikoi_scorer_profile_scores_piles_as_the_scorer_does() -> None:
    """Piles whose scorer totals follow from its code with no rule added (its defaults)."""
    cases = {
        (10, 30, 80, 110, 120): {"five-brights": 10},
        (10, 30, 80, 120): {"four-brights": 8},
        (10, 30, 80, 110): {"three-brights": 5},
        (10, 30, 80): {"three-brights": 5},
        (30, 90): {},  # no viewing yaku
        (60, 70, 100, 20, 40): {"boar-deer-butterfly": 5, "animals": 1},  # no extra point, stacks with Kinds
        (11, 21, 31, 41, 51): {"poetry-ribbons": 5, "ribbons": 1},
        (11, 21, 31, 61, 91, 101): {"poetry-ribbons": 5, "blue-ribbons": 5, "ribbons": 2},
        (90, 12, 13, 22, 23, 32, 33, 42, 43, 52): {},  # the Sake Cup is not a Plain: nine Chaff
        (12, 13, 22, 23, 32, 33, 42, 43, 52, 53): {"chaff": 1},
    }
    for pile, want in cases.items():
        assert yaku(list(pile), None, **SCORER) == want, pile
    assert SCORER["seven_double"] == "off" and SCORER["month_cards"] == "off"


def test_koikoi_scorer_profile_records_validate() -> None:
    doc = record_match(game("koikoi"), "koikoi-scorer", {"length": "3"}, seed=11, policy_seed=11)
    assert problems_of(doc) == []
