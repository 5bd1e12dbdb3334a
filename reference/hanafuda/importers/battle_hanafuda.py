"""Importer ``battle-hanafuda``: the watch logs of suzukiplan/open-hanafuda-ai's simulator (MIT).

One log (``ai_sim ... --log=watch.log``) is one game, one record. The mapping was read from the
engine's own code (repository ``suzukiplan/open-hanafuda-ai``, commit :data:`COMMIT`):

* cards are numbered by the log's own ``[CARD-INDEX]`` header (``month=(index/4)+1`` and a type
  KASU/TAN/TANE/GOKOU per index; ``src/cards_cli.c``, ``card_types``). Within a month the k-th
  card of a type is our k-th card of that kind (GOKOU bright, TANE animal, TAN ribbon, KASU
  chaff, ids ascending); a header that does not fit our deck is refused. The engine does not
  tell the Paulownia chaff apart: its first KASU of December is read as our 121 (the yellow one),
  which matters only under ``chaff_doubles=on``;
* seat 0 is ``P1`` (DOWN-SIDE), seat 1 ``CPU`` (UP-SIDE); the dealer (``oya``) plays first
  (``src/game.c``, ``game``), so each round's first player is its dealer;
* ``Floor:`` is the round's deck order: P1's 8 cards, CPU's 8, the table's 8 (the ``own:`` and
  first ``Deck:`` lines, checked against it), then the draw pile top first;
* ``drop take: a,b`` plays ``a`` taking ``b`` (``n/a``: the card of ``think drop`` takes nothing);
  ``floor open: c`` then ``floor take: c,t`` turns ``c`` from the pile taking ``t`` (or nothing);
* ``[Round n] X chooses KOIKOI`` is a koi-koi call; ``[Round n] Winner=X ...`` ends the round with
  X's stop (``stop``). The engine asks for a decision only while nobody has called koi-koi in the
  round and the player still holds cards (``src/ai.c``, ``is_koikoi_enabled``); otherwise it ends
  the round at once. The record writes ``stop`` in both cases: under the engine's profile
  (``koikoi_limit=once-per-round``, ``koikoi_last_turn=forbidden``) our rules offer shōbu alone
  there;
* the result line gives the winner's points (``=> +N``, the other side scores 0) and its yaku, by
  name, with points; the loser's yaku are not logged (null). ``[Round n] Draw`` scores nothing;
* ``Final Score: P1=a CPU=b`` are the final scores; ``Winner:`` the winner.
"""

from __future__ import annotations

import re

from hanafuda_spec.cards import HANAFUDA, Card
from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import FORMAT_1_1

from hanafuda.importers import ImporterError, Record, decode_utf8

__all__ = ["COMMIT", "IMPORTER", "RULESET", "YAKU"]

COMMIT = "475728d6b9ab39060ba35737f6c23aa603e2d05d"
REPOSITORY = "suzukiplan/open-hanafuda-ai"
RULESET = "battle-hanafuda"  #: the engine profile (Koi-Koi ruleset) these games are played under

#: The engine's yaku names (``src/winning_hands.c``, the first name of each row) -> our yaku ids.
YAKU = {
    "Five Brights": "five-brights",
    "Four Brights": "four-brights",
    "Rainy Four Brights": "rainy-four-brights",
    "Three Brights": "three-brights",
    "Hanami - A Cup Under the Blossoms": "flower-viewing",
    "Tsukimi - A Cup Under the Moon": "moon-viewing",
    "Ino-shika-cho - Boar, Deer, and Butterfly": "boar-deer-butterfly",
    "Crimson and Azure Verses": "poetry-blue-ribbons",
    "Red Poetry Ribbons": "poetry-ribbons",
    "Blue Poetry Ribbons": "blue-ribbons",
    "Animal Set": "animals",
    "Ribbon Set": "ribbons",
    "Plain Set": "chaff",
}

