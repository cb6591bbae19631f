"""Where the project's own rulebooks are: `$REFEREE_RULEBOOKS`, else `rulebooks/` beside the package.

Two layers read them: the games' numbers (referee/engine/facts.py: the TOML files) and the rules
lookup (referee/rules/: the Markdown), so the place is decided here, below both.
"""

from __future__ import annotations

import os
from pathlib import Path


def builtin_dir() -> Path:
    """The project's rulebooks: `$REFEREE_RULEBOOKS`, else `rulebooks/` beside the package."""
    override = os.environ.get("REFEREE_RULEBOOKS")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "rulebooks"
