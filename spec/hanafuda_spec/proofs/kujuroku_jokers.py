"""Kujuroku's cards and its two jokers as a z3 transition system, proved for all states and tied to
the engine one action at a time (issue 32, items 3 and 4).

The model's state is what a position shows, counted: the numbered cards in the participants'
hands ``h``, on the field ``f``, in the draw pile ``s``, in the capture piles ``c`` and waiting as
the drawn card ``d``; where the Oni-fuda (``oni``) and the Jizo-fuda (``jz``) are; the phase
``ph``; and two things a position does not show: ``k``, whether a card the Oni captured still
counts as its capture (KJ-ONI-6), and ``r``, whether the Oni-holder received the remaining card.

One transition is one action of a turn: the hand play (a numbered card capturing 0 to 3 field
cards, KJ-CAP-1…5; the Oni capturing one card, KJ-ONI-1, or discarded onto an empty field,
KJ-ONI-4; the Jizo put down, KJ-JIZO-1), then the draw (a numbered card; the Oni capturing one
card, KJ-ONI-3, a choice of two or more waiting for ``take``; the Oni and the Jizo meeting,
KJ-JIZO-2…4), then the end of the turn (an Oni on the field is removed, KJ-ONI-5, a Jizo there
goes to its player's pile, KJ-JIZO-1; a round played out gives the Oni-holder the remaining card,
KJ-ONI-6); or the ``take`` that resolves a waiting drawn card. A dekiyaku may end the round after
any capture (KJ-YAKU-1).

Proved for every state satisfying the invariant (init ⇒ inv, inv ∧ step ⇒ inv′), for the 41 and
the 42-card decks:

* conservation: the 40 numbered cards are always in exactly one zone, and each joker in one place
  (the Jizo only in its variant, never removed);
* KJ-ONI-5, KJ-JIZO-1: no turn starts with a joker on the field; a removed Oni holds no capture;
* KJ-ONI-1/3, KJ-JIZO-2, KJ-ONI-6: captured numbered cards come in pairs and fours except the one
  card the Oni took while its capture stands, and the remaining card given at the end; the Jizo
  undoing the Oni's capture returns exactly that card to the field;
* a waiting drawn card has a choice (two or more field cards).

:func:`refinement` replays matches of the engine behind the adapter (random play, and stacked
decks forcing the Oni on an empty field and the meetings with the Jizo) and checks that every
action of a turn is exactly one transition of this model from the abstraction of the position
before to the abstraction of the position after.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import kujuroku as kj
from hanafuda_spec.machines import place, probe_layout
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs.common import SAMPLED, Case, Outcome, timed
from hanafuda_spec.shuffle import SplitMix64

__all__ = ["NAMES", "JokerModel", "V", "abstraction", "checks", "prove", "refinement"]

GAME = "kujuroku"
Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]
V = Mapping[str, z.Int]

#: The state variables (``k`` and ``r`` are not shown by a position).
NAMES = ("h", "f", "s", "c", "d", "oni", "jz", "k", "r", "ph")
HIDDEN = ("k", "r")
#: Phases.
PLAY, TAKE, OVER = 0, 1, 2
#: Where a joker is (NONE: the Jizo is not in the deck).
NONE, HAND, STOCK, FIELD, PILE, OUT, DRAWN = range(7)
NUMBERED = 40


def _is(x: z.Int, n: int) -> z.Int:
    return z.ite(x.eq(n), 1, 0)


class JokerModel:
    """The transition system of the module docstring for one deck (``jizo``: the 42-card deck). Each
    rule is one method, so that a test can build a wrong model by overriding one."""

    def __init__(self, jizo: bool) -> None:
        self.jizo = jizo
        self._n = 0

    def fresh(self, tag: str) -> dict[str, z.Int]:
        """A state of intermediate variables (a stage within one action)."""
        self._n += 1
        return {n: z.int_var(f"{tag}{self._n}.{n}") for n in NAMES}

    def var(self, tag: str) -> z.Int:
        self._n += 1
        return z.int_var(f"{tag}{self._n}")

    @staticmethod
    def but(a: V, b: V, **changes: z.Int | int) -> z.Bool:
        """``b`` is ``a`` but for ``changes``."""
        return z.all_of([b[n].eq(changes[n]) if n in changes else b[n].eq(a[n]) for n in NAMES])

    # -- the rounds' start and the claims --------------------------------------------------------------
    def init(self, v: V) -> z.Bool:
        """The first turn of a round, after the dealer's takes (KJ-DEAL-2…6): 18 cards in hands, six
        dealt to the field (a joker dealt there goes to the dealer's pile, the Oni with the card it
        takes), the rest in the draw pile."""
        jz_places = [HAND, STOCK, PILE] if self.jizo else [NONE]
        return z.all_of([
            v["ph"].eq(PLAY), v["d"].eq(0), v["r"].eq(0),
            z.any_of([v["oni"].eq(p) for p in (HAND, STOCK, PILE)]), z.any_of([v["jz"].eq(p) for p in jz_places]),
            (v["h"] + _is(v["oni"], HAND) + _is(v["jz"], HAND)).eq(kj.PLAYERS_PER_ROUND * kj.HAND_SIZE),
            (v["f"] + v["c"] + _is(v["oni"], PILE) + _is(v["jz"], PILE)).eq(6),
            (v["s"] + _is(v["oni"], STOCK) + _is(v["jz"], STOCK)).eq(kj.stock_size(self.jizo)),
            v["f"] >= 0, v["c"] >= 0,
            v["k"].eq(z.ite(v["oni"].eq(PILE) & v["jz"].ne(PILE), 1, 0)),
            ((v["c"] - v["k"]) % 2).eq(0),
        ])

    def claim(self, name: str, v: V) -> z.Bool:
        jz_places = (HAND, STOCK, FIELD, PILE, DRAWN) if self.jizo else (NONE,)
        if name == "conservation":
            return z.all_of([(v["h"] + v["f"] + v["s"] + v["c"] + v["d"]).eq(NUMBERED),
                             *(v[n] >= 0 for n in ("h", "f", "s", "c", "d")), v["d"] <= 1,
                             z.any_of([v["oni"].eq(p) for p in (HAND, STOCK, FIELD, PILE, OUT, DRAWN)]),
                             z.any_of([v["jz"].eq(p) for p in jz_places]),
                             z.any_of([v["ph"].eq(p) for p in (PLAY, TAKE, OVER)])])
        if name == "jokers leave the field":
            return z.all_of([v["ph"].eq(PLAY).implies(v["oni"].ne(FIELD) & v["jz"].ne(FIELD)),
                             v["ph"].eq(TAKE).implies(v["oni"].ne(FIELD)),
                             v["oni"].eq(OUT).implies(v["k"].eq(0))])
        if name == "captures by pairs but the Oni's":
            return z.all_of([((v["c"] - v["k"] - v["r"]) % 2).eq(0), v["k"] >= 0, v["k"] <= 1, v["r"] >= 0,
                             v["r"] <= 1, v["k"].eq(1).implies(v["oni"].eq(PILE)),
                             v["r"].eq(1).implies(v["ph"].eq(OVER))])
        if name == "a waiting card has a choice":
            return z.all_of([v["ph"].eq(TAKE).iff((v["d"] + _is(v["oni"], DRAWN)).eq(1)),
                             (v["d"] + _is(v["oni"], DRAWN)) <= 1,
                             v["ph"].eq(TAKE).implies(v["f"] >= 2)])
        raise KeyError(name)

    CLAIMS = (("conservation", "KJ-DEAL-2, KJ-TURN-2"),
              ("jokers leave the field", "KJ-ONI-5, KJ-JIZO-1"),
              ("captures by pairs but the Oni's", "KJ-CAP-1…4, KJ-ONI-1/3, KJ-JIZO-2, KJ-ONI-6"),
              ("a waiting card has a choice", "KJ-CAP-3, KJ-ONI-3"))

    def inv(self, v: V) -> z.Bool:
        return z.all_of([self.claim(n, v) for n, _ in self.CLAIMS])

    # -- one action ------------------------------------------------------------------------------------
    def step(self, v: V, w: V) -> z.Bool:
        """One action: a turn's play (with its draw and the end of the turn), or a ``take``."""
        return self.play(v, w) | self.take(v, w)

    def hand_play(self, v: V, m: V, ofh: z.Int, cap: z.Int) -> z.Bool:
        """The hand card (KJ-TURN-2): ``ofh`` = 1 if it is the Oni, ``cap`` = 1 if it captured."""
        a = self.var("a")
        f = z.ite(a.eq(0), v["f"] + 1, z.ite(a.eq(3), v["f"] - 3, v["f"] - 1))
        c = z.ite(a.eq(0), v["c"], z.ite(a.eq(3), v["c"] + 4, v["c"] + 2))
        num = z.all_of([v["h"] >= 1, a >= 0, a <= 3, a <= v["f"], ofh.eq(0), cap.eq(z.ite(a > 0, 1, 0)),
                        self.but(v, m, h=v["h"] - 1, f=f, c=c)])
        return num | self.oni_from_hand(v, m, ofh, cap) | self.jizo_from_hand(v, m, ofh, cap)

    def oni_from_hand(self, v: V, m: V, ofh: z.Int, cap: z.Int) -> z.Bool:
        """KJ-ONI-1: it captures exactly one field card; KJ-ONI-2/4: onto an empty field only, discarded."""
        took = z.all_of([v["f"] >= 1, cap.eq(1), self.but(v, m, f=v["f"] - 1, c=v["c"] + 1, oni=PILE, k=1)])
        dropped = z.all_of([v["f"].eq(0), cap.eq(0), self.but(v, m, oni=FIELD)])
        return v["oni"].eq(HAND) & ofh.eq(1) & (took | dropped)

    def jizo_from_hand(self, v: V, m: V, ofh: z.Int, cap: z.Int) -> z.Bool:
        """KJ-JIZO-1: put on the field, capturing nothing."""
        return z.all_of([v["jz"].eq(HAND), ofh.eq(0), cap.eq(0), self.but(v, m, jz=FIELD)])

    def draw(self, m: V, n: V, ofh: z.Int) -> z.Bool:
        """The top of the draw pile against the field; ``n`` is left in TAKE when a choice waits, and
        equals ``m`` when nothing is left to draw (KJ-TURN-3)."""
        left = m["s"] + _is(m["oni"], STOCK) + _is(m["jz"], STOCK)
        j = self.var("j")
        numbered = z.all_of([m["s"] >= 1, j >= 0, j <= 3, j <= m["f"],
                             z.any_of([j.eq(0) & self.but(m, n, s=m["s"] - 1, f=m["f"] + 1),
                                       (j.eq(1) | j.eq(3))
                                       & self.but(m, n, s=m["s"] - 1, f=m["f"] - j, c=m["c"] + j + 1),
                                       j.eq(2) & self.but(m, n, s=m["s"] - 1, d=1, ph=TAKE)])])
        return z.any_of([left.eq(0) & self.but(m, n), numbered, self.oni_drawn(m, n), self.jizo_drawn(m, n, ofh)])

    def oni_drawn(self, m: V, n: V) -> z.Bool:
        """KJ-JIZO-4 (the Jizo on the field: the Oni takes it and nothing else), KJ-ONI-4 (an empty field:
        discarded), KJ-ONI-3 (it must capture one card: the player chooses among two or more)."""
        on_field = m["f"] + _is(m["jz"], FIELD)
        return m["oni"].eq(STOCK) & z.any_of([
            m["jz"].eq(FIELD) & self.oni_meets_jizo(m, n),
            on_field.eq(0) & self.but(m, n, oni=FIELD),
            m["jz"].ne(FIELD) & (m["f"] >= 2) & self.but(m, n, oni=DRAWN, ph=TAKE),
            m["jz"].ne(FIELD) & m["f"].eq(1) & self.but(m, n, f=0, c=m["c"] + 1, oni=PILE, k=1)])

    def oni_meets_jizo(self, m: V, n: V) -> z.Bool:
        """KJ-JIZO-4: the drawn Oni captures the Jizo played from the hand, and nothing else (KJ-18)."""
        return self.but(m, n, oni=PILE, jz=PILE)

    def jizo_drawn(self, m: V, n: V, ofh: z.Int) -> z.Bool:
        """KJ-JIZO-3 (the Oni discarded onto the field: the Jizo captures it), KJ-JIZO-2 (the Oni captured
        from the hand this turn: its capture goes back to the field), else KJ-JIZO-1."""
        return m["jz"].eq(STOCK) & z.any_of([
            m["oni"].eq(FIELD) & self.but(m, n, oni=PILE, jz=PILE),
            m["oni"].ne(FIELD) & ofh.eq(1) & m["k"].eq(1) & self.jizo_undoes(m, n),
            m["oni"].ne(FIELD) & ~(ofh.eq(1) & m["k"].eq(1)) & self.but(m, n, jz=PILE)])

    def jizo_undoes(self, m: V, n: V) -> z.Bool:
        """KJ-JIZO-2: the one card the Oni captured goes back to the field; the Oni stays captured."""
        return self.but(m, n, f=m["f"] + 1, c=m["c"] - 1, k=0, jz=PILE)

    def end_turn(self, m: V, w: V) -> z.Bool:
        """KJ-ONI-5: an Oni on the field is removed; KJ-JIZO-1: a Jizo there goes to the pile; then the next
        turn, or a round played out (KJ-TURN-4) in which the Oni-holder receives the remaining card."""
        e = self.fresh("e")
        off = self.but(m, e, oni=z.ite(m["oni"].eq(FIELD), OUT, m["oni"]),
                       jz=z.ite(m["jz"].eq(FIELD), PILE, m["jz"]))
        out = (e["h"] + _is(e["oni"], HAND) + _is(e["jz"], HAND)).eq(0)
        return off & z.any_of([
            ~out & self.but(e, w, ph=PLAY),
            out & e["k"].eq(0) & self.but(e, w, ph=OVER),
            out & e["k"].eq(1) & (e["f"] >= 1) & self.but(e, w, f=e["f"] - 1, c=e["c"] + 1, r=1, ph=OVER)])

    def stop(self, m: V, w: V) -> z.Bool:
        """KJ-YAKU-1: a dekiyaku ends the round where it stands."""
        return self.but(m, w, ph=OVER)

    def play(self, v: V, w: V) -> z.Bool:
        m, n = self.fresh("m"), self.fresh("n")
        ofh, cap = self.var("ofh"), self.var("cap")
        return z.all_of([v["ph"].eq(PLAY), self.hand_play(v, m, ofh, cap), z.any_of([
            cap.eq(1) & self.stop(m, w),
            z.all_of([self.draw(m, n, ofh), z.any_of([
                n["ph"].eq(TAKE) & self.but(n, w),
                n["ph"].eq(PLAY) & self.stop(n, w),
                n["ph"].eq(PLAY) & self.end_turn(n, w)])])])])

    def take(self, v: V, w: V) -> z.Bool:
        """KJ-CAP-3, KJ-ONI-3: the waiting drawn card captures the field card chosen."""
        m = self.fresh("t")
        num = v["d"].eq(1) & self.but(v, m, f=v["f"] - 1, c=v["c"] + 2, d=0, ph=PLAY)
        oni = v["oni"].eq(DRAWN) & self.but(v, m, f=v["f"] - 1, c=v["c"] + 1, oni=PILE, k=1, ph=PLAY)
        return z.all_of([v["ph"].eq(TAKE), num | oni, self.stop(m, w) | self.end_turn(m, w)])


