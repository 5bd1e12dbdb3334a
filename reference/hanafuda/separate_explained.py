"""Why some pairs of option values cannot be told apart by any record, in one or both directions.

The separating suite (:mod:`hanafuda.separate`) searches for a record valid under one value and
invalid under the other. Where none can exist the search would run to its bound and find nothing, so
the reason is recorded here, each with the argument that proves it; ``tests/test_separate.py`` runs
every argument. Two kinds occur:

* **an option that only forbids** (:func:`restriction_holds`): under its narrow value the game offers a
  subset of the actions the wide value offers, and nothing else reads the option. Every record valid
  under the narrow value is then valid under the wide one: the same actions are legal and lead to the
  same positions and results. A record exists only the other way (an action the narrow value forbids).
  The argument is exhaustive over the code: in the whole package the option is read into one
  attribute of the game's rules, and that attribute is read only by the functions that list or explain
  legal actions (:func:`package_readers`); a sample of positions then checks the subset and the equal
  positions.
* **a threshold no position reaches** (:func:`koikoi_min_one_holds`): Koi-Koi's ``koikoi_min`` ends the
  round when a new or improved yaku totals fewer points than the minimum; a total is reached only when
  some yaku is formed, and every yaku row of every table is worth at least 1 point (every row the table
  function can build, read from its source with every option value), so minimum 0 and minimum 1 never
  differ.
"""

from __future__ import annotations

import ast
import functools
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hanafuda_spec.shuffle import SplitMix64

__all__ = ["Inseparable", "explained", "inseparable", "koikoi_min_one_holds", "option_readers",
           "package_readers", "restriction_holds"]

AnyGame = Any


@dataclass(frozen=True)
class Inseparable:
    """No record validates under ``values[0]`` and fails under ``values[1]`` of ``option`` (``way``
    ``"a_not_b"``), the other way (``"b_not_a"``) or either (``"both"``), with the other options at
    the default ruleset's values; ``reason`` says why and ``proof`` names the check that proves it."""

    game: str
    option: str
    values: tuple[str, str]
    way: str
    reason: str
    proof: str


def _only_forbids(option: str, narrow: str, wide: str, attr: str, readers: tuple[str, ...], rule: str) -> str:
    return (f"{option}={narrow} only forbids actions that {option}={wide} allows ({rule}): in the whole package "
            f"the option is read only into the rules' '{attr}', which only {', '.join(readers)} read (where "
            f"legal actions are listed or explained), so every record valid under {narrow} is valid under "
            f"{wide}: the same actions, positions and results")


#: Each restriction: (game, option, narrow value, wide value, the rules' attribute, the functions allowed
#: to read it, the rule id, the option's enum in the catalogue and the one function that reads it).
RESTRICTIONS: tuple[tuple[str, str, str, str, str, tuple[str, ...], str, str, str], ...] = (
    ("koikoi", "discard", "must-capture", "free", "must_capture",
     ("KoiKoiRound.legal", "KoiKoiRound.plays_from_masks"), "KK-CAP-5",
     "Discard", "KoiKoiRules.must_capture"),
    ("koikoi", "koikoi_limit", "once-per-round", "unlimited", "koikoi_once",
     ("KoiKoiRound.called_once",), "KK-TURN-8", "KoikoiLimit", "KoiKoiRules.koikoi_once"),
    ("koikoi", "koikoi_last_turn", "forbidden", "allowed", "koikoi_needs_hand",
     ("KoiKoiRound.empty_handed",), "KK-TURN-9", "KoikoiLastTurn", "KoiKoiRules.koikoi_needs_hand"),
    ("kusurigui", "oni_play", "capture", "choice", "oni_choice",
     ("KusuriGui.legal_actions", "KusuriGui.explain_illegal", "KusuriGuiRound.legal", "_legal"), "KG-ONI-1",
     "OniPlay", "KusuriGuiRules.oni_choice"),
)


def _way(option_values: tuple[str, ...], narrow: str, wide: str) -> tuple[tuple[str, str], str]:
    """The suite's order of the pair and the way no record exists (valid under narrow, invalid under wide)."""
    if option_values.index(narrow) < option_values.index(wide):
        return (narrow, wide), "a_not_b"
    return (wide, narrow), "b_not_a"


