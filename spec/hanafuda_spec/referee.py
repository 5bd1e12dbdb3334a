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

A disagreement names a rule id: for an action the external engine offers or accepts but the
reference refuses, the rule the reference cites; otherwise, where no single rule can be named
mechanically, the first rule of the catalogue chapter that governs that part of play (the
disagreement's ``exact`` is then False).
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.catalogue import Topic
from hanafuda_spec.games import profile_for, spec_for
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku

__all__ = [
    "PROTOCOL",
    "Disagreement",
    "EngineError",
    "ProcessEngine",
    "RefereeReport",
    "referee_match",
]

PROTOCOL = "hanafuda-referee/1"
_RULE_IN_MESSAGE = re.compile(r"\[([A-Z]+(?:-[A-Z]+)*-\d+)\]\s*$")


class EngineError(RuntimeError):
    """The external engine broke the protocol: it died, timed out or answered nonsense."""


class ProcessEngine:
    """An external engine speaking ``hanafuda-referee/1`` (see the module docstring)."""

    def __init__(self, command: str | Sequence[str], timeout: float = 10.0,
                 env: Mapping[str, str] | None = None) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise EngineError("empty engine command")
        self.timeout = timeout
        self.env = dict(env) if env is not None else None
        self._p: subprocess.Popen[bytes] | None = None
        self._err: Any = None  # the engine's standard error, kept in a temporary file
        self._buf = b""
        self._ended: list[RoundOutcome] = []
        self._over = False
        self.name = ""

    # -- the process -------------------------------------------------------------------------
    def _ensure(self) -> subprocess.Popen[bytes]:
        if self._p is not None and self._p.poll() is None:
            return self._p
        if self._err is None:
            self._err = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        try:
            self._p = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=self._err, env=self.env)
        except OSError as e:
            raise EngineError(f"cannot start engine {self.argv[0]!r}: {e.strerror or e}") from None
        self._buf = b""
        reply = self.request({"cmd": "hello", "protocol": PROTOCOL})
        if reply.get("protocol") != PROTOCOL:
            raise EngineError(f"engine speaks {reply.get('protocol')!r}, not {PROTOCOL}")
        self.name = str(reply.get("engine", ""))
        return self._p

    def stderr_tail(self, lines: int = 5) -> list[str]:
        """The last lines the engine wrote to its standard error (at most 64 KiB are read back)."""
        f = self._err
        if f is None:
            return []
        try:
            f.flush()
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - 65536))
            text = f.read().decode("utf-8", "replace")
            f.seek(0, os.SEEK_END)
        except (OSError, ValueError):
            return []
        return [line[:300] for line in text.splitlines() if line.strip()][-lines:]

    def _failed(self, what: str) -> EngineError:
        """An EngineError saying what happened, with the engine's last stderr lines."""
        tail = self.stderr_tail()
        return EngineError(what + (" — the engine's last stderr lines: " + " | ".join(tail) if tail else ""))

    def close(self) -> None:
        p = self._p
        self._p = None
        if self._err is not None and p is None:
            self._err.close()
            self._err = None
        if p is None:
            return
        try:
            if p.poll() is None and p.stdin is not None:
                p.stdin.write(b'{"cmd": "quit"}\n')
                p.stdin.flush()
                p.stdin.close()
            p.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            p.kill()
            p.wait()
        finally:
            if p.stdout is not None:
                p.stdout.close()
            if self._err is not None:
                self._err.close()
                self._err = None

    def __enter__(self) -> ProcessEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def request(self, msg: Mapping[str, Any]) -> dict[str, Any]:
        """Send one request and return the reply object (``ok`` true), raising
        :class:`EngineError` on a protocol failure and ``ValueError`` on an ``ok: false`` reply."""
        p = self._p if msg.get("cmd") == "hello" else self._ensure()
        assert p is not None and p.stdin is not None and p.stdout is not None
        try:
            p.stdin.write(json.dumps(msg).encode() + b"\n")
            p.stdin.flush()
        except OSError:
            raise self._failed(f"the engine closed its input (exit code {p.poll()})") from None
        line = self._readline(p)
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            raise EngineError(f"reply to {msg['cmd']!r} is not JSON: {line[:80]!r}") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise EngineError(f"reply to {msg['cmd']!r} is not an object with a boolean 'ok'")
        if not reply["ok"]:
            raise ValueError(str(reply.get("error", "refused")))
        return reply

    def _readline(self, p: subprocess.Popen[bytes]) -> bytes:
        assert p.stdout is not None
        fd = p.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                if len(self._buf) > 64 * 1024 * 1024:
                    raise EngineError("a reply longer than 64 MiB")
                if not sel.select(self.timeout):
                    raise self._failed(f"no reply within {self.timeout} s")
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise self._failed(f"the engine exited (exit code {p.wait()})")
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    # -- EngineAdapter --------------------------------------------------------------------------
    def start(self, game: str, options: Mapping[str, str], seed: int, deck: Sequence[int] | None = None) -> None:
        self.request({"cmd": "start", "game": game, "options": dict(options), "seed": seed,
                      "deck": list(deck) if deck is not None else None})
        self._ended, self._over = [], False

    def deal(self, zones: Mapping[str, Any]) -> None:
        """Hand the engine the deal in play, as zones (see the ``deal`` request)."""
        self.request({"cmd": "deal", "zones": dict(zones)})

    def legal_actions(self) -> Sequence[str]:
        acts = self.request({"cmd": "legal"}).get("actions")
        if not isinstance(acts, list) or not all(isinstance(a, str) for a in acts):
            raise EngineError("'legal' reply: 'actions' must be a list of strings")
        return list(acts)

    def apply(self, action: str) -> None:
        reply = self.request({"cmd": "apply", "action": action})
        rounds = reply.get("rounds_ended", [])
        if not isinstance(rounds, list):
            raise EngineError("'apply' reply: 'rounds_ended' must be a list")
        self._ended = [_outcome(r) for r in rounds]
        over = reply.get("match_over")
        if not isinstance(over, bool):
            raise EngineError("'apply' reply: 'match_over' must be true or false")
        self._over = over

    def snapshot(self) -> Snapshot:
        snap = self.request({"cmd": "state"}).get("snapshot")
        if not isinstance(snap, dict):
            raise EngineError("'state' reply: 'snapshot' must be an object")
        try:
            return Snapshot.from_json(snap)
        except (ValueError, TypeError) as e:
            raise EngineError(f"'state' reply: {e}") from None

    def rounds_ended(self) -> Sequence[RoundOutcome]:
        return list(self._ended)

    def match_over(self) -> bool:
        return self._over

    def score_pile(self, game: str, options: Mapping[str, str], cards: Sequence[int],
                   month: int | None) -> tuple[tuple[ScoredYaku, ...], int | None]:
        reply = self.request({"cmd": "score", "game": game, "options": dict(options), "cards": list(cards),
                              "month": month})
        cp = reply.get("card_points")
        if cp is not None and not isinstance(cp, int):
            raise EngineError("'score' reply: 'card_points' must be an integer or null")
        return _yaku(reply.get("yaku", [])), cp


