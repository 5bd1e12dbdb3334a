"""The game record format ``hanafuda-record/1``: how any implementation hands us a played match.

A record is one JSON object; many records are JSON Lines (one object per line). The JSON
Schema ships in the package (``schema/record-1.schema.json``, :func:`schema`); this module
parses a decoded document into a :class:`GameRecord`, collecting **every** structural problem
with its JSON path instead of stopping at the first. Replaying a record through an engine (are
the actions legal, the claimed results right?) is the reference's job
(``hanafuda.records``): the spec never imports the reference.

The fields::

    {
      "format":  "hanafuda-record/1",
      "game":    "koikoi",                 # a game key (or alias) of hanafuda_spec.games
      "rules":   {"ruleset": "fudawiki",   # optional: the game's default ruleset
                  "options": {"hand_size": "8"}},   # overrides, or every value (strings)
      "seed":    5,                        # optional: the SplitMix64 seed of hanafuda_spec.shuffle
      "first_dealer": 0,                   # optional, default 0
      "players": ["ann", "bob"],           # one name per seat, seat 0 first
      "deck":    [21, 61, ...],            # the first deal's deck order, top first
      "deals":   [[...], [...]],           # optional: the deck orders of deal 2, 3, ... (top first)
      "actions": ["play 31 30", ...],      # every action of the match, in order, in text form
      "result":  {"rounds": [...], "scores": [...], "winners": [...], "end_reason": "..."}
    }

**Deals.** A match has several deals (misdeals included: every shuffle is a deal). ``deck`` is
the first deal's order and ``deals[k]`` the order of deal ``k + 2``. When ``seed`` is given,
every deal follows the documented shuffle of :mod:`hanafuda_spec.shuffle` — one generator for the
whole match, deal *k* being its *k*-th shuffle of the canonical deck — and every order the record
lists is checked against it; deals the record does not list are taken from it. Without a seed
(stacked or externally shuffled decks) every deal must be listed.

**Actions.** Each entry is the action's text (``"play 31 30"``, ``"take 30"``, ``"koikoi"``), or
an object ``{"action": "play 31 30", "seat": 0, "after": SNAPSHOT}`` where ``seat`` (the seat
that chooses it) and ``after`` (the position right after the action, within its round: a round's
final position when the action ends it, with the scores before that round is settled) are
optional and checked when present. Snapshots use the neutral form of
:mod:`hanafuda_spec.neutral`.

**Result.** ``rounds`` has one entry per deal, in order, rounds that ended at the deal (misdeals,
hand yaku) included: ``{"actions": N, "reason": ..., "deltas": [...]}`` where ``actions`` is the
number of entries of ``actions`` played in that deal, plus optionally any field of the
reference's round result (``winner``, ``yaku``, ``card_points``, ``counts``, ``ends_game``,
``next_dealer``, ``notes``), each checked when present. ``scores`` are the final scores (or chips);
``winners`` and ``end_reason`` are optional.

Problems are reported with the record rule ids of :data:`RECORD_RULES` (``REC-...``) or, for an
illegal action, the game rule the action breaks.

**Format 1.1** (``"format": "hanafuda-record/1.1"``; a version-1 record reads as before, and
``hanafuda.records.convert`` turns one into the other). It adds what makes records easy to write
from another engine's logs (schema: ``schema/record-1.1.schema.json``, :func:`schema`):

* a deal (``deck``, or an entry of ``deals``) may be given as **zones** instead of a deck order:
  ``{"hands": [[...], [...]], "field": [...], "stock": [...]}`` — each seat's hand (seat 0
  first) and the table, in any order, and the draw pile top first; Kusuri-gui adds
  ``"facedown"`` (its three face-down cards, in the order dealt; its face-up card is the
  ``field``). Validation checks that the zones hold every card of the deck once and that each
  zone has the number of cards the rules deal to it (``REC-ZONES-1``), then replays the deal
  that puts them there: the same deal as the deck order would give;
* ``meta``: any JSON value (provenance: file, line, engine, commit); validators keep it and echo
  it in their reports, and never interpret it;
* ``status``: ``"complete"`` (the default) or ``"abandoned"``: the record stops early (between
  deals or within one); it is valid when everything up to where it stops is, its ``result.rounds``
  listing the deals played out (the unfinished one may be listed too, with the number of
  actions the record holds for it and no result) and its ``scores`` the scores after them;
  reports say "abandoned";
* claims may be unknown: a round needs only ``actions``; ``reason``, ``deltas``, ``yaku`` (or one
  side of it), ``counts``, ``ends_game`` and ``notes`` may be omitted or ``null`` (not checked);
  ``winner``, ``next_dealer`` and ``card_points`` keep their version-1 meaning of ``null``
  ("none"), so omit them when unknown; ``result.scores`` may be ``null``;
* captures may be written as the cards captured: an action object may carry ``"captures"`` (the
  table cards it took, checked, ``REC-CAPTURE-1``), and a play that needs a target (two table
  cards match) may name it there instead of in its text; a **draw entry**
  ``{"draw": CARD, "captures": [...]}``, right after the play of the same turn, names the card
  turned from the draw pile (checked against the pile, ``REC-DRAW-1``) and what it took; where
  the drawn card matches two table cards, its ``captures`` choose the ``take``. So a writer needs
  neither our deal nor to know when a capture is a choice.

**Strict and lenient.** Strict validation (the default) accepts the above exactly; an action's
text must still be the canonical one (a target only where there is a choice). Lenient validation
(``validate --lenient``) also ignores unknown fields, and accepts a play whose text names the
cards it captures where there is no choice (``"play 31 30"`` when 30 is the only match), checking
that they are the cards it took.

>>> doc = {"format": FORMAT, "game": "koikoi", "rules": {}, "players": ["a", "b"], "deck": [10],
...        "actions": ["play 10"], "result": {"rounds": [], "scores": [0, 0]}}
>>> rec, problems = parse_record(doc)
>>> rec.game, rec.actions[0].text, problems
('koikoi', 'play 10', [])
>>> _, problems = parse_record({**doc, "deck": "10", "colour": 1})
>>> [str(p) for p in problems]
['$.colour: [REC-FIELD-2] unknown field', '$.deck: [REC-FIELD-1] must be a list of card ids']
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from hanafuda_spec.neutral import JsonValue, Snapshot

__all__ = [
    "FORMAT",
    "FORMATS",
    "FORMAT_1_1",
    "LIMITS",
    "RECORD_RULES",
    "ActionEntry",
    "DealZones",
    "GameRecord",
    "Location",
    "Problem",
    "RoundClaim",
    "member",
    "parse_record",
    "printable",
    "schema",
]

FORMAT = "hanafuda-record/1"
FORMAT_1_1 = "hanafuda-record/1.1"
#: Every format version this module reads (1.1 adds to 1; a version-1 record reads as before).
FORMATS = (FORMAT, FORMAT_1_1)

#: Bounds beyond which input is "absurd" and refused without being replayed.
LIMITS: Mapping[str, int] = {
    "record_bytes": 64 * 1024 * 1024,  # one record (one JSON Lines line, or one document)
    "actions": 1_000_000,  # actions in one record
    "deals": 10_000,  # deals in one record
    "deck": 1_000,  # cards in one deal order
    "players": 16,
    "text": 1_000,  # characters in a name, an action text, an option value
    "problems": 1_000,  # problems reported per record (the rest are counted)
}

#: The rules of the record format itself (a game's own rules have its catalogue's ids).
RECORD_RULES: Mapping[str, str] = {
    "REC-JSON-1": "a record is UTF-8 JSON: one object per document or per JSON Lines line",
    "REC-SIZE-1": "a record stays within the documented limits (LIMITS)",
    "REC-FORMAT-1": 'a record is an object whose "format" is "hanafuda-record/1" or "hanafuda-record/1.1"',
    "REC-FIELD-1": "every required field is present, with the documented type",
    "REC-FIELD-2": "a strict record has no field the format does not define (lenient mode ignores them)",
    "REC-GAME-1": "the game is one of the five, by key or alias",
    "REC-RULES-1": "the ruleset and options are ones the game's catalogue defines",
    "REC-PLAYERS-1": "there is one player per seat",
    "REC-DECK-1": "each deal order holds every card of the game's deck exactly once",
    "REC-ZONES-1": "a deal given as zones (1.1) holds every card of the deck exactly once, each zone with the "
                   "number of cards the rules deal to it",
    "REC-SHUFFLE-1": "with a seed, every deal order is the documented shuffle's",
    "REC-DEALS-1": "every deal has an order: listed, or given by the seed",
    "REC-ACTION-1": "an action's text is an action (kind, card ids, label)",
    "REC-SEAT-1": "an action's claimed seat is the seat to move",
    "REC-SNAPSHOT-1": "a claimed position equals the position after the action",
    "REC-CAPTURE-1": "an action's claimed captures (1.1) are the cards it took from the table",
    "REC-DRAW-1": "a draw entry (1.1) names the card turned from the draw pile, and what it took",
    "REC-ROUNDS-1": "the actions play exactly the match: no round left unfinished, nothing after the end",
    "REC-COUNT-1": "each round's claimed action count is the number of actions played in that deal",
    "REC-RESULT-1": "each round's claimed result is the one the rules give",
    "REC-RESULT-2": "the claimed final scores, winners and end reason are the ones the rules give",
    # ours, like every REC- rule: a card is in one place at a time, so a list of cards taken names each
    # once (deals and zones holding a card twice are REC-DECK-1 and REC-ZONES-1)
    "REC-CAPTURE-2": "an action's or a draw's claimed captures (1.1) name each card once",
}


#: Parse problems after which the record is still replayed (and so is invalid, not unusable).
_REPLAYABLE = frozenset({"REC-FIELD-2", "REC-CAPTURE-2"})
_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")


def member(path: str, key: str) -> str:
    """The JSON path of field ``key`` of the value at ``path``: ``$.a.b``, or, for a key that is not a
    plain name, ``$.a["x y"]`` (JSON-escaped: a key cannot carry a raw control character into a message).

    >>> member("$.rules", "options"), member("$", 'a\\nb')
    ('$.rules.options', '$["a\\\\nb"]')
    """
    return f"{path}.{key}" if _SIMPLE_KEY.match(key) else f"{path}[{json.dumps(key)}]"


def printable(text: str) -> str:
    """``text`` with every character that is not printable escaped (``\\n``, ``\\x1b``, ...): the form of
    any message line that shows input text.

    >>> printable("one\\nhanafuda: error: two")
    'one\\\\nhanafuda: error: two'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)