def prove(model: JokerModel) -> list[tuple[str, str, z.ProofResult]]:
    """Each claim proved inductive: from the rounds' start, and kept by every action from any state
    where every claim holds. (claim, rule ids, result), the start's proof first."""
    pre = {n: z.int_var(n) for n in NAMES}
    post = {n: z.int_var(n + "'") for n in NAMES}
    # the start settles the claims' cases (as in common.inductive): its vacuity check is of the start alone
    out = [("every claim at the start", "KJ-DEAL-2…6", z.prove("init ⇒ inv", model.inv(pre), [model.init(pre)],
                                                               antecedents=False))]
    step = model.step(pre, post)
    results = z.prove_all([(name, model.claim(name, post)) for name, _ in model.CLAIMS], [model.inv(pre), step])
    out += [(name, rules, r) for (name, rules), r in zip(model.CLAIMS, results, strict=True)]
    # the step is not vacuous: every kind of action is possible from some state of the invariant
    for label, cond in (("a Jizo drawn undoes the Oni's capture", pre["oni"].eq(HAND) & pre["jz"].eq(STOCK)
                         & (pre["f"] >= 1) & post["oni"].eq(PILE) & post["jz"].eq(PILE) & post["k"].eq(0)),
                        ("a drawn Oni meets the Jizo", pre["jz"].eq(FIELD) & post["oni"].eq(PILE)),
                        ("the Oni is removed", post["oni"].eq(OUT))):
        if model.jizo or "Jizo" not in label:
            found = z.find([model.inv(pre), step, cond])
            out.append((f"reachable step: {label}", "", z.ProofResult(label, "proved" if found else "refuted", 0.0)))
    return out


