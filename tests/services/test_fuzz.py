"""Schema-driven fuzzing of every implemented operation.

schemathesis makes requests from the vendors' own descriptions (the cuts in tests/specs), valid ones and
ones that break the description, and sends them with valid credentials to a fresh live world of the acme
scene on the test server; path parameters and arguments that name something are sometimes swapped for
names the world has, so that calls get past "not found" into the handlers. Whatever is sent:
- nothing answers a 5xx;
- every refusal is in the vendor's error envelope (Slack's `ok: false` with HTTP 200);
- every call is logged once, and a refused one changes nothing (no `write` event comes from it).
A second test sends anything at all as credentials, with and without the world's prefix in the URL.

Bounded and reproducible: a fixed number of examples per operation, drawn from a seed fixed per
operation, no example database. SOUNDSTAGE_FUZZ_EXAMPLES=500 asks for a deeper run (minutes, not seconds).
"""

from __future__ import annotations

import base64
import json
import os
import zlib
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from tests.schema import CUTS, SPECS

from soundstage.services.calendar import store as calendar
from soundstage.services.datadog import store as datadog
from soundstage.services.github import store as github
from soundstage.services.gmail import store as gmail
from soundstage.services.pagerduty import store as pagerduty
from soundstage.services.slack import store as slack
from soundstage.world import World

# Per operation: about 2,000 requests over the 170 operations the descriptions have.
EXAMPLES = int(os.environ.get("SOUNDSTAGE_FUZZ_EXAMPLES", "12"))
SCENE = """
name: fuzz
world: acme
task: Nothing; the test makes the calls.
agent: {slack_user: $bot, github_user: $bot_gh, datadog_user: $bot_dd, pagerduty_user: $bot_pd, google_user: $maya}
"""


# Explicit, so that no schemathesis.toml around changes what runs; a failure shows the credentials it sent.
CONFIG = schemathesis.Config.from_dict({"output": {"sanitization": {"enabled": False}}})


@cache
def _schema(cut: str) -> Any:
    return schemathesis.openapi.from_dict(json.loads((SPECS / cut).read_text()), config=CONFIG)


def _operations() -> Iterator[Any]:
    for service, cuts in CUTS.items():
        for cut in cuts:
            for result in _schema(cut).get_all_operations():
                label = result.ok().label
                yield pytest.param(service, cut, label, id=f"{service}:{label}")


# -- names the world has -----------------------------------------------------------------------------


def _values(world: World, collection: str, field: str | Callable[[Any], Any]) -> list[Any]:
    read = field if callable(field) else (lambda record: record.get(field))
    return sorted({str(v) for v in map(read, world[collection]) if v not in (None, "")})


