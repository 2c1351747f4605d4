"""The directory part of the `pagerduty:` section: users, teams, services, escalation policies, schedules,
priorities and maintenance windows, with the field names of PagerDuty's API objects.

Values that name other records are refs (`$maya`) or plain `P…` ids, resolved when the image is built.
A moment (`start`, `end`) is an ISO-8601 time or an offset from the clock start: `-7d`, `+2h`, `0s`.
"""

from __future__ import annotations

from typing import Annotated, Literal
from zoneinfo import available_timezones

from pydantic import AfterValidator, Field, model_validator

from ...clock import parse_duration, parse_time
from ...spec.fields import Duration, Spec, matching


def moment_us(text: str, start: int) -> int:
    """A moment of the file as epoch microseconds: `-7d`/`+2h` from `start` (the clock start), or ISO."""
    if text[:1] in "+-":
        offset = parse_duration(text[1:])
        return start - offset if text[0] == "-" else start + offset
    return parse_time(text)


def _moment(value: str) -> str:
    try:
        moment_us(value, 0)
    except ValueError:
        raise ValueError(
            f"expected an ISO-8601 time or an offset from the clock start like -7d, found {value!r}"
        ) from None
    return value


def _time_zone(value: str) -> str:
    if value not in ZONES:
        raise ValueError(f"expected an IANA time zone like America/New_York or Etc/UTC, found {value!r}")
    return value


# Every IANA time zone name this Python knows.
ZONES = frozenset(available_timezones())

Moment = Annotated[str, AfterValidator(_moment)]
TimeZone = Annotated[str, AfterValidator(_time_zone)]
TimeOfDay = Annotated[str, matching(r"([01]\d|2[0-3]):[0-5]\d:[0-5]\d", "a time of day like 09:00:00")]
Color = Annotated[str, matching(r"[0-9a-fA-F]{6}|[a-z-]+", "a colour name like purple or a 6-digit hex colour")]


class User(Spec):
    ref: str | None = None
    name: str
    email: str
    role: Literal[
        "admin",
        "limited_user",
        "observer",
        "owner",
        "read_only_user",
        "restricted_access",
        "read_only_limited_user",
        "user",
    ] = "user"
    time_zone: TimeZone = "Etc/UTC"
    job_title: str | None = None
    description: str | None = None
    color: Color | None = None
    teams: list[str] = []  # team refs


class Team(Spec):
    ref: str | None = None
    name: str
    description: str | None = None


class UrgencyType(Spec):
    type: Literal["constant", "use_support_hours"] = "constant"
    urgency: Literal["low", "high", "severity_based"] | None = "high"


class UrgencyRule(UrgencyType):
    during_support_hours: UrgencyType | None = None
    outside_support_hours: UrgencyType | None = None

    @model_validator(mode="after")
    def _both_sides(self) -> UrgencyRule:
        if self.type == "use_support_hours" and (
            self.during_support_hours is None or self.outside_support_hours is None
        ):
            raise ValueError("a use_support_hours rule needs during_support_hours and outside_support_hours")
        return self


class SupportHours(Spec):
    """The working week of a service: the same hours on each of `days_of_week` (ISO days, 1 = Monday)."""

    type: Literal["fixed_time_per_day"] = "fixed_time_per_day"
    time_zone: TimeZone = "Etc/UTC"
    days_of_week: list[Annotated[int, Field(ge=1, le=7)]] = Field(min_length=1)
    start_time: TimeOfDay
    end_time: TimeOfDay

    @model_validator(mode="after")
    def _ordered(self) -> SupportHours:
        if self.end_time <= self.start_time:
            raise ValueError("support hours must end after they start")
        return self


