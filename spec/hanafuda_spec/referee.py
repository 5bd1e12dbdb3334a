"""The referee: play an external engine against a reference engine, move by move, and report
every disagreement with the rule it concerns.

**The protocol** (``hanafuda-referee/1``) is language-neutral: JSON Lines over the engine's
standard input and output. The referee writes one request object per line; the engine answers
each with one object on one line (and writes nothing else to standard output; standard error is
free for its own logging). Every reply has ``"ok": true``, or ``"ok": false`` and an ``"error"``
string. Requests:

``{"cmd": "hello", "protocol": "hanafuda-referee/1"}``
    → ``{"ok": true, "protocol": "hanafuda-referee/1", "engine": "NAME"}``
``{"cmd": "start", "game": "koikoi", "options": {...}, "seed": 5, "deck": null}``
    Start a match. ``options`` holds every option value (strings, as ``hanafuda rules GAME``
    lists them). The engine deals from ``seed`` with the documented shuffle of
    :mod:`hanafuda_spec.shuffle` (one SplitMix64 for the whole match, the *k*-th shuffle for deal
    *k*); when ``deck`` is a list it is the first deal's order instead (top first). → ``{"ok": true}``
``{"cmd": "deal", "zones": {"hands": [[...], ...], "field": [...], "stock": [...]}}``
    Sent only when the referee hands the engine its deals (``referee_match(send_deals=True)``,
    ``hanafuda referee --send-deals``), so that an engine with its own shuffle can be refereed:
    right after ``start``, and after every action that ended a round (unless the match is over),
    it replaces the deal in play by these zones (each seat's hand, the table, the draw pile top
    first; the format of ``hanafuda_spec.records.DealZones``), same dealer, round and scores.
    → ``{"ok": true}``. A misdeal the reference dealt and voided in between is not sent.
``{"cmd": "legal"}``
    → ``{"ok": true, "actions": ["play 11", "play 31 30", ...]}`` — every legal action in text
    form (see ``hanafuda.engine.Action``), empty when the match is over.
``{"cmd": "apply", "action": "play 31 30"}``
    → ``{"ok": true, "rounds_ended": [ROUND...], "match_over": false}``; an illegal action is
    refused with ``{"ok": false, "error": "..."}`` and changes nothing. ``rounds_ended`` lists the
    rounds this action ended, oldest first, including rounds that then ended at the next deal
    (misdeals): ``{"reason": str, "deltas": [int...], "counts": bool, "yaku": [[{"id", "points"}...]...]}``,
    optionally with ``"card_points": [int...]`` (per side) and ``"final": SNAPSHOT`` (the position the
    round ended in, before it was settled); an engine that reports them is checked exactly against
    them.
``{"cmd": "state"}``
    → ``{"ok": true, "snapshot": SNAPSHOT}`` — the position in the neutral form of
    :mod:`hanafuda_spec.neutral`.
``{"cmd": "score", "game": ..., "options": {...}, "cards": [ids], "month": null}``
    → ``{"ok": true, "yaku": [{"id", "points"}...], "card_points": null}`` — a capture pile's yaku
    (after exclusivity) and card points.
``{"cmd": "quit"}``
    The engine exits (no reply).

:class:`ProcessEngine` speaks this protocol to a command and is itself an
:class:`~hanafuda_spec.adapter.EngineAdapter`, so the spec's random-play harness
(:func:`hanafuda_spec.invariants.run_random`) runs against an external engine as well.
:func:`referee_match` drives it in lockstep with a reference engine (any ``EngineAdapter``;
the spec never imports the reference implementation).

A disagreement names a rule id only when it is exact: for an action the external engine offers
but the reference refuses, the rule the reference cites; at a difference of position, the rule of
the reference's step that refuses the engine's next action; the rule of an option whose other
value explains the difference; a yaku's rule. Otherwise it names none (never a guess).

**Supervision.** An engine is another program, and may do anything. :class:`ProcessEngine` runs
it in a process group (and session) of its own, marked in its environment; every write and read
has a deadline, replies and action lists are capped, and its standard error is kept as a ring of
its last lines (:class:`Limits` holds every bound and its default). A breach is an
:class:`EngineError` naming one of the protocol's own rules (:data:`PROTOCOL_RULES`, ``REF-...``)
and the request it happened at; :meth:`ProcessEngine.close` then ends the engine and every
process it started (quit, SIGTERM, SIGKILL), and is safe on every exit path.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import re
import secrets
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeGuard

from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import profile_for, spec_for
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku

__all__ = [
    "PROTOCOL",
    "PROTOCOL_RULES",
    "Disagreement",
    "EngineError",
    "Limits",
    "ProcessEngine",
    "RefereeReport",
    "escaped",
    "referee_match",
]

PROTOCOL = "hanafuda-referee/1"
_RULE_IN_MESSAGE = re.compile(r"\[([A-Z]+(?:-[A-Z]+)*-\d+)\]\s*$")


#: The protocol's own rules (``REF-...``): what an engine must do to be refereed at all. A breach
#: ends refereeing with an :class:`EngineError` carrying one of these ids (never a game rule's),
#: except ``REF-DEAL-1``, which names a deal disagreement (a different shuffle).
PROTOCOL_RULES: Mapping[str, str] = {
    "REF-START-1": "the engine's command starts, and the engine answers hello with hanafuda-referee/1",
    "REF-ALIVE-1": "the engine keeps running, its standard input and output open, until it is asked to quit",
    "REF-INPUT-1": "the engine reads each request (the referee never waits longer than the reply timeout to "
                   "write one)",
    "REF-TIME-1": "each reply is complete, up to its newline, within the reply timeout of its request",
    "REF-TIME-2": "each match is over within the match timeout, counted from its start request",
    "REF-QUIET-1": "the engine writes to standard output only replies, one per request, when asked",
    "REF-JSON-1": "a reply is one JSON object on one line, with a boolean ok",
    "REF-SIZE-1": "a reply is at most the reply size cap (bytes, its newline excluded)",
    "REF-SIZE-2": "a legal reply lists at most the cap on actions in one reply",
    "REF-REPLY-1": "a reply has the fields its request documents, with their types",
    "REF-ACTION-1": "each action of a legal reply is non-blank text on one line, at most 1000 characters",
    "REF-OK-1": "the engine answers ok: true to every request but an action to apply that it finds illegal",
    "REF-DEAL-1": "the engine deals from the seed with the documented shuffle (or takes the deal it is handed)",
    "REF-MATCH-1": "a match is over within the referee's cap on actions per match",
}


@dataclass(frozen=True)
class Limits:
    """The referee's bounds on an engine (``hanafuda referee`` sets them from its flags).

    A breach of any of them ends the match with a protocol error (:data:`PROTOCOL_RULES`): the
    referee never waits, reads or keeps more than this, whatever the engine does."""

    #: seconds for a whole reply: writing the request, then reading up to the reply's newline
    reply_timeout: float = 10.0
    #: seconds for a whole match, from its start request (the referee's own work included)
    match_timeout: float = 600.0
    #: bytes in one reply line
    reply_bytes: int = 1 << 20
    #: actions in one legal reply
    reply_actions: int = 10_000
    #: lines of the engine's standard error kept (the last ones), and characters kept per line
    stderr_lines: int = 20
    stderr_chars: int = 300
    #: seconds the engine is given to quit, then its process group to end on SIGTERM (then SIGKILL)
    grace: float = 1.0


class EngineError(RuntimeError):
    """The external engine broke the protocol: it died, timed out or answered nonsense.

    ``code`` is the protocol rule it broke (:data:`PROTOCOL_RULES`); ``request`` says where
    ("request 14 ('state')", counted from the engine's start; ``hanafuda referee`` starts one
    engine per match), when known."""

    def __init__(self, message: str, code: str = "REF-REPLY-1", request: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.request = request


_MAX_ACTION_TEXT = 1000
#: The environment variable that marks every process the engine starts, so that a descendant that
#: left the engine's process group (setsid) is found and ended too.
_MARK = "HANAFUDA_REFEREE_ENGINE"
_LIVE: weakref.WeakSet[ProcessEngine] = weakref.WeakSet()


def escaped(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters, every unprintable character escaped (an engine's text
    shown in a one-line message can forge no second line).

    >>> escaped("ok\\nhanafuda: error: forged")
    'ok\\\\nhanafuda: error: forged'
    """
    cut = text[:limit]
    out = "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)
    return out + ("…" if len(text) > limit else "")


