"""Incidents (v2, unstable in the SDK): list, create, get, update through datadog-api-client and raw httpx;
paging, `include=users`, errors, the `incidents:` records, and the `record`/`diff`/`writes` checks."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.errors import SpecError
from soundstage.services.datadog.store import INCIDENTS
from soundstage.services.datadog.views_records import icon
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

from .conftest import DatadogWorld

BOT_ID = "1b8c2d3e-4f50-4a61-8b72-9c83d4e5f601"
INCIDENT_TYPE = (
    "82f5a85e-36da-40ff-b88c-07b53e2af719"  # the organization's default incident type: a UUID from the scene's seed
)
SCENE = f"""
name: dd-incidents
task: test
clock: {{start: "2026-03-02T14:00:00Z", tick: 5s}}
agent: {{datadog_user: $bot_dd}}
seed:
  datadog:
    users:
      - {{ref: bot_dd, id: "{BOT_ID}", email: stagebot@acme.test, name: Stage Bot}}
      - {{ref: maya_dd, email: maya@acme.test, name: Maya Chen}}
    incidents:
      - ref: slow
        title: Orders are slow
        severity: SEV-2
        commander: $maya_dd
        customer_impacted: true
        customer_impact_scope: Checkout takes 10s
        fields: {{services: {{type: autocomplete, value: [orders]}}}}
        ago: 30m
      - {{ref: old, title: Payments outage, severity: SEV-1, state: resolved, ago: 3d, resolved_after: 2h}}
      - {{ref: minor, title: Flaky search, ago: 1h}}