def _yaku(v: Any) -> tuple[ScoredYaku, ...]:
    if not isinstance(v, list):
        raise EngineError("yaku must be a list of {id, points}")
    out = []
    for y in v:
        if not isinstance(y, dict) or not isinstance(y.get("id"), str) or not isinstance(y.get("points"), int):
            raise EngineError("yaku must be a list of {id, points}")
        out.append(ScoredYaku(y["id"], y["points"]))
    return tuple(out)


def _outcome(r: Any) -> RoundOutcome:
    if not isinstance(r, dict):
        raise EngineError("a round result must be an object")
    reason, deltas, counts = r.get("reason"), r.get("deltas"), r.get("counts", True)
    if not isinstance(reason, str) or not isinstance(deltas, list) or not all(isinstance(d, int) for d in deltas):
        raise EngineError("a round result needs 'reason' (string) and 'deltas' (integers)")
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
            raise EngineError(f"a round result's 'final' must be a snapshot: {e}") from None
    notes = r.get("notes") or {}
    if not isinstance(notes, dict) or not all(isinstance(k, str) and type(v) is int for k, v in notes.items()):
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
    rule_id: str
    exact: bool  # whether rule_id is the exact rule (else: the first rule of the chapter)
    message: str
    actions: tuple[str, ...] = field(default=(), repr=False)
    cause: str = ""  # a short key of the cause, for grouping repeats (a yaku's value, a multiplier...)

    def __str__(self) -> str:
        return (f"{self.game} seed {self.seed}, action {self.action_index}: {self.kind}: "
                f"[{self.rule_id}{'' if self.exact else '?'}] {self.message}")

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "seed": self.seed, "action_index": self.action_index, "kind": self.kind,
                "rule": self.rule_id, "exact_rule": self.exact, "message": self.message, "cause": self.cause,
                "actions": list(self.actions)}


