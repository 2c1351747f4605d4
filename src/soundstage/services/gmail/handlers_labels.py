"""Labels (`users.labels.*`)."""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..base import Reply
from . import filters, labels, messages
from .calls import Call, ops
from .errors import invalid_argument, label_conflict
from .store import LABELS, MESSAGES
from .views import label

VISIBILITY = {
    "messageListVisibility": ("show", "hide"),
    "labelListVisibility": ("labelShow", "labelShowIfUnread", "labelHide"),
}


@ops("GET /gmail/v1/users/{userId}/labels")
def labels_list(call: Call) -> Any:
    """users.labels.list: every label of the mailbox, the system ones first."""
    mailbox = call.mailbox()
    return {"labels": [label(record) for record in labels.of(call.world, mailbox["id"])]}


def found(call: Call) -> Record:
    return call.owned(labels.get)


@ops("GET /gmail/v1/users/{userId}/labels/{id}")
def labels_get(call: Call) -> Any:
    """users.labels.get: the label with its message and thread counts."""
    record = found(call)
    return label(record, labels.counts(call.world, call.me, record["label"]))


def fields(call: Call, whole: bool, record: Record | None = None) -> dict[str, Any]:
    """The label fields of the body, checked; `whole` (create, update): the name is required."""
    body = call.fields
    given: dict[str, Any] = {}
    name = call.string(body, "name")
    if name is not None or whole:
        name = (name or "").strip()
        if not name:
            raise invalid_argument("Invalid label name")
        taken = labels.named(call.world, call.me, name)
        if (taken is not None and taken is not record) or name.upper() in labels.SYSTEM:
            raise label_conflict()
        given["name"] = name
    for key, allowed in VISIBILITY.items():
        value = body.get(key)
        if value is not None and value not in allowed:
            raise invalid_argument(f"Invalid value at 'label.{key}' ({value})")
        if value is not None or whole:
            given[key] = value
    color = body.get("color")
    if color is not None:
        if not isinstance(color, dict) or not all(
            isinstance(color.get(k), str) for k in ("textColor", "backgroundColor")
        ):
            raise invalid_argument("Label color must specify both textColor and backgroundColor")
        given["color"] = {"textColor": color["textColor"], "backgroundColor": color["backgroundColor"]}
    elif whole:
        given["color"] = None
    return given


@ops("POST /gmail/v1/users/{userId}/labels")
def labels_create(call: Call) -> Any:
    """users.labels.create: a user label; a name the mailbox has (case aside) is Gmail's 409."""
    call.mailbox()
    given = fields(call, whole=True)
    return label(labels.create(call.world, call.world.ids, call.me, given.pop("name"), given))


def changed(call: Call, whole: bool) -> Any:
    record = found(call)
    if record["type"] == "system":
        raise invalid_argument("Invalid update request")
    return label(call.world[LABELS].change(record["id"], **fields(call, whole, record)))


@ops("PATCH /gmail/v1/users/{userId}/labels/{id}")
def labels_patch(call: Call) -> Any:
    """users.labels.patch: the fields given changed."""
    return changed(call, whole=False)


@ops("PUT /gmail/v1/users/{userId}/labels/{id}")
def labels_update(call: Call) -> Any:
    """users.labels.update: the label replaced by the body (a name required)."""
    return changed(call, whole=True)


@ops("DELETE /gmail/v1/users/{userId}/labels/{id}")
def labels_delete(call: Call) -> Any:
    """users.labels.delete: a user label, taken off every message carrying it and out of every filter's action."""
    record = found(call)
    if record["type"] == "system":
        raise invalid_argument("Invalid delete request")
    for held in call.world[MESSAGES].by("mailbox", call.me):
        if record["label"] in held["labelIds"]:
            messages.relabel(call.world, held, [], [record["label"]])
    filters.forget_label(call.world, call.me, record["label"])
    call.world[LABELS].remove(record["id"])
    return Reply(204, None)
