"""Escalation policies: `GET /escalation_policies` and `GET /escalation_policies/{id}`."""

from __future__ import annotations

from typing import Any

from ...world import Record
from .calls import Call, by_name, by_name_descending, listed, ops, paginate, text
from .errors import not_found
from .store import ESCALATION_POLICIES, SCHEDULES
from .views_directory import policy_view


def _user_ids(call: Call, policy: Record) -> set[str]:
    """Everyone the policy can reach: its user targets and the users of its schedules' layers."""
    users: set[str] = set()
    for rule in policy["escalation_rules"]:
        for target in rule["targets"]:
            if target["type"] == "user":
                users.add(target["id"])
                continue
            schedule = call.world[SCHEDULES].get(target["id"])
            if schedule is not None:
                users.update(u for layer in schedule["schedule_layers"] for u in layer["users"])
    return users


@ops("GET /escalation_policies")
def escalation_policies_list(call: Call) -> dict[str, Any]:
    include = listed(call, "include")
    descending = by_name_descending(call)
    policies = by_name(call.world[ESCALATION_POLICIES], text(call, "query"), "name")
    users, teams = set(listed(call, "user_ids")), set(listed(call, "team_ids"))
    if users:
        policies = [p for p in policies if users & _user_ids(call, p)]
    if teams:
        policies = [p for p in policies if teams.intersection(p["teams"])]
    if descending:
        policies.reverse()
    return paginate(call, "escalation_policies", policies, lambda p: policy_view(call, p, include))


@ops("GET /escalation_policies/{id}")
def escalation_policies_get(call: Call) -> dict[str, Any]:
    policy = call.world[ESCALATION_POLICIES].get(call.params["id"])
    if policy is None:
        raise not_found()
    return {"escalation_policy": policy_view(call, policy, listed(call, "include"))}
