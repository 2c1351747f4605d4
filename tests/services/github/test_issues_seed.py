"""Building `issues[]` and `pulls[]` from world files: numbers, refs, labels, states, and errors."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.errors import SpecError
from soundstage.services.github.store import ISSUES, LABELS, PULLS
from soundstage.stage.image import ImageCache

from .conftest import GitHubWorld

SCENE = """
name: seed-work
task: test
clock: {start: "2026-03-02T14:00:00Z"}
agent: {github_user: $bot_gh}
seed:
  github:
    users:
      - {ref: bot_gh, login: stagebot}
      - {ref: maya_gh, login: maya}
    repos:
      - full_name: acme/app
        files: {app.py: "x = 1\\n"}
        commits:
          - {ref: two, message: Two, files: {app.py: "x = 2\\n"}}
        branches: {main: $two, old: $two}
        labels: [{ref: bug_label, name: Bug, color: d73a4a}]
        issues:
          - {ref: first, title: First, labels: [$bug_label, triage], assignees: [$maya_gh], user: $maya_gh}
          - {ref: done, title: Done, state: closed}
        pulls:
          - {ref: shipped, title: Shipped, head: old, merged: true, user: $maya_gh}
          - {ref: dropped, title: Dropped, head: old, state: closed}
"""


def test_seeded_records(stage: Any) -> None:
    world = GitHubWorld(stage.world(SCENE))
    live = world.live.world
    assert [live.refs[r] for r in ("first", "done", "shipped", "dropped")] == [
        "acme/app#1",
        "acme/app#2",
        "acme/app#3",
        "acme/app#4",
    ]
    first = live[ISSUES].get("acme/app#1")
    assert (first["labels"], first["assignees"], first["user"]) == (["Bug", "triage"], ["maya"], "maya")
    assert live[LABELS].get("acme/app:triage")["color"] == "ededed"
    done = live[ISSUES].get("acme/app#2")
    assert (done["state"], done["user"], done["state_reason"]) == ("closed", "acme", "completed")
    shipped = live[PULLS].get("acme/app#3")
    assert (shipped["state"], shipped["merged"], shipped["base"]) == ("closed", True, "main")
    assert live[PULLS].get("acme/app#4")["merged"] is False
    kit = world.kit()
    assert kit.rest.pulls.get("acme", "app", 3).parsed_data.merged_by.login == "maya"
    assert kit.rest.issues.create("acme", "app", data={"title": "Next"}).parsed_data.number == 5


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("issues: [{title: t, assignees: [ghost]}]", "issues[0].assignees[0]: unknown GitHub user 'ghost'"),
        ("issues: [{title: t, user: $nobody}]", "issues[0].user: unknown ref $nobody"),
        ("pulls: [{title: t, head: nope}]", "pulls[0].head: acme/app has no branch 'nope'"),
        ("pulls: [{title: t, head: main}]", "pulls[0].head: head and base are both 'main'"),
        ("releases: [{tag_name: v1, target: nope}]", "releases[0].target: acme/app has no branch or commit 'nope'"),
        ("releases: [{tag_name: v1}, {tag_name: v1}]", "releases[1].tag_name: acme/app has two releases tagged 'v1'"),
        ("releases: [{tag_name: v1, ago: soon}]", "releases[0].ago: expected a duration like 30s, 5m or 2h"),
    ],
)
def test_seed_errors(entry: str, message: str) -> None:
    text = f"""
name: bad
task: t
seed:
  github:
    users: [{{ref: u, login: u}}]
    repos:
      - full_name: acme/app
        files: {{a: "1"}}
        {entry}
"""
    with pytest.raises(SpecError) as caught:
        ImageCache().load(scene_yaml=text)
    assert message in str(caught.value)
