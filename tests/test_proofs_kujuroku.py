"""The z3 proofs of Kujuroku's dekiyaku configurations A–D (:mod:`hanafuda_spec.proofs.kujuroku`):
the tables over one Boolean per card, the deal and capture-step models, and wrong engines (the
reference behind a wrapper that changes one thing) caught with a counterexample that replays."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import RoundOutcome
from hanafuda_spec.games import kujuroku as kj
from hanafuda_spec.games.kujuroku import JIZO, ONI
from hanafuda_spec.proofs.common import Outcome, YakuModel, expected_scores
from hanafuda_spec.proofs.kujuroku import (
    CONFIGS,
    DECISIONS,
    NUMBERED,
    DealModel,
    StepModel,
    _deal_dekiyaku,
    _dekiyaku,
    _formation,
    _jizo_piles,
    _special_three,
    dekiyaku_claims,
    dekiyaku_label,
    dekiyaku_rows,
    rank_cards,
)
from hanafuda_spec.verify import replay
from hanafuda_spec.yaku import ScoredYaku, best_per_group
from hypothesis import given
from hypothesis import strategies as st

from tests.wrapping import Delegate

#: The dekiyaku no deal and no single capture step can complete (what _formation reports).
NEVER = {"A": {"shi-dan-san"}, "B": {"shi-dan-san"}, "C": {"shi-san", "shi-dan-san"}, "D": {"nejikomi"}}
#: The most one dekiyaku round can pay each of the two others, by configuration and stacking.
MOST = {("A", False): 12, ("A", True): 24, ("B", False): 8, ("B", True): 14,
        ("C", False): 14, ("C", True): 28, ("D", False): 15, ("D", True): 15}
#: The dekiyaku the dealer's takes can form at the deal.
AT_DEAL = {"A": {"danjou"}, "B": {"danjou"}, "C": set(), "D": {"danna"}}


def _open(o: Outcome) -> bool:
    return any(c.gap is None for c in o.cases)


def _first_failure(outcomes: Iterable[Outcome]) -> Outcome:
    for o in outcomes:
        if not o.ok and not _open(o):
            return o
    raise AssertionError("every check passed although the engine is wrong")


# -- the tables ---------------------------------------------------------------------------------------

@given(st.sampled_from(CONFIGS), st.booleans(), st.booleans(), st.data())
def test_KJ_YAKU_4_z3_tables_score_like_the_catalogue_rows(config: str, stack: bool, jizo: bool,
                                                          data: st.DataObject) -> None:
    """The z3 encoding of a configuration (either count, either deck) scores a pile as the rows' plain
    set definition does: the most valuable formed dekiyaku, or every formed one when stacking."""
    deck = kj.DECK_IDS[jizo]
    pile = data.draw(st.sets(st.sampled_from(deck), max_size=20))
    rows = dekiyaku_rows(config, stack)
    assert sorted(expected_scores(YakuModel(rows, deck), sorted(pile))) == sorted(best_per_group(rows, pile))


@pytest.mark.parametrize("config", CONFIGS)
def test_KJ_YAKU_4_catalogue_claims_hold_for_either_count_and_deck(config: str) -> None:
    for stack in (False, True):
        for jizo in (False, True):
            m = YakuModel(dekiyaku_rows(config, stack), kj.DECK_IDS[jizo])
            claims = dekiyaku_claims(config, stack, jizo)
            assert any(n.startswith("KJ-YAKU-4") for n, _ in claims)
            assert any(n.startswith("KJ-20") for n, _ in claims)
            assert any(n.startswith("KJ-YAKU-9") for n, _ in claims) == jizo
            for name, claim in claims:
                assert z.prove(name, claim(m)).ok, (config, stack, jizo, name)


def test_KJ_10_configuration_C_sum_of_parts_catches_a_wrong_value() -> None:
    """Shi-Dan worth 13 instead of Shi Yaku + Danjou = 12: z3 shows a pile forming it."""
    rows = tuple(replace(y, points=13) if y.id == "shi-dan" else y for y in kj.CONFIGURATIONS["C"])
    m = YakuModel(rows, kj.DECK_IDS[False])
    name, claim = next((n, c) for n, c in dekiyaku_claims("C", False, False) if "sum" in n)
    r = z.prove(name, claim(m))
    assert not r.ok
    assert kj.FOURS | {kj.ITSUN, kj.SPECIAL_3} <= set(m.pile_of(r.counterexample))


def test_KJ_20_a_table_naming_a_plain_3_breaks_the_configuration_A_claim() -> None:
    rows = tuple(replace(y, required=frozenset({ONI, kj.ITSUN, 31})) if y.id == "danjou" else y
                 for y in kj.CONFIGURATIONS["A"])
    m = YakuModel(rows, kj.DECK_IDS[False])
    name, claim = next((n, c) for n, c in dekiyaku_claims("A", False, False) if n.startswith("KJ-20"))
    assert not z.prove(name, claim(m)).ok


def test_KJ_YAKU_9_a_table_the_jizo_blocks_breaks_the_claim() -> None:
    rows = tuple(replace(y, forbidden=frozenset({JIZO})) if y.id == "danjou" else y for y in kj.CONFIGURATIONS["A"])
    m = YakuModel(rows, kj.DECK_IDS[True])
    name, claim = next((n, c) for n, c in dekiyaku_claims("A", False, True) if n.startswith("KJ-YAKU-9"))
    r = z.prove(name, claim(m))
    assert not r.ok and {ONI, kj.ITSUN, kj.ISHI} <= set(m.pile_of(r.counterexample))


# -- the deal and the capture step --------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS)
def test_KJ_YAKU_1_dekiyaku_the_dealers_takes_can_form(config: str) -> None:
    for jizo in (False, True):
        dm = DealModel(dekiyaku_rows(config, False), jizo)
        got = {y.id for i, y in enumerate(dm.pile.rows) if z.find([*dm.constraints, dm.pile.scores[i] > 0])}
        assert got == AT_DEAL[config]


def test_KJ_DEAL_3_to_5_the_deal_model_allows_only_what_the_deal_rules_allow() -> None:
    dm = DealModel(kj.CONFIGURATIONS["A"], True)
    # KJ-DEAL-3: four of a number on the field is a misdeal, nothing is taken
    assert z.find([*dm.constraints, *(dm.f[c] for c in rank_cards(4))]) is None
    # KJ-DEAL-5: the Oni and the Jizo dealt together take no other card with them
    assert z.find([*dm.constraints, dm.f[ONI], dm.f[JIZO], z.any_of(dm.o.values())]) is None
    # KJ-DEAL-4: a dealt Oni alone takes exactly one card; KJ-DEAL-6: two of a triple
    w = z.find([*dm.constraints, dm.f[ONI], ~dm.f[JIZO], *(dm.f[c] for c in rank_cards(5)[:3])])
    assert w is not None
    assert sum(w.get(f"o{c}") is True for c in dm.o) == 1
    assert sum(w.get(f"d{c}") is True for c in rank_cards(5)) in (0, 2)


@pytest.mark.parametrize("config", CONFIGS)
def test_KJ_8_dekiyaku_that_can_end_a_round_and_the_most_it_pays(config: str) -> None:
    for stack in (False, True):
        rows = dekiyaku_rows(config, stack)
        sm, dm = StepModel(rows, False), DealModel(rows, False)
        never = {y.id for i, y in enumerate(rows)
                 if z.prove("step", sm.after.scores[i].eq(0), sm.constraints).ok
                 and z.prove("deal", dm.pile.scores[i].eq(0), dm.constraints).ok}
        assert never == NEVER[config]
        assert z.maximize("most", sm.after.total, sm.constraints).value == MOST[config, stack]


def test_KJ_ONI_7_the_remaining_card_counts_for_the_oni_holder_only() -> None:
    """A step that adds an odd number of numbered cards without the Oni adds a confirmed remaining
    card, so the pile before it holds the Oni; with it, a pair of 4s can complete Shi-Dan."""
    sm = StepModel(kj.CONFIGURATIONS["A"], False)
    odd = z.count(sm.s[c] for c in NUMBERED)
    assert z.prove("holder", sm.before.has(ONI), [*sm.constraints, ~sm.s[ONI], odd.eq(1) | odd.eq(3)]).ok
    i = [y.id for y in sm.after.rows].index("shi-dan")
    w = z.find([*sm.constraints, sm.after.scores[i] > 0, ~sm.s[ONI], odd.eq(3)])
    assert w is not None
    added = [c for c in sm.after.pile_of(w) if c not in sm.before.pile_of(w)]
    assert len(added) == 3 and {c // 10 for c in added} == {4} and ONI in sm.before.pile_of(w)


def test_KJ_8_the_never_paid_dekiyaku_are_reported_as_cases() -> None:
    o = _formation(ReferenceAdapter(), "C", False, False)
    assert [c.gap for c in o.cases] == [DECISIONS["dekiyaku-never-paid"]] * 2
    assert "Shi-San (10)" in o.cases[0].text and "Shi-Dan-San (18)" in o.cases[1].text
    assert o.ok == (DECISIONS["dekiyaku-never-paid"] is not None)
    assert "most after a step 14" in o.detail


@pytest.mark.parametrize("config", CONFIGS)
def test_KJ_26_with_the_jizo_timing_of_KJ_27_every_dekiyaku_can_be_paid(config: str) -> None:
    """Under jizo_timing=after-draw the Oni's turn is one check: it adds the Oni and cards of two
    numbers, so the rows the 41-card game never pays are paid; the witness is scored by the reference."""
    o = _formation(ReferenceAdapter(), config, False, True)
    assert o.ok and o.cases == (), o.detail
    assert "never: none" in o.detail
    for y in NEVER[config]:
        name = next(r for r in kj.CONFIGURATIONS[config] if r.id == y).id
        assert f"{name} (" in o.detail  # listed as paid, with its pile before and what the step added


def test_KJ_26_at_capture_timing_keeps_the_41_card_model() -> None:
    sm = StepModel(kj.CONFIGURATIONS["A"], True)  # after_draw off: each capture checked at once
    i = [y.id for y in sm.after.rows].index("shi-dan-san")
    assert z.prove("never", sm.after.scores[i].eq(0), sm.constraints).ok
    sm = StepModel(kj.CONFIGURATIONS["A"], True, after_draw=True)
    assert not z.prove("never", sm.after.scores[i].eq(0), sm.constraints).ok


# -- against the reference ----------------------------------------------------------------------------

def test_KJ_YAKU_3_quick_run_is_configuration_A_and_one_check_per_other_configuration() -> None:
    outs = list(_dekiyaku(ReferenceAdapter(), quick=True))
    for config in "BCD":
        assert sum(f"configuration {config} " in o.check for o in outs) == 1
    assert sum("configuration A " in o.check for o in outs) >= 15
    assert all(o.ok for o in outs if not _open(o))
    assert all("can end a round" in o.check for o in outs if _open(o))


@pytest.mark.parametrize("config", CONFIGS)
def test_KJ_YAKU_1_the_reference_forms_each_deal_dekiyaku_and_pays_it(config: str) -> None:
    for jizo in (False, True):
        o = _deal_dekiyaku(ReferenceAdapter(), config, False, jizo)
        assert o.ok, o.detail
        assert o.examples == len(AT_DEAL[config])


def test_KJ_YAKU_5_to_8_full_depth_passes_on_the_reference() -> None:
    outs = list(_dekiyaku(ReferenceAdapter(), quick=False))
    bad = [o.check for o in outs if not o.ok and not _open(o)]
    assert bad == []
    for config in CONFIGS:
        for stack, jizo in ((False, False), (True, False), (False, True), (True, True)):
            label = dekiyaku_label(config, stack, jizo)
            assert any(o.check.endswith(label) and "boundary" in o.check for o in outs), label
            assert any(o.check.endswith(label) and "at the deal" in o.check for o in outs), label
            assert any(o.check.endswith(label) and "can end a round" in o.check for o in outs), label


class WrongShiDan(Delegate):
    """Configuration C's Shi-Dan paid 10 instead of 12."""

    def score_pile(self, game: str, options: Mapping[str, str], cards: Sequence[int],
                   month: int | None) -> tuple[tuple[ScoredYaku, ...], int | None]:
        got, pts = super().score_pile(game, options, cards, month)
        if options.get("configuration") == "C":
            got = tuple(ScoredYaku(y.id, 10) if y.id == "shi-dan" else y for y in got)
        return got, pts


