"""Progress display (issue 17): a bar with the rate and the time left on standard error when it is a
terminal, nothing extra when it is not, and standard output the same either way; ``verify`` numbers
its checks "[k/n]".

The terminal is a pseudo-terminal (:mod:`pty`); the commands run in a child process with standard
error on it, or in this process with ``sys.stderr`` on it. ``TQDM_MININTERVAL=0`` makes tqdm draw
at every step, so that a short run shows its rate and time left.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hanafuda import progress as progress_module
from hanafuda.cli import main
from hanafuda.progress import ENV_OFF, Progress, progress, wanted
from hanafuda.records import record_match
from hanafuda.registry import game
from hanafuda_spec.proofs import proof_check_names
from hanafuda_spec.verify import QUICK, THOROUGH, CheckResult, count_checks

ROOT = Path(__file__).resolve().parent.parent
#: A drawn bar: "12/20 [00:01<00:02, 9.51game/s]" (done/total [elapsed<left, rate]).
RATE_AND_LEFT = r"(\d+)/(\d+) \[\d\d:\d\d<\d\d:\d\d, +\d+(\.\d+)?(%s/s|s/%s)\]"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TQDM_") and k != ENV_OFF}
    env.update({"TERM": "xterm", "TQDM_MININTERVAL": "0", **extra})
    return env


def _run(args: list[str], *, tty: bool, stdin: bytes | None = None, env: dict[str, str] | None = None,
         ) -> tuple[int, bytes, bytes]:
    """``python -m hanafuda ARGS``: exit code, stdout and stderr, with stderr on a pseudo-terminal if
    ``tty``."""
    cmd = [sys.executable, "-m", "hanafuda", *args]
    if not tty:
        p = subprocess.run(cmd, input=stdin, capture_output=True, env=_env(**(env or {})), cwd=ROOT, check=False)
        return p.returncode, p.stdout, p.stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=slave,
                            env=_env(**(env or {})), cwd=ROOT)
    os.close(slave)
    err = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the child closed the terminal
                return
            if not chunk:
                return
            err.extend(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    out, _ = proc.communicate(stdin)
    reader.join(timeout=60)
    os.close(master)
    return proc.returncode, out, bytes(err)


@contextmanager
def _stderr_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bytes]]:
    """``sys.stderr`` on a pseudo-terminal for the block, bars drawn at every step; what was drawn
    on it is in the list after."""
    monkeypatch.setattr(progress_module, "MIN_INTERVAL", 0.0)
    master, slave = pty.openpty()
    term = open(slave, "w", encoding="utf-8", closefd=True)  # noqa: SIM115
    monkeypatch.setattr(sys, "stderr", term)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv(ENV_OFF, raising=False)
    drawn: list[bytes] = []
    try:
        yield drawn
    finally:
        term.flush()
        os.set_blocking(master, False)
        while True:
            try:
                chunk = os.read(master, 1 << 16)
            except (BlockingIOError, OSError):
                break
            if not chunk:
                break
            drawn.append(chunk)
        term.close()
        os.close(master)


# -- the layer ----------------------------------------------------------------------------------


def test_wanted_only_on_a_terminal_and_not_when_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_OFF, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert not wanted(io.StringIO())
    master, slave = pty.openpty()
    with open(slave, "w", encoding="utf-8") as term:
        assert wanted(term)
        assert not wanted(term, no_progress=True)
        monkeypatch.setenv(ENV_OFF, "1")
        assert not wanted(term)
        monkeypatch.setenv(ENV_OFF, "")
        assert wanted(term)
        monkeypatch.setenv("TERM", "dumb")
        assert not wanted(term)
    os.close(master)


def test_no_bar_writes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """Standard error is not a terminal here (pytest captures it): the callback does nothing."""
    with progress("work", 3, unit="game") as bar:
        assert not bar.shown
        for i in range(1, 4):
            bar(i, 3)
        with bar.printing():
            print("a line")
    assert capsys.readouterr() == ("a line\n", "")


def test_a_bar_shows_the_count_the_rate_and_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    with _stderr_on_a_terminal(monkeypatch) as drawn, progress("work", 4, unit="game") as bar:
        assert bar.shown
        for i in range(1, 5):
            time.sleep(0.01)
            bar(i, 4)
    text = b"".join(drawn).decode()
    assert re.search(RATE_AND_LEFT % ("game", "game"), text), text
    assert "4/4" in text and "work" in text
    assert text.endswith("\r"), text  # taken away at the end: the terminal keeps only the output


def test_an_unknown_total_shows_the_count_and_rate_and_a_total_found_later_counts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with _stderr_on_a_terminal(monkeypatch) as drawn, progress("work", None, unit="replay") as bar:
        time.sleep(0.01)
        bar(5, None)
        bar(6, 12)
    text = b"".join(drawn).decode()
    assert re.search(r"5replay \[\d\d:\d\d, +\d+(\.\d+)?replay/s\]", text), text
    assert re.search(r"[56]/12 ", text), text  # the total, once known, is shown


def test_lines_printed_while_a_bar_is_up_do_not_share_its_line(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The bar is cleared before the line and drawn again after it."""
    with _stderr_on_a_terminal(monkeypatch) as drawn, progress("work", 2) as bar:
        bar(1, 2)
        with bar.printing():
            print("a line")
    assert capsys.readouterr().out == "a line\n"
    text = b"".join(drawn).decode()
    assert text.count("1/2") >= 2, text  # drawn, cleared for the line, drawn again


def test_disabled_progress_is_a_do_nothing_callback() -> None:
    bar = Progress(None)
    bar(1, 2)
    bar.close()
    assert not bar.shown


# -- the commands -------------------------------------------------------------------------------