def _proof(jizo: bool) -> Result:
    lines = []
    for name, rules, r in prove(JokerModel(jizo)):
        if not r.ok:
            what = "not possible from any state of the invariant (a vacuous model)" if name.startswith(
                "reachable") else f"{r.status}"
            return False, f"{name} ({rules}): {what}", {"kind": "model", "game": GAME, **r.counterexample}, 0, ()
        lines.append(name)
    return True, f"proved for all states ({len(kj.DECK_IDS[jizo])} cards): " + "; ".join(lines), {}, 0, ()


# -- refinement: the engine's actions as transitions of the model ------------------------------------------


def abstraction(s: Snapshot) -> dict[str, int] | None:
    """The model's visible variables of a position (None in a phase the model does not cover: the deal's
    choices, or a position of another shape)."""
    phase = {"play": PLAY, "take": TAKE, "over": OVER}.get(s.phase)
    if phase is None:
        return None
    out = {"h": 0, "f": 0, "s": 0, "c": 0, "d": 0, "oni": NONE, "jz": NONE, "ph": phase}
    for zone in s.zone_names():
        kind = zone.split(".")[0]
        place_of, count = {"hand": (HAND, "h"), "field": (FIELD, "f"), "stock": (STOCK, "s"), "captured": (PILE, "c"),
                           "drawn": (DRAWN, "d"), "out": (OUT, "")}.get(kind, (NONE, ""))
        for card in s.zone(zone):
            if card == kj.ONI:
                out["oni"] = place_of
            elif card == kj.JIZO:
                out["jz"] = place_of
            elif count:
                out[count] += 1
    return out


