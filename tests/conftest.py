"""Test configuration: Hypothesis profiles.

* ``ci`` (chosen automatically when ``CI`` is set): derandomized, so CI is never flaky;
* ``dev`` (default): a modest random run;
* ``thorough``: many examples, for a long local run (``HYPOTHESIS_PROFILE=thorough uv run pytest``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=50, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fresh build of the whole rulebook site with -W -n (warnings are errors, nitpicky
    references), shared by the rulebook tests (tests/test_rulebook*.py). While working on the books,
    ``HANAFUDA_TEST_SITE=DIR`` points the tests at a site already built from the same tree."""
    from hanafuda.rulebook.build import build

    built = os.environ.get("HANAFUDA_TEST_SITE")
    if built:
        return Path(built)

    out = tmp_path_factory.mktemp("rulebook") / "html"
    assert build(out) == 0, "the rulebook build failed: see the warnings above"
    return out
