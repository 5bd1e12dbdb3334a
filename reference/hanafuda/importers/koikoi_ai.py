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
* a game whose ``result.isOver`` is false, or whose last round stops early, is ``abandoned``.

Every drawn card is checked against the pile, every capture against the table and every turn
against the alternation of players: a log that contradicts itself is refused, never repaired.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import FORMAT_1_1

from hanafuda.importers import ImporterError, Record, decode_utf8

__all__ = ["COMMIT", "IMPORTER", "RULESET", "card_id"]

COMMIT = "89d789565c7c36c84b74662e43001d960bf80901"
REPOSITORY = "guansanghai/KoiKoi-AI"
RULESET = "koikoi-japan"  #: the engine profile (Koi-Koi ruleset) these games are played under
ROUNDS = 8  #: ``DefaultVar.DEFAULT_ROUND_TOTAL``


def card_id(v: Any, where: str) -> int:
    """Our card id of a KoiKoi-AI card ``[month, k]``."""
    if (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
            and 1 <= v[0] <= 12 and 1 <= v[1] <= 4):
        return int(10 * v[0] + v[1] - 1)
    raise ImporterError(None, f"{where}: {json.dumps(v)[:40]} is not a KoiKoi-AI card ([month 1-12, 1-4])")


def _cards(v: Any, where: str) -> list[int]:
    if not isinstance(v, list):
        raise ImporterError(None, f"{where}: must be a list of cards")
    return [card_id(c, f"{where}[{i}]") for i, c in enumerate(v)]