_TOP = ("format", "game", "rules", "seed", "first_dealer", "players", "deck", "deals", "actions", "result")
_TOP_1_1 = (*_TOP, "meta", "status")
#: Zone names a deal may give (1.1) besides ``hands``; which ones a game uses is the game's.
ZONE_KEYS = ("hands", "field", "stock", "facedown")
STATUSES = ("complete", "abandoned")
#: Round fields whose null is a value ("no winner"), not "unknown"; other nulls are unknown in 1.1.
_NULL_IS_A_VALUE = ("actions", "winner", "next_dealer", "card_points")
_REQUIRED = ("format", "game", "players", "deck", "actions", "result")
_ROUND_FIELDS = ("actions", "reason", "deltas", "winner", "yaku", "card_points", "counts", "ends_game",
                 "next_dealer", "notes", "deal")


@dataclass(frozen=True)
class Location:
    """Where a problem is: the record (1-based), the deal (1-based), the action (0-based index
    into ``actions``) and the JSON path, each when known."""

    record: int | None = None
    deal: int | None = None
    action: int | None = None
    path: str = ""
    line: int | None = None

    def __str__(self) -> str:
        parts = []
        if self.record is not None:
            parts.append(f"record {self.record}")
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.deal is not None:
            parts.append(f"deal {self.deal}")
        if self.action is not None:
            parts.append(f"action {self.action}")
        if self.path:
            parts.append(self.path)
        return ", ".join(parts)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a record: where, the rule id broken, and one line of reason."""

    where: Location
    rule_id: str
    reason: str

    def __str__(self) -> str:
        loc = str(self.where)
        line = f"{loc}: [{self.rule_id}] {self.reason}" if loc else f"[{self.rule_id}] {self.reason}"
        return printable(line)  # a name or value from the record cannot forge a line of the report

    def to_json(self) -> dict[str, JsonValue]:
        return {"record": self.where.record, "line": self.where.line, "deal": self.where.deal,
                "action": self.where.action, "path": self.where.path, "rule": self.rule_id,
                "reason": self.reason}


@dataclass(frozen=True)
class ActionEntry:
    """One entry of ``actions``: the text, and the optional claimed seat and position after it.

    Format 1.1 adds ``captures`` (the table cards the action took, checked) and draw entries:
    ``draw`` is the card a player turned from the draw pile (``text`` is then empty) and
    ``captures`` what it took."""

    text: str
    seat: int | None = None
    after: Snapshot | None = None
    captures: tuple[int, ...] | None = None
    draw: int | None = None


@dataclass(frozen=True)
class DealZones:
    """A deal given as zones (format 1.1): each seat's hand (seat 0 first), the table (``field``),
    the draw pile top first (``stock``) and the game's other dealt zones (Kusuri-gui's face-down
    ``facedown``, in the order dealt). Hands and field are sets: their order does not matter."""

    hands: tuple[tuple[int, ...], ...]
    field: tuple[int, ...]
    stock: tuple[int, ...]
    other: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def zone(self, name: str) -> tuple[int, ...] | None:
        """A zone by name: ``hand.N``, ``field``, ``stock`` or another zone's name."""
        if name.startswith("hand."):
            i = int(name[5:])
            return self.hands[i] if i < len(self.hands) else None
        if name == "field":
            return self.field
        if name == "stock":
            return self.stock
        return dict(self.other).get(name)

    def cards(self) -> tuple[int, ...]:
        return tuple(c for h in self.hands for c in h) + self.field + self.stock + tuple(
            c for _, z in self.other for c in z)

    @classmethod
    def from_json(cls, v: Any) -> DealZones:
        """Zones from their JSON object (raises ``ValueError`` with the problem)."""
        p = _Parser(None, None, False)
        p.v11 = True
        got = _parse_deal(p, v, "$")
        if not isinstance(got, DealZones):
            raise ValueError(str(p.problems[0]) if p.problems else "not an object of zones")
        if p.problems:
            raise ValueError(str(p.problems[0]))
        return got

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {"hands": [list(h) for h in self.hands], "field": list(self.field),
                                     "stock": list(self.stock)}
        for k, z in self.other:
            out[k] = list(z)
        return out