class _Ring:
    """The last lines of a byte stream, each cut to a few hundred characters: bounded memory
    whatever is written."""

    def __init__(self, lines: int, chars: int) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=lines)
        self.chars = chars
        self.partial = bytearray()

    def feed(self, chunk: bytes) -> None:
        *done, rest = chunk.split(b"\n")
        for i, piece in enumerate(done):
            line = (bytes(self.partial) + piece) if i == 0 else piece
            if i == 0:
                self.partial.clear()
            text = line[: self.chars * 4].decode("utf-8", "replace").strip()
            if text:
                self.lines.append(escaped(text, self.chars))
        room = self.chars * 4 - len(self.partial)
        if room > 0:
            self.partial += rest[:room]

    def tail(self, n: int) -> list[str]:
        last = bytes(self.partial[: self.chars * 4]).decode("utf-8", "replace").strip()
        out = [*self.lines, *([escaped(last, self.chars)] if last else [])]
        return out[-n:]


def _stat(pid: str) -> tuple[str, int, int, int] | None:
    """(state, parent, process group, session) of a process, from /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2:].split()
    try:
        return fields[0].decode(), int(fields[1]), int(fields[2]), int(fields[3])
    except (IndexError, ValueError):
        return None


def _marked(pid: str, mark: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return mark in f.read(1 << 20).split(b"\0")
    except OSError:
        return False


def _engine_processes(leader: int, mark: bytes) -> set[int]:
    """Every live process the engine started: its process group and session, their descendants, and
    any process carrying the engine's mark in its environment (a child that called setsid and
    whose parent exited). Empty where there is no /proc (the process group is then all we know)."""
    if not os.path.isdir("/proc/self"):
        return set()
    me = os.getpid()
    parent: dict[int, int] = {}
    found: set[int] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        st = _stat(name)
        if st is None or st[0] in ("Z", "X"):
            continue
        pid = int(name)
        parent[pid] = st[1]
        if st[2] == leader or st[3] == leader or pid == leader or _marked(name, mark):
            found.add(pid)
    grown = True
    while grown:  # descendants of anything found
        more = {p for p, pp in parent.items() if pp in found or pp == leader} - found
        grown = bool(more)
        found |= more
    found.discard(me)
    return found


def _signal_all(leader: int, pids: set[int], sig: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(leader, sig)
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, sig)


@atexit.register
def _end_all() -> None:
    for engine in list(_LIVE):
        engine.close()


class ProcessEngine:
    """An external engine speaking ``hanafuda-referee/1`` (see the module docstring), under
    supervision: it runs in a process group of its own, every read and write has a deadline
    (:class:`Limits`), its standard error is kept as a ring of its last lines, and :meth:`close`
    ends it with every process it started (the group, their descendants, and any process marked
    with its environment), by quit, then SIGTERM, then SIGKILL. Closing is what ends a match
    cleanly: the next request starts the engine afresh."""

    def __init__(self, command: str | Sequence[str], timeout: float | None = None,
                 env: Mapping[str, str] | None = None, *, limits: Limits | None = None) -> None:
        try:
            self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as e:  # an unbalanced quote
            raise EngineError(f"the engine command {escaped(str(command), 80)!r} is not a command line: {e}",
                              "REF-START-1") from None
        if not self.argv:
            raise EngineError("empty engine command", "REF-START-1")
        lim = limits if limits is not None else Limits()
        self.limits = lim if timeout is None else replace(lim, reply_timeout=timeout)
        self.timeout = self.limits.reply_timeout
        self.env = dict(env) if env is not None else None
        self._p: subprocess.Popen[bytes] | None = None
        self._starting: threading.Event | None = None  # set once a start under way is over
        self._start_error: BaseException | None = None
        self._mark = b""
        self._sel: selectors.BaseSelector | None = None
        self._err = _Ring(self.limits.stderr_lines, self.limits.stderr_chars)
        self._buf = bytearray()
        self._ended: list[RoundOutcome] = []
        self._over = False
        self._match_end = float("inf")
        self.requests = 0  # requests sent since the engine started (hello is the first)
        self._cmd = ""
        self._broken = False  # the engine broke the protocol: the next request starts a fresh one
        self.name = ""
        self.leftovers = 0  # processes that outlived SIGKILL at the last close (0 in every sane system)

    # -- the process -------------------------------------------------------------------------
    def _ensure(self) -> subprocess.Popen[bytes]:
        if self._p is not None and not self._broken:
            return self._p
        self.close()  # an engine that broke the protocol is not asked again: a fresh one is started
        self._broken = False
        token = secrets.token_hex(12)
        env = dict(self.env if self.env is not None else os.environ)
        env[_MARK] = token
        self._mark = f"{_MARK}={token}".encode()
        self._err = _Ring(self.limits.stderr_lines, self.limits.stderr_chars)
        _LIVE.add(self)
        self._start_error = None
        self._starting = done = threading.Event()
        threading.Thread(target=self._spawn, args=(env, done), name="engine start", daemon=True).start()
        done.wait()
        self._starting = None
        e = self._start_error
        if isinstance(e, (OSError, ValueError)):
            raise EngineError(f"cannot start engine {escaped(self.argv[0])!r}: "
                              f"{escaped(str(getattr(e, 'strerror', None) or e))}", "REF-START-1") from None
        if e is not None:
            raise e
        assert self._p is not None
        sel = selectors.DefaultSelector()
        for stream in (self._p.stdin, self._p.stdout, self._p.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        assert self._p.stdout is not None and self._p.stderr is not None
        sel.register(self._p.stdout.fileno(), selectors.EVENT_READ, "out")
        sel.register(self._p.stderr.fileno(), selectors.EVENT_READ, "err")
        self._sel = sel
        self._buf = bytearray()
        self.requests = 0
        reply = self.request({"cmd": "hello", "protocol": PROTOCOL})
        if reply.get("protocol") != PROTOCOL:
            raise self._failed(f"engine speaks {escaped(repr(reply.get('protocol')), 80)}, not {PROTOCOL}",
                               "REF-START-1")
        self.name = escaped(str(reply.get("engine", "")), 80)
        return self._p

    def stderr_tail(self, lines: int = 5) -> list[str]:
        """The last lines the engine wrote to its standard error (escaped, each cut short)."""
        return self._err.tail(lines)

    def _failed(self, what: str, code: str) -> EngineError:
        """An EngineError saying what happened and where, with the engine's last stderr lines."""
        self._broken = True
        self._drain_stderr(0.2)
        tail = self.stderr_tail()
        where = f"request {self.requests} ({self._cmd!r})" if self._cmd else ""
        return EngineError(what + (" — the engine's last stderr lines: " + " | ".join(tail) if tail else ""),
                           code, where)

    def _drain_stderr(self, seconds: float, p: subprocess.Popen[bytes] | None = None) -> None:
        """Read what the engine (``p``, by default the running one) wrote to standard error, for at
        most ``seconds``."""
        p = p if p is not None else self._p
        if p is None or p.stderr is None or p.stderr.closed:
            return
        fd = p.stderr.fileno()
        end = time.monotonic() + seconds
        got = 0
        with selectors.DefaultSelector() as one:
            one.register(fd, selectors.EVENT_READ)
            while got < (1 << 22) and one.select(max(0.0, end - time.monotonic())):
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:
                    continue
                except OSError:
                    return
                if not chunk:
                    return
                got += len(chunk)
                self._err.feed(chunk)

    def _spawn(self, env: dict[str, str], done: threading.Event) -> None:
        """Start the engine's process (in a thread of its own: an interrupt, raised in the main
        thread, cannot fall between the fork and the moment :meth:`close` can see the process)."""
        try:
            self._p = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, env=env, start_new_session=True)
        except Exception as e:  # handed to the caller's thread as it is
            self._start_error = e
        finally:
            done.set()

    def close(self) -> None:
        """End the engine and every process it started; never blocks for long (about
        ``2 * limits.grace`` seconds at most for an engine that ignores quit and SIGTERM)."""
        starting = self._starting
        if starting is not None:  # interrupted while the engine starts: its process is ended too
            starting.wait()
            self._starting = None
        p = self._p
        self._p = None
        self._cmd = ""
        self._match_end = float("inf")
        self._broken = False
        if p is None:
            return
        _LIVE.discard(self)
        try:
            self._stop(p)
        finally:
            if self._sel is not None:
                self._sel.close()
                self._sel = None
            for stream in (p.stdin, p.stdout, p.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()

    def _stop(self, p: subprocess.Popen[bytes]) -> None:
        grace = self.limits.grace
        try:
            if p.poll() is None and p.stdin is not None:
                with contextlib.suppress(OSError):
                    os.write(p.stdin.fileno(), b'{"cmd": "quit"}\n')
            if p.stdin is not None:
                with contextlib.suppress(OSError):
                    p.stdin.close()
            end = time.monotonic() + grace
            while p.poll() is None and time.monotonic() < end:
                self._drain_stderr(min(0.05, max(0.0, end - time.monotonic())), p)
                time.sleep(0.005)
            left = _engine_processes(p.pid, self._mark)
            if p.poll() is None or left:
                _signal_all(p.pid, left, signal.SIGTERM)
                end = time.monotonic() + grace
                while time.monotonic() < end:
                    p.poll()
                    left = _engine_processes(p.pid, self._mark)
                    if p.returncode is not None and not left:
                        break
                    time.sleep(0.02)
        finally:  # whatever happened above (a second Ctrl-C included): SIGKILL what is left
            self._kill(p)

    def _kill(self, p: subprocess.Popen[bytes]) -> None:
        for _ in range(50):
            left = _engine_processes(p.pid, self._mark)
            if p.poll() is None:
                left.add(p.pid)
            if not left:
                break
            _signal_all(p.pid, left, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=0.05)
        self.leftovers = len(_engine_processes(p.pid, self._mark))
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=1)

    def __enter__(self) -> ProcessEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def request(self, msg: Mapping[str, Any], refusable: bool = False) -> dict[str, Any]:
        """Send one request and return the reply object (``ok`` true), raising
        :class:`EngineError` on a protocol failure; an ``ok: false`` reply raises ``ValueError`` when
        the request is ``refusable`` (an action to apply, a deal), else an :class:`EngineError`."""
        cmd = str(msg.get("cmd"))
        p = self._p if cmd == "hello" else self._ensure()
        assert p is not None
        if cmd == "start":
            self._match_end = time.monotonic() + self.limits.match_timeout
        self.requests += 1
        self._cmd = cmd
        line = self._exchange(p, json.dumps(msg).encode() + b"\n")
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            raise self._failed(f"the reply is not JSON: {escaped(repr(line[:80]))}", "REF-JSON-1") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise self._failed("the reply is not an object with a boolean 'ok'", "REF-JSON-1")
        if not reply["ok"]:
            why = escaped(str(reply.get("error", "refused")))
            if refusable:
                raise ValueError(why)
            raise self._failed(f"the engine answers ok: false ({why})", "REF-OK-1")
        return reply

    def _exchange(self, p: subprocess.Popen[bytes], data: bytes) -> bytes:
        """Write one request and read one reply line, every wait bounded by the reply's and the
        match's deadlines; the engine's standard error is read meanwhile."""
        sel = self._sel
        assert sel is not None and p.stdin is not None
        lim = self.limits
        now = time.monotonic()
        if now >= self._match_end:
            raise self._failed(f"the match is not over after {lim.match_timeout:g} s", "REF-TIME-2")
        end = min(now + lim.reply_timeout, self._match_end)
        if self._buf:
            raise self._failed("the engine wrote to standard output before it was asked", "REF-QUIET-1")
        self._check_quiet(p, sel)
        pending = memoryview(data)
        fd_in = p.stdin.fileno()
        sel.register(fd_in, selectors.EVENT_WRITE, "in")
        writing = True
        try:
            while True:
                if not writing:
                    nl = self._buf.find(b"\n")
                    if nl > lim.reply_bytes or (nl < 0 and len(self._buf) > lim.reply_bytes):
                        raise self._failed(f"a reply longer than {lim.reply_bytes} bytes", "REF-SIZE-1")
                    if nl >= 0:
                        line = bytes(self._buf[:nl])
                        del self._buf[: nl + 1]
                        return line
                left = end - time.monotonic()
                if left <= 0:
                    raise self._late(writing, end)
                for key, _ in sel.select(left):
                    if key.data == "in":
                        try:
                            n = os.write(fd_in, pending[:1 << 16])
                        except BlockingIOError:
                            continue
                        except OSError:
                            raise self._failed(f"the engine closed its input{self._exit_status(p)}",
                                               "REF-ALIVE-1") from None
                        pending = pending[n:]
                        if not pending:
                            sel.unregister(fd_in)
                            writing = False
                    elif key.data == "out":
                        self._read_out(p, key.fd, writing)
                    else:
                        self._read_err(key.fd)
        finally:
            if writing:
                with contextlib.suppress(KeyError, ValueError):
                    sel.unregister(fd_in)

    def _check_quiet(self, p: subprocess.Popen[bytes], sel: selectors.BaseSelector) -> None:
        """Before a request: the engine's standard output must have nothing unread (a reply nobody
        asked for) and must not be closed."""
        for key, _ in sel.select(0):
            if key.data == "out":
                self._read_out(p, key.fd, True)
            elif key.data == "err":
                self._read_err(key.fd)

    def _read_out(self, p: subprocess.Popen[bytes], fd: int, writing: bool) -> None:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            status = self._exit_status(p)
            if p.returncode is None:
                raise self._failed("the engine closed its standard output and keeps running", "REF-ALIVE-1")
            raise self._failed(f"the engine exited{status}", "REF-ALIVE-1")
        if writing:
            raise self._failed("the engine wrote to standard output before it was asked", "REF-QUIET-1")
        self._buf += chunk

    def _read_err(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk and self._sel is not None:
            with contextlib.suppress(KeyError, ValueError):
                self._sel.unregister(fd)
            return
        self._err.feed(chunk)

    @staticmethod
    def _exit_status(p: subprocess.Popen[bytes]) -> str:
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=0.3)
        return "" if p.returncode is None else f" (exit code {p.returncode})"

    def _late(self, writing: bool, end: float) -> EngineError:
        lim = self.limits
        if end >= self._match_end:
            return self._failed(f"the match is not over after {lim.match_timeout:g} s", "REF-TIME-2")
        if writing:
            return self._failed(f"the engine did not read its request within {lim.reply_timeout:g} s",
                                "REF-INPUT-1")
        got = f" ({len(self._buf)} bytes of it received)" if self._buf else ""
        return self._failed(f"no complete reply within {lim.reply_timeout:g} s{got}", "REF-TIME-1")

    # -- EngineAdapter --------------------------------------------------------------------------
    def start(self, game: str, options: Mapping[str, str], seed: int, deck: Sequence[int] | None = None) -> None:
        self.request({"cmd": "start", "game": game, "options": dict(options), "seed": seed,
                      "deck": list(deck) if deck is not None else None})
        self._ended, self._over = [], False

    def deal(self, zones: Mapping[str, Any]) -> None:
        """Hand the engine the deal in play, as zones (see the ``deal`` request); ``ValueError``
        when the engine refuses it."""
        self.request({"cmd": "deal", "zones": dict(zones)}, refusable=True)

    def legal_actions(self) -> Sequence[str]:
        acts = self.request({"cmd": "legal"}).get("actions")
        if not isinstance(acts, list):
            raise self._failed("'legal' reply: 'actions' must be a list of strings", "REF-REPLY-1")
        if len(acts) > self.limits.reply_actions:
            raise self._failed(f"'legal' reply: {len(acts)} actions, more than the cap of "
                               f"{self.limits.reply_actions}", "REF-SIZE-2")
        for i, a in enumerate(acts):
            if not isinstance(a, str):
                raise self._failed(f"'legal' reply: action {i + 1} is not a string", "REF-REPLY-1")
            if not a.strip() or len(a) > _MAX_ACTION_TEXT or not a.isprintable():
                raise self._failed(f"'legal' reply: action {i + 1} ({escaped(repr(a), 80)}) is not action text: "
                                   "blank, longer than 1000 characters or with a control character",
                                   "REF-ACTION-1")
        return list(acts)

    def apply(self, action: str) -> None:
        reply = self.request({"cmd": "apply", "action": action}, refusable=True)
        try:
            rounds = reply.get("rounds_ended", [])
            if not isinstance(rounds, list):
                raise EngineError("'apply' reply: 'rounds_ended' must be a list")
            self._ended = [_outcome(r) for r in rounds]
            over = reply.get("match_over")
            if not isinstance(over, bool):
                raise EngineError("'apply' reply: 'match_over' must be true or false")
        except EngineError as e:
            raise self._failed(str(e), "REF-REPLY-1") from None
        self._over = over

    def snapshot(self) -> Snapshot:
        snap = self.request({"cmd": "state"}).get("snapshot")
        if not isinstance(snap, dict):
            raise self._failed("'state' reply: 'snapshot' must be an object", "REF-REPLY-1")
        try:
            return Snapshot.from_json(snap)
        except (ValueError, TypeError) as e:
            raise self._failed(f"'state' reply: {escaped(str(e))}", "REF-REPLY-1") from None

    def rounds_ended(self) -> Sequence[RoundOutcome]:
        return list(self._ended)

    def match_over(self) -> bool:
        return self._over

    def score_pile(self, game: str, options: Mapping[str, str], cards: Sequence[int],
                   month: int | None) -> tuple[tuple[ScoredYaku, ...], int | None]:
        reply = self.request({"cmd": "score", "game": game, "options": dict(options), "cards": list(cards),
                              "month": month})
        cp = reply.get("card_points")
        try:
            if cp is not None and type(cp) is not int:
                raise EngineError("'score' reply: 'card_points' must be an integer or null")
            return _yaku(reply.get("yaku", [])), cp
        except EngineError as e:
            raise self._failed(str(e), "REF-REPLY-1") from None