@dataclass
class _Tracker:
    """The model's state along one match, checked after every action of a turn."""

    model: JokerModel
    events: set[str]
    state: dict[str, int] | None = None
    _step: tuple[z.Session, dict[str, z.Int], dict[str, z.Int]] | None = None
    _init: z.Session | None = None

    def session(self) -> tuple[z.Session, dict[str, z.Int], dict[str, z.Int]]:
        """The step relation on a solver of its own, built at the first action checked."""
        if self._step is None:
            v = {n: z.int_var(n) for n in NAMES}
            w = {n: z.int_var(n + "'") for n in NAMES}
            self._step = (z.Session([self.model.step(v, w)]), v, w)
        return self._step

    def start(self, s: Snapshot) -> str | None:
        a = abstraction(s)
        self.state = None
        if a is None or a["ph"] != PLAY:
            return None
        a["k"] = 1 if a["oni"] == PILE and a["jz"] != PILE else 0
        a["r"] = 0
        v = {n: z.int_var(n) for n in NAMES}
        if self._init is None:
            self._init = z.Session([self.model.init(v)])
        if not self._init.find_all([v[n].eq(a[n]) for n in NAMES], [v["k"]], 1):
            return f"the round's first turn {a} is not a start of the model"
        self.state = a
        return None

    def after(self, s: Snapshot, over: bool) -> str | None:
        pre = self.state
        assert pre is not None
        a = abstraction(s)
        if a is None:
            return f"a position the model does not cover (phase {s.phase})"
        if over:
            a["ph"] = OVER
        session, v, w = self.session()
        fixed = [*(v[n].eq(pre[n]) for n in NAMES), *(w[n].eq(a[n]) for n in NAMES if n not in HIDDEN)]
        found = session.find_all(fixed, [w[n] for n in HIDDEN], 3)
        if len(found) != 1:
            what = "no transition" if not found else f"{len(found)} transitions"
            return f"{what} of the model from {pre} to {a}"
        post = {**a, **{n: int(found[0][n + "'"]) for n in HIDDEN}}
        for label, seen in _EVENTS:
            if seen(pre, post):
                self.events.add(label)
        self.state = post
        if over:
            self.state = None
        return None