#: A deal: a deck order (top first) or, in format 1.1, zones.
Deal = tuple[int, ...] | DealZones


@dataclass(frozen=True)
class RoundClaim:
    """One entry of ``result.rounds``: the action count and the claimed fields, as JSON values."""

    actions: int
    fields: Mapping[str, JsonValue]


@dataclass(frozen=True)
class GameRecord:
    """A parsed record (see the module docstring for the meaning of each field)."""

    game: str
    ruleset: str | None
    options: Mapping[str, str]
    seed: int | None
    first_dealer: int
    players: tuple[str, ...]
    deck: Deal
    deals: tuple[Deal, ...]
    actions: tuple[ActionEntry, ...]
    rounds: tuple[RoundClaim, ...]
    scores: tuple[int, ...] | None  # None: unknown (1.1)
    winners: tuple[int, ...] | None = None
    end_reason: str | None = None
    extra: tuple[str, ...] = field(default=())
    format: str = FORMAT
    meta: JsonValue = None  # 1.1: kept and echoed, never interpreted
    status: str = "complete"  # 1.1: or "abandoned"

    def to_json(self) -> dict[str, JsonValue]:
        """The record as a JSON document (actions as plain text unless they carry a seat or position)."""
        acts: list[JsonValue] = []
        for a in self.actions:
            if a.seat is None and a.after is None and a.captures is None and a.draw is None:
                acts.append(a.text)
            else:
                obj: dict[str, JsonValue] = {"draw": a.draw} if a.draw is not None else {"action": a.text}
                if a.seat is not None:
                    obj["seat"] = a.seat
                if a.captures is not None:
                    obj["captures"] = list(a.captures)
                if a.after is not None:
                    obj["after"] = a.after.to_json()
                acts.append(obj)
        rules: dict[str, JsonValue] = {"options": dict(self.options)}
        if self.ruleset is not None:
            rules = {"ruleset": self.ruleset, **rules}
        doc: dict[str, JsonValue] = {"format": self.format, "game": self.game, "rules": rules}
        if self.seed is not None:
            doc["seed"] = self.seed
        doc["first_dealer"] = self.first_dealer
        doc["players"] = list(self.players)
        doc["deck"] = _deal_json(self.deck)
        doc["deals"] = [_deal_json(d) for d in self.deals]
        doc["actions"] = acts
        result: dict[str, JsonValue] = {
            "rounds": [{"actions": r.actions, **r.fields} for r in self.rounds],
            "scores": list(self.scores) if self.scores is not None else None,
        }
        if self.winners is not None:
            result["winners"] = list(self.winners)
        if self.end_reason is not None:
            result["end_reason"] = self.end_reason
        doc["result"] = result
        if self.format == FORMAT_1_1:
            if self.meta is not None:
                doc["meta"] = self.meta
            doc["status"] = self.status
        return doc