_KINDS = {"GOKOU": "bright", "TANE": "animal", "TAN": "ribbon", "KASU": "chaff"}
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_SIDE = {"P1": 0, "CPU": 1}

_RE = {
    "start": re.compile(r"Watch Start: P1=(\S+) CPU=(\S+) rounds=(\d+) no_sake=(\d)"),
    "seed": re.compile(r"Watch Seed: (\d+)"),
    "index_format": re.compile(r"\[CARD-INDEX\] format=.*"),
    "index": re.compile(r"\[CARD-INDEX\] (\w{3}): (.*)"),
    "round_start": re.compile(r"\[Round Start\]"),
    "initial": re.compile(r"\[Initial\] Round (\d+)"),
    "floor": re.compile(r"Floor: (.*)"),
    "own": re.compile(r"(P1|CPU) \((?:DOWN|UP)-SIDE\) own: ([0-9,]+|n/a)(?: \(Sake\))?"),
    "deck": re.compile(r"Deck: ([0-9,]+|n/a)(?: \(Env: .*\))?"),
    "think": re.compile(r"\[(P1|CPU)\] think (drop|select): (-?\d+)(?: .*)?"),
    "drop_take": re.compile(r"\[(P1|CPU)\] drop take: ([0-9,]+|n/a)(?: \(Env: .*\))?"),
    "floor_open": re.compile(r"\[(P1|CPU)\] floor open: (-?\d+)(?: \(Env: .*\))?"),
    "floor_take": re.compile(r"\[(P1|CPU)\] floor take: ([0-9,]+|n/a)(?: \(Env: .*\))?"),
    "after_opp": re.compile(r"\[AFTER-OPP\] .*"),
    "probability": re.compile(r"KOIKOI execution probability: .*"),
    "koikoi_answer": re.compile(r"KOIKOI: (Yes|No)"),
    "koikoi": re.compile(r"\[Round (\d+)\] (P1|CPU) chooses KOIKOI .*"),
    "winner": re.compile(r"\[Round (\d+)\] Winner=(P1|CPU) base=(\d+) x(\d+) => \+(\d+) "
                         r"\(reason=[^,]*, Total P1=(-?\d+) CPU=(-?\d+)\)"),
    "draw": re.compile(r"\[Round (\d+)\] Draw"),
    "yaku": re.compile(r"  - (.+) \((.+)\): (-?\d+)"),
    "rule": re.compile(r"=+"),
    "finished": re.compile(r"Game Finished: rounds=(\d+)"),
    "final": re.compile(r"Final Score: P1=(-?\d+) CPU=(-?\d+)"),
    "game_winner": re.compile(r"Winner: (P1|CPU|DRAW|Draw|None)(?: <.*>)?"),
}


class _Round:
    def __init__(self, number: int, line: int) -> None:
        self.number, self.line = number, line
        self.floor: list[int] | None = None
        self.own: dict[int, list[int]] = {}
        self.table: list[int] | None = None
        self.dealer: int | None = None
        self.actions: list[JsonValue] = []
        self.hand = [8, 8]
        self.koikoi = False
        self.drop: int | None = None  # the card of the last "think drop"
        self.opened: int | None = None  # the card of the last "floor open"
        self.mover: int | None = None  # the seat whose turn is being logged
        self.pending_draw = False  # a card was played, its draw is not logged yet
        self.claim: dict[str, JsonValue] | None = None
        self.deltas: list[int] = [0, 0]


