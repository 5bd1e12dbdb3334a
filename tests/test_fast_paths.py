"""The fast paths against the reference: every shortcut taken for speed is checked here to give
exactly what the reference gives (benchmarks/README.md says what each one buys).

* :class:`~hanafuda.engine.FastRound` (a round played in place, :func:`~hanafuda.engine.play_match`):
  the same legal actions in the same order and the same position after every action as
  :meth:`Game.apply`, over random seeds and option sets; options it does not implement fall back to
  the reference loop; whole matches and records are identical either way.
* Koi-Koi's table-driven scorer (``_Scorer``): the same yaku, in the same order, as the general block
  scorer and as the catalogue's rows (:func:`hanafuda_spec.yaku.best_per_group`).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hanafuda import records, registry
from hanafuda.engine import Action, Game, Match, evolve, fast_shuffled, play_match
from hanafuda.games import koikoi as kk
from hanafuda.registry import available
from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.games import koikoi as kk_spec
from hanafuda_spec.shuffle import SplitMix64, shuffled
from hanafuda_spec.yaku import best_per_group
from hypothesis import given, reject
from hypothesis import strategies as st


def _lockstep(game: Game[Any, Any], rules: Any, seed: int, policy_seed: int) -> int:
    """Play a match with the fast rounds and the reference side by side, comparing the legal actions
    and the position at every step; return how many rounds the fast path played."""
    m: Match[Any, Any] = Match.start(game, rules, seed)
    rng = SplitMix64(policy_seed)
    fast_rounds = 0
    while not m.over:
        fast = game.fast_round(m.state)
        if fast is None:
            rounds = len(m.info.history)
            while not m.over and len(m.info.history) == rounds:
                legal = m.legal_actions()
                m = m.apply(legal[rng.below(len(legal))])
            continue
        fast_rounds += 1
        state = m.state
        assert fast.state() == state
        while not fast.over():
            legal = tuple(fast.legal())
            assert legal == game.legal_actions(state)
            a = legal[rng.below(len(legal))]
            fast.play(a)
            state = game.apply(state, a)
            assert fast.state() == state
        assert game.is_terminal(state)
        m = Match.advance(evolve(m, state=state))
    return fast_rounds


def _random(rng: SplitMix64) -> Callable[[Sequence[Action]], Action]:
    """The random policy: ``legal[rng.below(len(legal))]``."""
    return lambda legal: legal[rng.below(len(legal))]


def _reference_match(game: Game[Any, Any], rules: Any, seed: int,
                     policy_seed: int) -> tuple[Any, list[list[Action]]]:
    """The reference loop: the match info and the actions of each deal."""
    m: Match[Any, Any] = Match.start(game, rules, seed)
    rng = SplitMix64(policy_seed)
    deals: list[list[Action]] = [[] for _ in m.info.history]
    cur: list[Action] = []
    while not m.over:
        legal = m.legal_actions()
        cur.append(legal[rng.below(len(legal))])
        before = len(m.info.history)
        m = m.apply(cur[-1])
        if len(m.info.history) > before:
            deals.append(cur)
            deals.extend([] for _ in range(len(m.info.history) - before - 1))
            cur = []
    return m.info, deals


def _rules(game: Game[Any, Any], ruleset: str | None, opts: dict[str, str]) -> Any:
    """The rules, or the example rejected where the options contradict each other."""
    try:
        return game.rules(ruleset, opts)
    except OptionError:
        reject()


def _options(game: Game[Any, Any]) -> st.SearchStrategy[dict[str, str]]:
    """Any values of any of the game's options (a ruleset's other values as they are)."""
    opts = {o.key: st.sampled_from(o.choices) for o in game.spec.options}
    return st.fixed_dictionaries({}, optional=opts)


@given(st.data(), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_fast_rounds_agree_with_the_reference_action_by_action(data: st.DataObject, seed: int, policy: int) -> None:
    game = data.draw(st.sampled_from(available()))
    ruleset = data.draw(st.sampled_from((None, *(rs.name for rs in game.spec.rulesets))))
    rules = _rules(game, ruleset, data.draw(_options(game)))
    _lockstep(game, rules, seed, policy)


@given(st.data(), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_play_match_gives_the_reference_match(data: st.DataObject, seed: int, policy: int) -> None:
    game = data.draw(st.sampled_from(available()))
    rules = _rules(game, None, data.draw(_options(game)))
    info, played = play_match(game, rules, seed, _random(SplitMix64(policy)))
    assert (info, played) == _reference_match(game, rules, seed, policy)


def test_the_fast_rounds_are_taken_under_the_default_rules() -> None:
    """Not a vacuous check: under the default rules every game with a fast path uses it."""
    for game in available():
        rules = game.rules()
        m: Match[Any, Any] = Match.start(game, rules, 1)
        if game.fast_round(m.state) is not None:
            assert _lockstep(game, rules, 1, 2) > 0
    assert kk.GAME.fast_round(Match.start(kk.GAME, kk.GAME.rules(), 1).state) is not None


def _option_values() -> list[Any]:
    """Every game, option and value other than the default that is valid on its own."""
    out = []
    for g in available():
        for o in g.spec.options:
            for v in o.choices:
                try:
                    g.spec.resolve(None, {o.key: v})
                except OptionError:
                    continue
                out.append(pytest.param(g.spec.key, o.key, v, id=f"{g.spec.key}-{o.key}={v}"))
    return out


@pytest.mark.parametrize(("key", "option", "value"), _option_values())
def test_fast_rounds_agree_under_each_option_value(key: str, option: str, value: str) -> None:
    """A fixed sweep of every option value on its own, five seeds each, named after its game (so that
    a mutation run of one game's module selects its own cases)."""
    game = registry.game(key)
    rules = game.rules(None, {option: value})
    for seed in range(5):
        _lockstep(game, rules, seed, seed + 2000)


@pytest.mark.parametrize("key", [g.spec.key for g in available()])
def test_fast_rounds_agree_over_forty_seeds_of_each_ruleset(key: str) -> None:
    """A fixed sweep beside the random one: every ruleset of every game, forty seeds each."""
    game = registry.game(key)
    for rs in (None, *(r.name for r in game.spec.rulesets)):
        rules = game.rules(rs)
        for seed in range(40):
            _lockstep(game, rules, seed, seed + 1000)


def test_unsupported_koikoi_options_fall_back_to_the_reference() -> None:
    for opts in ({"turn": "draw-first"}, {"after_hands": "draw-pile"}, {"lightning": "wild"}):
        rules = kk.GAME.rules(None, opts)
        assert kk.GAME.fast_round(Match.start(kk.GAME, rules, 3).state) is None
        info, played = play_match(kk.GAME, rules, 3, _random(SplitMix64(9)))
        assert (info, played) == _reference_match(kk.GAME, rules, 3, 9)


# -- Koi-Koi's table-driven scorer ------------------------------------------------------------

_CARD_IDS = sorted(kk.INDEX.by_id)


@given(st.integers(0, 2**48 - 1), st.integers(0, 2**48 - 1), st.booleans(), st.sampled_from((None, *range(1, 13))),
       st.sampled_from((None, "animal", "chaff")), st.booleans(), _options(kk.GAME))
def test_KK_YAKU_1_koikoi_table_driven_scorer_agrees_with_the_rows(
        a: int, b: int, sparse: bool, month: int | None, sake: str | None, called: bool,
        opts: dict[str, str]) -> None:
    """The scorer of lookup tables finds what the general block scorer and the catalogue's rows
    (:func:`best_per_group`) find, in table order."""
    pile = a & b if sparse else a
    rules = _rules(kk.GAME, None, opts)
    values = rules.values
    key = (month, sake, called and rules.opt["viewing_value"] != "5")
    table = kk._table(values, *key)
    got = tuple(kk._scorer(values, *key)(pile))
    assert got == tuple(kk._score_with(table, pile))
    ids = [i for n, i in enumerate(kk.INDEX.cards) if pile >> n & 1]
    rows = kk_spec.yaku_table(dict(values), *key)
    assert got == best_per_group(rows, [c.id for c in ids])


def test_KK_YAKU_1_every_koikoi_table_gets_the_table_driven_scorer() -> None:
    for opts in ({}, {"chaff_doubles": "on"}, {"yaku_system": "older"}, {"yaku_system": "older-stacked"},
                 {"sake_cup": "animal"}, {"yaku_set": "flower-card-game"}, {"viewing_value": "1-3"}):
        rules = kk.GAME.rules(None, opts)
        for month in (None, 4):
            table = kk._table(rules.values, month, None, rules.opt["viewing_value"] != "5")
            assert kk._Scorer.applies(table), opts
            if not opts:  # the default tables get the written-out closure
                scorer = kk._Scorer(table)
                assert scorer.function() != scorer.__call__


@given(st.integers(0, 2**48 - 1), st.sampled_from((None, *range(1, 13))), st.booleans(), _options(kk.GAME))
def test_KK_YAKU_1_koikoi_written_out_scorer_is_the_table_scorer(pile: int, month: int | None, called: bool,
                                                              opts: dict[str, str]) -> None:
    """``_Scorer.function`` (the lookups written out) answers what ``_Scorer.__call__`` answers."""
    rules = _rules(kk.GAME, None, opts)
    table = kk._table(rules.values, month, None, called and rules.opt["viewing_value"] != "5")
    if kk._Scorer.applies(table):
        scorer = kk._Scorer(table)
        assert scorer.function()(pile) == scorer(pile)


# -- the shuffle ------------------------------------------------------------------------------


@given(st.integers(0, 2**64 - 1), st.integers(0, 70))
def test_fast_shuffled_is_the_documented_shuffle(seed: int, size: int) -> None:
    """Same order and same generator state afterwards as the spec's shuffle (any size, including sizes
    beyond the precomputed limits, which use the spec's)."""
    items = list(range(size))
    a, b = SplitMix64(seed), SplitMix64(seed)
    assert fast_shuffled(items, a) == shuffled(items, b)
    assert a.state == b.state


# -- records: recorded and validated through the fast rounds ------------------------------------


@given(st.data(), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_records_are_the_same_through_the_fast_rounds(data: st.DataObject, seed: int, policy: int) -> None:
    """record_match through play_match gives the record of the reference loop (here, the policy given
    as a function other than random_policy, which takes the reference path), and validating it gives
    the same report with and without the fast replay."""
    game = data.draw(st.sampled_from(available()))
    opts = data.draw(_options(game))
    _rules(game, None, opts)
    fast = records.record_match(game, None, opts, seed, policy)
    slow = records.record_match(game, None, opts, seed, policy,
                                policy=lambda m, legal, rng: legal[rng.below(len(legal))])
    assert fast == slow
    line = json.dumps(fast).encode() + b"\n"
    reports = []
    for on in (True, False):
        records.FAST_REPLAY = on
        try:
            reports.append([r for r in records.validate_stream(io.BytesIO(line))])
        finally:
            records.FAST_REPLAY = True
    assert reports[0] == reports[1]
    assert reports[0][0].ok


@given(st.integers(0, 2**16), st.integers(0, 2000), st.sampled_from(("play 999", "stop", "koikoi", "take 10",
                                                                      "play 10 11", "nonsense!", "")))
def test_a_broken_koikoi_record_gets_the_same_report_through_the_fast_replay(seed: int, where: int, bad: str) -> None:
    """An action replaced by an illegal or malformed one: the fast replay stops there and the reference
    loop reports it as it always did."""
    rec = records.record_match(kk.GAME, None, {}, seed, seed)
    acts = rec["actions"]
    assert isinstance(acts, list)
    acts[where % len(acts)] = bad
    line = json.dumps(rec).encode() + b"\n"
    reports = []
    for on in (True, False):
        records.FAST_REPLAY = on
        try:
            reports.append(list(records.validate_stream(io.BytesIO(line))))
        finally:
            records.FAST_REPLAY = True
    assert reports[0] == reports[1]


# -- the public scorer's shortcuts (hanafuda.score) --------------------------------------------

_PILE_ITEMS = st.one_of(st.integers(-2, 130), st.sampled_from(("10", " 31 ", "susuki_moon", "SUSUKI_MOON", "x", "72")),
                        st.sampled_from(kk.INDEX.cards), st.booleans())


@given(st.sampled_from(("hanafuda", "kusurigui", "daini")), st.lists(_PILE_ITEMS, max_size=8))
def test_parse_pile_is_parse_many(deck_name: str, items: list[Any]) -> None:
    """``hanafuda._parse_pile`` (ids and card objects looked up by id) gives the cards, or raises the
    error, that the text path ``Deck.parse_many`` gives."""
    import hanafuda
    from hanafuda_spec.cards import DECKS

    deck = DECKS[deck_name]
    try:
        want: object = deck.parse_many(hanafuda._card_texts(items))
    except ValueError as e:
        want = (type(e), str(e))
    try:
        got: object = hanafuda._parse_pile(deck, iter(items))  # any iterable, read once
    except ValueError as e:
        got = (type(e), str(e))
    assert got == want


def test_score_resolves_the_same_rules_once_per_options() -> None:
    """``hanafuda.score`` resolves rules once per (game, ruleset, options): equal to ``Game.rules``;
    bad options still raise (and are not cached); option mappings that make no key are resolved as
    they are."""
    import hanafuda

    opts = {"chaff_doubles": "on", "month_cards": "on"}
    a = hanafuda._rules(kk.GAME, None, opts)
    assert a == kk.GAME.rules(None, opts)
    assert hanafuda._rules(kk.GAME, None, dict(reversed(opts.items()))) is a
    for _ in range(2):
        with pytest.raises(OptionError):
            hanafuda._rules(kk.GAME, None, {"chaff_doubles": "maybe"})
    with pytest.raises(OptionError):
        hanafuda._rules(kk.GAME, None, {"chaff_doubles": ["on"]})  # type: ignore[dict-item]
    assert hanafuda.score("koikoi", [30, 31, 32, 33], month=3, options=opts) == kk.GAME.score(
        kk.GAME.rules(None, opts), [kk.INDEX.by_id[i] for i in (30, 31, 32, 33)], 3)
