"""The agent's supervisor: a small process between the runner and the agent that ends the agent's whole tree.

The runner starts it as a script (`python -I -S supervisor.py STATUS_FD PARENT_PID [--sandboxed] -- AGENT
ARGV...`), never imports it: it uses the standard library only, so it starts fast and nothing of the user's
environment or of soundstage's can change what it does. It answers on the file descriptor STATUS_FD, one JSON
object a line: `{"started": PID}` or `{"error": REASON}` (the agent command could not be started), then, when it
is done, `{"exit": CODE, "killed": BOOL}` or `{"signal": NUMBER, "killed": BOOL}` (`killed`: the supervisor
killed the agent, because it was still running when the supervisor was told to end).

It ends, killing everything the agent started, when the agent exits, when it receives SIGTERM (the runner's
way to end an attempt), or when the runner dies. On Linux:
- it is a child subreaper (PR_SET_CHILD_SUBREAPER), so a process of the tree whose parent dies is re-parented
  to it, not to init: the tree stays under it whatever the processes do (`setsid`, double forks), and it finds
  every one by walking /proc;
- its parent-death signal is SIGTERM (PR_SET_PDEATHSIG), so when the runner dies, even by SIGKILL, it ends
  the tree; the agent's parent-death signal is SIGKILL, should the supervisor itself be killed.
`--sandboxed`: the command is bubblewrap running the agent (sandbox.py), which exits with the agent's code, or
with 128 + N when a signal N killed it; the supervisor says the signal, as it does for an agent it ran itself.
Elsewhere (macOS) there is neither: it kills the agent's process group, and notices that the runner died by
its parent changing. A process of the agent's that left the group (`setsid`) is then not found.
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import signal
import subprocess
import sys

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
LINUX = sys.platform.startswith("linux")
_LIBC = ctypes.CDLL(None, use_errno=True) if LINUX else None


def _prctl(option: int, value: int) -> bool:
    return _LIBC is not None and _LIBC.prctl(option, value, 0, 0, 0) == 0


def _agent_setup() -> None:
    """Runs in the agent's process before exec: its own process group (killable without the supervisor),
    and death with the supervisor."""
    os.setpgid(0, 0)
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _descendants(root: int) -> list[int]:
    """Every process below `root`, by the parent each process's /proc/PID/stat names (none without /proc)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                text = stat.read()
        except OSError:  # it has just gone
            continue
        # `pid (comm) state ppid ...`; comm may hold spaces and parentheses, so read after the last `)`.
        fields = text[text.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    queue = [root]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def _kill(pid: int, group: bool = False) -> None:
    try:
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# The exit codes by which bubblewrap says a signal killed the command it ran: 128 + the signal's number.
SIGNALLED = range(129, 129 + 64)


class Supervisor:
    def __init__(self, status_fd: int, parent: int, argv: list[str], sandboxed: bool = False) -> None:
        self.status_fd = status_fd
        self.parent = parent
        self.argv = argv
        self.sandboxed = sandboxed
        self.agent: int | None = None
        self.status: int | None = None  # the agent's wait status, once reaped
        self.told_to_end = False
        self.wakeup_r, wakeup_w = os.pipe()
        os.set_blocking(wakeup_w, False)
        signal.set_wakeup_fd(wakeup_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so each one writes to the wakeup pipe
        signal.signal(signal.SIGTERM, self._end)
        signal.signal(signal.SIGHUP, self._end)

    def _end(self, *_: object) -> None:
        self.told_to_end = True

    def say(self, **message: object) -> None:
        os.write(self.status_fd, (json.dumps(message) + "\n").encode())

    def run(self) -> None:
        if LINUX:
            _prctl(PR_SET_CHILD_SUBREAPER, 1)
            _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != self.parent:  # the runner died before the parent-death signal was set
            return
        try:
            # The agent gets no descriptor but stdin, stdout and stderr (close_fds), so not STATUS_FD.
            agent = subprocess.Popen(self.argv, preexec_fn=_agent_setup)  # noqa: PLW1509 (no other thread here)
        except OSError as exc:
            self.say(error=exc.strerror or str(exc))
            return
        self.agent = agent.pid
        self.say(started=agent.pid)
        while self.status is None and not self.told_to_end and os.getppid() == self.parent:
            self._reap(block=False)
            # Woken by SIGCHLD or SIGTERM; without a parent-death signal, look at the parent now and then.
            waiting = self.status is None and not self.told_to_end
            if waiting and select.select([self.wakeup_r], [], [], None if LINUX else 1.0)[0]:
                os.read(self.wakeup_r, 4096)
        running = self.status is None
        self._end_tree()
        status = self.status if self.status is not None else 0
        killed = running and os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        code = os.waitstatus_to_exitcode(status)
        if os.WIFSIGNALED(status):
            self.say(signal=os.WTERMSIG(status), killed=killed)
        elif self.sandboxed and code in SIGNALLED:
            self.say(signal=code - 128, killed=running and code - 128 == signal.SIGKILL)
        else:
            self.say(exit=code, killed=killed)

    def _reap(self, block: bool) -> bool:
        """Reaps children (one at least when `block`); answers False when there is none left."""
        while True:
            try:
                pid, status = os.waitpid(-1, 0 if block else os.WNOHANG)
            except ChildProcessError:
                return False
            if pid == 0:
                return True
            if pid == self.agent:
                self.status = status
            block = False

    def _end_tree(self) -> None:
        """Kills every process below the supervisor, again and again until it has no child left: a process
        forked while the others were being killed is re-parented to the supervisor when its parent dies."""
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            for pid in _descendants(os.getpid()):
                _kill(pid)
            if self.agent is not None:
                _kill(self.agent, group=True)  # all there is to find without /proc
            if not self._reap(block=True):
                return


def main(args: list[str]) -> None:
    sandboxed = args[2:3] == ["--sandboxed"]
    if sandboxed:
        args = args[:2] + args[3:]
    if len(args) < 4 or args[2] != "--":
        raise SystemExit("usage: supervisor.py STATUS_FD PARENT_PID [--sandboxed] -- COMMAND [ARG...]")
    Supervisor(int(args[0]), int(args[1]), args[3:], sandboxed).run()


if __name__ == "__main__":
    main(sys.argv[1:])