def _name(v: object) -> TypeGuard[str]:
    """Whether ``v`` is a name an engine may report (a yaku id, a reason, a note): printable text
    of 1 to 100 characters, so that it can be shown as it is."""
    return isinstance(v, str) and 0 < len(v) <= 100 and v.isprintable()


def _yaku(v: Any) -> tuple[ScoredYaku, ...]:
    if not isinstance(v, list):
        raise EngineError("yaku must be a list of {id, points}")
    out = []
    for y in v:
        if not isinstance(y, dict) or not _name(y.get("id")) or type(y.get("points")) is not int:
            raise EngineError("yaku must be a list of {id, points}, each id printable text of at most 100 "
                              "characters")
        out.append(ScoredYaku(y["id"], y["points"]))
    return tuple(out)


def _outcome(r: Any) -> RoundOutcome:
    if not isinstance(r, dict):
        raise EngineError("a round result must be an object")
    reason, deltas, counts = r.get("reason"), r.get("deltas"), r.get("counts", True)
    if not _name(reason) or not isinstance(deltas, list) or not all(type(d) is int for d in deltas):
        raise EngineError("a round result needs 'reason' (printable text) and 'deltas' (integers)")
    yaku = r.get("yaku", [])
    if not isinstance(yaku, list):
        raise EngineError("a round result's 'yaku' must be a list per side")
    cp = r.get("card_points")
    if cp is not None and (not isinstance(cp, list) or not all(type(c) is int for c in cp)):
        raise EngineError("a round result's 'card_points' must be a list of integers (one per side) or null")
    final = None
    if r.get("final") is not None:
        if not isinstance(r["final"], dict):
            raise EngineError("a round result's 'final' must be a snapshot object or null")
        try:
            final = Snapshot.from_json(r["final"])
        except (ValueError, TypeError) as e:
            raise EngineError(f"a round result's 'final' must be a snapshot: {escaped(str(e))}") from None
    notes = r.get("notes") or {}
    if not isinstance(notes, dict) or not all(_name(k) and type(v) is int for k, v in notes.items()):
        raise EngineError("a round result's 'notes' must be an object of integers (multipliers and the like)")
    return RoundOutcome(reason, tuple(deltas), bool(counts), tuple(_yaku(side) for side in yaku),
                        tuple(sorted(notes.items())), None if cp is None else tuple(cp), final)


