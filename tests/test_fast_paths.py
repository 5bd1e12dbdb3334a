"""The fast paths against the reference: every shortcut taken for speed is checked here to give
exactly what the reference gives (benchmarks/README.md says what each one buys).

* :class:`~hanafuda.engine.FastRound` (a round played in place, :func:`~hanafuda.engine.play_match`):
  the same legal actions in the same order and the same position after every action as
  :meth:`Game.apply`, over random seeds and option sets; options it does not implement fall back to
  the reference loop; whole matches and records are identical either way.
* Koi-Koi's table-driven scorer (``yakumask.TableScorer``): the same yaku, in the same order, as the general block
  scorer and as the catalogue's rows (:func:`hanafuda_spec.yaku.best_per_group`).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hanafuda import records, registry, yakumask
from hanafuda.deviations import deviant_rules, deviation
from hanafuda.deviations_other import deviant_rules as deviant_rules_other
from hanafuda.engine import (
    Action,
    FastRound,
    Game,
    Match,
    MatchInfo,
    RoundResult,
    RoundSetup,
    _lanes,
    _outputs,
    evolve,
    fast_shuffled,
    play_match,
)
from hanafuda.fishing import FOURS, FishingRound, suit_counts
from hanafuda.games import kekoro as ke
from hanafuda.games import koikoi as kk
from hanafuda.games import musashino as mb
from hanafuda.registry import available
from hanafuda_spec import records as spec_records
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


def test_the_fast_rounds_are_taken_under_the_default_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a vacuous check: every game has a fast round, and under its default rules it is taken, in
    play and in the replay of a record (a fast round lost, say a condition that always refuses it,
    would leave the agreement tests above comparing the reference with itself)."""
    replayed: list[str] = []
    fast_replay = records._Replay.fast_replay

    def counted(self: Any, fast: Any, pos: int) -> int:
        replayed.append(self.g.spec.key)
        return fast_replay(self, fast, pos)

    monkeypatch.setattr(records._Replay, "fast_replay", counted)
    for game in available():
        key = game.spec.key
        assert type(game).fast_round is not Game.fast_round, f"{key}: no fast round"
        rules = game.rules()
        assert game.fast_round(Match.start(game, rules, 1).state) is not None, key
        assert _lockstep(game, rules, 1, 2) > 0, key
        rec, problems = spec_records.parse_record(records.record_match(game, None, {}, 1, 2))
        assert rec is not None and not problems, key
        assert not records.replay(rec).problems and key in replayed, key


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


def test_koikoi_round_plays_the_options_the_earlier_fast_round_left_to_the_reference() -> None:
    """Koi-Koi's round is its one turn: the options an earlier fast round refused (a second turn then
    played them) are played in place too, and play_match agrees with the Match.apply loop."""
    for opts in ({"turn": "draw-first"}, {"after_hands": "draw-pile"}, {"lightning": "wild"},
                 {"turn": "keep-unmatched", "lightning": "wild", "discard": "must-capture"}):
        rules = kk.GAME.rules(None, opts)
        assert isinstance(kk.GAME.fast_round(Match.start(kk.GAME, rules, 3).state), kk.KoiKoiRound)
        assert _lockstep(kk.GAME, rules, 3, 9) > 0
        info, played = play_match(kk.GAME, rules, 3, _random(SplitMix64(9)))
        assert (info, played) == _reference_match(kk.GAME, rules, 3, 9)


# -- Koi-Koi's table-driven scorer ------------------------------------------------------------

_CARD_IDS = sorted(kk.INDEX.by_id)


def _kk_rows(values: tuple[tuple[str, str], ...], month: int | None, sake: str | None,
             called: bool) -> tuple[yakumask.YakuRow, ...]:
    """Koi-Koi's catalogue table for these options compiled to masks (what ``koikoi._scorer`` compiles)."""
    masks = {c.id: c.mask for c in kk.INDEX.cards}
    return tuple(yakumask.YakuRow.of(y, masks) for y in kk_spec.yaku_table(dict(values), month, sake, called))


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
    key = (month, sake, called and rules.call_revalues)
    table = yakumask.blocks(_kk_rows(values, *key))
    got = tuple(kk._scorer(values, *key)(pile))
    assert got == tuple(yakumask.score_with(table, pile))
    ids = [i for n, i in enumerate(kk.INDEX.cards) if pile >> n & 1]
    rows = kk_spec.yaku_table(dict(values), *key)
    assert got == best_per_group(rows, [c.id for c in ids])


def test_KK_YAKU_1_every_koikoi_table_gets_the_table_driven_scorer() -> None:
    for opts in ({}, {"chaff_doubles": "on"}, {"yaku_system": "older"}, {"yaku_system": "older-stacked"},
                 {"sake_cup": "animal"}, {"yaku_set": "flower-card-game"}, {"viewing_value": "1-3"}):
        rules = kk.GAME.rules(None, opts)
        for month in (None, 4):
            table = yakumask.blocks(_kk_rows(rules.values, month, None, rules.call_revalues))
            assert yakumask.TableScorer.applies(table), opts
            if not opts:  # the default tables get the written-out closure
                scorer = yakumask.TableScorer(table)
                assert scorer.function() != scorer.__call__


