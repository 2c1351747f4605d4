"""Building the `github:` section: users, organizations, repos with real git history, branches,
production, labels; and the errors that name the field."""

from __future__ import annotations

import textwrap

import pytest

from soundstage.errors import SpecError
from soundstage.services.github import git
from soundstage.services.github.store import BLOBS, COMMITS, LABELS, REFS, REPOS, TREES, USERS
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene, read_scene_text

HEAD = """
name: seed-test
task: test
clock: {start: "2026-03-02T14:00:00Z"}
agent: {github_user: $me}
seed:
  github:
"""
START_US = 1772460000 * 1_000_000
HOUR_US = 3600 * 1_000_000


def build(github: str):
    text = HEAD + textwrap.indent(textwrap.dedent(github).strip("\n"), "    ") + "\n"
    return build_image(*read_scene_text(text))


def failure(github: str) -> SpecError:
    """The one problem of the section (the scene's others, such as the agent's `$me` the section may not define,
    are left aside)."""
    with pytest.raises(SpecError) as caught:
        build(github)
    problems = [e for e in getattr(caught.value, "errors", [caught.value]) if e.field.startswith("seed.")]
    assert len(problems) == 1, problems
    return problems[0]


REPO = """
users: [{ref: me, login: me, name: Me, email: me@acme.test}]
repos:
  - ref: orders
    full_name: acme/orders
    files: {a.txt: "a\\n"}
    commits:
      - {ref: second, message: Second, author: $me, files: {a.txt: "aa\\n", b/c.txt: "c\\n"}}
      - {ref: third, message: Third, files: {b/c.txt: null}, ago: 10m}
    branches: {old: $second}
    production: $second
    labels: [{ref: bug, name: bug, color: d73a4a}]
"""


def test_records_and_refs():
    image = build(REPO)
    users = image.collections[USERS]
    assert users.get("me")["type"] == "User"
    assert users.get("acme")["type"] == "Organization"  # the owner, not a listed user
    assert image.refs["me"] == "me" and image.refs["orders"] == "acme/orders" and image.refs["bug"] == "bug"
    repo = image.collections[REPOS].get("acme/orders")
    assert (repo["default_branch"], repo["production"], repo["deploy_on_merge"]) == (
        "main",
        image.refs["second"],
        False,
    )
    refs = image.collections[REFS]
    assert refs.get("acme/orders:refs/heads/main")["sha"] == image.refs["third"]
    assert refs.get("acme/orders:refs/heads/old") == {
        "repository": "acme/orders",
        "ref": "refs/heads/old",
        "sha": image.refs["second"],
    }
    commits = image.collections[COMMITS]
    second, third = commits.get(image.refs["second"]), commits.get(image.refs["third"])
    assert third["parents"] == [second["sha"]]
    assert second["author"] == {"name": "Me", "email": "me@acme.test", "at": START_US - HOUR_US}  # one hour apart
    assert third["author"]["at"] == START_US - 10 * 60 * 1_000_000  # `ago`
    assert third["author"]["name"] == "acme"  # the owner by default
    assert image.collections[LABELS].get("acme/orders:bug")["color"] == "d73a4a"
    assert image.agent["github_user"] == "me"


def test_history_is_real_git():
    image = build(REPO)
    store_files = image.collections[TREES]
    second = image.collections[COMMITS].get(image.refs["second"])
    root = store_files.get(second["tree"])["tree"]
    assert [(e["path"], e["type"]) for e in root] == [("a.txt", "blob"), ("b", "tree")]
    assert root[0]["sha"] == git.blob_sha("aa\n")
    assert image.collections[BLOBS].get(git.blob_sha("c\n"))["content"] == "c\n"


def test_the_same_file_builds_the_same_shas():
    assert build(REPO).refs == build(REPO).refs


