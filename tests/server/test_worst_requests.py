"""Bounded work: while one client sends the worst request of each kind, `/healthz` and another world's calls
keep answering. Everything runs on one event loop, so a request that did unbounded work would freeze every
world; each of these once did (docs/security.md). Loopback only; every request is bounded by its timeout.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from tests.server.test_isolation import EVERY_SERVICE, SCENE

# A billion laughs in 642 bytes of YAML: ten levels of ten aliases each.
ALIAS_BOMB = "name: bomb\ntask: t\nlol0: &a0 [lol]\n" + "".join(
    f"lol{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 10)}]\n" for n in range(1, 10)
)


def worst_requests(stage: Any, live: Any) -> dict[str, Callable[[], httpx.Response]]:
    env = live.env
    keys = {"DD-API-KEY": env["DD_API_KEY"], "DD-APPLICATION-KEY": env["DD_APP_KEY"]}
    slack = {"Authorization": f"Bearer {env['SLACK_BOT_TOKEN']}", "Content-Type": "application/json"}
    now = int(live.world.now() // 1_000_000)
    client = httpx.Client(base_url=stage.url, timeout=60)
    admin = {"Authorization": f"Bearer {stage.server.admin_token}"}
    return {
        # every minute since 1970, and a year
        "datadog query from 0": lambda: client.get(
            env["DATADOG_API_URL"] + "/api/v1/query",
            params={"from": 0, "to": now, "query": "avg:orders.latency.p99{*}"},
            headers=keys,
        ),
        "datadog query of a year": lambda: client.get(
            env["DATADOG_API_URL"] + "/api/v1/query",
            params={"from": now - 365 * 86400, "to": now, "query": "avg:orders.latency.p99{*} by {host}"},
            headers=keys,
        ),
        "alias bomb": lambda: client.post("/v1/worlds", json={"scene_yaml": ALIAS_BOMB}, headers=admin),
        "12 MB body": lambda: client.post(
            env["SLACK_API_URL"] + "chat.postMessage", content=b'{"text": "' + b"x" * 12_000_000 + b'"}', headers=slack
        ),
        "100k-deep body": lambda: client.post(
            env["SLACK_API_URL"] + "chat.postMessage", content=b"[" * 100_000 + b"]" * 100_000, headers=slack
        ),
        "100k-deep control body": lambda: client.post(
            "/v1/worlds", content=b"[" * 100_000 + b"]" * 100_000, headers=admin
        ),
        "a week of clock": lambda: client.post(live.control + "/clock", json={"advance": "7d"}, headers=admin),
        # httpx's own handling of a request's headers grows with their square: 2,000 rather than 5,000
        "2,000 header fields": lambda: client.post(
            env["SLACK_API_URL"] + "auth.test", headers=[*slack.items(), *((f"x-{n}", "v") for n in range(2000))]
        ),
    }


def test_the_worst_requests_leave_the_server_answering(stage):
    live = stage.world(EVERY_SERVICE)
    neighbour = stage.world(SCENE)
    before = live.world.log.last_seq
    probes = worst_requests(stage, live)
    with ThreadPoolExecutor(max_workers=len(probes)) as pool:
        futures = {name: pool.submit(probe) for name, probe in probes.items()}
        # meanwhile, on their own connections, with a bound far below a frozen server's minute
        with httpx.Client(base_url=stage.url, timeout=30) as other:
            for _ in range(5):
                assert other.get("/healthz").json()["ok"] is True
                said = other.post(
                    f"/w/{neighbour.id}/slack/api/auth.test", headers={"Authorization": f"Bearer {neighbour.token}"}
                )
                assert said.json()["ok"] is True
        answers = {name: future.result() for name, future in futures.items()}

    statuses = {name: response.status_code for name, response in answers.items()}
    assert statuses == {
        "datadog query from 0": 200,
        "datadog query of a year": 200,
        "alias bomb": 422,
        "12 MB body": 413,
        "100k-deep body": 200,
        "100k-deep control body": 400,
        "a week of clock": 200,
        "2,000 header fields": 431,
    }
    assert answers["12 MB body"].json() == {"ok": False, "error": "request_too_large"}
    assert answers["100k-deep body"].json()["error"] == "invalid_json"
    assert answers["100k-deep control body"].json()["error"]["code"] == "invalid_json"
    assert answers["alias bomb"].json()["error"]["code"] == "invalid_scene"
    for name in ("datadog query from 0", "datadog query of a year"):  # a bounded number of points per series
        series = answers[name].json()["series"]
        assert series and all(len(s["pointlist"]) <= 1500 for s in series)
    # each call that reached the world was logged once: the two queries, the two bodies
    calls = [e for e in live.world.log.events[before:] if e.kind == "call"]
    assert sorted(c.path for c in calls) == sorted(
        ["/api/v1/query", "/api/v1/query", "/api/chat.postMessage", "/api/chat.postMessage"]
    )