def _preferred(legal: Sequence[str], prefer: Sequence[str]) -> str | None:
    """The first legal action that starts with the words of one of ``prefer``, in that order."""
    for p in prefer:
        words = p.split()
        for a in legal:
            if a.split()[:len(words)] == words:
                return a
    return None


#: The rare transitions the refinement check reports when it sees them.
_EVENTS: tuple[tuple[str, Callable[[Mapping[str, int], Mapping[str, int]], bool]], ...] = (
    ("the Oni removed from the field (KJ-ONI-5)", lambda a, b: a["oni"] != OUT and b["oni"] == OUT),
    ("the Oni captures (KJ-ONI-1/3)", lambda a, b: a["k"] == 0 and b["k"] == 1),
    ("the Jizo undoes the Oni's capture (KJ-JIZO-2)",
     lambda a, b: a["oni"] == HAND and a["jz"] == STOCK and a["f"] >= 1 and b["oni"] == PILE == b["jz"]),
    ("the Jizo captures the discarded Oni (KJ-JIZO-3)",
     lambda a, b: a["oni"] == HAND and a["jz"] == STOCK and a["f"] == 0 and b["oni"] == PILE == b["jz"]),
    ("the drawn Oni captures the Jizo (KJ-JIZO-4)",
     lambda a, b: a["jz"] == HAND and a["oni"] == STOCK and b["oni"] == PILE == b["jz"]),
    ("a three-card capture (KJ-CAP-4)", lambda a, b: b["c"] - a["c"] >= 4 and b["f"] <= a["f"] - 3),
    ("the remaining card given (KJ-ONI-6)", lambda a, b: b["r"] == 1),
)