# -- refereeing -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Disagreement:
    """One difference between the engine under test and the reference."""

    game: str
    seed: int
    action_index: int  # actions applied before it was seen
    kind: str  # deal|position|legal-extra|legal-missing|refused|round|match-over|score|protocol|limit
    rule_id: str | None  # the rule broken, when one can be named exactly (a protocol error: a REF- id)
    exact: bool  # whether a rule is named (kept for the JSON form: never a guessed rule)
    message: str
    actions: tuple[str, ...] = field(default=(), repr=False)
    cause: str = ""  # a short key of the cause, for grouping repeats (a yaku's value, a multiplier...)
    request: str = ""  # a protocol error: the request it happened at ("request 14 ('state')")

    def __str__(self) -> str:
        rule = f"[{self.rule_id}] " if self.rule_id else ""
        at = f"at {self.request}: " if self.request else ""
        return f"{self.game} seed {self.seed}, action {self.action_index}: {self.kind}: {rule}{at}{self.message}"

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "seed": self.seed, "action_index": self.action_index, "kind": self.kind,
                "rule": self.rule_id, "exact_rule": self.exact, "message": self.message, "cause": self.cause,
                "request": self.request or None, "actions": list(self.actions)}


def group_disagreements(ds: Sequence[Disagreement]) -> list[tuple[tuple[str, str, str], list[Disagreement]]]:
    """Disagreements grouped by cause (kind, rule id, cause), most frequent first: one variant seen
    in a thousand pile probes is one group with a count."""
    groups: dict[tuple[str, str, str], list[Disagreement]] = {}
    for d in ds:
        groups.setdefault((d.kind, d.rule_id or "", d.cause or d.message), []).append(d)
    return sorted(groups.items(), key=lambda kv: -len(kv[1]))


