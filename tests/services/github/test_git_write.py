"""Writing git objects (blobs, trees, commits) and moving a branch onto the result: the multi-file
commit agents make without a clone."""

from __future__ import annotations

import base64

from github import InputGitTreeElement

from soundstage.services.github import git
from soundstage.services.github.store import BLOBS, COMMITS, TREES


def test_multi_file_commit_through_pygithub(gh):
    repo = gh.py().get_repo("acme/orders")
    head = repo.get_branch("main").commit
    blob = repo.create_git_blob(base64.b64encode(b"fixed = True\n").decode(), "base64")
    assert blob.sha == git.blob_sha("fixed = True\n")
    tree = repo.create_git_tree(
        [
            InputGitTreeElement("src/app.py", "100644", "blob", sha=blob.sha),
            InputGitTreeElement("NOTES.md", "100644", "blob", content="notes\n"),
            InputGitTreeElement("docs/cache.md", "100644", "blob", sha=None),
        ],
        base_tree=repo.get_git_tree(head.commit.tree.sha),
    )
    assert [e.path for e in tree.tree] == ["NOTES.md", "README.md", "src"]
    commit = repo.create_git_commit("Fix and note", tree, [repo.get_git_commit(head.sha)])
    assert commit.parents[0].sha == head.sha
    assert commit.author.name == "Stage Bot"
    repo.get_git_ref("heads/main").edit(commit.sha)
    assert repo.get_contents("src/app.py").decoded_content == b"fixed = True\n"
    assert [c.commit.message for c in repo.get_commits()][:2] == ["Fix and note", "Document caching"]


def test_write_through_githubkit_with_dates(gh):
    kit = gh.kit()
    tree = kit.rest.git.create_tree(
        "acme", "orders", tree=[{"path": "a/b.txt", "mode": "100644", "type": "blob", "content": "b\n"}]
    )
    assert tree.status_code == 201
    assert [e.path for e in tree.parsed_data.tree] == ["a"]
    who = {"name": "Maya Chen", "email": "maya@acme.test", "date": "2026-03-01T10:00:00Z"}
    commit = kit.rest.git.create_commit(
        "acme", "orders", message="Root", tree=tree.parsed_data.sha, parents=[], author=who
    ).parsed_data
    assert commit.author.date.isoformat() == "2026-03-01T10:00:00+00:00"
    assert commit.committer.name == "Stage Bot"
    assert commit.parents == []


def test_write_errors_write_nothing(gh):
    before = (gh.state(BLOBS), gh.state(TREES), gh.state(COMMITS))
    cases = [
        ("/git/blobs", {}, 'Invalid request.\n\n"content" wasn\'t supplied.'),
        ("/git/blobs", {"content": "%%", "encoding": "base64"}, "content is not valid Base64 of UTF-8 text"),
        ("/git/blobs", {"content": "x", "encoding": "latin-1"}, "encoding must be one of utf-8, base64; found latin-1"),
        (
            "/git/trees",
            {"tree": [{"path": "x", "mode": "100644", "type": "blob", "sha": "0" * 40}]},
            f"Invalid tree info: {'0' * 40} is not a blob",
        ),
        (
            "/git/trees",
            {"tree": [{"path": "x", "mode": "100755", "type": "blob", "content": "x"}]},
            "Invalid tree info: mode 100755 with type blob is not supported",
        ),
        (
            "/git/trees",
            {"tree": [{"path": "x", "content": "1"}, {"path": "x/y", "content": "2"}]},
            "Invalid tree info: x is both a file and a directory",
        ),
        ("/git/trees", {"tree": [], "base_tree": "nope"}, "base_tree is not a valid tree oid"),
        ("/git/commits", {"message": "m", "tree": "0" * 40}, "Tree SHA does not exist"),
        (
            "/git/commits",
            {"message": "m", "tree": "352f24006e242c904a086db6ddd5976a65db0f46", "parents": ["nope"]},
            "Parent SHA does not exist or is not a commit object",
        ),
    ]
    for path, body, message in cases:
        r = gh.raw("POST", "/repos/acme/orders" + path, json=body)
        assert (r.status_code, r.json()["message"]) == (422, message), body
    assert (gh.state(BLOBS), gh.state(TREES), gh.state(COMMITS)) == before
