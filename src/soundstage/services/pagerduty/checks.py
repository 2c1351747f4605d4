"""PagerDuty's state checks: `pagerduty.incident`.

It reads records only (a saved trial has nothing else): `pagerduty.incidents` (`id`, `incident_number`,
`title`, `service`, `status`, `urgency`, `priority`, `assignments[].assignee`, `created_at` and
`resolved_at` in epoch µs), `pagerduty.log_entries` (`incident`, `type`, `created_at`), for when an
incident was first acknowledged, and `pagerduty.users` (`email`, `name`), for assignees given by email.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import model_validator

from ...clock import parse_duration, parse_time
from ...grading.attempt import Attempt, Record
from ...grading.conditions import Condition, closest, contains, field_is, matching, misses, wants
from ...grading.kinds import Counted, state_check
from ...grading.outcome import Outcome
from ...grading.values import Case
from ...grading.words import count, listing, show, some, span
from ...spec.fields import Duration
from .store import INCIDENTS, LOG_ENTRIES, USERS, assignee_ids


class IncidentArgs(Counted):
    """`incident` names one incident (a ref, an id or its number); otherwise every incident matching
    `service` and `title_contains` counts, and `count` / `count_gte` (default at least one) say how many
    must meet the other fields.

    `assignees` are exactly the users assigned now (refs, ids or emails; `[]` for nobody, as a resolved
    incident is). `acknowledged_within` / `resolved_within` are simulated durations counted from the
    incident's creation, or from the attempt's start for an incident that existed before it: only what
    happened since counts, so an incident acknowledged before the start must be acknowledged again.
    Resolving an incident without acknowledging it first meets `acknowledged_within` too.
    """

    incident: str | None = None
    service: str | None = None
    title_contains: str | None = None
    ignore_case: bool | None = None  # false: `title_contains` is exact in case
    status: Literal["triggered", "acknowledged", "resolved"] | None = None
    assignees: list[str] | None = None
    urgency: Literal["high", "low"] | None = None
    acknowledged_within: Duration | None = None
    resolved_within: Duration | None = None

    @model_validator(mode="after")
    def _consistent(self) -> IncidentArgs:
        if self.incident is not None and (self.count is not None or self.count_gte is not None):
            raise ValueError(
                "count and count_gte apply to the incidents matching service/title_contains, not to one incident"
            )
        return self


def _start(attempt: Attempt) -> int | None:
    start = next(iter(attempt.of_kind("start")), None)
    return parse_time(start.t) if start is not None else None


def _names(attempt: Attempt, user_ids: list[str]) -> list[str]:
    users = attempt.index(USERS, "id")
    named = []
    for user_id in user_ids:
        found = users.get(user_id)
        named.append(str(found[0].get("name")) if found else user_id)
    return named


def _user_id(attempt: Attempt, value: str) -> str:
    """A user id, or the id of the user with that email."""
    if "@" in value:
        found = attempt.index(USERS, "email").get(value)
        if found:
            return str(found[0].get("id"))
    return value


class _Moments:
    """When each incident was first acknowledged (or resolved) and resolved, counted from its base."""

    def __init__(self, attempt: Attempt) -> None:
        self.attempt = attempt
        self.start = _start(attempt)

    def base(self, incident: Any) -> int:
        created = int(incident.get("created_at") or 0)
        return max(created, self.start) if self.start is not None else created

    def acknowledged(self, incident: Any) -> int | None:
        base = self.base(incident)
        entries = self.attempt.index(LOG_ENTRIES, "incident").get(incident.get("id"), [])
        times = [
            int(e["created_at"])
            for e in entries
            if e.get("type") in ("acknowledge_log_entry", "resolve_log_entry") and int(e["created_at"]) >= base
        ]
        return min(times) - base if times else None

    def resolved(self, incident: Any) -> int | None:
        base = self.base(incident)
        at = incident.get("resolved_at")
        return int(at) - base if incident.get("status") == "resolved" and at is not None and at >= base else None


def _within(name: str, limit: str, took: Callable[[Any], int | None]) -> Condition[Any]:
    limit_us = parse_duration(limit)

    def meets(incident: Any) -> bool:
        elapsed = took(incident)
        return elapsed is not None and elapsed <= limit_us

    def instead(incident: Any) -> str:
        elapsed = took(incident)
        return f"it was not {name} since" if elapsed is None else f"it was {name} after {span(elapsed)}"

    return Condition(f"{name} within {limit}", meets, instead)


def _conditions(args: IncidentArgs, attempt: Attempt) -> list[Condition[Any]]:
    label = attempt.label
    said: list[Condition[Any]] = []
    if args.service is not None:
        said.append(field_is(lambda i: i.get("service"), args.service, lambda s: f"on {label(s)}"))
    if args.title_contains is not None:
        said.append(contains("title", lambda i: i.get("title"), args.title_contains, Case(args.ignore_case)))
    if args.status is not None:
        said.append(field_is(lambda i: i.get("status"), args.status, str))
    if args.urgency is not None:
        said.append(
            field_is(
                lambda i: i.get("urgency"), args.urgency, lambda u: f"{u} urgency", lambda u: f"its urgency is {u}"
            )
        )
    if args.assignees is not None:
        want = {_user_id(attempt, a) for a in args.assignees}
        wanted = listing(_names(attempt, sorted(want))) if want else "nobody"
        said.append(
            Condition(
                f"assigned to exactly {wanted}",
                lambda i: set(assignee_ids(i)) == want,
                lambda i: (
                    f"it is assigned to {listing(_names(attempt, assignee_ids(i))) if assignee_ids(i) else 'nobody'}"
                ),
            )
        )
    moments = _Moments(attempt)
    if args.acknowledged_within is not None:
        said.append(_within("acknowledged", args.acknowledged_within, moments.acknowledged))
    if args.resolved_within is not None:
        said.append(_within("resolved", args.resolved_within, moments.resolved))
    return said


def _name(incident: Any) -> str:
    return f"#{incident.get('incident_number')} {incident.get('id')} ({show(incident.get('title', ''), 60)})"


def _one(attempt: Attempt, key: str) -> Record | None:
    found = attempt.index(INCIDENTS, "id").get(key)
    if not found and key.isascii() and key.isdigit():  # "²".isdigit(), but int("²") fails
        found = attempt.index(INCIDENTS, "incident_number").get(int(key))
    return found[0] if found else None


@state_check("pagerduty.incident", IncidentArgs)
def incident(args: IncidentArgs, attempt: Attempt) -> Outcome:
    conditions = _conditions(args, attempt)
    if args.incident is not None:
        expected = " ".join([f"incident {attempt.label(args.incident)}", wants(conditions)]).strip()
        record = _one(attempt, args.incident)
        if record is None:
            return Outcome(False, expected, f"there is no incident {attempt.label(args.incident)}")
        lacks = misses(record, conditions)
        seqs = attempt.record_evidence(INCIDENTS, record)
        if lacks:
            return Outcome(False, expected, f"{_name(record)}: {listing(lacks)}", seqs)
        return Outcome(True, expected, f"{_name(record)} is {record.get('status')}", seqs)
    wanted = args.how_many("incident")
    expected = " ".join([wanted, wants(conditions)]).strip()
    incidents: Sequence[Any] = (
        attempt.index(INCIDENTS, "service").get(args.service, [])
        if args.service is not None
        else attempt.records(INCIDENTS)
    )
    matched = matching(incidents, conditions)
    n = len(matched)
    passed = args.enough(n)
    if matched:
        found = f"{count(n, 'incident')} matched: {some(matched, n, _name)}"
        return Outcome(passed, expected, found, attempt.evidence(INCIDENTS, matched))
    if not incidents:
        where = f" on {attempt.label(args.service)}" if args.service is not None else ""
        return Outcome(passed, expected, f"there are no incidents{where}")
    near = closest(incidents, conditions)
    nearest = f"closest: {_name(near)}, but {listing(misses(near, conditions))}"
    actual = f"none of {count(len(incidents), 'incident')} matched; {nearest}"
    return Outcome(passed, expected, actual, attempt.record_evidence(INCIDENTS, near))
