"""Perft: the reference's fast count against the spec's brute-force count through the adapter
protocol, the published tables of the conformance corpus, and a wrong move generator caught."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import main
from hanafuda.commands.vectors import PERFT_NODES, PERFT_SEEDS, perft_vectors
from hanafuda.perft import divide, perft
from hanafuda.registry import available, game
from hanafuda_spec.perft import PerftCount, compare, perft_adapter

from tests.wrapping import Delegate

GAME_RULESETS = [(g.spec.key, rs.name) for g in available() for rs in g.spec.rulesets]

#: Counts pinned from this version (default ruleset, seed 0): a change in move generation shows
#: here first. A rule change that moves them must say so in its commit.
PINNED = {
    "koikoi": [8, 64, 448, 3056],
    "kusurigui": [4, 16, 48, 144],
    "kujuroku": [6, 38, 228, 1368],
    "musashino": [7, 49, 343, 2058],
    "kekoro": [8, 64, 448, 3136],
}


@pytest.mark.parametrize("key", list(PINNED))
def test_pinned_counts(key: str) -> None:
    g = game(key)
    got = [perft(g, g.rules(), 0, d).nodes for d in range(1, 5)]
    assert got == PINNED[key]


@pytest.mark.parametrize("key", [g.spec.key for g in available()])
def test_divide_adds_up(key: str) -> None:
    g = game(key)
    rules = g.rules()
    parts = divide(g, rules, 1, 3)
    assert [str(a) for a, _ in parts] == [str(a) for a in g.legal(game_start(key))]
    assert sum(c.nodes for _, c in parts) == perft(g, rules, 1, 3).nodes


def game_start(key: str) -> object:
    a = ReferenceAdapter()
    a.start(key, {}, 1)
    return a.match.state


@pytest.mark.parametrize(("key", "ruleset"), GAME_RULESETS)
def test_published_tables_match_brute_force(key: str, ruleset: str) -> None:
    """The corpus's perft.json (the reference's fast count) against the spec's brute force through
    the adapter protocol, on every row of up to 2,000 sequences; the table reaches past
    PERFT_NODES for each seed (it is not cut short)."""
    table = perft_vectors(game(key), ruleset)
    values = game(key).spec.resolve(ruleset)
    rows = table["counts"]
    assert isinstance(rows, list)
    for seed in PERFT_SEEDS:
        mine = [r for r in rows if r["seed"] == seed]
        assert [r["depth"] for r in mine] == list(range(1, len(mine) + 1))
        assert mine[-1]["nodes"] > PERFT_NODES or len(mine) == 12
    for r in rows:
        if r["nodes"] <= 2_000:
            want = perft_adapter(ReferenceAdapter(), key, values, r["seed"], r["depth"])
            assert want.to_json() == r


class HidesSecondTarget(Delegate):
    """A wrong move generator: when a card can capture either of two table cards, it offers only
    the first (the bug of an engine that picks a target for the player)."""

    def legal_actions(self) -> Sequence[str]:
        out: list[str] = []
        seen: set[tuple[str, str]] = set()
        for a in self.inner.legal_actions():
            words = a.split()
            key = (words[0], words[1] if len(words) > 1 else "")
            if len(words) == 3 and key in seen:
                continue
            seen.add(key)
            out.append(a)
        return out


def test_a_wrong_move_generator_is_caught() -> None:
    g = game("kujuroku")  # its first deal of seed 1 has a hand card with two targets on the table
    fast = perft(g, g.rules(), 1, 2)
    wrong = perft_adapter(HidesSecondTarget(), "kujuroku", {}, 1, 2)
    message = compare(fast, wrong)
    assert message is not None and "nodes" in message


def test_depth_zero_and_negative() -> None:
    g = game("koikoi")
    assert perft(g, g.rules(), 0, 0) == PerftCount("koikoi", 0, 0, 1, ())
    assert perft_adapter(ReferenceAdapter(), "koikoi", {}, 0, 0).nodes == 1
    with pytest.raises(ValueError):
        perft(g, g.rules(), 0, -1)


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "koikoi", "--seed", "1", "--depth", "3", "--json", "--divide"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nodes"] == 504 and out["by_kind"] == {"play": 504}
    assert sum(out["divide"].values()) == 504
    assert main(["perft", "koikoi", "-s", "1", "-d", "2"]) == 0
    assert "72 sequences" in capsys.readouterr().out