@given(st.integers(0, 2**48 - 1), st.sampled_from((None, *range(1, 13))), st.booleans(), _options(kk.GAME))
def test_KK_YAKU_1_koikoi_written_out_scorer_is_the_table_scorer(pile: int, month: int | None, called: bool,
                                                              opts: dict[str, str]) -> None:
    """``TableScorer.function`` (the lookups written out) answers what ``TableScorer.__call__`` answers."""
    rules = _rules(kk.GAME, None, opts)
    table = yakumask.blocks(_kk_rows(rules.values, month, None, called and rules.call_revalues))
    if yakumask.TableScorer.applies(table):
        scorer = yakumask.TableScorer(table)
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
    the same report with and without the fast paths (the fast replay, the parser's shortcuts)."""
    game = data.draw(st.sampled_from(available()))
    opts = data.draw(_options(game))
    _rules(game, None, opts)
    fast = records.record_match(game, None, opts, seed, policy)
    slow = records.record_match(game, None, opts, seed, policy,
                                policy=lambda m, legal, rng: legal[rng.below(len(legal))])
    assert fast == slow
    line = json.dumps(fast).encode() + b"\n"
    reports = [list(records.validate_stream(io.BytesIO(line), fast=on)) for on in (True, False)]
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
    reports = [list(records.validate_stream(io.BytesIO(line), fast=on)) for on in (True, False)]
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


# -- Kujuroku's round (KujurokuRound) ------------------------------------------------------------
# Kujuroku's rounds played in place, against Game.apply: every option (the product of all their
# values), the dealer's takes at the deal, hand-made positions for the Oni and Jizo meetings that random
# play seldom reaches, play_match, and validation with the fast replay on and off.

from hanafuda.engine import action  # noqa: E402
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
    assert fast.result() == game.round_result(state)
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
    """The validation reports of one record, with the fast paths on and off."""
    return [list(records.validate_stream(io.BytesIO(line), fast=on)) for on in (True, False)]


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



def _kujuroku_candidates(fast: FastRound[Any]) -> list[Action | None]:
    """Actions to offer the fast replay where it stands: every legal one and equal copies of them (not the
    shared instances), the plays of every card of the deck alone and onto each card of its number, the
    jokers' plays (alone and onto cards), takes and collects, other kinds and malformed actions."""
    idx = kj.INDEX
    out: list[Action | None] = [None, Action("play"), Action("stop"), Action("play", (10, 11, 12)),
                                action("play", (ONI,)), action("play", (JIZO,)), action("play", (JIZO, 10)),
                                action("take", (10,)), action("take", (ONI,)), action("collect", (ONI, 10)),
                                action("collect", (10, 11)), action("play", (10, ONI)), Action("play", (10,))]
    out += list(fast.legal())
    out += [Action(a.kind, a.cards, a.label) for a in fast.legal()]
    for c in idx.cards:
        out.append(idx.plays[c.mask])
        out += list(idx.plays_on.get(c.mask, {}).values())
        if c.suit:
            out.append(action("play", (ONI, c.id)))
    return out


def _kujuroku_listed(r: kj.KujurokuRound, a: Action | None) -> Action | None:
    """What the default replay is offered in place of ``a``: where the masks decide a hand play
    (``plays_from_masks``) the shared replay finds the play by its value, so an equal copy of a listed play
    stands for the listed instance; elsewhere ``a`` itself."""
    if a is None or r.plays_from_masks() is None:
        return a
    return next((x for x in r.legal() if x == a), a)


def _kujuroku_replay_and_result(rules: kj.KujurokuRules, seed: int, policy_seed: int, rounds: int = 99) -> int:
    """A match played with the fast rounds (random actions): at every position of every round, every
    candidate (:func:`_kujuroku_candidates`) offered twice to ``KujurokuRound.replay`` and to the default
    ``FastRound.replay`` from that position (:func:`_kujuroku_listed`), which must play the same number of them
    to the same position;
    at the end of each round, ``result()`` is ``round_result`` of its final state. Return the rounds played."""
    game = kj.GAME
    m: Match[Any, Any] = Match.start(game, rules, seed)
    rng = SplitMix64(policy_seed)
    played = 0
    while not m.over and played < rounds:
        fast = game.fast_round(m.state)
        if fast is None:  # a misdeal: Match settles it
            m = Match.advance(m)
            continue
        played += 1
        while not fast.over():
            state = fast.state()
            for a in _kujuroku_candidates(fast):
                mine, default = kj.KujurokuRound(state), kj.KujurokuRound(state)
                got = mine.replay([a, a], 0, 2)
                b = _kujuroku_listed(default, a)
                assert got == FastRound[Any].replay(default, [b, b], 0, 2), (a, state.phase)
                assert mine.state() == default.state()
                if got and mine.over():
                    assert mine.result() == game.round_result(mine.state())
            legal = fast.legal()
            fast.play(legal[rng.below(len(legal))])
        state = fast.state()
        assert fast.result() == game.round_result(state)
        m = Match.advance(evolve(m, state=state))
    return played


@given(_options(kj.GAME), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_kujuroku_fast_replay_accepts_what_the_listed_actions_accept(opts: dict[str, str], seed: int,
                                                                     policy: int) -> None:
    """``KujurokuRound.replay`` (a numbered card's play checked on the masks) plays exactly the actions the
    default replay plays (those ``legal()`` lists, as the same objects), at every step of a match's
    rounds, to the same position; ``KujurokuRound.result`` is ``round_result`` of the final state."""
    rules = _rules(kj.GAME, None, opts)
    assert _kujuroku_replay_and_result(rules, seed, policy, rounds=3) > 0


def test_kujuroku_fast_replay_and_result_under_every_combination_of_options() -> None:
    """A fixed sweep: the product of every option's values, the first round of a match each."""
    for n, opts in enumerate(_kujuroku_options()):
        assert _kujuroku_replay_and_result(kj.GAME.rules(None, opts), 104729 * n, n, rounds=1) > 0, opts


def test_kujuroku_fast_replay_and_result_on_the_joker_meetings() -> None:
    """The hand-made positions (the Oni and Jizo meetings, positions no deal reaches: a joker on the field
    as a turn starts, the dealer's takes with jokers on the field): every candidate from the first
    position and after each first action; ``result`` at the end of each round played out."""
    starts = [_kujuroku_position(h, f, st_, c, o, cap) for _, h, f, st_, c, cap in _KJ_POSITIONS
              for o in ({"jizo": "on"}, {"jizo": "on", "jizo_timing": "at-capture"})]
    starts += [s for _, s in _kujuroku_unreached()]
    starts += [d for ph in (kj.Phase.DEAL_ONI, kj.Phase.DEAL_TRIPLE) for d in _kujuroku_deals(ph, {"jizo": "on"})]
    for s in starts:
        for first in range(len(kj.GAME.legal_actions(s))):
            fast = kj.KujurokuRound(s)
            step = 0
            while not fast.over() and step < 3:
                here = fast.state()
                for a in _kujuroku_candidates(fast):
                    mine, default = kj.KujurokuRound(here), kj.KujurokuRound(here)
                    b = _kujuroku_listed(default, a)
                    try:
                        got = mine.replay([a, a], 0, 2)
                    except AssertionError:  # a hand-made position without a single remaining card (KJ-ONI-6)
                        with pytest.raises(AssertionError):
                            FastRound[Any].replay(default, [b, b], 0, 2)
                        continue
                    assert got == FastRound[Any].replay(default, [b, b], 0, 2)
                    assert mine.state() == default.state()
                legal = fast.legal()
                try:
                    fast.play(legal[first % len(legal)] if step == 0 else legal[0])
                except AssertionError:
                    break
                step += 1


def test_kujuroku_records_validate_the_same_with_the_fast_paths_under_every_combination_of_options() -> None:
    """Validation with the fast paths (the replay on masks, ``result``) on and off gives the same reports,
    for a record of each combination of option values (``validate_stream(..., fast=False)``)."""
    for n, opts in enumerate(_kujuroku_options()):
        rec = records.record_match(kj.GAME, None, opts, n, n + 1)
        reports = _validate_both_ways(json.dumps(rec).encode() + b"\n")
        assert reports[0] == reports[1] and reports[0][0].ok, opts


def _check_kujuroku_deal_fast(rules: kj.KujurokuRules, order: Sequence[int], setup: RoundSetup,
                              policy: int) -> bool:
    """``deal_fast`` against ``start_round``: None exactly for the rounds over at the deal (a misdeal, a
    dekiyaku of the dealer's takes: KJ-DEAL-3, KJ-YAKU-1); otherwise the round's first position is the
    reference's (a deal phase's too), and it plays the same (legal actions, positions, result) to the end.
    Return whether it dealt."""
    state = kj.GAME.start_round(rules, [_KJ_CARDS[i] for i in order], setup)
    fast = kj.GAME.deal_fast(rules, order, setup)
    assert (fast is None) == (state.phase is kj.Phase.OVER)
    if fast is None:
        return False
    rng = SplitMix64(policy)
    assert fast.state() == state
    while not fast.over():
        legal = tuple(fast.legal())
        assert legal == kj.GAME.legal_actions(state)
        a = legal[rng.below(len(legal))]
        fast.play(a)
        state = kj.GAME.apply(state, a)
        assert fast.state() == state
    assert fast.result() == kj.GAME.round_result(state)
    return True


_KJ_FIELD = kj._DEAL["field"](range(len(kj.INDEX.cards)))  # the positions dealt to the field


def _kujuroku_clumped(order: list[int], put: Sequence[int]) -> list[int]:
    """``order`` with the cards ``put`` swapped onto the field's deal positions (three or four of a number,
    the jokers: what the deal's checks look for)."""
    order = list(order)
    for pos, card in zip(_KJ_FIELD, put, strict=False):
        j = order.index(card)
        order[pos], order[j] = order[j], order[pos]
    return order


_KJ_PUTS: tuple[tuple[int, ...], ...] = ((), (30, 31, 32), (30, 31, 32, 33), (ONI,), (JIZO,), (ONI, JIZO),
                                         (ONI, 40, 41, 42), (JIZO, 50, 51, 52), (60, 61, 70, 71, 80, 81))


@given(_options(kj.GAME), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(1, 30),
       st.integers(0, 3), st.sampled_from(_KJ_PUTS))
def test_kujuroku_deal_fast_is_start_round_then_fast_round(opts: dict[str, str], seed: int, policy: int,
                                                           number: int, dealer: int, put: tuple[int, ...]) -> None:
    """KJ-DEAL-2…6: a deal (the jokers and three or four of a number put on the field, or not) dealt by
    ``deal_fast`` is the round ``start_round`` deals, played the same way to the same result; None
    exactly for the rounds over at the deal."""
    rules = _rules(kj.GAME, None, opts)
    ids = [c.id for c in rules.deck.cards]
    if not set(put) <= set(ids):
        reject()
    seats = rules.seats
    d = dealer % seats
    setup = RoundSetup(number, d, tuple(sorted((d + k) % seats for k in range(3))), (30,) * seats)
    _check_kujuroku_deal_fast(rules, _kujuroku_clumped(fast_shuffled(ids, SplitMix64(seed)), put), setup, policy)


def test_kujuroku_deal_fast_under_every_combination_of_options() -> None:
    """A fixed sweep: the product of every option's values, the deals of two matches each and every
    field of :data:`_KJ_PUTS` (not vacuous: most deals are dealt fast)."""
    dealt = tried = 0
    for n, opts in enumerate(_kujuroku_options()):
        rules = kj.GAME.rules(None, opts)
        for seed in range(2):
            m: Match[Any, Any] = Match.start(kj.GAME, rules, 31 * n + seed)
            tried += 1
            dealt += _check_kujuroku_deal_fast(rules, m.deck_order, m.state.setup, seed)
            ids = list(m.deck_order)
            for put in _KJ_PUTS:
                if set(put) <= set(ids):
                    _check_kujuroku_deal_fast(rules, _kujuroku_clumped(ids, put), m.state.setup, n)
    assert dealt > tried // 2


def test_kujuroku_deal_fast_refuses_an_order_that_is_not_the_deck() -> None:
    rules = kj.GAME.rules()
    ids = [c.id for c in rules.deck.cards]
    setup = RoundSetup(1, 0, (0, 1, 2), (30,) * 4)
    for bad in (ids[:-1], [*ids, 99], [ids[1], *ids[1:]], [*ids[:-1], JIZO], [*ids[:-1], 999]):
        assert kj.GAME.deal_fast(rules, bad, setup) is None
        with pytest.raises((ValueError, KeyError)):
            kj.GAME.start_round(rules, [_KJ_CARDS[i] for i in bad], setup)


@given(_options(kj.GAME), st.integers(0, 2**16), st.integers(0, 2000),
       st.sampled_from(("play 999", "play 0", "play 1", "play 0 999", "take 10", "collect 0 10", "play 10 11",
                        "play 10", "stop", "nonsense!", "")), st.integers(0, 9), st.booleans())
def test_broken_kujuroku_records_get_the_same_report_through_the_fast_paths(opts: dict[str, str], seed: int,
                                                                            where: int, bad: str, how: int,
                                                                            act: bool) -> None:
    """Kujuroku records with an action replaced by an illegal or malformed one, or a claim broken (a
    round's deltas, reason, yaku, winner, action count, notes or next dealer; the final scores or
    winners): the same reports with the fast paths (deal_fast, the replay on masks, ``result``, the
    parser's shortcuts) on and off."""
    _rules(kj.GAME, None, opts)
    rec = records.record_match(kj.GAME, None, opts, seed, seed)
    if act:
        acts = rec["actions"]
        assert isinstance(acts, list)
        acts[where % len(acts)] = bad
    else:
        _break_claim(rec, where, how)
    line = json.dumps(rec).encode() + b"\n"
    assert _validate(line, True) == _validate(line, False)

# -- end of Kujuroku's fast round ----------------------------------------------------------------


# -- third pass (benchmarks/README.md, "Validation and rounds, third pass") ----------------------
# The shuffle's outputs computed all at once, rounds dealt straight into the fast rounds
# (Game.deal_fast), round results from the fast rounds (FastRound.result), the fast replay's legality
# test on masks (FastRound.replay), Kekoro's yaku counters and the record parser's shortcuts.


_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1


def _unmix(z: int) -> int:
    """The SplitMix64 state whose output is ``z`` (the output function is a bijection of 64-bit words)."""
    def unxorshift(x: int, k: int) -> int:
        y = x
        for _ in range(64 // k + 1):
            y = x ^ (y >> k)
        return y & _MASK64
    z = unxorshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & _MASK64
    z = unxorshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & _MASK64
    return unxorshift(z, 30)


@given(st.integers(0, 2**64 - 1), st.integers(2, 64))
def test_the_lanes_hold_the_generators_next_outputs(seed: int, size: int) -> None:
    ones, lanes_mask, steps, unpack, _, _ = _lanes(size)
    rng = SplitMix64(seed)
    assert _outputs(seed, ones, lanes_mask, steps, unpack) == tuple(rng.next() for _ in range(size - 1))


@pytest.mark.parametrize("step", [0, 1, 20, 46])
@pytest.mark.parametrize("output", [_MASK64, _MASK64 - 15, _MASK64 - 63])
def test_fast_shuffled_takes_a_rejected_output_as_the_spec_does(step: int, output: int) -> None:
    """A generator whose output at ``step`` of a 48-card shuffle is one ``below`` may reject (the
    state found by inverting the output function): the same order and generator state as the spec's.
    Outputs at or above ``2**64 - 64`` take the one-by-one steps; the first two are rejected by
    ``below(48 - step)`` for some steps (2**64 % 48 is 16)."""
    seed = (_unmix(output) - (step + 1) * _GOLDEN) & _MASK64
    probe = SplitMix64(seed)
    assert [probe.next() for _ in range(step + 1)][-1] == output
    a, b = SplitMix64(seed), SplitMix64(seed)
    assert fast_shuffled(list(range(48)), a) == shuffled(list(range(48)), b)
    assert a.state == b.state


_DEALT: tuple[Game[Any, Any], ...] = (kk.GAME, ke.GAME)


def _deal(game: Game[Any, Any], rules: Any, seed: int, number: int, dealer: int) -> tuple[Any, Any, Any]:
    """A deck order from ``seed`` dealt both ways: the round of ``deal_fast`` (or None), the reference's
    first position, and the ids of the order."""
    ids = [c.id for c in game.deck(rules).cards]
    order = fast_shuffled(ids, SplitMix64(seed))
    setup = RoundSetup(number, dealer, (0, 1), (0, 0))
    by_id = {c.id: c for c in game.deck(rules).cards}
    return game.deal_fast(rules, order, setup), game.start_round(rules, [by_id[i] for i in order], setup), order


def _play_out(game: Game[Any, Any], fast: FastRound[Any], state: Any, rng: SplitMix64) -> None:
    """Play a dealt fast round and the reference side by side to the end; compare the legal actions,
    the positions and the result."""
    assert fast.state() == state
    while not fast.over():
        legal = tuple(fast.legal())
        assert legal == game.legal_actions(state)
        a = legal[rng.below(len(legal))]
        fast.play(a)
        state = game.apply(state, a)
        assert fast.state() == state
    assert game.is_terminal(state)
    assert fast.result() == game.round_result(state)


@given(st.data(), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(1, 30), st.integers(0, 1))
def test_deal_fast_is_start_round_then_fast_round(data: st.DataObject, seed: int, policy: int, number: int,
                                                  dealer: int) -> None:
    """A round dealt by ``deal_fast`` is the round ``start_round`` deals (its first position, built on
    demand, equal to the reference's), played the same way to the same result; None only where the
    fast round would not take the position, or for a deal that some option could end at once."""
    game = data.draw(st.sampled_from(_DEALT))
    rules = _rules(game, data.draw(st.sampled_from((None, *(rs.name for rs in game.spec.rulesets)))),
                   data.draw(_options(game)))
    fast, state, _ = _deal(game, rules, seed, number, dealer)
    if fast is None:
        return
    assert not game.is_terminal(state) and game.fast_round(state) is not None
    _play_out(game, fast, state, SplitMix64(policy))


@pytest.mark.parametrize(("key", "option", "value"),
                         [p for p in _option_values() if p.values[0] in ("koikoi", "kekoro")])
def test_deal_fast_under_each_option_value(key: str, option: str, value: str) -> None:
    """A fixed sweep: every option value on its own, 30 deals each; the default rules and the deals
    they play are all dealt straight into the fast round (not a vacuous check)."""
    game = registry.game(key)
    rules = game.rules(None, {option: value})
    for seed in range(30):
        fast, state, _ = _deal(game, rules, seed, seed % 12 + 1, seed % 2)
        if fast is not None:
            _play_out(game, fast, state, SplitMix64(seed))


@pytest.mark.parametrize("game", _DEALT, ids=lambda g: g.spec.key)
def test_deal_fast_leaves_only_the_deals_over_at_once_under_the_default_rules(game: Game[Any, Any]) -> None:
    rules = game.rules()
    for seed in range(400):
        fast, state, _ = _deal(game, rules, seed, seed % 12 + 1, seed % 2)
        assert (fast is None) == game.is_terminal(state)


_SHAPES = ((4,), (3,), (2, 2, 2, 2), (4, 2, 2), (3, 2, 2, 2), (2, 2, 2), (4, 4))


def _clump(game: Game[Any, Any], rules: Any, order: list[int], zone: int, months: Sequence[int],
           shape: Sequence[int]) -> list[int]:
    """``order`` (card ids) with cards of ``months`` swapped into deal zone ``zone`` (0 the ko's hand, 1 the
    table, 2 the dealer's hand), ``shape`` giving how many of each month: four of a month, three, four
    pairs and mixes, what the deal checks look for (random orders rarely have them)."""
    by_month: dict[int, list[int]] = {}
    for c in game.deck(rules).cards:
        by_month.setdefault(c.suit, []).append(c.id)
    order = list(order)
    positions = rules.dealing[zone](range(len(order)))
    wanted = [i for m, k in zip(months, shape, strict=False) for i in by_month[m][:k]][:len(positions)]
    for pos, card in zip(positions, wanted, strict=False):  # swap each wanted card into the zone
        j = order.index(card)
        order[pos], order[j] = order[j], order[pos]
    return order


def _check_deal_fast(game: Game[Any, Any], rules: Any, order: list[int], setup: RoundSetup, exact: bool) -> None:
    """A round dealt by deal_fast is the one start_round deals and lets play; with ``exact``, deal_fast
    leaves to start_round only the deals that end at once."""
    by_id = {c.id: c for c in game.deck(rules).cards}
    fast = game.deal_fast(rules, order, setup)
    state = game.start_round(rules, [by_id[i] for i in order], setup)
    if fast is not None:
        assert not game.is_terminal(state)
        _play_out(game, fast, state, SplitMix64(7))
    if exact:
        assert (fast is None) == game.is_terminal(state)


@given(st.data(), st.integers(0, 1))
def test_KK_DEAL_3_deal_fast_on_deals_the_checks_look_at(data: st.DataObject, dealer: int) -> None:
    """Deals with fours, threes and pairs of a month on the table or in a hand, under any options."""
    game = data.draw(st.sampled_from(_DEALT))
    opts = data.draw(_options(game))
    rules = _rules(game, None, opts)
    order = list(data.draw(st.permutations([c.id for c in game.deck(rules).cards])))
    order = _clump(game, rules, order, data.draw(st.integers(0, 2)), data.draw(st.permutations(range(1, 13))),
                   data.draw(st.sampled_from(_SHAPES)))
    _check_deal_fast(game, rules, order, RoundSetup(data.draw(st.integers(1, 12)), dealer, (0, 1), (0, 0)), not opts)


@pytest.mark.parametrize("game", _DEALT, ids=lambda g: g.spec.key)
def test_KK_DEAL_3_deal_fast_sweep_of_the_deals_the_checks_look_at(game: Game[Any, Any]) -> None:
    """A fixed sweep: every zone and shape of :func:`_clump`, four seeds each, under the default rules
    (exactly the deals over at once left to start_round) and each value of the options of the deal."""
    keys = {"field_teyaku", "field_three", "field_pairs", "teyaku", "hand_pairs", "teyaku_both", "packets",
            "hand_size", "lightning", "misdeal"}
    variants: list[dict[str, str]] = [{}] + [{o.key: v} for o in game.spec.options if o.key in keys for v in o.choices]
    for opts in variants:
        try:
            rules = game.rules(None, opts)
        except OptionError:
            continue
        ids = [c.id for c in game.deck(rules).cards]
        for zone in range(3):
            for shape in _SHAPES:
                for seed in range(4):
                    order = _clump(game, rules, fast_shuffled(ids, SplitMix64(seed)), zone,
                                   (seed + 3, seed + 6, seed + 9, seed + 1, seed + 5), shape)
                    _check_deal_fast(game, rules, order, RoundSetup(seed + 1, seed % 2, (0, 1), (0, 0)), not opts)


@given(st.integers(0, 2**48 - 1), st.integers(0, 2**48 - 1), st.booleans())
def test_KK_DEAL_3_month_tests_on_hex_digits_agree_with_the_counts(a: int, b: int, sparse: bool) -> None:
    """deal_fast's tests of four, three and pairs of a month on all months at once (a hexadecimal digit
    of the mask per month) against the counts of each month."""
    mask = a & b if sparse else a
    counts = [(mask & m).bit_count() for m in kk.INDEX.suits.values()]
    n = suit_counts(mask)
    assert bool(n & FOURS) == (4 in counts)
    assert kk._three(n) == (max(counts) >= 3)
    assert kk._pairs(n) == sum(c // 2 for c in counts)
    assert ke._four_in(mask) == any(mask & m == m for m in ke.INDEX.suits.values())


@given(st.integers(0, 2**48 - 1), st.integers(0, 2**48 - 1), _options(ke.GAME))
def test_KE_IV_2_kekoro_yaku_counters_count_the_yaku(a: int, b: int, opts: dict[str, str]) -> None:
    """The round's yaku counters (``Scorer.counters``, added card by card) count the yaku the pile forms
    (``yaku_of``, the table read row by row), and ``yaku_count`` is that count."""
    sc = _rules(ke.GAME, None, opts).scorer
    _, complement, tops = sc.counters
    for pile in (a, a & b, a | b):
        assert ((sc.count_of(pile) + complement) & tops).bit_count() == len(sc.yaku_of(pile))
        assert sc.yaku_count(pile) == len(sc.yaku_of(pile))
    assert sc.count_of(a) + sc.count_of(b & ~a) == sc.count_of(a | b)


def _candidates(fast: FastRound[Any], index: Any) -> list[Action | None]:
    """Actions to offer the fast replay where it stands: every legal one, other plays of every card of
    the deck (with and without a target), equal copies that are not the shared instances, and others."""
    out: list[Action | None] = [None, Action("play", (10,)), Action("koikoi"), Action("stop"), Action("take", (10,)),
                                Action("continue"), Action("play")]
    out += list(fast.legal())
    out += [Action(a.kind, a.cards, a.label) for a in fast.legal()]
    for c in index.cards:
        out.append(index.plays[c.mask])
        out += list(index.plays_on.get(c.mask, {}).values())[:2]
    return out


@given(st.data(), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_fast_replay_accepts_what_the_listed_actions_accept(data: st.DataObject, seed: int, policy: int) -> None:
    """``FastRound.replay`` of Koi-Koi, Kekoro and Musashino-Bana (a play's legality read from the masks)
    plays exactly the actions the default replay plays (those ``legal()`` lists, as the same objects), at
    every step of a round, to the same position."""
    game = data.draw(st.sampled_from((*_DEALT, mb.GAME)))
    _replays_agree(game, _rules(game, None, data.draw(_options(game))), seed, policy)


@pytest.mark.parametrize("key", ["koikoi", "kekoro", "musashino"])
@pytest.mark.parametrize("dev", ["two-takes-both", "three-takes-one"])
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_fast_replay_names_targets_as_capture_deviations_do(key: str, dev: str, seed: int, policy: int) -> None:
    """Under the engine deviations of the capture (KK-CAP-2, KK-CAP-3, KE-CAP-2, KE-CAP-3, MB-CAP-2, MB-CAP-3:
    two matches taken together, one of three named) the shared replay reads from the rules which match
    counts name a target: it plays exactly what the default replay plays (it once took ``play c t`` with
    two matches where the deviation lists ``play c`` alone)."""
    game = registry.game(key)
    values = game.spec.resolve(None, {})
    rules = (deviant_rules(values, [deviation(dev)]) if key == "koikoi"
             else deviant_rules_other(key, values, [deviation(dev)]))
    _replays_agree(game, rules, seed, policy)


def _replays_agree(game: Game[Any, Any], rules: Any, seed: int, policy: int) -> None:
    """A round of ``game`` under ``rules`` from ``seed`` (random actions by ``policy``): at every step, each
    candidate (:func:`_candidates`) offered twice to the game's ``replay`` and to the default
    ``FastRound.replay`` from the same position plays as many of them, to the same position."""
    index = {kk.GAME: kk.INDEX, ke.GAME: ke.INDEX, mb.GAME: mb.INDEX}[game]
    makers: dict[Any, Callable[[Any], FastRound[Any]]] = {
        kk.GAME: kk.KoiKoiRound, ke.GAME: ke.KekoroRound,
        mb.GAME: mb.MusashinoRound}
    make = makers[game]
    m: Match[Any, Any] = Match.start(game, rules, seed)
    rng = SplitMix64(policy)
    fast = game.fast_round(m.state)
    if fast is None:
        return
    while not fast.over():
        state = fast.state()
        for a in _candidates(fast, index):
            # two fast rounds from this position (in any phase: fast_round itself starts them at a play)
            mine, default = make(state), make(state)
            got = mine.replay([a, a], 0, 2)
            # where the masks decide a hand play (FishingRound.replay), an equal copy stands for the listed play
            from_masks = isinstance(default, FishingRound) and default.plays_from_masks() is not None
            b = next((x for x in default.legal() if x == a), a) if from_masks else a
            assert got == FastRound[Any].replay(default, [b, b], 0, 2)
            assert mine.state() == default.state()
        legal = fast.legal()
        fast.play(legal[rng.below(len(legal))])


def _validate(line: bytes, fast: bool) -> list[records.RecordReport]:
    return list(records.validate_stream(io.BytesIO(line), fast=fast))


def _break_claim(rec: dict[str, Any], where: int, how: int) -> None:
    """Change one claim of a record: a round's field, the final scores, winners or end reason."""
    rounds = rec["result"]["rounds"]
    r = rounds[where % len(rounds)]
    if how == 0:
        r["deltas"] = [d + 1 for d in r["deltas"]]
    elif how == 1:
        r["reason"] = "shobu" if r["reason"] != "shobu" else "exhaustive"
    elif how == 2:
        r["yaku"] = [[{"id": "chaff", "points": 3}], []]
    elif how == 3:
        r["winner"] = 1 if r.get("winner") != 1 else 0
    elif how == 4:
        r["actions"] += 1
    elif how == 5:
        rec["result"]["scores"] = [s + 2 for s in rec["result"]["scores"]]
    elif how == 6:
        rec["result"]["winners"] = [9]
    elif how == 7:
        r["notes"] = {"x": 1}
    else:
        r["next_dealer"] = None


@given(st.sampled_from(_DEALT), st.integers(0, 2**16), st.integers(0, 2000),
       st.sampled_from(("play 999", "stop", "koikoi", "take 10", "play 10 11", "play 10", "continue",
                        "declare instant-victory", "nonsense!", "")), st.integers(0, 9), st.booleans())
def test_broken_records_get_the_same_report_through_the_fast_paths(game: Game[Any, Any], seed: int, where: int,
                                                                   bad: str, how: int, act: bool) -> None:
    """Koi-Koi and Kekoro records with an action replaced by an illegal or malformed one, or a claim
    broken: the same reports with the fast paths (deal_fast, the fast replay, FastRound.result, the
    parser's shortcuts) on and off."""
    rec = records.record_match(game, None, {}, seed, seed)
    if act:
        acts = rec["actions"]
        assert isinstance(acts, list)
        acts[where % len(acts)] = bad
    else:
        _break_claim(rec, where, how)
    line = json.dumps(rec).encode() + b"\n"
    assert _validate(line, True) == _validate(line, False)


_ODD = st.one_of(st.none(), st.booleans(), st.integers(-3, 70), st.floats(allow_nan=False), st.text(max_size=3),
                 st.just("x" * 1001), st.lists(st.integers(0, 130), max_size=3),
                 st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))


def _parse_both(doc: Any, lenient: bool = False) -> None:
    got = [spec_records.parse_record(json.loads(json.dumps(doc)), record=3, line=4, lenient=lenient, fast=on)
           for on in (True, False)]
    assert got[0] == got[1]


def _without(k: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["result"]["rounds"][1].pop(k, None)


def _edges() -> list[Any]:
    """Records at the edges of the parser's shortcuts: texts and values at and beyond the limits, types
    that are almost right (a bool for an integer, an integer for a string), a round entry of each odd
    kind."""
    base = records.record_match(kk.GAME, None, {}, 5, 5)
    long, longer = "x" * spec_records.LIMITS["text"], "x" * (spec_records.LIMITS["text"] + 1)
    out = []

    def case(name: str, change: Callable[[dict[str, Any]], None]) -> None:
        doc = json.loads(json.dumps(base))
        change(doc)
        out.append(pytest.param(doc, id=name))

    def action(v: Any) -> Callable[[dict[str, Any]], None]:
        return lambda d: d["actions"].__setitem__(3, v)

    def option(v: Any) -> Callable[[dict[str, Any]], None]:
        return lambda d: d["rules"]["options"].__setitem__("packets", v)

    def round_field(k: str, v: Any) -> Callable[[dict[str, Any]], None]:
        return lambda d: d["result"]["rounds"][1].__setitem__(k, v)

    for name, v in (("long", long), ("too-long", longer), ("int", 7), ("bool", True), ("none", None), ("list", [])):
        case(f"action-{name}", action(v))
        case(f"option-{name}", option(v))
    case("no-actions", lambda d: d.__setitem__("actions", []))
    case("no-options", lambda d: d["rules"].__setitem__("options", {}))
    for k in spec_records._ROUND_FIELDS:
        values: tuple[tuple[str, Any], ...] = (
                        ("bool", True), ("int", 1), ("none", None), ("str", "2"), ("long", longer), ("list", [0, 1]),
                        ("bools", [True, 0]), ("dict", {"a": 1}), ("dict-bool", {"a": True}), ("huge", 10**7),
                        ("negative", -1), ("players", [0] * 17), ("yaku", [[{"id": "x", "points": 1, "z": 0}]]))
        for name, v in values:
            case(f"round-{k}-{name}", round_field(k, v))
        case(f"round-without-{k}", _without(k))
    case("round-extra-field", round_field("colour", 1))
    case("round-not-an-object", lambda d: d["result"]["rounds"].__setitem__(1, [1]))
    return out


@pytest.mark.parametrize("doc", _edges())
def test_the_record_parser_gives_the_same_at_the_edges_of_its_shortcuts(doc: Any) -> None:
    for lenient in (False, True):
        _parse_both(doc, lenient)
    for fmt in (spec_records.FORMAT, spec_records.FORMAT_1_1):
        _parse_both({**doc, "format": fmt})


@given(st.sampled_from(_DEALT), st.integers(0, 2**10), st.data())
def test_the_record_parser_gives_the_same_with_and_without_its_shortcuts(game: Game[Any, Any], seed: int,
                                                                         data: st.DataObject) -> None:
    """Records with odd values put in the places the parser's shortcuts look at (actions, option values,
    round entries and their fields, unknown fields): the same record and the same problems, in order."""
    rec: dict[str, Any] = records.record_match(game, None, {}, seed, seed)
    for _ in range(data.draw(st.integers(0, 3))):
        place = data.draw(st.integers(0, 5))
        odd = data.draw(_ODD)
        rounds = rec["result"]["rounds"]
        if place == 0:
            rec["actions"][data.draw(st.integers(0, len(rec["actions"]) - 1))] = odd
        elif place == 1:
            rec["rules"]["options"][data.draw(st.sampled_from(sorted(rec["rules"]["options"])))] = odd
        elif place == 2:
            r = rounds[data.draw(st.integers(0, len(rounds) - 1))]
            if isinstance(r, dict):
                r[data.draw(st.sampled_from((*spec_records._ROUND_FIELDS, "extra")))] = odd
        elif place == 3:
            rounds[data.draw(st.integers(0, len(rounds) - 1))] = odd
        elif place == 4:
            rec[data.draw(st.sampled_from(("deck", "colour", "first_dealer")))] = odd
        else:
            r = rounds[data.draw(st.integers(0, len(rounds) - 1))]
            if isinstance(r, dict):
                r.pop(data.draw(st.sampled_from(spec_records._ROUND_FIELDS)), None)
    lenient = data.draw(st.booleans())
    got = [spec_records.parse_record(json.loads(json.dumps(rec)), record=3, line=4, lenient=lenient, fast=on)
           for on in (True, False)]
    assert got[0] == got[1]


def test_fast_actions_leave_every_entry_that_is_not_plain_to_the_reference_loop() -> None:
    """The fast replay's view of the entries: an action where the entry is its text alone and the next
    entry is not a draw; None for claims (seat, position, captures, draws, even unhashable ones), the
    entry before a draw, and text that is not an action."""
    from hanafuda_spec.records import ActionEntry

    play, stop = records._parse_action("play 10"), records._parse_action("stop")
    plain = [ActionEntry("play 10"), ActionEntry("stop"), ActionEntry("x!")]
    assert records._fast_actions(plain) == [play, stop, None]
    mixed = [ActionEntry("play 10"), ActionEntry("play 10", seat=0), ActionEntry("stop"), ActionEntry("", draw=11),
             ActionEntry("stop", captures=[1, 2]), ActionEntry("stop")]  # type: ignore[arg-type]
    assert records._fast_actions(mixed) == [play, None, None, None, None, stop]


# -- mutation run 7 ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [65, 86])
def test_fast_shuffled_of_more_than_64_items_takes_a_rejected_output_as_the_spec_does(size: int) -> None:
    """Beyond 64 items (more than any deck; the precomputed rejection limits stop there) the shuffle is
    the spec's, rejections included: a generator whose first output is the smallest one ``below(size)``
    rejects gives the same order and generator state (reference/hanafuda/engine.py: the size test
    negated sent these sizes to the lanes, whose safe bound holds up to 64 only; 2**64 % 86 is 84)."""
    limit = (1 << 64) - (1 << 64) % size
    seed = (_unmix(limit) - _GOLDEN) & _MASK64
    assert SplitMix64(seed).next() == limit
    a, b = SplitMix64(seed), SplitMix64(seed)
    assert fast_shuffled(list(range(size)), a) == shuffled(list(range(size)), b)
    assert a.state == b.state


# -- the per-round values and the shuffle's rejection test (benchmarks/README.md, "deal: ...") -------------


@pytest.mark.parametrize("cls", [RoundSetup, RoundResult, MatchInfo])
def test_round_values_keep_the_dataclass_constructor(cls: type[Any]) -> None:
    """``_construct.dict_init`` keeps the dataclass's parameters and defaults and the instance frozen."""
    import dataclasses
    import inspect

    fields = dataclasses.fields(cls)
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [inspect.Parameter.empty if f.default is dataclasses.MISSING
                                           else f.default for f in fields]
    given_values = {f.name: (1, 2) for f in fields if f.default is dataclasses.MISSING}
    made = cls(**given_values)
    assert {f.name: getattr(made, f.name) for f in fields} == {
        f.name: given_values.get(f.name, f.default) for f in fields}
    assert made == dataclasses.replace(made) and hash(made) == hash(dataclasses.replace(made))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.dealer = 3


def test_dict_init_refuses_what_it_cannot_build() -> None:
    import dataclasses

    from hanafuda._construct import dict_init

    @dataclasses.dataclass(frozen=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True)
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    for cls in (Checked, Factory):
        with pytest.raises(TypeError):
            dict_init(cls)

