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
        ("issues: [{title: t, closed_ago: 1d}]", "issues[0].closed_ago: an open item has no closed_ago"),
        ("issues: [{title: t, state: closed, ago: 1d, closed_ago: 2d}]", "issues[0].closed_ago: closed 2d ago, before"),
        ("pulls: [{title: t, head: f, ago: 3d, updated_ago: 4d}]", "pulls[0].updated_ago: updated 4d ago, before its"),
        (
            "pulls: [{title: t, head: f, merged: true, ago: 3d, closed_ago: 1d, updated_ago: 2d}]",
            "pulls[0].updated_ago",
        ),
        ("runs: [{branch: nope}]", "runs[0].branch: acme/app has no branch 'nope'"),
        ("runs: [{branch: f, flaky: {passes_on_attempt: 2}}]", "runs[0].flaky: a flaky run fails first"),
        ("runs: [{branch: f, conclusion: failure, flaky: {passes_on_attempt: 1}}]", "runs[0].flaky.passes_on_attempt"),
        ("runs: [{branch: f, commit: deadbeef}]", "runs[0].commit: deadbeef is not a commit of acme/app"),
        ("runs: [{branch: f, actor: ghost}]", "runs[0].actor: unknown GitHub user 'ghost'"),
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
        commits: [{{ref: c, message: m, files: {{a: "2"}}}}]
        branches: {{f: $c}}
        {entry}
"""
    with pytest.raises(SpecError) as caught:
        ImageCache().load(scene_yaml=text)
    assert message in str(caught.value)


DATED = """
name: dated
task: t
clock: {start: "2026-03-02T14:00:00Z"}
agent: {github_user: $maya_gh}
seed:
  github:
    users: [{ref: maya_gh, login: maya}]
    repos:
      - full_name: acme/app
        files: {app.py: "x = 1\\n"}
        commits: [{ref: two, message: Two, ago: 50d, files: {app.py: "x = 2\\n"}}]
        branches: {main: $two, stale: $two}
        issues:
          - {title: Old, ago: 60d, updated_ago: 45d}
          - {title: Done, state: closed, ago: 20d, closed_ago: 10d}
        pulls:
          - {title: Stale, head: stale, ago: 40d, updated_ago: 35d, user: $maya_gh}
          - {title: Shipped, head: stale, merged: true, ago: 9d, closed_ago: 8d, updated_ago: 7d}
"""


def test_seeded_times(stage: Any) -> None:
    kit = GitHubWorld(stage.world(DATED)).kit()
    old, done = (kit.rest.issues.get("acme", "app", n).parsed_data for n in (1, 2))
    assert (old.created_at.isoformat(), old.updated_at.isoformat()) == (
        "2026-01-01T14:00:00+00:00",
        "2026-01-16T14:00:00+00:00",
    )
    assert done.closed_at is not None and done.closed_at.isoformat() == "2026-02-20T14:00:00+00:00"
    assert done.updated_at == done.closed_at  # closing is its last change
    stale, shipped = (kit.rest.pulls.get("acme", "app", n).parsed_data for n in (3, 4))
    assert (stale.created_at.isoformat(), stale.updated_at.isoformat()) == (
        "2026-01-21T14:00:00+00:00",
        "2026-01-26T14:00:00+00:00",
    )
    assert shipped.merged_at is not None and shipped.merged_at.isoformat() == "2026-02-22T14:00:00+00:00"
    assert shipped.updated_at.isoformat() == "2026-02-23T14:00:00+00:00"
    # its head is already on main: the head is the merge commit and the pull brought that one commit
    assert kit.rest.pulls.get("acme", "app", 4).json()["merge_commit_sha"] == stale.head.sha
    assert [f.filename for f in kit.rest.pulls.list_files("acme", "app", 4).parsed_data] == ["app.py"]
    listed = kit.rest.pulls.list("acme", "app", state="all", sort="updated", direction="asc").parsed_data
    assert [p.number for p in listed] == [3, 4]
