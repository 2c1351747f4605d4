"""The names of a trial's records by id (results/names.py), as each service names its own."""

from __future__ import annotations

from typing import Any

from soundstage.results import record_names


def test_every_service_names_its_records_in_the_acme_world(stage: Any) -> None:
    world = stage.world(scene="refund-approval")
    client = world.slack()
    dm = client.conversations_open(users="UABCKEY8XNC")["channel"]["id"]
    names = record_names(world.world.state(), {})
    assert {key: names[key] for key in ("UABCKEY8XNC", "S1FKZGRL7K8", "C2FJSP4FLTM", dm)} == {
        "UABCKEY8XNC": "@maya",
        "S1FKZGRL7K8": "@oncall",
        "C2FJSP4FLTM": "#support",
        dm: "DM with @maya",
    }
    github = ("90000002", "700000001", "210000002", "13000000002", "38000000001", "14000001")
    assert [names[key] for key in github] == [
        "maya",
        "acme/orders",
        "1.4.0",
        "Key the totals cache by order id",
        "build",
        "1.5.0",
    ]
    assert names["MDExOlB1bGxSZXF1ZXN0MjgwMDAwMDAwMQ=="] == "acme/orders#4: Key the totals cache by order id"
    datadog = ("1000001", "ord-api-ovw", "b50f25f4ee66d0ad47ce178d4163b0eb", "fc722d46-5967-4472-a291-0480053580c6")
    assert [names[key] for key in datadog] == [
        "Orders p99 latency",
        "Orders API overview",
        "Orders API latency",
        "Maya Chen",
    ]
    pagerduty = ("PELK58X", "PD8KSAJ", "PL5GQHN", "P0LWZHC", "PVNAGVG", "PLEJBMS", "PQB0LRS")
    assert [names[key] for key in pagerduty] == [
        "Maya Chen",
        "Orders",
        "Orders API",
        "Orders API",
        "Orders primary",
        "P1",
        "Orders p99 latency above 800ms",
    ]
    assert "1772459100.000100" not in names  # a message has no name: its ts is only an id


def test_a_record_removed_on_the_way_keeps_its_name_and_a_renamed_one_has_its_last() -> None:
    state = {
        "slack.channels": [{"id": "C1", "name": "incident-2", "is_im": False}],
        "slack.users": [{"id": "U1", "name": "maya"}],
        "datadog.monitors": [{"id": 7, "name": ""}],  # no name: left out
    }
    diff = {
        "slack.channels": {
            "removed": [{"id": "C0", "name": "old"}, {"id": "D1", "is_im": True, "user": "U9"}],
            "changed": [{"id": "C1", "changes": {"name": {"from": "incident", "to": "incident-2"}}}],
        }
    }
    assert record_names(state, diff) == {"C0": "#old", "D1": "DM with U9", "U1": "@maya", "C1": "#incident-2"}