def _deal_json(d: Deal) -> JsonValue:
    return d.to_json() if isinstance(d, DealZones) else list(d)


def schema(version: str = FORMAT) -> dict[str, Any]:
    """The JSON Schema of a format version (``FORMAT`` or ``FORMAT_1_1``), as shipped in the package."""
    if version not in FORMATS:
        raise ValueError(f"unknown format {version!r}")
    name = "record-1.1.schema.json" if version == FORMAT_1_1 else "record-1.schema.json"
    text = resources.files("hanafuda_spec").joinpath(f"schema/{name}").read_text("utf-8")
    out: dict[str, Any] = json.loads(text)
    return out


# -- parsing ----------------------------------------------------------------------------------


class _Parser:
    def __init__(self, record: int | None, line: int | None, lenient: bool, fast: bool = True) -> None:
        self.record, self.line, self.lenient, self.fast = record, line, lenient, fast
        self.v11 = False
        self.problems: list[Problem] = []

    def bad(self, path: str, rule: str, reason: str, action: int | None = None) -> None:
        self.problems.append(Problem(Location(self.record, None, action, path, self.line), rule, reason))

    def unknown(self, obj: Mapping[str, Any], known: Sequence[str], path: str) -> tuple[str, ...]:
        if self.fast and all(map(known.__contains__, obj)):  # every field known (the common case, at C speed)
            return ()
        extra = tuple(k for k in obj if k not in known)
        if not self.lenient:
            for k in extra:
                self.bad(member(path, k), "REC-FIELD-2", "unknown field")
        return extra

    def int_(self, v: Any, path: str, lo: int, hi: int, what: str = "an integer") -> int | None:
        if not _is_int(v):
            self.bad(path, "REC-FIELD-1", f"must be {what}")
            return None
        if not lo <= v <= hi:
            shown = str(v) if abs(v) < 10**30 else "a huge number"
            self.bad(path, "REC-SIZE-1" if v > hi else "REC-FIELD-1", f"{shown} is outside {lo}..{hi}")
            return None
        out: int = v
        return out

    def str_(self, v: Any, path: str) -> str | None:
        if not isinstance(v, str):
            self.bad(path, "REC-FIELD-1", "must be a string")
            return None
        if len(v) > LIMITS["text"]:
            self.bad(path, "REC-SIZE-1", f"a string of {len(v)} characters (limit {LIMITS['text']})")
            return None
        return v

    def ids(self, v: Any, path: str, what: str = "a list of card ids") -> tuple[int, ...] | None:
        if not isinstance(v, list) or not set(map(type, v)) <= _INT:  # every item an int; bool is not an id (_is_int)
            self.bad(path, "REC-FIELD-1", f"must be {what}")
            return None
        if len(v) > LIMITS["deck"]:
            self.bad(path, "REC-SIZE-1", f"{len(v)} cards (limit {LIMITS['deck']})")
            return None
        if v and not (min(v) >= 0 and max(v) < 10_000):
            i, c = next((i, c) for i, c in enumerate(v) if not 0 <= c < 10_000)
            self.bad(f"{path}[{i}]", "REC-FIELD-1", f"{c} is not a card id")
            return None
        return tuple(v)

    def ints(self, v: Any, path: str) -> tuple[int, ...] | None:
        if not isinstance(v, list) or not all(_is_int(c) for c in v):
            self.bad(path, "REC-FIELD-1", "must be a list of integers")
            return None
        if len(v) > LIMITS["players"]:
            self.bad(path, "REC-SIZE-1", f"{len(v)} entries (limit {LIMITS['players']})")
            return None
        return tuple(v)


