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

from hanafuda.importers import ImporterError, Record, decode_utf8, shown, whole_number

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
_NAMES = ("P1", "CPU")
_DECK = sorted(c.id for c in HANAFUDA.cards)
_POINTS = 10**6  #: the bound on any point total in a log

_N = r"(-?\d+)"  # any run of digits: its length is bounded by whole_number, not by the pattern
#: The game-event lines: each pattern is anchored at both ends and has at most one unbounded part, so
#: a match is linear in the line's length.
_RE = {
    "start": re.compile(r"Watch Start: P1=(\S+) CPU=(\S+) rounds=" + _N + r" no_sake=" + _N),
    "seed": re.compile(r"Watch Seed: " + _N),
    "index_format": re.compile(r"\[CARD-INDEX\] format=.*"),
    "index": re.compile(r"\[CARD-INDEX\] (\w{3}): (.*)"),
    "round_start": re.compile(r"\[Round Start\]"),
    "initial": re.compile(r"\[Initial\] Round " + _N),
    "floor": re.compile(r"Floor: ([0-9,-]*)"),
    "own": re.compile(r"(P1|CPU) \((?:DOWN|UP)-SIDE\) own: ([0-9,-]+|n/a)(?: \(Sake\))?"),
    "deck": re.compile(r"Deck: ([0-9,-]+|n/a)(?: \(Env: [^()]*\))?"),
    "think": re.compile(r"\[(P1|CPU)\] think (drop|select): " + _N + r"(?: .*)?"),
    "drop_take": re.compile(r"\[(P1|CPU)\] drop take: ([0-9,-]+|n/a)(?: \(Env: [^()]*\))?"),
    "floor_open": re.compile(r"\[(P1|CPU)\] floor open: " + _N + r"(?: \(Env: [^()]*\))?"),
    "floor_take": re.compile(r"\[(P1|CPU)\] floor take: ([0-9,-]+|n/a)(?: \(Env: [^()]*\))?"),
    "koikoi": re.compile(r"\[Round " + _N + r"\] (P1|CPU) chooses KOIKOI .*"),
    "winner": re.compile(r"\[Round " + _N + r"\] Winner=(P1|CPU) base=" + _N + r" x" + _N + r" => \+" + _N
                         + r" \(reason=[^,]*, Total P1=" + _N + r" CPU=" + _N + r"\)"),
    "draw": re.compile(r"\[Round " + _N + r"\] Draw"),
    "rule": re.compile(r"=+"),
    "finished": re.compile(r"Game Finished: rounds=" + _N),
    "final": re.compile(r"Final Score: P1=" + _N + r" CPU=" + _N),
    "game_winner": re.compile(r"Winner: (P1|CPU|DRAW|Draw|None)(?: <[^<>]*>)?"),
}
#: The first characters of each game-event line, to pick its pattern without trying them all.
_KEYS = (("start", "Watch Start: "), ("seed", "Watch Seed: "), ("index_format", "[CARD-INDEX] format="),
         ("index", "[CARD-INDEX] "), ("round_start", "[Round Start]"), ("initial", "[Initial] "),
         ("floor", "Floor: "), ("own", "P1 ("), ("own", "CPU ("), ("deck", "Deck: "), ("think", "["),
         ("drop_take", "["), ("floor_open", "["), ("floor_take", "["), ("koikoi", "[Round "),
         ("winner", "[Round "), ("draw", "[Round "), ("rule", "="), ("finished", "Game Finished: "),
         ("final", "Final Score: "), ("game_winner", "Winner: "))

#: Lines the engine writes that are not game events, skipped: the AIs' reasoning (``ai_putlog`` in
#: ``src/ai*.c``: the Hard model's ``Thinking...`` and its traces, the Normal model's ``KOIKOI``
#: probability, the environment models' forecasts) and the details indented under them. Each is a
#: line's beginning, as the engine's format strings begin; any other line is refused.
SKIPPED = (
    "Thinking...", "Think End", "EnvScore forecast:", "KOIKOI execution probability:", "KOIKOI: ",
    "KoiKoi Decision:", "Bias:", "Context:", "Env:", "Risk:", "Priority-Score:", "Priority-Speed:",
    "[AFTER-OPP] ", "[HARD-REASON] ", "[HARD-TOP] ", "[HARD-TRACE] ", "[DROP-TOP", "[SELECT-TOP",
    "[action-mc-compare] ", "[d1-override] ", "[deny-expose] ", "[drop-fallback-debug] ", "[drop] ",
    "[env-mc] ", "[koikoi] ", "[month-lock] ", "[overpay] ", "[phase2a] ", "[select] ", "[sevenline] ",
    "drop[", "select[", "- ", "  #", "  seven{", "    prune=", "    take_pair=", "= Round Start =",
)
_FORECAST = re.compile(r"\d{1,3}\. card=.*")  # an entry of "EnvScore forecast:"
#: The lengths the simulator plays: ``ai_sim -r N`` takes 1 to 12 rounds (``src/main.c``, ``main``),
#: the record's ``length`` option.
LENGTHS = range(1, 13)


