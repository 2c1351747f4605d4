"""`soundstage serve`: refuses to expose the control API without a token; serves until stopped."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest
from tests.ports import free_port

from soundstage.store import open_store


def test_a_public_address_needs_the_admin_token(bench, cli, monkeypatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_ADMIN_TOKEN", raising=False)

    result = cli("serve", "--host", "0.0.0.0", "--port", str(free_port()))

    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        "error: 0.0.0.0 is reachable from other machines: set SOUNDSTAGE_ADMIN_TOKEN to protect the control API"
    )


def test_a_taken_port_exits_3(bench, cli) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("serve", "--port", str(port))

    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}:")


@contextlib.contextmanager
def serving(bench, env: dict[str, str]) -> Iterator[dict]:
    """`soundstage serve --json` on a free port with the hello scene known by name; answers what it printed."""
    (bench.root / "seeds").mkdir()
    shutil.copy(bench.scene, bench.root / "seeds" / "hello.yaml")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "soundstage", "serve", "--port", str(port), "--tls-port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**env, "SOUNDSTAGE_JSON": "1"},
    )
    try:
        yield json.loads(server.stdout.readline())  # the one JSON document, on one line
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_prints_its_urls_and_answers(bench) -> None:
    env = dict(os.environ)
    env.pop("SOUNDSTAGE_ADMIN_TOKEN", None)
    with serving(bench, env) as info:
        base = info["url"]
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", base)
        assert info["control"] == f"{base}/v1/worlds"
        assert info["services"]["slack"] == f"{base}/slack"
        # No SOUNDSTAGE_ADMIN_TOKEN: the server made one, and says it (nothing else knows it).
        token = info["admin_token"]
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)
        assert f"authorization: Bearer {token}" in info["create_world"]
        assert info["ui"] == f"{base}/ui/#token={token}"
        assert httpx.post(f"{base}/v1/worlds", json={"scene": "hello"}, timeout=10).status_code == 401
        admin = {"authorization": f"Bearer {token}"}
        created = httpx.post(f"{base}/v1/worlds", json={"scene": "hello"}, headers=admin, timeout=10)
        assert created.status_code == 201
        world = created.json()["id"]
        assert created.json()["env"]["SLACK_API_URL"] == f"{base}/w/{world}/slack/api/"


@pytest.mark.parametrize(
    ("asked", "shown"),
    [({}, {"http": "httptools", "loop": "uvloop"}), ({"SOUNDSTAGE_HTTP": "h11", "SOUNDSTAGE_LOOP": "asyncio"}, None)],
)
def test_serve_says_which_parser_and_loop_serve_and_both_answer(bench, asked, shown) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("SOUNDSTAGE_HTTP", "SOUNDSTAGE_LOOP")}
    with serving(bench, {**env, **asked}) as info:
        assert info["stack"] == (shown or {"http": "h11", "loop": "asyncio"})
        admin = {"authorization": f"Bearer {info['admin_token']}"}
        created = httpx.post(f"{info['url']}/v1/worlds", json={"scene": "hello"}, headers=admin, timeout=10)
        assert created.status_code == 201


def test_serve_writes_runs_over_http_to_the_store_given(bench, tmp_path) -> None:
    db = tmp_path / "results.db"
    env = {**os.environ, "SOUNDSTAGE_ADMIN_TOKEN": "admin-secret", "SOUNDSTAGE_DB": f"sqlite:///{db}"}
    with serving(bench, env) as info:
        base = info["url"]
        admin = {"authorization": "Bearer admin-secret"}
        run = httpx.post(f"{base}/v1/runs", json={"scene": "hello"}, headers=admin, timeout=10).json()
        world = run["worlds"][0]["env"]
        agent = {"authorization": f"Bearer {world['SOUNDSTAGE_TOKEN']}"}
        assert httpx.post(f"{world['SOUNDSTAGE_URL']}/finish", json={}, headers=agent, timeout=10).status_code == 200
    store = open_store(f"sqlite:///{db}", create=False)
    assert store is not None
    stored = store.run(run["id"])
    store.close()
    assert stored is not None
    assert (stored.agent, stored.trials, [t.trial for t in stored.results]) == ("http", 1, [1])
    assert (stored.exit_code, stored.results[0].outcome) == (1, "failed")  # it said nothing


def test_serve_shows_the_runs_soundstage_run_wrote_to_its_store(bench, cli, tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'results.db'}"
    assert cli("run", "hello.yaml", "--agent", bench.hello(), "--db", db).exit_code == 0
    env = {**os.environ, "SOUNDSTAGE_ADMIN_TOKEN": "admin-secret", "SOUNDSTAGE_DB": db}
    with serving(bench, env) as info:
        admin = {"authorization": "Bearer admin-secret"}
        [listed] = httpx.get(f"{info['url']}/v1/runs", headers=admin, timeout=10).json()
        trial = httpx.get(f"{info['url']}/v1/runs/{listed['id']}/trials/1", headers=admin, timeout=10).json()
    assert (listed["source"], listed["status"], listed["scenes"], listed["exit_code"]) == ("cli", "done", ["hello"], 0)
    assert (trial["outcome"], [call["path"] for call in trial["trace"]]) == (
        "passed",
        ["/api/conversations.list", "/api/chat.postMessage"],
    )


def test_the_access_log_is_kept_only_when_asked_for(bench) -> None:
    env = {**os.environ, "SOUNDSTAGE_ADMIN_TOKEN": "admin-secret", "SOUNDSTAGE_JSON": "1"}
    logs = {}
    for flags in ([], ["--access-log"]):
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "soundstage", "serve", "--port", str(port), "--tls-port", "0", *flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        json.loads(server.stdout.readline())  # listening
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).status_code == 200
        server.terminate()
        logs[bool(flags)] = server.communicate(timeout=10)[1]
    assert '"GET /healthz HTTP/1.1" 200' in logs[True]
    assert "GET /healthz" not in logs[False]
