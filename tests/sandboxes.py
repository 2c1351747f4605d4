"""The agent's sandbox as the tests see it: what this machine gives an agent by default, and a mark for the tests
that need bubblewrap, which skip without it unless SOUNDSTAGE_TEST_SANDBOX=required (CI sets it: it fails
rather than skip them)."""

from __future__ import annotations

import os

import pytest

from soundstage.sandbox import BWRAP, choose

# What `--sandbox auto` gives an agent here: bwrap where bubblewrap works, none elsewhere.
SANDBOX = choose("auto").kind
_WHY = choose("auto").note
# What `soundstage run` says of it on stderr, once the run has started: nothing where there is a sandbox.
WARNING = [] if _WHY is None else [f"warning: {_WHY}"]


def needs_bwrap(test: object) -> object:
    """Skips the test where bubblewrap cannot sandbox an agent, saying why; fails it when CI requires it."""
    if SANDBOX == BWRAP or os.environ.get("SOUNDSTAGE_TEST_SANDBOX") == "required":
        return test  # without bubblewrap it fails: its runs ask for `--sandbox required`
    return pytest.mark.skip(reason=_WHY or "no sandbox")(test)