class _Round:
    def __init__(self, number: int, line: int) -> None:
        self.number, self.line = number, line
        self.floor: list[int] | None = None
        self.own: dict[int, list[int]] = {}
        self.table: list[int] | None = None
        self.hands: list[set[int]] = [set(), set()]
        self.field: set[int] = set()
        self.stock: list[int] = []
        self.dealer: int | None = None
        self.actions: list[JsonValue] = []
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
        return [_Reader(source).read(text.split("\n"))]


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

    def num(self, no: int, text: str, what: str, low: int = -_POINTS, high: int = _POINTS) -> int:
        return whole_number(text, no, what, low, high)

    def read(self, lines: list[str]) -> Record:
        if not lines or not lines[0].lstrip("\ufeff").startswith("Watch Start:"):
            raise self.fail(1, f"expected a Battle Hanafuda watch log ('Watch Start: ...'), found "
                            f"{shown(lines[0] if lines else '')}")
        lines[0] = lines[0].lstrip("\ufeff")
        for no, raw in enumerate(lines, 1):
            line = raw[:-1] if raw.endswith("\r") else raw
            if not line.strip():
                continue
            self.line(no, line)
        last = max(1, len(lines) - (1 if lines[-1] == "" else 0))
        if self.cur is not None and self.cur.claim is None:
            raise self.fail(last, f"expected the result of round {self.cur.number}, found the end of the log "
                            "(truncated?)")
        if self.final is None:
            raise self.fail(last, "expected the game's final score, found the end of the log (truncated?)")
        return self.record()

    def line(self, no: int, line: str) -> None:
        for kind, head in _KEYS:
            if line.startswith(head):
                m = _RE[kind].fullmatch(line)
                if m:
                    getattr(self, f"on_{kind}")(no, m)
                    return
        if line.startswith("  - ") and self.last_yaku is not None:
            self.on_yaku(no, line)
        elif not (line.startswith(SKIPPED) or _FORECAST.fullmatch(line)):
            raise self.fail(no, f"expected a line of the watch log, found {shown(line, 60)}")

    # -- header ----------------------------------------------------------------------------
    def on_start(self, no: int, m: re.Match[str]) -> None:
        if no != 1:
            raise self.fail(no, "expected one 'Watch Start:' line, found a second")
        self.n_rounds = self.num(no, m.group(3), "rounds", LENGTHS[0], LENGTHS[-1])
        if self.num(no, m.group(4), "no_sake", 0, 1):
            raise self.fail(no, "expected no_sake=0, found no_sake=1 (the Sake Cup kept out of play: this "
                            "variant is not mapped)")
        self.players = [f"P1 ({m.group(1)[:40]})", f"CPU ({m.group(2)[:40]})"]

    def on_seed(self, no: int, m: re.Match[str]) -> None:
        self.seed = self.num(no, m.group(1), "seed", -2**63, 2**63)

    def on_index_format(self, no: int, m: re.Match[str]) -> None:
        if "month=(index/4)+1" not in m.group(0):
            raise self.fail(no, f"expected the card numbering month=(index/4)+1, found {shown(m.group(0), 60)}")

    def on_index(self, no: int, m: re.Match[str]) -> None:
        if m.group(1) not in _MONTHS:
            raise self.fail(no, f"expected a month Jan to Dec, found {shown(m.group(1))}")
        if self.rounds:
            raise self.fail(no, "expected the [CARD-INDEX] header before the first round, found it inside one")
        month = _MONTHS.index(m.group(1)) + 1
        seen: dict[str, int] = {}
        for item in m.group(2).split(" "):
            index_text, _, kind_name = item.partition("=")
            if kind_name not in _KINDS:
                raise self.fail(no, f"expected INDEX=KASU|TAN|TANE|GOKOU, found {shown(item)}")
            index, kind = self.num(no, index_text, "card index", 0, 47), _KINDS[kind_name]
            if index // 4 + 1 != month or index in self.cards:
                raise self.fail(no, f"expected a new card index of month {month}, found {index}")
            ours = sorted(c.id for c in HANAFUDA.cards if isinstance(c, Card) and c.month == month
                          and c.kind.value == kind)
            k = seen.get(kind, 0)
            if k >= len(ours):
                raise self.fail(no, f"expected at most {len(ours)} {kind_name} card(s) in month {month} (our "
                                f"deck), found more")
            seen[kind] = k + 1
            self.cards[index] = ours[k]

    def card(self, no: int, text: str) -> int:
        if not self.cards:
            raise self.fail(no, "expected the [CARD-INDEX] header before any card, found a card")
        index = self.num(no, text, "card index", 0, 47)
        if index not in self.cards:
            raise self.fail(no, f"expected a card of the [CARD-INDEX] header, found {index}")
        return self.cards[index]

    def card_list(self, no: int, text: str) -> list[int]:
        return [] if text == "n/a" else [self.card(no, x) for x in text.split(",")]

    # -- a round -----------------------------------------------------------------------------
    def round_(self, no: int, what: str) -> _Round:
        r = self.cur
        if r is None or r.claim is not None:
            raise self.fail(no, f"expected '[Initial] Round N' before {what}, found none")
        if r.table is None:
            raise self.fail(no, f"expected the deal (Floor:, own: and Deck: lines) before {what}, found none")
        return r

    def on_round_start(self, no: int, m: re.Match[str]) -> None:
        if self.cur is not None and self.cur.claim is None:
            raise self.fail(no, f"expected the result of round {self.cur.number}, found a new round")
        if self.final is not None:
            raise self.fail(no, "expected nothing after the final score, found a new round")
        self.cur = None

    def on_initial(self, no: int, m: re.Match[str]) -> None:
        n = self.num(no, m.group(1), "round", 1, 99)
        if self.cur is not None and self.cur.claim is None:
            raise self.fail(no, f"expected the result of round {self.cur.number}, found round {n}")
        if n != len(self.rounds) + 1 or n > self.n_rounds:
            raise self.fail(no, f"expected round {len(self.rounds) + 1} of {self.n_rounds}, found round {n}")
        self.cur = _Round(n, no)
        self.rounds.append(self.cur)

    def on_floor(self, no: int, m: re.Match[str]) -> None:
        r = self.cur
        if r is None or r.claim is not None:
            raise self.fail(no, "expected '[Initial] Round N' before the deal, found a Floor: line")
        if r.actions or r.drop is not None:
            raise self.fail(no, "expected a play, found a second Floor: line in the round")
        order = self.card_list(no, m.group(1)) if m.group(1) else []
        if sorted(order) != _DECK:
            raise self.fail(no, f"expected the 48-card deck, found {len(order)} card(s)"
                            + (" (a card twice)" if len(set(order)) != len(order) else ""))
        r.floor, r.own, r.table = order, {}, None

    def on_own(self, no: int, m: re.Match[str]) -> None:
        r = self.cur
        seat = _SIDE[m.group(1)]
        if r is None or r.floor is None or r.table is not None:
            raise self.fail(no, f"expected a Floor: line before {m.group(1)}'s hand, found none")
        cards = self.card_list(no, m.group(2))
        if cards != r.floor[8 * seat:8 * seat + 8]:
            raise self.fail(no, f"expected {m.group(1)}'s hand to be cards {8 * seat + 1}-{8 * seat + 8} of the "
                            "Floor: line, found others")
        r.own[seat] = cards

    def on_deck(self, no: int, m: re.Match[str]) -> None:
        r = self.cur
        if r is None or r.claim is not None:
            raise self.fail(no, "expected '[Initial] Round N' before the table, found a Deck: line")
        cards = self.card_list(no, m.group(1))
        if r.table is None:
            if r.floor is None or cards != r.floor[16:24] or len(r.own) != 2:
                raise self.fail(no, "expected the table to be cards 17-24 of the Floor: line, after both hands, "
                                "found others")
            r.table = cards
            r.hands = [set(r.floor[0:8]), set(r.floor[8:16])]
            r.field = set(cards)
            r.stock = list(r.floor[24:])
        elif sorted(cards) != sorted(r.field):  # the table after a turn
            raise self.fail(no, f"expected the table {sorted(r.field)}, found {sorted(cards)}")

    def mover(self, no: int, r: _Round, who: str) -> int:
        seat = _SIDE[who]
        if r.dealer is None:
            r.dealer = seat
        if r.mover is not None and r.mover != seat and (r.drop is not None or r.opened is not None
                                                        or r.pending_draw):
            raise self.fail(no, f"expected the end of {_NAMES[r.mover]}'s turn, found a play by {who}")
        return seat

    def on_think(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no, "a play")
        seat = self.mover(no, r, m.group(1))
        if m.group(2) == "drop":
            if r.pending_draw:
                raise self.fail(no, f"expected {m.group(1)}'s draw (floor open), found a second play")
            r.mover, r.drop = seat, self.card(no, m.group(3))
        else:
            self.num(no, m.group(3), "choice", -1, 48)

    def take(self, no: int, r: _Round, card: int, took: list[int]) -> None:
        """``card`` takes ``took`` from the table (checked), or, taking nothing, is laid on it."""
        if len(set(took)) != len(took) or card in took:
            raise self.fail(no, f"expected each card taken once, found {[card, *took]}")
        for c in took:
            if c not in r.field or c // 10 != card // 10:
                raise self.fail(no, f"expected table cards of the month of card {card}, found {c}")
        if took:
            r.field.difference_update(took)
        else:
            r.field.add(card)

    def on_drop_take(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no, "a play")
        seat = self.mover(no, r, m.group(1))
        if r.pending_draw:
            raise self.fail(no, f"expected {m.group(1)}'s draw (floor open), found a second play")
        cards = self.card_list(no, m.group(2))
        played = cards[0] if cards else r.drop
        if played is None:
            raise self.fail(no, "expected the card played ('think drop') before 'drop take: n/a', found none")
        if r.drop is not None and played != r.drop:
            raise self.fail(no, f"expected the card of 'think drop', {r.drop}, found {played}")
        if played not in r.hands[seat]:
            raise self.fail(no, f"expected a card of {m.group(1)}'s hand, found {played}")
        r.hands[seat].discard(played)
        self.take(no, r, played, cards[1:])
        r.mover, r.drop = seat, None
        r.actions.append({"action": f"play {played}", "captures": _j(cards[1:])})
        r.pending_draw = True

    def on_floor_open(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no, "a draw")
        seat = self.mover(no, r, m.group(1))
        if r.mover != seat or not r.pending_draw or r.opened is not None:
            raise self.fail(no, f"expected {m.group(1)}'s play (drop take) before the draw, found none")
        card = self.card(no, m.group(2))
        if not r.stock or card != r.stock[0]:
            raise self.fail(no, f"expected the draw pile's next card {r.stock[0] if r.stock else 'none'}, "
                            f"found {card}")
        r.stock.pop(0)
        r.opened = card

    def on_floor_take(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no, "a draw")
        self.mover(no, r, m.group(1))
        if r.opened is None:
            raise self.fail(no, "expected 'floor open' before 'floor take', found none")
        cards = self.card_list(no, m.group(2))
        if cards and cards[0] != r.opened:
            raise self.fail(no, f"expected the card turned, {r.opened}, to take, found {cards[0]}")
        self.take(no, r, r.opened, cards[1:])
        r.actions.append({"draw": r.opened, "captures": _j(cards[1:])})
        r.opened = None
        r.pending_draw = False

    def on_koikoi(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no, "a koi-koi")
        n = self.num(no, m.group(1), "round", 1, 99)
        if n != r.number or r.mover != _SIDE[m.group(2)] or r.pending_draw:
            raise self.fail(no, f"expected a koi-koi at the end of a turn of its caller in round {r.number}, "
                            f"found one by {m.group(2)} in round {n}")
        r.koikoi = True
        r.actions.append("koikoi")

    def on_winner(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no, "the round's result")
        seat = _SIDE[m.group(2)]
        n = self.num(no, m.group(1), "round", 1, 99)
        if n != r.number:
            raise self.fail(no, f"expected the result of round {r.number}, found round {n}'s")
        if r.pending_draw:
            raise self.fail(no, "expected the draw of the turn (floor open), found the round's result")
        if r.mover == seat:  # the round ends on the winner's own turn: a stop (chosen, or the only call left)
            r.actions.append("stop")
        r.deltas[seat] = self.num(no, m.group(5), "points")
        self.last_yaku = []
        yaku: list[JsonValue] = [None, None]
        yaku[seat] = self.last_yaku
        r.claim = {"actions": len(r.actions), "deltas": _j(r.deltas), "yaku": yaku}
        totals = self.totals()
        said = [self.num(no, m.group(6), "P1's total"), self.num(no, m.group(7), "CPU's total")]
        if totals != said:
            raise self.fail(no, f"expected the totals P1={totals[0]} CPU={totals[1]} (the rounds' sum), found "
                            f"P1={said[0]} CPU={said[1]}")

    def on_yaku(self, no: int, line: str) -> None:
        """``  - NAME (ENGLISH NAME): POINTS``: split by hand (a backtracking pattern is quadratic on a long line)."""
        assert self.last_yaku is not None
        head, sep, points = line[4:].rpartition("): ")
        name = next((y for y in YAKU if head.startswith(y + " (")), None)
        english = head[len(name) + 2:] if name is not None else ""
        if not sep or name is None or not english or "(" in english or ")" in english:
            raise self.fail(no, f"expected a yaku line '  - NAME (...): POINTS' of a known yaku, found "
                            f"{shown(line, 60)}")
        self.last_yaku.append({"id": YAKU[name], "points": self.num(no, points, "yaku points", 0, 1000)})

    def on_draw(self, no: int, m: re.Match[str]) -> None:
        r = self.round_(no, "the round's result")
        n = self.num(no, m.group(1), "round", 1, 99)
        if n != r.number:
            raise self.fail(no, f"expected the result of round {r.number}, found round {n}'s")
        if r.pending_draw:
            raise self.fail(no, "expected the draw of the turn (floor open), found the round's result")
        r.claim = {"actions": len(r.actions), "deltas": [0, 0]}
        self.last_yaku = None

    def on_rule(self, no: int, m: re.Match[str]) -> None:
        self.last_yaku = None

    def on_finished(self, no: int, m: re.Match[str]) -> None:
        self.finished = self.num(no, m.group(1), "rounds", 0, 99)
        self.last_yaku = None

    def on_final(self, no: int, m: re.Match[str]) -> None:
        if self.final is not None:
            raise self.fail(no, "expected one final score, found a second")
        self.final = [self.num(no, m.group(1), "P1's score"), self.num(no, m.group(2), "CPU's score")]
        totals = self.totals()
        if self.final != totals:
            raise self.fail(no, f"expected the final score {totals} (the rounds' sum), found {self.final}")
        if self.cur is not None and self.cur.claim is None:
            raise self.fail(no, f"expected the result of round {self.cur.number}, found the final score")
        if not self.rounds or len(self.rounds) != self.n_rounds or self.finished != self.n_rounds:
            raise self.fail(no, f"expected {self.n_rounds} rounds (rounds={self.n_rounds}), found "
                            f"{len(self.rounds)} played and 'Game Finished: rounds={self.finished}'")

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
            if r.floor is None or r.claim is None:  # on_final checked every round has its result
                raise self.fail(r.line, f"expected round {r.number}'s deal and result, found none")
            deals.append({"hands": [_j(r.floor[0:8]), _j(r.floor[8:16])], "field": _j(r.floor[16:24]),
                          "stock": _j(r.floor[24:])})
            actions.extend(r.actions)
            claims.append(r.claim)
        first = self.rounds[0].dealer if self.rounds[0].dealer is not None else 0
        result: dict[str, JsonValue] = {"rounds": claims, "scores": _j(self.final or [])}
        if self.winner in _SIDE:
            result["winners"] = [_SIDE[self.winner]]
        meta: dict[str, JsonValue] = {
            "importer": "battle-hanafuda",
            "source": {"file": self.source, "line": 1},
            "engine": {"name": "Battle Hanafuda (ai_sim)", "repository": REPOSITORY, "commit": COMMIT},
            "log": {"seed": self.seed, "rounds": self.n_rounds},
        }
        options: dict[str, JsonValue] = {} if self.n_rounds == 12 else {"length": str(self.n_rounds)}
        return {"format": FORMAT_1_1, "game": "koikoi", "rules": {"ruleset": RULESET, "options": options},
                "first_dealer": first, "players": list(self.players), "deck": deals[0], "deals": deals[1:],
                "actions": actions, "result": result, "meta": meta, "status": "complete"}


def _j(xs: list[int]) -> list[JsonValue]:
    return list(xs)


IMPORTER = BattleHanafuda()
