"""Labels (`users.labels.*`)."""

from __future__ import annotations

from typing import Any

from . import labels
from .calls import Call, ops
from .views import label


@ops("GET /gmail/v1/users/{userId}/labels")
def labels_list(call: Call) -> Any:
    """users.labels.list: every label of the mailbox, the system ones first."""
    mailbox = call.mailbox()
    return {"labels": [label(record) for record in labels.of(call.world, mailbox["id"])]}
