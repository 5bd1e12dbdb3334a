"""``hanafuda import``: the built-in importers (koikoi-ai, battle-hanafuda) and the plugin group.

The fixtures are real logs of the two engines (MIT, attribution in tests/fixtures/peer-logs/).
The checks that need the engines' profiles (rulesets ``koikoi-japan`` and ``battle-hanafuda``)
skip until the catalogue has them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hanafuda.cli import main
from hanafuda.importers import ImporterError, importers
from hanafuda.importers.battle_hanafuda import IMPORTER as BATTLE
from hanafuda.importers.koikoi_ai import IMPORTER as KOIKOI_AI
from hanafuda.importers.koikoi_ai import card_id
from hanafuda.records import suggest_options, validate_document
from hanafuda.registry import game
from hanafuda_spec.records import FORMAT_1_1, parse_record, schema

from tests.test_records import schema_errors

FIXTURES = Path(__file__).parent / "fixtures" / "peer-logs"
KAI = sorted((FIXTURES / "koikoi-ai").glob("*.json"))
BH = sorted((FIXTURES / "battle-hanafuda").glob("*.log"))


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def has_ruleset(name: str) -> bool:
    return name in {r.name for r in game("koikoi").spec.rulesets}


def imported(path: Path) -> dict[str, Any]:
    imp = KOIKOI_AI if path.suffix == ".json" else BATTLE
    (doc,) = imp.read(str(path), path.read_bytes())
    return doc


def test_the_fixtures_keep_their_attribution() -> None:
    text = (FIXTURES / "README.md").read_text(encoding="utf-8")
    for folder, holder in (("koikoi-ai", "Sanghai Guan"), ("battle-hanafuda", "Yoji Suzuki")):
        assert holder in (FIXTURES / folder / "LICENSE").read_text(encoding="utf-8")
        assert holder in text
    assert KAI and BH


@pytest.mark.parametrize("path", KAI + BH, ids=lambda p: p.name)
def test_each_log_is_one_strict_1_1_record_with_provenance(path: Path) -> None:
    doc = imported(path)
    rec, problems = parse_record(doc)
    assert problems == [] and rec is not None
    assert schema_errors(doc, None, schema(FORMAT_1_1)) == []
    assert doc["format"] == FORMAT_1_1 and doc["game"] == "koikoi" and doc["status"] == "complete"
    meta = doc["meta"]
    assert meta["source"] == {"file": str(path), "line": 1}
    assert len(meta["engine"]["commit"]) == 40 and meta["engine"]["repository"] in (
        "guansanghai/KoiKoi-AI", "suzukiplan/open-hanafuda-ai")
    assert doc["rules"]["ruleset"] == ("koikoi-japan" if path.suffix == ".json" else "battle-hanafuda")
    rounds = 8 if path.suffix == ".json" else 12
    assert len(doc["result"]["rounds"]) == rounds and len(doc["deals"]) == rounds - 1
    assert sum(r["actions"] for r in doc["result"]["rounds"]) == len(doc["actions"])


@pytest.mark.parametrize("path", KAI + BH, ids=lambda p: p.name)
def test_imported_records_validate_under_their_engine_profile(path: Path) -> None:
    doc = imported(path)
    if not has_ruleset(doc["rules"]["ruleset"]):
        pytest.skip(f"the profile {doc['rules']['ruleset']} is not in the catalogue yet")
    rep = validate_document(doc)
    assert rep.ok, [str(p) for p in rep.problems[:5]]


@pytest.mark.parametrize("path", BH, ids=lambda p: p.name)
def test_battle_hanafuda_under_plain_nintendo_names_draw_dealer(path: Path) -> None:
    """Battle Hanafuda passes the deal after a drawn round; under plain Nintendo rules the record
    fails where that first matters, and the hint names the option value that matches."""
    if not has_ruleset("battle-hanafuda"):
        pytest.skip("the battle-hanafuda profile is not in the catalogue yet")
    doc = imported(path)
    rep = validate_document(doc, ruleset="nintendo")
    if rep.ok:
        pytest.skip("no drawn round before the end of this game")
    assert rep.source is not None
    hints = suggest_options(rep.source, rep, ruleset="nintendo")
    assert any(h.startswith("with `draw_dealer=pass`") for h in hints), hints


def test_koikoi_ai_card_numbering() -> None:
    """[month, k] is our 10*month + k - 1 (the engine's KoiKoiCard sets list k=1 first)."""
    assert card_id([1, 1], "x") == 10 and card_id([11, 4], "x") == 113 and card_id([12, 2], "x") == 121
    for bad in ([13, 1], [1, 5], [0, 1], "1,1", [1], [True, 1]):
        with pytest.raises(ImporterError):
            card_id(bad, "x")


def test_battle_hanafuda_numbering_comes_from_the_logs_header() -> None:
    doc = imported(BH[0])
    first = BH[0].read_text(encoding="utf-8").splitlines()
    floor = next(line for line in first if line.startswith("Floor: ")).removeprefix("Floor: ").split(",")
    hands = doc["deck"]["hands"]
    # index 3 is January's GOKOU (the Crane, our 10); 43 is November's (the Rain Man, our 110)
    table = {3: 10, 43: 110, 40: 113, 42: 111, 30: 81, 35: 90}
    for i, x in enumerate(floor[:8]):
        if int(x) in table:
            assert hands[0][i] == table[int(x)]


# -- bad input: one located error, exit 2, nothing written for that file ------------------------


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    kai = KAI[0].read_text(encoding="utf-8")
    bh = BH[0].read_text(encoding="utf-8")
    files = {
        "kai-truncated": kai[: len(kai) // 2],
        "kai-unknown-card": kai.replace("[9, 1]", "[13, 1]", 1),
        "kai-other-format": bh,
        "bh-truncated": "\n".join(bh.splitlines()[:60]) + "\n",
        "bh-unknown-card": bh.replace("Floor: ", "Floor: 99,", 1).replace(",", "", 0),
        "bh-other-format": kai,
    }
    out = {}
    for name, text in files.items():
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        out[name] = p
    return out


@pytest.mark.parametrize(("fmt", "good"), [("koikoi-ai", KAI), ("battle-hanafuda", BH)])
def test_bad_input_is_one_located_error_and_the_other_files_are_imported(
        fmt: str, good: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prefix = "kai" if fmt == "koikoi-ai" else "bh"
    bad = {k: v for k, v in _bad_files(tmp_path).items() if k.startswith(prefix)}
    out_file = tmp_path / "out.jsonl"
    args = ["import", fmt, str(good[0]), *map(str, bad.values()), str(good[-1]), "--out", str(out_file)]
    code, out, err = run_cli(args, capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == len(bad) + 1 and lines[-1].startswith("hanafuda import: 3 of")
    for (name, path), line in zip(bad.items(), lines, strict=False):
        assert line.startswith(f"{path}:"), line
        assert "Traceback" not in line
        if name.endswith("truncated"):
            assert "truncated" in line
        if name.endswith("unknown-card"):
            assert "card" in line and ("13, 1" in line or "99" in line)
    records = [json.loads(x) for x in out_file.read_text(encoding="utf-8").splitlines()]
    assert [r["meta"]["source"]["file"] for r in records] == [str(good[0]), str(good[-1])]


def test_nothing_is_written_when_nothing_is_imported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _bad_files(tmp_path)["kai-truncated"]
    out_file = tmp_path / "out.jsonl"
    code, out, _ = run_cli(["import", "koikoi-ai", str(bad), "--out", str(out_file)], capsys)
    assert code == 2 and not out_file.exists() and out == ""


@pytest.mark.parametrize("args", [["import"], ["import", "nope", "x"], ["import", "koikoi-ai"],
                                  ["import", "koikoi-ai", "/nonexistent/file.json"]])
def test_usage_errors(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(args, capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) <= 2 and "Traceback" not in err


def test_import_pipes_into_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["import", "koikoi-ai", *map(str, KAI)], capsys)
    assert code == 0 and len(out.splitlines()) == len(KAI)
    p = tmp_path / "k.jsonl"
    p.write_text(out, encoding="utf-8")
    code, out, err = run_cli(["validate", str(p), "--json"], capsys)
    j = json.loads(out)
    assert j["files"][0]["records"] == len(KAI) and err == ""
    assert all(r["meta"]["importer"] == "koikoi-ai" for r in j["files"][0]["reports"])


# -- plugins -------------------------------------------------------------------------------------


class _Dummy:
    name = "dummy"
    summary = "a test importer"

    def read(self, source: str, data: bytes) -> list[dict[str, Any]]:
        if data.strip() != b"ok":
            raise ImporterError(1, "not a dummy log")
        return [{"format": FORMAT_1_1, "source": source}]


class _EP:
    def __init__(self, name: str, obj: Any) -> None:
        self.name, self.obj = name, obj

    def load(self) -> Any:
        if isinstance(self.obj, Exception):
            raise self.obj
        return self.obj


def test_plugins_are_found_through_the_entry_point_group(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    eps = [_EP("dummy", _Dummy()), _EP("broken", ImportError("boom")), _EP("koikoi-ai", _Dummy()),
           _EP("not-an-importer", object())]
    monkeypatch.setattr("hanafuda.importers.entry_points", lambda group: eps if group == "hanafuda.importers" else [])
    found = importers()
    assert list(found) == ["battle-hanafuda", "dummy", "koikoi-ai"]
    assert found["koikoi-ai"] is KOIKOI_AI  # a plugin does not replace a built-in
    p = tmp_path / "log"
    p.write_text("ok", encoding="utf-8")
    code, out, _ = run_cli(["import", "dummy", str(p)], capsys)
    assert code == 0 and json.loads(out) == {"format": FORMAT_1_1, "source": str(p)}
    code, out, _ = run_cli(["import", "--list"], capsys)
    assert "dummy" in out and "a test importer" in out