_INT = {int}
_STR = {str}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_record(doc: Any, *, record: int | None = None, line: int | None = None,
                 lenient: bool = False, fast: bool = True) -> tuple[GameRecord | None, list[Problem]]:
    """Parse a decoded JSON document; returns the record (None if it cannot be replayed) and every
    problem found, each located by its JSON path. ``lenient`` ignores unknown fields (strictly they
    are problems, but the record is still returned for replay). Game-specific checks (known game
    and options, deck contents, legality) are left to the replay. ``fast`` takes the shortcuts for the
    common shapes (every action a text, every option value a string, a plain version-1 round entry);
    False checks every field one by one, with the same result, which the tests compare."""
    p = _Parser(record, line, lenient, fast)
    if not isinstance(doc, dict):
        p.bad("$", "REC-FORMAT-1", f"a record is a JSON object, not {_kind(doc)}")
        return None, p.problems
    fmt = doc.get("format")
    if fmt not in FORMATS:
        shown = json.dumps(fmt)[:60] if fmt is not None else "missing"
        p.bad("$.format", "REC-FORMAT-1", f'must be "{FORMAT}" or "{FORMAT_1_1}" (found {shown})')
        return None, p.problems
    p.v11 = fmt == FORMAT_1_1
    for k in _REQUIRED:
        if k not in doc:
            p.bad(f"$.{k}", "REC-FIELD-1", "required field is missing")
    extra = p.unknown(doc, _TOP_1_1 if p.v11 else _TOP, "$")
    status = "complete"
    if p.v11 and doc.get("status") is not None:
        st = p.str_(doc["status"], "$.status")
        if st is not None and st not in STATUSES:
            p.bad("$.status", "REC-FIELD-1", f"must be one of {', '.join(STATUSES)} (found {_short(st)})")
        elif st is not None:
            status = st
    meta: Any = doc.get("meta") if p.v11 else None

    game = p.str_(doc.get("game"), "$.game") if "game" in doc else None

    ruleset: str | None = None
    options: dict[str, str] = {}
    rules = doc.get("rules", {})
    if not isinstance(rules, dict):
        p.bad("$.rules", "REC-FIELD-1", "must be an object {ruleset, options}")
    else:
        p.unknown(rules, ("ruleset", "options"), "$.rules")
        if rules.get("ruleset") is not None:
            ruleset = p.str_(rules["ruleset"], "$.rules.ruleset")
        opts = rules.get("options", {})
        if not isinstance(opts, dict):
            p.bad("$.rules.options", "REC-FIELD-1", "must be an object of option values (strings)")
        elif p.fast and set(map(type, opts.values())) <= _STR and max(map(len, opts.values()),
                                                                      default=0) <= LIMITS["text"]:
            options = dict(opts)  # every value a string within the limit: what the loop below gives
        else:
            for k, v in opts.items():
                s = p.str_(v, member("$.rules.options", k))
                if s is not None:
                    options[k] = s

    seed = None
    if doc.get("seed") is not None:
        seed = p.int_(doc["seed"], "$.seed", 0, (1 << 64) - 1, "an integer 0 .. 2**64-1")
    first_dealer = 0
    if "first_dealer" in doc:
        fd = p.int_(doc["first_dealer"], "$.first_dealer", 0, LIMITS["players"] - 1)
        first_dealer = fd if fd is not None else 0

    players: tuple[str, ...] = ()
    if "players" in doc:
        pl = doc["players"]
        if not isinstance(pl, list) or not pl:
            p.bad("$.players", "REC-FIELD-1", "must be a non-empty list of player names")
        elif len(pl) > LIMITS["players"]:
            p.bad("$.players", "REC-SIZE-1", f"{len(pl)} players (limit {LIMITS['players']})")
        else:
            names = [p.str_(x, f"$.players[{i}]") for i, x in enumerate(pl)]
            players = tuple(n for n in names if n is not None)

    deck = _parse_deal(p, doc["deck"], "$.deck") if "deck" in doc else None

    deals: list[Deal] = []
    if "deals" in doc:
        dl = doc["deals"]
        if not isinstance(dl, list):
            p.bad("$.deals", "REC-FIELD-1", "must be a list of deck orders" + (" or zones" if p.v11 else ""))
        elif len(dl) > LIMITS["deals"]:
            p.bad("$.deals", "REC-SIZE-1", f"{len(dl)} deals (limit {LIMITS['deals']})")
        else:
            for i, d in enumerate(dl):
                got = _parse_deal(p, d, f"$.deals[{i}]")
                if got is None:
                    break
                deals.append(got)

    actions = _parse_actions(p, doc["actions"]) if "actions" in doc else None
    rounds, scores, winners, end_reason = _parse_result(p, doc["result"]) if "result" in doc else (None,) * 4

    fatal = any(x.rule_id not in _REPLAYABLE for x in p.problems)  # unknown fields, say, still replay
    if fatal or game is None or deck is None or actions is None or rounds is None or (scores is None and not p.v11):
        return None, p.problems
    return GameRecord(game, ruleset, options, seed, first_dealer, players, deck, tuple(deals), actions,
                      rounds, scores, winners, end_reason, extra, fmt, meta, status), p.problems


