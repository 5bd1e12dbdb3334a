"""The count model of a Koi-Koi round (:mod:`hanafuda_spec.proofs.koikoi`): every turn option and deal
variant is proved, the proofs can fail, and wrong engines are caught through the adapter."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from itertools import islice

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.fishing import suit_counts
from hanafuda.games import koikoi as ref
from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import koikoi as kk
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs import koikoi as p
from hanafuda_spec.proofs.common import inductive
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.verify import replay

from tests.wrapping import Delegate


def _opts(**kw: str) -> dict[str, str]:
    return kk.SPEC.resolve(None, {"teyaku": "off", "field_teyaku": "dealer-captures", "field_pairs": "play",
                                  "lightning": "wild", **kw})


def _stacked_run(adapter: EngineAdapter, hand: int, quads: int, **kw: str) -> p.Result | None:
    opts = _opts(hand_size=str(hand), **kw)
    bad, _ = p._watch_play(adapter, [(opts, p.stacked_deal(hand, quads), quads, True)], SplitMix64(3), 1)
    return bad


# -- the proofs --------------------------------------------------------------------------------------


@pytest.mark.parametrize("turn", p.TURNS)
def test_KK_TURN_6_7_the_round_invariant_is_inductive_for_every_turn_option(turn: str) -> None:
    ok, detail, _, _, _ = p.prove_round(p.turn_model(turn))
    assert ok, detail


def test_KK_TURN_6_the_combined_model_of_every_option_is_inductive() -> None:
    base, step = inductive(p.turn_model())
    assert base.ok and step.ok


def test_KK_21_the_wild_lightning_readings_are_reported_with_their_decision() -> None:
    outcomes = list(islice(p._counts(ReferenceAdapter(), True), 3))
    assert [o.ok for o in outcomes] == [True, True, True]  # decided by KK-21
    for o, key in zip(outcomes[1:], ("draw-first-wild-lightning", "keep-unmatched-wild-lightning"), strict=True):
        assert "proved" in o.detail and [c.gap for c in o.cases] == [p.DECISIONS[key]]
        assert "KK-WILD-3" in o.cases[0].text


def test_KK_END_1_the_round_ends_and_only_when_it_should() -> None:
    ok, detail, _, _, _ = p.prove_ends(p.turn_model())
    assert ok, detail


def test_KK_TURN_5_a_turn_without_a_draw_needs_dealer_captured_quads() -> None:
    ok, detail, _, _, _ = p.prove_empty_pile(p.turn_model())
    assert ok and "the non-dealer always draws its last card" in detail, detail
    # the surplus is 40 - 4·hand - 4·quads: 8-card hands run short from 3 quads on, 10-card hands from 1
    assert p.short_deals() == [(8, 3), (8, 4), (8, 5), (8, 6), (10, 1), (10, 2), (10, 3), (10, 4), (10, 5)]


def test_KK_DEAL_8_the_model_reaches_a_chain_of_quads_from_the_deal() -> None:
    rel, _, last = p._path(p.MOVES_PER_DEAL, True)
    m = z.find([*rel, last["q"].eq(6), last["ph"].eq(p.PLAY), last["param_h"].eq(8)])
    assert m is not None and m["s@7"] == 0  # six quads use the whole draw pile of 8-card hands
    assert z.find([*rel, last["q"].eq(6), last["param_h"].eq(10)]) is None  # 10-card hands: 20 cards, 5 quads


def test_KK_WILD_4_a_sweep_that_loses_a_card_is_refuted() -> None:
    model = p.turn_model()

    def step(v: Mapping[str, z.Int], w: Mapping[str, z.Int]) -> z.Bool:
        lossy = z.all_of([v["ph"].eq(p.DRAWN), v["t"].eq(1), v["s"].eq(1), v["param_w"].eq(1),
                          p._post(v, w, c1=v["c1"] + v["f"], s=0, f=0, sw=v["sw"] + 1, ph=p.DONE)])
        return model.step(v, w) | lossy
    ok, detail, cx, _, _ = p.prove_round(replace(model, step=step))
    assert not ok and "KK-EQ-1 the 48 cards are conserved" in detail and cx["kind"] == "model"


def test_KK_TURN_6_a_draw_first_turn_without_its_draw_is_refuted() -> None:
    model = p.turn_model("draw-first")

    def step(v: Mapping[str, z.Int], w: Mapping[str, z.Int]) -> z.Bool:
        skip = z.all_of([v["ph"].eq(p.DONE), v["t"].eq(0), v["h1"] >= 1, p._post(v, w, t=1, ph=p.PLAY)])
        return model.step(v, w) | skip
    ok, detail, _, _, _ = p.prove_round(replace(model, step=step))
    assert not ok and "draws available = draws needed" in detail


def test_KK_END_1_ending_when_only_the_next_hand_is_empty_is_refuted() -> None:
    model = p.turn_model("standard")

    def step(v: Mapping[str, z.Int], w: Mapping[str, z.Int]) -> z.Bool:
        early = z.all_of([v["ph"].eq(p.DONE), v["t"].eq(0), v["h0"].eq(0),
                          p._post(v, w, ph=p.OVER, e=p.EXHAUSTIVE)])
        return model.step(v, w) | early
    ok, detail, _, _, _ = p.prove_round(replace(model, step=step))
    assert not ok and "KK-END-1/2/5 an exhaustive end" in detail


# -- the reference against the model -----------------------------------------------------------------


def test_KK_DEAL_8_stacked_deals_chain_the_quads_they_promise() -> None:
    a = ReferenceAdapter()
    for hand, quads in ((8, 3), (8, 6), (10, 5)):
        a.start("koikoi", _opts(hand_size=str(hand)), 1, p.stacked_deal(hand, quads))
        s = a.snapshot()
        assert len(s.zone("captured.0")) == 4 * quads
        assert len(s.zone("stock")) == 40 - 2 * hand - 4 * quads and len(s.zone("field")) == 8


@pytest.mark.parametrize("turn", p.TURNS)
def test_KK_TURN_5_KK_WILD_4_KK_END_5_the_reference_follows_the_model_on_stacked_deals(turn: str) -> None:
    a = ReferenceAdapter()
    for hand, quads, after in ((8, 0, "draw-pile"), (8, 3, "stop"), (10, 0, "stop"), (10, 2, "draw-pile")):
        assert _stacked_run(a, hand, quads, turn=turn, after_hands=after) is None


def test_KK_WILD_4_stacked_deals_reach_every_counted_situation() -> None:
    a = ReferenceAdapter()
    runs = [(_opts(hand_size=str(h), turn=t, after_hands=af), p.stacked_deal(h, q), q, True)
            for h, q, t, af in ((8, 0, "standard", "draw-pile"), (10, 1, "keep-unmatched", "stop"),
                                (8, 4, "draw-first", "stop"))]
    bad, watches = p._watch_play(a, runs, SplitMix64(5), 1)
    assert bad is None
    assert any(pos["x"] > 0 for pos in (s for _, s in watches[0].positions))  # KK-END-5 draw-only turns
    # KK-WILD-4: the Lightning, last of the pile, takes the table (seen when play goes on after it)
    assert watches[1].sweeps
    assert any(s["s"] == 0 and s["h0"] + s["h1"] > 0 for _, s in watches[2].positions)  # KK-TURN-5


def test_KK_END_5_an_engine_that_skips_draw_only_turns_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = ref.KoiKoiRound._pass

    def stop_at_empty_hands(self: ref.KoiKoiRound) -> None:
        if not self.hands[0] and not self.hands[1]:
            self.pending, self.phase, self.end = None, ref.Phase.OVER, "exhaustive"
            return
        orig(self)
    monkeypatch.setattr(ref.KoiKoiRound, "_pass", stop_at_empty_hands)
    a = ReferenceAdapter()
    bad = _stacked_run(a, 8, 0, turn="standard", after_hands="draw-pile")
    assert bad is not None
    ok, detail, cx, _, _ = bad
    assert not ok and "the model cannot end it there" in detail and "draw pile 8" in detail
    assert cx["check"] == p.COUNT_CHECK and replay(a, cx).reproduced
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), cx).reproduced


def test_KK_DEAL_8_an_engine_that_replaces_only_one_quad_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def one_quad(self: ref.KoiKoiRound) -> int:
        quad = next(m for m in ref.INDEX.suits.values() if (self.field & m).bit_count() == 4)
        self.field = (self.field & ~quad) | ref.INDEX.mask_of(self.stock[:4])
        self.stock = self.stock[4:]
        self.caps[self.setup.dealer] |= quad
        return suit_counts(self.field)
    monkeypatch.setattr(ref.KoiKoiRound, "_dealer_captures", one_quad)
    bad = _stacked_run(ReferenceAdapter(), 8, 3, turn="standard", after_hands="stop")
    assert bad is not None and "captured 1 (KK-DEAL-8)" in bad[1]


def test_KK_WILD_4_an_engine_whose_last_lightning_takes_one_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = ref.KoiKoiRound._draw

    def no_sweep(self: ref.KoiKoiRound, keep: bool) -> None:
        targets = self.field & ~ref._WILLOW
        if self.wild and len(self.stock) - self.top == 1 and self.stock[self.top].id == p.LIGHTNING and targets:
            one = targets & -targets  # as if cards were left: it takes a single card (KK-WILD-3)
            self.top += 1
            self.field &= ~one
            self.caps[self.turn] |= one | self.stock[-1].mask
            self._decides()
            return
        orig(self, keep)
    monkeypatch.setattr(ref.KoiKoiRound, "_draw", no_sweep)
    # one quad leaves 16 draw cards for 20 turns: the Lightning is drawn last with four turns to go
    bad = _stacked_run(ReferenceAdapter(), 10, 1, turn="standard", after_hands="stop")
    assert bad is not None and "no 3 moves of the model" in bad[1] and "sweeps 1" in bad[1]


class _NoFirstDraw(Delegate):
    """An adapter showing a draw-first engine that leaves the turn's card on the draw pile: one card of
    the mover's hand is shown back on top of the pile while they play their first card."""

    def snapshot(self) -> Snapshot:
        s = self.inner.snapshot()
        if s.phase != "play" or s.to_move is None or not s.zone(f"hand.{s.to_move}"):
            return s
        hand = s.zone(f"hand.{s.to_move}")
        zones = {**dict(s.zones), f"hand.{s.to_move}": hand[1:], "stock": (hand[0], *s.zone("stock"))}
        return replace(s, zones=tuple(zones.items()))


def test_KK_TURN_6_an_engine_without_the_draw_first_draw_is_caught() -> None:
    opts = kk.SPEC.resolve(None, {"turn": "draw-first"})
    bad, _ = p._watch_play(_NoFirstDraw(), [(opts, None, 0, True)], SplitMix64(9), 1)
    assert bad is not None
    assert "breaking" in bad[1] and "draws available = draws needed" in bad[1]


def test_KK_TURN_6_the_check_passes_through_a_faithful_wrapper() -> None:
    class Faithful(_NoFirstDraw):
        def snapshot(self) -> Snapshot:
            return self.inner.snapshot()
    opts = kk.SPEC.resolve(None, {"turn": "draw-first"})
    bad, watches = p._watch_play(Faithful(), [(opts, None, 0, True)], SplitMix64(9), 1)
    assert bad is None and watches[0].positions
