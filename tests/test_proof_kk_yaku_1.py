"""KK-YAKU-1 ("within a group only the most valuable yaku scores") is proved over the table, not by
the encoding's tie order (issue 32): a table or an encoding that lets two yaku of a group score
together makes the proof fail."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import hanafuda_spec.games.koikoi as kk
import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec import z3layer as z
from hanafuda_spec.proofs import Outcome, proof_check_names, selected_proof_checks
from hanafuda_spec.proofs.common import YakuModel, yaku_model
from hanafuda_spec.yaku import YakuDef

CLAIM = "KK-YAKU-1 at most one yaku of a group scores"


@pytest.fixture(autouse=True)
def _fresh_models() -> Iterator[None]:
    """Models built under a planted change must not outlive it (``yaku_model`` caches them)."""
    yaku_model.cache_clear()
    yield
    yaku_model.cache_clear()


def _outcomes() -> list[Outcome]:
    names = [n for n in proof_check_names("koikoi", True) if CLAIM in n]
    assert names
    return selected_proof_checks(ReferenceAdapter(), "koikoi", True, names)


def test_KK_YAKU_1_holds_over_the_catalogue_table() -> None:
    assert all(o.ok and o.kind == "proof" for o in _outcomes())


def test_KK_YAKU_1_fails_when_a_ribbon_yaku_leaves_its_group(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poetry Ribbons out of the Ribbons group in the table: it then scores beside Ribbons."""
    table = kk.yaku_table

    def moved(*args: Any, **kwargs: Any) -> list[YakuDef]:
        return [replace(y, group=None) if y.id == "poetry-ribbons" else y for y in table(*args, **kwargs)]

    monkeypatch.setattr(kk, "yaku_table", moved)
    bad = [o for o in _outcomes() if not o.ok]
    assert bad and all("refuted" in o.detail for o in bad)
    assert bad[0].counterexample["claim"] == CLAIM


def _tied_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poetry Ribbons without its increment: with nine Ribbons, Ribbons (1 + 4) ties it at 5."""
    table = kk.yaku_table

    def flat(*args: Any, **kwargs: Any) -> list[YakuDef]:
        return [replace(y, extra_pool=frozenset()) if y.id == "poetry-ribbons" else y
                for y in table(*args, **kwargs)]

    monkeypatch.setattr(kk, "yaku_table", flat)


def _best_of(strict: bool) -> Callable[[YakuModel], list[z.Int]]:
    """The encoding's best-of rule with the same comparison on both sides of a tie."""
    def scores(self: YakuModel) -> list[z.Int]:
        out = []
        for i, y in enumerate(self.rows):
            v = self.values[i]
            beats = [v > self.values[j] if strict else v >= self.values[j]
                     for j, o in enumerate(self.rows) if j != i and o.group == y.group]
            out.append(v if y.group is None else z.ite(z.all_of(beats), v, 0))
        return out
    return scores


def test_KK_YAKU_1_holds_on_a_tie_whichever_yaku_the_encoding_picks(monkeypatch: pytest.MonkeyPatch) -> None:
    _tied_table(monkeypatch)
    assert all(o.ok for o in _outcomes())  # the catalogue's encoding: the first listed of a tie scores


@pytest.mark.parametrize("strict", [False, True], ids=["both-score", "neither-scores"])
def test_KK_YAKU_1_fails_when_the_encoding_mishandles_a_tie(monkeypatch: pytest.MonkeyPatch, strict: bool) -> None:
    """``>=`` on both sides scores both yaku of a tie; ``>`` on both sides scores neither."""
    _tied_table(monkeypatch)
    monkeypatch.setattr(YakuModel, "_scores", _best_of(strict))
    assert any(not o.ok for o in _outcomes())


def test_KK_YAKU_1_fails_without_the_best_of_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """An encoding that scores every formed yaku of a group."""
    monkeypatch.setattr(YakuModel, "_scores", lambda self: list(self.values))
    assert all(not o.ok for o in _outcomes())