def refinement(adapter: EngineAdapter, options: Mapping[str, str], seed: int, deck: Sequence[int] | None,
               rounds: int, prefer: Sequence[str] = (), events: set[str] | None = None,
               script: Sequence[str] | None = None) -> tuple[str | None, list[str], int]:
    """Play ``rounds`` rounds (random actions from ``seed``; ``prefer``: actions taken whenever legal,
    the first legal action starting with the words of one of them) and check each action of a turn
    against :class:`JokerModel`. The first disagreement (None), the actions played, and the actions
    checked; the rare transitions seen are added to ``events``. ``script``: play these actions
    instead (a counterexample replayed)."""
    tracker = _Tracker(JokerModel(options.get("jizo") == "on"), events=set() if events is None else events)
    rng = SplitMix64(seed)
    adapter.start(GAME, options, seed, deck)
    actions: list[str] = []
    checked, done = 0, 0
    bad = tracker.start(adapter.snapshot())
    while bad is None and done < rounds and not adapter.match_over():
        if script is not None and len(actions) == len(script):
            break
        legal = adapter.legal_actions()
        act = script[len(actions)] if script is not None else _preferred(legal, prefer) or legal[rng.below(len(legal))]
        tracked = tracker.state is not None
        adapter.apply(act)
        actions.append(act)
        ended = adapter.rounds_ended()
        if tracked:
            final = ended[0].final if ended else adapter.snapshot()
            if final is None:
                tracker.state = None
            else:
                checked += 1
                bad = tracker.after(final, bool(ended))
                if bad:
                    bad = f"after {act!r}: {bad}"
        if ended:
            done += len(ended)
        if bad is None and tracker.state is None:
            bad = tracker.start(adapter.snapshot())
    return bad, actions, checked


