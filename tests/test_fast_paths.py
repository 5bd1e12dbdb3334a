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


# -- Kujuroku's fast round (_FastKujuroku) -------------------------------------------------------
# Kujuroku's rounds played in place, against Game.apply: every option (the product of all their
# values), the dealer's takes at the deal, hand-made positions for the Oni and Jizo meetings that random
# play seldom reaches, play_match, and validation with the fast replay on and off.

from hanafuda.engine import RoundSetup  # noqa: E402
from hanafuda.fishing import Table  # noqa: E402
from hanafuda.games import kujuroku as kj  # noqa: E402
from hanafuda_spec.games.kujuroku import JIZO, ONI  # noqa: E402

_KJ_CARDS = {c.id: c for c in kj.INDEX.cards}


def _kujuroku_lockstep_from(state: kj.KujurokuState, policy_seed: int, first: int | None = None) -> int:
    """Play the round from ``state`` to its end with the fast round and ``GAME.apply`` side by side,
    comparing the legal actions and the whole state after every action; the first action is
    ``legal[first]`` if given, the others random. Return the number of actions played. (A position built
    by hand may leave the Oni's capture without a single remaining card at the end, which no deal does:
    the reference then stops with an AssertionError, and the fast round must stop with the same.)"""
    game = kj.GAME
    fast = game.fast_round(state)
    assert fast is not None
    assert fast.state() == state
    rng = SplitMix64(policy_seed)
    played = 0
    while not fast.over():
        legal = tuple(fast.legal())
        assert legal == game.legal_actions(state)
        a = legal[first % len(legal)] if played == 0 and first is not None else legal[rng.below(len(legal))]
        try:
            want = game.apply(state, a)
        except AssertionError as e:  # a hand-made position: no single remaining card (KJ-ONI-6)
            with pytest.raises(AssertionError) as raised:
                fast.play(a)
            assert str(raised.value) == str(e)
            return played
        fast.play(a)
        state = want
        assert fast.state() == state
        played += 1
    assert game.is_terminal(state) and not game.legal_actions(state)
    return played


def _kujuroku_options() -> list[dict[str, str]]:
    """Every combination of the values of every Kujuroku option (those the catalogue accepts)."""
    import itertools

    out = []
    opts = kj.GAME.spec.options
    for values in itertools.product(*(o.choices for o in opts)):
        chosen = {o.key: v for o, v in zip(opts, values, strict=True)}
        try:
            kj.GAME.spec.resolve(None, chosen)
        except OptionError:
            continue
        out.append(chosen)
    return out


@given(_options(kj.GAME), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_kujuroku_fast_round_agrees_with_the_reference_action_by_action(opts: dict[str, str], seed: int,
                                                                         policy: int) -> None:
    rules = _rules(kj.GAME, None, opts)
    assert _lockstep(kj.GAME, rules, seed, policy) > 0


def test_kujuroku_fast_round_agrees_under_every_combination_of_options() -> None:
    """The product of every option's values (jizo, players, configuration, dekiyaku_count,
    remaining_card, jizo_timing, draw_dealer), three matches each."""
    combos = _kujuroku_options()
    assert len(combos) >= 2 * 2 * 4 * 2 * 2 * 2 * 2 // 2
    for n, opts in enumerate(combos):
        rules = kj.GAME.rules(None, opts)
        for seed in range(3):
            assert _lockstep(kj.GAME, rules, 7919 * n + seed, seed + 3000) > 0


def _kujuroku_deals(phase: kj.Phase, opts: dict[str, str], wanted: int = 3) -> list[kj.KujurokuState]:
    """The first positions of seeded matches whose deal stops in ``phase``."""
    rules = kj.GAME.rules(None, opts)
    found = []
    for seed in range(2000):
        s = Match.start(kj.GAME, rules, seed).state
        if s.phase is phase:
            found.append(s)
            if len(found) == wanted:
                break
    return found


@pytest.mark.parametrize("opts", [{}, {"jizo": "on"}, {"jizo": "on", "players": "3", "configuration": "B"}],
                         ids=lambda o: "kujuroku-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default"))
