"""The z3 proofs of Kekoro's instant victory (:mod:`hanafuda_spec.proofs.kekoro`): the declaration as a
transition system, the round's result and the end of the game as decision tables, and the reference's
play checked against them step by step; wrong engines and adapters are caught."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any
from unittest.mock import patch

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.games import kekoro as ref
from hanafuda_spec import z3layer as z
from hanafuda_spec.games import kekoro as ke
from hanafuda_spec.proofs import kekoro as kp
from hanafuda_spec.proofs.common import decision_rows, decision_table, inductive
from hanafuda_spec.verify import replay

V = Mapping[str, z.Int]


def test_KE_IV_1_transition_system_is_inductive_and_its_claims_hold() -> None:
    assert all(r.ok for r in inductive(kp.iv_model()))
    ok, detail, _, _, _ = kp._iv_proof()
    assert ok, detail


def test_KE_IV_3_runs_exist_that_decline_and_are_offered_again_and_at_the_last_turn() -> None:
    (_, again), (_, last) = kp._witnesses()
    assert again is not None and again["ph@1"] == kp.DECLARE and again["ph@4"] == kp.DECLARE
    assert last is not None and last["h0@16"] == last["h1@16"] == 0 and last["ph@16"] == kp.DECLARE


def test_KE_IV_3_a_continue_that_offers_again_is_refuted() -> None:
    def twice(v: V, w: V) -> z.Bool:
        same = z.all_of([w[n].eq(v[n]) for n in kp.IV_NAMES])
        return kp.iv_step(v, w) | (v["ph"].eq(kp.DECLARE) & same)
    ok, detail, cx, _, _ = kp._iv_proof(twice)
    # refuted by the offer's claims, with the two positions: a declare phase that stays a declare phase
    assert not ok and "refuted" in detail and detail.count("phase declare") == 2 and cx["kind"] == "model"


def test_KE_IV_1_a_turn_ending_silently_on_a_lead_of_3_is_refuted() -> None:
    def silent(v: V, w: V) -> z.Bool:
        """Besides the model's steps: the drawn card's choice ends the turn with no offer, whatever the lead."""
        quiet = []
        for s, o in ((0, 1), (1, 0)):
            quiet.append(z.all_of([
                v["t"].eq(s), v["ph"].eq(kp.TAKE), w[f"c{s}"].eq(v[f"c{s}"] + 2), w[f"y{s}"] >= v[f"y{s}"],
                *(w[n].eq(v[n]) for n in (f"y{o}", f"c{o}", "h0", "h1", f"l{o}")),
                w[f"l{s}"].eq(w[f"y{s}"] - w[f"y{o}"]), w["iv"].eq(0),
                v[f"h{o}"].eq(0).implies(w["ph"].eq(kp.OVER) & w["t"].eq(s)),
                (v[f"h{o}"] >= 1).implies(w["ph"].eq(kp.PLAY) & w["t"].eq(o))]))
        return kp.iv_step(v, w) | z.any_of(quiet)
    ok, detail, _, _, _ = kp._iv_proof(silent)
    assert not ok and detail.startswith("KE-IV-1 the choice is offered exactly"), detail


def test_KE_IV_2_yaku_count_is_monotone_and_a_duplicate_set_would_be_reported() -> None:
    ok, detail, _, _, cases = kp._monotone(ke.SPEC.resolve())
    assert ok and "at least 5 captured cards" in detail and not cases
    # KE-9: the teikei swap's duplicate set scores once, so it no longer shortens the way to a lead of 3
    ok, detail, _, _, cases = kp._monotone(ke.SPEC.resolve("teikei-1921"))
    assert ok and "at least 5 captured cards" in detail and not cases
    doubled = (*ke.yaku_table(ke.SPEC.resolve("teikei-1921")),
               replace(next(y for y in ke.yaku_table(ke.SPEC.resolve()) if y.id == "gundari-ribbons"),
                       pool=frozenset({21, 41, 121})))
    with patch.object(ke, "yaku_table", lambda _v: doubled):
        ok, detail, _, _, cases = kp._monotone(ke.SPEC.resolve("teikei-1921"))
    assert ok and "at least 4 captured cards" in detail
    assert [c.gap for c in cases] == ["KE-9"] and "gundari-ribbons" in cases[0].text


def test_KE_GAME_1_result_tables_are_complete_consistent_and_decided() -> None:
    ok, detail, _, _, cases = kp._result_tables()
    assert ok, detail
    assert cases and all(c.gap for c in cases)


def test_KE_GAME_3_without_the_limit_row_z3_finds_the_open_case() -> None:
    rows = [r for r in kp.END_ROWS if not r.text.startswith("KE-GAME-3")]
    gaps, clashes = decision_table(kp.RESULT_NAMES, kp.result_domain, decision_rows(rows, "over"))
    assert gaps and not clashes
    assert all(g["r"] == kp.PLAYED_OUT and g["lim"] > 0 and g["n"] >= g["lim"] for g in gaps)


def test_KE_2_only_the_difference_of_the_scores_decides() -> None:
    base = {"r": 1, "a0": 150, "a1": 100, "s0": 300, "s1": 260, "w": 0, "d": 0, "pass": 0, "more": 0, "lim": 0,
            "n": 4}
    shifted = {**base, "s0": 1300, "s1": 1260}
    ends = [{res: z.evaluate(kp.SCORES[res][1], b) for res in ("over", "winner")} for b in (base, shifted)]
    assert ends[0] == ends[1] == {"over": 1, "winner": 0}


def test_KE_IV_1_reference_play_agrees_with_the_models() -> None:
    ok, detail, _, n, _ = kp._against_play(ReferenceAdapter(), quick=True)
    assert ok, detail
    assert n > 50
    for word in ("offers (", "after a declined one", "at the last turn", "declared"):
        assert f" 0 {word}" not in detail and f"(0 {word}" not in detail


def _caught(needle: str, adapter: ReferenceAdapter | None = None) -> None:
    ok, detail, cx, _, _ = kp._against_play(adapter or ReferenceAdapter(), quick=True)
    assert not ok and needle in detail, detail
    assert cx["check"] == "kekoro-instant-victory"
    assert replay(adapter or ReferenceAdapter(), cx).reproduced


def test_KE_IV_1_an_engine_not_offering_at_the_last_turn_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    end_turn = ref.KekoroRound._end_turn

    def wrong(self: ref.KekoroRound) -> None:
        if not self.hands[0] and not self.hands[1]:
            return self._pass()
        return end_turn(self)
    monkeypatch.setattr(ref.KekoroRound, "_end_turn", wrong)
    _caught("must offer the instant victory")


def test_KE_IV_1_an_engine_offering_on_a_lead_of_2_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrong(self: ref.KekoroRound) -> None:
        count, p = self.rules.scorer.yaku_count, self.turn
        if count(self.caps[p]) - count(self.caps[1 - p]) >= 2:
            self.phase, self.pending = ref.Phase.DECLARE, None
            return None
        return self._pass()
    monkeypatch.setattr(ref.KekoroRound, "_end_turn", wrong)
    _caught("offered only at the end of a turn with a lead of 3")


def test_KE_IV_3_an_engine_scoring_the_interrupted_round_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    result = ref.Kekoro.round_result

    def wrong(self: ref.Kekoro, state: ref.KekoroState) -> Any:
        r = result(self, state)
        return replace(r, deltas=tuple(r.card_points or ())) if r.reason == ke.INSTANT_VICTORY else r
    monkeypatch.setattr(ref.Kekoro, "round_result", wrong)
    _caught("KE-IV-3 the round an instant victory interrupts is not scored")


def test_KE_GAME_2_an_engine_playing_on_after_a_declaration_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    result = ref.Kekoro.round_result

    def wrong(self: ref.Kekoro, state: ref.KekoroState) -> Any:
        r = result(self, state)
        return replace(r, ends_game=False, next_dealer=state.dealer) if r.reason == ke.INSTANT_VICTORY else r
    monkeypatch.setattr(ref.Kekoro, "round_result", wrong)
    _caught("KE-GAME-1…3")


def test_KE_END_2_an_engine_giving_the_deal_to_the_lower_score_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    result = ref.Kekoro.round_result

    def wrong(self: ref.Kekoro, state: ref.KekoroState) -> Any:
        r = result(self, state)
        return replace(r, next_dealer=1 - r.winner) if r.reason == "played-out" and r.winner is not None else r
    monkeypatch.setattr(ref.Kekoro, "round_result", wrong)
    _caught("KE-END-2/3")


def test_KE_IV_1_an_adapter_offering_the_declaration_in_play_is_caught() -> None:
    class Eager(ReferenceAdapter):
        def legal_actions(self) -> Sequence[str]:
            legal = list(super().legal_actions())
            return [*legal, kp.DECLARE_ACTION] if legal and kp.DECLARE_ACTION not in legal else legal
    _caught("KE-IV-1: in phase play", Eager())
