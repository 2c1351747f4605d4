"""The wire: authentication (`Token token=` and Bearer), PagerDuty's error envelopes, classic paging as
`iter_all` drives it, bad query parameters, and deterministic ids."""

from __future__ import annotations

from typing import Any

import pagerduty
import pytest

from .conftest import SCENE, PagerDutyWorld

AUTH_FAILED = {"error": {"message": "Authentication failed", "code": 2006}}


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "Token token=nope"},
        {"Authorization": "Bearer nope"},
        {"Authorization": "Token nope"},
        {},
    ],
)
def test_bad_or_missing_token_is_401(pd_read: PagerDutyWorld, headers: dict[str, str]) -> None:
    response = pd_read.raw("GET", "/users", token=None, headers=headers)
    assert response.status_code == 401
    assert response.json() == AUTH_FAILED


def test_bearer_token_works(pd_read: PagerDutyWorld) -> None:
    response = pd_read.raw(
        "GET",
        "/users/me",
        token=None,
        headers={"Authorization": f"Bearer {pd_read.token}"},
    )
    assert response.status_code == 200
    assert response.json()["user"]["email"] == "maya@acme.test"


def test_client_raises_on_401(pd_read: PagerDutyWorld) -> None:
    with pytest.raises(pagerduty.HttpError) as raised:
        pd_read.client(token="nope").rget("users/me")
    assert raised.value.response.status_code == 401


def test_unknown_path_is_404(pd_read: PagerDutyWorld) -> None:
    response = pd_read.raw("GET", "/nothing/here")
    assert response.status_code == 404
    assert response.json() == {"error": {"message": "Not Found", "code": 2100}}


def test_paging(pd_read: PagerDutyWorld) -> None:
    client = pd_read.client()
    assert [u["name"] for u in client.iter_all("users", page_size=1)] == [
        "Lee Park",
        "Maya Chen",
        "Sam Ortiz",
    ]
    page = pd_read.raw("GET", "/users", params={"limit": "2", "offset": "1", "total": "true"}).json()
    assert [u["name"] for u in page["users"]] == ["Maya Chen", "Sam Ortiz"]
    assert (page["limit"], page["offset"], page["more"], page["total"]) == (
        2,
        1,
        False,
        3,
    )
    beyond = pd_read.raw("GET", "/users", params={"offset": "50"}).json()
    assert (beyond["users"], beyond["more"], beyond["offset"]) == ([], False, 50)
    capped = pd_read.raw("GET", "/users", params={"limit": "500"}).json()
    assert capped["limit"] == 100


@pytest.mark.parametrize(
    ("params", "error"),
    [
        (
            {"limit": "ten"},
            {
                "message": "Invalid Input Provided",
                "code": 2001,
                "errors": ["limit must be a non-negative integer."],
            },
        ),
        (
            {"offset": "-1"},
            {
                "message": "Invalid Input Provided",
                "code": 2001,
                "errors": ["offset must be a non-negative integer."],
            },
        ),
        (
            {"offset": "9990", "limit": "20"},
            {
                "message": "Arguments Caused Error",
                "code": 2001,
                "errors": [
                    (
                        "Offset+limit exceeds maximum allowed value of 10000. "
                        "Please try to refine your search to reduce the returned set of records below this number, "
                        "like adding a date range."
                    )
                ],
            },
        ),
    ],
)
def test_bad_paging_is_400(pd_read: PagerDutyWorld, params: dict[str, str], error: dict[str, Any]) -> None:
    response = pd_read.raw("GET", "/services", params=params)
    assert response.status_code == 400
    assert response.json() == {"error": error}


@pytest.mark.parametrize(
    ("path", "params", "error"),
    [
        (
            "/oncalls",
            {"since": "yesterday"},
            {
                "message": "Invalid 'since' or 'until' Parameter Values",
                "code": 2004,
                "errors": ["since is not a valid date."],
            },
        ),
        (
            "/oncalls",
            {"since": "2026-03-05T00:00:00Z", "until": "2026-03-04T00:00:00Z"},
            {
                "message": "Invalid Query Date Range",
                "code": 2005,
                "errors": ["The since parameter must be before the until parameter."],
            },
        ),
        (
            "/oncalls",
            {"since": "2026-03-01T00:00:00Z", "until": "2026-07-01T00:00:00Z"},
            {
                "message": "Invalid Query Date Range",
                "code": 2005,
                "errors": ["The date range cannot be longer than 90 days."],
            },
        ),
        (
            "/schedules/{primary}",
            {"until": "never"},
            {
                "message": "Invalid 'since' or 'until' Parameter Values",
                "code": 2004,
                "errors": ["until is not a valid date."],
            },
        ),
        (
            "/services",
            {"sort_by": "created_at"},
            {
                "message": "Invalid Input Provided",
                "code": 2001,
                "errors": ["sort_by must be one of name, name:asc, name:desc."],
            },
        ),
        (
            "/oncalls",
            {"time_zone": "Mars/Olympus"},
            {
                "message": "Invalid Input Provided",
                "code": 2001,
                "errors": ["Time zone is not a valid time zone."],
            },
        ),
    ],
)
def test_bad_parameters_are_400(
    pd_read: PagerDutyWorld, path: str, params: dict[str, str], error: dict[str, Any]
) -> None:
    response = pd_read.raw("GET", path.format(primary=pd_read.ref("primary")), params=params)
    assert response.status_code == 400
    assert response.json() == {"error": error}


def test_same_scene_same_ids(stage: Any, pd_read: PagerDutyWorld) -> None:
    again = PagerDutyWorld(stage.world(SCENE))
    names = ("maya", "sam", "lee", "sre", "primary", "ep", "orders_svc", "billing_svc")
    assert [again.ref(n) for n in names] == [pd_read.ref(n) for n in names]
    assert again.client().list_all("priorities") != [] and [p["id"] for p in again.client().list_all("priorities")] == [
        p["id"] for p in pd_read.client().list_all("priorities")
    ]
    assert all(len(pd_read.ref(n)) == 7 and pd_read.ref(n).startswith("P") for n in names)


def test_json_nested_too_deep_is_invalid_input(pd: PagerDutyWorld) -> None:
    deep = '{"incident": {"type": "incident", "title": "t", "body": ' + "[" * 100_000 + "]" * 100_000 + "}}"
    response = pd.raw("POST", "/incidents", content=deep, headers={"Content-Type": "application/json"})
    assert (response.status_code, response.json()) == (
        400,
        {
            "error": {
                "message": "Invalid Input Provided",
                "code": 2001,
                "errors": [
                    "The request body could not be parsed: body is not valid JSON: nested more than 100 levels deep"
                ],
            }
        },
    )
    call = pd.live.trace()[-1]
    assert (call["operation"], call["status"], call["body"]) == ("POST /incidents", 400, None)
