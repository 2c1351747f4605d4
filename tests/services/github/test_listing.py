"""Listing issues and pulls reads indexes kept in creation and update order (`listing`): every page must be
what sorting all the repository's items gives, after creates, edits, closes, reopens and an undone call,
and in another world copied from the same image that wrote nothing."""

from __future__ import annotations

import pytest

from soundstage.server import Hub
from soundstage.services.github import issues, listing
from soundstage.services.github.records import Records
from soundstage.services.github.store import ISSUES
from soundstage.world import World

from .conftest import call

_PULLS = "\n".join(
    f"          - {{title: Change {i}, head: {'feature' if i % 2 else 'other'}"
    f"{', state: closed' if i % 3 == 0 else ''}}}"
    for i in range(12)
)
_ITEMS = "\n".join(
    f"          - {{title: Issue {i}, body: about item {i}{', state: closed' if i % 4 == 0 else ''}}}"
    for i in range(40)
)
SCENE = f"""
name: github-listing
task: test
clock: {{start: "2026-03-02T14:00:00Z", tick: 5s}}
agent: {{github_user: $bot_gh}}
seed:
  github:
    users:
      - {{ref: bot_gh, login: stagebot, name: Stage Bot, email: bot@acme.test}}
    repos:
      - full_name: acme/orders
        default_branch: main
        files: {{README.md: "# orders\\n"}}
        commits:
          - {{ref: one, message: One, files: {{a.txt: "a\n"}}}}
        branches: {{feature: $one, other: $one}}
        issues:
{_ITEMS}
        pulls:
{_PULLS}
"""


def _write(world: World) -> None:
    repo = "/repos/acme/orders"
    for i in range(6):
        call(world, "POST", f"{repo}/issues", body={"title": f"New {i}"})
    call(world, "PATCH", f"{repo}/issues/3", body={"title": "Edited, so updated last"})
    call(world, "PATCH", f"{repo}/issues/5", body={"state": "closed"})
    call(world, "PATCH", f"{repo}/issues/4", body={"state": "open"})
    call(world, "PATCH", f"{repo}/pulls/41", body={"state": "closed"})
    call(world, "POST", f"{repo}/issues/7/comments", body={"body": "a comment"})
    at = world.begin_call()
    records = Records.live(world)
    issues.update_item(records, ISSUES, world[ISSUES].get("acme/orders#9"), "stagebot", world.now(), state="closed")
    issues.create_issue(records, "acme/orders", "stagebot", world.now(), title="undone")
    world.rollback()
    world.end_call(at, service="github", method="POST", path="/x", status=500)


@pytest.fixture(scope="module")
def worlds() -> tuple[World, World]:
    hub = Hub()
    image = hub.images.load(scene_yaml=SCENE)
    written, untouched = hub.add(image), hub.add(image)
    _write(written)
    return written, untouched


ASKS = [
    {"state": state, "sort": sort, "direction": way, "per_page": "7", "page": page}
    for state in ("open", "closed", "all")
    for sort in ("created", "updated", "comments")
    for way in ("asc", "desc")
    for page in ("1", "2", "5", "9")
] + [{}, {"page": "2"}, {"per_page": "100"}]


@pytest.mark.parametrize("path", ["/repos/acme/orders/issues", "/repos/acme/orders/pulls"])
def test_listings_are_those_of_sorting_every_item(
    worlds: tuple[World, World], path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asks = [
        {k: v for k, v in ask.items() if not (path.endswith("pulls") and k == "sort" and v == "comments")}
        for ask in ASKS
    ]
    asks += [{"sort": "long-running"}, {"sort": "popularity", "direction": "desc"}] if path.endswith("pulls") else []
    for world in worlds:
        indexed = [call(world, "GET", path, ask) for ask in asks]
        with monkeypatch.context() as scan:
            scan.setattr(listing, "sorted_items", lambda *args: None)
            scanned = [call(world, "GET", path, ask) for ask in asks]
        assert indexed == scanned
        assert any(len(page) == 7 for _, page in indexed)