def _parse_deal(p: _Parser, v: Any, path: str) -> Deal | None:
    """A deck order, or (format 1.1) a deal as zones."""
    if not (p.v11 and isinstance(v, dict)):
        return p.ids(v, path, "a list of card ids" + (" or an object of zones" if p.v11 else ""))
    p.unknown(v, ZONE_KEYS, path)
    for k in ("hands", "field", "stock"):
        if k not in v:
            p.bad(f"{path}.{k}", "REC-FIELD-1", "required zone is missing")
    hv = v.get("hands")
    hands: list[tuple[int, ...]] = []
    if "hands" in v:
        if not isinstance(hv, list) or len(hv) > LIMITS["players"]:
            p.bad(f"{path}.hands", "REC-FIELD-1", "must be a list (one per seat) of lists of card ids")
            return None
        for i, h in enumerate(hv):
            got = p.ids(h, f"{path}.hands[{i}]")
            if got is None:
                return None
            hands.append(got)
    field_ = p.ids(v["field"], f"{path}.field") if "field" in v else None
    stock = p.ids(v["stock"], f"{path}.stock") if "stock" in v else None
    other = []
    for k in ZONE_KEYS[3:]:
        if k in v:
            z = p.ids(v[k], f"{path}.{k}")
            if z is None:
                return None
            other.append((k, z))
    if field_ is None or stock is None or "hands" not in v:
        return None
    return DealZones(tuple(hands), field_, stock, tuple(other))