def test_kujuroku_fast_round_plays_the_dealers_takes_at_the_deal(opts: dict[str, str]) -> None:
    """KJ-DEAL-4 and KJ-DEAL-6: from a deal that stops for the dealer's choice (the Oni's capture, two of
    three cards of a number), the fast round offers the same ``collect`` choices and plays each of them
    as the reference does."""
    for phase in (kj.Phase.DEAL_ONI, kj.Phase.DEAL_TRIPLE):
        deals = _kujuroku_deals(phase, opts)
        assert deals, phase
        for s in deals:
            for first in range(len(kj.GAME.legal_actions(s))):
                _kujuroku_lockstep_from(s, first + 11, first)


def test_kujuroku_fast_round_is_none_for_a_round_over_at_its_deal() -> None:
    """A misdeal (KJ-DEAL-3): the round is over at its deal, with nothing to play in place; the deals
    around it are offered."""
    rules = kj.GAME.rules()
    setup = RoundSetup(1, 0, (0, 1, 2), (30,) * 4)
    rng = SplitMix64(4)
    states = [kj.GAME.start_round(rules, shuffled(rules.deck.cards, rng), setup) for _ in range(400)]
    over = [s for s in states if s.phase is kj.Phase.OVER]
    assert over and all(s.end == "misdeal" and kj.GAME.fast_round(s) is None for s in over)
    assert all(kj.GAME.fast_round(s) is not None for s in states if s.phase is not kj.Phase.OVER)


def _kujuroku_position(hands: dict[int, list[int]], field: list[int], stock: list[int],
                       captured: dict[int, list[int]], opts: dict[str, str], captive: int | None = None,
                       played: int = 0) -> kj.KujurokuState:
    """A position built directly, seat 0 dealing and to move (the participants' hands of one size, as
    at the start of a round of turns, but for the ``played`` cards seat 0 has already played)."""
    placed = [*(i for h in hands.values() for i in h), *field, *stock, *(i for p in captured.values() for i in p)]
    assert len(set(placed)) == len(placed)
    assert len({len(h) + (played if seat == 0 else 0) for seat, h in hands.items()}) == 1
    rules = kj.GAME.rules(None, opts)
    seats = rules.seats
    cards = _KJ_CARDS.__getitem__
    t = Table.deal(kj.INDEX, [[cards(i) for i in hands.get(s, ())] for s in range(seats)], map(cards, field),
                   [cards(i) for i in stock], [[cards(i) for i in captured.get(s, ())] for s in range(seats)])
    s = kj.KujurokuState(rules, RoundSetup(1, 0, (0, 1, 2), (30,) * seats), t, kj.Phase.PLAY, 0)
    return evolve(s, captive=cards(captive)) if captive is not None else s


