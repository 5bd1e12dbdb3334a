"""The doctests of the game-AI views need their optional extra: collected only when it is installed
(``uv sync --extra pettingzoo --extra openspiel``; their tests in ``tests/`` skip on their own)."""

from __future__ import annotations

import importlib.util

collect_ignore = [path for path, needs in (("reference/hanafuda/pettingzoo.py", "pettingzoo"),
                                           ("reference/hanafuda/openspiel.py", "pyspiel"))
                  if importlib.util.find_spec(needs) is None]
