"""The five games as OpenSpiel Python games (extra ``hanafuda[openspiel]``).

Importing this module registers ``python_hanafuda_koikoi``, ``python_hanafuda_kusurigui``,
``python_hanafuda_kujuroku``, ``python_hanafuda_musashino`` and ``python_hanafuda_kekoro`` with
``pyspiel.register_game``. Game parameters: ``ruleset`` (the game's default ruleset),
``episode_rounds`` (0: the ruleset's length; N: the episode ends once N rounds have counted), every
option of the catalogue, as a string (``"ruleset"``: the ruleset's value), and ``options``
(``"length:1;viewing:off"``: the way to give a numeric value in a game string, where OpenSpiel reads a
bare number as an integer; the game's own string uses it for them, so that it loads back).

One episode is one whole match. Each deal is a run of chance nodes, **one per card dealt**: the
outcome is the card (its position in :attr:`hanafuda.aiview.Encoding.cards`), uniform among the cards
not yet dealt, top of the deck first; once the deck is complete the game deals it
(:meth:`~hanafuda.engine.Game.start_round`). Player actions are numbered by :mod:`hanafuda.aiview`
and played with :meth:`~hanafuda.engine.Game.apply`; finished rounds are settled with
:meth:`~hanafuda.engine.Game.settle`. Returns, at the end, are each seat's change of score (or
chips) over the match: its settlement.

Observations are per seat (:mod:`hanafuda.aiview`). The information state has perfect recall: its
string lists every observation the seat has had, and its tensor is the current observation followed by
the seat's whole history, as the changes of its observation and its own actions, step by step (room for
``history_events`` of them, :data:`HISTORY`; see ``docs/ai.md``).

>>> import pyspiel
>>> g = pyspiel.load_game("python_hanafuda_koikoi", {"length": "1"})
>>> s = g.new_initial_state()
>>> s.is_chance_node(), len(s.chance_outcomes())
(True, 48)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from hanafuda_spec.neutral import JsonValue, Snapshot

from hanafuda.aiview import Encoding, encoding, episode_record
from hanafuda.engine import Action, MatchInfo, RoundSetup
from hanafuda.registry import game

__all__ = ["GAME_NAMES", "HISTORY", "OPTIONS", "ROUNDS", "HanafudaGame", "HanafudaState", "short_name"]

#: The game keys, in catalogue order.
GAME_NAMES = ("koikoi", "kusurigui", "kujuroku", "musashino", "kekoro")
_FROM_RULESET = "ruleset"
#: The parameter that shortens an episode to its first N counted rounds (0: the whole match). Not
#: ``rounds``: that is an option of Kusuri-gui's.
ROUNDS = "episode_rounds"
#: The parameter giving options as ``key:value;key:value`` (how an option whose value is a number
#: travels in a game string: OpenSpiel reads a bare number there as an integer).
OPTIONS = "options"
#: The parameter giving the room for the history in the information-state tensor: the most events (a
#: change of the seat's observation, or one of its own actions) a seat's history may hold; 0 leaves the
#: history out (the tensor is then the current observation only, which is not perfect recall).
HISTORY = "history_events"
#: Its default: room for whole matches of random play at the rulesets' lengths (a loose bound, not
#: proved: a longer history raises an error naming the parameter, it is never cut short).
DEFAULT_HISTORY = 8192
_OWN = (ROUNDS, OPTIONS, HISTORY)
_NONE = "none"
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
#: Loose bounds on a match's returns and length (OpenSpiel needs them; no proof behind them).
_UTILITY_BOUND = 1_000_000.0
_MAX_LENGTH = 100_000


def short_name(key: str) -> str:
    """The OpenSpiel name of a game: ``python_hanafuda_<key>``."""
    return f"python_hanafuda_{key}"


def _options(params: Mapping[str, Any]) -> dict[str, str]:
    """The option overrides in OpenSpiel parameters: the option parameters not left at ``ruleset``,
    and the pairs of the ``options`` parameter."""
    out = {k: str(v) for k, v in params.items() if k not in ("ruleset", *_OWN) and str(v) != _FROM_RULESET}
    text = str(params.get(OPTIONS, _NONE))
    if text not in (_NONE, ""):
        for pair in text.split(";"):
            k, sep, v = pair.partition(":")
            if not sep or not k or not v:
                raise ValueError(f"options: {pair!r} is not key:value")
            out[k.strip()] = v.strip()
    return out


def _game_type(key: str) -> Any:
    g = game(key)
    enc = encoding(key)
    params: dict[str, Any] = {"ruleset": g.spec.default_ruleset, ROUNDS: 0, OPTIONS: _NONE, HISTORY: DEFAULT_HISTORY}
    params.update({o.key: _FROM_RULESET for o in g.spec.options})
    low = min(g.seats(g.rules(rs.name)) for rs in g.spec.rulesets)
    return pyspiel.GameType(
        short_name=short_name(key), long_name=f"Hanafuda {g.spec.name} (Python)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=enc.seats, min_num_players=min(low, enc.seats),
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)


class _Config:
    """A game's rules and encoding, shared by its states (OpenSpiel deep-copies a state's attributes to
    clone it: these are immutable, so copies share them)."""

    def __init__(self, hgame: Any, enc: Encoding, ruleset: str, options: dict[str, str], rules: Any,
                 rounds: int, history: int = DEFAULT_HISTORY) -> None:
        self.game, self.encoding, self.ruleset, self.options, self.rules = hgame, enc, ruleset, options, rules
        self.rounds, self.history = rounds, history
        cards = hgame.deck(rules).cards
        self.deck = tuple(c.id for c in cards)
        self.by_id = {c.id: c for c in cards}
        #: the chance outcomes of a deal: the deck's cards by their position in the encoding, sorted
        self.outcomes = tuple(sorted(enc.index[c] for c in self.deck))
        #: n -> outcome -> the pair (outcome, 1/n): a chance outcome's entry when n cards are left to deal
        self.pairs: list[dict[int, tuple[int, float]]] = [
            {i: (i, 1.0 / n) for i in self.outcomes} if n else {} for n in range(len(self.deck) + 1)]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _config, (self.game.spec.key, self.ruleset, tuple(sorted(self.options.items())), self.rounds,
                         self.history)


@functools.cache
def _config(key: str, ruleset: str, options: tuple[tuple[str, str], ...], rounds: int,
            history: int = DEFAULT_HISTORY) -> _Config:
    g = game(key)
    opts = dict(options)
    return _Config(g, encoding(key), ruleset, opts, g.rules(ruleset, opts), rounds, history)


class _Progress:
    """The match so far: its info, the round being played (None while dealing), the cards dealt so far,
    and what the record needs. Copied for a clone with its lists copied and its immutable values shared."""

    def __init__(self, config: _Config, info: MatchInfo) -> None:
        self.config = config
        self.steps: list[int] = []  # every chance outcome and action number, to pickle the match
        self.info = info
        self.start_scores = info.scores
        self.round: Any = None
        self.dealing: list[int] = []
        self.left = list(config.outcomes)  # the chance outcomes of the cards not in `dealing`, sorted
        self.orders: list[list[int]] = []
        self.actions: list[Action] = []
        self.counts: list[int] = []
        self.in_deal = 0
        #: after every step but the deal's first cards (nothing shows until a deal is complete): the round
        #: and match info, and the steps made so far (for the information states)
        self.positions: list[tuple[Any, MatchInfo, int]] = []
        self.player = _CHANCE  # who acts next (pyspiel's player ids)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Progress:
        new = _Progress.__new__(_Progress)
        for k, v in self.__dict__.items():
            new.__dict__[k] = v.copy() if isinstance(v, list | set) else v
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        return _replayed, (self.config, tuple(self.steps))


def _replayed(config: _Config, steps: tuple[int, ...]) -> _Progress:
    """The match after ``steps`` (how a pickled state is read back: the round states are not pickled)."""
    p = _Progress(config, config.game.new_match(config.rules, 0))
    for n in steps:
        _step(config, p, n)
    return p


class HanafudaGame(pyspiel.Game):  # type: ignore[misc]
    """One game under one ruleset and options (see the module docstring)."""

    def __init__(self, key: str, params: Mapping[str, Any] | None = None) -> None:
        """The game ``key`` with the OpenSpiel parameters ``params``."""
        given = dict(params or {})
        hgame = game(key)
        ruleset = str(given.get("ruleset", hgame.spec.default_ruleset))
        options = _options(given)
        # options whose value reads as a number travel in the `options` parameter (see OPTIONS)
        given = {k: v if k in ("ruleset", ROUNDS, HISTORY) or not str(v).lstrip("-").isdigit() else _FROM_RULESET
                 for k, v in given.items() if k != OPTIONS}
        numeric = [f"{k}:{v}" for k, v in sorted(options.items()) if v.lstrip("-").isdigit()]
        if numeric:
            given[OPTIONS] = ";".join(numeric)
        rules = hgame.rules(ruleset, options)
        enc = encoding(key)
        info = pyspiel.GameInfo(num_distinct_actions=enc.num_actions, max_chance_outcomes=len(enc.cards),
                                num_players=hgame.seats(rules), min_utility=-_UTILITY_BOUND,
                                max_utility=_UTILITY_BOUND, utility_sum=None, max_game_length=_MAX_LENGTH)
        super().__init__(_TYPES[key], info, given)
        history = int(given.get(HISTORY, DEFAULT_HISTORY))
        if history < 0:
            raise ValueError(f"{HISTORY}: {history} is negative (0 leaves the history out)")
        self.config = _Config(hgame, enc, ruleset, options, rules, int(given.get(ROUNDS, 0)), history)

    def new_initial_state(self) -> HanafudaState:
        """The match before its first card is dealt."""
        return HanafudaState(self, self.config)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer: the observation of :mod:`hanafuda.aiview`; with perfect recall (the information
        state), its string lists every observation the seat has had and its tensor adds the seat's
        history (see :class:`_Observer`)."""
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.config, recall)


