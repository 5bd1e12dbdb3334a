"""Planted bugs: patch the reference with a known mistake and show that ``verify`` fails with a
counterexample that ``verify --replay`` reproduces (and that the unpatched reference passes)."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import hanafuda.games.koikoi as ref_koikoi
import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import main
from hanafuda.fishing import Table
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
    """(b) A capture that loses the captured card (KK-CAP-1, card conservation)."""
    orig = Table.add_captured

    def lossy(self: Table[Any], side: int, cards: Any) -> Table[Any]:
        return orig(self, side, tuple(cards)[:-1] if len(cards) >= 2 else cards)  # a captured card vanishes

    monkeypatch.setattr(Table, "add_captured", lossy)
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

    orig_find, orig_add = ref_kujuroku._find, Table.add_captured

    def blind(cards: Any, cid: int) -> Any:
        if cid == ONI and sys._getframe(1).f_code.co_name == "_end_turn":
            return None  # _end_turn no longer sees (and removes) the Oni
        return orig_find(cards, cid)

    def keep_oni(self: Table[Any], side: int, cards: Any) -> Table[Any]:
        oni = [c for c in cards if c.id == ONI]
        if not oni:
            return orig_add(self, side, cards)
        t = replace(self, field=tuple(sorted((*self.field, *oni), key=lambda c: c.id)))
        return orig_add(t, side, tuple(c for c in cards if c.id != ONI))

    monkeypatch.setattr(ref_kujuroku, "_find", blind)
    monkeypatch.setattr(Table, "add_captured", keep_oni)
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
