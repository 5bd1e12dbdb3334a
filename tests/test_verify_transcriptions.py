"""``hanafuda verify`` compares the catalogue with the sources' second transcription
(:mod:`hanafuda_spec.transcriptions`): a wrong point value, game constant or card in the catalogue
fails a check of ``verify`` itself, not only the transcription tests (issue 32, item 5)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec import transcriptions
from hanafuda_spec.games import GAME_KEYS
from hanafuda_spec.games import kekoro as ke
from hanafuda_spec.games import kusurigui as kg
from hanafuda_spec.games import musashino as mb
from hanafuda_spec.verify import QUICK, CheckResult, z3_checks
from hanafuda_spec.yaku import YakuDef


def _check(game: str, table: str) -> CheckResult:
    name = f"transcribed table [{table}] vs "
    names = [n for n in _names(game) if n.startswith(name)]
    assert len(names) == 1, names
    (result,) = z3_checks(ReferenceAdapter(), game, QUICK, names)
    return result


def _names(game: str) -> Iterator[str]:
    from hanafuda_spec.proofs import proof_check_names
    yield from proof_check_names(game, True)


@pytest.mark.parametrize("game", GAME_KEYS)
def test_every_table_is_a_check_of_verify_and_passes(game: str) -> None:
    names = [n for n in _names(game) if n.startswith("transcribed table")]
    assert len(names) == len(transcriptions.table_names(game)) >= 3
    results = list(z3_checks(ReferenceAdapter(), game, QUICK, names))
    assert all(r.ok for r in results), [r.detail for r in results if not r.ok]


def test_KG_YAKU_4_four_brights_worth_five_fails_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    real = kg.yaku_table

    def planted(values: Mapping[str, str]) -> tuple[YakuDef, ...]:
        return tuple(dataclasses.replace(y, points=5) if y.id == "four-brights" else y for y in real(values))
    monkeypatch.setattr(kg, "yaku_table", planted)
    r = _check("kusurigui", "dekiyaku")
    assert not r.ok and "four-brights" in r.detail and "source says 4" in r.detail


def test_KE_IV_1_yaku_lead_of_two_fails_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ke, "YAKU_LEAD", 2)
    r = _check("kekoro", "game")
    assert not r.ok and "yaku lead" in r.detail


def test_MB_YAKU_7_a_swapped_card_fails_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    real = mb.yaku_table

    def planted(values: Mapping[str, str]) -> tuple[mb.Dekiyaku, ...]:
        return tuple(dataclasses.replace(d, parts=(frozenset({10}), frozenset({61}), frozenset({90})))
                     if d.id == "takasago" else d for d in real(values))
    monkeypatch.setattr(mb, "yaku_table", planted)
    r = _check("musashino", "dekiyaku")
    assert not r.ok and "takasago" in r.detail


def test_a_table_no_comparison_reads_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = transcriptions.load

    def with_new_table(game: str) -> dict[str, object]:
        return {**real(game), "new_table": {"source": "x", "section": "y", "published": "z", "transcribed": "w"}}
    monkeypatch.setattr(transcriptions, "load", with_new_table)
    assert transcriptions.problems(None, "kekoro", "new_table") == ["no comparison reads the table [new_table]"]
