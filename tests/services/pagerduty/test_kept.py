"""Incidents a listing renders by default are kept (`kept`) and shown afresh once anything they are made of
changes: the incident, or a record it names."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.pagerduty import kept
from soundstage.services.pagerduty.store import INCIDENTS, SERVICES

from .conftest import PagerDutyWorld
from .incident_scene import INCIDENT_SCENE


@pytest.fixture
def pdw(stage: Any) -> PagerDutyWorld:
    return PagerDutyWorld(stage.world(INCIDENT_SCENE))


def _listed(pd: PagerDutyWorld, forget: bool = False) -> list[dict[str, Any]]:
    if forget:
        kept._kept.found.clear()
    answer = pd.raw("GET", "/incidents", params={"date_range": "all"})
    assert answer.status_code == 200
    return answer.json()["incidents"]


def test_a_kept_listing_is_what_a_fresh_one_renders(pdw: PagerDutyWorld) -> None:
    fresh = _listed(pdw, forget=True)
    assert [i["incident_number"] for i in fresh] == [1, 2, 3, 4]
    assert _listed(pdw) == fresh
    # Whole objects are never kept: the same incidents with `include[]` come as PagerDuty expands them.
    whole = pdw.raw("GET", "/incidents", params={"date_range": "all", "include[]": "services"}).json()
    assert whole["incidents"][0]["service"]["type"] == "service"
    assert fresh[0]["service"]["type"] == "service_reference"


def test_a_change_to_a_named_record_shows_at_once(pdw: PagerDutyWorld) -> None:
    before = _listed(pdw)
    orders = pdw.ref("orders_svc")
    pdw.live.world[SERVICES].change(orders, name="Orders API (renamed)")
    after = _listed(pdw)
    assert {i["service"]["summary"] for i in before if i["service"]["id"] == orders} == {"Orders API"}
    assert {i["service"]["summary"] for i in after if i["service"]["id"] == orders} == {"Orders API (renamed)"}
    assert after == _listed(pdw, forget=True)


def test_a_change_to_an_incident_shows_at_once(pdw: PagerDutyWorld) -> None:
    _listed(pdw)
    fresh = pdw.ref("fresh")
    acknowledged = pdw.raw(
        "PUT",
        f"/incidents/{fresh}",
        headers={"From": pdw.email},
        json={"incident": {"type": "incident_reference", "status": "acknowledged"}},
    )
    assert acknowledged.status_code == 200
    after = _listed(pdw)
    assert [i["status"] for i in after if i["id"] == fresh] == ["acknowledged"]
    assert pdw.live.world[INCIDENTS].get(fresh)["status"] == "acknowledged"
    assert after == _listed(pdw, forget=True)


def test_worlds_of_one_image_keep_their_own_links(stage: Any) -> None:
    first, second = PagerDutyWorld(stage.world(INCIDENT_SCENE)), PagerDutyWorld(stage.world(INCIDENT_SCENE))
    a, b = _listed(first), _listed(second)
    assert a[0]["self"].startswith(first.url) and b[0]["self"].startswith(second.url)
    assert first.url != second.url
