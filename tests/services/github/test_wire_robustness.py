"""Odd input never makes a 500 and never half-writes: every answer is one of GitHub's."""

from __future__ import annotations

import pytest

from soundstage.services.github.store import COMMITS, REFS, REPOS

ODD = [
    ("GET", "/repos/acme/orders/commits", {"params": {"per_page": "x", "page": "-3"}}, 200),
    ("GET", "/repos/acme/orders/commits", {"params": {"since": "yesterday"}}, 400),
    ("GET", "/repos/acme/orders/commits", {"params": {"sha": "feature", "path": "/"}}, 200),
    ("GET", "/repos/acme/orders/contents/README.md/deeper", {}, 404),
    ("GET", "/repos/acme/orders/contents/src%2Fapp.py", {}, 200),
    ("GET", "/repos/acme/orders/git/trees/" + "85b2b44656f43879a8d8a083c53e4764b4a3d556", {}, 404),
    ("GET", "/repos/acme/orders/compare/...", {}, 404),
    ("GET", "/repos/acme/orders/commits/" + "f" * 40, {}, 422),
    ("PUT", "/repos/acme/orders/contents/a.txt", {"json": {"message": "m", "content": "YQ==", "author": "me"}}, 422),
    ("PUT", "/repos/acme/orders/contents/a.txt", {"json": {"message": "m", "content": "YQ==", "branch": 3}}, 422),
    ("PUT", "/repos/acme/orders/contents/a.txt", {"json": {"message": "m", "content": "/w=="}}, 422),
    ("PUT", "/repos/acme/orders/contents/a.txt", {}, 422),
    ("PUT", "/repos/acme/orders/contents/README.md/x", {"json": {"message": "m", "content": "YQ=="}}, 422),
    ("DELETE", "/repos/acme/empty/contents/a.txt", {"json": {"message": "m", "sha": "x"}}, 404),
    ("POST", "/repos/acme/orders/git/refs", {"json": {"ref": ["refs/heads/x"], "sha": "x"}}, 422),
    ("PATCH", "/repos/acme/orders/git/refs/heads/main", {"json": {"sha": "x", "force": "yes"}}, 422),
    ("PATCH", "/repos/acme/orders/git/refs/heads/nope", {"json": {"sha": "x"}}, 422),
    ("PATCH", "/repos/acme/orders/git/refs/heads/main", {"json": {"sha": "0" * 40}}, 422),
    ("GET", "/repos/acme/orders/git/ref/", {}, 404),
    ("GET", "/repos/acme/orders/issues/%C2%B2", {}, 404),  # "²".isdigit(), but int("²") failed: a 500
    ("GET", "/repos/acme/orders/pulls/%C2%B2/files", {}, 404),
]


@pytest.mark.parametrize(("method", "path", "kwargs", "status"), ODD)
def test_odd_requests_get_githubs_answer(gh, method, path, kwargs, status):
    before = {name: gh.state(name) for name in (REFS, COMMITS, REPOS)}
    r = gh.raw(method, path, **kwargs)
    assert r.status_code == status, r.text
    if status >= 400:
        assert set(r.json()) >= {"message", "documentation_url", "status"}
        assert {name: gh.state(name) for name in before} == before


def test_content_outside_ascii_is_not_base64(gh):
    """base64 raises a ValueError of its own for a character outside ASCII: both writes were a 500."""
    before = {name: gh.state(name) for name in (REFS, COMMITS)}
    r = gh.raw("PUT", "/repos/acme/orders/contents/a.txt", json={"message": "m", "content": "é"})
    assert (r.status_code, r.json()) == (
        422,
        {
            "message": "content is not valid Base64",
            "documentation_url": "https://docs.github.com/rest/repos/contents#create-or-update-file-contents",
            "status": "422",
        },
    )
    r = gh.raw("POST", "/repos/acme/orders/git/blobs", json={"content": "é", "encoding": "base64"})
    assert (r.status_code, r.json()["message"]) == (422, "content is not valid Base64 of UTF-8 text")
    assert {name: gh.state(name) for name in before} == before


@pytest.mark.parametrize("credentials", ["é".encode(), b"\xff\xfe", "é".encode("latin-1"), b"!!!"])
def test_basic_credentials_that_are_no_base64_of_utf8_are_no_token(gh, credentials):
    """`Authorization: Basic é` raised while the server looked for the world: a plain-text 500, and the call
    was missing from the trace. Credentials that say nothing are a missing token to GitHub: its answer, and
    (as for any call without a credential of the world) nothing logged in the world."""
    before = gh.live.world.log.last_seq
    r = gh.raw("GET", "/user", headers={"Authorization": b"Basic " + credentials})
    assert (r.status_code, r.json()) == (
        401,
        {"message": "Requires authentication", "documentation_url": "https://docs.github.com/rest", "status": "401"},
    )
    assert gh.live.world.log.last_seq == before