def test_KJ_YAKU_7_a_wrong_configuration_C_value_is_caught_in_a_quick_run() -> None:
    bad = _first_failure(_dekiyaku(WrongShiDan(), quick=True))
    assert "configuration C" in bad.check and "shi-dan" in bad.detail
    assert bad.counterexample["kind"] == "score"
    assert replay(WrongShiDan(), bad.counterexample).reproduced
    assert not replay(ReferenceAdapter(), bad.counterexample).reproduced


class NoStacking(Delegate):
    """dekiyaku_count=stack ignored: only the most valuable dekiyaku is paid."""

    def score_pile(self, game: str, options: Mapping[str, str], cards: Sequence[int],
                   month: int | None) -> tuple[tuple[ScoredYaku, ...], int | None]:
        return super().score_pile(game, {**options, "dekiyaku_count": "highest"}, cards, month)


def test_KJ_YAKU_4_a_scorer_ignoring_stacking_is_caught_in_a_quick_run() -> None:
    bad = _first_failure(_dekiyaku(NoStacking(), quick=True))
    assert "dekiyaku_count=stack" in bad.check and bad.counterexample["kind"] == "score"
    assert replay(NoStacking(), bad.counterexample).reproduced
    assert not replay(ReferenceAdapter(), bad.counterexample).reproduced


