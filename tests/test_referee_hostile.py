"""The referee against hostile engines (issue 31): every misbehaviour ends, within the referee's
timeouts, with the documented exit code and one line naming a protocol rule (``REF-...``), no
process of the engine left running, and bounded memory.

Each case runs ``hanafuda referee`` in a process of its own (so that its peak memory is its own, and
so that a hang would be caught by the test's outer bound rather than hang the suite) against
``tests/fixtures/hostile_engine.py MODE``, with small timeouts. Nothing is timed beyond "it ends".
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hanafuda_spec.referee import PROTOCOL_RULES, EngineError, Limits, ProcessEngine, escaped

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self") or os.name != "posix",
                                reason="process supervision is checked through /proc")

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile_engine.py"
#: The outer bound of one case: far beyond the referee's own (a case that reaches it has hung).
HARD_LIMIT = 240.0
#: The referee's peak resident memory, engine included (issue 31: under 300 MB).
MEMORY_MB = 300


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str
    peak_mb: float
    pids: list[int]


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, dead and waiting for its parent to read its status, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return False
    return raw[raw.rfind(b")") + 2:].split()[0] not in (b"Z", b"X")


#: Run the program with its first argument taken as a file for the process's peak resident memory in kB,
#: written at exit from /proc/self/status where there is one.
_PEAK_AT_EXIT = (
    "import atexit, os, sys; from hanafuda.cli import main; peak = sys.argv.pop(1)\n"
    "def note():\n"
    "    if os.path.exists('/proc/self/status'):\n"
    "        kb = [x.split()[1] for x in open('/proc/self/status') if x.startswith('VmHWM:')]\n"
    "        open(peak, 'w').write(kb[0] if kb else '')\n"
    "atexit.register(note)\n")


def _referee(tmp: Path, mode: str, *flags: str, games: int = 2, interrupt: int | None = None) -> Run:
    """Run ``hanafuda referee koikoi`` against the hostile engine in ``mode``; with ``interrupt``, send
    that signal to the referee once the engine has started."""
    pids = tmp / "pids"
    engine = shlex.join([sys.executable, str(HOSTILE), *mode.split(), "--pids", str(pids)])
    peak = tmp / "peak"
    argv = [sys.executable, "-c", _PEAK_AT_EXIT + "sys.exit(main())", str(peak),
            "referee", "koikoi", "--engine", engine, "-n", str(games), *flags]
    out, err = tmp / "out", tmp / "err"
    with open(out, "wb") as fo, open(err, "wb") as fe:
        p = subprocess.Popen(argv, stdout=fo, stderr=fe, start_new_session=True)
    hung = threading.Event()

    def stop() -> None:  # the outer bound: a hung referee is killed, and the test fails
        hung.set()
        os.killpg(p.pid, signal.SIGKILL)

    guard = threading.Timer(HARD_LIMIT, stop)
    guard.start()
    try:
        if interrupt is not None:
            while not (pids.exists() and pids.read_text().strip()) and p.poll() is None and not hung.is_set():
                time.sleep(0.05)
            time.sleep(0.5)
            p.send_signal(interrupt)
        _, status, usage = os.wait4(p.pid, 0)
    finally:
        guard.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4
    assert not hung.is_set(), f"the referee hung on {mode!r}"
    listed = [int(x) for x in pids.read_text().split()] if pids.exists() else []
    # the referee's own high-water mark (VmHWM); ru_maxrss would report at least the memory of this test
    # process, which a child keeps as its maximum across fork and exec on Linux
    peak_kb = int(peak.read_text()) if peak.exists() and peak.read_text().strip() else usage.ru_maxrss
    return Run(p.returncode, out.read_text(errors="replace"), err.read_text(errors="replace"),
               peak_kb / 1024, listed)


def _check_clean(run: Run) -> None:
    """No process of the engine is left, memory stayed bounded, stderr is one line (no traceback)."""
    deadline = time.monotonic() + 10  # a killed process may take a moment to leave the table
    while any(_alive(pid) for pid in run.pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert run.pids, "the engine noted no pid"
    assert [pid for pid in run.pids if _alive(pid)] == []
    assert run.peak_mb < MEMORY_MB
    assert "Traceback" not in run.err and len(run.err.strip().splitlines()) <= 1, run.err


#: mode, extra flags, exit code, the protocol rule of the verdict (None: a clean verdict without one)
CASES = [
    ("close-stdout", (), 2, "REF-ALIVE-1"),
    ("no-read", (), 2, "REF-QUIET-1"),
    ("trickle", ("--timeout", "2"), 2, "REF-TIME-1"),
    ("silent", ("--timeout", "2"), 2, "REF-TIME-1"),
    ("blank-legal", (), 2, "REF-ACTION-1"),
    ("space-legal", (), 2, "REF-ACTION-1"),
    ("garbage", (), 2, "REF-JSON-1"),
    ("huge-line", (), 2, "REF-SIZE-1"),
    ("bogus-legal", (), 2, "REF-SIZE-1"),
    ("bogus-legal --count 5000", ("--max-reply-actions", "1000"), 2, "REF-SIZE-2"),
    ("exit-mid", (), 2, "REF-ALIVE-1"),
    ("slow", ("--match-timeout", "3"), 2, "REF-TIME-2"),
    ("fork", (), 0, None),
    ("fork-setsid", (), 0, None),
    ("fork-stubborn", (), 0, None),
    ("stderr-flood", (), 0, None),
]


@pytest.mark.parametrize(("mode", "flags", "code", "rule"), CASES, ids=[c[0] for c in CASES])
def test_a_hostile_engine_ends_cleanly(tmp_path: Path, mode: str, flags: tuple[str, ...], code: int,
                                       rule: str | None) -> None:
    run = _referee(tmp_path, mode, "--timeout", "20", *flags)
    assert run.code == code, (run.code, run.err)
    if rule is not None:
        assert run.err.startswith("hanafuda: error: engine ") and f"[{rule}]" in run.err, run.err
        assert rule in PROTOCOL_RULES
    else:
        assert run.err == "" and "2 match(es)" in run.out
    _check_clean(run)


def test_refusing_state_in_match_2_reports_match_1_and_names_the_request(tmp_path: Path) -> None:
    """REF-OK-1: an ``ok: false`` to ``state``/``score`` in match 2 is a failure in match 2 at that
    request; match 1's results are still reported (not "refused to start")."""
    run = _referee(tmp_path, "refuse-state --after 1", "--seed", "0", games=3)
    assert run.code == 2
    assert "engine failed in match 2 (seed 1) at request " in run.err and "[REF-OK-1]" in run.err
    assert "match 1 reported above" in run.err
    assert "Koi-Koi: 2 match(es)" in run.out and "0 disagreement(s)" in run.out
    _check_clean(run)
    run = _referee(tmp_path, "refuse-state --after 1", "--json", games=3)
    out = json.loads(run.out)
    assert run.code == 2 and out["ok"] is False and out["matches"] == 2 and out["actions"] > 0
    assert out["failure"].startswith("engine failed in match 2") and out["disagreements"][-1]["rule"] == "REF-OK-1"
    _check_clean(run)