def _stacked(adapter: EngineAdapter, options: Mapping[str, str]) -> list[tuple[str, list[int], tuple[str, ...]]]:
    """Stacked first deals (with the actions to prefer) that force the rare meetings: the dealer holding
    the Oni with the Jizo on top of the draw pile (KJ-JIZO-2), holding the Jizo with the Oni on top
    (KJ-JIZO-4), and a field the first three turns empty before the dealer plays the Oni onto it
    (KJ-ONI-4, then KJ-ONI-5, or KJ-JIZO-3 with the Jizo on top of the draw pile)."""
    layout = probe_layout(adapter, GAME, options)
    numbered = sorted(c for c in kj.DECK_IDS[options.get("jizo") == "on"] if c not in (kj.ONI, kj.JIZO))
    out: list[tuple[str, list[int], tuple[str, ...]]] = []
    if options.get("jizo") == "on":
        out.append(("the Oni captures, then the Jizo is drawn",
                    place(layout, {"hand.0": [kj.ONI], "stock": [kj.JIZO]}, numbered), ("play 0",)))
        out.append(("the Jizo is played, then the Oni is drawn",
                    place(layout, {"hand.0": [kj.JIZO], "stock": [kj.ONI]}, numbered), ("play 1",)))
    # each of the first three turns captures two field cards: the hand card and the drawn one
    top = [31, 61, 81] + ([kj.JIZO] if options.get("jizo") == "on" else [])
    wanted = {"field": [20, 30, 50, 60, 70, 80], "hand.0": [21, kj.ONI], "hand.1": [51], "hand.2": [71],
              "stock": top}
    out.append(("the Oni onto an emptied field", place(layout, wanted, numbered),
                ("play 21", "play 51", "play 71", "play 0")))
    return out


def _refinement_check(adapter: EngineAdapter, quick: bool) -> Result:
    n = 0
    matches = 0
    events: set[str] = set()
    for jizo in ("off", "on"):
        opts = kj.SPEC.resolve(None, {"jizo": jizo})
        runs: list[tuple[str, Sequence[int] | None, int, tuple[str, ...]]] = [
            (f"random play, seed {seed}", None, seed, ()) for seed in range(1, 3 if quick else 7)]
        runs += [(label, deck, 1, prefer) for label, deck, prefer in _stacked(adapter, opts)]
        for label, deck, seed, prefer in runs:
            rounds = 1 if deck is not None else 2 if quick else 4
            bad, actions, checked = refinement(adapter, opts, seed, deck, rounds, prefer, events)
            n += checked
            matches += 1
            if bad:
                cx: dict[str, object] = {"kind": "play", "game": GAME, "options": opts, "seed": seed,
                                         "actions": actions, "check": REPLAYS[0]}
                if deck is not None:
                    cx["deck"] = list(deck)
                return False, f"jizo={jizo}, {label}: {bad}", cx, n, ()
    missing = [label for label, _ in _EVENTS if label not in events]
    if missing:
        return False, f"the stacked decks no longer reach: {'; '.join(missing)}", {}, n, ()
    return True, (f"sampled: {n} actions of {matches} matches (random play and stacked decks) are each exactly "
                  f"one transition of the model; seen: {'; '.join(label for label, _ in _EVENTS)}"), {}, n, ()


def checks(adapter: EngineAdapter, game: str, quick: bool) -> Iterator[Outcome]:
    """The proofs of :class:`JokerModel` for both decks, and the refinement check against the engine."""
    if game != GAME:
        return
    for jizo in (False, True):
        yield timed(GAME, f"z3 cards and jokers, proof for all states ({len(kj.DECK_IDS[jizo])} cards; "
                          f"KJ-ONI-*, KJ-JIZO-*, conservation)", partial(_proof, jizo))
    yield timed(GAME, "refinement: each action one transition of the cards-and-jokers model (sampled, "
                      "random play and stacked decks)", lambda: _refinement_check(adapter, quick), SAMPLED)


#: The counterexamples :func:`replay_check` re-runs (their ``check``).
REPLAYS = ("kujuroku-jokers",)


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a ``kujuroku-jokers`` counterexample (a match, from a stacked deal if ``deck`` is given):
    the disagreement with the model, or None."""
    seed, actions, deck = cx.get("seed"), cx.get("actions"), cx.get("deck")
    if not isinstance(seed, int) or not isinstance(actions, list) or (deck is not None and not isinstance(deck, list)):
        raise ValueError("counterexample: 'seed' must be an integer, 'actions' and 'deck' lists")
    bad, _, _ = refinement(adapter, options, seed, None if deck is None else [int(c) for c in deck], 1 << 30,
                           script=[str(a) for a in actions])
    return bad
