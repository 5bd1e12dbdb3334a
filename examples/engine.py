"""An example external engine speaking the referee protocol ``hanafuda-referee/1``.

It is a thin wrapper around the reference implementation, so it agrees with it: run
``hanafuda referee koikoi --engine "python examples/engine.py"`` and every match passes. An
implementer replaces the body of :func:`handle` with calls into their own engine; the
protocol itself is documented in ``hanafuda_spec.referee``.

One JSON object per line on standard input, one reply per line on standard output; nothing
else goes to standard output.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from hanafuda.adapter import ReferenceAdapter
from hanafuda.records import redeal
from hanafuda_spec.records import DealZones

PROTOCOL = "hanafuda-referee/1"


class Engine:
    """The engine under test: here, the reference behind its adapter."""

    def __init__(self) -> None:
        self.adapter = ReferenceAdapter()

    def legal(self) -> list[str]:
        return list(self.adapter.legal_actions())

    def score(self, msg: dict[str, Any]) -> dict[str, Any]:
        yaku, card_points = self.adapter.score_pile(msg["game"], msg.get("options") or {}, msg["cards"],
                                                    msg.get("month"))
        return {"ok": True, "yaku": [{"id": y.id, "points": y.points} for y in yaku], "card_points": card_points}

    def rounds_ended(self) -> list[dict[str, Any]]:
        return [{"reason": o.reason, "deltas": list(o.deltas), "counts": o.counts,
                 "yaku": [[{"id": y.id, "points": y.points} for y in side] for side in o.yaku],
                 "card_points": None if o.card_points is None else list(o.card_points),
                 "notes": dict(o.notes),
                 "final": None if o.final is None else o.final.to_json()}
                for o in self.adapter.rounds_ended()]


def handle(engine: Engine, msg: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to one request (None: no reply, the engine exits)."""
    cmd = msg.get("cmd")
    a = engine.adapter
    if cmd == "hello":
        return {"ok": True, "protocol": PROTOCOL, "engine": "hanafuda example engine"}
    if cmd == "start":
        a.start(msg["game"], msg.get("options") or {}, int(msg["seed"]), msg.get("deck"))
        return {"ok": True}
    if cmd == "deal":  # the deal in play, handed as zones (hanafuda referee --send-deals)
        a._m = redeal(a.match, DealZones.from_json(msg.get("zones")))
        return {"ok": True}
    if cmd == "legal":
        return {"ok": True, "actions": engine.legal()}
    if cmd == "apply":
        a.apply(msg["action"])
        return {"ok": True, "rounds_ended": engine.rounds_ended(), "match_over": a.match_over()}
    if cmd == "state":
        return {"ok": True, "snapshot": a.snapshot().to_json()}
    if cmd == "score":
        return engine.score(msg)
    if cmd == "quit":
        return None
    return {"ok": False, "error": f"unknown command {cmd!r}"}


def main(engine: Engine | None = None) -> int:
    engine = engine or Engine()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = handle(engine, json.loads(line))
        except (ValueError, KeyError, TypeError) as e:  # illegal actions and bad requests
            reply = {"ok": False, "error": str(e)}
        if reply is None:
            return 0
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
