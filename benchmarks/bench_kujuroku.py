"""Kujuroku throughput, single core: random rounds/s (41 and 42 cards) through the fast round
(``play_match``) and through the reference ``Match.apply`` loop, validation actions/s, pile scorings/s,
and where the time of a validated deal goes (CPU microseconds per deal of the records' own deals).

Run: ``uv run python benchmarks/bench_kujuroku.py``. A measurement, never a test. CPU seconds of this
process (``time.process_time``).
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from typing import Any

from _bench import rounds_per_second, scorings_per_second
from hanafuda.engine import Action, FastRound, Match, RoundSetup, action, fast_shuffled
from hanafuda.games.kujuroku import GAME, KujurokuState, score_mask
from hanafuda.records import record_match, validate_stream
from hanafuda_spec.cards import DAINI
from hanafuda_spec.shuffle import SplitMix64

clock = time.process_time


def validation(records: int = 40, seconds: float = 2.0) -> float:
    """Actions/s of ``validate_stream`` on the records of 40 random matches (as bench_validate.py)."""
    data = "".join(json.dumps(record_match(GAME, None, {}, s, s), separators=(",", ":")) + "\n"
                   for s in range(records)).encode()
    n = 0
    t0 = clock()
    while clock() - t0 < seconds:
        for rep in validate_stream(io.BytesIO(data)):
            assert rep.ok
            n += rep.actions
    return n / (clock() - t0)


def per_deal(records: int = 40, reps: int = 20) -> dict[str, float]:
    """CPU µs per deal of each step the validation of a deal takes in this module (and the shuffle):
    the deals and actions of 40 recorded matches, each step timed over all of them."""
    rules = GAME.rules()
    by_id = {c.id: c for c in rules.deck.cards}
    deals: list[tuple[list[Any], RoundSetup, list[Action], KujurokuState, Any]] = []
    finals: list[KujurokuState] = []  # every round's final position, in order

    def seen(state: KujurokuState, _info: object) -> None:
        finals.append(state)

    for seed in range(records):
        rec = record_match(GAME, None, {}, seed, seed)
        listed = rec["actions"]
        assert isinstance(listed, list)
        texts = iter([str(t) for t in listed])
        m = Match.start(GAME, rules, seed)
        while not m.over:  # each deal played to its end (deals over at once are settled by Match)
            order, setup, info = [by_id[i] for i in m.deck_order], m.state.setup, m.info
            played: list[Action] = []
            first = len(finals)
            rounds = len(m.info.history)
            while not m.over and len(m.info.history) == rounds:
                a = Action.parse(next(texts))
                played.append(action(a.kind, a.cards, a.label))
                m = m.apply(played[-1], on_round_end=seen)
            deals.append((order, setup, played, finals[first], info))

    def timed(step: Callable[[], object]) -> float:
        step()
        t0 = clock()
        for _ in range(reps):
            step()
        return (clock() - t0) / reps / len(deals) * 1e6

    canonical = [c.id for c in rules.deck.cards]
    starts = [GAME.start_round(rules, order, setup) for order, setup, *_ in deals]
    results = [GAME.round_result(d[3]) for d in deals]

    def shuffle() -> None:
        rng = SplitMix64(1)
        for _ in deals:
            fast_shuffled(canonical, rng)

    def deal() -> None:
        for order, setup, *_ in deals:
            GAME.start_round(rules, order, setup)

    ids = [[c.id for c in d[0]] for d in deals]

    def deal_then_fast(own: bool) -> Callable[[], None]:
        """A deal into its fast round as validation makes it: ``deal_fast`` (``own``; ``start_round`` then
        ``fast_round`` where it gives None), or ``start_round`` then ``fast_round``."""
        def run() -> None:
            for order, d in zip(ids, deals, strict=True):
                if not own or GAME.deal_fast(rules, order, d[1]) is None:
                    s = GAME.start_round(rules, d[0], d[1])
                    GAME.fast_round(s)
        return run

    def replay(with_legal: bool) -> Callable[[], None]:
        def run() -> None:
            for s, d in zip(starts, deals, strict=True):
                fast = GAME.fast_round(s)
                if fast is None:
                    continue
                for a in d[2]:
                    if with_legal:
                        fast.legal()
                    fast.play(a)
                fast.state()
        return run

    def fast_replay(own: bool) -> Callable[[], None]:
        """What validation runs on a deal's fast round: its ``replay`` then ``result()`` (``own``), or the
        engine's default replay (search of the listed actions), the final state and ``round_result``."""
        def run() -> None:
            for s, d in zip(starts, deals, strict=True):
                fast = GAME.fast_round(s)
                if fast is None:
                    continue
                if own:
                    assert fast.replay(d[2], 0, len(d[2])) == len(d[2])
                    assert fast.result() is not None
                else:
                    assert FastRound.replay(fast, d[2], 0, len(d[2])) == len(d[2])
                    GAME.round_result(fast.state())
        return run

    def result() -> None:
        for d in deals:
            GAME.round_result(d[3])

    def settle() -> None:
        for r, d in zip(results, deals, strict=True):
            GAME.settle(rules, d[4], r)

    out = {"shuffle (engine)": timed(shuffle), "start_round": timed(deal),
           "start_round + fast_round": timed(deal_then_fast(False)), "deal_fast": timed(deal_then_fast(True)),
           "fast round: play + state": timed(replay(False)), "fast round: legal + play + state": timed(replay(True)),
           "fast round: default replay + state + round_result": timed(fast_replay(False)),
           "fast round: replay + result()": timed(fast_replay(True)),
           "round_result": timed(result), "settle": timed(settle)}
    out["actions per deal"] = sum(len(d[2]) for d in deals) / len(deals)
    return out


if __name__ == "__main__":
    for jizo, n in (("off", 41), ("on", 42)):
        r = GAME.rules(None, {"jizo": jizo})
        print(f"kujuroku random rounds/s ({n} cards): play_match {rounds_per_second(GAME, r):,.0f}, "
              f"Match.apply loop {rounds_per_second(GAME, r, reference=True):,.0f}")
    print(f"kujuroku validation actions/s: {validation():,.0f}")
    rules = GAME.rules()
    rate = scorings_per_second(lambda p: score_mask(rules, p), DAINI.cards, largest=20)
    print(f"kujuroku pile scorings/s: {rate:,.0f}")
    for k, v in per_deal().items():
        print(f"  {k:50s} {v:8.2f}")
