"""``hanafuda view``: a record as one self-contained page, replayed through the reference.

The page carries everything (no network, no file beside it); an invalid record is still shown with
its first problem at its action (exit 1); bad input is one line on stderr, exit 2, nothing written.
The browser half (the keys step, the problem is visible) is in tests/test_rulebook_browser.py."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hanafuda.cli import main
from hanafuda.importers.koikoi_ai import IMPORTER as KOIKOI_AI
from hanafuda.records import problems_of, record_match
from hanafuda.registry import game
from hanafuda.view import ViewError, render_html, view_record
from hanafuda_spec.games import all_specs

PEER_LOGS = Path(__file__).parent / "fixtures" / "peer-logs"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _record(key: str, seed: int = 3) -> dict[str, Any]:
    doc: dict[str, Any] = record_match(game(key), None, {}, seed=seed, policy_seed=seed)
    return doc


def _self_contained(page: str) -> None:
    """No address the browser would fetch: only inline styles, scripts and data: pictures."""
    assert not re.search(r"<(link|iframe|object|embed)\b", page)
    assert not re.search(r"<script[^>]*\bsrc=", page)
    markup = re.sub(r"<script>.*?</script>", "", page, flags=re.S)  # (the script writes <img src=...>)
    assert not re.search(r"\bsrc=\"(?!data:)", markup)
    assert not re.search(r"url\((?!data:|#)", markup)
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found[1])
    assert data["cards"] and all(c["src"].startswith("data:image/") for c in data["cards"].values())
    assert "default-src 'none'" in page  # and the page forbids any other


@pytest.mark.parametrize("key", [s.key for s in all_specs()])
def test_every_game_views_as_one_self_contained_page(key: str) -> None:
    doc = _record(key)
    v = view_record(doc)
    assert v.valid and v.start == 0
    # one step for each deal dealt, each action applied and each deal settled
    deals = len(doc["result"]["rounds"])
    assert len(v.frames) == len(doc["actions"]) + 2 * deals
    page = render_html(v)
    _self_contained(page)
    assert len(page) < 3_000_000


def test_the_positions_are_the_references() -> None:
    """Each step's position is the reference's own (the one --snapshots records after each action)."""
    doc: dict[str, Any] = record_match(game("koikoi"), None, {}, seed=8, policy_seed=8, snapshots=True)
    v = view_record(doc)
    steps = {f.action: f for f in v.frames if f.action is not None}
    for k, entry in enumerate(doc["actions"]):
        assert {z: list(c) for z, c in steps[k].zones} == entry["after"]["zones"]


def test_an_illegal_action_is_a_step_of_its_own_opened_first() -> None:
    doc = _record("koikoi", 5)
    doc["actions"][4] = "play 999"
    v = view_record(doc)
    assert [p.rule_id for p in v.problems[:1]] == ["KK-TURN-2"]
    opened = v.frames[v.start]
    assert opened.action == 4 and opened.problems[0] == 0
    assert opened.zones == v.frames[v.start - 1].zones  # shown in the position it was played in
    page = render_html(v)
    assert "[KK-TURN-2]" in page and "Invalid record." in page


def test_the_problems_are_the_validators() -> None:
    doc = _record("kujuroku", 4)
    doc["actions"][7] = "play 999"
    assert [str(p) for p in view_record(doc).problems] == [str(p) for p in problems_of(doc)]


def test_an_imported_record_views() -> None:
    path = sorted((PEER_LOGS / "koikoi-ai").glob("*.json"))[0]
    (doc,) = KOIKOI_AI.read(str(path), path.read_bytes())
    v = view_record(doc)
    assert v.frames and [str(p) for p in v.problems] == [str(p) for p in problems_of(doc)]
    _self_contained(render_html(v))


def test_a_record_with_nothing_to_deal_is_not_viewable() -> None:
    doc = _record("koikoi")
    doc["game"] = "chess"
    with pytest.raises(ViewError, match="REC-GAME-1"):
        view_record(doc)
    with pytest.raises(ViewError):
        view_record([1, 2])


def test_the_command_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "games.jsonl"
    src.write_text("".join(json.dumps(_record("kekoro", s)) + "\n" for s in (1, 2)))
    out = tmp_path / "p.html"
    code, stdout, err = run_cli(["view", str(src), "--record", "2", "--out", str(out)], capsys)
    assert code == 0 and err == "" and f"{out}: record 2 of" in stdout and "valid" in stdout
    _self_contained(out.read_text())
    code, stdout, _ = run_cli(["view", str(src), "--out", "-"], capsys)
    assert code == 0 and stdout.startswith("<!DOCTYPE html>")


def test_an_invalid_record_is_written_with_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _record("musashino")
    doc["actions"][2] = "play 999"
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(doc, indent=1))
    out = tmp_path / "bad.html"
    code, stdout, err = run_cli(["view", str(src), "-o", str(out)], capsys)
    assert code == 1 and err == "" and "invalid" in stdout and "[MB-" in out.read_text()


@pytest.mark.parametrize("content,args,says", [
    (None, [], "cannot read"),
    ('{"format": "hanafuda-record/1", "game": ', [], "REC-JSON-1"),
    ("[1]\n", [], "REC-FORMAT-1"),
    ("CHESS", [], "cannot show"),
    ("KOIKOI", ["--record", "2"], "no record 2"),
])
def test_bad_input_is_one_line_exit_2_nothing_written(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      content: str | None, args: list[str], says: str) -> None:
    src = tmp_path / "in.json"
    if content == "CHESS":
        content = json.dumps({**_record("koikoi"), "game": "chess"})
    elif content == "KOIKOI":
        content = json.dumps(_record("koikoi"))
    if content is not None:
        src.write_text(content)
    out = tmp_path / "out.html"
    code, stdout, err = run_cli(["view", str(src), "--out", str(out), *args], capsys)
    assert code == 2 and stdout == ""
    assert err.count("\n") == 1 and err.startswith("hanafuda: error: ") and says in err
    assert "Traceback" not in err
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == (["in.json"] if content else [])


@pytest.mark.parametrize("args", [["view"], ["view", "x", "--record", "0"], ["view", "x", "--record", "two"]])
def test_usage_errors(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(args, capsys)
    assert code == 2 and err.count("\n") == 1
