"""Koi-Koi's and Musashino-Bana's settlement models (:mod:`hanafuda_spec.proofs.zero_sum`) and
Koi-Koi's call rule (:mod:`hanafuda_spec.proofs.koikoi_calls`): the proofs hold, the reference
agrees, and a wrong model or a wrong engine fails a check of ``verify``."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.games import koikoi as ref_kk
from hanafuda.games import musashino as ref_mb
from hanafuda_spec import z3layer as z
from hanafuda_spec.games import musashino as mb
from hanafuda_spec.proofs import koikoi as kkp
from hanafuda_spec.proofs import koikoi_calls, zero_sum
from hanafuda_spec.proofs.common import DecisionRow
from hanafuda_spec.terms import INTS
from hanafuda_spec.verify import replay
from hanafuda_spec.yaku import ScoredYaku
from hypothesis import given
from hypothesis import strategies as st


def test_KK_SCORE_2_the_settlement_model_is_zero_sum() -> None:
    ok, detail, *_ = zero_sum.koikoi_zero_sum()
    assert ok and detail.startswith("proof for all inputs"), detail


def test_KK_SCORE_6_a_bonus_row_that_takes_points_fails_the_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    real = kkp.bonus_rows

    def planted() -> list[DecisionRow]:
        rows = real()
        rows[-1] = DecisionRow(rows[-1].rule, rows[-1].guard, lambda v: v["base"] * (v["own"] - 5))
        return rows
    monkeypatch.setattr(kkp, "bonus_rows", planted)
    ok, detail, cx, *_ = zero_sum.koikoi_zero_sum()
    assert not ok and "refuted" in detail and cx["kind"] == "model", detail


def test_KK_SCORE_1_the_model_evaluates_a_shobu() -> None:
    m = zero_sum.koikoi_settlement()
    opts = {"multiplier": "additive", "seven_double": "on", "field_multiplier": "off", "zero_sum": "on", "oyaken": "0"}
    a = zero_sum.koikoi_inputs(opts, zero_sum.SHOBU, 1, 0, 8, [0, 4], 0, 0)
    assert [z.evaluate(d, a) for d in m.deltas] == [-32, 32]  # 8 doubled to 16, times 4 - 2 calls


def test_KK_SCORE_6_the_reference_settles_as_the_model_says() -> None:
    ok, detail, *_ = zero_sum.koikoi_refinement(ReferenceAdapter(), True)
    assert ok and "every row reached" in detail, detail


def _planted_bonus(rules: ref_kk.KoiKoiRules, calls: Sequence[int], field_brights: int, w: int,
                   yaku: tuple[tuple[ScoredYaku, ...], ...]) -> tuple[int, tuple[tuple[str, int], ...]]:
    pts, notes = _REAL_SHOBU(rules, calls, field_brights, w, yaku)
    opt = rules.opt
    if opt["multiplier"] == "additive" and calls[w] >= 4:  # calls beyond three not multiplied
        base = sum(y.points for y in yaku[w])
        pts = base * (2 if base >= 7 and opt["seven_double"] == "on" else 1) + 3
    return pts, notes


_REAL_SHOBU = ref_kk._shobu_points


def test_KK_SCORE_6_an_engine_that_stops_the_bonus_at_three_calls_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ref_kk, "_shobu_points", _planted_bonus)
    ok, detail, cx, *_ = zero_sum.koikoi_refinement(ReferenceAdapter(), True)
    assert not ok and "the settlement model says" in detail, detail
    assert cx["check"] == "koikoi-settlement" and replay(ReferenceAdapter(), cx).reproduced
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), cx).reproduced


def test_MB_SCORE_4_the_settlement_model_is_zero_sum_and_capped() -> None:
    ok, detail, *_ = zero_sum.musashino_zero_sum()
    assert ok and detail.startswith("proof for all inputs"), detail


def test_MB_SCORE_3_a_tie_goes_to_the_first_side_from_the_dealer() -> None:
    m = zero_sum.musashino_settlement("3", 1)  # sides in turn order: 1, 2, 0
    p = "mb3_1_"
    a = {f"{p}t0": 5, f"{p}t1": 5, f"{p}t2": 2, f"{p}insta": 0, f"{p}iw": 0, f"{p}capped": 1, f"{p}value": 8}
    assert [z.evaluate(d, a) for d in m.seats] == [-3, 3, 0]  # seat 1 (t0) before seat 2 (t1), seat 0 pays 3


def test_MB_SCORE_4_the_reference_settles_as_the_model_says() -> None:
    ok, detail, *_ = zero_sum.musashino_refinement(ReferenceAdapter(), True)
    assert ok and "a capped payment" in detail and "insta-win" in detail, detail


def test_MB_SCORE_4_an_engine_without_the_cap_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ref_mb.MusashinoRules, "pay", lambda self, amount: amount)
    ok, detail, cx, *_ = zero_sum.musashino_refinement(ReferenceAdapter(), True)
    assert not ok and "the settlement model says" in detail, detail
    assert cx["check"] == "musashino-settlement" and replay(ReferenceAdapter(), cx).reproduced


def test_KK_TURN_3_the_call_comes_exactly_where_the_rule_puts_it() -> None:
    ok, detail, *_ = koikoi_calls.refinement(ReferenceAdapter(), True)
    assert ok and "a call on an improved yaku" in detail, detail


def test_KK_TURN_3_an_engine_without_the_call_on_an_improved_yaku_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ref_kk.KoiKoiRules, "offers_call", lambda self, new, improved, holds: new)
    ok, detail, cx, *_ = koikoi_calls.refinement(ReferenceAdapter(), True)
    assert not ok and "KK-TURN-3" in detail, detail
    assert cx["check"] == "koikoi-calls" and replay(ReferenceAdapter(), cx).reproduced
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), cx).reproduced


@given(players=st.sampled_from(sorted(mb.DEALS)), dealer=st.integers(0, 3), data=st.data())
def test_MB_SCORE_1_the_settlement_runs_alike_on_numbers_and_as_z3_terms(players: str, dealer: int,
                                                                          data: st.DataObject) -> None:
    """The catalogue's settlement, declared once (``musashino.settlement``): what the invariant
    computes on numbers is what the proof's z3 terms evaluate to."""
    dealer %= mb.DEALS[players].players
    m = zero_sum.musashino_settlement(players, dealer)
    n = len(m.order)
    totals = data.draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    insta, capped = data.draw(st.booleans()), data.draw(st.booleans())
    at, value = data.draw(st.integers(0, n - 1)), int(data.draw(st.sampled_from(list(mb.InstaWinValue))))
    deltas, winner = mb.settlement(INTS, totals, insta, at, capped, value)
    p = f"mb{players}_{dealer}_"
    a = {**{f"{p}t{k}": t for k, t in enumerate(totals)}, f"{p}insta": int(insta), f"{p}iw": at,
         f"{p}capped": int(capped), f"{p}value": value}
    assert [z.evaluate(d, a) for d in m.sides] == [deltas[m.order.index(s)] for s in range(n)]
    assert z.evaluate(m.winner, a) == winner and sum(deltas) == 0