@dataclass
class RefereeReport:
    """What refereeing found (matches and actions played in lockstep, every disagreement), and for
    each cause of a round disagreement, the option values under which the reference agrees with
    the engine (``hints``, tried once per cause)."""

    matches: int = 0
    actions: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    hints: dict[str, list[str]] = field(default_factory=dict)
    explained: int = 0  # position and deal differences for which option values were tried

    #: at most this many position or deal differences are replayed under other option values
    EXPLAIN_POSITIONS: ClassVar[int] = 10

    @property
    def ok(self) -> bool:
        return not self.disagreements

    @property
    def failure(self) -> Disagreement | None:
        """The engine's protocol failure (a ``protocol`` disagreement), which ends refereeing."""
        return next((d for d in self.disagreements if d.kind == "protocol"), None)


#: What a player is asked for in each phase of the neutral form (:class:`~hanafuda_spec.neutral.Snapshot`).
PHASES: Mapping[str, str] = {
    "play": "a hand play", "play-second": "a second hand play", "draw": "a turn of the draw pile",
    "take": "a choice of the drawn card's capture", "call": "a koi-koi decision (koi-koi or shobu)",
    "declare": "a decision to declare or go on", "deal-oni": "the dealer's choice for the dealt Oni-fuda",
    "deal-triple": "the dealer's choice of two of three cards", "over": "nothing (the round is over)",
}


def _expects(s: Snapshot) -> str:
    what = PHASES.get(s.phase, f"phase {escaped(s.phase, 40)!r}")
    return what if s.to_move is None or s.phase == "over" else f"{what} by seat {s.to_move}"