def _names(world: World, service: str) -> dict[str, list[Any]]:
    """The values a parameter of this name may take in `world` (by the vendor's parameter names)."""
    if service == "slack":
        return {
            "channel": _values(world, slack.CHANNELS, "id"),
            "user": _values(world, slack.USERS, "id"),
            "users": _values(world, slack.USERS, "id"),
            "email": _values(world, slack.USERS, lambda u: u.get("profile", {}).get("email")),
            "usergroup": _values(world, slack.USERGROUPS, "id"),
            "ts": _values(world, slack.MESSAGES, "ts")[-5:],
            "timestamp": _values(world, slack.MESSAGES, "ts")[-5:],
            "thread_ts": _values(world, slack.MESSAGES, "thread_ts")[-5:],
            "name": [*_values(world, slack.CHANNELS, "name"), "ramen", "eyes"],
        }
    if service == "github":
        branches = [
            r["ref"].removeprefix(github.HEADS) for r in world[github.REFS] if r["ref"].startswith(github.HEADS)
        ]
        return {
            "owner/repo": _values(world, github.REPOS, "full_name"),  # drawn together: a repository
            "org": _values(world, github.REPOS, "owner"),
            "username": _values(world, github.USERS, "login"),
            "issue_number": _values(world, github.ISSUES, "number"),
            "pull_number": _values(world, github.PULLS, "number"),
            "comment_id": _values(world, github.COMMENTS, "id"),
            "run_id": _values(world, github.WORKFLOW_RUNS, "id"),
            "deployment_id": _values(world, github.DEPLOYMENTS, "id"),
            "name": _values(world, github.LABELS, "name"),
            "branch": sorted(set(branches)),
            "ref": sorted({*branches, *(f"heads/{b}" for b in branches)}),
            "basehead": [f"{a}...{b}" for a in sorted(set(branches)) for b in sorted(set(branches)) if a != b],
            "commit_sha": _values(world, github.COMMITS, "sha"),
            "sha": _values(world, github.COMMITS, "sha"),
            "tree_sha": _values(world, github.TREES, "sha"),
            "file_sha": _values(world, github.BLOBS, "sha"),
            "path": ["README.md", "src/app.py", "src", "docs/missing.md"],
        }
    if service == "datadog":
        return {
            "monitor_id": _values(world, datadog.MONITORS, "id"),
            "downtime_id": _values(world, datadog.DOWNTIMES, "id"),
            "incident_id": _values(world, datadog.INCIDENTS, "id"),
            "dashboard_id": _values(world, datadog.DASHBOARDS, "id"),
            "host_name": _values(world, datadog.HOSTS, "name"),
        }
    if service == "calendar":
        return {
            "calendarId": ["primary", *_values(world, calendar.CALENDARS, "id")],
            "eventId": _values(world, calendar.EVENTS, "eventId"),
            "destination": ["primary", *_values(world, calendar.CALENDARS, "id")],
            "ruleId": _values(world, calendar.ACL, "ruleId"),
            "setting": ["timezone", "locale", "format24HourTime"],
        }
    if service == "gmail":
        messages = _values(world, gmail.MESSAGES, "id")
        labels = _values(world, gmail.LABELS, "label")
        return {
            "userId": ["me", *_values(world, gmail.MAILBOXES, "id")],
            "id": [*messages, *_values(world, gmail.DRAFTS, "id"), *labels],
            "messageId": messages,
        }
    # PagerDuty names every path's id `id`: the collection is the path's first segment (`/incidents/{id}`).
    kinds = {
        "incidents": pagerduty.INCIDENTS,
        "services": pagerduty.SERVICES,
        "escalation_policies": pagerduty.ESCALATION_POLICIES,
        "schedules": pagerduty.SCHEDULES,
        "users": pagerduty.USERS,
        "teams": pagerduty.TEAMS,
        "log_entries": pagerduty.LOG_ENTRIES,
    }
    return {
        **{f"/{segment}/id": _values(world, kind, "id") for segment, kind in kinds.items()},
        "alert_id": _values(world, pagerduty.ALERTS, "id"),
        "From": _values(world, pagerduty.USERS, "email"),
    }


def _mostly(choices: list[Any]) -> st.SearchStrategy[Any]:
    """One of `choices` three times in four, else None (the generated value stays)."""
    return st.tuples(st.integers(0, 3), st.sampled_from(choices)).map(lambda drawn: drawn[1] if drawn[0] else None)


def _swap(data: st.DataObject, case: Any, names: dict[str, list[Any]]) -> None:
    """Swaps some of the case's parameters for names the world has (the generated value stays otherwise)."""
    path = case.path_parameters
    if {"owner", "repo"} <= set(path):
        repository = data.draw(_mostly(names["owner/repo"]), label="owner/repo")
        if repository is not None:
            path["owner"], path["repo"] = repository.split("/")
    if "id" in path:
        kind = "/" + case.path.split("/")[1] + "/id"
        swapped = data.draw(_mostly(names.get(kind) or [""]), label="id")
        if swapped:
            path["id"] = swapped
    body = case.body if isinstance(case.body, dict) else {}
    for part in (path, case.query or {}, case.headers or {}, body):
        for name in sorted(part):
            choices = names.get(name)
            if choices:
                swapped = data.draw(_mostly(choices), label=name)
                if swapped is not None:
                    part[name] = swapped


# -- what the vendors answer -------------------------------------------------------------------------


