"""The doctests of the views that need an optional extra are collected only when it is installed."""

from __future__ import annotations

import importlib.util

collect_ignore = [module for module, needs in (("pettingzoo.py", "pettingzoo"), ("openspiel.py", "pyspiel"))
                  if importlib.util.find_spec(needs) is None]