def _table() -> tuple[Inseparable, ...]:
    from hanafuda.registry import game

    out = []
    for key, option, narrow, wide, attr, readers, rule, _, _ in RESTRICTIONS:
        values, way = _way(tuple(game(key).spec.option(option).choices), narrow, wide)
        out.append(Inseparable(key, option, values, way, _only_forbids(option, narrow, wide, attr, readers, rule),
                               f"restriction_holds({key!r}, {option!r})"))
    out.append(Inseparable(
        "koikoi", "koikoi_min", ("0", "1"), "both",
        "koikoi_min=1 ends a round only where a new or improved yaku totals fewer than 1 point (KK-TURN-4); a "
        "decision comes only with some yaku formed, and every yaku row of every Koi-Koi table is worth at least "
        "1 point (every row the table can build, with every value of the options its points read), so the "
        "total is never below 1 and minimum 0 and minimum 1 act alike on every reachable position",
        "koikoi_min_one_holds()"))
    return tuple(out)


_CACHE: list[tuple[Inseparable, ...]] = []


def inseparable() -> tuple[Inseparable, ...]:
    """Every recorded reason (built once: it reads the catalogues)."""
    if not _CACHE:
        _CACHE.append(_table())
    return _CACHE[0]


def explained(key: str, option: str, x: str, y: str) -> dict[str, Inseparable]:
    """The recorded reasons for the pair ``x``/``y`` of ``option``, by way (``a_not_b``, ``b_not_a``)."""
    out: dict[str, Inseparable] = {}
    for e in inseparable():
        if (e.game, e.option, e.values) == (key, option, (x, y)):
            for way in (("a_not_b", "b_not_a") if e.way == "both" else (e.way,)):
                out[way] = e
    return out


# -- the arguments ----------------------------------------------------------------------------------


def option_readers(module: Any, attr: str, key: str | None = None) -> set[str]:
    """The functions of ``module`` (``Class.method`` or ``function``) that read the attribute ``attr``
    anywhere in their body (or, with ``key``, index anything with the string ``key``, as
    ``values["discard"]`` does): an exhaustive scan of the module's source."""
    return _readers(ast.parse(inspect.getsource(module)), attr, key)


