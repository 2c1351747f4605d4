"""The mailbox itself (`users.*`)."""

from __future__ import annotations

from typing import Any

from .calls import Call, ops
from .store import MESSAGES


@ops("GET /gmail/v1/users/{userId}/profile")
def users_get_profile(call: Call) -> Any:
    """users.getProfile: the address, its message and thread counts (drafts, spam and trash left out, as
    Gmail counts), its history id."""
    mailbox = call.mailbox()
    held = [
        m for m in call.world[MESSAGES].by("mailbox", call.me) if not {"DRAFT", "SPAM", "TRASH"} & set(m["labelIds"])
    ]
    return {
        "emailAddress": mailbox["emailAddress"],
        "messagesTotal": len(held),
        "threadsTotal": len({m["threadId"] for m in held}),
        "historyId": str(mailbox["historyId"]),
    }