def _get(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise ImporterError(None, f"{where}.{key}: missing (not a KoiKoi-AI game record?)")
    return obj[key]


def _numbered(obj: dict[str, Any], prefix: str, where: str) -> list[tuple[int, Any]]:
    out = []
    for k, v in obj.items():
        m = re.fullmatch(prefix + r"([1-9][0-9]{0,3})", k)
        if m:
            out.append((int(m.group(1)), v))
        elif k != "basic":
            raise ImporterError(None, f"{where}.{k}: unexpected field")
    out.sort()
    if [n for n, _ in out] != list(range(1, len(out) + 1)):
        raise ImporterError(None, f"{where}: {prefix}s are not numbered 1, 2, 3, ... (found {[n for n, _ in out]})")
    return out


class KoiKoiAI:
    name = "koikoi-ai"
    summary = "KoiKoi-AI (guansanghai/KoiKoi-AI) JSON game records: one record per game"

    def read(self, source: str, data: bytes) -> list[Record]:
        text = decode_utf8(data)
        if not text.strip():
            raise ImporterError(1, "empty file")
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            early = e.pos >= len(text.rstrip())
            raise ImporterError(e.lineno, f"not JSON, so not a KoiKoi-AI game record (column {e.colno}: {e.msg})"
                                + (" (the file ends early: truncated?)" if early else "")) from None
        except RecursionError:
            raise ImporterError(1, "JSON nested too deeply") from None
        try:
            return [self.game(doc, source)]
        except ImporterError as f:
            raise ImporterError(f.line if f.line is not None else 1, f.what) from None

    def game(self, doc: Any, source: str) -> Record:
        if not isinstance(doc, dict):
            raise ImporterError(None, "$: a KoiKoi-AI game record is a JSON object")
        info, result, record = (_get(doc, k, "$") for k in ("info", "result", "record"))
        if not isinstance(record, dict) or not isinstance(info, dict) or not isinstance(result, dict):
            raise ImporterError(None, "$: info, result and record must be objects")
        names = [info.get("player1Name"), info.get("player2Name")]
        players = [n if isinstance(n, str) and n else f"player {i + 1}" for i, n in enumerate(names)]
        init = [_int(_get(info, f"player{i}InitPts", "$.info"), f"$.info.player{i}InitPts") for i in (1, 2)]
        n_rounds = _int(_get(info, "numRound", "$.info"), "$.info.numRound")
        if n_rounds != ROUNDS:
            raise ImporterError(None, f"$.info.numRound: a game of {n_rounds} rounds; the {RULESET} profile "
                                f"plays {ROUNDS}")
        rounds = _numbered(record, "round", "$.record")
        actions: list[JsonValue] = []
        deals: list[JsonValue] = []
        claims: list[JsonValue] = []
        totals = [0, 0]
        first_dealer = None
        complete = True
        for n, rnd in rounds:
            where = f"$.record.round{n}"
            got = self.round(rnd, where)
            if got is None:
                complete = False
                break
            dealer, deal, acts, deltas, finished = got
            if first_dealer is None:
                first_dealer = dealer
            actions.extend(acts)
            deals.append(deal)
            if not finished:
                complete = False
                break
            claims.append({"actions": len(acts), "deltas": _j(deltas)})
            totals = [totals[0] + deltas[0], totals[1] + deltas[1]]
        is_over = result.get("isOver")
        status = "complete" if is_over is True and complete and len(claims) == ROUNDS else "abandoned"
        scores = [init[0] + totals[0], init[1] + totals[1]]
        if status == "complete":
            ends = [_int(_get(result, f"player{i}EndPts", "$.result"), f"$.result.player{i}EndPts") for i in (1, 2)]
            if scores != ends:
                raise ImporterError(None, f"$.result: the end points are {ends}, but {init} and the rounds' points "
                                    f"make {scores}")
        if not deals:
            raise ImporterError(None, "$.record: no round was dealt")
        gw = result.get("gameWinner")
        res: dict[str, JsonValue] = {"rounds": claims, "scores": _j(scores)}
        if status == "complete" and gw in (1, 2):
            res["winners"] = [gw - 1]
        meta: dict[str, JsonValue] = {
            "importer": self.name,
            "source": {"file": source, "line": 1},
            "engine": {"name": "KoiKoi-AI", "repository": REPOSITORY, "commit": COMMIT,
                       "file": "koikoigame.py"},
            "log": {k: info[k] for k in ("startTime", "endTime") if isinstance(info.get(k), str)}
            | {"start_points": _j(init), "rounds": n_rounds, "is_over": bool(is_over)},
        }
        return {"format": FORMAT_1_1, "game": "koikoi", "rules": {"ruleset": RULESET, "options": {}},
                "first_dealer": first_dealer if first_dealer is not None else 0, "players": list(players),
                "deck": deals[0], "deals": deals[1:], "actions": actions, "result": res,
                "meta": meta, "status": status}

    def round(self, rnd: Any, where: str) -> tuple[int, JsonValue, list[JsonValue], list[int], bool] | None:
        """One round: its dealer seat, deal (zones), actions, deltas and whether it was played out."""
        basic = _get(rnd, "basic", where)
        dealer_no = _get(basic, "Dealer", f"{where}.basic")
        if dealer_no not in (1, 2):
            raise ImporterError(None, f"{where}.basic.Dealer: {json.dumps(dealer_no)[:20]} is not player 1 or 2")
        dealer = dealer_no - 1
        hands = [_cards(_get(basic, f"initHand{i}", f"{where}.basic"), f"{where}.basic.initHand{i}") for i in (1, 2)]
        table = _cards(_get(basic, "initBoard", f"{where}.basic"), f"{where}.basic.initBoard")
        pile = _cards(_get(basic, "initPile", f"{where}.basic"), f"{where}.basic.initPile")
        every = hands[0] + hands[1] + table + pile
        if sorted(every) != [10 * m + k for m in range(1, 13) for k in range(4)]:
            dup = sorted({c for c in every if every.count(c) > 1})
            raise ImporterError(None, f"{where}.basic: the deal is not the 48-card deck"
                                + (f" (card(s) {dup} twice)" if dup else f" ({len(every)} cards)"))
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
                raise ImporterError(None, f"{tw}: a turn after the round ended")
            seat_no = _get(t, "playerInTurn", tw)
            want = dealer if n % 2 == 1 else 1 - dealer
            if seat_no != want + 1:
                raise ImporterError(None, f"{tw}.playerInTurn: {json.dumps(seat_no)[:20]}; player {want + 1} "
                                    f"is to play (the dealer, player {dealer + 1}, plays odd turns)")
            seat = want
            played = card_id(_get(t, "discardCard", tw), f"{tw}.discardCard")
            if played not in hand[seat]:
                raise ImporterError(None, f"{tw}.discardCard: card {played} is not in player {seat + 1}'s hand")
            hand[seat].discard(played)
            took = self.capture(played, _cards(_get(t, "collectCard", tw), f"{tw}.collectCard"), field,
                                f"{tw}.collectCard")
            acts.append({"action": f"play {played}", "captures": took})
            if not stock:
                raise ImporterError(None, f"{tw}.drawCard: the draw pile is empty")
            drawn = card_id(_get(t, "drawCard", tw), f"{tw}.drawCard")
            if drawn != stock[0]:
                raise ImporterError(None, f"{tw}.drawCard: card {drawn}, but the pile's next card is {stock[0]}")
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
                raise ImporterError(None, f"{tw}.isKoiKoi: {json.dumps(call)[:20]} is not true, false or null")
            if n == 16:
                finished = True
        p1, p2 = basic.get("player1RoundPts"), basic.get("player2RoundPts")
        if not finished or not isinstance(p1, int) or not isinstance(p2, int):
            return None if not turns else (dealer, deal, acts, [0, 0], False)
        return dealer, deal, acts, [p1, p2], True

    @staticmethod
    def capture(card: int, collected: list[int], field: set[int], where: str) -> list[JsonValue]:
        """The table cards a played or drawn card took (the log lists the card itself with them),
        checked against the table; the table is updated."""
        took = [c for c in collected if c != card]
        if collected and card not in collected:
            raise ImporterError(None, f"{where}: lists {collected} without the card {card} that took them")
        for c in took:
            if c not in field:
                raise ImporterError(None, f"{where}: card {c} is not on the table")
            if c // 10 != card // 10:
                raise ImporterError(None, f"{where}: card {c} is not of the month of card {card}")
        if took:
            field.difference_update(took)
        else:
            field.add(card)
        return list(took)


def _j(xs: list[int]) -> list[JsonValue]:
    return list(xs)


def _int(v: Any, where: str) -> int:
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    raise ImporterError(None, f"{where}: must be an integer")


IMPORTER = KoiKoiAI()
