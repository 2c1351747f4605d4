"""Gmail's request conventions: operations registered as `"METHOD /gmail/v1/users/{userId}/..."` on `ops`, each
called with a `Call`; the mailbox a path's `userId` names (`me`, or the caller's own address)."""

from __future__ import annotations

from dataclasses import dataclass

from ...world import Record
from ..base import Operations
from ..google.calls import GoogleCall
from ..google.errors import GoogleError
from .store import MAILBOXES

ops = Operations("gmail")


@dataclass
class Call(GoogleCall):
    def mailbox(self) -> Record:
        """The caller's mailbox, which `userId` names as `me` or by its address; another's is Gmail's 403."""
        given = self.params["userId"]
        if given != "me" and given.lower() != self.me:
            raise GoogleError(403, "forbidden", f"Delegation denied for {self.me}")
        return self.world[MAILBOXES].one(self.me)