class OniLostToJizo(Delegate):
    """An Oni subdued by the Jizo no longer counts for a dekiyaku (against KJ-YAKU-9)."""

    def score_pile(self, game: str, options: Mapping[str, str], cards: Sequence[int],
                   month: int | None) -> tuple[tuple[ScoredYaku, ...], int | None]:
        if JIZO in cards:
            cards = [c for c in cards if c != ONI]
        return super().score_pile(game, options, cards, month)


@pytest.mark.parametrize("config", ["A", "B"])
def test_KJ_YAKU_9_a_scorer_dropping_the_subdued_oni_is_caught(config: str) -> None:
    o = _jizo_piles(OniLostToJizo(), config, False)
    assert o is not None and not o.ok
    pile = o.counterexample["pile"]
    assert isinstance(pile, list) and {ONI, JIZO} <= set(pile)
    assert replay(OniLostToJizo(), o.counterexample).reproduced
    assert not replay(ReferenceAdapter(), o.counterexample).reproduced
    assert _jizo_piles(ReferenceAdapter(), "C", False) is None  # no configuration-C dekiyaku names the Oni


class AnyThreeIsSpecial(Delegate):
    """A plain 3 taken for the special 3 (against KJ-20)."""

    def score_pile(self, game: str, options: Mapping[str, str], cards: Sequence[int],
                   month: int | None) -> tuple[tuple[ScoredYaku, ...], int | None]:
        if kj.SPECIAL_3 not in cards and 31 in cards:
            cards = [kj.SPECIAL_3 if c == 31 else c for c in cards]
        return super().score_pile(game, options, cards, month)


