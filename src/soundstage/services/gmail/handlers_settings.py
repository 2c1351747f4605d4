"""The mailbox's settings (`users.settings.*`): its send-as addresses."""

from __future__ import annotations

from typing import Any

from .calls import Call, ops
from .errors import not_found


def own_address(call: Call) -> dict[str, Any]:
    """The account's own address as its send-as entry: the primary one and the default, with the person's name;
    no reply-to and no signature (the world gives none)."""
    mailbox = call.mailbox()
    return {
        "sendAsEmail": mailbox["emailAddress"],
        "displayName": call.name,
        "replyToAddress": "",
        "signature": "",
        "isPrimary": True,
        "isDefault": True,
    }


@ops("GET /gmail/v1/users/{userId}/settings/sendAs")
def settings_send_as_list(call: Call) -> Any:
    """users.settings.sendAs.list: the account's addresses to send from (its own only: no aliases here)."""
    return {"sendAs": [own_address(call)]}


@ops("GET /gmail/v1/users/{userId}/settings/sendAs/{sendAsEmail}")
def settings_send_as_get(call: Call) -> Any:
    """users.settings.sendAs.get: one of them, by its address (case aside); Gmail's 404 for any other."""
    entry = own_address(call)
    if call.params["sendAsEmail"].lower() != entry["sendAsEmail"].lower():
        raise not_found()
    return entry
