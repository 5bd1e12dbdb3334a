"""The stacked-deal suite of the conformance corpus: rare situations reached on purpose.

Random play seldom deals the situations some rules act in (a four of a month on Koi-Koi's table under
``field_teyaku=dealer-captures``, a draw pile that runs out before the hands do, ...), so a corpus of
seeded matches leaves those rules untested (measured by ``benchmarks/corpus_adequacy.py``, issue 30).
Each :class:`Stack` here names the situation, the rules and the cards that must be dealt where; the
rest of the deal is the documented shuffle of its seed (all of it, for a situation some seed's deal
and play reach, found by a search of seeds and named so). Its record (format 1.1: the deal given as
zones) plays that first deal out with the documented random policy, every action with the position
after it and the round's result claimed, and stops there (status ``abandoned``). ``hanafuda vectors``
writes the suite to ``DIR/stacked/<game>.jsonl``; ``meta.stacked`` says what each record reaches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import FORMAT_1_1, DealZones
from hanafuda_spec.shuffle import SplitMix64, shuffled

from hanafuda.adapter import start_from_deck
from hanafuda.engine import Match, RoundSetup
from hanafuda.records import deal_layout, order_from_zones, zones_from_order

AnyGame = Any


@dataclass(frozen=True)
class Stack:
    """A situation: the game, its rules (a ruleset and option values over it), the cards each zone must
    hold (``hand.N``, ``field``, or ``stock`` from the top), the seed of the other cards' shuffle and of
    the random policy, what it reaches and the rule ids it exercises. ``prefer``: actions the policy
    plays whenever one is legal (``koikoi``: the round goes on to its end), else it picks at random."""

    game: str
    ruleset: str
    options: Mapping[str, str]
    zones: Mapping[str, Sequence[int]]
    why: str
    rule_ids: tuple[str, ...]
    seed: int = 0
    dealer: int = 0
    rounds: int = 1
    prefer: tuple[str, ...] = ()
    extra: Mapping[str, JsonValue] = field(default_factory=dict)


#: The situations, by game. Card ids: month times ten plus the card's rank in its month (0 first).
STACKS: tuple[Stack, ...] = (
    Stack("koikoi", "fudawiki", {"field_teyaku": "dealer-captures"}, {"field": (10, 11, 12, 13)},
          "a four of a month on the table under field_teyaku=dealer-captures: the dealer takes it and four "
          "cards of the draw pile replace it, then play goes on from that table", ("KK-DEAL-8",)),
    Stack("koikoi", "fudawiki", {"field_teyaku": "dealer-captures", "hand_size": "10"},
          {"field": (20, 21, 22, 23, 30, 31, 32, 33)},
          "two fours on the table under dealer-captures with 10-card hands: eight cards of the draw pile "
          "replace them, so the pile runs out before the hands and the last plays have no draw",
          ("KK-DEAL-8", "KK-TURN-5"), prefer=("koikoi",)),
    Stack("koikoi", "fudawiki", {"field_teyaku": "dealer-captures", "hand_size": "10"},
          {"field": (10, 11, 12, 13, 20, 21, 22, 23), "stock": tuple(range(30, 34)) + tuple(range(40, 44))
           + tuple(range(50, 54)) + tuple(range(60, 64)) + tuple(range(70, 74))},
          "fours that keep coming under dealer-captures: each four the draw pile puts on the table is taken "
          "again, until the pile cannot replace one: the deal is void", ("KK-DEAL-8",)),
    Stack("koikoi", "fudawiki", {"field_teyaku": "dealer-wins"}, {"field": (10, 11, 12, 13)},
          "a four of a month on the table under field_teyaku=dealer-wins: the dealer wins the round at the "
          "deal (6 points)", ("KK-DEAL-3",)),
    Stack("koikoi", "fudawiki", {"field_teyaku": "dealer-wins"}, {"field": (10, 11, 12, 13)},
          "the same with seat 1 dealing: the points go to seat 1", ("KK-DEAL-3",), dealer=1),
    Stack("koikoi", "fudawiki", {"lightning": "wild"}, {"stock": (113,)},
          "the wild Lightning drawn: it takes any field card but a Willow, chosen by the player",
          ("KK-WILD-1", "KK-WILD-3")),
    Stack("koikoi", "fudawiki", {"multiplier": "additive", "exhaustive": "last-yaku"}, {},
          "multiplier=additive and exhaustive=last-yaku, the policy calling koi-koi whenever it may: seed 22's deal "
          "(nothing placed: found by a search of seeds) has the last player to improve call four times before the "
          "draw pile runs out, so the round's winner scores the bonus of a fourth call (the base again, not 4)",
          ("KK-SCORE-6",), seed=22, prefer=("koikoi",)),
    Stack("koikoi", "fudawiki", {"length": "to-50"}, {},
          "length=to-50 played out from seed 10 (nothing placed: found by a search of seeds): the match ends on a "
          "score of exactly 50", ("KK-GAME-2",), seed=10, rounds=100),
    Stack("kujuroku", "fudawiki", {}, {"field": (0, 10, 40, 41, 42, 20)},
          "the dealer's takes at the deal form a dekiyaku: the dealt Oni takes I-tsun, then two of the three 4s "
          "on the table, I-shi among them (Danjou of configuration A): the round ends at the deal",
          ("KJ-DEAL-4", "KJ-DEAL-6", "KJ-YAKU-1", "KJ-YAKU-5"), prefer=("collect 0 10", "collect 40 41")),
    Stack("kujuroku", "fudawiki", {"configuration": "B"}, {"field": (0, 30, 40, 41, 42, 20)},
          "the same under configuration B: the Oni takes the special 3, then two 4s with I-shi (Danjou of "
          "configuration B)", ("KJ-YAKU-1", "KJ-YAKU-6"), prefer=("collect 0 30", "collect 40 41")),
    Stack("kujuroku", "fudawiki", {"configuration": "D"}, {"field": (0, 10, 40, 41, 42, 20)},
          "the first deal under configuration D: I-tsun and I-shi taken at the deal form Danna",
          ("KJ-YAKU-1", "KJ-YAKU-8"), prefer=("collect 0 10", "collect 40 41")),
    Stack("kujuroku", "fudawiki", {"jizo": "on"}, {"hand.0": (0,), "field": (20, 31, 50, 62, 70, 83), "stock": (1,)},
          "jizo=on: the dealer's Oni takes a card from the table and the Jizo is drawn at once: the Oni's capture "
          "goes back to the table and the Jizo takes the Oni", ("KJ-JIZO-2",), prefer=("play 0 20",)),
    Stack("kujuroku", "fudawiki", {}, {},
          "the Oni drawn to a table holding I-tsun alone (seed 2511's deal and play, nothing placed: found by a "
          "search of seeds): facing one card, it takes it at once, with no choice to make", ("KJ-ONI-3",),
          seed=2511),
    Stack("kekoro", "fudawiki", {}, {"field": (10, 11, 12, 13)},
          "a whole month on the table: the deal is void (misdeal=field), no action is legal", ("KE-DEAL-3",)),
    Stack("musashino", "fudawiki", {}, {"field": (10, 11, 12, 13)},
          "a whole month on the table: the deal is void (a misdeal), no action is legal", ("MB-DEAL-4",)),
    Stack("musashino", "fudawiki", {"insta_win_check": "capture"},
          {"hand.0": (11, 81, 121, 82, 83, 122, 123), "field": (10, 30, 80, 110, 120, 20),
           "stock": (31, 12, 13, 111, 32, 33, 112, 113)},
          "insta_win_check=capture: the dealer takes four brights in its first two turns (two hand plays, two "
          "stacked draws) and its third hand play takes the Phoenix, completing Five Kings: the round ends at that "
          "capture, before the draw (the other cards of those months are kept from the other seats: in the "
          "dealer's hand or deep in the pile)",
          ("MB-END-1", "MB-YAKU-2"), prefer=("play 11", "play 81", "play 121")),
)


def stacked_deal(g: AnyGame, rules: Any, s: Stack) -> tuple[int, ...]:
    """The deck order (top first) dealing ``s.zones``' cards where they must go, the others in the order
    of the documented shuffle of ``s.seed``."""
    seats = g.seats(rules)
    layout = deal_layout(g, rules, s.dealer)
    placed = {c for cs in s.zones.values() for c in cs}
    pool = iter([c.id for c in shuffled(g.deck(rules).cards, SplitMix64(s.seed)) if c.id not in placed])
    sizes = Counter(layout)
    filled: dict[str, list[int]] = {}
    for name in [*dict.fromkeys(w for w in layout if w != "stock"), "stock"]:  # the draw pile last
        cs = list(s.zones.get(name, ()))
        if len(cs) > sizes[name]:
            raise ValueError(f"{s.game}: zone {name} holds {sizes[name]} cards, {len(cs)} asked for")
        filled[name] = cs + [next(pool) for _ in range(sizes[name] - len(cs))]
    zones = DealZones(tuple(tuple(filled.get(f"hand.{i}", ())) for i in range(seats)), tuple(filled["field"]),
                      tuple(filled["stock"]), tuple((k, tuple(v)) for k, v in filled.items()
                                                    if k not in ("field", "stock") and not k.startswith("hand.")))
    order = order_from_zones(layout, zones, seats)
    if isinstance(order, str):
        raise ValueError(f"{s.game}: {order}")
    return order


def stacked_record(g: AnyGame, s: Stack) -> dict[str, JsonValue]:
    """The record of a situation: its deal played out by the random policy of ``s.seed`` for
    ``s.rounds`` rounds (later deals: the shuffle of the seed), each action with the position after it."""
    values = g.spec.resolve(s.ruleset, s.options)
    rules = g.rules(s.ruleset, s.options)
    order = stacked_deal(g, rules, s)
    m: Match[Any, Any] = start_from_deck(g, rules, order, s.dealer, s.seed)
    rng = SplitMix64(s.seed)
    layout = deal_layout(g, rules, s.dealer)
    deals: list[JsonValue] = [zones_from_order(layout, order, g.seats(rules)).to_json()]
    actions: list[JsonValue] = []
    while not m.over and len(m.info.history) < s.rounds:
        if len(deals) <= len(m.info.history):  # a later deal: as the match dealt it
            lay = deal_layout(g, rules, m.info.dealer)
            deals.append(zones_from_order(lay, list(m.deck_order), g.seats(rules)).to_json())
        legal = m.legal_actions()
        a = next((x for x in legal if str(x) in s.prefer), None) or legal[rng.below(len(legal))]
        seat = g.to_move(m.state)
        after = g.snapshot(g.do(m.state, a), m.info)
        actions.append({"action": str(a), "seat": seat, "after": after.to_json()})
        m = m.apply(a)
    counts = _counts(g, rules, order, s, actions)
    rounds: list[JsonValue] = [{"deal": k + 1, "actions": counts[k], **_json(r.to_json())}
                               for k, r in enumerate(m.info.history)]
    over = m.over
    doc: dict[str, JsonValue] = {
        "format": FORMAT_1_1, "game": g.spec.key, "rules": {"ruleset": s.ruleset, "options": dict(values)},
        "first_dealer": s.dealer, "players": [f"seat {i}" for i in range(g.seats(rules))],
        "deck": deals[0], "actions": actions,
        "result": {"rounds": rounds, "scores": list(m.info.scores),
                   **({"winners": list(m.info.winners), "end_reason": m.info.end_reason} if over else {})},
        "status": "complete" if over else "abandoned",
        "meta": {"stacked": {"why": s.why, "rule_ids": list(s.rule_ids), "policy_seed": s.seed,
                             **({"prefer": list(s.prefer)} if s.prefer else {}), **s.extra}},
    }
    if len(deals) > 1:
        doc["deals"] = deals[1:len(rounds) + (0 if over else 1)]
    return doc


def _json(v: Mapping[str, Any]) -> dict[str, JsonValue]:
    return dict(v)


def _counts(g: AnyGame, rules: Any, order: Sequence[int], s: Stack, actions: Sequence[Any]) -> list[int]:
    """The number of actions of each round of the record (played again from the deal)."""
    m: Match[Any, Any] = start_from_deck(g, rules, order, s.dealer, s.seed)
    counts, cur = [0] * len(m.info.history), 0
    for entry in actions:
        before = len(m.info.history)
        m = m.apply(next(a for a in m.legal_actions() if str(a) == entry["action"]))
        cur += 1
        ended = len(m.info.history) - before
        if ended:
            counts += [cur] + [0] * (ended - 1)
            cur = 0
    return counts


def dealt_vector(g: AnyGame, rules: Any, zones: Any, dealer: int = 0) -> dict[str, JsonValue]:
    """The position a deal given as zones (JSON) deals, first dealer ``dealer``, and the legal actions
    there (none when the deal ends the round at once)."""
    layout = deal_layout(g, rules, dealer)
    order = order_from_zones(layout, DealZones.from_json(zones), g.seats(rules))
    if isinstance(order, str):
        raise ValueError(order)
    info = g.new_match(rules, dealer)
    setup = RoundSetup(1, info.dealer, g.seats_in_play(rules, info), info.scores)
    deck = g.deck(rules)
    state = g.start_round(rules, [deck.by_id(c) for c in order], setup)
    return {"dealt": g.snapshot(state, info).to_json(), "legal": [str(a) for a in g.legal_actions(state)]}


def stacked_deals(key: str) -> dict[str, JsonValue]:
    """The suite's deal vectors for game ``key``: each situation's deal, the position dealt and the legal
    actions there."""
    from hanafuda.registry import game

    g = game(key)
    rows: list[JsonValue] = []
    for s in STACKS:
        if s.game != key:
            continue
        rules = g.rules(s.ruleset, s.options)
        zones = zones_from_order(deal_layout(g, rules, s.dealer), stacked_deal(g, rules, s), g.seats(rules)).to_json()
        rows.append({"ruleset": s.ruleset, "options": dict(g.spec.resolve(s.ruleset, s.options)),
                     "first_dealer": s.dealer, "deck": zones, **dealt_vector(g, rules, zones, s.dealer),
                     "why": s.why})
    return {"game": key, "deals": rows}


def stacked_records(key: str) -> list[dict[str, JsonValue]]:
    """The suite's records for game ``key``."""
    from hanafuda.registry import game

    g = game(key)
    return [stacked_record(g, s) for s in STACKS if s.game == key]