"""
pytestmark = pytest.mark.filterwarnings("ignore:Using unstable operation")
UNSTABLE = ("list_incidents", "create_incident", "get_incident", "update_incident")


@pytest.fixture(scope="module")
def incidents(stage: Any) -> DatadogWorld:
    return DatadogWorld(stage.world(SCENE))


@pytest.fixture
def fresh(stage: Any) -> DatadogWorld:
    return DatadogWorld(stage.world(SCENE))


def api(dd: DatadogWorld) -> Any:
    from datadog_api_client import ApiClient
    from datadog_api_client.v2.api.incidents_api import IncidentsApi

    configuration = dd.configuration()
    for name in UNSTABLE:
        configuration.unstable_operations[name] = True
    return IncidentsApi(ApiClient(configuration))


def test_raw_get_shape(incidents: DatadogWorld) -> None:
    slow, maya = incidents.ref("slow"), incidents.ref("maya_dd")
    response = incidents.raw("GET", f"/api/v2/incidents/{slow}")
    assert response.status_code == 200
    assert response.json() == {
        "data": {
            "type": "incidents",
            "id": slow,
            "attributes": {
                "public_id": 1,
                "title": "Orders are slow",
                "created": "2026-03-02T13:29:59.095052+00:00",
                "modified": "2026-03-02T13:29:59.095052+00:00",
                "declared": "2026-03-02T13:29:59.095052+00:00",
                "detected": "2026-03-02T13:29:59.095052+00:00",
                "resolved": None,
                "customer_impacted": True,
                "customer_impact_scope": "Checkout takes 10s",
                "customer_impact_start": "2026-03-02T13:29:59.095052+00:00",
                "customer_impact_end": None,
                "customer_impact_duration": 0,
                "time_to_detect": 0,
                "time_to_internal_response": 0,
                "time_to_repair": 0,
                "time_to_resolve": 0,
                "severity": "SEV-2",
                "state": "active",
                "fields": {
                    "detection_method": {"type": "dropdown", "value": "unknown"},
                    "root_cause": {"type": "textbox", "value": None},
                    "summary": {"type": "textbox", "value": None},
                    "services": {"type": "autocomplete", "value": ["orders"]},
                    "teams": {"type": "autocomplete", "value": None},
                    "slug": {"type": "textbox", "value": "IR-1"},
                    "severity": {"type": "dropdown", "value": "SEV-2"},
                    "state": {"type": "dropdown", "value": "active"},
                },
                "field_analytics": None,
                "archived": None,
                "case_id": None,
                "is_test": False,
                "visibility": "organization",
                "notification_handles": None,
                "non_datadog_creator": None,
                "creation_idempotency_key": None,
                "incident_type_uuid": INCIDENT_TYPE,
                "created_by_uuid": maya,
                "last_modified_by_uuid": maya,
                "declared_by_uuid": maya,
            },
            "relationships": {
                "commander_user": {"data": {"type": "users", "id": maya}},
                "created_by_user": {"data": {"type": "users", "id": maya}},
                "declared_by_user": {"data": {"type": "users", "id": maya}},
                "last_modified_by_user": {"data": {"type": "users", "id": maya}},
                "attachments": {"data": []},
                "integrations": {"data": []},
                "responders": {"data": []},
                "impacts": {"data": []},
                "user_defined_fields": {"data": []},
            },
        }
    }


def test_sdk_get_with_users(incidents: DatadogWorld) -> None:
    from datadog_api_client.v2.model.incident_related_object import IncidentRelatedObject

    with api(incidents).api_client:
        response = api(incidents).get_incident(incidents.ref("old"), include=[IncidentRelatedObject.USERS])
    data = response.data
    assert data.id == incidents.ref("old") and data.attributes.public_id == 2
    assert str(data.attributes.severity) == "SEV-1" and data.attributes.state == "resolved"
    assert data.attributes.resolved.isoformat() == "2026-02-27T15:59:59.333868+00:00"
    assert data.attributes.time_to_resolve == 7199  # 2 h between two stamps, each a fraction before its second
    assert data.relationships.commander_user.data is None
    assert data.attributes.incident_type_uuid == INCIDENT_TYPE
    assert response.included == []


def test_list_newest_first_and_paging(incidents: DatadogWorld) -> None:
    body = incidents.raw("GET", "/api/v2/incidents", params={"page[size]": 2, "include": "users"}).json()
    assert [i["attributes"]["title"] for i in body["data"]] == ["Orders are slow", "Flaky search"]
    assert body["meta"] == {"pagination": {"offset": 0, "next_offset": 2, "size": 2}}
    assert body["included"] == [
        {
            "type": "users",
            "id": incidents.ref("maya_dd"),
            "attributes": {
                "uuid": incidents.ref("maya_dd"),
                "handle": "maya@acme.test",
                "email": "maya@acme.test",
                "name": "Maya Chen",
                "icon": "https://secure.gravatar.com/avatar/f17fdff2f7474c4ee4061c2feee00987?s=48&d=retro",
            },
        }
    ]
    rest = incidents.raw("GET", "/api/v2/incidents", params={"page[size]": 2, "page[offset]": 2}).json()
    assert [i["attributes"]["title"] for i in rest["data"]] == ["Payments outage"] and "included" not in rest


def test_sdk_list_with_pagination(incidents: DatadogWorld) -> None:
    client = api(incidents)
    with client.api_client:
        items = list(client.list_incidents_with_pagination(page_size=1))
        page = client.list_incidents(page_size=2, page_offset=1)
    assert [i.attributes.title for i in items] == ["Orders are slow", "Flaky search", "Payments outage"]
    assert [i.attributes.title for i in page.data] == ["Flaky search", "Payments outage"]
    assert page.meta.pagination.next_offset == 3


def test_sdk_create_and_update(fresh: DatadogWorld) -> None:
    from datadog_api_client.v2.model.incident_create_attributes import IncidentCreateAttributes
    from datadog_api_client.v2.model.incident_create_data import IncidentCreateData
    from datadog_api_client.v2.model.incident_create_relationships import IncidentCreateRelationships
    from datadog_api_client.v2.model.incident_create_request import IncidentCreateRequest
    from datadog_api_client.v2.model.incident_field_attributes_single_value import (
        IncidentFieldAttributesSingleValue,
    )
    from datadog_api_client.v2.model.incident_field_attributes_single_value_type import (
        IncidentFieldAttributesSingleValueType,
    )
    from datadog_api_client.v2.model.incident_type import IncidentType
    from datadog_api_client.v2.model.incident_update_attributes import IncidentUpdateAttributes
    from datadog_api_client.v2.model.incident_update_data import IncidentUpdateData
    from datadog_api_client.v2.model.incident_update_request import IncidentUpdateRequest
    from datadog_api_client.v2.model.nullable_relationship_to_user import NullableRelationshipToUser
    from datadog_api_client.v2.model.nullable_relationship_to_user_data import NullableRelationshipToUserData
    from datadog_api_client.v2.model.users_type import UsersType

    dropdown = IncidentFieldAttributesSingleValueType.DROPDOWN
    client = api(fresh)
    maya = fresh.ref("maya_dd")
    with client.api_client:
        created = client.create_incident(
            body=IncidentCreateRequest(
                data=IncidentCreateData(
                    type=IncidentType.INCIDENTS,
                    attributes=IncidentCreateAttributes(
                        title="Checkout errors",
                        customer_impacted=False,
                        fields={"severity": IncidentFieldAttributesSingleValue(type=dropdown, value="SEV-3")},
                    ),
                    relationships=IncidentCreateRelationships(
                        commander_user=NullableRelationshipToUser(
                            data=NullableRelationshipToUserData(id=maya, type=UsersType.USERS)
                        )
                    ),
                )
            )
        ).data
        assert created.attributes.public_id == 4 and str(created.attributes.severity) == "SEV-3"
        assert created.relationships.created_by_user.data.id == BOT_ID
        assert created.relationships.commander_user.data.id == maya
        fresh.live.advance("10m")
        updated = client.update_incident(
            created.id,
            body=IncidentUpdateRequest(
                data=IncidentUpdateData(
                    id=created.id,
                    type=IncidentType.INCIDENTS,
                    attributes=IncidentUpdateAttributes(
                        fields={"state": IncidentFieldAttributesSingleValue(type=dropdown, value="resolved")}
                    ),
                )
            ),
        ).data
    assert updated.attributes.state == "resolved"
    assert updated.attributes.resolved.isoformat() == "2026-03-02T14:10:04.971137+00:00"
    assert updated.attributes.time_to_resolve == 605
    record = fresh.record(INCIDENTS, created.id)
    assert record["state"] == "resolved" and record["last_modified_by"] == BOT_ID
    assert [c["operation"] for c in fresh.live.trace()] == [
        "POST /api/v2/incidents",
        "PATCH /api/v2/incidents/{incident_id}",
    ]


def test_raw_create_update_and_checks(fresh: DatadogWorld) -> None:
    response = fresh.raw(
        "POST",
        "/api/v2/incidents",
        json={
            "data": {
                "type": "incidents",
                "attributes": {"title": "Search down", "customer_impacted": True, "customer_impact_scope": "All"},
            }
        },
    )
    assert response.status_code == 201
    data = response.json()["data"]
    assert data["attributes"]["public_id"] == 4 and data["attributes"]["created"] == "2026-03-02T13:59:59.677519+00:00"
    assert data["relationships"]["commander_user"] == {"data": None}
    # A write's answer embeds the users it names; a create's `*_uuid` are null, as Datadog's recorded answers.
    bot = {
        "type": "users",
        "id": BOT_ID,
        "attributes": {
            "uuid": BOT_ID,
            "handle": "stagebot@acme.test",
            "email": "stagebot@acme.test",
            "name": "Stage Bot",
            "icon": icon("stagebot@acme.test"),
        },
    }
    assert {k: data["attributes"][k] for k in ("created_by", "commander", "last_modified_by", "created_by_uuid")} == {
        "created_by": {"data": bot},
        "commander": None,
        "last_modified_by": {"data": bot},
        "created_by_uuid": None,
    }
    slow = fresh.ref("slow")
    patched = fresh.raw(
        "PATCH",
        f"/api/v2/incidents/{slow}",
        json={
            "data": {
                "id": slow,
                "type": "incidents",
                "attributes": {"title": "Orders are slow (cache)", "fields": {"severity": {"value": "SEV-1"}}},
                "relationships": {"commander_user": {"data": None}},
            }
        },
    )
    assert patched.status_code == 200
    attributes = patched.json()["data"]["attributes"]
    assert attributes["title"] == "Orders are slow (cache)" and attributes["severity"] == "SEV-1"
    assert attributes["fields"]["services"] == {"type": "autocomplete", "value": ["orders"]}
    assert patched.json()["data"]["relationships"]["commander_user"] == {"data": None}
    assert (attributes["commander"], attributes["last_modified_by"], attributes["last_modified_by_uuid"]) == (
        None,
        {"data": bot},
        BOT_ID,
    )
    read = fresh.raw("GET", f"/api/v2/incidents/{slow}").json()["data"]["attributes"]
    assert ("last_modified_by" in read, read["last_modified_by_uuid"]) == (False, BOT_ID)
    checks = {
        "declared": {"record": {"collection": "datadog.incidents", "where": {"title": "search down"}}},
        "sev1": {
            "diff": {
                "collection": "datadog.incidents",
                "change": "changed",
                "changes": {"severity": {"from": "SEV-2", "to": "SEV-1"}},
            }
        },
        "two_writes": {"writes": {"collection": "datadog.incidents", "min": 2, "max": 2}},
        "read_only": {"writes": {"collection": "datadog.incidents", "max": 0}},
    }
    response = fresh.live.http.post(
        f"{fresh.live.control}/checks", json={"checks": [{"id": k, "state": v} for k, v in checks.items()]}
    )
    assert {c["id"]: c["passed"] for c in response.json()["checks"]} == {
        "declared": True,
        "sev1": True,
        "two_writes": True,
        "read_only": False,
    }


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Missing required field 'data'"),
        ({"data": {"type": "incident", "attributes": {}}}, "Invalid 'data.type': expected incidents, found 'incident'"),
        (
            {"data": {"type": "incidents", "attributes": {"customer_impacted": False}}},
            "Missing required field 'data.attributes.title'",
        ),
        (
            {"data": {"type": "incidents", "attributes": {"title": "t"}}},
            "Missing required field 'data.attributes.customer_impacted'",
        ),
        (
            {"data": {"type": "incidents", "attributes": {"title": "t", "customer_impacted": True}}},
            "'customer_impact_scope' is required when 'customer_impacted' is true",
        ),
        (
            {
                "data": {
                    "type": "incidents",
                    "attributes": {
                        "title": "t",
                        "customer_impacted": False,
                        "fields": {"severity": {"value": "SEV-9"}},
                    },
                }
            },
            (
                "Invalid value 'SEV-9' for field 'severity': "
                "expected one of UNKNOWN, SEV-0, SEV-1, SEV-2, SEV-3, SEV-4, SEV-5"
            ),
        ),
        (
            {
                "data": {
                    "type": "incidents",
                    "attributes": {"title": "t", "customer_impacted": False},
                    "relationships": {"commander_user": {"data": {"type": "users", "id": "nobody"}}},
                }
            },
            "Invalid 'data.relationships.commander_user': no user with id nobody",
        ),
    ],
)
def test_create_errors(fresh: DatadogWorld, body: dict[str, Any], message: str) -> None:
    response = fresh.raw("POST", "/api/v2/incidents", json=body)
    assert response.status_code == 400 and response.json() == {"errors": [message]}
    assert len(fresh.live.world[INCIDENTS]) == 3


def test_update_errors_change_nothing(fresh: DatadogWorld) -> None:
    slow = fresh.ref("slow")
    before = fresh.record(INCIDENTS, slow)
    bad_state = {
        "data": {"id": slow, "type": "incidents", "attributes": {"title": "x", "fields": {"state": {"value": "done"}}}}
    }
    response = fresh.raw("PATCH", f"/api/v2/incidents/{slow}", json=bad_state)
    assert response.status_code == 400
    assert response.json() == {
        "errors": ["Invalid value 'done' for field 'state': expected one of active, stable, resolved"]
    }
    other = {"data": {"id": fresh.ref("old"), "type": "incidents", "attributes": {"title": "x"}}}
    response = fresh.raw("PATCH", f"/api/v2/incidents/{slow}", json=other)
    assert response.json() == {"errors": [f"Invalid 'data.id': '{fresh.ref('old')}' is not the incident in the path"]}
    assert fresh.record(INCIDENTS, slow) == before


def test_not_found_and_unstable(incidents: DatadogWorld) -> None:
    from datadog_api_client import ApiClient
    from datadog_api_client.exceptions import ApiValueError, NotFoundException
    from datadog_api_client.v2.api.incidents_api import IncidentsApi

    missing = "00000000-0000-4000-8000-000000000000"
    for method, path in [("GET", f"/api/v2/incidents/{missing}"), ("PATCH", f"/api/v2/incidents/{missing}")]:
        response = incidents.raw(method, path, json={"data": {"type": "incidents"}})
        assert response.status_code == 404 and response.json() == {"errors": ["Not found"]}
    client = api(incidents)
    with client.api_client, pytest.raises(NotFoundException):
        client.get_incident(missing)
    with ApiClient(incidents.configuration()) as plain, pytest.raises(ApiValueError):
        IncidentsApi(plain).list_incidents()
    bad = incidents.raw("GET", "/api/v2/incidents", params={"include": "teams"})
    assert bad.status_code == 400
    assert bad.json() == {"errors": ["The value provided for parameter 'include' is invalid"]}


def failure(incidents: str) -> SpecError:
    head = 'name: g\ntask: t\nclock: {start: "2026-03-02T14:00:00Z"}\nseed:\n  datadog:\n    incidents:\n'
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene_text(head + incidents))
    return caught.value


def test_seed_errors() -> None:
    error = failure("      - {title: a, public_id: 3}\n      - {title: b, public_id: 3}\n")
    assert (
        error.message == "public_id 3 is used by another incident"
        and error.field == "seed.datadog.incidents[1].public_id"
    )
    error = failure("      - {title: a, resolved_after: 1h}\n")
    assert error.message == "resolved_after is for resolved incidents"
    error = failure("      - {title: a, fields: {state: {value: active}}}\n")
    assert error.message == "give state as the incident's own field, not under fields"
    error = failure("      - {title: a, commander: $nobody}\n")
    assert error.message.startswith("unknown ref $nobody") and error.field == "seed.datadog.incidents[0].commander"
    error = failure("      - {title: a, severity: SEV-9}\n")
    assert error.field == "seed.datadog.incidents[0].severity"
