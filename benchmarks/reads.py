"""Reads in big worlds, and loading one: what a read costs as the world grows (docs/architecture.md).

    python benchmarks/reads.py [--sizes 1000,10000,100000] [--issues 1000,10000] [--load 100000]

(a) Slack `conversations.history` (limit=1, limit=100, with `oldest`/`latest`, the second page through its
    cursor) and `search.messages` (a rare word, a common word, two common words, a phrase of two common words
    and one of three across the workspace and `in:` a channel, by score and by time, a term starting five of
    the generated words and 14 of the scene's) in a world of 1k, 10k and 100k messages,
    through the recording layer. Median CPU milliseconds per call (the process's CPU time: the machine may be
    shared).
(b) GitHub `GET /repos/{owner}/{repo}/issues` (first page, a later page, sorted by update) and
    `GET /search/issues` (a rare word, a common word, part of words with `is:closed`, only `is:open`, a later
    page of that sorted by update) in a repo of 1k and 10k issues.
(c) copying a world image of 100k messages into a live world (what every trial pays).
(d) loading a world file that gives 100k messages as records, in a process of its own: wall and CPU seconds
    (CPU time is what to compare on a shared machine), resident memory grown, and (in another process, as
    tracing slows it) the peak of Python's allocations and what the image still holds once built.
(e) the same for a world file of the same people and channels whose `generate:` makes as many messages, and
    its CPU seconds against (d)'s. Budget: at most 1.5 times (d)'s CPU, and 150 MiB of resident memory grown.
(f) Google Calendar `events.list` (a page of 20 in start order, instances of recurring events in place) and
    `freebusy.query` on one calendar of 50 events, in a world of 1k, 10k and 100k events on another calendar:
    what others' events cost a calendar's reads.

Each world is a seed scene's (csv-export for Slack, issue-triage for GitHub), its image filled with generated records
before it is copied into a live world, so the records are the image's (as a world file's are) and the reads run on a
fresh copy.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from soundstage.server import Hub
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.services.calendar import events as calendar_events
from soundstage.services.calendar.store import EVENTS
from soundstage.services.github import issues
from soundstage.services.github.records import Records
from soundstage.services.slack import messages
from soundstage.services.slack.store import MESSAGES, USERS
from soundstage.services.slack.timestamps import make_ts
from soundstage.stage import WorldImage, build_image, read_scene
from soundstage.world import Collection, Principal, World

SLACK_SCENE = ROOT / "seeds" / "csv-export.yaml"
GITHUB_SCENE = ROOT / "seeds" / "issue-triage.yaml"
WORDS = [
    "deploy",
    "cache",
    "latency",
    "orders",
    "export",
    "invoice",
    "billing",
    "dashboard",
    "search",
    "retry",
    "timeout",
    "customer",
    "rollout",
    "incident",
    "review",
    "merge",
    "branch",
    "release",
    "migration",
    "queue",
    "worker",
    "token",
    "refund",
    "report",
    "alert",
    "metrics",
]
RARE = "zeppelin"  # in about one message of a thousand


def _text(rng: random.Random, i: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 14))]
    if i % 1000 == 7:
        words.insert(rng.randrange(len(words)), RARE)
    return " ".join(words).capitalize() + "."


def slack_image(count: int) -> WorldImage:
    """The scene's image with `count` messages more, spread over its public channels, one in ten a reply."""
    image = build_image(*read_scene(SLACK_SCENE))
    collection = image.collections[MESSAGES]
    records = dict(collection._records)
    rng = random.Random(count)
    team = image.settings["slack"]["team_id"]
    channels = [image.refs[name] for name in ("general", "support", "engineering", "incidents", "random")]
    users = [u for u in image.collections[USERS] if not u["is_bot"] and not u["deleted"]]
    start = image.start - count * 10_000_000 - 86_400_000_000
    roots: dict[str, list[str]] = {c: [] for c in channels}
    for i in range(count):
        channel = channels[i % len(channels)]
        author = users[rng.randrange(len(users))]
        ts = make_ts(image.ids, start + i * 10_000_000)
        parent = rng.choice(roots[channel][-20:]) if roots[channel] and i % 10 == 3 else None
        made = messages.record(
            ts,
            channel,
            author,
            _text(rng, i),
            team,
            image.ids,
            thread_ts=parent,
            parent_user=records[parent]["user"] if parent else None,
        )
        records[ts] = made
        if parent is None:
            roots[channel].append(ts)
    by_ts = dict(sorted(records.items(), key=lambda item: item[0]))
    image.collections[MESSAGES] = Collection(MESSAGES, by_ts)
    return image


