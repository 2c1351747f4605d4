"""Gmail's listings and searches in a big mailbox: what `users.messages.list` costs as the mailbox grows
(docs/services/gmail.md, "Search").

    python benchmarks/gmail.py [--sizes 1000,3000,10000] [--runs 30]

Maya's mailbox is filled with `size` messages (from Omar and from outside, a third of them read, one in a
thousand holding a rare word), put in the world image as a world file's are; each query is then a
`messages.list` through the recording layer on a live copy. Median CPU milliseconds per call (the process's
CPU time: the machine may be shared); `first` is the first search of words in a world, which builds the
word index of the image's messages once for every copy.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from reads import WORDS, _ms, _text

from soundstage.server import Hub
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.services.gmail import messages, mime
from soundstage.stage import WorldImage, build_image, read_scene
from soundstage.world import Collection, World

SCENE = """
name: gmail-bench
task: none
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {google_user: $maya}
seed:
  slack:
    users:
      - {ref: maya, name: maya, real_name: Maya Chen, email: maya@acme.test}
      - {ref: omar, name: omar, real_name: Omar Haddad, email: omar@acme.test}
"""
QUERIES = {
    "inbox, first page": ("", "INBOX"),
    "rare word": ("zeppelin", ""),
    "common word": ("cache", ""),
    "two common words": ("cache latency", ""),
    "phrase": ('"cache latency"', ""),
    "from:omar is:unread": ("from:omar is:unread", ""),
    "-cache newer_than:7d": ("-cache newer_than:7d", ""),
    "subject:report OR has:attachment": ("subject:report OR has:attachment", ""),
}


class Image:
    def __init__(self, image: WorldImage) -> None:
        self.image = image

    def __getitem__(self, name: str) -> Collection:
        return self.image.collections.setdefault(name, Collection(name))


def mailbox_image(size: int) -> WorldImage:
    with tempfile.TemporaryDirectory() as folder:
        scene = Path(folder) / "bench.yaml"
        scene.write_text(SCENE)
        image = build_image(*read_scene(scene))
    rng = random.Random(size)
    senders = ["Omar Haddad <omar@acme.test>", "alerts@vendor.example", "ops@northwind.example"]
    for i in range(size):
        at = image.start - (size - i) * 600_000_000
        raw = mime.compose(
            senders[i % 3],
            ["Maya Chen <maya@acme.test>"],
            [],
            " ".join(rng.choice(WORDS) for _ in range(4)).capitalize(),
            _text(rng, i) + " " + _text(rng, i + 1),
            at,
            f"<{i}@bench.example>",
            f"bench{i}",
        )
        labels = ["INBOX"] if i % 4 == 0 else ["UNREAD", "INBOX"]
        messages.add(Image(image), image.ids, "maya@acme.test", raw, at, labels, recorded=False)
    return image


def caller(world: World) -> Callable[[str, str], Any]:
    service = SERVICES["gmail"]
    principal = next(p for p in world.tokens.values() if p.service == "google")

    def call(q: str, label: str) -> Any:
        query = {"q": q, "maxResults": "100"} | ({"labelIds": label} if label else {})
        request = ServiceRequest("GET", "/gmail/v1/users/me/messages", query, {}, b"", "http://127.0.0.1/w/x/gmail")
        reply, content, _, _ = record(world, service, principal, request)
        if reply.status != 200:
            raise RuntimeError(content[:200])
        return json.loads(content)

    return call


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,3000,10000")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        image = mailbox_image(size)
        world = Hub().add(image)
        call = caller(world)
        started = time.process_time()
        found = call("cache", "")
        first = (time.process_time() - started) * 1000
        print(f"{size} messages: first search {first:.1f} ms ({found['resultSizeEstimate']} found)")
        for name, (q, label) in QUERIES.items():
            estimate = call(q, label)["resultSizeEstimate"]
            print(f"  {name:36} {_ms(partial(call, q, label), args.runs):7.2f} ms  ({estimate} found)")


if __name__ == "__main__":
    main()
