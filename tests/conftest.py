"""Shared fixtures: every test that touches sessions gets its own data directory, never the real one."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "any-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("any-machine")
"""A property's examples are held to their outcomes, never to how fast a busy machine runs them:
hypothesis would otherwise fail an example slower than 200 ms, or data that is slow to draw. A test
that lists the health checks it suppresses lists too_slow as well (its list replaces this one)."""


@pytest.fixture
def referee_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty data directory, also set as REFEREE_HOME for code that reads the environment."""
    home = tmp_path / "referee-home"
    monkeypatch.setenv("REFEREE_HOME", str(home))
    return home