@pytest.mark.parametrize(
    ("github", "message", "field"),
    [
        ("repos: [{full_name: orders}]", "expected owner/name like acme/orders", "seed.github.repos[0].full_name"),
        (
            "users: [{login: a}, {login: a}]",
            "login a is already used by another GitHub account",
            "seed.github.users[1].login",
        ),
        (
            "repos: [{full_name: a/b}, {full_name: a/b}]",
            "repo a/b is defined twice",
            "seed.github.repos[1].full_name",
        ),
        (
            "repos: [{full_name: a/b, files: {x: y}, branches: {f: $nope}}]",
            "unknown ref $nope",
            "seed.github.repos[0].branches.f",
        ),
        (
            "repos: [{ref: r, full_name: a/b, files: {x: y}, production: $r}]",
            "$r names a record of github.repos, expected one of github.commits",
            "seed.github.repos[0].production",
        ),
        (
            "repos: [{full_name: a/b, commits: [{message: m, files: {x: null}}]}]",
            "the first commit of a repo cannot delete files",
            "seed.github.repos[0].commits[0].files",
        ),
        (
            "repos: [{full_name: a/b, files: {x: y}, commits: [{message: m, files: {x/z: y}}]}]",
            "x is a file, so it cannot also be a directory",
            "seed.github.repos[0].commits[0].files",
        ),
        (
            "repos: [{full_name: a/b, commits: [{message: m, author: ghost, files: {x: y}}]}]",
            "unknown GitHub user 'ghost'",
            "seed.github.repos[0].commits[0].author",
        ),
        (
            "repos: [{full_name: a/b, files: {x: y}, labels: [{name: Bug}, {name: bug}]}]",
            "label 'bug' is defined twice in a/b",
            "seed.github.repos[0].labels[1]",
        ),
    ],
)
def test_errors_name_the_field(github, message, field):
    problem = failure(github)
    assert message in problem.message
    assert problem.field == field


def test_a_commit_of_another_repo_is_refused():
    problem = failure(
        """
        repos:
          - {full_name: a/one, commits: [{ref: c1, message: m, files: {x: "1"}}]}
          - {full_name: a/two, files: {x: "2"}, branches: {f: $c1}}
        """
    )
    assert problem.message == "$c1 is not a commit of a/two"
    assert problem.field == "seed.github.repos[1].branches.f"


def test_scene_seed_adds_repos_to_the_world(tmp_path):
    (tmp_path / "world.yaml").write_text(
        "name: w\ngithub:\n  users: [{ref: maya, login: maya}]\n  repos: [{full_name: acme/a, files: {x: '1'}}]\n"
    )
    scene = tmp_path / "scene.yaml"
    scene.write_text(
        "name: s\ntask: t\nworld: world.yaml\nagent: {github_user: $maya}\n"
        "seed:\n  github:\n    repos: [{full_name: acme/b, commits: [{message: m, author: $maya, files: {y: '2'}}]}]\n"
    )
    image = build_image(*read_scene(scene))
    assert image.collections[REPOS].ids() == ["acme/a", "acme/b"]
    scene.write_text("name: s\ntask: t\nworld: world.yaml\nseed:\n  github:\n    repos: [{full_name: acme/a}]\n")
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene(scene))
    assert caught.value.message == "repo acme/a is defined twice"


DIVERGED = """
users: [{ref: me, login: me, name: Me, email: me@acme.test}]
repos:
  - full_name: acme/orders
    files: {a.txt: "a\\n"}
    commits:
      - {ref: base, message: Base, files: {a.txt: "b\\n"}}
      - {ref: on_main, message: Main moves on, files: {a.txt: "main\\n"}}
      - {ref: on_feature, message: Feature, parent: $base, files: {a.txt: "feature\\n", f.txt: "f\\n"}}
      - {ref: feature_two, message: Feature again, files: {f.txt: "ff\\n"}}
    branches: {main: $on_main, feature: $feature_two}
"""


def test_a_commit_with_a_parent_leaves_the_line_of_history():
    image = build(DIVERGED)
    commits = image.collections[COMMITS]
    refs = image.refs
    assert commits.get(refs["on_feature"])["parents"] == [refs["base"]]
    assert commits.get(refs["feature_two"])["parents"] == [refs["on_feature"]]  # the next one follows it
    assert commits.get(refs["on_main"])["parents"] == [refs["base"]]
    heads = {r["ref"]: r["sha"] for r in image.collections[REFS]}
    assert (heads["refs/heads/main"], heads["refs/heads/feature"]) == (refs["on_main"], refs["feature_two"])


@pytest.mark.parametrize(
    ("parent", "message"),
    [
        ("$later", "unknown ref $later"),  # a commit after this one is not written yet
        ("$elsewhere", "is not a commit of acme/orders written before this one"),
        ("$nope", "unknown ref $nope"),
    ],
)
def test_a_parent_must_be_an_earlier_commit_of_the_repo(parent, message):
    problem = failure(
        f"""
        repos:
          - {{full_name: acme/other, files: {{x: "1"}}, commits: [{{ref: elsewhere, message: m, files: {{x: "2"}}}}]}}
          - full_name: acme/orders
            files: {{a.txt: "a\\\\n"}}
            commits:
              - {{message: m, parent: {parent}, files: {{a.txt: "b\\\\n"}}}}
              - {{ref: later, message: n, files: {{a.txt: "c\\\\n"}}}}
        """
    )
    assert message in problem.message
    assert problem.field == "seed.github.repos[1].commits[0].parent"