class HanafudaState(pyspiel.State):  # type: ignore[misc]
    """A position of the match: between deals, a chance node per card; else the round's position."""

    def __init__(self, g: HanafudaGame, config: _Config) -> None:
        """The match before its first deal."""
        super().__init__(g)
        self.hgame = config
        self.p = _Progress(config, config.game.new_match(config.rules, 0))

    # -- the OpenSpiel state API --------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        return self.p.player

    def _legal_actions(self, player: int) -> list[int]:
        """The numbers of the legal actions of ``player`` (sorted)."""
        if self.p.player != player or player < 0:
            return []
        return self.hgame.encoding.mask(self.hgame.game.legal(self.p.round))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deck: any card not dealt yet, equally likely."""
        left = self.p.left
        return list(map(self.hgame.pairs[len(left)].__getitem__, left))

    def _apply_action(self, number: int) -> None:
        """Deal a card (a chance node) or play an action; settle rounds that end."""
        if self.p.player == _TERMINAL:
            raise ValueError("the match is over: no action is legal")
        _step(self.hgame, self.p, number)

    def _action_to_string(self, player: int, number: int) -> str:
        """An action in the engine's text form; a chance outcome as ``deal <card id>``."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self.hgame.encoding.cards[number]}"
        return str(self.hgame.encoding.decode(number))

    def is_terminal(self) -> bool:
        """Whether the match (or its first ``episode_rounds`` rounds) is over."""
        return self.p.player == _TERMINAL

    def returns(self) -> list[float]:
        """Each seat's change of score over the match, at the end (zeros before)."""
        if self.p.player != _TERMINAL:
            return [0.0] * len(self.p.info.scores)
        return [float(a - b) for a, b in zip(self.p.info.scores, self.p.start_scores, strict=True)]

    def snapshot(self) -> Snapshot:
        """The neutral form of the position (between deals: no zones, phase ``deal``)."""
        return _snapshot(self.hgame, self.p.round, self.p.info)

    def record(self) -> dict[str, JsonValue]:
        """The ``hanafuda-record/1`` record of the finished match (every deck order listed)."""
        g = self.hgame
        if not self.p.info.over:
            raise ValueError("the match is not over (a record is of a whole match)")
        return episode_record(g.game, g.ruleset, g.options, self.p.info, self.p.orders, self.p.actions, self.p.counts)

    def __str__(self) -> str:
        """The position in full (for debugging; it is not what a seat sees)."""
        s = self.snapshot()
        zones = " | ".join(f"{n} {','.join(map(str, c))}" for n, c in s.zones)
        return (f"round {s.round} dealer {s.dealer} to_move {s.to_move} phase {s.phase} scores {s.scores} "
                f"dealing {','.join(map(str, self.p.dealing))} | {zones}")


