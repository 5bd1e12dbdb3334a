"""Round settlement of Koi-Koi and Musashino-Bana as spec models: proved zero-sum, refined by play
(issue 32, items 3 and 4).

Neither game's catalogue has a settlement function: the rules say in words who scores what
(KK-SCORE-1…6, KK-DEAL-4, KK-END-2; MB-SCORE-1…5). Here each becomes a z3 model of one round's
deltas, built from the catalogue's option values and, for Koi-Koi, the decision tables of
:mod:`hanafuda_spec.proofs.koikoi` (the koi-koi multiplier and the additive bonus), with every
option value a variable of the model:

* **proved for all inputs**: Koi-Koi's round is zero-sum under zero_sum=on, and under zero_sum=off
  nobody loses and at most one player gains, whatever the end of the round, the yaku points, the
  calls, the Brights on the table and the scoring options; Musashino-Bana's round is zero-sum
  over the seats for every dealer, player count, dekiyaku totals, insta-win, payment cap and
  insta-win value, no side pays more than the cap, and only the winner gains;
* **refined by the reference's play** (sampled): rounds played through the adapter, each round's
  deltas equal to the model evaluated at what the round showed (the end, the winner, the yaku
  reported, the calls made, the table's Brights; the dekiyaku totals and the dealer). Play takes
  the koi-koi calls up to a target drawn per round, so that rounds won after four or more calls
  happen, and the check fails unless its sample reached every row of the settlement (each
  multiplier and bonus row, each way a round ends, zero-sum on and off; capped and uncapped
  payments, insta-wins and ties for Musashino-Bana): a check whose sample missed a case says so.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import koikoi as kk
from hanafuda_spec.games import musashino as mb
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs import koikoi as kkp
from hanafuda_spec.proofs.common import SAMPLED, TERMS, Case, Outcome, timed
from hanafuda_spec.proofs.koikoi import (
    END_DRAWN,
    END_LAST_YAKU,
    END_LUCKY,
    END_MISDEAL,
    END_SHOBU,
    FIELD_MULTIPLIER,
    KK_ENDS,
    KoiKoiSettlement,
    koikoi_inputs,
    koikoi_settlement,
)
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku

__all__ = ["KK_ENDS", "REPLAYS", "KoiKoiSettlement", "MusashinoSettlement", "checks", "koikoi_inputs",
           "koikoi_settlement", "musashino_settlement", "replay_check"]

Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]

#: How a Koi-Koi round ends, as the settlement model (:func:`koikoi_settlement`) codes it.
SHOBU, LAST_YAKU, DRAWN, LUCKY, MISDEAL = END_SHOBU, END_LAST_YAKU, END_DRAWN, END_LUCKY, END_MISDEAL

# -- Koi-Koi -------------------------------------------------------------------------------------------

def koikoi_zero_sum() -> Result:
    m = koikoi_settlement()
    d0, d1 = m.deltas
    zero, w, v = m.v["zero"].eq(1), m.v["w"], m.v
    claims = [
        ("zero_sum=on: the round is zero-sum (KK-SCORE-2)", zero.implies((d0 + d1).eq(0))),
        ("zero_sum=off: nobody loses points and at most one player gains (KK-SCORE-1)",
         (~zero).implies((d0 >= 0) & (d1 >= 0) & (d0.eq(0) | d1.eq(0)))),
        ("the points a round moves are never negative", m.points >= 0),
        ("a shōbu gives its points to the player who called it", (v["end"].eq(SHOBU) & w.eq(0)).implies(
            d0.eq(m.points)) & (v["end"].eq(SHOBU) & w.eq(1)).implies(d1.eq(m.points))),
    ]
    results = z.prove_all(claims, [m.domain])
    bad = next((r for r in results if not r.ok), None)
    if bad is not None:
        return False, f"{bad.name}: {bad.status} {bad.detail}".strip(), {
            "kind": "model", "game": "koikoi", **bad.counterexample}, len(results), ()
    return True, ("proof for all inputs: every end of a round, winner, dealer, yaku points, calls, Brights on the "
                  f"table and every value of multiplier, seven_double, field_multiplier, zero_sum and oyaken "
                  f"({len(claims)} claims)"), {}, len(results), ()


@dataclass
class _KoiKoiWatch:
    """Follows a Koi-Koi match and checks each round's deltas against the settlement model, noting
    which rows of the model the rounds reached."""

    opts: Mapping[str, str]
    model: KoiKoiSettlement
    calls: list[int] = field(default_factory=lambda: [0, 0])
    brights: int | None = None
    dealer: int = 0
    stopper: int | None = None
    last_call: int | None = None
    rounds: int = 0
    reached: set[str] = field(default_factory=set)

    def before(self, s: Snapshot, act: str) -> None:
        if self.brights is None:
            self.brights, self.dealer = sum(1 for c in s.zone("field") if c in kk.BRIGHTS), s.dealer
        if s.to_move is not None and act == "koikoi":
            self.calls[s.to_move] += 1
        if s.to_move is not None and act == "stop":
            self.stopper = s.to_move

    def after(self, adapter: EngineAdapter) -> str | None:
        outs = adapter.rounds_ended()
        if not outs:
            s = adapter.snapshot()
            if s.phase == "call" and s.to_move is not None:
                self.last_call = s.to_move
            return None
        bad = None
        for o in outs:
            bad = bad or self._round(o.reason, o.deltas, o.yaku)
            self.calls, self.brights, self.stopper, self.last_call = [0, 0], None, None, None
        return bad

    def _round(self, reason: str, deltas: Sequence[int], yaku: Sequence[Sequence[ScoredYaku]]) -> str | None:
        o = self.opts
        if self.brights is None:  # a round over at its deal (no action in it)
            self.brights = 0
        winner = max((0, 1), key=lambda i: deltas[i])
        lucky = 0
        if reason == "shobu":
            end, winner = SHOBU, self.stopper if self.stopper is not None else winner
        elif (reason == "exhaustive" and kk.SPEC.value(o, kk.Exhaustive) is kk.Exhaustive.LAST_YAKU
              and self.last_call is not None):
            end, winner = LAST_YAKU, self.last_call
        elif reason == "exhaustive":
            end = DRAWN
        elif reason in ("teyaku", "field-teyaku"):
            end, lucky = LUCKY, max(deltas)
        elif reason == "misdeal":
            end = MISDEAL
        else:
            return f"a round ends by {reason!r}, which the settlement model does not have ({', '.join(KK_ENDS)})"
        base = sum(y.points for y in yaku[winner]) if yaku else 0
        if yaku and kk.SPEC.value(o, kk.YakuCount) is kk.YakuCount.BOTH_PLAYERS:
            base += sum(y.points for y in yaku[1 - winner])
        a = koikoi_inputs(o, end, winner, self.dealer, base, self.calls, self.brights, lucky)
        want = tuple(z.evaluate(d, a) for d in self.model.deltas)
        self.rounds += 1
        self._note(a, end)
        if tuple(deltas) != want:
            return (f"a round ended {reason} (settled as {KK_ENDS[end]}, winner seat {winner}, dealer {self.dealer}, "
                    f"base {base}, calls {self.calls}, {self.brights} Brights on the table): deltas {list(deltas)}, "
                    f"the settlement model says {list(want)}")
        return None

    def _note(self, a: Mapping[str, int], end: int) -> None:
        self.reached.add(f"end {KK_ENDS[end]}")
        if end in (SHOBU, LAST_YAKU):
            mode = kk.SPEC.value(self.opts, kk.Multiplier)
            additive = mode is kk.Multiplier.ADDITIVE
            rows = kkp.bonus_rows() if additive else kkp.multiplier_rows()
            row = z.evaluate(self.model.bonus_row if additive else self.model.koi_row, a)
            self.reached.add(f"{mode} row '{rows[row].rule}'")
            if kk.SPEC.value(self.opts, kk.ZeroSum) is kk.ZeroSum.ON:
                self.reached.add("zero_sum=on, a round won")


@functools.cache
def koikoi_rows_expected() -> frozenset[str]:
    """Every row of the settlement the refinement must reach (its sample's coverage): each row of the
    multiplier and bonus tables, and the ends of a round that play reaches (a lucky hand or a misdeal
    comes with about one deal in a hundred, and the deal decides it: the settlement's arithmetic there
    is the proof's)."""
    rows = {f"end {KK_ENDS[e]}" for e in (SHOBU, LAST_YAKU, DRAWN)}
    v = {n: z.int_var(n) for n in ("mode", "own", "other")}
    session = z.Session([v["own"] >= 0, v["other"] >= 0])
    for member in kk.Multiplier:
        k, mode = kkp.MODE[member], member.value
        if mode == "additive":
            rows |= {f"{mode} row '{r.rule}'" for r in kkp.bonus_rows()}
            continue
        rows |= {f"{mode} row '{r.rule}'" for r in kkp.multiplier_rows()
                 if session.find_all([v["mode"].eq(k), r.guard(v)], [v["own"]], 1)}
    return frozenset(rows | {"zero_sum=on, a round won"})


#: The calls a player makes in a round before stopping, drawn per round: up to 5, so that rounds won
#: after four or more calls (the additive bonus's last row) happen.
MOST_CALLS = 5


def _koikoi_play(adapter: EngineAdapter, opts: Mapping[str, str], seed: int, watch: _KoiKoiWatch,
                 ) -> tuple[str | None, list[str]]:
    rng = SplitMix64(seed)
    adapter.start("koikoi", opts, seed)
    target = [rng.below(MOST_CALLS + 1) for _ in range(2)]
    actions: list[str] = []
    while not adapter.match_over() and len(actions) < 5000:
        legal = adapter.legal_actions()
        s = adapter.snapshot()
        if "koikoi" in legal and s.to_move is not None:
            act = "koikoi" if watch.calls[s.to_move] < target[s.to_move] else "stop"
        else:
            field_months = {c // 10 for c in s.zone("field")}
            takes = [x for x in legal if x.startswith("play") and len(x.split()) > 1 and x.split()[1].isdigit()
                     and int(x.split()[1]) // 10 in field_months]
            act = takes[rng.below(len(takes))] if takes and rng.below(4) else legal[rng.below(len(legal))]
        watch.before(s, act)
        adapter.apply(act)
        actions.append(act)
        n = watch.rounds
        bad = watch.after(adapter)
        if bad:
            return bad, actions
        if watch.rounds != n:
            target = [rng.below(MOST_CALLS + 1) for _ in range(2)]
    return None, actions


def koikoi_option_sets() -> list[dict[str, str]]:
    """Every multiplier mode, each with exhaustive=last-yaku (rounds that run out are won by the last
    yaku, so calls pile up) and zero-sum, seven_double, field_multiplier and oyaken taking each value."""
    fms, privs = FIELD_MULTIPLIER.members, tuple(kk.Oyaken)
    return [kk.SPEC.resolve(None, {"multiplier": mode, "exhaustive": "last-yaku" if i % 3 else "nobody",
                                   "zero_sum": ("on", "off")[i % 2], "seven_double": ("on", "off")[i // 2 % 2],
                                   "field_multiplier": fms[i % 3], "oyaken": privs[i % len(privs)]})
            for i, mode in enumerate(m.value for m in kk.Multiplier)]


def koikoi_refinement(adapter: EngineAdapter, quick: bool) -> Result:
    model = koikoi_settlement()
    rounds = 0
    reached: set[str] = set()
    rng = SplitMix64(20261127)
    for opts in koikoi_option_sets():
        for k in range(8 if quick else 16):
            watch = _KoiKoiWatch(opts, model)
            seed = rng.next()
            bad, actions = _koikoi_play(adapter, opts, seed, watch)
            rounds += watch.rounds
            reached |= watch.reached
            if bad:
                return False, f"multiplier={kk.SPEC.value(opts, kk.Multiplier)}: {bad}", {
                    "kind": "play", "game": "koikoi", "options": dict(opts), "seed": seed, "actions": actions,
                    "check": REPLAYS[0]}, rounds, ()
            if k + 1 >= (1 if quick else 3) and _covered(opts, reached):  # played on until its rows are reached
                break
    missed = sorted(koikoi_rows_expected() - reached)
    if missed:
        return False, f"{rounds} rounds agree, but the sample never reached: {'; '.join(missed)}", {}, rounds, ()
    return True, (f"sampled: {rounds} rounds of {len(koikoi_option_sets())} option sets, each settled as the model "
                  f"says; every row reached ({len(reached)}: each multiplier and bonus row, each end, zero-sum)"), \
        {}, rounds, ()


def _covered(opts: Mapping[str, str], reached: set[str]) -> bool:
    mode = kk.SPEC.value(opts, kk.Multiplier)
    return all(r in reached for r in koikoi_rows_expected() if r.startswith(f"{mode} row"))


# -- Musashino-Bana ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MusashinoSettlement:
    """The variables of Musashino-Bana's settlement model for one player count and dealer, and each
    seat's delta: ``t<k>`` the dekiyaku total of the side ``k``-th in turn order from the dealer,
    ``insta`` (an insta-win) won by the side ``iw``-th in turn order, ``capped`` (payment_cap=8) and
    ``value`` (insta_win_value)."""

    players: str
    dealer: int
    v: Mapping[str, z.Int]
    order: tuple[int, ...]  # the sides in turn order from the dealer
    sides: tuple[z.Int, ...]  # each side's delta, by side
    seats: tuple[z.Int, ...]
    winner: z.Int  # the winner's position in ``order``
    domain: z.Bool


def musashino_settlement(players: str, dealer: int) -> MusashinoSettlement:
    """MB-SCORE-1…5 as z3 terms: the catalogue's :func:`~hanafuda_spec.games.musashino.settlement` (what
    the invariant checks on every round played) built over variables, for one player count and dealer."""
    plan = mb.DEALS[players]
    order = mb.turn_order(players, dealer)
    n = len(order)
    p = f"mb{players}_{dealer}_"
    v = {**{f"t{k}": z.int_var(f"{p}t{k}") for k in range(n)},
         **{name: z.int_var(p + name) for name in ("insta", "iw", "capped", "value")}}
    values = [int(x) for x in mb.InstaWinValue]
    domain = z.all_of([*(v[f"t{k}"] >= 0 for k in range(n)), v["insta"] >= 0, v["insta"] <= 1, v["iw"] >= 0,
                       v["iw"] < n, v["capped"] >= 0, v["capped"] <= 1, z.any_of(v["value"].eq(x) for x in values)])
    by_pos, winner = mb.settlement(TERMS, [v[f"t{k}"] for k in range(n)], v["insta"].eq(1), v["iw"],
                                   v["capped"].eq(1), v["value"])
    sides = tuple(by_pos[order.index(s)] for s in range(n))
    seats = tuple(sides[mb.side_of(players, seat)] for seat in range(plan.players))
    return MusashinoSettlement(players, dealer, v, order, sides, seats, winner, domain)


def musashino_zero_sum() -> Result:
    n = 0
    for players, plan in mb.DEALS.items():
        for dealer in range(plan.players):
            m = musashino_settlement(players, dealer)
            cap = mb.CAP
            claims = [
                (f"players={players}, dealer {dealer}: zero-sum over the seats", z.sum_of(m.seats).eq(0)),
                (f"players={players}, dealer {dealer}: with payment_cap=8 no side pays more than {cap} (MB-SCORE-4)",
                 m.v["capped"].eq(1).implies(z.all_of(d >= -cap for d in m.sides))),
                (f"players={players}, dealer {dealer}: the winner gains, the others pay",
                 z.all_of(((m.winner.eq(m.order.index(s))).implies(m.sides[s] >= 0))
                          & ((~m.winner.eq(m.order.index(s))).implies(m.sides[s] <= 0)) for s in range(len(m.order)))),
            ]
            for r in z.prove_all(claims, [m.domain]):
                n += 1
                if not r.ok:
                    return False, f"{r.name}: {r.status} {r.detail}".strip(), {
                        "kind": "model", "game": "musashino", **r.counterexample}, n, ()
    return True, (f"proof for all inputs ({n} claims): every player count and dealer, dekiyaku totals, insta-win and "
                  "its winner, payment_cap and insta_win_value"), {}, n, ()


def musashino_refinement(adapter: EngineAdapter, quick: bool) -> Result:
    rng = SplitMix64(20261128)
    rounds = 0
    reached: set[str] = set()
    sets = [(p, cap, value) for p in mb.DEALS for cap, value in (("8", "8"), ("none", "16"), ("8", "16"))]
    models: dict[tuple[str, int], MusashinoSettlement] = {}
    for players, cap, value in sets:
        opts = mb.SPEC.resolve(None, {"players": players, "payment_cap": cap, "insta_win_value": value})
        for _ in range(1 if quick else 3):
            seed = rng.next()
            adapter.start("musashino", opts, seed)
            actions: list[str] = []
            while not adapter.match_over() and len(actions) < 5000:
                dealer = adapter.snapshot().dealer
                legal = adapter.legal_actions()
                act = legal[rng.below(len(legal))]
                adapter.apply(act)
                actions.append(act)
                for o in adapter.rounds_ended():
                    if not o.counts:
                        if any(o.deltas):
                            bad = f"a round that does not count ({o.reason}) moved points: {list(o.deltas)}"
                            return False, bad, _mb_cx(opts, seed, actions), rounds, ()
                        continue
                    m = models.setdefault((players, dealer), musashino_settlement(players, dealer))
                    a, what = _mb_inputs(m, opts, o.reason, o.yaku)
                    want = tuple(z.evaluate(d, a) for d in m.seats)
                    rounds += 1
                    reached |= what
                    if tuple(o.deltas) != want:
                        totals = [a[f"{_prefix(m)}t{k}"] for k in range(len(m.order))]
                        return False, (f"players={players}, payment_cap={cap}: a round ended {o.reason} with totals "
                                       f"{totals} in turn order from dealer {dealer}: deltas {list(o.deltas)}, the "
                                       f"settlement model says {list(want)}"), _mb_cx(opts, seed, actions), rounds, ()
                    dealer = adapter.snapshot().dealer
    want_reached = {"insta-win", "an insta-win worth more than the cap, capped", "a capped payment",
                    "an uncapped payment over the cap", "a tie for the top"}
    missed = sorted(want_reached - reached)
    if missed:
        return False, f"{rounds} rounds agree, but the sample never reached: {'; '.join(missed)}", {}, rounds, ()
    return True, (f"sampled: {rounds} rounds ({len(sets)} option sets: every player count, payment_cap and a value "
                  "over it), "
                  f"each settled as the model says; reached: {', '.join(sorted(reached))}"), {}, rounds, ()


def _prefix(m: MusashinoSettlement) -> str:
    return f"mb{m.players}_{m.dealer}_"


def _mb_inputs(m: MusashinoSettlement, opts: Mapping[str, str], reason: str,
               yaku: Sequence[Sequence[ScoredYaku]]) -> tuple[dict[str, int], set[str]]:
    p = _prefix(m)
    totals = [sum(y.points for y in yaku[s]) if s < len(yaku) else 0 for s in m.order]
    insta = reason == "insta-win"
    capped = mb.SPEC.value(opts, mb.PaymentCap) is not mb.PaymentCap.NONE
    value = int(mb.SPEC.value(opts, mb.InstaWinValue))
    iw = next((k for k, s in enumerate(m.order) if s < len(yaku) and any(y.id in mb.INSTA_WIN for y in yaku[s])), 0)
    a = {**{f"{p}t{k}": t for k, t in enumerate(totals)}, f"{p}insta": int(insta), f"{p}iw": iw,
         f"{p}capped": int(capped), f"{p}value": value}
    seen = {"insta-win"} if insta else set()
    if insta and capped and value > mb.CAP:
        seen.add("an insta-win worth more than the cap, capped")
    gap = max(totals) - min(totals)
    if not insta and gap > mb.CAP:
        seen.add("a capped payment" if capped else "an uncapped payment over the cap")
    if not insta and totals.count(max(totals)) > 1:
        seen.add("a tie for the top")
    return a, seen


def _mb_cx(opts: Mapping[str, str], seed: int, actions: Sequence[str]) -> dict[str, object]:
    return {"kind": "play", "game": "musashino", "options": dict(opts), "seed": seed, "actions": list(actions),
            "check": REPLAYS[1]}


def checks(adapter: EngineAdapter, game: str, quick: bool) -> Iterator[Outcome]:
    """The settlement checks of ``game`` (Koi-Koi and Musashino-Bana)."""
    if game == "koikoi":
        yield timed(game, "zero-sum settlement model, proof for all inputs (KK-SCORE-1…6, KK-END-2, KK-DEAL-4)",
                    koikoi_zero_sum)
        yield timed(game, "settlement model vs reference round results, sampled, every row reached (KK-SCORE-1…6)",
                    lambda: koikoi_refinement(adapter, quick), SAMPLED)
    elif game == "musashino":
        yield timed(game, "zero-sum settlement model, proof for all inputs (MB-SCORE-1…5)", musashino_zero_sum)
        yield timed(game, "settlement model vs reference round results, sampled (MB-SCORE-1…5)",
                    lambda: musashino_refinement(adapter, quick), SAMPLED)


#: The counterexamples :func:`replay_check` re-runs (their ``check``).
REPLAYS = ("koikoi-settlement", "musashino-settlement")


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a settlement counterexample (a match and its actions): the first round settled otherwise
    than the model says, or None."""
    seed, actions = cx.get("seed"), cx.get("actions")
    if not isinstance(seed, int) or not isinstance(actions, list):
        raise ValueError("counterexample: 'seed' must be an integer and 'actions' a list")
    if cx.get("check") == REPLAYS[0]:
        watch = _KoiKoiWatch(options, koikoi_settlement())
        adapter.start("koikoi", options, seed)
        for act in actions:
            watch.before(adapter.snapshot(), str(act))
            adapter.apply(str(act))
            bad = watch.after(adapter)
            if bad:
                return bad
        return None
    adapter.start("musashino", options, seed)
    players = mb.SPEC.value(options, mb.Players)
    for act in actions:
        dealer = adapter.snapshot().dealer
        adapter.apply(str(act))
        for o in adapter.rounds_ended():
            if not o.counts:
                continue
            m = musashino_settlement(players, dealer)
            a, _ = _mb_inputs(m, options, o.reason, o.yaku)
            want = tuple(z.evaluate(d, a) for d in m.seats)
            if tuple(o.deltas) != want:
                return f"a round ended {o.reason}: deltas {list(o.deltas)}, the settlement model says {list(want)}"
            dealer = adapter.snapshot().dealer
    return None
