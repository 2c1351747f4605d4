"""The mailbox itself (`users.*`)."""

from __future__ import annotations

from typing import Any

from .calls import Call, ops


@ops("GET /gmail/v1/users/{userId}/profile")
def users_get_profile(call: Call) -> Any:
    """users.getProfile: the address, its message and thread counts, its history id."""
    mailbox = call.mailbox()
    return {
        "emailAddress": mailbox["emailAddress"],
        "messagesTotal": 0,
        "threadsTotal": 0,
        "historyId": str(mailbox["historyId"]),
    }
