"""Test configuration: Hypothesis profiles.

* ``ci`` (chosen automatically when ``CI`` is set): derandomized, so CI is never flaky;
* ``dev`` (default): a modest random run;
* ``thorough``: many examples, for a long local run (``HYPOTHESIS_PROFILE=thorough uv run pytest``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=50, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