def _parse_actions(p: _Parser, v: Any) -> tuple[ActionEntry, ...] | None:
    if not isinstance(v, list):
        p.bad("$.actions", "REC-FIELD-1", "must be a list of actions")
        return None
    if len(v) > LIMITS["actions"]:
        p.bad("$.actions", "REC-SIZE-1", f"{len(v)} actions (limit {LIMITS['actions']})")
        return None
    if p.fast and set(map(type, v)) <= _STR and (not v or max(map(len, v)) <= LIMITS["text"]):
        return tuple(map(_plain_entry, v))  # every action a text within the limit: what the loop below gives
    out: list[ActionEntry] = []
    before = len(p.problems)
    for i, a in enumerate(v):
        if isinstance(a, str):
            if len(a) > LIMITS["text"]:
                p.bad(f"$.actions[{i}]", "REC-SIZE-1", f"an action of {len(a)} characters", i)
                continue
            out.append(_plain_entry(a))
            continue
        path = f"$.actions[{i}]"
        if not isinstance(a, dict):
            p.bad(path, "REC-FIELD-1", f"an action is a string or an object, not {_kind(a)}", i)
            continue
        p.unknown(a, ("action", "seat", "after", "captures", "draw") if p.v11 else ("action", "seat", "after"), path)
        draw: int | None = None
        captures: tuple[int, ...] | None = None
        if p.v11 and a.get("captures") is not None:
            captures = p.ids(a["captures"], f"{path}.captures")
            if captures is None:
                continue
            if len(set(captures)) != len(captures):
                twice = sorted({c for c in captures if captures.count(c) > 1})
                p.bad(f"{path}.captures", "REC-CAPTURE-2", f"card(s) {twice} listed twice: a card is taken once", i)
        if p.v11 and "draw" in a:
            if "action" in a:
                p.bad(path, "REC-FIELD-1", "an entry is an action or a draw, not both", i)
                continue
            draw = p.int_(a["draw"], f"{path}.draw", 0, 9_999, "a card id")
            if draw is None:
                continue
            text: Any = ""
        else:
            text = a.get("action")
        if not isinstance(text, str) or len(text) > LIMITS["text"]:
            p.bad(f"{path}.action", "REC-FIELD-1", "must be the action's text", i)
            continue
        seat = None
        if a.get("seat") is not None:
            seat = p.int_(a["seat"], f"{path}.seat", 0, LIMITS["players"] - 1)
        after = None
        if a.get("after") is not None:
            raw = a["after"]
            if not isinstance(raw, dict):
                p.bad(f"{path}.after", "REC-FIELD-1", "must be a snapshot object", i)
                continue
            if not p.lenient:
                p.unknown(raw, ("game", "zones", "to_move", "phase", "dealer", "round", "scores"), f"{path}.after")
            try:
                after = Snapshot.from_json(raw)
            except (ValueError, TypeError) as e:
                p.bad(f"{path}.after", "REC-FIELD-1", str(e), i)
                continue
        out.append(ActionEntry(text, seat, after, captures, draw))
    return tuple(out) if all(x.rule_id == "REC-FIELD-2" for x in p.problems[before:]) else None


@functools.lru_cache(maxsize=4096)
def _plain_entry(text: str) -> ActionEntry:
    """The entry of an action given as text alone, built once and shared (entries are immutable, and
    records repeat the same few hundred texts)."""
    return ActionEntry(text)


