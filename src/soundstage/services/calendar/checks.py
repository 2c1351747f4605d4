"""Calendar's state check: `calendar.event`.

It reads records only (a saved trial has nothing else): `calendar.events` (`eventId`, `calendar`, `status`,
`summary`, `startAt` and `endAt` in epoch µs, `attendees[]` with `email` and `responseStatus`) and
`calendar.calendars` (a primary calendar's `owner` and `people`, the records elsewhere that are its owner), for
people named by a `$ref`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import model_validator

from ...clock import iso, parse_time
from ...grading.attempt import Attempt
from ...grading.conditions import Condition, closest, contains, field_is, matching, misses, wants
from ...grading.kinds import Counted, state_check
from ...grading.outcome import Outcome
from ...grading.values import Case
from ...grading.words import count, listing, show, some
from ...spec.fields import Time
from .store import CALENDARS, EVENTS

Response = Literal["needsAction", "declined", "tentative", "accepted"]


class EventArgs(Counted):
    """`event` names one event (a ref or its id); otherwise every event matching the other fields counts, and
    `count` / `count_gte` (default at least one) say how many must. `calendar` is a person (their primary
    calendar) or a calendar's ref or id; `attendees` must all be among the event's (people or addresses; more may
    be); `responses` gives a person's answer; `start` and `end` are instants. A cancelled event counts only for
    `status: cancelled`."""

    event: str | None = None
    calendar: str | None = None
    summary_contains: str | None = None
    ignore_case: bool | None = None
    status: Literal["confirmed", "cancelled"] = "confirmed"
    start: Time | None = None
    end: Time | None = None
    attendees: list[str] | None = None
    responses: dict[str, Response] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> EventArgs:
        if self.event is not None and (self.count is not None or self.count_gte is not None):
            raise ValueError("count and count_gte apply to the events matching the other fields, not to one event")
        return self


def address(attempt: Attempt, value: str) -> str:
    """The address a person's record id (a resolved `$ref`), a primary calendar or an address names."""
    if "@" in value:
        return value.lower()
    for calendar in attempt.records(CALENDARS):
        if value in (calendar.get("people") or ()):
            return str(calendar["owner"])
    return value


def _calendar(attempt: Attempt, value: str) -> str:
    found = attempt.index(CALENDARS, "id").get(value)
    return value if found else address(attempt, value)


def _answer(event: Any, email: str) -> str | None:
    return next((a.get("responseStatus") for a in event.get("attendees") or () if a.get("email") == email), None)


def _conditions(args: EventArgs, attempt: Attempt) -> list[Condition[Any]]:
    said: list[Condition[Any]] = [field_is(lambda e: e.get("status"), args.status, str)]
    if args.calendar is not None:
        calendar = _calendar(attempt, args.calendar)
        said.append(field_is(lambda e: e.get("calendar"), calendar, lambda c: f"on the calendar {c}"))
    if args.summary_contains is not None:
        said.append(contains("summary", lambda e: e.get("summary"), args.summary_contains, Case(args.ignore_case)))
    for name, given in (("start", args.start), ("end", args.end)):
        if given is not None:
            said.append(_at(name, parse_time(given)))
    for person in args.attendees or ():
        said.append(_invited(address(attempt, person)))
    for person, response in (args.responses or {}).items():
        said.append(_answering(address(attempt, person), response))
    return said


def _at(name: str, at: int) -> Condition[Any]:
    return Condition(
        f"{'starting' if name == 'start' else 'ending'} at {iso(at)}",
        lambda e: e.get(f"{name}At") == at,
        lambda e: f"it {name}s at {iso(int(e.get(f'{name}At') or 0))}",
    )


def _invited(email: str) -> Condition[Any]:
    return Condition(
        f"with {email} invited", lambda e: _answer(e, email) is not None, lambda e: f"{email} is not invited"
    )


def _answering(email: str, response: str) -> Condition[Any]:
    return Condition(
        f"{email} answering {response}",
        lambda e: _answer(e, email) == response,
        lambda e: f"{email}'s answer is {_answer(e, email) or 'none: not invited'}",
    )


def _name(event: Any) -> str:
    return f"{event.get('eventId')} ({show(event.get('summary') or '', 60)})"


@state_check("calendar.event", EventArgs)
def event(args: EventArgs, attempt: Attempt) -> Outcome:
    conditions = _conditions(args, attempt)
    if args.event is not None:
        expected = " ".join([f"event {attempt.label(args.event)}", wants(conditions)]).strip()
        found = attempt.index(EVENTS, "eventId").get(args.event) or []
        if not found:
            return Outcome(False, expected, f"there is no event {attempt.label(args.event)}")
        record = found[0]
        lacks = misses(record, conditions)
        seqs = attempt.record_evidence(EVENTS, record)
        if lacks:
            return Outcome(False, expected, f"{_name(record)}: {listing(lacks)}", seqs)
        return Outcome(True, expected, f"{_name(record)} is {record.get('status')}", seqs)
    expected = " ".join([args.how_many("event"), wants(conditions)]).strip()
    everything: Sequence[Any] = attempt.records(EVENTS)
    matched = matching(everything, conditions)
    passed = args.enough(len(matched))
    if matched:
        found_words = f"{count(len(matched), 'event')} matched: {some(matched, len(matched), _name)}"
        return Outcome(passed, expected, found_words, attempt.evidence(EVENTS, matched))
    if not everything:
        return Outcome(passed, expected, "there are no events")
    near = closest(everything, conditions)
    nearest = f"closest: {_name(near)}, but {listing(misses(near, conditions))}"
    actual = f"none of {count(len(everything), 'event')} matched; {nearest}"
    return Outcome(passed, expected, actual, attempt.record_evidence(EVENTS, near))
