"""Planted bugs: patch the reference with a known mistake and show that ``verify`` fails with a
counterexample that ``verify --replay`` reproduces (and that the unpatched reference passes)."""

from __future__ import annotations

import json
import types
from collections.abc import Iterator
from typing import Any

import hanafuda.games.koikoi as ref_koikoi
import pytest
from hanafuda import fishing
from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import main
from hanafuda_spec.proofs import proof_checks
from hanafuda_spec.verify import Level, random_play_checks, replay
from hanafuda_spec.yaku import ScoredYaku

FEW = Level("test", 3, 3)


def _first_failure(checks: Iterator[object]) -> object:
    for r in checks:
        if not r.ok:  # type: ignore[attr-defined]
            return r
    raise AssertionError("verify passed although a bug was planted")


def test_planted_wrong_yaku_value_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """(a) Four Brights worth 9 instead of 8 (KK-YAKU-3)."""
    orig = ref_koikoi.score_mask

    def wrong(*args: Any, **kwargs: Any) -> tuple[ScoredYaku, ...]:
        return tuple(ScoredYaku(y.id, 9) if y.id == "four-brights" else y for y in orig(*args, **kwargs))

    monkeypatch.setattr(ref_koikoi, "score_mask", wrong)
    adapter = ReferenceAdapter()
    bad = _first_failure(o for o in proof_checks(adapter, "koikoi", quick=True)
                         if "boundary" in o.check or "maximum" in o.check)
    cx = bad.counterexample  # type: ignore[attr-defined]
    assert cx["kind"] == "score" and {10, 30, 80, 120} <= set(cx["pile"])
    assert replay(adapter, cx).reproduced
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), cx).reproduced


def test_planted_lost_capture_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """(b) A capture that loses the captured card (KK-CAP-1, card conservation). The Koi-Koi round
    makes every capture with the shared fishing step (``lands``): here it drops one card of a capture of
    two or more."""

    orig_lands = fishing.lands

    def lossy_lands(field: int, card: int, matched: int, target: int) -> tuple[int, int]:
        field, got = orig_lands(field, card, matched, target)
        return field, got & (got - 1) if got.bit_count() >= 2 else got  # a captured card vanishes

    monkeypatch.setattr(ref_koikoi, "lands", lossy_lands)
    adapter = ReferenceAdapter()
    bad = _first_failure(random_play_checks(adapter, "koikoi", FEW, 1))
    cx = bad.counterexample  # type: ignore[attr-defined]
    assert cx["kind"] == "play" and cx["invariant"] == "card-conservation"
    r = replay(adapter, cx)
    assert r.reproduced and "conservation" in r.message
    assert main(["verify", "--replay", json.dumps(cx)]) == 1  # the command line reproduces it too
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), cx).reproduced
    assert main(["verify", "--replay", json.dumps(cx)]) == 0


def test_planted_oni_staying_on_the_field_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """(c) The Oni-fuda stays on the field: after capturing it is left there instead of going to the
    capture pile, and the end of the turn does not remove it (KJ-ONI-1, KJ-ONI-5)."""
    import hanafuda.games.kujuroku as ref_kujuroku
    from hanafuda_spec.games.kujuroku import ONI

    rnd = ref_kujuroku.KujurokuRound  # every action is played by KujurokuRound.play
    oni = ref_kujuroku.INDEX.by_id[ONI].mask
    orig_play = rnd.play

    def keep_oni(self: Any, a: Any) -> None:
        out = self.out
        orig_play(self, a)
        for seat, pile in enumerate(self.piles):  # a capture leaves the Oni on the field,
            if pile & oni:
                self.piles[seat] = pile & ~oni
                self.field |= oni
        if self.out != out:  # and the end of the turn no longer removes it
            self.out = out
            self.field |= oni

    monkeypatch.setattr(rnd, "play", keep_oni)
    adapter = ReferenceAdapter()
    bad = _first_failure(random_play_checks(adapter, "kujuroku", Level("test", 12, 3), 1))
    cx = bad.counterexample  # type: ignore[attr-defined]
    assert cx["kind"] == "play"
    assert replay(adapter, cx).reproduced
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), cx).reproduced


def test_planted_wrong_chip_band_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """(d) The par band (96–105) pays +2 instead of +1 (KJ-SCORE-2)."""
    import hanafuda.games.kujuroku as ref_kujuroku
    import hanafuda_spec.games.kujuroku as spec_kujuroku

    def wrong(points: int) -> int:
        return 2 if 96 <= points <= 105 else spec_kujuroku.chip_score(points)

    proxy = types.SimpleNamespace(**{k: getattr(spec_kujuroku, k) for k in dir(spec_kujuroku)
                                     if not k.startswith("__")})
    proxy.chip_score = wrong
    monkeypatch.setattr(ref_kujuroku, "spec", proxy)
    adapter = ReferenceAdapter()
    bad = _first_failure(o for o in proof_checks(adapter, "kujuroku", quick=True) if "vs reference play" in o.check)
    cx = bad.counterexample  # type: ignore[attr-defined]
    assert cx["kind"] == "play" and cx["game"] == "kujuroku"
    assert "chips" in bad.detail  # type: ignore[attr-defined]
    r = replay(adapter, cx)
    assert r.reproduced and "chips" in r.message
    monkeypatch.undo()
    assert not replay(ReferenceAdapter(), cx).reproduced