def _parse_result(p: _Parser, v: Any) -> tuple[Any, Any, Any, Any]:
    if not isinstance(v, dict):
        p.bad("$.result", "REC-FIELD-1", "must be an object {rounds, scores, ...}")
        return None, None, None, None
    p.unknown(v, ("rounds", "scores", "winners", "end_reason"), "$.result")
    for k in ("rounds",) if p.v11 else ("rounds", "scores"):  # 1.1: scores may be unknown
        if k not in v:
            p.bad(f"$.result.{k}", "REC-FIELD-1", "required field is missing")
    scores = p.ints(v["scores"], "$.result.scores") if v.get("scores") is not None else None
    if "scores" in v and v["scores"] is None and not p.v11:
        p.bad("$.result.scores", "REC-FIELD-1", "must be a list of integers")
    winners = p.ints(v["winners"], "$.result.winners") if v.get("winners") is not None else None
    end_reason = p.str_(v["end_reason"], "$.result.end_reason") if v.get("end_reason") is not None else None
    rounds: list[RoundClaim] | None = None
    rv = v.get("rounds")
    if "rounds" in v:
        if not isinstance(rv, list):
            p.bad("$.result.rounds", "REC-FIELD-1", "must be a list of round results")
        elif len(rv) > LIMITS["deals"]:
            p.bad("$.result.rounds", "REC-SIZE-1", f"{len(rv)} rounds (limit {LIMITS['deals']})")
        else:
            rounds = []
            for i, r in enumerate(rv):
                plain = _plain_round(r, i) if p.fast and not p.v11 else None
                if plain is not None:
                    rounds.append(plain)
                    continue
                path = f"$.result.rounds[{i}]"
                if not isinstance(r, dict):
                    p.bad(path, "REC-FIELD-1", f"a round result is an object, not {_kind(r)}")
                    continue
                p.unknown(r, _ROUND_FIELDS, path)
                for k in ("actions",) if p.v11 else ("actions", "reason", "deltas"):
                    if k not in r:
                        p.bad(f"{path}.{k}", "REC-FIELD-1", "required field is missing")
                if p.v11:  # a claim may be null where the source does not know it
                    r = {k: x for k, x in r.items() if x is not None or k in _NULL_IS_A_VALUE}  # noqa: PLW2901
                n = p.int_(r.get("actions"), f"{path}.actions", 0, LIMITS["actions"]) if "actions" in r else None
                if "deal" in r and r["deal"] != i + 1:
                    p.bad(f"{path}.deal", "REC-FIELD-1", f"round entry {i} is deal {i + 1}, not {_short(r['deal'])}")
                if "reason" in r:
                    p.str_(r["reason"], f"{path}.reason")
                if "deltas" in r:
                    p.ints(r["deltas"], f"{path}.deltas")
                for k, want in (("counts", bool), ("ends_game", bool)):
                    if k in r and not isinstance(r[k], want):
                        p.bad(f"{path}.{k}", "REC-FIELD-1", "must be true or false")
                for k in ("winner", "next_dealer"):
                    if r.get(k) is not None and not _is_int(r[k]):
                        p.bad(f"{path}.{k}", "REC-FIELD-1", "must be a seat number or null")
                if r.get("card_points") is not None:
                    p.ints(r["card_points"], f"{path}.card_points")
                if "yaku" in r and not _yaku_ok(r["yaku"], p.v11):
                    p.bad(f"{path}.yaku", "REC-FIELD-1", "must be a list (per side) of lists of {id, points}")
                if "notes" in r and (not isinstance(r["notes"], dict)
                                     or not all(_is_int(x) for x in r["notes"].values())):
                    p.bad(f"{path}.notes", "REC-FIELD-1", "must be an object of integers")
                if n is not None:
                    fields = {k: r[k] for k in _ROUND_FIELDS if k in r and k not in ("actions", "deal")}
                    rounds.append(RoundClaim(n, fields))
    return (tuple(rounds) if rounds is not None else None), scores, winners, end_reason


def _plain_round(r: Any, i: int) -> RoundClaim | None:
    """Round entry ``i`` of a version-1 record, where a few direct tests show that the checks of
    :func:`_parse_result` find nothing in it (the common case); else None, and those checks run. Every
    test here is one of theirs or a stricter one (``type(x) is int`` for an integer that is not a bool)."""
    if type(r) is not dict or not all(map(_ROUND_FIELDS.__contains__, r)):
        return None
    n, reason, deltas = r.get("actions"), r.get("reason"), r.get("deltas")
    if not (type(n) is int and 0 <= n <= LIMITS["actions"] and type(reason) is str and len(reason) <= LIMITS["text"]
            and type(deltas) is list and len(deltas) <= LIMITS["players"] and set(map(type, deltas)) <= _INT):
        return None
    if "deal" in r and r["deal"] != i + 1:
        return None
    if (("counts" in r and not isinstance(r["counts"], bool))
            or ("ends_game" in r and not isinstance(r["ends_game"], bool))):
        return None
    winner, nxt, cp = r.get("winner"), r.get("next_dealer"), r.get("card_points")
    if (winner is not None and type(winner) is not int) or (nxt is not None and type(nxt) is not int):
        return None
    if cp is not None and not (type(cp) is list and len(cp) <= LIMITS["players"] and set(map(type, cp)) <= _INT):
        return None
    if "yaku" in r and not _yaku_ok(r["yaku"]):
        return None
    if "notes" in r:
        notes = r["notes"]
        if type(notes) is not dict or not set(map(type, notes.values())) <= _INT:
            return None
    return RoundClaim(n, {k: r[k] for k in _ROUND_FIELDS if k in r and k not in ("actions", "deal")})


_YAKU_KEYS = frozenset({"id", "points"})


def _yaku_ok(v: Any, nullable: bool = False) -> bool:
    if not isinstance(v, list):
        return False
    for side in v:
        if side is None and nullable:  # 1.1: this side's yaku are unknown
            continue
        if not isinstance(side, list):
            return False
        for y in side:
            if not (isinstance(y, dict) and isinstance(y.get("id"), str) and _is_int(y.get("points"))
                    and y.keys() <= _YAKU_KEYS):
                return False
    return True


def _short(v: Any) -> str:
    s = json.dumps(v)
    return s if len(s) <= 40 else s[:37] + "..."


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    return "an object"