#: Positions for the joker meetings (seat 0 to move; the first action of each is tried in turn):
#: KJ-JIZO-3 (the Oni from the hand onto an empty field, then the Jizo drawn), KJ-JIZO-2 (the Oni's
#: capture from the hand undone by the drawn Jizo), KJ-JIZO-4 (the Jizo played, then the Oni drawn, on a
#: field with cards and on an empty one), KJ-ONI-4 (the Oni drawn onto a field the hand card emptied),
#: KJ-ONI-3 (the drawn Oni facing one card, and several), KJ-23 (a drawn Jizo with an earlier Oni's
#: capture standing), KJ-TURN-3 (no card left to draw) and KJ-ONI-6/7 (the remaining card at the end).
_KJ_POSITIONS: tuple[tuple[str, dict[int, list[int]], list[int], list[int], dict[int, list[int]], int | None], ...] = (
    ("jizo-3", {0: [ONI, 90, 71], 1: [60, 81, 82], 2: [50, 32, 33]}, [], [JIZO, 91, 72, 51], {1: [10, 11], 2: [20]},
     None),
    ("jizo-2", {0: [ONI, 90], 1: [60, 61], 2: [70, 73]}, [21, 52], [JIZO, 91, 62, 71], {}, None),
    ("jizo-4", {0: [JIZO, 90], 1: [60, 63], 2: [61, 80]}, [21, 52], [ONI, 91, 81, 62], {}, None),
    ("jizo-4-empty", {0: [JIZO, 90], 1: [60, 63], 2: [61, 83]}, [], [ONI, 91, 62], {}, None),
    ("oni-4-drawn", {0: [11, 90], 1: [60, 72], 2: [61, 73]}, [10], [ONI, 91, 62, 70, 71], {}, None),
    ("oni-3-single", {0: [11, 90], 1: [60, 72], 2: [61, 73]}, [10, 20], [ONI, 91, 62, 70, 71], {}, None),
    ("oni-3-choice", {0: [11, 90], 1: [60, 72], 2: [61, 73]}, [10, 20, 30], [ONI, 91, 62, 70, 71], {}, None),
    ("jizo-drawn-later", {0: [20, 90], 1: [60, 63], 2: [61, 83]}, [21], [JIZO, 91, 62], {1: [ONI, 52]}, 52),
    ("no-draw", {0: [20, 40], 1: [41, 42], 2: [43, 21]}, [30, 31], [], {0: [ONI, 32]}, 32),
    ("remaining", {0: [ONI, 33], 1: [30, 43], 2: [31, 42]}, [32, 40, 41], [50, 51, 52, 53, 60, 61],
     {0: [10, 11], 1: [20, 21]}, None),
)


@pytest.mark.parametrize(("name", "hands", "field", "stock", "captured", "captive"), _KJ_POSITIONS,
                         ids=[f"kujuroku-{p[0]}" for p in _KJ_POSITIONS])