def _coverage_stacks() -> tuple[Stack, ...]:
    """Situations added for the rule coverage of the corpus (issue 30, item 3): rules whose code no other
    vector tells apart when it is broken."""
    return (
        Stack("koikoi", "fudawiki", {"field_teyaku": "play"}, {"field": (10, 11, 12, 13)},
              "a four of a month on the table under field_teyaku=play: no deal check fires, play goes on around "
              "the four, which no card can take, to the end of the round", ("KK-DEAL-12",), prefer=("koikoi",)),
        Stack("koikoi", "fudawiki", {"teyaku_both": "12"}, {"hand.0": (20, 21, 22, 23, 30, 40, 50, 60)},
              "one lucky hand (all four Plum Blossoms) under teyaku_both=12: it scores 6, the 12 being for a hand "
              "holding both lucky hands", ("KK-DEAL-4", "KK-DEAL-5")),
        Stack("kujuroku", "fudawiki", {}, {"field": (21, 51, 61, 71, 81, 91), "hand.0": (0, 22, 32, 42, 101, 102),
                                           "hand.1": (62, 13, 23, 33, 43, 103), "hand.2": (82, 11, 31, 41, 53, 63),
                                           "stock": (52, 72, 92, 12)},
              "the three participants' first turns take the whole table, then the dealer discards the Oni-fuda onto "
              "the empty field: it is left there when the turn ends and leaves the round (zone out.oni)",
              ("KJ-ONI-4", "KJ-ONI-5"), prefer=("play 22", "play 62", "play 82", "play 0")),
        Stack("kujuroku", "fudawiki", {}, {"hand.0": (50, 51, 52, 53)},
              "all four 5s in the dealer's hand: not a misdeal, the round is played", ("KJ-DEAL-7",)),
    )


