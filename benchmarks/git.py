"""What a git push costs the server, measured in one process: the CPU seconds of one `git-receive-pack` call.

    python benchmarks/git.py [--objects 5000,10000,20000,40000]

Each push is made by the real `git` (`fast-import`, then `pack-objects` as `git push` sends it, deltas and
all) into a world of the merge-right-pr scene, and handed to the GitHub service through the recording layer
(routing, credentials, the log), in two shapes of the same number of objects: one commit of that many files
(in directories of 100), and a history of commits each adding a file to one of 50 directories (a commit, a
root tree, a directory's tree and a blob each: its trees grow with the history, so what the pack inflates to
grows faster than its objects: the time a push takes follows what it inflates to). A push over the limits
(`--over` objects) is answered without reading its pack.
Needs `git` on PATH.
"""

from __future__ import annotations

import argparse
import base64
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from soundstage.server import Hub
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.services.github.git_pack import FLUSH, pkt

ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Stage Bot",
    "GIT_AUTHOR_EMAIL": "bot@acme.test",
    "GIT_COMMITTER_NAME": "Stage Bot",
    "GIT_COMMITTER_EMAIL": "bot@acme.test",
}


def history(objects: int, shape: str) -> tuple[str, bytes, int, int]:
    """(tip, the pack `git push` would send for it, its objects, the bytes they inflate to) of a new history
    of about `objects` objects."""
    stamp = 1772463600  # 2026-03-02T15:00:00Z
    lines = []
    if shape == "files":  # one commit: its files, their directories' trees, the root tree and the commit
        lines.append(f"commit refs/heads/main\ncommitter Stage Bot <bot@acme.test> {stamp} +0000\ndata 5\nmany\n")
        for n in range(objects * 100 // 101):
            text = f"file {n}\n"
            lines.append(f"M 100644 inline d{n // 100}/f{n}.txt\ndata {len(text)}\n{text}")
    else:  # commits each adding a file: a commit, the root tree, the directory's tree and a blob
        for n in range(objects // 4):
            lines.append(f"commit refs/heads/main\ncommitter Stage Bot <bot@acme.test> {stamp + n} +0000\ndata 2\nc\n")
            text = f"change {n}\n"
            lines.append(f"M 100644 inline d{n % 50}/f{n}.txt\ndata {len(text)}\n{text}")
    with tempfile.TemporaryDirectory() as folder:

        def git(*args: str, given: bytes | None = None) -> bytes:
            return subprocess.run(
                ["git", *args], cwd=folder, env=ENV, input=given, capture_output=True, check=True
            ).stdout

        git("init", "-q")
        git("fast-import", "--quiet", given="\n".join(lines).encode())
        tip = git("rev-parse", "main").decode().strip()
        pack = git("pack-objects", "--stdout", "--revs", "-q", given=b"main\n")
        count = int(git("rev-list", "--objects", "--count", "main"))
        sizes = git("cat-file", "--batch-all-objects", "--batch-check=%(objectsize)")
    return tip, pack, count, sum(map(int, sizes.split()))


def push(tip: str, pack: bytes) -> tuple[float, bytes]:
    """CPU seconds of the push into a fresh world, and its answer."""
    hub = Hub()
    world = hub.add(hub.images.load("merge-right-pr", named=True))
    token = next(t for t, p in world.tokens.items() if p.service == "github")
    body = pkt(f"{'0' * 40} {tip} refs/heads/many\0report-status side-band-64k\n") + FLUSH + pack
    headers = {
        "authorization": "Basic " + base64.b64encode(f"x:{token}".encode()).decode(),
        "content-type": "application/x-git-receive-pack-request",
    }
    request = ServiceRequest("POST", "/acme/orders.git/git-receive-pack", {}, headers, body, "http://127.0.0.1/github")
    started = time.process_time()
    _, content, _, _ = record(world, SERVICES["github"], world.tokens[token], request)
    return time.process_time() - started, content


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", default="5000,10000,20000,40000", help="objects a push holds, comma-separated")
    parser.add_argument("--over", type=int, default=60000, help="objects of a push over the limit")
    args = parser.parse_args()
    for shape in ("files", "commits"):
        for objects in (int(n) for n in args.objects.split(",")):
            tip, pack, count, inflated = history(objects, shape)
            seconds, content = push(tip, pack)
            stored = b"ok refs/heads/many" in content
            print(
                f"{shape:7s} {count:6,d} objects, pack {len(pack) / 2**20:5.2f} MiB inflating to"
                f" {inflated / 2**20:6.2f} MiB: {seconds:6.2f} s CPU ({seconds / count * 1e6:5.1f} us an object,"
                f" {seconds / inflated * 2**20:5.2f} s a MiB inflated){'' if stored else ' REFUSED'}"
            )
    tip, pack, count, _ = history(args.over, "files")
    seconds, content = push(tip, pack)
    said = content.partition(b"fatal: ")[2].partition(b"\n")[0].decode() or "nothing: not refused"
    print(f"over    {count:6,d} objects, pack {len(pack) / 2**20:5.2f} MiB: {seconds:6.3f} s CPU, said {said}")


if __name__ == "__main__":
    main()