def test_many_bogus_actions_under_the_caps_stop_at_the_disagreement_limit(tmp_path: Path) -> None:
    """500 bogus legal actions: a clean verdict (exit 1), at most 20 disagreements per match."""
    run = _referee(tmp_path, "bogus-legal --count 500", games=1)
    assert run.code == 1 and run.err == ""
    assert "limit: refereeing of this match stopped after 20 disagreements" in run.out
    assert "21 disagreement(s)" in run.out
    _check_clean(run)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_referee_leaves_no_engine_process(tmp_path: Path, sig: int) -> None:
    run = _referee(tmp_path, "fork-setsid", "--timeout", "60", games=50, interrupt=sig)
    assert run.code == 130 and "interrupted" in run.err
    _check_clean(run)


def test_the_stderr_ring_keeps_the_last_lines_only() -> None:
    """Stderr is a ring: whatever an engine writes there, the referee keeps its last lines, escaped."""
    from hanafuda_spec.referee import _Ring

    ring = _Ring(3, 10)
    for i in range(100_000):
        ring.feed(f"line {i}\n".encode())
    ring.feed(b"x" * 10_000_000)
    assert len(ring.partial) == 40  # a line without end is kept to its first characters
    ring.feed(b"\n\x1b[31mforged\nhanafuda: error: x\r\n")
    assert ring.tail(5) == ["x" * 10 + "…", "\\x1b[31mforge…", "hanafuda: …"]
    assert len(ring.partial) == 0 and len(ring.lines) == 3


def test_a_request_the_engine_never_reads_is_bounded() -> None:
    """REF-INPUT-1: a request larger than the pipe, to an engine that stops reading, times out in
    the write (it never blocks)."""
    engine = ProcessEngine([sys.executable, str(HOSTILE), "silent"], limits=Limits(reply_timeout=2))
    with engine, pytest.raises(EngineError) as e:  # request 1 is hello, which the engine answers
        engine.request({"cmd": "state", "pad": "x" * (4 << 20)})
    assert e.value.code == "REF-INPUT-1" and "request 2 ('state')" in e.value.request


