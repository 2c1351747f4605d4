"""What GitHub keeps rendered (pages of the pulls list and pull-request-simples by the versions of what they
show, shared users and repositories, file contents, the bytes and ETag of such answers) must answer exactly
what rendering from scratch answers: after a push moves a branch, issues are opened and closed, reviewers are
requested, labels, users, milestones and the repository change, pulls are commented on and close, a call is
undone, and in a world copied from the same image that wrote nothing meanwhile (under its own URL)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from soundstage.server import Hub
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.services.github import handlers_pulls, milestones, views, views_git, views_pulls, wire
from soundstage.services.github.store import LABELS, MILESTONES, PULLS, REFS, REPOS, USERS, label_key
from soundstage.world import World

SCENE = """
name: github-render-cache
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {github_user: $bot_gh}
seed:
  github:
    users:
      - {ref: bot_gh, login: stagebot, name: Stage Bot, email: bot@acme.test}
      - {ref: maya_gh, login: maya, name: Maya Chen, email: maya@acme.test}
    repos:
      - full_name: acme/orders
        default_branch: main
        files: {README.md: "# orders\\n"}
        commits:
          - {ref: one, message: One, files: {a.txt: "a\\n"}}
          - {ref: two, message: Two, files: {b.txt: "b\\n"}}
        branches: {feature: $one, other: $one}
        labels:
          - {name: bug, color: d73a4a}
        milestones:
          - {title: v1}
        issues:
          - {title: Totals are wrong}
          - {title: Search ignores case, labels: [bug]}
        pulls:
          - {title: Fix totals, head: feature}
          - {title: Other change, head: other, user: $maya_gh}
          - {title: Old change, head: other, state: closed}
      - full_name: acme/web
        default_branch: main
        files: {README.md: "# web\\n"}
        commits:
          - {ref: page, message: Page, files: {index.html: "<p>\\n"}}
        branches: {page: $page}
        pulls:
          - {title: Add a page, head: page}
"""
LISTS = [
    {},
    {"state": "all"},
    {"direction": "asc", "per_page": "1"},
    {"state": "all", "page": "2", "per_page": "2"},
    {"sort": "popularity", "direction": "desc"},
]
REPO = "/repos/acme/orders"
ROOTS = ("http://127.0.0.1:8750/w/{world}/github", "https://127.0.0.1:8443/w/{world}/github")  # plain and TLS ports


def _call(
    world: World, method: str, path: str, query: dict[str, str] | None = None, body: Any = None, root: str = ROOTS[0]
) -> Any:
    """The answer's bytes and ETag, asked under API root `root` (`{world}`: the world's id)."""
    principal = next(p for p in world.tokens.values() if p.service == "github" and p.token_type == "user")
    headers = {"user-agent": "test", "content-type": "application/json"}
    content = json.dumps(body).encode() if body is not None else b""
    request = ServiceRequest(method, path, query or {}, headers, content, root.format(world=world.id))
    reply, encoded, _, _ = record(world, SERVICES["github"], principal, request)
    assert reply.status < 300, encoded
    return encoded, reply.headers.get("ETag")


def _asks() -> list[tuple[str, dict[str, str], str]]:
    """The reads compared: pulls lists of both repos (under both roots), two pulls, and files at two refs."""
    lists = [(f"{repo}/pulls", ask, root) for root in ROOTS for repo in (REPO, "/repos/acme/web") for ask in LISTS]
    files = [(f"{REPO}/contents/{path}", ask) for path in ("README.md", "a.txt") for ask in ({}, {"ref": "feature"})]
    return lists + [(f"{REPO}/pulls/{n}", {}, ROOTS[0]) for n in (3, 4)] + [(*file, ROOTS[0]) for file in files]


def _reads(world: World) -> list[Any]:
    return [_call(world, "GET", path, ask, root=root) for path, ask, root in _asks()]


def _same_as_fresh(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The answers read with every cache as it is are those read each with every cache empty (so that no read
    answers what another one kept)."""
    cached = _reads(world)
    fresh = []
    for path, ask, root in _asks():
        with monkeypatch.context() as empty:
            for module, name in (
                (views, "_USERS"),
                (views, "_REPOS"),
                (views_git, "_FILES"),
                (wire, "_SHARED"),
                (wire, "_ENCODED"),
            ):
                empty.setattr(module, name, {})
            for kept in (views_pulls._SIMPLE, handlers_pulls._PAGES.kept):
                empty.setattr(kept, "found", {})
            fresh.append(_call(world, "GET", path, ask, root=root))
    assert cached == fresh


