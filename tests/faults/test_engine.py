"""Faults on a live world: active from the start, each effect seen through the official clients, resolved by
an agent's merge (with `fault_resolved` right after the merge's writes), recovered `recover_after` later,
started again by a new bad deploy, and the same calls giving the same events."""

from __future__ import annotations

from typing import Any

from .conftest import FaultWorld


def test_an_active_fault_applies_its_effects_at_the_start(faulty: FaultWorld) -> None:
    events = faulty.live.events()
    assert [(e["seq"], e["kind"], e["t"]) for e in events[:2]] == [
        (1, "start", "2026-03-02T14:00:00Z"),
        (2, "fault_started", "2026-03-02T14:00:00Z"),
    ]
    assert events[1]["fault"] == "bad_deploy"
    assert faulty.monitor_state() == "Alert"
    (incident,) = faulty.open_incidents()
    assert (incident["title"], incident["urgency"], incident["status"], incident["created_at"]) == (
        "Orders p99 latency above 800ms",
        "high",
        "triggered",
        "2026-03-02T14:00:00Z",
    )
    assert incident["service"]["id"] == faulty.ref("orders_svc")
    assert [a["assignee"]["id"] for a in incident["assignments"]] != []
    alerts = faulty.pagerduty().list_all(f"incidents/{incident['id']}/alerts")
    assert [(a["summary"], a["status"]) for a in alerts] == [("Orders p99 latency above 800ms", "triggered")]


def test_the_metric_reads_the_faulty_value(faulty: FaultWorld) -> None:
    from datadog_api_client import ApiClient, Configuration
    from datadog_api_client.v1.api.metrics_api import MetricsApi

    faulty.live.advance("3m")
    keys = {"apiKeyAuth": faulty.env["DD_API_KEY"], "appKeyAuth": faulty.env["DD_APP_KEY"]}
    with ApiClient(Configuration(host=faulty.env["DATADOG_API_URL"], api_key=keys)) as client:
        answer = MetricsApi(client).query_metrics(
            _from=1772460000, to=1772460180, query="max:orders.latency.p99{service:orders}"
        )
    values = [value for _, value in answer.to_dict()["series"][0]["pointlist"]]
    assert values and set(values) == {2400.0}


def test_start_effects_never_count_against_the_agent(faulty: FaultWorld) -> None:
    checks = faulty.checks()
    assert (checks["no_writes"]["passed"], checks["no_changes"]["passed"]) == (True, True)
    assert faulty.live.diff() == {}
    assert (checks["resolved"]["passed"], checks["resolved"]["actual"]) == (
        False,
        "it is still active, since 2026-03-02T14:00:00Z",
    )


def test_a_merge_that_deploys_the_fix_resolves_the_fault(faulty: FaultWorld) -> None:
    merge = faulty.merge_fix()
    writes = [e for e in faulty.live.events(merge) if e["kind"] == "write" and e["by"] == merge]
    resolved = [e for e in faulty.live.events(merge) if e["kind"] == "fault_resolved"]
    assert [(e["seq"], e["fault"]) for e in resolved] == [(merge + len(writes) + 1, "bad_deploy")]
    assert faulty.monitor_state() == "Alert"  # the monitor lags the cause by recover_after
    faulty.live.advance("1m")
    assert faulty.monitor_state() == "Alert"
    faulty.live.advance("1m")
    # Released at 14:02:10 (resolved at 14:00:10, after the merge), the monitor follows its metrics: its
    # 5-minute window still holds the spike.
    assert faulty.monitor_state() == "Warn"
    faulty.live.advance("3m")
    assert faulty.monitor_state() == "OK"
    monitor = faulty.ref("latency")
    writes = [e for e in faulty.live.events(merge) if e["kind"] == "write" and e["id"] == monitor]
    assert [(e["t"], e["by"]) for e in writes] == [("2026-03-02T14:02:10Z", None), ("2026-03-02T14:05:00Z", None)]
    (incident,) = faulty.open_incidents()  # resolving the page is the agent's job
    assert incident["status"] == "triggered"
    result = faulty.checks()["resolved"]
    assert (result["passed"], result["evidence"]) == (True, [resolved[0]["seq"]])


def test_people_speak_when_the_fault_is_resolved(faulty: FaultWorld) -> None:
    merge = faulty.merge_fix()
    faulty.live.advance("5s")
    scripts = [e for e in faulty.live.events(merge) if e["kind"] == "script"]
    assert [(s["person"], s["channel"], s["text"], s["trigger"]) for s in scripts] == [
        (faulty.ref("maya"), faulty.ref("incidents"), "Latency is back to normal, thanks.", "fault_resolved bad_deploy")
    ]


def test_a_new_bad_deploy_starts_the_fault_again(faulty: FaultWorld) -> None:
    merge = faulty.merge_fix()
    faulty.live.advance("6m")
    assert faulty.monitor_state() == "OK"
    response = faulty.github(
        "POST",
        "/repos/acme/orders/deployments",
        json={"ref": faulty.ref("bad_commit"), "environment": "production", "required_contexts": []},
    )
    assert response.status_code == 201, response.text
    kinds = [(kind, fault) for _, kind, _, fault in faulty.faults(merge)]
    assert kinds == [("fault_resolved", "bad_deploy"), ("fault_started", "bad_deploy")]
    assert faulty.monitor_state() == "Alert"
    (incident,) = faulty.open_incidents()  # the page still open gets a second alert, not a second page
    alerts = faulty.pagerduty().list_all(f"incidents/{incident['id']}/alerts")
    assert len(alerts) == 2
    assert faulty.checks()["resolved"]["passed"] is False


def test_a_fault_started_again_before_recovery_calls_the_recovery_off(faulty: FaultWorld) -> None:
    merge = faulty.merge_fix()
    response = faulty.github(
        "POST",
        "/repos/acme/orders/deployments",
        json={"ref": faulty.ref("bad_commit"), "environment": "production", "required_contexts": []},
    )
    assert response.status_code == 201, response.text
    faulty.live.advance("5m")
    assert faulty.monitor_state() == "Alert"
    monitor = faulty.ref("latency")
    assert [e for e in faulty.live.events(merge) if e["kind"] == "write" and e["id"] == monitor] == []
    assert [kind for _, kind, _, _ in faulty.faults(merge)] == ["fault_resolved", "fault_started"]


def _run(faulty: FaultWorld) -> list[dict[str, Any]]:
    faulty.merge_fix()
    faulty.live.advance("3m")
    return [{k: v for k, v in e.items() if k not in ("response",)} for e in faulty.live.events()]


def test_the_same_calls_give_the_same_events(stage: Any) -> None:
    from .conftest import SCENE

    first, second = (_run(FaultWorld(stage.world(SCENE))) for _ in range(2))
    assert first == second
