"""The agent's sandbox (docs/security.md, "The agent's sandbox"): what the graded process may see of this machine.

On Linux, `soundstage run` starts the agent under bubblewrap (`bwrap`). The agent sees the machine read-only
(the system, its own command's files, the Python it runs on), a fresh writable working folder and a fresh
`/tmp`; it does not see the run folders, the results store file, the scene, suite, world and check files,
the project file or soundstage's home (the local CA's key), which are each covered by an empty folder (a file
by an empty file). It has its own PID namespace (no `/proc` of the run process, no signals to it) and its
own IPC namespace, and it dies with its supervisor. It shares the network, so it reaches the world's URLs,
the proxy and its model provider as before.

`auto` uses the sandbox where bubblewrap works and runs the agent without one, with a warning, where it does
not (macOS, no `bwrap`, a container that forbids namespaces); `required` refuses to run then; `none` never
sandboxes. Every trial records which it had.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .errors import UsageError

MODES = ("auto", "required", "none")
# What a trial records it had.
BWRAP, NONE = "bwrap", "none"
# How long the check that bubblewrap works may take, in seconds.
PROBE_TIMEOUT = 10.0
INSTALL = "install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"
# Mounted fresh over the machine's own: devices, processes, and a /tmp that holds no other process's files.
_FRESH = ("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp")
# Every namespace but the network's: its own users (where the system allows), PIDs, IPC, host name, cgroups.
_UNSHARE = ("--unshare-all", "--share-net", "--die-with-parent", "--new-session")
TMP = Path("/tmp")


@dataclass(frozen=True)
class Choice:
    """The sandbox a run uses on this machine: `kind` is `bwrap` or `none`; `note` says why there is none when
    one was wanted (`auto`)."""

    kind: str
    note: str | None = None


def choose(mode: str) -> Choice:
    """The sandbox `mode` gives on this machine. Raises UsageError for `required` where there can be none."""
    if mode not in MODES:
        raise UsageError(f"--sandbox is one of {', '.join(MODES)}, not {mode!r}")
    if mode == NONE:
        return Choice(NONE)
    reason = _unavailable()
    if reason is None:
        return Choice(BWRAP)
    if mode == "required":
        raise UsageError(f"--sandbox required: {reason}")
    return Choice(NONE, f"the agent runs without a sandbox: {reason} (docs/security.md)")


@cache
def _unavailable() -> str | None:
    """Why bubblewrap cannot sandbox an agent here, or None when it can: tried once a process."""
    if not sys.platform.startswith("linux"):
        return f"there is no sandbox on {sys.platform} (it needs Linux namespaces)"
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return f"bwrap is not installed: {INSTALL}"
    try:
        tried = subprocess.run(
            [bwrap, "--ro-bind", "/", "/", *_FRESH, *_UNSHARE, "--", "true"],
            capture_output=True,
            timeout=PROBE_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not be run: {exc}"
    if tried.returncode != 0:
        said = tried.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap cannot make namespaces here ({said[-1] if said else f'exit {tried.returncode}'})"
    return None


@dataclass(frozen=True)
class Cover:
    """What the agent must not see, and what it needs even where that lies under something covered."""

    hidden: tuple[Path, ...] = ()
    shown: tuple[Path, ...] = ()

    def __add__(self, other: Cover) -> Cover:
        return Cover(self.hidden + other.hidden, self.shown + other.shown)


def bwrap_command(argv: list[str], workdir: Path, cover: Cover, needed: Iterable[Path]) -> list[str]:
    """The command line that runs `argv` (its words naming files already absolute: `command_words`) in the
    sandbox, in `workdir`. Each path of `cover.hidden` that exists is covered: a folder by an empty one, a
    file by an empty file; but a folder holding one of the `needed` folders (the Python and tools the agent
    runs, its home) or the folder of a file the command names is not covered whole: only the files `cover`
    names in it are. Those of these folders that lie under `/tmp` are mounted again in the fresh one, then the
    covers, then the `cover.shown` files and the files the command names over whatever covered them."""
    bwrap = shutil.which("bwrap") or "bwrap"
    command = _command_files(argv)
    folders = list(dict.fromkeys(path.parent for path in command))
    keep = [*map(_real, needed), *folders]
    hidden = _outermost(
        path
        for path in map(_real, cover.hidden)
        if path.exists() and path != Path("/") and not any(_within(kept, path) for kept in keep)
    )
    args = [bwrap, "--ro-bind", "/", "/", *_FRESH, *_UNSHARE]
    # The fresh /tmp has none of the machine's files: what the agent runs from is mounted again there (a virtual
    # environment made in /tmp, a script in a test's folder).
    for folder in _outermost(kept for kept in keep if _within(kept, TMP) and kept.exists()):
        args += ["--ro-bind", str(folder), str(folder)]
    for path in hidden:
        args += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
    covered = [*hidden, TMP]
    for path in dict.fromkeys([*map(_real, cover.shown), *command]):
        if path.exists() and any(_within(path, over) for over in covered):
            args += ["--ro-bind", str(path), str(path)]
    # bubblewrap sets PWD to the working folder, as a shell would (docs/cli.md, "The agent's environment").
    return [*args, "--bind", str(workdir), str(workdir), "--chdir", str(workdir), "--", *argv]


def command_words(argv: list[str], cwd: Path) -> list[str]:
    """The agent's command with each word that names a file or folder of `cwd` made absolute, so that it runs
    the same from the sandbox's fresh working folder. The program itself is taken as named when it has no
    `/` (it is looked up on PATH)."""
    words = []
    for position, word in enumerate(argv):
        relative = word and not os.path.isabs(word) and not word.startswith("-")
        if relative and (position > 0 or "/" in word) and os.path.lexists(cwd / word):
            word = os.path.normpath(cwd / word)
        words.append(word)
    return words


def unstartable(program: str, env: dict[str, str]) -> str | None:
    """Why `program` (a command's first word, absolute when it names a file: `command_words`) cannot be
    started, as the system would say it, or None: found first, since inside the sandbox bubblewrap would only
    exit with its own message. A script whose `#!` line names an interpreter that cannot be run (or `env` a
    program not on PATH) cannot be started either; the system says so as if the script itself were missing."""
    found = program if "/" in program else shutil.which(program, mode=os.F_OK, path=env.get("PATH", ""))
    if found is None or not os.path.exists(found):
        return os.strerror(errno.ENOENT)
    if os.path.isdir(found) or not os.access(found, os.X_OK):
        return os.strerror(errno.EACCES)
    named = _interpreter(Path(found))
    if not named or not os.path.isabs(named[0]):  # a relative one is the system's to find, from the working folder
        return None
    interpreter, *words = named
    why = unstartable(interpreter, env)
    if why is None and os.path.basename(interpreter) == "env" and words and not words[0].startswith("-"):
        why = unstartable(words[0], env)  # `#!/usr/bin/env python3`: python3 on the agent's PATH
        interpreter = words[0]
    return f"{why}: its interpreter {interpreter!r} (its #! line)" if why is not None else None


def _interpreter(path: Path) -> list[str]:
    """The words of a script's `#!` line (the interpreter and its argument); none for a program that has none."""
    try:
        with path.open("rb") as file:
            head = file.read(256)
    except OSError:
        return []
    if not head.startswith(b"#!"):
        return []
    return head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()


def needed_folders(env: dict[str, str]) -> list[Path]:
    """The folders the agent runs from, which no cover may take whole: its home, each folder on its PATH,
    and the Python installation soundstage runs on (a virtual environment's and the one it was made from)."""
    found = [Path(part) for part in env.get("PATH", "").split(os.pathsep) if os.path.isabs(part)]
    found += [Path(prefix) for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}]
    if env.get("HOME"):
        found.append(Path(env["HOME"]))
    return found


def _command_files(argv: list[str]) -> list[Path]:
    """The files the command names (the program, its script, a file it reads): shown to the agent, with the
    folders they lie in. A folder it names is not: it may hold anything."""
    return [_real(Path(word)) for word in argv if os.path.isabs(word) and os.path.isfile(word)]


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _within(path: Path, folder: Path) -> bool:
    """Whether `path` is `folder` or lies below it."""
    return path == folder or folder in path.parents


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """The paths, without any that lies within another, outer ones first."""
    found: list[Path] = []
    for path in sorted(set(paths), key=lambda p: (len(p.parts), str(p))):
        if not any(_within(path, outer) for outer in found):
            found.append(path)
    return found
