"""Routing `METHOD /path` to a registered operation (services/routing.py)."""

from __future__ import annotations

import pytest

from soundstage.services import routing
from soundstage.services.routing import Router

ROUTER = Router(
    [
        "GET /repos/{owner}/{repo}",
        "GET /repos/{owner}/{repo}/pulls",
        "GET /repos/{owner}/{repo}/contents/{path}",
        "GET /repos/{owner}/{repo}/commits/{ref}",
        "GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
    ],
    tails=["path", "ref"],
)


def test_literal_segments_and_parameters() -> None:
    assert ROUTER.match("GET", "/repos/acme/orders/pulls") == (
        "GET /repos/{owner}/{repo}/pulls",
        {"owner": "acme", "repo": "orders"},
    )
    assert ROUTER.match("GET", "/repos/acme/orders") == (
        "GET /repos/{owner}/{repo}",
        {"owner": "acme", "repo": "orders"},
    )
    assert ROUTER.match("POST", "/repos/acme/orders/pulls") is None
    assert ROUTER.match("GET", "/repos/acme") is None


def test_a_tail_parameter_spans_the_rest_and_exact_lengths_win() -> None:
    assert ROUTER.match("GET", "/repos/acme/orders/contents/src/app%20x.py") == (
        "GET /repos/{owner}/{repo}/contents/{path}",
        {"owner": "acme", "repo": "orders", "path": "src/app x.py"},
    )
    assert ROUTER.match("GET", "/repos/acme/orders/contents") == (
        "GET /repos/{owner}/{repo}/contents/{path}",
        {"owner": "acme", "repo": "orders", "path": ""},
    )
    assert ROUTER.match("GET", "/repos/a/b/commits/main/check-runs") == (
        "GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
        {"owner": "a", "repo": "b", "ref": "main"},
    )
    assert ROUTER.match("GET", "/repos/a/b/commits/feature/x") == (
        "GET /repos/{owner}/{repo}/commits/{ref}",
        {"owner": "a", "repo": "b", "ref": "feature/x"},
    )


def test_a_kept_lookup_answers_the_same_with_parameters_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    router = Router(["GET /repos/{owner}/{repo}"])
    first = router.match("GET", "/repos/acme/orders")
    assert first is not None
    first[1]["owner"] = "changed by a handler"
    assert router.match("GET", "/repos/acme/orders") == (
        "GET /repos/{owner}/{repo}",
        {"owner": "acme", "repo": "orders"},
    )
    monkeypatch.setattr(routing, "CACHED", 2)
    for n in range(5):  # past the bound the kept lookups start again
        assert router.match("GET", f"/repos/acme/r{n}") == (
            "GET /repos/{owner}/{repo}",
            {"owner": "acme", "repo": f"r{n}"},
        )
    assert len(router._found) <= 2
    assert router.match("GET", "/nothing") is None
