"""The free-standing count models tied to the game (:mod:`hanafuda_spec.proofs.refinement`): the
engine's play refines each model, and a wrong model, which its own inductive proof does not catch,
fails the refinement check (issue 32, item 3)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec import z3layer as z
from hanafuda_spec.proofs import common, refinement
from hanafuda_spec.proofs import kujuroku as kj_proofs
from hanafuda_spec.proofs.common import CountModel, inductive


def _outcomes(game: str) -> dict[str, tuple[bool, str]]:
    return {o.check: (o.ok, o.detail) for o in refinement.checks(ReferenceAdapter(), game, True)}


@pytest.mark.parametrize("game", ["kekoro", "musashino", "kujuroku"])
def test_the_engine_refines_the_models(game: str) -> None:
    out = _outcomes(game)
    assert out and all(ok for ok, _ in out.values()), out


def _one_card(n_match: z.Int) -> tuple[z.Int, z.Int]:
    """Planted: a card matching three field cards takes one of them, like a card matching one."""
    df = z.ite(n_match.eq(0), 1, -1)
    dc = z.ite(n_match.eq(0), 0, 2)
    return df, dc


@pytest.mark.parametrize("game", ["kekoro", "musashino"])
def test_FW_HA_a_three_card_capture_made_a_one_card_capture_fails_verify(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "_resolve", _one_card)
    base, ind = inductive(common.fishing_turn_model(2, 48, 8, 8))
    assert base.ok and ind.ok  # the model's own proof does not see it
    out = _outcomes(game)
    failed = [d for ok, d in out.values() if not ok]
    assert failed and "no transition of the model" in failed[0], out


def test_KJ_25_the_parity_model_started_from_eight_field_cards_fails_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    real = kj_proofs._turn

    def planted(oni_aware: bool) -> CountModel:
        m = real(oni_aware)

        def init(v: Mapping[str, z.Int]) -> z.Bool:
            return v["f"].eq(8) & (v["oni"] >= 1) & (v["oni"] <= 2)
        return dataclasses.replace(m, init=init)
    monkeypatch.setattr(kj_proofs, "_turn", planted)
    base, ind = inductive(kj_proofs.parity_model())
    assert base.ok and ind.ok  # the model's own proof does not see it
    ((ok, detail),) = _outcomes("kujuroku").values()
    assert not ok and "not an initial state of the model" in detail, detail


def test_FW_HA_the_counterexample_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    from hanafuda_spec.verify import replay

    monkeypatch.setattr(common, "_resolve", _one_card)
    (o,) = list(refinement.checks(ReferenceAdapter(), "kekoro", True))
    assert not o.ok and o.counterexample["check"] == "fishing-refinement"
    assert replay(ReferenceAdapter(), o.counterexample).reproduced
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), o.counterexample).reproduced