def _refused(service: str, response: requests.Response) -> bool:
    """Whether the answer is a refusal; asserts that a refusal is in the vendor's envelope."""
    if service == "slack":
        # Slack answers every method with HTTP 200 and `ok` (429 when rate limited), errors as `ok: false`.
        assert response.status_code in (200, 429), response.text
        body = response.json()
        assert isinstance(body.get("ok"), bool), body
        if body["ok"]:
            return False
        assert isinstance(body.get("error"), str) and body["error"], body
        assert body["error"] != "fatal_error", body  # Slack's answer to a failure on its side: our 500
        return True
    if response.status_code < 400:
        return False
    body = response.json()
    if service == "github":
        assert isinstance(body.get("message"), str) and isinstance(body.get("documentation_url"), str), body
    elif service == "datadog":
        assert isinstance(body.get("errors"), list) and body["errors"], body
    else:
        error = body.get("error")
        assert isinstance(error, dict), body
        assert isinstance(error.get("message"), str) and isinstance(error.get("code"), int), body
    return True


def _credentials(service: str, env: dict[str, str]) -> dict[str, str]:
    if service == "slack":
        return {"Authorization": f"Bearer {env['SLACK_BOT_TOKEN']}"}
    if service == "github":
        return {"Authorization": f"token {env['GITHUB_TOKEN']}", "User-Agent": "soundstage-fuzz"}
    if service == "datadog":
        return {"DD-API-KEY": env["DD_API_KEY"], "DD-APPLICATION-KEY": env["DD_APP_KEY"]}
    if service in ("calendar", "gmail"):
        return {"Authorization": f"Bearer {env['GOOGLE_OAUTH_TOKEN']}"}
    return {"Authorization": f"Token token={env['PAGERDUTY_TOKEN']}"}


@pytest.fixture(scope="module")
def session() -> Iterator[requests.Session]:
    with requests.Session() as http:
        yield http


@pytest.mark.parametrize(("service", "cut", "label"), list(_operations()))
def test_no_fault_and_no_change_on_refusal(
    stage: Any, session: requests.Session, service: str, cut: str, label: str
) -> None:
    live = stage.world(SCENE)
    world = live.world
    operation = _schema(cut).find_operation_by_label(label)
    assert operation is not None
    cases = operation.as_strategy(generation_mode=GenerationMode.POSITIVE) | operation.as_strategy(
        generation_mode=GenerationMode.NEGATIVE
    )
    base = live.env["SLACK_API_URL"].rstrip("/") if service == "slack" else live.urls[service]
    credentials = _credentials(service, live.env)
    # Read once: what a draw may choose from must not change as calls change the world (Hypothesis checks)
    names = _names(world, service)
    verify = str(stage.server.hub.tls.ca.bundle)  # PagerDuty's URL is on the TLS port

    @seed(zlib.crc32(label.encode()))
    @settings(
        max_examples=EXAMPLES,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],  # a failure shows the case as found, not shrunk
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def one_call(data: st.DataObject) -> None:
        case = data.draw(cases, label="case")
        _swap(data, case, names)
        before = world.log.last_seq
        response = case.call(base_url=base, session=session, headers=credentials, verify=verify, timeout=30)
        shown = f"{case.as_curl_command(headers=credentials)}\n-> {response.status_code} {response.text[:500]}"
        assert response.status_code < 500, shown
        refused = _refused(service, response)
        calls = world.log.after(before, kind="call")
        assert len(calls) == 1, shown
        writes = [e for e in world.log.after(before, kind="write") if getattr(e, "by", None) == calls[0].seq]
        assert not (refused and writes), f"{shown}\nwrote {writes}"

    try:
        one_call()
    finally:
        stage.http.delete(live.control)


# -- credentials -------------------------------------------------------------------------------------