def github_image(count: int) -> WorldImage:
    """The scene's image with `count` issues more in acme/orders, a third of them closed."""
    image = build_image(*read_scene(GITHUB_SCENE))

    def collection(name: str) -> Collection:
        return image.collections.setdefault(name, Collection(name))

    records = Records(collection, image.ids)
    rng = random.Random(count)
    for i in range(count):
        at = image.start - (count - i) * 60_000_000
        made = issues.create_issue(
            records, "acme/orders", "maya", at, title=_text(rng, i), body=_text(rng, i + 1), labels=[], assignees=[]
        )
        if i % 3 == 0:
            issues.update_item(records, "github.issues", made, "omar", at + 1, state="closed")
    return image


class Caller:
    """Calls one service of a live world through the recording layer, as the server does."""

    def __init__(self, world: World, service: str, token_type: str) -> None:
        self.world = world
        self.service = SERVICES[service]
        self.principal = next(p for p in world.tokens.values() if p.service == service and p.token_type == token_type)

    def slack(self, method: str, args: dict[str, str]) -> dict[str, Any]:
        request = ServiceRequest(
            "POST",
            f"/api/{method}",
            {},
            {"content-type": "application/x-www-form-urlencoded"},
            urlencode(args).encode(),
            "http://127.0.0.1:8750/w/x/slack",
        )
        return self._answer(request)

    def github(self, path: str, query: dict[str, str]) -> Any:
        request = ServiceRequest("GET", path, query, {"user-agent": "reads"}, b"", "http://127.0.0.1:8750/w/x/github")
        return self._answer(request)

    def _answer(self, request: ServiceRequest) -> Any:
        reply, content, _, _ = record(self.world, self.service, self.principal, request)
        body = json.loads(content)
        if reply.status != 200 or (isinstance(body, dict) and body.get("ok") is False):
            raise RuntimeError(f"{request.path} answered {reply.status}: {str(body)[:200]}")
        return body


def calendar_image(count: int) -> WorldImage:
    """The Slack scene's image (the shipped world's people, each with a calendar) with `count` events on Omar's
    calendar, an hour apart, and 50 on Maya's."""
    image = build_image(*read_scene(SLACK_SCENE))
    collection = image.collections.setdefault(EVENTS, Collection(EVENTS))
    for owner, n in (("omar@acme.test", count), ("maya@acme.test", 50)):
        for i in range(n):
            at = image.start + i * 3_600_000_000
            fields = {
                **{name: None for name in ("summary", "description", "location", "colorId", "recurrence")},
                "summary": f"event {i}",
                "start": {"dateTime": at},
                "end": {"dateTime": at + 1_800_000_000},
                "startAt": at,
                "endAt": at + 1_800_000_000,
                "transparency": "opaque",
                "visibility": "default",
                "attendees": [],
                "reminders": {"useDefault": True},
            }
            event_id = f"{owner[0]}{i:08d}"
            record = calendar_events.event_record(owner, event_id, fields, owner, (owner, None), image.start)
            collection.add(record["id"], record)
    return image