def _step(g: _Config, p: _Progress, number: int) -> None:
    """Deal a card (while dealing) or play action ``number``; settle the round if it ends."""
    if p.round is None:
        try:
            p.left.remove(number)
        except ValueError:
            raise ValueError(f"chance outcome {number} cannot be dealt now (not a card left to deal)") from None
        p.dealing.append(g.encoding.cards[number])
        p.steps.append(number)
        if len(p.dealing) < len(g.deck):
            return
        order = p.dealing
        p.orders.append(order)
        p.dealing = []
        p.left = list(g.outcomes)
        info = p.info
        setup = RoundSetup(info.rounds_played + 1, info.dealer, g.game.seats_in_play(g.rules, info), info.scores)
        p.round = g.game.start_round(g.rules, [g.by_id[c] for c in order], setup)
    else:
        a = g.encoding.decode(number)
        p.round = g.game.apply(p.round, a)  # (raises IllegalActionError, the match unchanged)
        p.steps.append(number)
        p.actions.append(a)
        p.in_deal += 1
    if g.game.is_terminal(p.round):
        result = g.game.round_result(p.round)
        p.info = g.game.settle(g.rules, p.info, result)
        p.counts.append(p.in_deal)
        p.in_deal = 0
        p.round = None
    p.positions.append((p.round, p.info, len(p.steps)))
    if p.info.over or (g.rounds > 0 and p.info.rounds_played >= g.rounds):
        p.player = _TERMINAL
    elif p.round is None:
        p.player = _CHANCE
    else:
        seat = g.game.to_move(p.round)
        assert seat is not None  # (a round not over has a seat to move)
        p.player = int(seat)


