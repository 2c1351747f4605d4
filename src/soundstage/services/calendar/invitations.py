"""The world's people answering the agent's invitations (services/invitations.py): an event's attendees, their
busy events at its time, their answer on the event (the one record the organizer's calendar and theirs show).
A recurring event is answered by its first occurrence."""

from __future__ import annotations

from ...world import Record, World
from ..google import accounts
from ..google.service import GoogleService
from ..invitations import Invitation
from . import calendars, events
from .store import CALENDARS, EVENTS


class CalendarInvitations:
    service = "calendar"
    collection = EVENTS

    def address(self, world: World, person: str) -> str | None:
        return accounts.email_of(world.settings, person)

    def invited(self, world: World, record_id: str) -> list[Invitation]:
        """Whom the event invites, when the agent may change it (an attendee's write on another's event is their
        own answer, which invites nobody)."""
        event = world[EVENTS].get(record_id)
        if event is None or event["status"] == "cancelled" or event["imported"]:
            return []
        agent = accounts.email_of(world.settings, world.agent.get(GoogleService.agent_user))
        entry = calendars.entry(world, agent, event["calendar"]) if agent is not None else None
        if entry is None or entry["accessRole"] not in ("writer", "owner"):
            return []
        hosts = (event["organizer"], event["creator"])
        return [
            Invitation(record_id, event["eventId"], event["sequence"], a["email"], event["organizer"])
            for a in event["attendees"]
            if a["email"] not in hosts
        ]

    def stands(self, world: World, invitation: Invitation) -> bool:
        return invitation in self.invited(world, invitation.record)

    def when(self, world: World, invitation: Invitation) -> tuple[int, int, str] | None:
        event = world[EVENTS].one(invitation.record)
        if "date" in event["start"]:
            return None
        return event["startAt"], event["endAt"], str(world[CALENDARS].one(invitation.address)["timeZone"])

    def conflict(self, world: World, invitation: Invitation) -> str | None:
        """The first event found (calendar by calendar, by id; in start order on each) on a calendar the person owns
        that overlaps the invitation's and keeps them busy, but for invitations they have not answered yet: the
        invitation itself, and its series, aside."""
        event = world[EVENTS].one(invitation.record)
        itself = {event["eventId"], event["recurringEventId"]} - {None}
        for calendar in sorted(world[CALENDARS].by("owner", invitation.address), key=lambda c: c["id"]):
            shown = events.on(world, calendar["id"])
            for other in events.expanded(world, shown, calendar["timeZone"], event["startAt"], event["endAt"]):
                if itself.isdisjoint((other["eventId"], other["recurringEventId"])) and _keeps(
                    other, invitation.address
                ):
                    return str(other["eventId"])
        return None

    def answer(self, world: World, invitation: Invitation, response: str) -> None:
        event = world[EVENTS].one(invitation.record)
        attendees = [
            {**a, "responseStatus": response} if a["email"] == invitation.address else a for a in event["attendees"]
        ]
        events.change(world, event, {"attendees": attendees})


def _keeps(event: Record, address: str) -> bool:
    """Whether an event keeps `address` from another at its time: busy, and not an invitation still unanswered."""
    unanswered = any(a["email"] == address and a["responseStatus"] == "needsAction" for a in event["attendees"])
    return events.busy(event, address) and not unanswered
