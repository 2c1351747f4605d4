"""What the people engine asks of a service whose records invite people (Calendar's events), so that people
answer invitations without the engine knowing the service: a service offers an `Invitations` as its
`invitations` member (services/base.py), and the engine calls it for the writes of its `collection`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..world import World


@dataclass(frozen=True)
class Invitation:
    """One person invited by one revision of a record: answered once; a new revision is answered again."""

    record: str  # the inviting record's id in the service's collection
    event: str  # what logs and checks name it by (Calendar: the event id)
    revision: int  # Calendar: the event's `sequence`, which counts changes of its times
    address: str  # whom it invites
    by: str  # who invites them (the organizer)


class Invitations(Protocol):
    service: str  # the service's name, as `answered` events give it
    collection: str  # the collection whose writes may invite

    def address(self, world: World, person: str) -> str | None:
        """The address of a person of the world, named by one of their records' ids (their Slack user)."""

    def invited(self, world: World, record_id: str) -> list[Invitation]:
        """Whom the record invites now, as a write of the agent's may have made it: none once it is gone or
        cancelled, or when the agent may not change it; never its organizer or creator."""

    def conflict(self, world: World, invitation: Invitation) -> str | None:
        """What keeps the person from coming (Calendar: the id of a busy event of theirs at that time), or None;
        only for an invitation that still `stands`."""

    def when(self, world: World, invitation: Invitation) -> tuple[int, int, str] | None:
        """Its start and end (epoch µs) and the invited person's time zone; None for an all-day event."""

    def stands(self, world: World, invitation: Invitation) -> bool:
        """Whether the invitation is still as it was made (not cancelled, the person invited, the same revision)."""

    def answer(self, world: World, invitation: Invitation, response: str) -> None:
        """Writes the person's answer (`accepted`, `tentative`, `declined`) where the service shows it."""
