"""The command-line program: the documented outputs, exit codes and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hanafuda.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_score_koikoi_five_brights(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "koikoi", "10", "30", "80", "110", "120", "--json"], capsys)
    assert code == 0
    got = json.loads(out)
    assert got["yaku"] == [{"id": "five-brights", "points": 15}]
    assert got["yaku_total"] == 15 and got["card_points"] is None
    code, out, _ = run(["score", "koikoi", "10", "30", "80", "110", "120", "--json", "--ruleset", "nintendo"],
                       capsys)
    assert json.loads(out)["yaku_total"] == 10


def test_score_accepts_slugs_and_double_dash(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "--json", "koikoi", "--", "pine_crane", "cherry_curtain", "susuki_moon"], capsys)
    assert code == 0 and json.loads(out)["yaku_total"] == 6


def test_score_month_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "koikoi", "30", "31", "32", "33", "--json", "--option", "month=3"], capsys)
    assert code == 0
    assert json.loads(out)["yaku"] == [{"id": "cards-of-the-month", "points": 4}]


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "koikoi", "--games", "30", "--seed", "7", "--json"]
    _, a, _ = run(args, capsys)
    _, b, _ = run(args, capsys)
    assert a == b
    stats = json.loads(a)
    assert stats["games"] == 30 and stats["rounds"] == 360
    assert sum(stats["wins_by_seat"].values()) + stats["drawn_games"] == 30


@pytest.mark.parametrize("args", [
    ["score", "nogame", "10"],
    ["score", "koikoi", "999"],
    ["score", "koikoi", "10", "10"],
    ["score", "koikoi", "10", "pine_crane"],
    ["score", "koikoi", "10", "--ruleset", "nope"],
    ["score", "koikoi", "10", "--option", "nope=1"],
    ["score", "koikoi", "10", "--option", "five_brights=12"],
    ["score", "koikoi", "10", "--option", "five_brights"],
    ["score", "koikoi", "10", "--option", "month=13"],
    ["simulate", "koikoi", "--games", "0"],
    ["simulate", "koikoi", "--games", "x"],
    ["cards", "nogame"],
    ["frobnicate"],
    [],
])
def test_bad_input_is_one_line_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(args, capsys)
    assert code == 2
    if args:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("hanafuda: error:"), err
        assert "Traceback" not in err


def test_installed_program_prints_no_traceback() -> None:
    p = subprocess.run([sys.executable, "-m", "hanafuda", "score", "koikoi", "10", "10"],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 2
    assert p.stderr.strip() == "hanafuda: error: card '10' is given twice"


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert "hanafuda" in capsys.readouterr().out


def test_cards_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["cards", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["size"] == 48 and d["cards"][0]["slug"] == "pine_crane"


def test_rules_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from hanafuda_spec.games.koikoi import SPEC

    code, out, _ = run(["rules", "koikoi", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and [r["id"] for r in d["rules"]] == [r.id for r in SPEC.rules]
