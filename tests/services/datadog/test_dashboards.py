"""Dashboards: `GET /api/v1/dashboard/{dashboard_id}` through datadog-api-client and raw httpx."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.errors import SpecError
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

from .conftest import DatadogWorld

SCENE = """
name: dd-dashboards
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {datadog_user: $bot_dd}
seed:
  datadog:
    users:
      - {ref: bot_dd, email: stagebot@acme.test, name: Stage Bot}
      - {ref: maya_dd, email: maya@acme.test, name: Maya Chen}
    dashboards:
      - ref: orders
        id: abc-def-ghi
        title: Orders — overview
        description: Latency and errors of the orders API
        author: $maya_dd
        tags: [team:core]
        template_variables: [{name: env, prefix: env, default: prod}]
        widgets:
          - definition:
              type: timeseries
              title: p99 latency
              requests: [{q: "avg:orders.latency.p99{$env}", display_type: line}]
          - id: 42
            definition: {type: note, content: "Runbook: https://wiki.acme.test/orders"}
      - {ref: bare, title: Scratch, layout_type: free, ago: 2d}
"""


@pytest.fixture(scope="module")
def dashboards(stage: Any) -> DatadogWorld:
    return DatadogWorld(stage.world(SCENE))


def test_sdk_get(dashboards: DatadogWorld) -> None:
    from datadog_api_client.v1.api.dashboards_api import DashboardsApi

    with dashboards.client() as client:
        dashboard = DashboardsApi(client).get_dashboard(dashboard_id="abc-def-ghi")
    assert dashboard.id == "abc-def-ghi" and dashboard.title == "Orders — overview"
    assert str(dashboard.layout_type) == "ordered" and dashboard.author_handle == "maya@acme.test"
    assert dashboard.author_name == "Maya Chen" and dashboard.tags == ["team:core"]
    assert [w.definition.type.value for w in dashboard.widgets] == ["timeseries", "note"]
    assert dashboard.widgets[0].definition.requests[0].q == "avg:orders.latency.p99{$env}"
    assert dashboard.widgets[1].id == 42 and isinstance(dashboard.widgets[0].id, int)
    assert dashboard.template_variables[0].name == "env"
    assert dashboard.created_at.isoformat() == "2026-01-31T13:59:59.607664+00:00"


def test_raw_get(dashboards: DatadogWorld) -> None:
    response = dashboards.raw("GET", f"/api/v1/dashboard/{dashboards.ref('bare')}")
    assert response.status_code == 200
    body = response.json()
    assert body == {
        "id": dashboards.ref("bare"),
        "title": "Scratch",
        "description": None,
        "layout_type": "free",
        "widgets": [],
        "tags": None,
        "template_variables": [],
        "template_variable_presets": [],
        "notify_list": [],
        "restricted_roles": [],
        "is_read_only": False,
        "experience_type": "default",
        "url": f"/dashboard/{dashboards.ref('bare')}/scratch",
        "created_at": "2026-02-28T13:59:59.253612+00:00",
        "modified_at": "2026-02-28T13:59:59.253612+00:00",
    }
    assert (
        dashboards.raw("GET", "/api/v1/dashboard/abc-def-ghi").json()["url"] == "/dashboard/abc-def-ghi/orders-overview"
    )


def test_not_found(dashboards: DatadogWorld) -> None:
    from datadog_api_client.exceptions import NotFoundException
    from datadog_api_client.v1.api.dashboards_api import DashboardsApi

    response = dashboards.raw("GET", "/api/v1/dashboard/zzz-zzz-zzz")
    assert response.status_code == 404
    assert response.json() == {"errors": ["Dashboard with ID zzz-zzz-zzz not found"]}
    with dashboards.client() as client, pytest.raises(NotFoundException) as caught:
        DashboardsApi(client).get_dashboard(dashboard_id="zzz-zzz-zzz")
    assert caught.value.body == {"errors": ["Dashboard with ID zzz-zzz-zzz not found"]}


def test_seed_errors() -> None:
    head = 'name: g\ntask: t\nclock: {start: "2026-03-02T14:00:00Z"}\nseed:\n  datadog:\n    dashboards:\n'
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene_text(head + "      - {title: t, id: ABC}\n"))
    assert caught.value.field == "seed.datadog.dashboards[0].id"
    with pytest.raises(SpecError) as caught:
        build_image(
            *read_scene_text(head + "      - {title: a, id: abc-def-ghi}\n      - {title: b, id: abc-def-ghi}\n")
        )
    assert caught.value.message == "id abc-def-ghi is used twice"
    assert caught.value.field == "seed.datadog.dashboards[1].id"
