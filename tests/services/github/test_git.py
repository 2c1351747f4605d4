"""Git data over HTTP (refs, commits, trees, blobs) and the object model's shas, which equal git's own."""

from __future__ import annotations

import base64

import pytest
from github import GithubException

from soundstage.services.github import git
from soundstage.services.github.store import REFS

SAME = {"name": "a", "email": "b", "at": 1772460000 * 1_000_000}


def test_shas_are_gits():
    # Values from `git hash-object`, `git write-tree` and `git commit-tree` on the same input.
    assert git.blob_sha("hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"
    assert git.blob_sha("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
    tree = "352f24006e242c904a086db6ddd5976a65db0f46"
    assert git.commit_sha(tree, [], SAME, SAME, "msg") == "263c649e80814a944cc7cd84c7ffc5ab4810fc82"


def test_tree_order_is_gits():
    # git sorts a directory as if its name ended in "/": "a.b" < "a/" < "a0".
    entries = [
        {"path": "a0", "mode": "100644", "type": "blob", "sha": git.blob_sha("x")},
        {"path": "a", "mode": "040000", "type": "tree", "sha": "4b825dc642cb6eb9a060e54bf8d69288fbee4904"},
        {"path": "a.b", "mode": "100644", "type": "blob", "sha": git.blob_sha("x")},
    ]
    assert [e["path"] for e in sorted(entries, key=git.tree_key)] == ["a.b", "a", "a0"]


def test_seeded_tree_matches_git_write_tree(gh):
    kit = gh.kit()
    tree = kit.rest.git.get_tree("acme", "orders", "main").parsed_data
    assert tree.sha == "352f24006e242c904a086db6ddd5976a65db0f46"  # `git write-tree` of the same files
    assert [(e.path, e.mode, e.type) for e in tree.tree] == [
        ("README.md", "100644", "blob"),
        ("docs", "040000", "tree"),
        ("src", "040000", "tree"),
    ]
    deep = kit.rest.git.get_tree("acme", "orders", tree.sha, recursive="1").parsed_data
    assert [e.path for e in deep.tree] == [
        "README.md",
        "docs",
        "docs/cache.md",
        "src",
        "src/app.py",
        "src/util",
        "src/util/money.py",
    ]
    assert deep.tree[0].size == 9 and deep.truncated is False
    assert gh.raw("GET", "/repos/acme/orders/git/trees/nope").status_code == 404


def test_git_commits_and_blobs(gh):
    kit = gh.kit()
    head = kit.rest.git.get_ref("acme", "orders", "heads/feature").parsed_data.object_.sha
    commit = kit.rest.git.get_commit("acme", "orders", head).parsed_data
    assert commit.message == "Cache order totals"
    assert (commit.author.name, commit.author.email) == ("Maya Chen", "maya@acme.test")
    assert commit.author.date.isoformat() == "2026-03-02T12:00:00+00:00"
    assert commit.verification.verified is False
    blob_sha = git.blob_sha("# orders\n")
    blob = kit.rest.git.get_blob("acme", "orders", blob_sha).parsed_data
    assert (blob.size, blob.encoding, base64.b64decode(blob.content)) == (9, "base64", b"# orders\n")
    assert gh.py().get_repo("acme/orders").get_git_blob(blob_sha).size == 9
    assert gh.raw("GET", "/repos/acme/orders/git/commits/" + "0" * 40).status_code == 404
    assert gh.raw("GET", "/repos/acme/orders/git/blobs/" + "0" * 40).status_code == 404


def test_refs_lifecycle(gh):
    kit = gh.kit()
    main = kit.rest.git.get_ref("acme", "orders", "heads/main").parsed_data
    assert main.ref == "refs/heads/main"
    assert main.url == f"{gh.url}/repos/acme/orders/git/refs/heads/main"
    created = kit.rest.git.create_ref("acme", "orders", ref="refs/heads/topic/x", sha=main.object_.sha)
    assert created.status_code == 201 and created.parsed_data.ref == "refs/heads/topic/x"
    assert [r.ref for r in gh.py().get_repo("acme/orders").get_git_refs()] == [
        "refs/heads/feature",
        "refs/heads/main",
        "refs/heads/topic/x",
    ]
    matching = kit.rest.git.list_matching_refs("acme", "orders", "heads/topic").parsed_data
    assert [r.ref for r in matching] == ["refs/heads/topic/x"]
    feature = kit.rest.git.get_ref("acme", "orders", "heads/feature").parsed_data.object_.sha
    r = gh.raw("PATCH", "/repos/acme/orders/git/refs/heads/topic/x", json={"sha": feature})
    assert (r.status_code, r.json()["message"]) == (422, "Update is not a fast forward")
    forced = kit.rest.git.update_ref("acme", "orders", "heads/topic/x", sha=feature, force=True).parsed_data
    assert forced.object_.sha == feature
    forward = kit.rest.git.update_ref("acme", "orders", "heads/topic/x", sha=main.object_.sha).parsed_data
    assert forward.object_.sha == main.object_.sha
    assert gh.raw("DELETE", "/repos/acme/orders/git/refs/heads/topic/x").status_code == 204
    r = gh.raw("GET", "/repos/acme/orders/git/ref/heads/topic/x")
    assert (r.status_code, r.json()["message"]) == (404, "Not Found")
    r = gh.raw("DELETE", "/repos/acme/orders/git/refs/heads/topic/x")
    assert (r.status_code, r.json()["message"]) == (422, "Reference does not exist")


def test_create_branch_through_pygithub(gh):
    repo = gh.py().get_repo("acme/orders")
    ref = repo.create_git_ref("refs/heads/hotfix", repo.get_branch("main").commit.sha)
    assert ref.ref == "refs/heads/hotfix"
    assert [b.name for b in repo.get_branches()] == ["feature", "hotfix", "main"]
    with pytest.raises(GithubException) as failed:
        repo.create_git_ref("refs/heads/hotfix", repo.get_branch("main").commit.sha)
    assert (failed.value.status, failed.value.data["message"]) == (422, "Reference already exists")


def test_create_ref_errors(gh):
    kit = gh.kit()
    sha = kit.rest.git.get_ref("acme", "orders", "heads/main").parsed_data.object_.sha
    cases = [
        ({"ref": "main", "sha": sha}, "main is not a valid ref name."),
        ({"ref": "refs/heads/x", "sha": "0" * 40}, "Object does not exist"),
        ({"ref": "refs/heads/x"}, 'Invalid request.\n\n"sha" wasn\'t supplied.'),
        ({"sha": sha}, 'Invalid request.\n\n"ref" wasn\'t supplied.'),
    ]
    for body, message in cases:
        r = gh.raw("POST", "/repos/acme/orders/git/refs", json=body)
        assert (r.status_code, r.json()["message"]) == (422, message), body
    assert "acme/orders:refs/heads/x" not in gh.state(REFS)
