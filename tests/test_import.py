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
    assert schema_errors(doc, schema(FORMAT_1_1)) == []
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
    assert code == 2 and out == "" and not out_file.exists()  # a failing command writes nothing
    code, out, err = run_cli([*args, "--partial"], capsys)
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == len(bad) + 1 and lines[-1].startswith("hanafuda: error: import: 3 of")
    for (name, path), line in zip(bad.items(), lines, strict=False):
        assert line.startswith(f"hanafuda: error: {path}:"), line
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
    for extra in ([], ["--partial"]):
        code, out, _ = run_cli(["import", "koikoi-ai", str(bad), "--out", str(out_file), *extra], capsys)
        assert code == 2 and not out_file.exists() and out == ""


def test_a_refused_file_leaves_an_existing_output_and_stdout_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _bad_files(tmp_path)["kai-truncated"]
    out_file = tmp_path / "out.jsonl"
    out_file.write_text("before\n", encoding="utf-8")
    code, out, _ = run_cli(["import", "koikoi-ai", str(KAI[0]), str(bad), "--out", str(out_file)], capsys)
    assert code == 2 and out_file.read_text(encoding="utf-8") == "before\n"
    code, out, _ = run_cli(["import", "koikoi-ai", str(KAI[0]), str(bad)], capsys)
    assert code == 2 and out == ""
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".hanafuda-")] == []
    code, out, _ = run_cli(["import", "koikoi-ai", str(KAI[0]), "--out", str(out_file)], capsys)
    assert code == 0 and json.loads(out_file.read_text(encoding="utf-8"))["meta"]["source"]["file"] == str(KAI[0])


def test_a_log_larger_than_the_limit_is_refused_before_it_is_read_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hanafuda.commands.import_.MAX_LOG_BYTES", 1000)
    code, out, err = run_cli(["import", "koikoi-ai", str(KAI[0])], capsys)
    assert code == 2 and out == "" and "at most 0 MiB" in err and len(err.splitlines()) == 1


def test_an_importer_message_cannot_forge_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    class Forger(_Dummy):
        def read(self, source: str, data: bytes) -> list[dict[str, Any]]:
            raise ImporterError(1, "bad\nhanafuda: error: forged")

    monkeypatch.setattr("hanafuda.commands.import_.importers", lambda: {"dummy": Forger()})
    p = tmp_path / "a\nhanafuda: error: name"
    p.write_text("x", encoding="utf-8")
    code, _, err = run_cli(["import", "dummy", str(p)], capsys)
    assert code == 2 and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("args", [["import"], ["import", "nope", "x"], ["import", "koikoi-ai"],
                                  ["import", "koikoi-ai", "/nonexistent/file.json"]])
