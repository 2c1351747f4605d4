"""The Node packages of package-lock.json, for the tests that run them: installed by `npm ci` into
tests/node/node_modules once for every version of the lock. Without node and npm, or when npm cannot install
them, those tests skip, saying why; SOUNDSTAGE_TEST_NODE=required makes that a failure instead."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
MODULES = HERE / "node_modules"
INSTALLED = MODULES / ".soundstage-lock"  # the hash of the lock node_modules was installed from


def unavailable(reason: str) -> None:
    if os.environ.get("SOUNDSTAGE_TEST_NODE") == "required":
        pytest.fail(f"{reason} (SOUNDSTAGE_TEST_NODE=required)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def node_sdks() -> Path:
    """tests/node with its packages installed; one process installs them while the others wait."""
    for program in ("node", "npm"):
        if shutil.which(program) is None:
            unavailable(f"{program} is not on PATH: the Node tests need Node.js and npm")
    lock = hashlib.sha256((HERE / "package-lock.json").read_bytes()).hexdigest()
    with open(HERE / ".npm-ci.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        if not (INSTALLED.exists() and INSTALLED.read_text() == lock):
            failure = npm_ci()
            if failure is not None:
                unavailable(f"npm ci could not install the Node packages: {failure}")
            INSTALLED.write_text(lock)
    return HERE


def npm_ci() -> str | None:
    """Installs package-lock.json's packages; None once done, else npm's first words on why not."""
    try:
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=HERE,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "it did not finish in 10 minutes"
    if done.returncode != 0:
        return " / ".join(line.removeprefix("npm error ") for line in done.stderr.splitlines()[:4])
    return None
