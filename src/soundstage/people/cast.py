"""The cast: the `people` of a scene, resolved once per world image into immutable descriptions.

Everything here is plain frozen data: user and channel ids instead of refs, durations in microseconds,
phrases compiled to patterns. What happens in a live world (who knows what, what was decided, how many
replies someone gave) is kept by the engine in the world (`engine.State`), never here.

Names: a person is their Slack user id (`U…`) in events, or their address for a person outside Slack (given by
`email`), and their `ref` (`laura`) in fact and decision keys: `laura.workspace`, `laura.refund`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..world import shared_by_forks
from .names import Names
from .phrases import Phrases
from .understanding import Asks


@dataclass(frozen=True)
class DecidedRef:
    """`{person, decision, option?}`: a decision taken by a person (with that option, when given)."""

    person: str  # user id of the decision's owner
    decision: str  # its key, `laura.refund`
    option: str | None = None

    def matches(self, person: str, decision: str, option: str) -> bool:
        return person == self.person and decision == self.decision and self.option in (None, option)

    def describe(self) -> str:
        return self.decision + (f" = {self.option}" if self.option is not None else "")


@dataclass(frozen=True)
class Condition:
    """Every part given must hold: the person knows / was told by the agent each fact, a decision was
    taken, a state predicate of the live world holds now."""

    knows: tuple[str, ...] = ()
    told: tuple[str, ...] = ()
    decided: DecidedRef | None = None
    state: Mapping[str, Any] | None = None  # {"<state check>": {args, refs resolved}}


@dataclass(frozen=True)
class Fact:
    key: str  # `laura.workspace`
    id: str
    owner: str  # user id
    text: str
    match: Phrases
    ask: Asks
    confidential: bool = False
    share_if: Condition | None = None
    referred_by: tuple[str, ...] = ()  # user ids of the people who send askers to the owner


@dataclass(frozen=True)
class Choice:
    option: str
    when: Condition | None


@dataclass(frozen=True)
class Decision:
    key: str  # `laura.refund`
    id: str
    owner: str  # user id
    ask: Asks
    options: tuple[str, ...]
    choose: tuple[Choice, ...]
    default: str | None
    invitation: bool = False  # taken on each of the agent's invitations, never asked


@dataclass(frozen=True)
class Line:
    """Something a person says on their own: in a channel, or in a DM to a user."""

    say: str
    channel: str | None  # channel id, for `in`
    to: str | None  # user id, for a DM


@dataclass(frozen=True)
class Scripted:
    line: Line
    at: int  # microseconds after the clock start
    trigger: str  # `at 10m`


@dataclass(frozen=True)
class Trigger:
    line: Line
    fault: str | None = None  # fires on the `fault_resolved` event of this fault
    decided: DecidedRef | None = None  # fires on a matching `decided` event

    @property
    def name(self) -> str:
        return f"fault_resolved {self.fault}" if self.fault is not None else f"decided {self.decided.decision}"  # type: ignore[union-attr]


@dataclass(frozen=True)
class WorkingHours:
    """Days (0 Monday to 6 Sunday) and minutes of the day, `[start, end)`, in the person's calendar's zone."""

    days: frozenset[int]
    start: int
    end: int


@shared_by_forks
@dataclass(frozen=True)
class Person:
    ref: str  # `laura`
    user: str  # their Slack user id; for a person outside Slack, their address
    persona: str
    reply_after: int  # microseconds
    watches: frozenset[str]  # channel ids
    knows: tuple[str, ...]  # fact keys known from the start: their own facts, then their `knows`
    facts: tuple[Fact, ...]
    decisions: tuple[Decision, ...]
    script: tuple[Scripted, ...]
    on: tuple[Trigger, ...]
    general_answer: str | None = None  # the key of the fact they give to a vague question
    working_hours: WorkingHours | None = None
    name: str = ""  # a person outside Slack: their display name (`Dana Wells`); empty for a Slack user
    in_slack: bool = True  # False for a person given by `email`, who only hears and answers mail

    @property
    def on_invitation(self) -> Decision | None:
        """Their decision on invitations, if they have one."""
        return next((d for d in self.decisions if d.invitation), None)


@shared_by_forks
@dataclass(frozen=True)
class Cast:
    """The people of one scene, with lookups by user id, fact key and decision key."""

    people: tuple[Person, ...] = ()
    by_user: Mapping[str, Person] = field(default_factory=lambda: MappingProxyType({}))
    facts: Mapping[str, Fact] = field(default_factory=lambda: MappingProxyType({}))  # in declaration order
    decisions: Mapping[str, Decision] = field(default_factory=lambda: MappingProxyType({}))
    names: Names = field(default_factory=Names)  # every user of the world, by the names a message may call them by

    @classmethod
    def of(cls, people: list[Person], names: Names) -> Cast:
        return cls(
            people=tuple(people),
            names=names,
            by_user=MappingProxyType({p.user: p for p in people}),
            facts=MappingProxyType({f.key: f for p in people for f in p.facts}),
            decisions=MappingProxyType({d.key: d for p in people for d in p.decisions}),
        )

    def __bool__(self) -> bool:
        return bool(self.people)

    def carried(self, text: str) -> list[str]:
        """The keys of the facts a text carries (one of their `match` phrases occurs in it)."""
        return [key for key, fact in self.facts.items() if fact.match.found(text)]

    def person(self, ref: str) -> Person | None:
        for person in self.people:
            if person.ref == ref:
                return person
        return None