# One write per service, so that a credential that is let through where it should not be shows as a write.
WRITES = {
    "slack": ("POST", "chat.postMessage", {"channel": "general", "text": "hello"}),
    "github": ("POST", "/repos/acme/orders/issues", {"title": "hello"}),
    "datadog": ("POST", "/api/v1/events", {"title": "hello", "text": "hello"}),
    "pagerduty": ("POST", "/incidents/{incident}/notes", {"note": {"content": "hello"}}),
    "calendar": (
        "POST",
        "/calendar/v3/calendars/primary/events",
        {
            "summary": "hello",
            "start": {"dateTime": "2026-03-03T10:00:00Z"},
            "end": {"dateTime": "2026-03-03T11:00:00Z"},
        },
    ),
    # A read until Gmail has a write: a credential let through shows as a 200.
    "gmail": ("GET", "/gmail/v1/users/me/labels", None),
}


def _header_value(raw: bytes) -> bytes:
    """`raw` as HTTP lets a header value be: tabs, printable ASCII and any byte from 0x80, no blank at either end."""
    return bytes(b for b in raw if b == 9 or 0x20 <= b < 0x7F or b >= 0x80).strip(b" \t") or b"x"


def _credential(valid: str) -> st.SearchStrategy[bytes | None]:
    """A header value: absent, the valid one, or anything a client might send instead."""
    scheme = st.sampled_from([b"", b"Bearer ", b"token ", b"Token token=", b"Basic ", b"basic ", b"Token "])
    latin1 = st.text(st.characters(max_codepoint=0xFF), max_size=30).map(lambda text: text.encode("latin-1"))
    utf8 = st.text(max_size=30).map(lambda text: text.encode("utf-8", "surrogatepass"))
    basic = st.binary(max_size=24).map(base64.b64encode)
    return st.one_of(
        st.none(),
        st.just(valid.encode()),
        st.tuples(scheme, latin1 | utf8 | basic | st.binary(max_size=30)).map(lambda p: _header_value(p[0] + p[1])),
    )


def _headers(service: str, env: dict[str, str]) -> dict[str, st.SearchStrategy[bytes | None]]:
    valid = _credentials(service, env)
    if service == "pagerduty":
        valid["From"] = env["PAGERDUTY_FROM"]
    return {name: _credential(value) for name, value in valid.items() if name != "User-Agent"}


@pytest.mark.parametrize("routed", ["by-world", "by-token"])
@pytest.mark.parametrize("service", sorted(CUTS))
def test_any_credentials_get_the_vendors_answer(stage: Any, service: str, routed: str) -> None:
    """Whatever the credential headers hold (none, the valid ones, other schemes, bytes that are no text,
    Basic credentials that are no base64), the answer is the vendor's, and a refused write writes nothing.
    `Authorization: Basic é` was a plain-text 500, and the call missing from the trace."""
    live = stage.world(SCENE)
    world = live.world
    method, path, fields = WRITES[service]
    if service == "slack":
        fields = {**fields, "channel": next(c["id"] for c in world[slack.CHANNELS] if c["name"] == "general")}
    path = path.replace("{incident}", world[pagerduty.INCIDENTS].ids()[0])
    base = live.env["SLACK_API_URL"].rstrip("/") if service == "slack" else live.urls[service]
    if routed == "by-token":  # without the world's prefix: the credential alone finds the world
        base = base.replace(f"/w/{live.id}", "", 1)
    http = stage.https if base.startswith("https:") else stage.http
    url = f"{base}/{path.lstrip('/')}"
    strategies = _headers(service, live.env)

    @seed(zlib.crc32(f"{service} {routed}".encode()))
    @settings(max_examples=40, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def one_call(data: st.DataObject) -> None:
        drawn = {name: data.draw(strategy, label=name) for name, strategy in sorted(strategies.items())}
        headers = {name: value for name, value in drawn.items() if value is not None}
        headers["User-Agent"] = b"soundstage-fuzz"
        before = world.log.last_seq
        response = http.request(method, url, json=fields, headers=headers)
        shown = f"{method} {url} {headers!r}\n-> {response.status_code} {response.text[:500]}"
        assert response.status_code < 500, shown
        if _refused(service, response):
            calls = {e.seq for e in world.log.after(before, kind="call")}
            writes = [e for e in world.log.after(before, kind="write") if getattr(e, "by", None) in calls]
            assert not writes, f"{shown}\nwrote {writes}"

    try:
        one_call()
    finally:
        stage.http.delete(live.control)
