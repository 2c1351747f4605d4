"""The `calendar:` section of world and scene files. Every person of the world with an email address has a
primary calendar without it; the section adds other calendars and the events on them.

A person is named by a `$ref` to any record of theirs with their address (their Slack user: `$maya`) or by the
address itself; a calendar by a person (their primary calendar) or by the `$ref` of one of `calendars`."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from ...spec.fields import Duration, Spec, Time

Role = Literal["freeBusyReader", "reader", "writer", "owner"]
Response = Literal["needsAction", "declined", "tentative", "accepted"]


class ShareSpec(Spec):
    person: str
    role: Role = "reader"


class CalendarSpec(Spec):
    ref: str | None = None
    owner: str  # a person
    summary: str
    description: str | None = None
    location: str | None = None
    time_zone: str | None = None  # an IANA zone; the owner's by default
    shared_with: list[ShareSpec] = Field(default_factory=list)


class AttendeeSpec(Spec):
    person: str  # a person, or any address
    response: Response = "needsAction"
    optional: bool = False
    comment: str | None = None


class EventSpec(Spec):
    """An event: on `calendar`, from `start` (a time with its offset, or a day alone, `2026-03-03`, for an all-day
    event) or `in` (a duration after the clock's start), to `end` or for `duration` (an hour by default; a day for
    an all-day event)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    ref: str | None = None
    calendar: str
    summary: str
    description: str | None = None
    location: str | None = None
    start: Time | None = None
    in_: Duration | None = Field(default=None, alias="in")
    end: Time | None = None
    duration: Duration | None = None
    time_zone: str | None = None  # the zone its times are read in (its `start.timeZone`)
    attendees: list[str | AttendeeSpec] = Field(default_factory=list)
    recurrence: list[str] | None = None
    status: Literal["confirmed", "cancelled"] = "confirmed"
    transparency: Literal["opaque", "transparent"] = "opaque"

    @model_validator(mode="after")
    def _when(self) -> EventSpec:
        if (self.start is None) == (self.in_ is None):
            raise ValueError("give one of start and in")
        if self.end is not None and self.duration is not None:
            raise ValueError("give end or duration, not both")
        return self


class CalendarSection(Spec):
    calendars: list[CalendarSpec] = Field(default_factory=list)
    events: list[EventSpec] = Field(default_factory=list)
