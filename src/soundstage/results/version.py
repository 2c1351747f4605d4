"""The version of the shapes a run leaves behind: `run.json`, each trial's `result.json` and the results store's
rows, read into `Run` and `Trial`.

Version 1 is the first that says it (`version` in `run.json` and `result.json`). Files without it were written
before, and read as version 1: what an earlier shape lacks is filled in (a trial's `killed` false, `attempts`
1, no `sandbox`, no calls counted after the end; a run's `figures` and times unknown). `VERSION` changes when a
field changes meaning, and the models read every earlier version; check results are versioned on their own
(`checks.results.RESULT_VERSION`).
"""

from __future__ import annotations

VERSION = 1