def rule_in_error(e: BaseException) -> str | None:
    """The rule id an engine's refusal names (an ``IllegalActionError.rule_id``, or ``[ID]`` at
    the end of the message)."""
    rid = getattr(e, "rule_id", None)
    if isinstance(rid, str):
        return rid
    m = _RULE_IN_MESSAGE.search(str(e))
    return m.group(1) if m else None


def _snap_diff(want: Snapshot, got: Snapshot) -> str | None:
    """Every field in which two positions differ (None when they are equal); first, when the
    phase or the player to move differ, what each side expects next."""
    if want == got:
        return None
    parts = []
    if (want.phase, want.to_move) != (got.phase, got.to_move):
        parts.append(f"the reference expects {_expects(want)}, the engine {_expects(got)}")
    for key in ("game", "to_move", "phase", "dealer", "round", "scores"):
        if getattr(want, key) != getattr(got, key):
            parts.append(f"{key}: engine {getattr(got, key)!r}, reference {getattr(want, key)!r}")
    wz, gz = dict(want.zones), dict(got.zones)
    for name in sorted(set(wz) | set(gz)):
        if wz.get(name) != gz.get(name):
            parts.append(f"zone {escaped(name, 40)}: engine {list(gz.get(name, ()))}, "
                         f"reference {list(wz.get(name, ()))}")
    return "; ".join(parts) or "positions differ"


def yaku_rules(game: str, options: Mapping[str, str]) -> dict[str, str]:
    """Yaku id -> the rule id that defines it, from the game's yaku table in the spec (empty for
    a game that has none)."""
    import importlib
    import inspect

    try:
        fn = getattr(importlib.import_module(f"hanafuda_spec.games.{game}"), "yaku_table", None)
    except ImportError:
        return {}
    if fn is None:
        return {}
    values = spec_for(game).resolve(None, None)
    values.update({k: v for k, v in options.items() if k in values})
    params = [p for p in inspect.signature(fn).parameters.values() if p.default is inspect.Parameter.empty]
    try:
        table = fn(values, *([None] * (len(params) - 1)))
    except Exception:  # an option combination the table refuses: no rule ids, still a message
        return {}
    out: dict[str, str] = {}
    for y in table:
        rid = getattr(y, "rule", None)
        if isinstance(rid, str):
            out.setdefault(str(y.id), rid)
    return out


def _side(yaku: Sequence[ScoredYaku]) -> dict[str, int]:
    out: dict[str, int] = {}
    for y in yaku:
        out[y.id] = out.get(y.id, 0) + y.points
    return out


def _show(o: RoundOutcome) -> str:
    sides = "; ".join(f"seat {i}: " + (", ".join(f"{y.id} {y.points}" for y in side) or "no yaku")
                      for i, side in enumerate(o.yaku))
    notes = (" | " + ", ".join(f"{k} {v}" for k, v in o.notes)) if o.notes else ""
    return f"{o.reason}, {sides or 'no yaku'}{notes}, deltas {list(o.deltas)}"


def _outcome_diff(want: list[RoundOutcome], got: list[RoundOutcome], game: str = "",
                  options: Mapping[str, str] | None = None,
                  ignore_scores: bool = False) -> tuple[str, str | None, str] | None:
    """Every difference between the rounds the reference and the engine ended: (message, the exact
    rule id when one can be named, a cause key for grouping), or None when they agree."""
    if len(want) != len(got):
        def reasons(rs: list[RoundOutcome]) -> str:
            return ", ".join(r.reason for r in rs) or "none"
        return (f"the engine ends {len(got)} round(s) here ({reasons(got)}), the reference {len(want)} "
                f"({reasons(want)})",
                None, f"rounds ended: engine {reasons(got)} vs reference {reasons(want)}")
    rules = yaku_rules(game, options or {}) if game else {}
    for i, (w, g) in enumerate(zip(want, got, strict=True)):
        which = f"round {i + 1} of {len(want)} ended here" if len(want) > 1 else "the round"
        diffs: list[str] = []
        rule: str | None = None
        causes: list[str] = []
        for key, a, b in (("reason", w.reason, g.reason), ("deltas", list(w.deltas), list(g.deltas)),
                          ("counts", w.counts, g.counts)):
            if a != b:
                diffs.append(f"{key}: engine {b}, reference {a}")
                causes.append(key if key != "reason" else f"reason {b} vs {a}")
        for seat in range(max(len(w.yaku), len(g.yaku))):
            ws = _side(w.yaku[seat]) if seat < len(w.yaku) else {}
            gs = _side(g.yaku[seat]) if seat < len(g.yaku) else {}
            for yid in sorted(set(ws) | set(gs)):
                if ws.get(yid) != gs.get(yid):
                    rid = rules.get(yid)
                    rule = rule or rid
                    tag = f" [{rid}]" if rid else ""
                    diffs.append(f"seat {seat} {yid}{tag}: engine {gs.get(yid, 'none')}, reference "
                                 f"{ws.get(yid, 'none')}")
                    causes.append(f"{yid} {gs.get(yid, 'none')} vs {ws.get(yid, 'none')}")
        if w.notes and g.notes and dict(w.notes) != dict(g.notes):  # multipliers, when both report them
            wn, gn = dict(w.notes), dict(g.notes)
            for k in sorted(set(wn) | set(gn)):
                if wn.get(k) != gn.get(k):
                    diffs.append(f"{k}: engine {gn.get(k, 'none')}, reference {wn.get(k, 'none')}")
                    causes.append(f"{k} {gn.get(k, 'none')} vs {wn.get(k, 'none')}")
        if w.card_points is not None and g.card_points is not None and w.card_points != g.card_points:
            diffs.append(f"card_points: engine {list(g.card_points)}, reference {list(w.card_points)}")
            causes.append("card_points")
        if w.final is not None and g.final is not None:
            wf, gf = w.final, g.final
            if ignore_scores:
                wf, gf = replace(wf, scores=()), replace(gf, scores=())
            diff = _snap_diff(wf, gf)
            if diff is not None:
                diffs.append(f"final position: {diff}")
                causes.append("final position")
        if diffs:
            if len(causes) > 1 and "deltas" in causes:  # the deltas follow from a yaku or multiplier named
                causes.remove("deltas")
            return (f"{which}: " + "; ".join(diffs) + f" (engine: {_show(g)}; reference: {_show(w)})", rule,
                    "; ".join(causes))
    return None


