"""soundstage's home: the folder of what it keeps between runs (the local CA, the people's model
understanding cache). A run's sandbox hides it from the agent, so nothing the agent writes can reach it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def home(env: Mapping[str, str] = os.environ) -> Path:
    """`SOUNDSTAGE_HOME`, else `~/.soundstage`."""
    return Path(env.get("SOUNDSTAGE_HOME") or Path.home() / ".soundstage")