def test_simulate_shows_a_bar_on_a_terminal_and_the_same_output_without() -> None:
    args = ["simulate", "kekoro", "--games", "12", "--seed", "3", "--json", "--jobs", "1"]
    code, out, err = _run(args, tty=True)
    assert code == 0
    assert re.search(RATE_AND_LEFT % ("game", "game"), err.decode()), err
    code2, out2, err2 = _run(args, tty=False)
    assert (code2, out2, err2) == (0, out, b"")  # byte for byte, and nothing on stderr
    assert _run([*args, "--no-progress"], tty=True) == (0, out, b"")
    assert _run(args, tty=True, env={ENV_OFF: "1"}) == (0, out, b"")


def test_validate_counts_bytes_of_a_file_and_records_of_a_pipe(tmp_path: Path) -> None:
    lines = [json.dumps(record_match(game("kekoro"), None, {}, s, s)) for s in range(6)]
    lines[3] = lines[3].replace('"play ', '"play 1', 1)  # an invalid record: its lines print mid-run
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _run(["validate", str(path), "--jobs", "1"], tty=True)
    assert code == 1 and b"6 record(s), 5 valid, 1 invalid" in out
    assert re.search(r"validate: .*[\d.]+k?/[\d.]+k? \[\d\d:\d\d<\d\d:\d\d, +\S+B/s\]", err.decode()), err
    assert _run(["validate", str(path), "--jobs", "1"], tty=False) == (1, out, b"")
    data = path.read_bytes()
    code, piped, err = _run(["validate", "-", "--jobs", "1"], tty=True, stdin=data)
    assert code == 1 and re.search(r"\d+record \[\d\d:\d\d, +\S+record/s\]", err.decode()), err
    assert _run(["validate", "-", "--jobs", "1"], tty=False, stdin=data) == (1, piped, b"")


def test_perft_counts_first_actions_and_gives_the_same_counts() -> None:
    args = ["perft", "kekoro", "--seed", "2", "--depth", "3", "--json"]
    code, out, err = _run(args, tty=True)
    assert code == 0 and re.search(RATE_AND_LEFT % ("action", "action"), err.decode()), err
    assert _run(args, tty=False) == (0, out, b"")


def test_vectors_and_identify_show_a_bar_and_the_same_output(tmp_path: Path) -> None:
    args = ["vectors", str(tmp_path / "v"), "--game", "kekoro", "--games", "1", "--piles", "5", "--no-z3"]
    code, out, err = _run(args, tty=True)
    assert code == 0 and re.search(RATE_AND_LEFT % ("ruleset", "ruleset"), err.decode()), err
    assert _run(args, tty=False) == (0, out, b"")
    records = tmp_path / "v" / "kekoro" / "fudawiki" / "games.jsonl"
    code, out, err = _run(["identify", "kekoro", str(records)], tty=True)
    assert code == 0 and re.search(r"\d+replay \[\d\d:\d\d, +\S+replay/s\]", err.decode()), err
    assert _run(["identify", "kekoro", str(records)], tty=False) == (0, out, b"")


# -- verify: check k of n ------------------------------------------------------------------------


def test_verify_numbers_every_check_k_of_n(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The human report numbers its checks from the count known before the first one runs (here
    three made-up checks, the second with a name on a line of its own)."""
    import hanafuda_spec.verify as verifier  # the command imports these from it when it runs

    results = [CheckResult("kekoro", "a", "sampled", 8, 0.1, True),
               CheckResult("kekoro", "b" * 70, "proof", 0, 0.2, True),
               CheckResult("kekoro", "c", "proof", 0, 0.3, False, "broken"),
               CheckResult("kekoro", "d", "report", 0, 0.1, True)]
    monkeypatch.setattr(verifier, "count_checks", lambda games, level: 4)
    monkeypatch.setattr(verifier, "run_checks_in_parallel", lambda *a: iter(results))
    assert main(["verify", "--quick", "--game", "kekoro"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("[1/4] kekoro     a ") and "sampled 8 in 0.1s" in out[1]
    assert out[2] == "[2/4] kekoro     " + "b" * 70 and out[3].startswith("      kekoro     ")
    assert "proof 0.20s" in out[3]
    assert out[4].startswith("[3/4] kekoro     c ") and out[4].endswith("FAIL")
    assert "report 0.10s" in out[6]  # after the failure's detail line
    assert out[-1] == "3 checks (2 proofs, 0 bounded, 1 sampled), 1 failed; 1 reports"


def test_verify_counts_its_checks_before_running_them(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """One real quick run of one game, with stderr on a terminal: as many checks as counted
    beforehand, and a bar of checks with its rate and time left."""
    with _stderr_on_a_terminal(monkeypatch) as drawn:
        code = main(["verify", "--quick", "--game", "kekoro", "--jobs", "1", "--json"])
    assert code == 0
    checks = json.loads(capsys.readouterr().out)["checks"]
    assert len(checks) == count_checks(["kekoro"], QUICK)
    proofs = [c["check"] for c in checks if c["part"] == "proofs"]
    assert proofs == proof_check_names("kekoro", True)
    text = b"".join(drawn).decode()
    n = len(checks)
    assert re.search(RATE_AND_LEFT % ("check", "check"), text), text
    assert f"{n}/{n}" in text, text


def test_every_games_proofs_are_listed_without_an_engine() -> None:
    """Listing touches no engine (it would raise) and takes the quick run's subset of the thorough."""
    for key in ("koikoi", "kusurigui", "kujuroku", "musashino", "kekoro"):
        quick, thorough = proof_check_names(key, True), proof_check_names(key, False)
        assert quick and thorough
    assert count_checks(None, QUICK) < count_checks(None, THOROUGH)