def group_disagreements(ds: Sequence[Disagreement]) -> list[tuple[tuple[str, str, str], list[Disagreement]]]:
    """Disagreements grouped by cause (kind, rule id, cause), most frequent first: one variant seen
    in a thousand pile probes is one group with a count."""
    groups: dict[tuple[str, str, str], list[Disagreement]] = {}
    for d in ds:
        groups.setdefault((d.kind, d.rule_id, d.cause or d.message), []).append(d)
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


_CHAPTER = {
    "deal": Topic.DEALING, "position": Topic.CAPTURE, "legal-missing": Topic.TURN, "legal-extra": Topic.TURN,
    "refused": Topic.TURN, "round": Topic.SCORING, "match-over": Topic.END_GAME, "score": Topic.YAKU,
    "protocol": Topic.EQUIPMENT,
}


def _chapter_rule(game: str, kind: str) -> str:
    spec = spec_for(game)
    topic = _CHAPTER.get(kind, Topic.TURN)
    for t in (topic, Topic.TURN, Topic.EQUIPMENT):
        for r in spec.rules:
            if r.topic is t:
                return r.id
    return spec.rules[0].id if spec.rules else "?"


def rule_in_error(e: BaseException) -> str | None:
    """The rule id an engine's refusal names (an ``IllegalActionError.rule_id``, or ``[ID]`` at
    the end of the message)."""
    rid = getattr(e, "rule_id", None)
    if isinstance(rid, str):
        return rid
    m = _RULE_IN_MESSAGE.search(str(e))
    return m.group(1) if m else None


def _snap_diff(want: Snapshot, got: Snapshot) -> str | None:
    if want == got:
        return None
    wz, gz = dict(want.zones), dict(got.zones)
    for name in sorted(set(wz) | set(gz)):
        if wz.get(name) != gz.get(name):
            return f"zone {name}: engine {list(gz.get(name, ()))}, reference {list(wz.get(name, ()))}"
    for key in ("game", "to_move", "phase", "dealer", "round", "scores"):
        if getattr(want, key) != getattr(got, key):
            return f"{key}: engine {getattr(got, key)!r}, reference {getattr(want, key)!r}"
    return "positions differ"


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
                                  "cannot take one")
            try:
                sender(zones())
            except ValueError as e:
                raise EngineError(f"the engine refuses the deal it is handed: {e}") from None

    history: list[str] = []

    def note(kind: str, message: str, rule: str | None = None, cause: str = "") -> None:
        exact = rule is not None
        rep.disagreements.append(Disagreement(game, seed, len(history), kind,
                                              rule if rule is not None else _chapter_rule(game, kind), exact,
                                              message, tuple(history), cause))

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
                    note("deal", _deal_diff(want, got) + (" (after an earlier round disagreement)"
                                                         if scores_differ else "") + tail,
                         _option_rule(game, hint), "deal")
                else:
                    note("position", diff + tail, _option_rule(game, hint), "position")
                return rep
            r_legal, e_legal = list(ref.legal_actions()), list(engine.legal_actions())
            r_set, e_set = set(r_legal), set(e_legal)
            if r_set != e_set and explain:
                key = "legal: " + ", ".join(sorted({f"offers {a.split()[0]}" for a in e_set - r_set}
                                                    | {f"misses {a.split()[0]}" for a in r_set - e_set}))
                if key not in rep.hints:
                    rep.hints[key] = _option_hints(reference, game, options, seed, deck, history, None, e_set)
                legal_hint = rep.hints[key]
            else:
                legal_hint = []
            tail = "; " + "; ".join(f"with `{h}` the reference agrees" for h in legal_hint) if legal_hint else ""
            for a in sorted(e_set - r_set):
                rid = why_illegal(a)
                note("legal-extra", f"the engine offers {a!r}, which the reference refuses{tail}",
                     rid or _option_rule(game, legal_hint), f"offers {a.split()[0]}")
            for a in sorted(r_set - e_set):
                note("legal-missing", f"the engine does not offer {a!r}, which the reference allows{tail}",
                     _option_rule(game, legal_hint), f"misses {a.split()[0]}")
            if ref.match_over() != engine.match_over():
                note("match-over", f"engine says the match is {'over' if engine.match_over() else 'not over'}")
                return rep
            both = [a for a in r_legal if a in e_set]
            if not both:
                return rep
            if len(rep.disagreements) - before >= max_disagreements:
                note("limit", f"refereeing of this match stopped after {max_disagreements} disagreements")
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
        note("protocol", f"no end after {max_actions} actions")
    except EngineError as e:
        note("protocol", str(e))
    return rep


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
                "field": "the table", "stock": "the draw pile"}.get(name, f"zone {name}")
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
