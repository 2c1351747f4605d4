"""PagerDuty state checks: `pagerduty.incident`.

It reads records only (a saved trial has nothing else): `pagerduty.incidents` (`id`, `incident_number`,
`title`, `service`, `status`, `urgency`, `priority`, `assignments[].assignee`, `created_at` and
`resolved_at` in epoch µs), `pagerduty.log_entries` (`incident`, `type`, `created_at`), for when an
incident was first acknowledged, and `pagerduty.users` (`email`, `name`), for assignees given by email.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import NonNegativeInt, PositiveInt, field_validator, model_validator

from ..clock import parse_duration, parse_time
from .attempt import Attempt, Record
from .process import span
from .registry import Args, state_check
from .results import Outcome
from .state import evidence
from .words import at_least, count, listing, show, some

INCIDENTS = "pagerduty.incidents"
LOG_ENTRIES = "pagerduty.log_entries"
USERS = "pagerduty.users"

# What a condition says it wants, whether an incident meets it, and what the incident has instead.
Condition = tuple[str, Callable[[Any], bool], Callable[[Any], str]]


class IncidentArgs(Args):
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
    status: Literal["triggered", "acknowledged", "resolved"] | None = None
    assignees: list[str] | None = None
    urgency: Literal["high", "low"] | None = None
    acknowledged_within: str | None = None
    resolved_within: str | None = None
    count: NonNegativeInt | None = None
    count_gte: PositiveInt | None = None

    @field_validator("acknowledged_within", "resolved_within")
    @classmethod
    def _duration(cls, value: str | None) -> str | None:
        if value is not None:
            parse_duration(value)  # a ValueError says what a duration looks like
        return value

    @model_validator(mode="after")
    def _consistent(self) -> IncidentArgs:
        if self.count is not None and self.count_gte is not None:
            raise ValueError("give count or count_gte, not both")
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


def _assignees(incident: Any) -> list[str]:
    return [str(a.get("assignee")) for a in incident.get("assignments") or []]


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


def _within(name: str, limit: str, took: Callable[[Any], int | None]) -> Condition:
    limit_us = parse_duration(limit)

    def meets(incident: Any) -> bool:
        elapsed = took(incident)
        return elapsed is not None and elapsed <= limit_us

    def instead(incident: Any) -> str:
        elapsed = took(incident)
        return f"it was not {name} since" if elapsed is None else f"it was {name} after {span(elapsed)}"

    return (f"{name} within {limit}", meets, instead)


def _conditions(args: IncidentArgs, attempt: Attempt) -> list[Condition]:
    label = attempt.label
    said: list[Condition] = []
    if args.service is not None:
        service = args.service
        said.append(
            (
                f"on {label(service)}",
                lambda i: i.get("service") == service,
                lambda i: f"it is on {label(i.get('service'))}",
            )
        )
    if args.title_contains is not None:
        part = args.title_contains.casefold()
        said.append(
            (
                f"whose title contains {show(args.title_contains)}",
                lambda i: part in str(i.get("title") or "").casefold(),
                lambda i: f"its title is {show(i.get('title') or '', 60)}",
            )
        )
    if args.status is not None:
        status = args.status
        said.append((status, lambda i: i.get("status") == status, lambda i: f"it is {i.get('status')}"))
    if args.urgency is not None:
        urgency = args.urgency
        said.append(
            (
                f"{urgency} urgency",
                lambda i: i.get("urgency") == urgency,
                lambda i: f"its urgency is {i.get('urgency')}",
            )
        )
    if args.assignees is not None:
        want = {_user_id(attempt, a) for a in args.assignees}
        wanted = listing(_names(attempt, sorted(want))) if want else "nobody"
        said.append(
            (
                f"assigned to exactly {wanted}",
                lambda i: set(_assignees(i)) == want,
                lambda i: f"it is assigned to {listing(_names(attempt, _assignees(i))) if _assignees(i) else 'nobody'}",
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
    if not found and key.isdigit():
        found = attempt.index(INCIDENTS, "incident_number").get(int(key))
    return found[0] if found else None


@state_check("pagerduty.incident", IncidentArgs)
def incident(args: IncidentArgs, attempt: Attempt) -> Outcome:
    conditions = _conditions(args, attempt)
    if args.incident is not None:
        expected = " ".join([f"incident {attempt.label(args.incident)}"] + [c[0] for c in conditions])
        record = _one(attempt, args.incident)
        if record is None:
            return Outcome(False, expected, f"there is no incident {attempt.label(args.incident)}")
        misses = list(dict.fromkeys(instead(record) for _, test, instead in conditions if not test(record)))
        seqs = attempt.record_evidence(INCIDENTS, record)
        if misses:
            return Outcome(False, expected, f"{_name(record)}: {listing(misses)}", seqs)
        return Outcome(True, expected, f"{_name(record)} is {record.get('status')}", seqs)
    wanted = (
        (count(0, "incident") if args.count == 0 else f"exactly {count(args.count, 'incident')}")
        if args.count is not None
        else at_least(args.count_gte or 1, "incident")
    )
    expected = " ".join([wanted] + [c[0] for c in conditions])
    incidents: Sequence[Any] = (
        attempt.index(INCIDENTS, "service").get(args.service, [])
        if args.service is not None
        else attempt.records(INCIDENTS)
    )
    matched = [i for i in incidents if all(test(i) for _, test, _ in conditions)]
    n = len(matched)
    passed = n == args.count if args.count is not None else n >= (args.count_gte or 1)
    if matched:
        found = f"{count(n, 'incident')} matched: {some(matched, n, _name)}"
        return Outcome(passed, expected, found, evidence(attempt, INCIDENTS, matched))
    if not incidents:
        where = f" on {attempt.label(args.service)}" if args.service is not None else ""
        return Outcome(passed, expected, f"there are no incidents{where}")
    # The incident meeting the most conditions, the latest among equals.
    scores = [(sum(test(i) for _, test, _ in conditions), k) for k, i in enumerate(incidents)]
    closest = incidents[max(scores)[1]]
    misses = list(dict.fromkeys(instead(closest) for _, test, instead in conditions if not test(closest)))
    actual = f"none of {count(len(incidents), 'incident')} matched; closest: {_name(closest)}, but {listing(misses)}"
    return Outcome(passed, expected, actual, attempt.record_evidence(INCIDENTS, closest))