STACKS += _coverage_stacks()


def _gap_stacks() -> tuple[Stack, ...]:
    """Situations added for mutants the corpus missed (issue 30, item 4): the dekiyaku of Kujuroku's
    configurations C and D that only form together with a smaller one, and a Kusuri-gui payment larger than
    the payer's chips."""
    return (
        Stack("kujuroku", "fudawiki", {"configuration": "C"},
              {"hand.0": (0, 11, 41, 43, 32, 33), "field": (10, 30, 42, 40), "stock": (31,)},
              "configuration C: the dealer takes I-tsun and the special 3, then two 4s, and its third hand play takes "
              "I-shi: the four 4s, I-tsun and the special 3 complete Shi-Dan (12) with Shi Yaku and Danjou, and the "
              "highest is paid (the other 3s and 4s and the Oni kept in the dealer's hand)",
              ("KJ-YAKU-7", "KJ-YAKU-1"), prefer=("play 11", "play 41 42", "play 43")),
        Stack("kujuroku", "fudawiki", {"configuration": "D", "jizo": "on"},
              {"hand.0": (0, 1, 11, 41, 42, 43), "field": (10, 31, 32), "stock": (30, 40, 52, 33)},
              "configuration D with the Jizo: the dealer takes I-tsun and two 3s, I-shi is drawn to the table, then "
              "the dealer's Oni takes it from the hand, checked only after the draw (jizo_timing=after-draw), which "
              "takes the last 3: the four 3s, I-tsun and I-shi complete Nejikomi (30) with San Shima and Danna at "
              "once, and the highest is paid",
              ("KJ-YAKU-8", "KJ-YAKU-1"), prefer=("play 11", "play 0 40")),
        Stack("kusurigui", "fudawiki", {"bust": "end"}, {},
              "bust=end played out from seed 6 (nothing placed: found by a search of seeds): in the eleventh round "
              "seat 1, down to 4 chips, loses by 30 and pays its 4 only, so the match ends on 200 to 0",
              ("KG-SCORE-3", "KG-GAME-3"), seed=6, rounds=12),
        Stack("kusurigui", "fudawiki", {"bust": "debt"}, {},
              "the same deals and play under bust=debt: seat 1 pays the whole 30 and plays on below zero, ending "
              "the twelve rounds on -21", ("KG-SCORE-3",), seed=6, rounds=12),
    )


STACKS += _gap_stacks()