def test_usage_errors(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(args, capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err


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


# -- hostile logs: refused, never a crash (issue 31.2); each case was a crash or a silent guess ------


SIM = sorted((Path(__file__).parent / "fixtures" / "battle-hanafuda-sim").glob("*.log"))
ENDS = Path(__file__).parent / "fixtures" / "koikoi-ai-ends"


def refused(imp: Any, text: str) -> ImporterError:
    with pytest.raises(ImporterError) as e:
        imp.read("x", text.encode("utf-8"))
    assert e.value.line is not None and "expected" in e.value.what
    assert all(c >= " " for c in e.value.what), e.value.what  # no raw control character
    return e.value


def kai_text() -> str:
    return KAI[0].read_text(encoding="utf-8")


@pytest.mark.parametrize(("old", "new", "found"), [
    ('"player1InitPts": 30', '"player1InitPts": ' + "9" * 5000, "digits"),  # was ValueError (int limit)
    ('"Dealer": 2', '"Dealer": 2.0', "found 2.0"),  # was TypeError
    ('"Dealer": 2', '"Dealer": true', "found true"),  # read as seat 0
    ('"playerInTurn": 2', '"playerInTurn": true', "found true"),
    ('"gameWinner": 2', '"gameWinner": 2.0', "found 2.0"),  # was written as winners: [1.0]
    ('"player1RoundPts": 7', '"player1RoundPts": 7.0', "found 7.0"),  # the round was dropped, game abandoned
    ('"player1RoundPts": 7', '"player1RoundPts": NaN', "NaN"),  # the same
    ('"player1RoundPts": 7', '"player1RoundPts": null', "found null"),
    ('"isOver": true', '"isOver": 1', "found 1"),
    ('"collectCard": [[2, 3], [2, 2]]', '"collectCard": [[2, 3], [2, 2], [2, 2]]', "each card taken once"),
    ('"collectCard": [[2, 3], [2, 2]]', '"collectCard": [[2, 3], [2, 3], [2, 2]]', "once"),
    ('"initHand1": [[9, 1]', '"initHand1": [[2, 3]', "twice"),
    ('"discardCard": [2, 3]', '"discardCard": [2, 3], "note\\nhanafuda: error: x": 1', "found \"note\\n"),
])
def test_koikoi_ai_hostile_values_are_refused(old: str, new: str, found: str) -> None:
    text = kai_text()
    assert old in text
    e = refused(KOIKOI_AI, text.replace(old, new, 1))
    assert found in e.what, e.what


def test_koikoi_ai_game_over_at_zero_points_is_played_out() -> None:
    """KK-GAME-3 (game_end=zero): the engine ends a game after a round that leaves a player at 0 points
    or fewer; its record says isOver, and the record is complete, not abandoned."""
    doc: Any
    (doc,) = KOIKOI_AI.read("59.json", (ENDS / "59.json").read_bytes())
    assert doc["status"] == "complete" and len(doc["result"]["rounds"]) == 4 and min(doc["result"]["scores"]) <= 0
    if has_ruleset("koikoi-japan"):
        assert validate_document(doc).ok
    (doc,) = KOIKOI_AI.read("201.json", (ENDS / "201.json").read_bytes())
    assert doc["status"] == "abandoned" and doc["result"]["rounds"] == []
    if has_ruleset("koikoi-japan"):
        assert validate_document(doc).ok


def test_koikoi_ai_over_without_reason_is_refused() -> None:
    """isOver true after a round that leaves both players above 0, before round 8: a contradiction."""
    doc = json.loads(kai_text())
    rounds = doc["record"]
    for k in [k for k in rounds if k != "round1"]:
        del rounds[k]
    p1 = 30 + rounds["round1"]["basic"]["player1RoundPts"]
    doc["result"].update(player1EndPts=p1, player2EndPts=60 - p1)
    assert 0 < p1 < 60
    e = refused(KOIKOI_AI, json.dumps(doc))
    assert "isOver" in e.what


def bh_text() -> str:
    return BH[0].read_text(encoding="utf-8")


def bh_head(rounds: int = 1) -> str:
    head = [x for x in bh_text().splitlines() if x.startswith(("Watch", "[CARD-INDEX]"))]
    head[0] = head[0].replace("rounds=12", f"rounds={rounds}")
    return "\n".join(head) + "\n"


@pytest.mark.parametrize(("text", "line", "found"), [
    (lambda: bh_head() + "[Round Start]\n[Initial] Round 1\n[Round 1] Draw\n", 18, "the deal"),  # AssertionError
    (lambda: bh_text().replace("rounds=12", "rounds=0", 1), 1, "found \"0\""),  # was IndexError
    (lambda: bh_text().replace("rounds=12", "rounds=" + "9" * 5000, 1), 1, "1 to 12"),  # was ValueError
    (lambda: bh_text().replace("Watch Seed: 31337", "Watch Seed: " + "9" * 5000, 1), 2, "whole number"),
    (lambda: bh_text().replace("Floor: 11,", "Floor: " + "1" * 5000 + ",", 1), 18, "0 to 47"),
    (lambda: bh_text().replace("[CPU] drop take: 6,7 (Env: P1=415, CPU=551)\n",
                               "[CPU] drop take: 6,7 (Env: P1=415, CPU=551)\n" * 2, 1), 24, "second play"),
    (lambda: bh_text().replace("[CPU] floor take: 26,25 (Env: P1=399, CPU=565)\n",
                               "[CPU] floor take: 26,25 (Env: P1=399, CPU=565)\n"
                               "[CPU] drop take: 6,7 (Env: P1=415, CPU=551)\n", 1), 26, "a card of CPU's hand"),
    (lambda: bh_text().replace("[CPU] drop take: 6,7 ", "[CPU] drop take: 6,30 ", 1), 23, "found 81"),
    (lambda: bh_text().replace("[CPU] floor open: 26 ", "[CPU] floor open: 14 ", 1), 24, "next card"),
    (lambda: bh_text().replace("[Round Start]", "Hello \x1b[31m", 1), 16, "\\u001b"),
    (lambda: bh_text().replace("  - Plain Set (Ten Modest Flower Cards): 2", "  - Plain Set: 2", 1), 97, "yaku"),
])
def test_battle_hanafuda_hostile_lines_are_refused(text: Any, line: int, found: str) -> None:
    e = refused(BATTLE, text())
    assert e.line == line and found in e.what, (e.line, e.what)


def test_battle_hanafuda_a_long_yaku_line_is_refused() -> None:
    """A 300 KB yaku line (the old pattern backtracked quadratically on it) is refused: the line is split
    by hand, in one pass."""
    lines = bh_text().splitlines()
    at = lines.index("  - Plain Set (Ten Modest Flower Cards): 2")
    for bad in ("  - " + "a (" * 100_000 + "x", "  - Plain Set (" + ")" * 300_000 + ": 2"):
        lines[at] = bad
        e = refused(BATTLE, "\n".join(lines))
        assert e.line == at + 1 and len(e.what) < 200


@pytest.mark.parametrize("path", SIM, ids=lambda p: p.name)
def test_battle_hanafuda_logs_of_every_ai_model_import_and_validate(path: Path) -> None:
    """The simulator's own logs under each AI model (Thinking..., forecasts and traces skipped) and
    rounds=N, which becomes the record's length."""
    doc = imported(path)
    rounds = int(path.name.split("-r")[1].split("-")[0])
    assert len(doc["result"]["rounds"]) == rounds
    assert doc["rules"]["options"] == ({} if rounds == 12 else {"length": str(rounds)})
    if has_ruleset("battle-hanafuda"):
        rep = validate_document(doc)
        assert rep.ok, [str(p) for p in rep.problems[:5]]


def test_battle_hanafuda_skips_only_the_listed_lines() -> None:
    from hanafuda.importers.battle_hanafuda import SKIPPED

    assert "Thinking..." in SKIPPED
    text = bh_text().replace("[Round Start]", "Thinking...\n[Round Start]", 1)
    assert BATTLE.read("x", text.encode()) == BATTLE.read("x", bh_text().encode())
    e = refused(BATTLE, bh_text().replace("[Round Start]", "Thinking harder\n[Round Start]", 1))
    assert e.line == 16 and "Thinking harder" in e.what


def test_write_atomic_writes_whole_or_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hanafuda.commands._common import UsageError, write_atomic

    target = tmp_path / "out.jsonl"
    write_atomic(target, "one\n", "--out")
    assert target.read_text(encoding="utf-8") == "one\n"

    def refuse(src: str, dst: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("hanafuda.commands._common.os.replace", refuse)
    with pytest.raises(UsageError, match="No space left"):
        write_atomic(target, "two\n", "--out")
    assert target.read_text(encoding="utf-8") == "one\n" and [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
    with pytest.raises(UsageError, match="directory"):
        write_atomic(tmp_path, "x", "--out")


# -- validate: input text escaped, a card listed twice is a problem (issue 31.4) -----------------


def _first_capture(doc: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(doc["actions"]) if isinstance(a, dict) and a.get("captures"))


def test_rec_capture_2_a_card_listed_twice_in_captures_is_a_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """REC-CAPTURE-2: `captures: [21, 21]` used to validate (the claim was read as a set); it is now a
    problem of the record, which is still replayed (invalid, not unusable)."""
    doc = imported(KAI[0])
    i = _first_capture(doc)
    doc["actions"][i]["captures"] = doc["actions"][i]["captures"] * 2
    rep = validate_document(doc)
    assert not rep.ok and not rep.unusable
    assert [p.rule_id for p in rep.problems] == ["REC-CAPTURE-2"] and rep.problems[0].where.action == i
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    code, out, _ = run_cli(["validate", str(p)], capsys)
    assert code == 1 and "[REC-CAPTURE-2]" in out and "1 invalid" in out


@pytest.mark.parametrize("where", ["field", "option", "file"])
def test_validate_escapes_names_from_the_input(where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A field name, an option name or a file name holding a newline cannot forge a report line."""
    forged = "x\nhanafuda: error: forged"
    doc = imported(KAI[0])
    if where == "field":
        doc[forged] = 1
    elif where == "option":
        doc["rules"]["options"][forged] = "on"
    else:
        doc["result"]["scores"] = [0, 0]  # some problem to report under the file's name
    p = tmp_path / (forged if where == "file" else "r.jsonl")
    p.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    code, out, err = run_cli(["validate", str(p)], capsys)
    assert code in (1, 2)
    lines = (out + err).splitlines()
    assert lines and not any(line.startswith("hanafuda: error: forged") for line in lines), lines
    assert any("\\n" in line for line in lines)


@pytest.mark.parametrize(("name", "status", "rounds"), [("random-seed1.json", "complete", 8),
                                                        ("random-seed29.json", "complete", 5),
                                                        ("random-seed10.json", "abandoned", 1)])
def test_koikoi_ai_logs_written_by_the_engine_import_and_validate(name: str, status: str, rounds: int) -> None:
    """Records written by the engine's own code (with its pairCard fields): played out at round 8 or
    at 0 points (KK-GAME-3), or abandoned."""
    path = Path(__file__).parent / "fixtures" / "koikoi-ai-engine" / name
    doc = imported(path)
    assert doc["status"] == status and len(doc["result"]["rounds"]) == rounds
    if has_ruleset("koikoi-japan"):
        rep = validate_document(doc)
        assert rep.ok, [str(p) for p in rep.problems[:5]]


def test_output_dir_replaces_each_file_whole_or_changes_nothing(tmp_path: Path) -> None:
    from hanafuda.commands._common import output_dir

    out = tmp_path / "site"
    out.mkdir()
    (out / "a.txt").write_text("old", encoding="utf-8")
    (out / "keep.txt").write_text("kept", encoding="utf-8")
    with pytest.raises(RuntimeError), output_dir(out, "--out") as stage:
        (stage / "a.txt").write_text("half", encoding="utf-8")
        raise RuntimeError("the build failed")
    assert (out / "a.txt").read_text(encoding="utf-8") == "old"
    with output_dir(out, "--out") as stage:
        (stage / "a.txt").write_text("new", encoding="utf-8")
        (stage / "sub").mkdir()
        (stage / "sub" / "b.txt").write_text("b", encoding="utf-8")
    assert {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in out.rglob("*.txt")} == {
        "a.txt": "new", "keep.txt": "kept", "sub/b.txt": "b"}
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no stage left behind