def referee_match(engine: EngineAdapter, reference: Callable[[], EngineAdapter], game: str,
                  options: Mapping[str, str], seed: int, policy_seed: int, *, piles: int = 8,
                  deck: Sequence[int] | None = None, max_actions: int = 100_000, max_disagreements: int = 20,
                  report: RefereeReport | None = None, go_on: bool = True,
                  send_deals: bool = False, explain: bool = True) -> RefereeReport:
    """Play one match in lockstep and record every disagreement in ``report``.

    ``reference`` makes a fresh reference engine (a second one is used to ask which rule an
    action the engine accepts breaks). Actions are chosen by SplitMix64 with ``policy_seed``
    among those both engines call legal. A difference of position stops the match (everything
    after it would differ too). A difference in a round's result is reported with every field
    that differs, the yaku (with their rule ids) and multipliers of each side; with ``go_on`` play
    then goes on, the scores being ignored from there (they differ by that round), so that later
    rounds are checked too. Differences in the legal actions alone are all reported and play goes
    on, up to ``max_disagreements`` for the match. ``deck`` stacks the first deal (top first) for
    both engines. With ``send_deals`` the engine is handed every deal as zones (the ``deal``
    request), which the reference must be able to give (a ``deal_zones()`` method). With
    ``explain``, the first round disagreement of each cause is replayed under every other value of
    every option, and the values under which the reference gives the engine's result are named."""
    rep = report if report is not None else RefereeReport()
    ref = reference()

    def hand_deal() -> None:
        if send_deals:
            zones = getattr(ref, "deal_zones", None)
            sender = getattr(engine, "deal", None)
            if zones is None or sender is None:
                raise EngineError("send_deals: the reference cannot give its deal as zones, or the engine "
                                  "cannot take one", "REF-OK-1")
            try:
                sender(zones())
            except ValueError as e:
                raise EngineError(f"the engine refuses the deal it is handed: {e}", "REF-OK-1",
                                  f"request {getattr(engine, 'requests', '?')} ('deal')") from None

    history: list[str] = []

    def note(kind: str, message: str, rule: str | None = None, cause: str = "", request: str = "") -> None:
        rep.disagreements.append(Disagreement(game, seed, len(history), kind, rule, rule is not None,
                                              message, tuple(history), cause, request))

    def full() -> bool:
        """Whether this match has its share of disagreements (then a ``limit`` note ends it)."""
        if len(rep.disagreements) - before < max_disagreements:
            return False
        note("limit", f"refereeing of this match stopped after {max_disagreements} disagreements")
        return True

    probe: list[Any] = [None, 0]  # a second reference engine, kept in step with ``history``

    def why_illegal(action: str) -> str | None:
        if probe[0] is None or probe[1] > len(history):
            probe[0], probe[1] = reference(), 0
            probe[0].start(game, options, seed, deck)
        while probe[1] < len(history):
            probe[0].apply(history[probe[1]])
            probe[1] += 1
        try:
            probe[0].apply(action)
        except ValueError as e:
            return rule_in_error(e)
        probe[0] = None  # it accepted the action after all: start afresh next time
        return None

    rep.matches += 1
    before = len(rep.disagreements)
    ref.start(game, options, seed, deck)
    scores_differ = False  # after a round disagreement (go_on): the scores are known to differ
    dealt = True  # the position to compare next is a fresh deal
    try:
        engine.start(game, options, seed, deck)
        hand_deal()
        rng = SplitMix64(policy_seed)
        _compare_piles(engine, ref, game, options, seed, piles, note)
        for _ in range(max_actions):
            want, got = ref.snapshot(), engine.snapshot()
            if scores_differ:
                want, got = replace(want, scores=()), replace(got, scores=())
            diff = _snap_diff(want, got)
            if diff is not None:
                hint: list[str] = []
                if explain and not scores_differ and rep.explained < rep.EXPLAIN_POSITIONS:
                    rep.explained += 1
                    hint = _option_hints(reference, game, options, seed, deck, history, None, None, got)
                tail = "; " + "; ".join(f"with `{h}` the reference agrees" for h in hint) if hint else ""
                if dealt:
                    same_cards = sorted(want.all_cards()) == sorted(got.all_cards())
                    moved = same_cards and dict(want.zones) != dict(got.zones)
                    note("deal", _deal_diff(want, got) + (" (after an earlier round disagreement)"
                                                         if scores_differ else "") + tail,
                         _option_rule(game, hint) or ("REF-DEAL-1" if moved and not scores_differ else None),
                         "deal")
                else:
                    refused = _refused_step(engine, why_illegal)
                    note("position", diff + tail + (f"; the reference refuses the engine's {refused[0]!r} "
                                                    f"[{refused[1]}]" if refused else ""),
                         _option_rule(game, hint) or (refused[1] if refused else None), "position")
                return rep
            r_legal, e_legal = list(ref.legal_actions()), list(engine.legal_actions())
            r_set, e_set = set(r_legal), set(e_legal)
            if r_set != e_set and explain:
                key = "legal: " + ", ".join(sorted({f"offers {_verb(a)}" for a in e_set - r_set}
                                                    | {f"misses {_verb(a)}" for a in r_set - e_set}))
                if key not in rep.hints:
                    rep.hints[key] = _option_hints(reference, game, options, seed, deck, history, None, e_set)
                legal_hint = rep.hints[key]
            else:
                legal_hint = []
            tail = "; " + "; ".join(f"with `{h}` the reference agrees" for h in legal_hint) if legal_hint else ""
            for a in sorted(e_set - r_set):
                if full():
                    return rep
                rid = why_illegal(a)
                note("legal-extra", f"the engine offers {a!r}, which the reference refuses{tail}",
                     rid or _option_rule(game, legal_hint), f"offers {_verb(a)}")
            for a in sorted(r_set - e_set):
                if full():
                    return rep
                note("legal-missing", f"the engine does not offer {a!r}, which the reference allows{tail}",
                     _option_rule(game, legal_hint), f"misses {_verb(a)}")
            if ref.match_over() != engine.match_over():
                note("match-over", f"engine says the match is {'over' if engine.match_over() else 'not over'}")
                return rep
            both = [a for a in r_legal if a in e_set]
            if not both:
                return rep
            if full():
                return rep
            action = both[rng.below(len(both))]
            ref.apply(action)
            try:
                engine.apply(action)
            except ValueError as e:
                note("refused", f"the engine refuses {action!r}, which the reference allows: {e}")
                return rep
            history.append(action)
            rep.actions += 1
            ended = list(ref.rounds_ended())
            dealt = bool(ended)
            if dealt and not ref.match_over():
                hand_deal()
            theirs = list(engine.rounds_ended())
            found = _outcome_diff(ended, theirs, game, options, scores_differ)
            if found is not None:
                message, rule, cause = found
                if explain and cause not in rep.hints and not scores_differ:
                    rep.hints[cause] = _option_hints(reference, game, options, seed, deck, history, theirs, None)
                round_hint = rep.hints.get(cause, [])
                if round_hint:
                    message += "; " + "; ".join(f"with `{h}` the reference agrees" for h in round_hint)
                    rule = rule or _option_rule(game, round_hint)
                note("round", message, rule, cause)
                if not go_on:
                    return rep
                scores_differ = True
            if ref.match_over() != engine.match_over():
                note("match-over", f"engine says the match is {'over' if engine.match_over() else 'not over'}"
                     + (" (after an earlier round disagreement)" if scores_differ else ""))
                return rep
            if ref.match_over():
                return rep
        note("protocol", f"no end after {max_actions} actions", "REF-MATCH-1")
    except EngineError as e:
        note("protocol", str(e), e.code, e.code, e.request)
    return rep