def _readers(tree: ast.AST, attr: str, key: str | None) -> set[str]:
    found: set[str] = set()

    def walk(node: ast.AST, cls: str | None, fn: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            c, f = cls, fn
            if isinstance(child, ast.ClassDef) and fn is None:
                c = child.name
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn is None:
                f = f"{cls}.{child.name}" if cls else child.name
            elif (isinstance(child, (ast.Assign, ast.AnnAssign)) and fn is None and cls is not None
                  and isinstance(target := child.targets[0] if isinstance(child, ast.Assign) else child.target,
                                 ast.Name)):
                f = f"{cls}.{target.id}"  # a class-level reading: ``must_capture = flag(Discard.MUST_CAPTURE, …)``
            if (isinstance(child, ast.Attribute) and child.attr == attr) or (
                    key is not None and isinstance(child, ast.Subscript) and isinstance(child.slice, ast.Constant)
                    and child.slice.value == key):
                found.add(fn or cls or "<module>")
            walk(child, c, f)

    walk(tree, None, None)
    return found


@functools.cache
def _package_trees() -> tuple[tuple[str, ast.Module], ...]:
    """Every module of the ``hanafuda`` package, parsed from its file (none imported), but this one."""
    from pathlib import Path

    import hanafuda

    root = Path(hanafuda.__file__).parent
    out = []
    for path in sorted(root.rglob("*.py")):
        name = ".".join(("hanafuda", *path.relative_to(root).with_suffix("").parts)).removesuffix(".__init__")
        if name != __name__:
            out.append((name, ast.parse(path.read_text(encoding="utf-8"))))
    return tuple(out)


def package_readers(attr: str, key: str | None = None) -> set[str]:
    """:func:`option_readers` over every module of the ``hanafuda`` package (``module:function``)."""
    return {f"{name}:{f}" for name, tree in _package_trees() for f in _readers(tree, attr, key)}


def _positions(g: AnyGame, rules: Any, games: int, seed: int) -> Iterator[Any]:
    """Every position of ``games`` random rounds under ``rules`` (the documented shuffle of ``seed``)."""
    from hanafuda.engine import RoundSetup, fast_shuffled

    rng = SplitMix64(seed)
    for k in range(games):
        cards = fast_shuffled(g.deck(rules).cards, rng)
        state = g.start_round(rules, cards, RoundSetup(1, k % g.seats(rules), tuple(range(g.seats(rules))),
                                                       (0,) * g.seats(rules)))
        while not g.is_terminal(state):
            yield state
            legal = g.legal(state)
            state = g.apply(state, legal[rng.below(len(legal))])


def restriction_holds(key: str, option: str, games: int = 40, seed: int = 30) -> str | None:
    """The argument for one of :data:`RESTRICTIONS`: None when it holds, else what breaks it. In the
    whole ``hanafuda`` package's source, the option (its catalogue enum, or its name as a key) is read
    by one function only, which sets the rules' attribute, and the attribute only by the named
    functions; and on every position of ``games`` random rounds under the narrow value its legal
    actions are among the wide value's, each giving the same position under both."""
    import importlib

    from hanafuda.registry import game

    row = next(r for r in RESTRICTIONS if r[:2] == (key, option))
    _, _, narrow, wide, attr, allowed, _, enum_name, definer = row
    home = f"hanafuda.games.{key}"
    readers = package_readers(attr)
    passed = {f"{home}:{f}" for f in allowed}
    if not readers <= passed:
        return f"'{attr}' is also read by {sorted(readers - passed)}"
    defined = package_readers(enum_name, option)
    if defined != {f"{home}:{definer}"}:
        return f"the option {option} is read by {sorted(defined)}, not only by {home}:{definer}"
    importlib.import_module(home)
    g = game(key)
    rn, rw = g.rules(None, {option: narrow}), g.rules(None, {option: wide})
    for state in _positions(g, rn, games, seed):
        other = _twin(g, state, rn, rw)
        if other is None:
            return f"no position under {wide} matches one under {narrow}"
        wide_legal = set(g.legal(other))
        for act in g.legal(state):
            if act not in wide_legal:
                return f"'{act}' is legal under {option}={narrow} only"
            if g.snapshot(g.apply(state, act)) != g.snapshot(g.apply(other, act)):
                return f"'{act}' leads to different positions"
    return None


def _twin(g: AnyGame, state: Any, narrow: Any, wide: Any) -> Any:
    """The same position with the wide rules (the state's rules swapped: states are frozen dataclasses)."""
    from dataclasses import fields, replace

    if not any(f.name == "rules" for f in fields(state)):
        return None
    assert state.rules == narrow
    return replace(state, rules=wide)


def koikoi_min_one_holds(source: str | None = None) -> str | None:
    """Every row :func:`~hanafuda_spec.games.koikoi.yaku_table` can build is worth at least 1 point: None
    when so, else the row that may not be. Exhaustive over the function's source: the points of each
    ``YakuDef`` it builds are a whole number of at least 1, an option's value read as a number (every
    choice of that option at least 1), or a local name each of whose assignments is a choice of such
    numbers; anything else is reported. ``source``: the catalogue module's source (its own by default)."""
    from hanafuda_spec.games import koikoi as spec

    fn = next(n for n in ast.walk(ast.parse(source or inspect.getsource(spec))) if isinstance(n, ast.FunctionDef)
              and n.name == "yaku_table")
    assigned: dict[str, list[ast.expr]] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    assigned.setdefault(t.id, []).append(n.value)

    def lowest(e: ast.expr, depth: int = 0) -> int | None:
        """The least value ``e`` can take, None when the source does not say."""
        if isinstance(e, ast.Constant) and isinstance(e.value, int):
            return e.value
        if isinstance(e, ast.IfExp):
            both = [lowest(e.body, depth), lowest(e.orelse, depth)]
            return None if None in both else min(x for x in both if x is not None)
        if (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "int" and len(e.args) == 1
                and isinstance(e.args[0], ast.Subscript) and isinstance(e.args[0].slice, ast.Constant)):
            return min(int(c) for c in spec.KOIKOI.option(str(e.args[0].slice.value)).choices)
        if isinstance(e, ast.Name) and e.id in assigned and depth < 3:
            got = [lowest(v, depth + 1) for v in assigned[e.id]]
            return None if None in got else min(x for x in got if x is not None)
        return None

    rows = 0
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "YakuDef":
            rows += 1
            low = lowest(n.args[3]) if len(n.args) > 3 else None
            if low is None or low < 1:
                return f"line {n.lineno}: the points {ast.unparse(n.args[3])} may be below 1"
    return None if rows else "no YakuDef found in yaku_table"


#: The arguments by name, as an entry's ``proof`` names them.
PROOFS: dict[str, Callable[[], str | None]] = {
    **{f"restriction_holds({r[0]!r}, {r[1]!r})": functools.partial(restriction_holds, r[0], r[1])
       for r in RESTRICTIONS},
    "koikoi_min_one_holds()": koikoi_min_one_holds,
}