def _snapshot(g: _Config, state: Any, info: MatchInfo) -> Snapshot:
    if state is None:
        over = info.over or (g.rounds > 0 and info.rounds_played >= g.rounds)
        return Snapshot(g.game.spec.key, (), None, "over" if over else "deal", info.dealer,
                        info.rounds_played + (0 if over else 1), info.scores)
    snap: Snapshot = g.game.snapshot(state, info)
    return snap


class _Observer:
    """The PyObserver of a game: :meth:`hanafuda.aiview.Encoding.observe` as the tensor.

    With perfect recall (the information state) and a ``history_events`` room ``H`` > 0, the tensor is
    the current observation (``O`` values), then the number of steps of the match so far (chance
    nodes included), then ``H`` events of three values each, in the order they happened (zeros after
    the last): ``(t, i, v)`` says that after step ``t`` (counted from 1) position ``i`` of the seat's
    observation holds ``v``, and ``(t, O + n, 1)`` that step ``t`` was the seat's own action number
    ``n``. Every observation the seat has had, and its every action, can be read back from it, and
    only those: two histories give the same tensor exactly when the seat cannot tell them apart.
    """

    def __init__(self, g: _Config, recall: bool) -> None:
        self.game = g
        self.recall = recall and g.history > 0
        size = g.encoding.observation_size
        self.tensor: npt.NDArray[np.float32] = np.zeros(size + (1 + 3 * g.history if self.recall else 0),
                                                        np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HanafudaState, player: int) -> None:
        enc = self.game.encoding
        if not self.recall:
            self.tensor[:] = enc.observe(state.snapshot(), player)
            return
        size, room = enc.observation_size, self.game.history
        events = _history(self.game, state.p, player)
        if len(events) > 3 * room:
            raise ValueError(f"{HISTORY}: seat {player}'s history holds {len(events) // 3} events, more than the "
                             f"{room} the game was loaded with: load it with a larger {HISTORY}")
        self.tensor.fill(0.0)
        self.tensor[:size] = enc.observe(state.snapshot(), player)
        self.tensor[size] = len(state.p.steps)
        self.tensor[size + 1:size + 1 + len(events)] = events

    def string_from(self, state: HanafudaState, player: int) -> str:
        enc = self.game.encoding
        if not self.recall:
            return enc.observation_string(state.snapshot(), player)
        seen = [enc.observation_string(_snapshot(self.game, r, i), player) for r, i, _ in state.p.positions]
        return f"seat {player}\n" + "\n".join(seen)


def _history(g: _Config, p: _Progress, seat: int) -> list[float]:
    """The events of ``seat``'s history (see :class:`_Observer`), flat: ``t, i, v`` for each."""
    enc = g.encoding
    size = enc.observation_size
    out: list[float] = []
    before: dict[int, float] = {}
    to_move = g.game.to_move
    actor: int | None = None  # who made the step (None: a chance node)
    for state, info, t in p.positions:
        if actor == seat:
            out += (t, size + p.steps[t - 1], 1)
        ones, at, values = enc.features(_snapshot(g, state, info), seat)
        now = dict.fromkeys(ones, 1.0)
        now.update((i, v) for i, v in zip(at, values, strict=True) if v)
        for i in sorted(now.keys() | before.keys()):
            v = now.get(i, 0.0)
            if before.get(i, 0.0) != v:
                out += (t, i, v)
        before = now
        actor = None if state is None else to_move(state)
    return out


_TYPES = {key: _game_type(key) for key in GAME_NAMES}


def _game_class(key: str) -> type[HanafudaGame]:
    """The registered class of a game: :class:`HanafudaGame` with the game's key."""
    def init(self: HanafudaGame, params: Mapping[str, Any] | None = None) -> None:
        HanafudaGame.__init__(self, key, params)
    name = "Hanafuda" + key.capitalize() + "Game"
    return type(name, (HanafudaGame,), {"__init__": init, "__doc__": f"{key} as an OpenSpiel game."})


for _key in GAME_NAMES:
    pyspiel.register_game(_TYPES[_key], _game_class(_key))
