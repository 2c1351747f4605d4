"""Contents: files and directories, creating, updating (the blob-sha rule) and deleting files."""

from __future__ import annotations

import base64

import pytest
from github import GithubException

from soundstage.services.github.store import REFS

APP = "cache_totals=True\ndef total(order):\n    return sum(order)\n"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def test_get_file(gh):
    kit = gh.kit()
    f = kit.rest.repos.get_content("acme", "orders", "src/app.py").parsed_data
    assert (f.type, f.encoding, f.name, f.path, f.size) == ("file", "base64", "app.py", "src/app.py", len(APP))
    assert f.content == "Y2FjaGVfdG90YWxzPVRydWUKZGVmIHRvdGFsKG9yZGVyKToKICAgIHJldHVy\nbiBzdW0ob3JkZXIpCg==\n"
    assert base64.b64decode(f.content).decode() == APP
    py = gh.py().get_repo("acme/orders").get_contents("src/app.py")
    assert py.decoded_content.decode() == APP and py.sha == f.sha


def test_get_file_at_a_ref(gh):
    py = gh.py().get_repo("acme/orders")
    first = py.get_commits()[2].sha
    assert py.get_contents("src/app.py", ref=first).decoded_content == b"def total(order):\n    return sum(order)\n"
    assert py.get_contents("docs/cache.md", ref="main").decoded_content == b"Totals are cached.\n"
    r = gh.raw("GET", "/repos/acme/orders/contents/docs/cache.md", params={"ref": "feature"})
    assert (r.status_code, r.json()["message"]) == (404, "Not Found")
    r = gh.raw("GET", "/repos/acme/orders/contents/README.md", params={"ref": "nope"})
    assert (r.status_code, r.json()["message"]) == (404, "No commit found for the ref nope")
    r = gh.raw("GET", "/repos/acme/empty/contents/README.md")
    assert (r.status_code, r.json()["message"]) == (404, "This repository is empty.")


def test_directories(gh):
    kit = gh.kit()
    listing = kit.rest.repos.get_content("acme", "orders", "src").parsed_data
    assert [(i.name, i.path, i.type) for i in listing] == [
        ("app.py", "src/app.py", "file"),
        ("util", "src/util", "dir"),
    ]
    root = gh.py().get_repo("acme/orders").get_contents("")
    assert [c.path for c in root] == ["README.md", "docs", "src"]
    assert gh.raw("GET", "/repos/acme/orders/contents").json()[0]["name"] == "README.md"


def test_create_file(gh):
    py = gh.py().get_repo("acme/orders")
    result = py.create_file("notes/todo.md", "Add todo", "- ship\n")
    assert result["content"].path == "notes/todo.md"
    commit = py.get_commit(result["commit"].sha).commit
    assert (commit.message, commit.author.name, commit.author.email) == ("Add todo", "Stage Bot", "bot@acme.test")
    assert py.get_contents("notes/todo.md").decoded_content == b"- ship\n"
    assert py.get_branch("main").commit.sha == result["commit"].sha
    r = gh.raw("PUT", "/repos/acme/orders/contents/notes/b.md", json={"message": "b", "content": _b64("b\n")})
    assert r.status_code == 201
    assert set(r.json()) == {"content", "commit"}


def test_update_file_needs_the_blob_sha(gh):
    kit = gh.kit()
    current = kit.rest.repos.get_content("acme", "orders", "README.md").parsed_data
    r = gh.raw("PUT", "/repos/acme/orders/contents/README.md", json={"message": "m", "content": _b64("x\n")})
    assert r.status_code == 422
    assert r.json()["message"] == 'Invalid request.\n\n"sha" wasn\'t supplied.'
    r = gh.raw(
        "PUT", "/repos/acme/orders/contents/README.md", json={"message": "m", "content": _b64("x\n"), "sha": "0" * 40}
    )
    assert (r.status_code, r.json()["message"]) == (409, f"README.md does not match {'0' * 40}")
    before = gh.state(REFS)
    updated = kit.rest.repos.create_or_update_file_contents(
        "acme", "orders", "README.md", message="Update readme", content=_b64("# orders v2\n"), sha=current.sha
    )
    assert updated.status_code == 200
    assert updated.parsed_data.commit.parents[0].sha == before["acme/orders:refs/heads/main"]["sha"]
    assert gh.py().get_repo("acme/orders").get_contents("README.md").decoded_content == b"# orders v2\n"