class Service(Spec):
    ref: str | None = None
    name: str
    description: str | None = None
    escalation_policy: str  # an escalation policy ref
    status: Literal["active", "warning", "critical", "maintenance", "disabled"] = "active"
    acknowledgement_timeout: int | None = Field(default=None, ge=0)  # seconds; null = none
    auto_resolve_timeout: int | None = Field(default=None, ge=0)  # seconds; null = none
    teams: list[str] = []
    incident_urgency_rule: UrgencyRule = Field(default_factory=UrgencyRule)
    support_hours: SupportHours | None = None  # needed by, and only by, a use_support_hours urgency rule
    # The routing key of its Events API v2 integration (32 letters and digits); default: one from the seed.
    integration_key: str | None = Field(default=None, pattern=r"^[0-9A-Za-z]{32}$")

    @model_validator(mode="after")
    def _support_hours_with_rule(self) -> Service:
        if (self.incident_urgency_rule.type == "use_support_hours") != (self.support_hours is not None):
            raise ValueError("give support_hours exactly when incident_urgency_rule is use_support_hours")
        return self


class EscalationRule(Spec):
    escalation_delay_in_minutes: int = Field(default=30, ge=1)
    targets: list[str] = Field(min_length=1)  # refs to users or schedules


class EscalationPolicy(Spec):
    ref: str | None = None
    name: str
    description: str | None = None
    num_loops: int = Field(default=0, ge=0, le=9)
    teams: list[str] = []
    escalation_rules: list[EscalationRule] = Field(min_length=1)


class Restriction(Spec):
    type: Literal["daily_restriction", "weekly_restriction"]
    duration_seconds: int = Field(gt=0)
    start_time_of_day: TimeOfDay
    start_day_of_week: int | None = Field(default=None, ge=1, le=7)  # ISO day, for weekly restrictions


class ScheduleLayer(Spec):
    name: str | None = None  # default: "Layer N"
    start: Moment = "-28d"
    rotation_virtual_start: Moment | None = None  # default: the layer's start
    rotation_turn_length_seconds: int | None = Field(default=None, gt=0)
    rotation_turn_length: Duration | None = None  # `1d`, `7d`; the same as the seconds field
    users: list[str] = Field(min_length=1)  # user refs, in rotation order
    restrictions: list[Restriction] = []
    end: Moment | None = None

    @model_validator(mode="after")
    def _one_turn_length(self) -> ScheduleLayer:
        if self.rotation_turn_length_seconds is not None and self.rotation_turn_length is not None:
            raise ValueError("give rotation_turn_length_seconds or rotation_turn_length, not both")
        return self

    def turn_seconds(self) -> int:
        """The turn length in seconds; a week when the file gives none."""
        if self.rotation_turn_length is not None:
            return max(1, parse_duration(self.rotation_turn_length) // 1_000_000)
        return self.rotation_turn_length_seconds or 7 * 86400


class Override(Spec):
    start: Moment
    end: Moment
    user: str  # a user ref


class Schedule(Spec):
    ref: str | None = None
    name: str
    time_zone: TimeZone = "Etc/UTC"
    description: str | None = None
    teams: list[str] = []
    schedule_layers: list[ScheduleLayer] = Field(min_length=1)
    overrides: list[Override] = []


class Priority(Spec):
    ref: str | None = None
    name: str
    description: str | None = None
    color: Color | None = None


class MaintenanceWindow(Spec):
    ref: str | None = None
    services: list[str] = Field(min_length=1)  # service refs
    start: Moment
    end: Moment
    description: str | None = None


class DirectorySection(Spec):
    # The account's time zone: services, on-calls, notes, status updates and maintenance windows show their
    # times in it (with its offset), as PagerDuty renders them; incidents and log entries stay in UTC.
    time_zone: TimeZone = "Etc/UTC"
    users: list[User] = []
    teams: list[Team] = []
    services: list[Service] = []
    escalation_policies: list[EscalationPolicy] = []
    schedules: list[Schedule] = []
    priorities: list[Priority] | None = None  # None: PagerDuty's default P1..P5
    maintenance_windows: list[MaintenanceWindow] = []
