"""Whether monitors can be deleted (`GET /api/v1/monitor/can_delete`): a monitor an SLO or a composite monitor
uses cannot. Datadog answers 409 with the same body when any of them cannot, naming where each is used in
the words of its own errors (`monitor [<id>,<name>] is referenced in slos: [<slo id>,<slo name>]`)."""

from __future__ import annotations

import re

from ...world import Record, World
from ..base import Reply
from .calls import Call, invalid, ops
from .store import MONITORS, SLOS

_MONITOR_ID = re.compile(r"\b\d+\b")


def uses(world: World, monitor: Record) -> list[str]:
    """Where a monitor is used: the SLOs naming it, then the composite monitors whose query does."""
    label = f"monitor [{monitor['id']},{monitor['name']}]"
    found = [
        f"{label} is referenced in slos: [{slo['id']},{slo['name']}]"
        for slo in world[SLOS]
        if monitor["id"] in slo["monitor_ids"]
    ]
    found += [
        f"{label} is referenced in composite monitors: [{other['id']},{other['name']}]"
        for other in world[MONITORS]
        if other["type"] == "composite" and str(monitor["id"]) in _MONITOR_ID.findall(other["query"])
    ]
    return found


@ops("GET /api/v1/monitor/can_delete")
def check_can_delete_monitor(call: Call) -> Reply:
    given = call.csv("monitor_ids")
    if not given or not all(i.isascii() and i.isdigit() and len(i) <= 19 for i in given):
        raise invalid("monitor_ids")
    ok: list[int] = []
    errors: dict[str, list[str]] = {}
    for monitor_id in dict.fromkeys(int(i) for i in given):
        record = call.world[MONITORS].get(str(monitor_id))
        used = uses(call.world, record) if record is not None else []
        if used:
            errors[str(monitor_id)] = used
        else:
            ok.append(monitor_id)
    return Reply(409 if errors else 200, {"data": {"ok": ok}, "errors": errors or None})
