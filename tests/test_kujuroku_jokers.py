"""Kujuroku's cards and jokers (:mod:`hanafuda_spec.proofs.kujuroku_jokers`): the model's claims are
proved for all states, a wrong model fails them, and the engine's play is checked against the model
action by action, so a wrong Oni or Jizo rule in the engine fails ``verify`` too (issue 32, item 4)."""

from __future__ import annotations

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.games import kujuroku as ref
from hanafuda_spec import z3layer as z
from hanafuda_spec.proofs import kujuroku_jokers as jk
from hanafuda_spec.proofs.kujuroku_jokers import FIELD, PILE, JokerModel, V
from hanafuda_spec.z3layer import Bool


def _failed(model: JokerModel) -> dict[str, str]:
    return {name: r.status for name, _, r in jk.prove(model) if not r.ok}


@pytest.mark.parametrize("jizo", [False, True])
def test_KJ_ONI_5_the_model_is_proved_for_all_states(jizo: bool) -> None:
    assert _failed(JokerModel(jizo)) == {}


class _WholeField(JokerModel):
    """Planted: the drawn Oni meeting the Jizo takes the whole field with it."""

    def oni_meets_jizo(self, m: V, n: V) -> Bool:
        return self.but(m, n, oni=PILE, jz=PILE, f=0, c=m["c"] + m["f"])


class _NeverRemoved(JokerModel):
    """Planted: an Oni left on the field stays there (KJ-ONI-5 dropped)."""

    def end_turn(self, m: V, w: V) -> Bool:
        played_out = (m["h"] + jk._is(m["oni"], jk.HAND) + jk._is(m["jz"], jk.HAND)).eq(0)
        jz = z.ite(m["jz"].eq(FIELD), PILE, m["jz"])
        return (~played_out & self.but(m, w, jz=jz, ph=jk.PLAY)) | (played_out & self.but(m, w, jz=jz, ph=jk.OVER))


class _JizoKeepsTheCapture(JokerModel):
    """Planted: the drawn Jizo subdues the Oni but its captured card stays captured (KJ-JIZO-2 dropped)."""

    def jizo_undoes(self, m: V, n: V) -> Bool:
        return self.but(m, n, k=0, jz=PILE)


def test_KJ_JIZO_4_the_oni_with_the_jizo_taking_the_whole_field_fails_a_proof() -> None:
    assert "captures by pairs but the Oni's" in _failed(_WholeField(True))


def test_KJ_ONI_5_an_oni_never_removed_fails_a_proof() -> None:
    assert "jokers leave the field" in _failed(_NeverRemoved(False))


def test_KJ_JIZO_2_a_jizo_that_does_not_undo_fails_a_proof() -> None:
    assert "captures by pairs but the Oni's" in _failed(_JizoKeepsTheCapture(True))


def _verify_check(quick: bool = True) -> tuple[bool, str]:
    (o,) = [o for o in jk.checks(ReferenceAdapter(), "kujuroku", quick) if o.check.startswith("refinement")]
    return o.ok, o.detail


def test_KJ_ONI_1_the_engine_refines_the_model_and_the_rare_cases_are_reached() -> None:
    ok, detail = _verify_check()
    assert ok, detail
    assert "KJ-JIZO-2" in detail and "KJ-JIZO-3" in detail and "KJ-JIZO-4" in detail and "KJ-ONI-5" in detail


def test_KJ_ONI_5_an_engine_that_never_removes_the_oni_fails_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ref.KujurokuRound._end_turn

    def planted(self: ref.KujurokuRound) -> None:
        oni = self.field & ref._ONI
        self.field &= ~oni
        real(self)
        self.field |= oni
    monkeypatch.setattr(ref.KujurokuRound, "_end_turn", planted)
    ok, detail = _verify_check()
    assert not ok and "transition" in detail, detail


def test_KJ_ONI_1_an_engine_whose_oni_takes_two_cards_fails_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ref.KujurokuRound._play_joker

    def planted(self: ref.KujurokuRound, bit: int, target: int) -> None:
        if bit == ref._ONI and target:  # the Oni from the hand takes a second field card too
            extra = self.field & ~target
            extra &= -extra
            self.field &= ~extra
            self.piles[self.turn] |= extra
        real(self, bit, target)
    monkeypatch.setattr(ref.KujurokuRound, "_play_joker", planted)
    ok, detail = _verify_check()
    assert not ok and "transition" in detail, detail



def test_KJ_JIZO_4_an_engine_whose_oni_takes_the_whole_field_with_the_jizo_fails_verify(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = ref.KujurokuRound._draw

    def planted(self: ref.KujurokuRound) -> None:
        top = self.stock[self.top] if self.top < len(self.stock) else None
        if top is not None and top.mask == ref._ONI and self.field & ref._JIZO:
            self.piles[self.turn] |= self.field & ~ref._JIZO  # the Oni takes every field card with the Jizo
            self.field &= ref._JIZO
        real(self)
    monkeypatch.setattr(ref.KujurokuRound, "_draw", planted)
    ok, detail = _verify_check()
    assert not ok and "transition" in detail, detail


def test_KJ_ONI_5_the_counterexample_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hanafuda verify --replay`` reproduces the refinement check's counterexample while the bug is
    there, and not once it is gone."""
    from hanafuda_spec.verify import replay

    real = ref.KujurokuRound._end_turn

    def planted(self: ref.KujurokuRound) -> None:
        oni = self.field & ref._ONI
        self.field &= ~oni
        real(self)
        self.field |= oni
    monkeypatch.setattr(ref.KujurokuRound, "_end_turn", planted)
    (o,) = [o for o in jk.checks(ReferenceAdapter(), "kujuroku", True) if o.check.startswith("refinement")]
    assert not o.ok and o.counterexample["check"] == "kujuroku-jokers"
    assert replay(ReferenceAdapter(), o.counterexample).reproduced
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), o.counterexample).reproduced
