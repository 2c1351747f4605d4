"""The version of the shapes a run leaves behind: `run.json`, each trial's `result.json` and the results store's
rows, read into `Run` and `Trial`.

Version 1 is the first that says it (`version` in `run.json` and `result.json`). Files without it were written
before, and read as version 1: what an earlier shape lacks is filled in (a trial's `killed` false, `attempts`
1, no `sandbox`, no calls counted after the end; a run's `figures` and times unknown). Version 2 added a trial's
`score` and a scene's `mean_score`: an earlier trial has no score (None) and an earlier scene no mean score.
`VERSION` changes when a field changes meaning or is added, and the models read every earlier version; check
results are versioned on their own (`checks.results.RESULT_VERSION`).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationInfo

VERSION = 2
# The validation context files.py reads a run folder's files with: there, a model that does not say its version
# is of version 1 (made in code, it is of this one).
READ = {"file": True}


def said(data: Any, info: ValidationInfo) -> Any:
    """A model's data with the version it was written in: 1 for a file that does not say."""
    if isinstance(data, dict) and "version" not in data and info.context == READ:
        return {**data, "version": 1}
    return data