class BattleHanafuda:
    name = "battle-hanafuda"
    summary = "Battle Hanafuda simulator watch logs (suzukiplan/open-hanafuda-ai): one record per game"

    def read(self, source: str, data: bytes) -> list[Record]:
        text = decode_utf8(data)
        return [_Reader(source).read(text.splitlines())]


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.cards: dict[int, int] = {}  # engine index -> our id
        self.rounds: list[_Round] = []
        self.cur: _Round | None = None
        self.players: list[str] = []
        self.n_rounds = 0
        self.seed: int | None = None
        self.final: list[int] | None = None
        self.winner: str | None = None
        self.finished: int | None = None
        self.last_yaku: list[JsonValue] | None = None

    def fail(self, line: int, what: str) -> ImporterError:
        return ImporterError(line, what)

    def read(self, lines: list[str]) -> Record:
        if not lines or not lines[0].startswith("Watch Start:"):
            raise self.fail(1, "not a Battle Hanafuda watch log (it starts with 'Watch Start:')")
        for no, raw in enumerate(lines, 1):
            line = raw.rstrip("\r")
            if not line.strip():
                continue
            for kind, rx in _RE.items():
                m = rx.fullmatch(line)
                if m:
                    getattr(self, f"on_{kind}")(no, m)
                    break
            else:
                raise self.fail(no, f"unrecognised line {line[:60]!r}")
        last = len(lines)
        if self.cur is not None and self.cur.claim is None:
            raise self.fail(last, f"the log ends inside round {self.cur.number} (truncated?)")
        if self.final is None:
            raise self.fail(last, "the log ends before the game's final score (truncated?)")
        return self.record()

    # -- header ----------------------------------------------------------------------------
    def on_start(self, no: int, m: re.Match[str]) -> None:
        if int(m.group(4)):
            raise self.fail(no, "no_sake=1 (the Sake Cup is kept out of play): this variant is not mapped")
        self.players = [f"P1 ({m.group(1)})", f"CPU ({m.group(2)})"]
        self.n_rounds = int(m.group(3))

    def on_seed(self, no: int, m: re.Match[str]) -> None:
        self.seed = int(m.group(1))

    def on_index_format(self, no: int, m: re.Match[str]) -> None:
        if "month=(index/4)+1" not in m.group(0):
            raise self.fail(no, "a card numbering this importer does not know")

    def on_index(self, no: int, m: re.Match[str]) -> None:
        if m.group(1) not in _MONTHS:
            raise self.fail(no, f"unknown month {m.group(1)!r}")
        month = _MONTHS.index(m.group(1)) + 1
        seen: dict[str, int] = {}
        for item in m.group(2).split():
            im = re.fullmatch(r"(\d+)=(KASU|TAN|TANE|GOKOU)", item)
            if not im:
                raise self.fail(no, f"card index entry {item!r} is not INDEX=TYPE")
            index, kind = int(im.group(1)), _KINDS[im.group(2)]
            if index // 4 + 1 != month:
                raise self.fail(no, f"card index {index} is not in month {month}")
            ours = sorted(c.id for c in HANAFUDA.cards if isinstance(c, Card) and c.month == month
                          and c.kind.value == kind)
            k = seen.get(kind, 0)
            if k >= len(ours):
                raise self.fail(no, f"card index {index}: month {month} has {len(ours)} {kind} card(s) in our deck")
            seen[kind] = k + 1
            self.cards[index] = ours[k]

    def card(self, no: int, text: str) -> int:
        try:
            index = int(text)
        except ValueError:
            raise self.fail(no, f"{text!r} is not a card index") from None
        if not self.cards:
            raise self.fail(no, "a card before the [CARD-INDEX] header")
        if index not in self.cards:
            raise self.fail(no, f"unknown card {index} (the [CARD-INDEX] header numbers 0-{max(self.cards)})")
        return self.cards[index]

    def card_list(self, no: int, text: str) -> list[int]:
        return [] if text == "n/a" else [self.card(no, x) for x in text.split(",")]

    # -- a round -----------------------------------------------------------------------------
    def round_(self, no: int) -> _Round:
        if self.cur is None or self.cur.claim is not None:
            raise self.fail(no, "a play outside a round")
        return self.cur

    def on_round_start(self, no: int, m: re.Match[str]) -> None:
        if self.cur is not None and self.cur.claim is None:
            raise self.fail(no, f"round {self.cur.number} has no result")
        self.cur = None

    def on_initial(self, no: int, m: re.Match[str]) -> None:
        n = int(m.group(1))
        if n != len(self.rounds) + 1:
            raise self.fail(no, f"round {n} follows round {len(self.rounds)}")
        self.cur = _Round(n, no)
        self.rounds.append(self.cur)

    def on_floor(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no)
        order = self.card_list(no, m.group(1))
        if sorted(order) != sorted(c.id for c in HANAFUDA.cards):
            raise self.fail(no, f"the deck order is not the 48-card deck ({len(order)} cards)")
        r.floor = order

    def on_own(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no)
        seat = _SIDE[m.group(1)]
        cards = self.card_list(no, m.group(2))
        if r.floor is None or cards != r.floor[8 * seat:8 * seat + 8]:
            raise self.fail(no, f"{m.group(1)}'s hand is not cards {8 * seat + 1}-{8 * seat + 8} of the Floor line")
        r.own[seat] = cards

    def on_deck(self, no: int, m: re.Match[str]) -> None:
        r = self.cur
        if r is None or r.claim is not None:
            raise self.fail(no, "a Deck line outside a round")
        if r.table is None:
            cards = self.card_list(no, m.group(1))
            if r.floor is None or cards != r.floor[16:24] or len(r.own) != 2:
                raise self.fail(no, "the table is not cards 17-24 of the Floor line")
            r.table = cards

    def mover(self, no: int, r: _Round, who: str) -> int:
        seat = _SIDE[who]
        if r.table is None:
            raise self.fail(no, "a play before the deal is complete")
        if r.dealer is None:
            r.dealer = seat
        if r.mover is not None and r.mover != seat and (r.drop is not None or r.opened is not None):
            raise self.fail(no, f"{who} plays in the middle of the other player's turn")
        return seat

    def on_think(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no)
        seat = self.mover(no, r, m.group(1))
        if m.group(2) == "drop":
            r.mover, r.drop = seat, self.card(no, m.group(3))

    def on_drop_take(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no)
        seat = self.mover(no, r, m.group(1))
        cards = self.card_list(no, m.group(2))
        played = cards[0] if cards else r.drop
        if played is None:
            raise self.fail(no, "'drop take: n/a' without the card played ('think drop')")
        if r.drop is not None and played != r.drop:
            raise self.fail(no, f"plays {played}, but 'think drop' chose {r.drop}")
        r.hand[seat] -= 1
        if r.hand[seat] < 0:
            raise self.fail(no, f"{m.group(1)} plays a ninth card")
        r.mover, r.drop = seat, None
        r.actions.append({"action": f"play {played}", "captures": _j(cards[1:])})
        r.pending_draw = True

    def on_floor_open(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no)
        seat = self.mover(no, r, m.group(1))
        if r.mover != seat or not r.pending_draw:
            raise self.fail(no, "a draw without the play of the same turn")
        r.opened = self.card(no, m.group(2))

    def on_floor_take(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no)
        self.mover(no, r, m.group(1))
        if r.opened is None:
            raise self.fail(no, "'floor take' without 'floor open'")
        cards = self.card_list(no, m.group(2))
        if cards and cards[0] != r.opened:
            raise self.fail(no, f"takes with {cards[0]}, but the card turned was {r.opened}")
        r.actions.append({"draw": r.opened, "captures": _j(cards[1:])})
        r.opened = None
        r.pending_draw = False

    def on_after_opp(self, no: int, m: re.Match[str]) -> None:
        pass  # the AI's bookkeeping

    def on_probability(self, no: int, m: re.Match[str]) -> None:
        pass

    def on_koikoi_answer(self, no: int, m: re.Match[str]) -> None:
        pass  # the decision itself is the "chooses KOIKOI" or "Winner=" line that follows

    def on_koikoi(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no)
        if int(m.group(1)) != r.number or r.mover != _SIDE[m.group(2)]:
            raise self.fail(no, f"koi-koi by {m.group(2)} outside their turn")
        r.koikoi = True
        r.actions.append("koikoi")

    def on_winner(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no)
        seat = _SIDE[m.group(2)]
        if int(m.group(1)) != r.number:
            raise self.fail(no, f"the result of round {m.group(1)} inside round {r.number}")
        if r.pending_draw:
            raise self.fail(no, "the round ends in the middle of a turn")
        if r.mover == seat:  # the round ends on the winner's own turn: a stop (chosen, or the only call left)
            r.actions.append("stop")
        r.deltas[seat] = int(m.group(5))
        self.last_yaku = []
        yaku: list[JsonValue] = [None, None]
        yaku[seat] = self.last_yaku
        r.claim = {"actions": len(r.actions), "deltas": _j(r.deltas), "yaku": yaku}
        totals = self.totals()
        if totals != [int(m.group(6)), int(m.group(7))]:
            raise self.fail(no, f"the totals say P1={m.group(6)} CPU={m.group(7)}; the rounds add up to {totals}")

    def on_yaku(self, no: int, m: re.Match[str]) -> None:
        if self.last_yaku is None:
            raise self.fail(no, "a yaku line outside a round result")
        name = m.group(1)
        if name not in YAKU:
            raise self.fail(no, f"unknown yaku {name!r}")
        self.last_yaku.append({"id": YAKU[name], "points": int(m.group(3))})

    def on_draw(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no)
        if r.pending_draw:
            raise self.fail(no, "the round ends in the middle of a turn")
        r.claim = {"actions": len(r.actions), "deltas": [0, 0]}
        self.last_yaku = None

    def on_rule(self, no: int, m: re.Match[str]) -> None:
        pass

    def on_finished(self, no: int, m: re.Match[str]) -> None:
        self.finished = int(m.group(1))
        self.last_yaku = None

    def on_final(self, no: int, m: re.Match[str]) -> None:
        self.final = [int(m.group(1)), int(m.group(2))]
        totals = self.totals()
        if self.final != totals:
            raise self.fail(no, f"the final score {self.final} is not the sum of the rounds {totals}")
        if len(self.rounds) != self.n_rounds or self.finished != self.n_rounds:
            raise self.fail(no, f"{len(self.rounds)} rounds played of the {self.n_rounds} announced")

    def totals(self) -> list[int]:
        return [sum(x.deltas[i] for x in self.rounds if x.claim is not None) for i in (0, 1)]

    def on_game_winner(self, no: int, m: re.Match[str]) -> None:
        self.winner = m.group(1)

    # -- the record ---------------------------------------------------------------------------
    def record(self) -> Record:
        deals: list[JsonValue] = []
        actions: list[JsonValue] = []
        claims: list[JsonValue] = []
        for r in self.rounds:
            assert r.floor is not None and r.claim is not None
            deals.append({"hands": [_j(r.floor[0:8]), _j(r.floor[8:16])], "field": _j(r.floor[16:24]),
                          "stock": _j(r.floor[24:])})
            actions.extend(r.actions)
            claims.append(r.claim)
        first = self.rounds[0].dealer if self.rounds and self.rounds[0].dealer is not None else 0
        result: dict[str, JsonValue] = {"rounds": claims, "scores": _j(self.final or [])}
        if self.winner in _SIDE:
            result["winners"] = [_SIDE[self.winner]]
        meta: dict[str, JsonValue] = {
            "importer": "battle-hanafuda",
            "source": {"file": self.source, "line": 1},
            "engine": {"name": "Battle Hanafuda (ai_sim)", "repository": REPOSITORY, "commit": COMMIT},
            "log": {"seed": self.seed, "rounds": self.n_rounds},
        }
        return {"format": FORMAT_1_1, "game": "koikoi", "rules": {"ruleset": RULESET, "options": {}},
                "first_dealer": first, "players": list(self.players), "deck": deals[0], "deals": deals[1:],
                "actions": actions, "result": result, "meta": meta, "status": "complete"}


def _j(xs: list[int]) -> list[JsonValue]:
    return list(xs)


IMPORTER = BattleHanafuda()