def calendar_reads(count: int, runs: int) -> dict[str, float]:
    world = Hub().add(calendar_image(count))
    service, maya = SERVICES["calendar"], Principal("google", "maya@acme.test", "user")

    def call(method: str, path: str, query: dict[str, str], body: bytes = b"") -> None:
        request = ServiceRequest(method, path, query, {"content-type": "application/json"}, body)
        reply, *_ = record(world, service, maya, request)
        if reply.status != 200:
            raise RuntimeError(f"{path} answered {reply.status}: {str(reply.body)[:200]}")

    events = "/calendar/v3/calendars/primary/events"
    week = {"timeMin": "2026-03-02T00:00:00Z", "timeMax": "2026-03-09T00:00:00Z"}
    busy = json.dumps({**week, "items": [{"id": "primary"}]}).encode()
    cases: dict[str, Callable[[], Any]] = {
        "events.list 20 by start": lambda: call(
            "GET", events, {"maxResults": "20", "singleEvents": "true", "orderBy": "startTime"}
        ),
        "events.list a week": lambda: call("GET", events, {**week, "singleEvents": "true"}),
        "freebusy.query a week": lambda: call("POST", "/calendar/v3/freeBusy", {}, busy),
    }
    return {name: _ms(case, runs) for name, case in cases.items()}