def test_engine_text_is_escaped_in_messages() -> None:
    assert escaped("a\nhanafuda: error: b\x1b") == "a\\nhanafuda: error: b\\x1b"
    assert escaped("é" * 400).endswith("…") and len(escaped("é" * 400)) == 301


def test_every_protocol_rule_mentioned_exists() -> None:
    """The REF- ids the referee's code and docs mention are the protocol's rules, and each is used."""
    import re

    root = Path(__file__).resolve().parents[1]
    texts = [(root / rel).read_text(encoding="utf-8") for rel in (
        "spec/hanafuda_spec/referee.py", "reference/hanafuda/commands/referee.py", "docs/validating.md")]
    mentioned = {m for t in texts for m in re.findall(r"\bREF-[A-Z]+-\d+\b", t)}
    assert mentioned and mentioned <= set(PROTOCOL_RULES), mentioned - set(PROTOCOL_RULES)
    code = texts[0].split("PROTOCOL_RULES: Mapping", 1)[1].split("\n}\n", 1)[1]
    assert {k for k in PROTOCOL_RULES if f'"{k}"' not in code} == set()  # every rule is raised somewhere


@pytest.mark.parametrize("bad", [
    {"reason": "exhaustive\nhanafuda: error: forged", "deltas": [0, 0]},
    {"reason": "exhaustive", "deltas": [0, 0], "yaku": [[{"id": "x\x1b[2J", "points": 1}], []]},
    {"reason": "exhaustive", "deltas": [0, 0], "notes": {"\n": 1}},
    {"reason": "exhaustive", "deltas": [0.5, 0]},
], ids=["reason", "yaku-id", "note", "float-delta"])
def test_names_an_engine_reports_are_printable_text(bad: dict[str, object]) -> None:
    """A round result's names (reason, yaku ids, notes) are shown in reports as they are, so an engine
    that sends control characters is refused (REF-REPLY-1 through ProcessEngine), never echoed."""
    from hanafuda_spec.referee import _outcome

    with pytest.raises(EngineError):
        _outcome(bad)


@pytest.mark.parametrize("command", ["'", "''", "/dev/null", "a\nb"], ids=["quote", "empty-word", "not-executable",
                                                                          "newline"])
def test_an_engine_command_that_cannot_start_is_one_line(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """REF-START-1: a command line that does not parse or does not start is exit 2, one escaped line."""
    from hanafuda.cli import main

    assert main(["referee", "koikoi", "-n", "1", "-e", command]) == 2
    err = capsys.readouterr().err
    assert "[REF-START-1]" in err and len(err.strip().splitlines()) == 1, err


def test_an_engine_that_broke_the_protocol_is_replaced_not_asked_again() -> None:
    """After a protocol error the engine is not asked again: the next request ends it (and what it
    started) and starts a fresh one."""
    from hanafuda.registry import game

    values = game("koikoi").spec.resolve()
    with ProcessEngine([sys.executable, str(HOSTILE), "blank-legal"], limits=Limits(reply_timeout=30)) as engine:
        engine.start("koikoi", values, 0)
        assert engine._p is not None
        first = engine._p.pid
        with pytest.raises(EngineError) as e:
            engine.legal_actions()
        assert e.value.code == "REF-ACTION-1"
        engine.start("koikoi", values, 1)
        assert engine._p is not None and engine._p.pid != first and not _alive(first)


def test_an_interrupt_while_the_engine_starts_leaves_no_engine_process(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupt that lands while the engine's process is being started (after the fork, before the
    referee holds the process) still ends the engine and the grandchild it left in a session of its
    own. The window is widened: the start returns only once both have noted their pids, and the
    interrupt is sent to the main thread inside it."""
    pids = tmp_path / "pids"
    real = subprocess.Popen
    main = threading.main_thread().ident
    assert main is not None

    def slow_start(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started = real(*args, **kwargs)
        deadline = time.monotonic() + 60
        while len(pids.read_text().split() if pids.exists() else []) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        signal.pthread_kill(main, signal.SIGINT)
        time.sleep(0.5)
        return started

    engine = ProcessEngine([sys.executable, str(HOSTILE), "fork-setsid", "--pids", str(pids)],
                           limits=Limits(reply_timeout=20, grace=1))
    monkeypatch.setattr(subprocess, "Popen", slow_start)
    listed: list[int] = []
    try:
        with pytest.raises(KeyboardInterrupt), engine:
            engine.request({"cmd": "state"})
        monkeypatch.undo()
        listed = [int(x) for x in pids.read_text().split()]
        assert len(listed) == 2
        _check_clean(Run(130, "", "", 0.0, listed))
    finally:
        for pid in listed:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