def _verb(action: str) -> str:
    """An action's first word (``play``, ``take``, ``koikoi``...), to group differences by."""
    words = action.split()
    return escaped(words[0], 40) if words else repr(action)


def _refused_step(engine: EngineAdapter, why_illegal: Callable[[str], str | None]) -> tuple[str, str] | None:
    """At a difference of position: the first action the engine offers there that the reference
    refuses, with the rule of the reference's refusing step (None when there is none)."""
    for a in list(engine.legal_actions())[:50]:
        rid = why_illegal(a)
        if rid is not None:
            return a, rid
    return None


def _option_hints(reference: Callable[[], EngineAdapter], game: str, options: Mapping[str, str], seed: int,
                  deck: Sequence[int] | None, history: Sequence[str], theirs: list[RoundOutcome] | None,
                  legal: set[str] | None, position: Snapshot | None = None) -> list[str]:
    """The single option values under which the reference, replaying ``history``, ends the last
    round as the engine did (``theirs``), offers the engine's legal actions (``legal``) or reaches
    its position (``position``): ``KEY=VALUE`` each."""
    spec = spec_for(game)
    out = []
    for o in spec.options:
        for v in o.choices:
            if options.get(o.key, o.default) == v:
                continue
            trial = {**options, o.key: v}
            ref = reference()
            try:
                ref.start(game, trial, seed, deck)
                for a in history:
                    ref.apply(a)
            except Exception:  # the history is not legal under that value: not this option
                continue
            try:
                if position is not None:
                    agrees = _snap_diff(ref.snapshot(), position) is None
                elif legal is not None:
                    agrees = set(ref.legal_actions()) == legal
                else:
                    agrees = theirs is not None and _outcome_diff(list(ref.rounds_ended()), theirs, game, trial) is None
            except Exception:  # the reference cannot go on under that value
                continue
            if agrees:
                out.append(f"{o.key}={v}")
    return out


def _option_rule(game: str, hints: Sequence[str]) -> str | None:
    """The rule governing the option all the hints are about, when they name one option only."""
    keys = {h.split("=", 1)[0] for h in hints}
    if len(keys) != 1:
        return None
    (key,) = keys
    return next((r.id for r in spec_for(game).rules if r.option == key), None)


def _deal_diff(want: Snapshot, got: Snapshot) -> str:
    """A different deal, as a deal: which zones (a seat's hand, the table, the draw pile) differ, or
    whether one side ended the deal at once (a misdeal, a lucky hand) and the other did not."""
    parts = [f"{key}: engine {getattr(got, key)!r}, reference {getattr(want, key)!r}"
             for key in ("dealer", "round") if getattr(want, key) != getattr(got, key)]
    wz, gz = dict(want.zones), dict(got.zones)
    for name in sorted(set(wz) | set(gz)):
        if sorted(wz.get(name, ())) != sorted(gz.get(name, ())):
            shown = f"seat {name[5:]}'s hand" if name.startswith("hand.") else {
                "field": "the table", "stock": "the draw pile"}.get(name, f"zone {escaped(name, 40)}")
            parts.append(f"{shown}: engine {sorted(gz.get(name, ()))}, reference {sorted(wz.get(name, ()))}")
    for key in ("to_move", "phase"):
        if getattr(want, key) != getattr(got, key):
            parts.append(f"{key}: engine {getattr(got, key)!r}, reference {getattr(want, key)!r}")
    if not parts:
        return "the deals differ: " + (_snap_diff(want, got) or "positions differ")
    return "a different deal: " + "; ".join(parts[:4]) + (f"; and {len(parts) - 4} more" if len(parts) > 4 else "")


def _compare_piles(engine: EngineAdapter, ref: EngineAdapter, game: str, options: Mapping[str, str],
                   seed: int, piles: int, note: Callable[[str, str, str | None, str], None]) -> None:
    if piles <= 0:
        return
    deck = list(profile_for(game).deck(options))
    rng = SplitMix64(seed ^ 0x5EED)
    rules = yaku_rules(game, options)
    for _ in range(piles):
        n = 1 + rng.below(min(len(deck), 24))
        cards = sorted(deck[i] for i in _sample(rng, len(deck), n))
        want = ref.score_pile(game, options, cards, None)
        got = engine.score_pile(game, options, cards, None)
        if (tuple(sorted(want[0])), want[1]) != (tuple(sorted(got[0])), got[1]):
            ws, gs = _side(want[0]), _side(got[0])
            differ = sorted(y for y in set(ws) | set(gs) if ws.get(y) != gs.get(y))
            cause = "; ".join(f"{y} {gs.get(y, 'none')} vs {ws.get(y, 'none')}" for y in differ)
            if want[1] != got[1]:
                cause += ("; " if cause else "") + "card points"
            rule = next((rules[y] for y in differ if y in rules), None)
            note("score", f"pile {cards}: engine {[(y.id, y.points) for y in got[0]]} / {got[1]}, "
                 f"reference {[(y.id, y.points) for y in want[0]]} / {want[1]}", rule, cause)


def _sample(rng: SplitMix64, n: int, k: int) -> list[int]:
    idx = list(range(n))
    for i in range(k):
        j = i + rng.below(n - i)
        idx[i], idx[j] = idx[j], idx[i]
    return idx[:k]
