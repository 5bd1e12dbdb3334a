"""Zero-sum settlement with its caps (:mod:`hanafuda_spec.proofs.settlement`): a settlement that is
not zero-sum, or an engine without Kusuri-gui's ``bust=end`` cap, fails a check of ``verify``."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.games import kusurigui as ref_kg
from hanafuda_spec.adapter import ScoresAdapter
from hanafuda_spec.games import kujuroku as kj
from hanafuda_spec.proofs import settlement


def test_KJ_SCORE_3_card_point_settlement_is_zero_sum() -> None:
    ok, detail, *_ = settlement.kujuroku_zero_sum()
    assert ok and "exhaustive" in detail, detail


def test_KJ_SCORE_3_a_settlement_that_is_not_zero_sum_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = kj.card_point_deltas

    def planted(chips: Mapping[int, int], seats: int) -> tuple[int, ...]:
        d = list(real(chips, seats))
        if any(d):  # the collector is paid one chip too many
            d[d.index(max(d))] += 1
        return tuple(d)
    monkeypatch.setattr(kj, "card_point_deltas", planted)
    ok, detail, *_ = settlement.kujuroku_zero_sum()
    assert not ok and "not zero-sum" in detail


def test_KG_SCORE_3_the_engine_keeps_the_cap_near_zero_chips() -> None:
    assert isinstance(ReferenceAdapter(), ScoresAdapter)
    ok, detail, *_ = settlement.kusurigui_near_zero(ReferenceAdapter(), True)
    assert ok and "ran a player out" in detail, detail


def test_KG_SCORE_3_an_engine_without_the_cap_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ref_kg, "_cut", lambda rules, amount, chips: amount)
    ok, detail, *_ = settlement.kusurigui_near_zero(ReferenceAdapter(), True)
    assert not ok, detail


def test_KG_SCORE_3_an_adapter_without_the_capability_is_skipped() -> None:
    class Plain:
        pass
    ok, detail, *_ = settlement.kusurigui_near_zero(Plain(), True)  # type: ignore[arg-type]
    assert ok and detail.startswith("skipped")


def test_ScoresAdapter_starts_with_the_chips_given() -> None:
    a = ReferenceAdapter()
    a.start_with_scores("kusurigui", {}, 5, (3, 7))
    assert a.snapshot().scores == (3, 7)
    with pytest.raises(ValueError, match="3 scores for 2 seats"):
        a.start_with_scores("kusurigui", {}, 5, (3, 7, 1))


def test_KG_SCORE_3_the_counterexample_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    from hanafuda_spec.verify import replay

    monkeypatch.setattr(ref_kg, "_cut", lambda rules, amount, chips: amount)
    ok, _, cx, *_ = settlement.kusurigui_near_zero(ReferenceAdapter(), True)
    assert not ok and cx["check"] == "kusurigui-near-zero"
    assert replay(ReferenceAdapter(), cx).reproduced
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), cx).reproduced