def test_KJ_20_a_scorer_taking_a_plain_3_for_the_special_one_is_caught() -> None:
    assert _special_three(ReferenceAdapter()).ok
    o = _special_three(AnyThreeIsSpecial())
    assert not o.ok and "configuration B" in o.detail and o.counterexample["kind"] == "score"
    assert replay(AnyThreeIsSpecial(), o.counterexample).reproduced


class PaidByOne(Delegate):
    """A dekiyaku paid by one other participant only (against KJ-YAKU-2)."""

    def rounds_ended(self) -> Sequence[RoundOutcome]:
        out = []
        for o in super().rounds_ended():
            if o.reason != "dekiyaku":
                out.append(o)
                continue
            first = next(i for i, d in enumerate(o.deltas) if d < 0)
            out.append(replace(o, deltas=tuple(d // 2 if d > 0 else d if i == first else 0
                                               for i, d in enumerate(o.deltas))))
        return out


def test_KJ_YAKU_2_a_dekiyaku_at_the_deal_paid_by_one_player_is_caught() -> None:
    o = _deal_dekiyaku(PaidByOne(), "D", False, False)
    assert not o.ok and "danna" in o.detail
    cx = o.counterexample
    assert cx["kind"] == "play" and cx["check"] == "kujuroku-deal-dekiyaku" and cx["deck"]
    assert replay(PaidByOne(), cx).reproduced
    assert not replay(ReferenceAdapter(), cx).reproduced


class NoDekiyakuAtTheDeal(Delegate):
    """The round goes on after the dealer's takes formed a dekiyaku (against KJ-YAKU-1)."""

    def rounds_ended(self) -> Sequence[RoundOutcome]:
        return [o for o in super().rounds_ended() if o.reason != "dekiyaku"]


def test_KJ_YAKU_1_an_engine_not_ending_the_round_at_the_deal_is_caught() -> None:
    o = _deal_dekiyaku(NoDekiyakuAtTheDeal(), "A", False, True)
    assert not o.ok and "danjou" in o.detail
    assert replay(NoDekiyakuAtTheDeal(), o.counterexample).reproduced
