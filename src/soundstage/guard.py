"""Keeping the memory of a process that grades out of reach of the agents it runs (docs/security.md).

A process of the same user may read another's memory and environment through `/proc/<pid>/mem` and
`/proc/<pid>/environ`, or attach a debugger to it, unless the process is not dumpable. `soundstage run` holds
the admin token of its server in memory, so it makes itself not dumpable before any agent starts. Linux only;
a process with CAP_SYS_PTRACE (root, outside the sandbox) can still read it.
"""

from __future__ import annotations

import ctypes
import sys

PR_SET_DUMPABLE = 4


def undumpable() -> bool:
    """Makes this process not dumpable; answers whether it could (False on other systems)."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0)