def test_write_on_another_branch_and_with_an_author(gh):
    body = {
        "message": "Fix on feature",
        "content": _b64("fixed\n"),
        "branch": "feature",
        "author": {"name": "Maya Chen", "email": "maya@acme.test"},
    }
    r = gh.raw("PUT", "/repos/acme/orders/contents/fix.txt", json=body)
    assert r.status_code == 201
    commit = r.json()["commit"]
    assert (commit["author"]["name"], commit["committer"]["name"]) == ("Maya Chen", "Stage Bot")
    assert gh.py().get_repo("acme/orders").get_contents("fix.txt", ref="feature").decoded_content == b"fixed\n"
    r = gh.raw("PUT", "/repos/acme/orders/contents/fix.txt", json={**body, "branch": "nope"})
    assert (r.status_code, r.json()["message"]) == (404, "Branch nope not found")


def test_put_validation_writes_nothing(gh):
    before = gh.state(REFS)
    cases = [
        ({"content": _b64("x")}, 422, 'Invalid request.\n\n"message" wasn\'t supplied.'),
        ({"message": "m"}, 422, 'Invalid request.\n\n"content" wasn\'t supplied.'),
        ({"message": 5, "content": _b64("x")}, 422, "Invalid request.\n\nFor 'message', 5 is not a string."),
        ({"message": "m", "content": "%%%"}, 422, "content is not valid Base64"),
        ({"message": "m", "content": _b64("x"), "sha": "abc"}, 422, 'Invalid request.\n\n"src" is a directory.'),
    ]
    for body, status, message in cases:
        r = (
            gh.raw("PUT", "/repos/acme/orders/contents/src", json=body)
            if "sha" in body
            else gh.raw("PUT", "/repos/acme/orders/contents/new.txt", json=body)
        )
        assert (r.status_code, r.json()["message"]) == (status, message), body
    assert gh.state(REFS) == before


def test_delete_file(gh):
    py = gh.py().get_repo("acme/orders")
    current = py.get_contents("docs/cache.md")
    with pytest.raises(GithubException) as failed:
        py.delete_file("docs/cache.md", "Remove", "0" * 40)
    assert failed.value.status == 409
    result = py.delete_file("docs/cache.md", "Remove cache doc", current.sha)
    assert py.get_commit(result["commit"].sha).commit.message == "Remove cache doc"
    with pytest.raises(GithubException) as failed:
        py.get_contents("docs/cache.md")
    assert failed.value.status == 404
    assert [c.path for c in py.get_contents("")] == ["README.md", "src"]
    r = gh.raw("DELETE", "/repos/acme/orders/contents/docs/cache.md", json={"message": "m", "sha": current.sha})
    assert (r.status_code, r.json()["message"]) == (404, "Not Found")
    r = gh.raw("DELETE", "/repos/acme/orders/contents/README.md", json={"message": "m"})
    assert (r.status_code, r.json()["message"]) == (422, 'Invalid request.\n\n"sha" wasn\'t supplied.')


def test_first_file_of_an_empty_repo(gh):
    py = gh.py().get_repo("acme/empty")
    result = py.create_file("README.md", "First", "hello\n")
    assert result["commit"].parents == []
    assert py.get_branch("main").commit.sha == result["commit"].sha


def test_writes_are_deterministic(stage):
    from .conftest import SCENE, GitHubWorld

    shas = []
    for _ in range(2):
        world = GitHubWorld(stage.world(SCENE))
        py = world.py().get_repo("acme/orders")
        first = py.create_file("a.txt", "A", "a\n")["commit"].sha
        second = py.update_file("a.txt", "A2", "aa\n", py.get_contents("a.txt").sha)["commit"].sha
        shas.append((first, second))
    assert shas[0] == shas[1]
