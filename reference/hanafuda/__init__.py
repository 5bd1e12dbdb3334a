"""hanafuda: the reference implementation of five historical hanafuda games.

Koi-Koi, Kusuri-gui, Kujuroku, Musashino-Bana and Kekoro, each a :class:`~hanafuda.engine.Game`.
The rules themselves, with their citations, live in the executable spec, :mod:`hanafuda_spec`.

The top level is small, in the manner of python-chess:

* :func:`game` and :func:`all_games` – a game by name (key or alias), and all five;
* :func:`score` – what a capture pile is worth (:class:`PileScore`: yaku and card points);
* :func:`start` – a seeded :class:`Match`; ``match.legal_actions()``, ``match.apply(action)``,
  ``match.snapshot()``, ``match.over`` and ``match.info`` play it (actions are :class:`Action`,
  ``Action.parse("play 31 30")`` from text);
* :func:`record` and :func:`validate` – a game record (``hanafuda-record/1``) of random play, and
  the replay of any record through the rules (:class:`RecordReport`: every problem with its
  location and rule id).

>>> import hanafuda
>>> hanafuda.score("koikoi", [10, 30, 80, 110, 120]).yaku_total
15
>>> m = hanafuda.start("kekoro", seed=3)
>>> while not m.over:
...     m = m.apply(m.legal_actions()[0])
>>> m.info.end_reason
'90-point-lead'

Errors are exceptions derived from ``ValueError``: :class:`UnknownGameError`,
``UnknownCardError`` and ``OptionError`` (from the spec), :class:`IllegalActionError` (which names
the rule broken), :class:`ScoringError`.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable, Mapping
from typing import Any

from hanafuda_spec.cards import BaseCard, Deck

from hanafuda.engine import Action, Game, IllegalActionError, Match, PileScore
from hanafuda.records import RecordReport, record_match, validate_document, validate_stream
from hanafuda.registry import UnknownGameError, available, game

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Game",
    "IllegalActionError",
    "Match",
    "PileScore",
    "RecordReport",
    "ScoringError",
    "UnknownGameError",
    "__version__",
    "all_games",
    "game",
    "record",
    "score",
    "start",
    "validate",
]

AnyGame = Game[Any, Any]


class ScoringError(ValueError):
    """A pile that cannot be scored as asked: a month where no yaku depends on it, a table
    missing where one does (or given where none does), a card both in the pile and on the table.
    ``argument`` is ``"month"`` or ``"table"``, the argument at fault."""

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(message)
        self.argument = argument


def all_games() -> tuple[AnyGame, ...]:
    """The five games, in catalogue order. (Not ``games``: that name is the subpackage
    :mod:`hanafuda.games`, one module per game.)

    >>> [g.spec.key for g in all_games()]
    ['koikoi', 'kusurigui', 'kujuroku', 'musashino', 'kekoro']
    """
    return available()


def _game(g: str | AnyGame) -> AnyGame:
    return game(g) if isinstance(g, str) else g


def _card_texts(cards: Iterable[int | str | BaseCard]) -> list[str]:
    return [str(c.id) if isinstance(c, BaseCard) else str(c) for c in cards]


@functools.lru_cache(maxsize=64)
def _cached_rules(gm: AnyGame, ruleset: str | None, options: tuple[tuple[str, str], ...]) -> Any:
    """``gm.rules(ruleset, options)``, resolved once per (game, ruleset, options): typed rules are
    immutable values, and resolving them (and building their scoring tables) is most of the cost of
    ``score`` otherwise. A bad name or option raises, and nothing is cached."""
    return gm.rules(ruleset, dict(options))


def _rules(gm: AnyGame, ruleset: str | None, options: Mapping[str, str] | None) -> Any:
    """The typed rules, through ``_cached_rules`` when the options make a key (strings sort and
    hash); anything else goes to ``gm.rules`` as it is, to be refused there."""
    try:
        key = tuple(sorted(options.items())) if options else ()
        return _cached_rules(gm, ruleset, key)
    except TypeError:  # unhashable or unorderable option names or values
        return gm.rules(ruleset, options)


_BY_ID: dict[str, dict[int, BaseCard]] = {}


def _parse_pile(deck: Deck, cards: Iterable[int | str | BaseCard]) -> tuple[BaseCard, ...]:
    """``deck.parse_many(_card_texts(cards))``: card objects and ids (ints) are looked up by id
    directly, instead of through their text. Anything else (text, an unknown card, a card given
    twice) takes the text path, which gives the same cards and raises the same errors."""
    items = list(cards)
    by_id = _BY_ID.get(deck.name)
    if by_id is None:
        by_id = _BY_ID[deck.name] = {c.id: c for c in deck.cards}
    out: list[BaseCard] = []
    for c in items:
        found = by_id.get(c.id) if isinstance(c, BaseCard) else by_id.get(c) if type(c) is int else None
        if found is None:
            break
        out.append(found)
    else:
        if len({c.id for c in out}) == len(out):
            return tuple(out)
    return deck.parse_many(_card_texts(items))


def score(g: str | AnyGame, cards: Iterable[int | str | BaseCard], *, ruleset: str | None = None,
          options: Mapping[str, str] | None = None, month: int | None = None,
          table: Iterable[int | str | BaseCard] | None = None) -> PileScore:
    """What a capture pile is worth under a game's rules: its yaku (after the game's exclusivity
    rules) and its card points (None where the game counts none).

    Cards are ids, slugs or card objects. ``month`` (1 to 12) is the round's month, for a
    round-dependent yaku (Koi-Koi's Cards of the Month); ``table`` the cards on the table, for a
    rule that looks at it (Koi-Koi's ``viewing=weather``). Either is refused where the rules do
    not use it, and ``table`` is required where they do: nothing is silently assumed.

    >>> score("kekoro", ["120", "40", "20"]).yaku[0].id
    'mist-island'
    >>> score("koikoi", [30, 31, 32, 33], month=3).yaku_total
    4
    >>> score("koikoi", [30, 90, 80], options={"viewing": "weather"}, table=[110]).yaku_total
    5
    """
    gm = _game(g)
    rules = _rules(gm, ruleset, options)
    if month is not None:
        if not gm.month_matters(rules):
            raise ScoringError("month", f"{gm.spec.name} has no month-dependent yaku under these rules"
                               + (" (month_cards is off)" if gm.spec.key == "koikoi" else ""))
        if not 1 <= month <= 12:
            raise ScoringError("month", f"month {month}: a month is 1 to 12")
    deck = gm.deck(rules)
    pile = _parse_pile(deck, cards)
    if not gm.table_matters(rules):
        if table is not None:
            raise ScoringError("table", f"{gm.spec.name} scores a pile without looking at the table under these rules")
        return gm.score(rules, pile, month)
    if table is None:
        raise ScoringError("table", f"{gm.spec.name}: under these rules a yaku depends on the cards on the table "
                           "(viewing=weather): the table is needed (an empty list for an empty table)")
    on_table = _parse_pile(deck, table)
    both = sorted(c.id for c in set(pile) & set(on_table))
    if both:
        raise ScoringError("table", f"card(s) {', '.join(map(str, both))} cannot be both in the pile and on the table")
    return gm.score_on_table(rules, pile, on_table, month)


def start(g: str | AnyGame, *, seed: int = 0, ruleset: str | None = None, options: Mapping[str, str] | None = None,
          first_dealer: int = 0) -> Match[Any, Any]:
    """A new match, dealt with the documented shuffle from ``seed`` (0 to 2**64-1): the same seed
    gives the same deals on every machine.

    >>> m = start("koikoi", seed=7)
    >>> m.legal_actions()[0]
    Action(kind='play', cards=(13,), label='')
    >>> m = m.apply(Action.parse("play 13"))
    >>> m.snapshot().to_move
    1
    """
    if not 0 <= seed <= 2**64 - 1:
        raise ValueError(f"seed {seed}: a seed is 0 to 2**64-1")
    gm = _game(g)
    return Match.start(gm, gm.rules(ruleset, options), seed, first_dealer)


def record(g: str | AnyGame, *, seed: int = 0, ruleset: str | None = None, options: Mapping[str, str] | None = None,
           snapshots: bool = False) -> dict[str, Any]:
    """The ``hanafuda-record/1`` record (a JSON-ready dict) of one match of random legal play from
    ``seed`` (the seed drives both the deal and the choice of actions, as ``hanafuda record`` does).

    >>> rec = record("musashino", seed=2)
    >>> rec["format"], validate(rec).ok
    ('hanafuda-record/1', True)
    """
    return dict(record_match(_game(g), ruleset, options or {}, seed, seed, snapshots=snapshots))


def validate(doc: Mapping[str, Any] | str | bytes, *, lenient: bool = False) -> RecordReport:
    """Replay one game record through the rules: every action legal, every claimed position and
    result right. ``doc`` is the decoded record or its JSON text. The report's ``problems`` each
    name a location (record, deal, action) and the rule id broken; ``ok`` is true when there are none.

    >>> rec = record("koikoi", seed=5)
    >>> rec["result"]["scores"][0] += 1
    >>> [str(p) for p in validate(rec).problems]  # doctest: +ELLIPSIS
    ['record 1, $.result.scores: [REC-RESULT-2] ...']
    """
    if isinstance(doc, str | bytes):
        data = doc.encode("utf-8") if isinstance(doc, str) else doc
        reports = list(validate_stream(io.BytesIO(data), lenient=lenient))
        if len(reports) != 1:
            raise ValueError(f"validate() takes one record; the text holds {len(reports)} (use validate_stream)")
        return reports[0]
    return validate_document(dict(doc), lenient=lenient)
