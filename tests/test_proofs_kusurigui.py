"""The z3 proofs of Kusuri-gui's chips (:mod:`hanafuda_spec.proofs.kusurigui`): the payment on the spot,
the round's result and the end of the game as decision tables, the round's chips as an inductive model,
and the reference's play checked against them; wrong engines and adapters are caught."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.games import kusurigui as ref
from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import RoundOutcome
from hanafuda_spec.proofs import kusurigui as kp
from hanafuda_spec.proofs.common import decision_rows, decision_table, inductive
from hanafuda_spec.verify import replay


def test_KG_PAY_1_payment_table_is_complete_consistent_and_bounded() -> None:
    ok, detail, _, _, cases = kp._pay_table()
    assert ok, detail
    assert len(cases) == len(kp.PAY_ROWS) and all(c.gap for c in cases)
    assert {c.gap for c in cases} >= {"KG-8", "KG-9", "KG-19"}


def test_KG_PAY_3_without_its_row_z3_finds_the_fresh_willow_case() -> None:
    rows = [r for r in kp.PAY_ROWS if not r.text.startswith("KG-PAY-3")]
    gaps, clashes = decision_table(kp.PAY_NAMES, kp.pay_domain, decision_rows(rows, "amount"))
    assert gaps and not clashes
    assert all((g["cap"], g["n"], g["dealt"], g["wt"]) == (1, 1, 0, 1) for g in gaps)


def test_KG_PAY_2_the_table_on_concrete_plays() -> None:
    base = {"cap": 1, "n": 1, "dealt": 0, "wt": 0, "wc": 0, "op": 1, "pay": 2, "debt": 0, "chips": 100}
    row, r = kp.PAY(**base)
    assert r == {"amount": 2, "event": 1} and row is not None and row.gap == "KG-19"
    assert kp.PAY(**{**base, "chips": 1})[1] == {"amount": 1, "event": 1}  # KG-SCORE-3: cut to the payer's chips
    assert kp.PAY(**{**base, "dealt": 1})[1] == {"amount": 0, "event": 0}  # the round's face-up card
    assert kp.PAY(**{**base, "wt": 1})[1] == {"amount": 0, "event": 0}  # KG-PAY-3
    assert kp.PAY(**{**base, "wc": 1, "op": 0})[1] == {"amount": 0, "event": 0}  # KG-PAY-4, oni_pays=no
    assert kp.PAY(**{**base, "wc": 1})[1] == {"amount": 2, "event": 1}  # KG-PAY-4, oni_pays=yes
    assert kp.PAY(**{**base, "n": 2})[1] == {"amount": 0, "event": 0}


def test_KG_SCORE_1_result_and_end_tables_are_complete_consistent_and_zero_sum() -> None:
    for fn in (kp._result_table, kp._end_table):
        ok, detail, _, _, cases = fn()
        assert ok, detail
        assert cases and all(c.gap for c in cases)


def test_KG_SCORE_3_a_settlement_not_cut_to_the_losers_chips_is_refuted() -> None:
    debt = {r.text.split("seat ")[1][0]: r for r in kp.RESULT_ROWS if "bust=debt" in r.text}
    wrong = tuple(replace(r, out=debt[r.text.split("seat ")[1][0]].out) if "bust=end" in r.text else r
                  for r in kp.RESULT_ROWS)
    bad = kp._claims(kp.RESULT_NAMES, kp.result_domain, wrong, [(
        "nobody below zero", lambda v, r: v["debt"].eq(0).implies((v["x0"] + r["delta0"] >= 0)
                                                                  & (v["x1"] + r["delta1"] >= 0)))])
    assert bad is not None and "refuted" in bad


def test_KG_16_equal_totals_keep_or_pass_the_deal() -> None:
    args = {"mis": 0, "t0": 3, "t1": 3, "x0": 10, "x1": 10, "debt": 0, "d": 1}
    assert kp.RESULT(**args, **{"pass": 0})[1]["next"] == 1
    assert kp.RESULT(**args, **{"pass": 1})[1]["next"] == 0
    assert kp.RESULT(**{**args, "t0": 9, "x1": 2}, **{"pass": 0})[1]["delta0"] == 2  # KG-SCORE-3


def test_KG_8_round_model_is_inductive_and_its_bound_is_reached() -> None:
    assert all(r.ok for r in inductive(kp.round_model()))
    ok, detail, _, _, _ = kp._round_chips()
    assert ok, detail
    assert f"at most {kp.MAX_KUSURIGUI} Kusuri-gui" in detail and "T.T.T." in detail


def test_KG_8_paying_for_the_dealt_card_breaks_the_round_model(monkeypatch: pytest.MonkeyPatch) -> None:
    good = kp.play_inputs

    def never_dealt(v: Any, cap: z.Int, wt: z.Int, wc: z.Int) -> dict[str, z.Int]:
        return {**good(v, cap, wt, wc), "dealt": z.const(0)}
    monkeypatch.setattr(kp, "play_inputs", never_dealt)
    base, ind = inductive(kp.round_model())
    assert base.ok and not ind.ok and ind.counterexample["m"] == 0


def test_KG_PAY_1_reference_play_agrees_with_the_tables() -> None:
    ok, detail, _, n, _ = kp._against_play(ReferenceAdapter(), quick=True)
    assert ok, detail
    assert n > 100 and " 0 Kusuri-gui" not in detail and " 0 equal totals" not in detail


def _caught(needle: str) -> dict[str, object]:
    ok, detail, cx, _, _ = kp._against_play(ReferenceAdapter(), quick=True)
    assert not ok and needle in detail, detail
    assert cx["check"] == "kusurigui-chips"
    assert replay(ReferenceAdapter(), cx).reproduced
    return dict(cx)


def test_KG_PAY_3_an_engine_paying_for_an_eaten_willow_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    eat = ref.KusuriGuiRound._eat

    def wrong(self: ref.KusuriGuiRound, c: Any) -> None:
        p = self.turn
        willow = len(self.pile) == 1 and self.bait == 1 - p and self.pile[0].suit == ref.WILLOW
        eat(self, c)
        if willow:
            self._pay(1 - p, p)
    monkeypatch.setattr(ref.KusuriGuiRound, "_eat", wrong)
    _caught("KG-PAY-3 a fresh willow eaten")


def test_KG_PAY_1_an_engine_paying_for_the_dealt_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    eat = ref.KusuriGuiRound._eat

    def wrong(self: ref.KusuriGuiRound, c: Any) -> None:
        p = self.turn
        dealt = len(self.pile) == 1 and self.plays == 1 and self.bait is None and self.pile[0].suit != ref.WILLOW
        eat(self, c)
        if dealt:
            self._pay(1 - p, p)
    monkeypatch.setattr(ref.KusuriGuiRound, "_eat", wrong)
    _caught("the round's face-up card taken by the first play")


def test_KG_16_an_engine_passing_the_deal_on_equal_totals_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    result = ref.KusuriGuiRound.result

    def wrong(self: ref.KusuriGuiRound) -> Any:
        r = result(self)
        if r is not None and r.reason == "played-out" and r.winner is None:
            return replace(r, next_dealer=1 - self.setup.dealer)
        return r
    monkeypatch.setattr(ref.KusuriGuiRound, "result", wrong)
    _caught("KG-SCORE-2 equal totals")


def test_KG_PAY_5_an_adapter_misreporting_the_deltas_is_caught() -> None:
    class Skewed(ReferenceAdapter):
        def rounds_ended(self) -> Sequence[RoundOutcome]:
            return [replace(o, deltas=(o.deltas[0] + 1, o.deltas[1] - 1)) if o.reason == "played-out" else o
                    for o in super().rounds_ended()]
    ok, detail, _, _, _ = kp._against_play(Skewed(), quick=True)
    assert not ok and "the round's deltas are" in detail
