"""Shared fixtures: every test that touches sessions gets its own data directory, never the real one."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def referee_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty data directory, also set as REFEREE_HOME for code that reads the environment."""
    home = tmp_path / "referee-home"
    monkeypatch.setenv("REFEREE_HOME", str(home))
    return home