@pytest.mark.parametrize("opts", [{"jizo": "on"}, {"jizo": "on", "jizo_timing": "at-capture"},
                                  {"jizo": "on", "remaining_card": "end", "players": "3"},
                                  {"jizo": "on", "dekiyaku_count": "stack", "configuration": "D"}],
                         ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_kujuroku_fast_round_agrees_on_the_joker_meetings(name: str, hands: dict[int, list[int]], field: list[int],
                                                          stock: list[int], captured: dict[int, list[int]],
                                                          captive: int | None, opts: dict[str, str]) -> None:
    s = _kujuroku_position(hands, field, stock, captured, opts, captive)
    for first in range(len(kj.GAME.legal_actions(s))):
        for policy in range(3):
            _kujuroku_lockstep_from(s, policy, first)


def _kujuroku_unreached() -> list[tuple[str, kj.KujurokuState]]:
    """Positions no deal reaches, built by hand (the reference plays them all the same): a joker on the
    field as a turn starts, a drawn Oni facing the Jizo among several cards, the jokers still on the field
    at the dealer's choice of two of three, a dekiyaku already in the pile of the second or the third
    player before the first capture is checked, an unknown action kind."""
    a = _kujuroku_position({0: [ONI, 90], 1: [60, 63], 2: [61, 83]}, [JIZO, 21], [91, 62, 70], {}, {"jizo": "on"})
    b = evolve(_kujuroku_position({0: [90], 1: [60, 63], 2: [61, 83]}, [JIZO, 21, 52], [91, 62], {}, {"jizo": "on"},
                                   played=1), phase=kj.Phase.TAKE, pending=_KJ_CARDS[ONI])
    hands = {0: [10, 11, 20, 21, 22, 23], 1: [40, 41, 42, 50, 51, 52], 2: [70, 71, 72, 80, 81, 82]}
    c = evolve(_kujuroku_position(hands, [ONI, 30, 31, 32, 53, 60], [61, 62, 63, 73, 83, 90, 91], {}, {}),
               phase=kj.Phase.DEAL_TRIPLE)
    d = evolve(_kujuroku_position(hands, [JIZO, ONI, 30, 31, 32, 53], [60, 61, 62, 63, 73], {}, {"jizo": "on"}),
               phase=kj.Phase.DEAL_TRIPLE)
    out = [("joker-on-field", a), ("oni-drawn-facing-the-jizo", b), ("oni-at-the-triple", c), ("jizo-at-the-triple", d)]
    for remaining in ("end", "confirmed"):
        for seat in (1, 2):
            out.append((f"dekiyaku-of-seat-{seat}-{remaining}", _kujuroku_position(
                {0: [10, 90], 1: [60, 63], 2: [61, 83]}, [11, 20], [91, 62, 70], {seat: [40, 41, 42, 43]},
                {"remaining_card": remaining})))
    return out


def test_kujuroku_fast_round_agrees_on_positions_no_deal_reaches() -> None:
    for name, s in _kujuroku_unreached():
        for first in range(len(kj.GAME.legal_actions(s))):
            for policy in range(2):
                assert _kujuroku_lockstep_from(s, policy, first) > 0, name
    s = _kujuroku_unreached()[0][1]
    fast = kj.GAME.fast_round(s)
    assert fast is not None
    for refused in (Action("stop"), Action("declare", (), "nothing")):
        with pytest.raises(AssertionError):
            kj.GAME.do(s, refused)
        with pytest.raises(AssertionError):
            fast.play(refused)


@given(_options(kj.GAME), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_kujuroku_play_match_gives_the_reference_match(opts: dict[str, str], seed: int, policy: int) -> None:
    rules = _rules(kj.GAME, None, opts)
    info, played = play_match(kj.GAME, rules, seed, _random(SplitMix64(policy)))
    assert (info, played) == _reference_match(kj.GAME, rules, seed, policy)


def _validate_both_ways(line: bytes) -> list[list[Any]]:
    """The validation reports of one record, with the fast replay on and off."""
    reports = []
    for on in (True, False):
        records.FAST_REPLAY = on
        try:
            reports.append(list(records.validate_stream(io.BytesIO(line))))
        finally:
            records.FAST_REPLAY = True
    return reports


@given(_options(kj.GAME), st.integers(0, 2**16), st.integers(0, 2000),
       st.sampled_from(("play 999", "play 0", "play 1", "play 0 999", "take 10", "take 0", "collect 0 10",
                        "collect 10 11", "play 10 11", "stop", "nonsense!", "")))
def test_a_broken_kujuroku_record_gets_the_same_report_through_the_fast_replay(opts: dict[str, str], seed: int,
                                                                             where: int, bad: str) -> None:
    """An action replaced by an illegal or malformed one: the fast replay stops there and the reference
    loop reports it as it always did; the record unbroken is valid either way."""
    _rules(kj.GAME, None, opts)
    rec = records.record_match(kj.GAME, None, opts, seed, seed)
    good = _validate_both_ways(json.dumps(rec).encode() + b"\n")
    assert good[0] == good[1] and good[0][0].ok
    acts = rec["actions"]
    assert isinstance(acts, list) and acts
    acts[where % len(acts)] = bad
    broken = _validate_both_ways(json.dumps(rec).encode() + b"\n")
    assert broken[0] == broken[1]


def test_kujuroku_records_validate_the_same_with_the_fast_replay_under_every_option_value() -> None:
    """Each option value on its own (the records played through play_match): the same reports either way."""
    for g_key, option, value in [p.values for p in _option_values() if p.values[0] == "kujuroku"]:
        assert g_key == "kujuroku"
        for seed in range(2):
            rec = records.record_match(kj.GAME, None, {option: value}, seed, seed + 1)
            reports = _validate_both_ways(json.dumps(rec).encode() + b"\n")
            assert reports[0] == reports[1] and reports[0][0].ok, (option, value, seed)

# -- end of Kujuroku's fast round ----------------------------------------------------------------
