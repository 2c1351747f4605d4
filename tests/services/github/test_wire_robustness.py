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
]


@pytest.mark.parametrize(("method", "path", "kwargs", "status"), ODD)
def test_odd_requests_get_githubs_answer(gh, method, path, kwargs, status):
    before = {name: gh.state(name) for name in (REFS, COMMITS, REPOS)}
    r = gh.raw(method, path, **kwargs)
    assert r.status_code == status, r.text
    if status >= 400:
        assert set(r.json()) >= {"message", "documentation_url", "status"}
        assert {name: gh.state(name) for name in before} == before
