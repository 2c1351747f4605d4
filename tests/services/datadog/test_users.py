"""Users: `GET /api/v2/users` through datadog-api-client (paging included) and raw httpx; the `users:`
records and whose application key the agent holds."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.errors import SpecError
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

from .conftest import DatadogWorld

BOT_ID = "1b8c2d3e-4f50-4a61-8b72-9c83d4e5f601"
ORG_ID = "700933de-4065-4d26-80fc-8138a4618f65"  # the scene's organization: a UUID from its seed
SCENE = f"""
name: dd-users
task: test
clock: {{start: "2026-03-02T14:00:00Z", tick: 5s}}
agent: {{datadog_user: $bot_dd}}
seed:
  datadog:
    users:
      - {{ref: bot_dd, id: "{BOT_ID}", handle: stagebot, email: stagebot@acme.test, name: Stage Bot,
          service_account: true}}
      - {{ref: maya_dd, email: maya@acme.test, name: Maya Chen, title: SRE, mfa_enabled: true, ago: 30d}}
      - {{ref: laura_dd, email: laura@acme.test, name: Laura Diaz, title: Customer Success}}
      - {{ref: old_dd, email: old@acme.test, name: Alex Old, disabled: true}}
      - {{ref: new_dd, email: new@acme.test, status: Pending, verified: false}}
"""
START = "2026-03-02T14:00:00"


@pytest.fixture(scope="module")
def users(stage: Any) -> DatadogWorld:
    return DatadogWorld(stage.world(SCENE))


def handles(dd: DatadogWorld, **params: Any) -> list[str]:
    response = dd.raw("GET", "/api/v2/users", params=params)
    assert response.status_code == 200, response.text
    return [u["attributes"]["handle"] for u in response.json()["data"]]


def test_raw_shape(users: DatadogWorld) -> None:
    body = users.raw("GET", "/api/v2/users", params={"filter": "maya"}).json()
    maya = users.ref("maya_dd")
    assert body == {
        "data": [
            {
                "type": "users",
                "id": maya,
                "attributes": {
                    "name": "Maya Chen",
                    "handle": "maya@acme.test",
                    "created_at": "2026-01-31T13:59:59.162998+00:00",
                    "modified_at": "2026-01-31T13:59:59.162998+00:00",
                    "email": "maya@acme.test",
                    "icon": "https://secure.gravatar.com/avatar/f17fdff2f7474c4ee4061c2feee00987?s=48&d=retro",
                    "title": "SRE",
                    "verified": True,
                    "service_account": False,
                    "disabled": False,
                    "allowed_login_methods": [],
                    "status": "Active",
                    "mfa_enabled": True,
                    "last_login_time": None,
                    "uuid": maya,
                },
                "relationships": {"roles": {"data": []}, "org": {"data": {"type": "orgs", "id": ORG_ID}}},
            }
        ],
        "included": [],
        "meta": {"page": {"total_count": 5, "total_filtered_count": 1}},
    }


def test_sort_filter_and_pages(users: DatadogWorld) -> None:
    # By name; the user without one comes last.
    assert handles(users) == ["old@acme.test", "laura@acme.test", "maya@acme.test", "stagebot", "new@acme.test"]
    assert handles(users, sort="-name")[0] == "new@acme.test"
    assert handles(users, sort="email", sort_dir="desc") == [
        "stagebot",
        "old@acme.test",
        "new@acme.test",
        "maya@acme.test",
        "laura@acme.test",
    ]
    assert handles(users, **{"filter[status]": "Disabled,Pending"}) == ["old@acme.test", "new@acme.test"]
    assert handles(users, filter="ACME.TEST", **{"page[size]": 2, "page[number]": 1}) == [
        "maya@acme.test",
        "stagebot",
    ]
    assert handles(users, **{"page[size]": 2, "page[number]": 3}) == []


def test_sdk_list_and_paging(users: DatadogWorld) -> None:
    from datadog_api_client.v2.api.users_api import UsersApi

    with users.client() as client:
        api = UsersApi(client)
        response = api.list_users(filter_status="Active", sort="name")
        paged = list(api.list_users_with_pagination(page_size=2))
    assert [u.attributes.name for u in response.data] == ["Laura Diaz", "Maya Chen", "Stage Bot"]
    bot = response.data[2]
    assert bot.id == BOT_ID and bot.attributes.service_account is True and str(bot.type) == "users"
    assert bot.attributes.created_at.isoformat() == "2025-01-26T13:59:59.390914+00:00"
    assert {(str(u.relationships.org.data.type), u.relationships.org.data.id) for u in response.data} == {
        ("orgs", ORG_ID)
    }
    assert response.meta.page.total_count == 5 and response.meta.page.total_filtered_count == 3
    assert [u.attributes.email for u in paged] == [
        "old@acme.test",
        "laura@acme.test",
        "maya@acme.test",
        "stagebot@acme.test",
        "new@acme.test",
    ]


def test_the_keys_belong_to_the_agents_user(users: DatadogWorld) -> None:
    principal = users.live.world.tokens[users.app_key]
    assert principal.user == BOT_ID


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"page[size]": 0}, "page[size]"),
        ({"page[size]": 5001}, "page[size]"),
        ({"page[number]": "x"}, "page[number]"),
        ({"sort": "age"}, "sort"),
        ({"sort_dir": "up"}, "sort_dir"),
    ],
)
def test_bad_parameters(users: DatadogWorld, params: dict[str, Any], name: str) -> None:
    response = users.raw("GET", "/api/v2/users", params=params)
    assert response.status_code == 400
    assert response.json() == {"errors": [f"The value provided for parameter '{name}' is invalid"]}


def failure(users: str) -> SpecError:
    head = 'name: g\ntask: t\nclock: {start: "2026-03-02T14:00:00Z"}\nseed:\n  datadog:\n    users:\n'
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene_text(head + users))
    return caught.value


def test_seed_errors() -> None:
    error = failure("      - {email: a@x.test}\n      - {email: b@x.test, handle: a@x.test}\n")
    assert error.message == "handle a@x.test is used by another user"
    assert error.field == "seed.datadog.users[1].handle"
    error = failure("      - {email: a@x.test, id: not-a-uuid}\n")
    assert error.field == "seed.datadog.users[0].id"
    error = failure(f'      - {{email: a@x.test, id: "{BOT_ID}"}}\n      - {{email: b@x.test, id: "{BOT_ID}"}}\n')
    assert error.message == f"user id {BOT_ID} is used twice"
    error = failure("      - {name: no email}\n")
    assert error.field == "seed.datadog.users[0].email"