@pytest.fixture
def worlds() -> tuple[World, World]:
    hub = Hub()
    image = hub.images.load(scene_yaml=SCENE)
    return hub.add(image), hub.add(image)


def test_cached_renders_are_fresh_renders_after_every_change(
    worlds: tuple[World, World], monkeypatch: pytest.MonkeyPatch
) -> None:
    written, untouched = worlds
    sha = written.refs["two"]
    first, again = _call(written, "GET", f"{REPO}/pulls"), _call(written, "GET", f"{REPO}/pulls")
    assert first[0] is again[0]  # the same unchanged page: kept, and encoded once
    readme = [_call(written, "GET", f"{REPO}/contents/README.md") for _ in range(2)]
    assert readme[0][0] is readme[1][0]
    changes = [
        lambda: _call(written, "PATCH", f"{REPO}/git/refs/heads/feature", body={"sha": sha}),  # a push
        lambda: _call(written, "POST", f"{REPO}/issues", body={"title": "Checkout is slow"}),
        lambda: _call(written, "PATCH", f"{REPO}/issues/1", body={"state": "closed"}),
        lambda: _call(written, "POST", f"{REPO}/pulls/3/requested_reviewers", body={"reviewers": ["maya"]}),
        lambda: _call(written, "POST", f"{REPO}/issues/4/labels", body={"labels": ["bug"]}),
        lambda: written[LABELS].change(label_key("acme/orders", "bug"), color="0e8a16"),
        lambda: written[USERS].change("maya", name="Maya C.", type="Organization"),
        lambda: _call(written, "PATCH", f"{REPO}/issues/3", body={"milestone": 1}),  # a pull's, as GitHub sets it
        lambda: _call(written, "POST", f"{REPO}/issues", body={"title": "Ship v1", "milestone": 1}),  # its counts
        lambda: written[MILESTONES].change(milestones.key("acme/orders", 1), title="v1.0"),
        lambda: written[REPOS].change("acme/orders", description="Orders and their totals"),
        lambda: _call(written, "POST", f"{REPO}/issues/3/comments", body={"body": "Looks good"}),  # popularity
        lambda: _call(written, "PATCH", f"{REPO}/pulls/4", body={"state": "closed"}),
        lambda: _call(written, "PATCH", f"{REPO}/git/refs/heads/other", body={"sha": sha}),  # 4 is closed now
        lambda: _call(
            written, "PUT", f"{REPO}/contents/a.txt", body={"message": "B", "content": "Yg==", "sha": _blob(written)}
        ),
        lambda: _undone(written),
    ]
    before = _reads(untouched)
    for change in changes:
        _same_as_fresh(written, monkeypatch)
        change()
    _same_as_fresh(written, monkeypatch)
    assert _reads(untouched) == before  # its answers owe nothing to the other world's writes
    _same_as_fresh(untouched, monkeypatch)


def _blob(world: World) -> str:
    return json.loads(_call(world, "GET", f"{REPO}/contents/a.txt")[0])["sha"]


def _undone(world: World) -> None:
    """A call that moves a branch and retitles a pull, then fails: both undone."""
    at = world.begin_call()
    world[REFS].change("acme/orders:refs/heads/feature", sha=world.refs["one"])
    world[PULLS].change("acme/orders#3", title="Undone")
    world.rollback()
    world.end_call(at, service="github", method="PATCH", path="/x", status=500)
