"""Importer ``koikoi-ai``: the JSON game records of guansanghai/KoiKoi-AI (MIT).

One file is one game (``info``, ``result``, ``record.round1`` ... ``roundN``), one record. The
mapping was read from the engine's own code (repository ``guansanghai/KoiKoi-AI``, commit
:data:`COMMIT`, ``koikoigame.py``), class ``KoiKoiRoundStateBase``:

* cards are ``[month, k]`` with ``k`` 1..4 in the order of our ids within a month (``KoiKoiCard``
  lists the Bright/Animal/Ribbon/Chaff sets): card ``[m, k]`` is our ``10*m + k - 1``. The engine
  does not tell the three Paulownia chaff apart; ``[12, 2]`` is read as our 121 (the yellow one),
  which matters only under ``chaff_doubles=on``, never in the engine's rules;
* ``basic``: ``initHand1``/``initHand2`` are seats 0/1, ``initBoard`` the table, ``initPile`` the
  draw pile drawn from its end (``draw`` pops it), so the pile top first is ``initPile`` reversed;
  ``Dealer`` (1 or 2) plays first;
* a turn (``turnN``, ``playerInTurn``) plays ``discardCard`` taking ``collectCard`` (the played card
  and the table cards, or nothing), then turns ``drawCard`` taking ``collectCard2``; ``isKoiKoi``
  ``true`` is a koi-koi call, ``false`` the end of the round by its player (the engine writes
  ``false`` both for a stop chosen and for the stop forced on the last turn), ``null`` no decision;
* ``player1RoundPts``/``player2RoundPts`` are the round's deltas; the game starts at
  ``player1InitPts``/``player2InitPts`` points (30, the profile's ``start_points``) and the record's
  scores are ``player1EndPts``/``player2EndPts`` (checked: the start plus the rounds' points);
* the game ends after round 8, or after a round that leaves a player with 0 points or fewer
  (``KoiKoiGameStateBase.new_round``; the profile's ``game_end=zero``): ``result.isOver`` true is a
  played-out game (checked: it has ended so), false an ``abandoned`` one, whose last round may stop
  early (its points, and ``roundWinner``, still null).

Every value is checked for its type (an integer is never ``2.0``, ``true`` or ``NaN``; numbers are
bounded before conversion) and every field is one the engine writes (``pairCard`` and ``pairCard2``,
which newer versions write in a turn, are read past): anything else is refused, "expected ..., found
...".

Every drawn card is checked against the pile, every capture against the table and every turn
against the alternation of players: a log that contradicts itself is refused, never repaired.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import FORMAT_1_1

from hanafuda.importers import MAX_DIGITS, ImporterError, Record, decode_utf8, shown

__all__ = ["COMMIT", "IMPORTER", "RULESET", "card_id"]

COMMIT = "89d789565c7c36c84b74662e43001d960bf80901"
REPOSITORY = "guansanghai/KoiKoi-AI"
RULESET = "koikoi-japan"  #: the engine profile (Koi-Koi ruleset) these games are played under
ROUNDS = 8  #: ``DefaultVar.DEFAULT_ROUND_TOTAL``
_DECK = [10 * m + k for m in range(1, 13) for k in range(4)]


def card_id(v: Any, where: str) -> int:
    """Our card id of a KoiKoi-AI card ``[month, k]``."""
    if (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
            and 1 <= v[0] <= 12 and 1 <= v[1] <= 4):
        return int(10 * v[0] + v[1] - 1)
    raise ImporterError(None, f"{where}: expected a KoiKoi-AI card [month 1-12, 1-4], found {shown(v)}")


def _cards(v: Any, where: str) -> list[int]:
    if not isinstance(v, list) or len(v) > 48:
        raise ImporterError(None, f"{where}: expected a list of at most 48 cards, found {shown(v)}")
    return [card_id(c, f"{where}[{i}]") for i, c in enumerate(v)]


def _get(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise ImporterError(None, f"{where}.{key}: expected the field, found none (not a KoiKoi-AI game record?)")
    return obj[key]


def _obj(obj: Any, key: str, where: str, fields: frozenset[str] | None = None) -> dict[str, Any]:
    """The object ``obj[key]``, whose fields, if ``fields`` is given, are among those the engine writes."""
    v = _get(obj, key, where)
    if not isinstance(v, dict):
        raise ImporterError(None, f"{where}.{key}: expected an object, found {shown(v)}")
    if fields is not None:
        for k in v:
            if k not in fields:
                raise ImporterError(None, f"{where}.{key}: expected the fields {', '.join(sorted(fields))}, "
                                    f"found {shown(k)}")
    return v


def _numbered(obj: dict[str, Any], prefix: str, where: str) -> list[tuple[int, Any]]:
    out = []
    for k, v in obj.items():
        m = re.fullmatch(prefix + r"([1-9][0-9]{0,3})", k)
        if m:
            out.append((int(m.group(1)), v))
        elif k != "basic":
            raise ImporterError(None, f"{where}: expected {prefix}1, {prefix}2, ..., found the field {shown(k)}")
    out.sort()
    if [n for n, _ in out] != list(range(1, len(out) + 1)):
        raise ImporterError(None, f"{where}: expected {prefix}s numbered 1, 2, 3, ..., found "
                            f"{[n for n, _ in out][:20]}")
    return out


_TOP = frozenset({"info", "result", "save", "record"})
_INFO = frozenset({"startTime", "endTime", "player1Name", "player2Name", "player1InitPts", "player2InitPts",
                   "numRound"})
_RESULT = frozenset({"isOver", "gameWinner", "player1EndPts", "player2EndPts"})
_BASIC = frozenset({"Dealer", "initHand1", "initHand2", "initBoard", "initPile", "roundWinner", "player1RoundPts",
                    "player2RoundPts"})
_TURN = frozenset({"playerInTurn", "discardCard", "pairCard", "collectCard", "drawCard", "pairCard2",
                   "collectCard2", "isKoiKoi"})
#: The bound on any point total in a log (the engine's totals stay within a few hundred).
_POINTS = 10**6


class _HugeNumberError(Exception):
    """A JSON number the importer will not convert (raised by the parser, located afterwards)."""


def _parse_float(text: str) -> float:  # (integers are converted by the parser's C code, bounded below)
    if len(text) > 100:
        raise _HugeNumberError(text[:60])
    return float(text)


def _no_constant(name: str) -> Any:
    raise _HugeNumberError(name)


def _long_number(text: str) -> str:
    """The first number of ``text`` longer than :data:`MAX_DIGITS` digits (one pass), cut short."""
    for m in re.finditer(r"[0-9]+", text):
        if m.end() - m.start() > MAX_DIGITS:
            return text[m.start():m.start() + 60]
    return ""


class KoiKoiAI:
    name = "koikoi-ai"
    summary = "KoiKoi-AI (guansanghai/KoiKoi-AI) JSON game records: one record per game"

    def read(self, source: str, data: bytes) -> list[Record]:
        text = decode_utf8(data)
        if not text.strip():
            raise ImporterError(1, "expected a KoiKoi-AI game record (JSON), found an empty file")
        try:
            doc = json.loads(text, parse_float=_parse_float, parse_constant=_no_constant)
        except json.JSONDecodeError as e:
            early = e.pos >= len(text.rstrip())
            raise ImporterError(e.lineno, f"expected JSON (a KoiKoi-AI game record), found an error at column "
                                f"{e.colno}: {e.msg}"
                                + (" (the file ends early: truncated?)" if early else "")) from None
        except _HugeNumberError as e:
            at = text.find(str(e))
            line = text.count("\n", 0, at) + 1 if at >= 0 else 1
            what = (f"a number of at most {MAX_DIGITS} digits" if str(e)[-1:].isdigit() or str(e).endswith(".")
                    else "a JSON number")
            raise ImporterError(line, f"expected {what}, found {shown(str(e), 30)}") from None
        except ValueError:  # an integer beyond Python's conversion limit (4,300 digits)
            number = _long_number(text)
            at = text.find(number) if number else -1
            raise ImporterError(text.count("\n", 0, max(0, at)) + 1, f"expected a number of at most {MAX_DIGITS} "
                                f"digits, found {shown(number, 30)}") from None
        except RecursionError:
            raise ImporterError(1, "expected a KoiKoi-AI game record, found JSON nested too deeply") from None
        try:
            return [self.game(doc, source)]
        except ImporterError as f:
            raise ImporterError(f.line if f.line is not None else 1, f.what) from None

    def game(self, doc: Any, source: str) -> Record:
        if not isinstance(doc, dict):
            raise ImporterError(None, f"$: expected a KoiKoi-AI game record (a JSON object), found {shown(doc)}")
        for k in doc:
            if k not in _TOP:
                raise ImporterError(None, f"$: expected the fields {', '.join(sorted(_TOP))}, found {shown(k)}")
        info, result = _obj(doc, "info", "$", _INFO), _obj(doc, "result", "$", _RESULT)
        record = _obj(doc, "record", "$")
        names = [info.get("player1Name"), info.get("player2Name")]
        players = [n if isinstance(n, str) and n else f"player {i + 1}" for i, n in enumerate(names)]
        init = [_int(_get(info, f"player{i}InitPts", "$.info"), f"$.info.player{i}InitPts") for i in (1, 2)]
        n_rounds = _int(_get(info, "numRound", "$.info"), "$.info.numRound", 1, 1000)
        if n_rounds != ROUNDS:
            raise ImporterError(None, f"$.info.numRound: expected {ROUNDS} (the {RULESET} profile's game), "
                                f"found {n_rounds}")
        rounds = _numbered(record, "round", "$.record")
        if not rounds:
            raise ImporterError(None, "$.record: expected round1, found no round")
        is_over = _get(result, "isOver", "$.result")
        if not isinstance(is_over, bool):
            raise ImporterError(None, f"$.result.isOver: expected true or false, found {shown(is_over)}")
        actions: list[JsonValue] = []
        deals: list[JsonValue] = []
        claims: list[JsonValue] = []
        scores = list(init)
        first_dealer = None
        complete = True
        for n, rnd in rounds:
            where = f"$.record.round{n}"
            if not complete:
                raise ImporterError(None, f"{where}: expected no round after an unfinished one, found one")
            if claims and (n > ROUNDS or min(scores) <= 0):
                raise ImporterError(None, f"{where}: expected the game to be over after round {n - 1} (scores "
                                    f"{scores}), found another round")
            dealer, deal, acts, deltas = self.round(rnd, where)
            if first_dealer is None:
                first_dealer = dealer
            actions.extend(acts)
            deals.append(deal)
            if deltas is None:
                complete = False
                continue
            claims.append({"actions": len(acts), "deltas": _j(deltas)})
            scores = [scores[0] + deltas[0], scores[1] + deltas[1]]
        # the engine's game ends after its last round, or after a round that leaves a player at 0 points
        # or fewer (KoiKoiGameStateBase.new_round; the profile's game_end=zero)
        over = complete and (len(claims) == ROUNDS or min(scores) <= 0)
        if is_over and not over:
            raise ImporterError(None, f"$.result.isOver: expected false ({len(claims)} round(s) played, scores "
                                f"{scores}), found true")
        status = "complete" if is_over else "abandoned"
        res: dict[str, JsonValue] = {"rounds": claims, "scores": _j(scores)}
        if is_over:
            ends = [_int(_get(result, f"player{i}EndPts", "$.result"), f"$.result.player{i}EndPts") for i in (1, 2)]
            if scores != ends:
                raise ImporterError(None, f"$.result: expected end points {scores} ({init} and the rounds' points), "
                                    f"found {ends}")
            gw = _int(_get(result, "gameWinner", "$.result"), "$.result.gameWinner", 0, 2)
            want = 1 if scores[0] > scores[1] else 2 if scores[0] < scores[1] else 0
            if gw != want:
                raise ImporterError(None, f"$.result.gameWinner: expected {want} (the end points {scores}), "
                                    f"found {gw}")
            if gw:
                res["winners"] = [gw - 1]
        meta: dict[str, JsonValue] = {
            "importer": self.name,
            "source": {"file": source, "line": 1},
            "engine": {"name": "KoiKoi-AI", "repository": REPOSITORY, "commit": COMMIT,
                       "file": "koikoigame.py"},
            "log": {k: info[k] for k in ("startTime", "endTime") if isinstance(info.get(k), str)}
            | {"start_points": _j(init), "rounds": n_rounds, "is_over": is_over},
        }
        return {"format": FORMAT_1_1, "game": "koikoi", "rules": {"ruleset": RULESET, "options": {}},
                "first_dealer": first_dealer if first_dealer is not None else 0, "players": list(players),
                "deck": deals[0], "deals": deals[1:], "actions": actions, "result": res,
                "meta": meta, "status": status}

    def round(self, rnd: Any, where: str) -> tuple[int, JsonValue, list[JsonValue], list[int] | None]:
        """One round: its dealer seat, deal (zones), actions and deltas (None: not played out)."""
        if not isinstance(rnd, dict):
            raise ImporterError(None, f"{where}: expected an object, found {shown(rnd)}")
        basic = _obj(rnd, "basic", where, _BASIC)
        dealer = _int(_get(basic, "Dealer", f"{where}.basic"), f"{where}.basic.Dealer", 1, 2) - 1
        hands = [_cards(_get(basic, f"initHand{i}", f"{where}.basic"), f"{where}.basic.initHand{i}") for i in (1, 2)]
        table = _cards(_get(basic, "initBoard", f"{where}.basic"), f"{where}.basic.initBoard")
        pile = _cards(_get(basic, "initPile", f"{where}.basic"), f"{where}.basic.initPile")
        every = hands[0] + hands[1] + table + pile
        if sorted(every) != _DECK:
            dup = sorted({c for c, k in Counter(every).items() if k > 1})
            raise ImporterError(None, f"{where}.basic: expected the 48-card deck, found "
                                + (f"card(s) {dup[:10]} twice" if dup else f"{len(every)} cards"))
        stock = list(reversed(pile))  # the engine draws from the end of initPile
        deal: JsonValue = {"hands": [_j(h) for h in hands], "field": _j(table), "stock": _j(stock)}
        hand = [set(hands[0]), set(hands[1])]
        field = set(table)
        acts: list[JsonValue] = []
        turns = _numbered(rnd, "turn", where)
        finished = False
        for n, t in turns:
            tw = f"{where}.turn{n}"
            if finished:
                raise ImporterError(None, f"{tw}: expected no turn after the round ended, found one")
            if not isinstance(t, dict):
                raise ImporterError(None, f"{tw}: expected an object, found {shown(t)}")
            for k in t:
                if k not in _TURN:
                    raise ImporterError(None, f"{tw}: expected the fields {', '.join(sorted(_TURN))}, "
                                        f"found {shown(k)}")
            want = dealer if n % 2 == 1 else 1 - dealer
            seat_no = _int(_get(t, "playerInTurn", tw), f"{tw}.playerInTurn", 1, 2)
            if seat_no != want + 1:
                raise ImporterError(None, f"{tw}.playerInTurn: expected {want + 1} (the dealer, player "
                                    f"{dealer + 1}, plays odd turns), found {seat_no}")
            seat = want
            played = card_id(_get(t, "discardCard", tw), f"{tw}.discardCard")
            if played not in hand[seat]:
                raise ImporterError(None, f"{tw}.discardCard: expected a card of player {seat + 1}'s hand, "
                                    f"found {played}")
            hand[seat].discard(played)
            took = self.capture(played, _cards(_get(t, "collectCard", tw), f"{tw}.collectCard"), field,
                                f"{tw}.collectCard")
            acts.append({"action": f"play {played}", "captures": took})
            if not stock:
                raise ImporterError(None, f"{tw}.drawCard: expected no draw (the draw pile is empty), found one")
            drawn = card_id(_get(t, "drawCard", tw), f"{tw}.drawCard")
            if drawn != stock[0]:
                raise ImporterError(None, f"{tw}.drawCard: expected the pile's next card {stock[0]}, found {drawn}")
            stock.pop(0)
            took2 = self.capture(drawn, _cards(_get(t, "collectCard2", tw), f"{tw}.collectCard2"), field,
                                 f"{tw}.collectCard2")
            acts.append({"draw": drawn, "captures": took2})
            call = _get(t, "isKoiKoi", tw)
            if call is True:
                acts.append("koikoi")
            elif call is False:
                acts.append("stop")
                finished = True
            elif call is not None:
                raise ImporterError(None, f"{tw}.isKoiKoi: expected true, false or null, found {shown(call)}")
            if n == 16:
                finished = True
        p1, p2, rw = (basic.get(k) for k in ("player1RoundPts", "player2RoundPts", "roundWinner"))
        if not finished:  # the engine writes the round's points (and winner) as null until it is over
            for k, v in (("player1RoundPts", p1), ("player2RoundPts", p2), ("roundWinner", rw)):
                if v is not None:
                    raise ImporterError(None, f"{where}.basic.{k}: expected null (the round is not over), "
                                        f"found {shown(v)}")
            return dealer, deal, acts, None
        deltas = [_int(_get(basic, f"player{i}RoundPts", f"{where}.basic"), f"{where}.basic.player{i}RoundPts")
                  for i in (1, 2)]
        _int(_get(basic, "roundWinner", f"{where}.basic"), f"{where}.basic.roundWinner", 0, 2)
        return dealer, deal, acts, deltas

    @staticmethod
    def capture(card: int, collected: list[int], field: set[int], where: str) -> list[JsonValue]:
        """The table cards a played or drawn card took (the log lists the card itself with them),
        checked against the table; the table is updated."""
        took = [c for c in collected if c != card]
        if collected and len(took) != len(collected) - 1:
            raise ImporterError(None, f"{where}: expected the card {card} once with the cards it took, found "
                                f"{collected}")
        if len(set(took)) != len(took):
            raise ImporterError(None, f"{where}: expected each card taken once, found {collected}")
        for c in took:
            if c not in field:
                raise ImporterError(None, f"{where}: expected cards on the table, found {c}")
            if c // 10 != card // 10:
                raise ImporterError(None, f"{where}: expected cards of the month of card {card}, found {c}")
        if took:
            field.difference_update(took)
        else:
            field.add(card)
        return list(took)


def _j(xs: list[int]) -> list[JsonValue]:
    return list(xs)


def _int(v: Any, where: str, low: int = -_POINTS, high: int = _POINTS) -> int:
    """An integer from ``low`` to ``high``: never a float (``2.0``), a boolean or null."""
    if isinstance(v, int) and not isinstance(v, bool) and low <= v <= high:
        return v
    raise ImporterError(None, f"{where}: expected an integer {low} to {high}, found {shown(v)}")


IMPORTER = KoiKoiAI()
