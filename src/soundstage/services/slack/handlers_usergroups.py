"""Slack's usergroups.* methods: the workspace's user groups (@handles)."""

from __future__ import annotations

from typing import Any

from . import store, views
from .calls import Call, ops


@ops("usergroups.list")
def usergroups_list(call: Call) -> dict[str, Any]:
    users = call.args.flag("include_users")
    counts = call.args.flag("include_count")
    disabled = call.args.flag("include_disabled")
    groups = [
        views.usergroup(group, users=users, counts=counts)
        for group in call.world[store.USERGROUPS]
        if disabled or not group["date_delete"]
    ]
    return {"usergroups": groups}