def _ms(call: Callable[[], Any], runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.process_time()
        call()
        samples.append(time.process_time() - started)
    return statistics.median(samples) * 1000


def _copy_ms(image: WorldImage) -> float:
    hub = Hub()
    return _ms(lambda: hub.add(image), 20)


def slack_reads(count: int, runs: int) -> dict[str, float]:
    image = slack_image(count)
    hub = Hub()
    world = hub.add(image)
    caller = Caller(world, "slack", "user")
    general = world.refs["general"]
    first = caller.slack("conversations.history", {"channel": general, "limit": "100"})
    cursor = first["response_metadata"]["next_cursor"]
    middle = first["messages"][50]["ts"]
    history = world[MESSAGES].by("channel", general)
    oldest, latest = history[len(history) // 3]["ts"], history[len(history) // 2]["ts"]
    # Once per image, for every world copied from it: the search indexes, built by the first search needing them.
    started = time.process_time()
    caller.slack("search.messages", {"query": '"cache latency" deploy'})
    first = (time.process_time() - started) * 1000
    cases: dict[str, Callable[[], Any]] = {
        "history limit=1": lambda: caller.slack("conversations.history", {"channel": general, "limit": "1"}),
        "history limit=100": lambda: caller.slack("conversations.history", {"channel": general, "limit": "100"}),
        "history oldest+latest limit=100": lambda: caller.slack(
            "conversations.history", {"channel": general, "oldest": oldest, "latest": latest, "limit": "100"}
        ),
        "history latest limit=1": lambda: caller.slack(
            "conversations.history", {"channel": general, "latest": middle, "limit": "1"}
        ),
        "history cursor (page 2)": lambda: caller.slack(
            "conversations.history", {"channel": general, "cursor": cursor, "limit": "100"}
        ),
        f"search '{RARE}'": lambda: caller.slack("search.messages", {"query": RARE}),
        "search 'deploy' (common)": lambda: caller.slack("search.messages", {"query": "deploy"}),
        "search phrase in:#support by time": lambda: caller.slack(
            "search.messages", {"query": '"cache latency" in:#support', "sort": "timestamp"}
        ),
        "search 'deploy cache' (two common words)": lambda: caller.slack("search.messages", {"query": "deploy cache"}),
        "search 'deploy cache' by time": lambda: caller.slack(
            "search.messages", {"query": "deploy cache", "sort": "timestamp"}
        ),
        "search phrase (workspace)": lambda: caller.slack("search.messages", {"query": '"cache latency"'}),
        "search phrase in:#support": lambda: caller.slack("search.messages", {"query": '"cache latency" in:#support'}),
        "search phrase of three (workspace)": lambda: caller.slack(
            "search.messages", {"query": '"cache latency deploy"'}
        ),
        "search phrase of three in:#support": lambda: caller.slack(
            "search.messages", {"query": '"cache latency deploy" in:#support'}
        ),
        "search 're' (starts 19 words)": lambda: caller.slack("search.messages", {"query": "re"}),
        "search 're' in:#support by time": lambda: caller.slack(
            "search.messages", {"query": "re in:#support", "sort": "timestamp"}
        ),
        "search 'deploy cache review' page 5": lambda: caller.slack(
            "search.messages", {"query": "deploy cache review", "page": "5"}
        ),
        "search 'deploy' page 5": lambda: caller.slack("search.messages", {"query": "deploy", "page": "5"}),
    }
    results = {"first search of the image (builds its indexes)": first}
    results.update((name, _ms(case, runs)) for name, case in cases.items())
    results["copy the image into a live world"] = _copy_ms(image)
    return results


def github_reads(count: int, runs: int) -> dict[str, float]:
    image = github_image(count)
    hub = Hub()
    world = hub.add(image)
    caller = Caller(world, "github", "user")
    listing = "/repos/acme/orders/issues"
    cases: dict[str, Callable[[], Any]] = {
        "list issues (page 1)": lambda: caller.github(listing, {}),
        "list issues page 10": lambda: caller.github(listing, {"page": "10"}),
        "list issues state=all sort=updated": lambda: caller.github(listing, {"state": "all", "sort": "updated"}),
        f"search/issues '{RARE}'": lambda: caller.github("/search/issues", {"q": f"{RARE} repo:acme/orders"}),
        "search/issues 'deploy' (common)": lambda: caller.github("/search/issues", {"q": "deploy repo:acme/orders"}),
        "search/issues 'port' (in words) is:closed": lambda: caller.github(
            "/search/issues", {"q": "port repo:acme/orders is:closed"}
        ),
        "search/issues is:open (no words)": lambda: caller.github("/search/issues", {"q": "repo:acme/orders is:open"}),
        "search/issues is:open sort=updated page 5": lambda: caller.github(
            "/search/issues", {"q": "repo:acme/orders is:open", "sort": "updated", "page": "5"}
        ),
    }
    results = {name: _ms(case, runs) for name, case in cases.items()}
    results["copy the image into a live world"] = _copy_ms(image)
    return results


# -- loading a world file ----------------------------------------------------------------------------


def world_file(count: int, folder: Path, generated: bool = False) -> Path:
    """A world definition giving `count` messages as records: acme's people and channels, one message in
    ten a reply to a recent message of its channel (by ref); or, `generated`, the same people and channels and
    a `generate:` of `count` messages in #general (its defaults: 7 days, threads 0.15, reactions 0.2)."""
    rng = random.Random(count)
    users = ["maya", "omar", "laura", "priya", "jonas", "alex"]
    channels = ["general", "engineering", "incidents"]
    lines = [
        "name: bigworld",
        'clock: {start: "2026-03-02T14:00:00Z"}',
        "slack:",
        "  team: {name: Big, domain: big}",
        "  users:",
        *[f"    - {{ref: {u}, name: {u}, email: {u}@big.test}}" for u in users],
        "  channels:",
        *[f"    - {{ref: {c}, name: {c}, members: [{', '.join('$' + u for u in users)}]}}" for c in channels],
    ]
    if generated:
        lines += ["generate:", f"  slack.messages: {{channel: $general, count: {count}}}"]
    else:
        lines.append("  messages:")
    roots: dict[str, list[int]] = {c: [] for c in channels}
    for i in range(0 if generated else count):
        channel = channels[i % len(channels)]
        user = users[rng.randrange(len(users))]
        text = _text(rng, i)
        if roots[channel] and i % 10 == 3:
            parent = rng.choice(roots[channel][-20:])
            lines.append(f'    - {{channel: ${channel}, user: ${user}, thread_ts: $m{parent}, text: "{text}"}}')
        else:
            roots[channel].append(i)
            lines.append(f'    - {{ref: m{i}, channel: ${channel}, user: ${user}, text: "{text}"}}')
    path = folder / "worlds" / "bigworld.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    scene = folder / "seeds" / "big.yaml"
    scene.parent.mkdir(parents=True, exist_ok=True)
    scene.write_text("name: big\nworld: bigworld\ntask: Read the channels.\n")
    return scene


def _load_child(scene: str, traced: bool) -> None:
    """In a process of its own: loads the scene's image, prints the seconds it took (wall and CPU) and the
    memory it grew by (resident MiB), or with `traced` the peak of what Python allocated meanwhile and what it
    still holds once the image is built and garbage collected (MiB, tracemalloc: slower, so timed apart)."""
    if traced:
        tracemalloc.start()
    before = _peak_resident_kib()
    started, cpu = time.perf_counter(), time.process_time()
    image = build_image(*read_scene(Path(scene)))
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    grown = (_peak_resident_kib() - before) / 1024
    peak = tracemalloc.get_traced_memory()[1] / 2**20 if traced else 0.0
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] / 2**20 if traced else 0.0
    count = len(image.collections[MESSAGES])
    print(json.dumps({"seconds": elapsed, "cpu": cpu, "mib": grown, "peak": peak, "held": held, "messages": count}))


def _peak_resident_kib() -> int:
    """This process's peak resident memory (KiB): Linux's VmHWM, where it is. Not `ru_maxrss`: a child's starts
    at its parent's resident size when forked, so what the child grew by read that much less."""
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def load_world(count: int, generated: bool = False) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        scene = world_file(count, Path(folder), generated)
        size = (Path(folder) / "worlds" / "bigworld.yaml").stat().st_size
        results = []
        for flag in ("--load-child", "--load-traced"):
            child = subprocess.run(
                [sys.executable, __file__, flag, str(scene)], check=True, capture_output=True, text=True
            )
            results.append(json.loads(child.stdout))
        return {
            "seconds": results[0]["seconds"],
            "CPU seconds": results[0]["cpu"],
            "resident MiB grown": results[0]["mib"],
            "allocated MiB at the peak (tracemalloc)": results[1]["peak"],
            "MiB the image holds (tracemalloc)": results[1]["held"],
            "file MiB": size / 2**20,
        }


def _print(title: str, results: dict[str, float]) -> None:
    print(title)
    for name, value in results.items():
        print(f"  {name:<44} {value:9.3f} ms")


def _print_load(loaded: dict[str, float]) -> None:
    for name in (
        "seconds",
        "CPU seconds",
        "resident MiB grown",
        "allocated MiB at the peak (tracemalloc)",
        "MiB the image holds (tracemalloc)",
    ):
        print(f"  {name:<44} {loaded[name]:9.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="message counts of the Slack worlds")
    parser.add_argument("--issues", default="1000,10000", help="issue counts of the GitHub worlds")
    parser.add_argument("--load", type=int, default=100_000, help="messages in the loaded world files (0: skip)")
    parser.add_argument("--events", default="1000,10000,100000", help="others' event counts of the Calendar worlds")
    parser.add_argument("--runs", type=int, default=30, help="calls timed per case")
    parser.add_argument("--load-child", help=argparse.SUPPRESS)
    parser.add_argument("--load-traced", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.load_child or args.load_traced:
        _load_child(args.load_child or args.load_traced, traced=bool(args.load_traced))
        return
    for count in (int(n) for n in args.sizes.split(",") if n):
        _print(f"Slack, {count:,} messages (median CPU ms per call)", slack_reads(count, args.runs))
    for count in (int(n) for n in args.issues.split(",") if n):
        _print(f"GitHub, {count:,} issues in one repo (median CPU ms per call)", github_reads(count, args.runs))
    for count in (int(n) for n in args.events.split(",") if n):
        _print(
            f"Google Calendar, {count:,} events on another calendar (median CPU ms per call)",
            calendar_reads(count, args.runs),
        )
    if args.load:
        loaded = load_world(args.load)
        print(f"Loading a world file of {args.load:,} messages as records ({loaded['file MiB']:.1f} MiB of YAML)")
        _print_load(loaded)
        generated = load_world(args.load, generated=True)
        print(f"Loading a world file whose generate: makes {args.load:,} messages")
        _print_load(generated)
        ratio, mib = generated["CPU seconds"] / loaded["CPU seconds"], generated["resident MiB grown"]
        verdict = "ok" if ratio <= 1.5 and mib <= 150 else "OVER BUDGET"
        print(f"  CPU against records {ratio:.2f}x (budget 1.5x), {mib:.1f} MiB grown (budget 150) {verdict}")


if __name__ == "__main__":
    main()
