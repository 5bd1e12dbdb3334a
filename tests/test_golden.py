"""Golden records: seeded games recorded once and committed. Replaying them must still validate and
recording them again must give the same bytes; a failure means the engine's behaviour changed. If the
change is deliberate, regenerate with ``hanafuda record GAME --seed 5 --games 2 > tests/golden/GAME.jsonl``
(see the file names for the options used) and say so in the commit."""

from __future__ import annotations

from pathlib import Path

import pytest
from hanafuda.cli import main

GOLDEN = Path(__file__).parent / "golden"
RECORDED = {
    "koikoi.jsonl": ["koikoi", "--games", "2"],
    "kusurigui.jsonl": ["kusurigui", "--games", "2"],
    "kujuroku.jsonl": ["kujuroku", "--games", "2"],
    "musashino.jsonl": ["musashino", "--games", "2"],
    "kekoro.jsonl": ["kekoro", "--games", "2"],
    "musashino-4p.jsonl": ["musashino", "-o", "players=4"],
    "kujuroku-jizo.jsonl": ["kujuroku", "-o", "jizo=on"],
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_golden_record_validates(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(GOLDEN / name)]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_golden_record_is_reproduced(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", *RECORDED[name], "--seed", "5"]) == 0
    assert capsys.readouterr().out == (GOLDEN / name).read_text(encoding="utf-8")
