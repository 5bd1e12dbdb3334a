"""The five games as PettingZoo AEC environments, and a Gymnasium single-agent view (extra
``hanafuda[pettingzoo]``).

:func:`env` follows PettingZoo's ``env()`` convention. One episode is one whole match at the ruleset's
length (``rounds`` may shorten it); agents are ``player_0`` … (seat order). Every step goes through
:meth:`hanafuda.engine.Match.apply`: an action number outside the legal ones raises the engine's
:class:`~hanafuda.engine.IllegalActionError` (nothing is silently replaced). Observations are dicts
``{"observation": float32 vector, "action_mask": int8 vector}`` laid out by :mod:`hanafuda.aiview`; the
reward of a step is the change of each seat's score (or chips) it caused, so that an agent's
rewards add up to the match's settlement. ``max_cycles`` truncates the episode once an agent has
acted that many times. An action space's ``sample()`` without a mask draws among the agent's legal
actions (:class:`LegalActions`).

:func:`parallel_env` gives the same match as a parallel environment: PettingZoo's ``aec_to_parallel``
over the AEC environment built with ``cycle=True``, where the agents act in a fixed cycle (``player_0``,
``player_1``, …) and a cycle makes one step of the game: the seat to move when the cycle begins acts in
its slot, and every other agent plays the one extra action :attr:`HanafudaEnv.wait` (the last number,
legal only then); the episode ends at the end of a cycle.

>>> e = env("koikoi", options={"length": "1"})
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["action_mask"].sum() > 0, terminated
(np.True_, False)
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from hanafuda_spec.neutral import JsonValue, Snapshot
from hanafuda_spec.shuffle import SplitMix64, shuffled
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import aec_to_parallel

from hanafuda.aiview import Encoding, encoding, episode_record
from hanafuda.engine import Action, Match
from hanafuda.registry import game

__all__ = ["HanafudaEnv", "LegalActions", "SingleAgentEnv", "env", "parallel_env"]

Observation = dict[str, npt.NDArray[Any]]
#: A scripted opponent: the action number to play, given its observation dict.
Opponent = Callable[[Observation], int]


class LegalActions(spaces.Discrete):
    """The action space of an agent: ``Discrete(n)``, whose :meth:`sample` without a mask draws among the
    agent's legal actions now (its environment's action mask), so that code sampling the space plays
    by the rules (PettingZoo's ``max_cycles_test`` does). An agent with no legal action gets ``start``."""

    def __init__(self, n: int, env: HanafudaEnv, agent: str) -> None:
        """The space of ``agent`` in ``env`` (held weakly: a copied space samples without a mask)."""
        super().__init__(n)
        self._env = weakref.ref(env)
        self._agent = agent

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A legal action of the agent (with ``mask`` or ``probability``: ``Discrete.sample``'s)."""
        e = self._env()
        if mask is None and probability is None and e is not None and e._match is not None:
            mask = e.observe(self._agent)["action_mask"]
        return super().sample(mask, probability)

    def __reduce__(self) -> tuple[Any, ...]:
        return spaces.Discrete, (self.n,)


class HanafudaEnv(AECEnv):  # type: ignore[misc]  # (pettingzoo is untyped)
    """A match of one game as an AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "hanafuda_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, game_name: str, ruleset: str | None = None, options: Mapping[str, str] | None = None,
                 render_mode: str | None = None, max_cycles: int | None = None, rounds: int | None = None,
                 first_dealer: int = 0, cycle: bool = False, seed: int | None = None) -> None:
        """The environment of ``game_name`` under ``ruleset`` and ``options`` (raises the catalogue's
        ``OptionError`` for an unknown option or value). ``cycle``: the agents act in a fixed cycle (see
        the module docstring); ``seed``: the generator of the match seeds, until :meth:`reset` is given
        one."""
        super().__init__()
        self.game = game(game_name)
        self.ruleset = ruleset
        self.options = dict(options or {})
        self.rules = self.game.rules(ruleset, self.options)
        self.encoding: Encoding = encoding(self.game.spec.key)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.rounds = rounds
        self.first_dealer = first_dealer
        self.cycle = cycle
        self.metadata = {**self.metadata, "name": f"hanafuda_{self.game.spec.key}_v0", "is_parallelizable": cycle}
        seats = self.game.seats(self.rules)
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        n, size = self.wait + cycle, self.encoding.observation_size
        self._mask_size = n
        obs = spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                           "action_mask": spaces.Box(0, 1, (n,), np.int8)})
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: LegalActions(n, self, a) for a in self.possible_agents}
        self._rng = np.random.default_rng(seed)
        self._match: Match[Any, Any] | None = None

    @property
    def wait(self) -> int:
        """The action of an agent waiting in its slot of a cycle (in cycle form, the last number):
        :attr:`~hanafuda.aiview.Encoding.num_actions`."""
        return self.encoding.num_actions

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space: ``Discrete(Encoding.num_actions)``."""
        return self.action_spaces[agent]

    @property
    def match(self) -> Match[Any, Any]:
        """The match being played (after :meth:`reset`)."""
        if self._match is None:
            raise RuntimeError("call reset() before using the environment")
        return self._match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match. The match seed is drawn from a generator seeded with ``seed`` (so the same
        ``seed`` gives the same match); it is kept in ``seed``, for the record."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.seed = int(self._rng.integers(0, 2**63))
        self._match = Match.start(self.game, self.rules, self.seed, self.first_dealer)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._turns = dict.fromkeys(self.agents, 0)
        self.actions: list[Action] = []
        self.counts: list[int] = [0] * len(self._match.info.history)
        self._in_deal = 0
        self._snap: tuple[Match[Any, Any], Snapshot] | None = None
        self._actor: int | None = None  # in cycle form, the seat that acts in this cycle (None: done)
        self._rewarded = False  # whether the last step's rewards are not all zero
        self._end_if_done()
        self.agent_selection = self._selected()

    def _selected(self, after: str | None = None) -> str:
        if self.cycle:  # the next agent in the cycle; at a cycle's start, the seat that acts in it
            i = 0 if after is None else (self._seats[after] + 1) % len(self.possible_agents)
            if i == 0:
                self._actor = None if self._finished() else self.game.to_move(self.match.state)
            return self.possible_agents[i]
        seat = self.game.to_move(self.match.state)
        return self.agents[0] if seat is None or self.match.over else self.possible_agents[seat]

    def _finished(self) -> bool:
        m = self.match
        return m.over or (self.rounds is not None and m.info.rounds_played >= self.rounds)

    def _to_move(self, seat: int) -> bool:
        """Whether ``seat`` is to move (in cycle form: it is the seat to move when the cycle began, and
        it has not acted yet in it)."""
        if self.cycle:
            return seat == self._actor
        m = self.match
        return not self._finished() and self.game.to_move(m.state) == seat

    def _end_if_done(self, agent: str | None = None) -> None:
        if self.cycle and agent is not None and agent != self.possible_agents[-1]:
            return  # (the episode ends at the end of a cycle)
        m = self.match
        if m.over or (self.rounds is not None and m.info.rounds_played >= self.rounds):
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and max(self._turns.values()) >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)

    def _snapshot(self) -> Snapshot:
        m = self.match
        if self._snap is None or self._snap[0] is not m:
            self._snap = (m, m.snapshot())
        return self._snap[1]

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees, and its legal actions (none unless it is to move)."""
        seat = self._seats[agent]
        m = self._match or self.match  # (the property raises before reset())
        enc = self.encoding
        obs = np.frombuffer(enc.observation_bytes(m.game, m.state, m.info, seat), np.float32)
        mask = bytearray(self._mask_size)
        if not (self.terminations.get(agent, True) or self.truncations.get(agent, True)):
            # (not done: the match is not finished, _end_if_done would have said so)
            if m.game.to_move(m.state) == seat if not self.cycle else self._to_move(seat):
                enc.mark(m.legal_actions(), mask)
            elif self.cycle:
                mask[self.wait] = 1
        return {"observation": obs, "action_mask": np.frombuffer(mask, np.int8)}

    def step(self, action: int | None) -> None:
        """Play action number ``action`` for the agent to move (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is not an action")
        if self.cycle and not self._to_move(self._seats[agent]):
            if int(action) != self.wait:
                raise ValueError(f"{agent} is not to move: its action must be {self.wait} (wait), not {int(action)}")
            self._cumulative_rewards[agent] = 0.0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
            self._turns[agent] += 1
            self._end_if_done(agent)
            self._accumulate_rewards()
            self.agent_selection = self._selected(agent)
            return
        m = self._match or self.match
        a = self.encoding.decode(int(action))
        info = m.info
        after = m.apply(a)
        self._match = after
        self.actions.append(a)
        self._in_deal += 1
        self._cumulative_rewards[agent] = 0.0
        self._actor = None
        self._turns[agent] += 1
        if after.info is info:  # no round ended (nothing was settled): no score changed
            if self._rewarded:
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._rewarded = False
            if self.max_cycles is not None or self.cycle:
                self._end_if_done(agent)
        else:
            ended = len(after.info.history) - len(info.history)
            if ended:
                self.counts.append(self._in_deal)
                self.counts.extend([0] * (ended - 1))
                self._in_deal = 0
            scores, before = after.info.scores, info.scores
            for i, name in enumerate(self.agents):
                self.rewards[name] = float(scores[i] - before[i])
            self._rewarded = True
            self._end_if_done(agent)
            self._accumulate_rewards()
        if self.cycle:
            self.agent_selection = self._selected(agent)
        else:  # (_selected, inlined for the common form)
            seat = self.game.to_move(after.state)
            self.agent_selection = self.agents[0] if seat is None or after.info.over else self.possible_agents[seat]
        if self.render_mode == "human":
            self.render()

    def record(self) -> dict[str, JsonValue]:
        """The ``hanafuda-record/1`` record of the finished match (``hanafuda validate`` accepts it)."""
        m = self.match
        if not m.over:
            raise ValueError("the match is not over")
        rng = SplitMix64(self.seed)
        cards = self.game.deck(self.rules).cards
        orders = [[c.id for c in shuffled(cards, rng)] for _ in m.info.history]
        return episode_record(self.game, self.ruleset, self.options, m.info, orders, self.actions, self.counts,
                              seed=self.seed, first_dealer=self.first_dealer)

    def render(self) -> str | None:
        """The position as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = "\n".join(f"{name}: {' '.join(map(str, cards))}" for name, cards in self._snapshot().zones)
        text = f"to move: {self.agent_selection}\n{text}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(game: str, ruleset: str | None = None, options: Mapping[str, str] | None = None,
        render_mode: str | None = None, **kwargs: Any) -> HanafudaEnv:
    """The AEC environment of ``game`` (a key or alias). ``kwargs``: ``max_cycles``, ``rounds``,
    ``first_dealer``, ``cycle``, ``seed`` (see :class:`HanafudaEnv`)."""
    return HanafudaEnv(game, ruleset, options, render_mode, **kwargs)


def parallel_env(game: str, ruleset: str | None = None, options: Mapping[str, str] | None = None,
                 render_mode: str | None = None, **kwargs: Any) -> ParallelEnv:
    """The parallel environment of ``game``: PettingZoo's ``aec_to_parallel`` over :func:`env` with
    ``cycle=True`` (see the module docstring). Each step takes an action from every agent: the legal
    action of the one whose seat is to move, :attr:`HanafudaEnv.wait` from the others."""
    return aec_to_parallel(HanafudaEnv(game, ruleset, options, render_mode, cycle=True, **kwargs))


def random_opponent(seed: int | None = None) -> Opponent:
    """An opponent playing uniformly among its legal actions."""
    rng = np.random.default_rng(seed)

    def choose(obs: Observation) -> int:
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))
    return choose


class SingleAgentEnv(gymnasium.Env[Observation, int]):
    """One seat of a match as a Gymnasium environment; the other seats are played by ``opponent``
    (a function of their observation; default: uniformly random legal play). The reward of a step is
    the change of the learner's score from its action to its next turn."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, game: str, ruleset: str | None = None, options: Mapping[str, str] | None = None,
                 seat: int = 0, opponent: Opponent | None = None, **kwargs: Any) -> None:
        """The match of ``game`` seen from ``seat``."""
        self.aec = HanafudaEnv(game, ruleset, options, **kwargs)
        self.agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._given = opponent
        self.opponent = opponent or random_opponent()

    def _advance(self) -> tuple[float, bool, bool]:
        """Let the opponents play until the learner is to move or the match ends."""
        e = self.aec
        while True:
            me = e.agent_selection == self.agent
            if e.terminations[e.agent_selection] or e.truncations[e.agent_selection]:
                return e._cumulative_rewards[self.agent], all(e.terminations.values()), \
                    all(e.truncations.values())
            if me:
                return e._cumulative_rewards[self.agent], False, False
            e.step(self.opponent(e.observe(e.agent_selection)))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new match and play the opponents up to the learner's first turn."""
        super().reset(seed=seed)
        if self._given is None and seed is not None:
            self.opponent = random_opponent(seed)
        self.aec.reset(seed=seed)
        self._advance()
        return self.aec.observe(self.agent), {}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the learner, then the opponents."""
        e = self.aec
        e.step(action)
        reward, terminated, truncated = self._advance()
        e._cumulative_rewards[self.agent] = 0.0
        return e.observe(self.agent), float(reward), terminated, truncated, {}

    def render(self) -> str | None:
        """The position as text."""
        return "\n".join(f"{n}: {' '.join(map(str, c))}" for n, c in self.aec._snapshot().zones)
