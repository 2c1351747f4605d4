"""The `people` section of a scene (docs/people.md): who a person is, what they know, what they decide.

Values that name records are refs (`$laura`, `$support`) or plain ids, resolved when the image is built.
A person's `ref` is the ref of their Slack user, so `$laura` names both; a person outside Slack, given by `email`,
defines their `ref` themselves (`$dana` names their address); a fact is named
`<person ref>.<fact id>` (`laura.workspace`), a decision `<person ref>.<decision id>`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationInfo, field_validator, model_validator

from ..spec.fields import Duration, Spec, matching


class Condition(Spec):
    """When a fact may be shared or an option chosen: every key given must hold."""

    knows: list[str] | None = None  # facts the person knows (by any path)
    told: list[str] | None = None  # facts the agent itself told the person
    decided: dict[str, Any] | None = None  # {person, decision, option?}: a decision taken (by anyone)
    state: dict[str, Any] | None = None  # a state predicate (docs/checks.md), over the world now

    @model_validator(mode="after")
    def _something(self) -> Condition:
        if not self.model_fields_set:
            raise ValueError("a condition needs at least one of: knows, told, decided, state")
        return self


class Fact(Spec):
    id: str
    text: str  # what the owner says when they share it, word for word
    match: list[str] = Field(min_length=1)  # phrases that show a message carries the fact
    ask: list[str] = []  # phrases that ask for it
    confidential: bool = False  # never shared, whoever asks
    share_if: Condition | None = None  # shared only once this holds
    referred_by: list[str] = []  # people who, asked for it, send the asker to the owner


class Choice(Spec):
    option: str
    if_: Condition | None = Field(None, alias="if")


ANSWERS = ("accepted", "tentative", "declined")  # an invitation's answers, as Calendar's `responseStatus` says them


class Decision(Spec):
    """A decision asked for in Slack (`ask`), or, with `invitation: true`, taken on each of the agent's invitations
    (docs/people.md, "Invitations"): then its options are answers, and without a choice that holds or a
    `default` their calendar decides."""

    id: str
    ask: list[str] = []
    invitation: bool = False
    options: list[str] = Field(min_length=1)
    choose: list[Choice] = []  # the first whose condition holds
    default: str | None = None  # when none holds; without it, the first option (on an invitation, their calendar's)

    @model_validator(mode="after")
    def _known_options(self) -> Decision:
        if self.invitation:
            if self.ask:
                raise ValueError("a decision on invitations is taken on each invitation, never asked: drop `ask`")
            for option in self.options:
                if option not in ANSWERS:
                    raise ValueError(f"option {option!r} of a decision on invitations is not one of {list(ANSWERS)}")
        elif not self.ask:
            raise ValueError("a decision needs `ask` phrases (or `invitation: true`)")
        for option in [c.option for c in self.choose] + ([self.default] if self.default else []):
            if option not in self.options:
                raise ValueError(f"option {option!r} is not one of the options {self.options}")
        return self


class Say(Spec):
    """Something a person says on their own: in a channel (`in`), or to a user in a DM (`to`)."""

    say: str
    in_: str | None = Field(None, alias="in")
    to: str | None = None

    @model_validator(mode="after")
    def _one_place(self) -> Say:
        if (self.in_ is None) == (self.to is None):
            raise ValueError("give exactly one of `in` (a channel) or `to` (a user, for a DM)")
        return self


class Scripted(Say):
    at: Duration  # after the clock start


class Trigger(Say):
    """`on`: said when an event happens: a fault resolved, or a decision taken."""

    fault_resolved: str | None = None
    decided: dict[str, Any] | None = None  # {person, decision, option?}

    @model_validator(mode="after")
    def _one_event(self) -> Trigger:
        if (self.fault_resolved is None) == (self.decided is None):
            raise ValueError("give exactly one of `fault_resolved` or `decided`")
        return self


def _listed(value: Any) -> Any:
    """`on: {fault_resolved: x, say: ...}` (one trigger, as docs/people.md writes it) is a list of one."""
    return [value] if isinstance(value, dict) else value


Day = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
Clock = Annotated[str, matching(r"([01][0-9]|2[0-3]):[0-5][0-9]", "a time of day like 09:00")]


class WorkingHours(Spec):
    """When a person takes meetings, in their calendar's time zone: an invitation outside them is declined."""

    days: list[Day] = ["mon", "tue", "wed", "thu", "fri"]
    from_: Clock = Field("09:00", alias="from")
    to: Clock = "17:00"

    @model_validator(mode="after")
    def _ordered(self) -> WorkingHours:
        if self.to <= self.from_:
            raise ValueError(f"`to` ({self.to}) must be after `from` ({self.from_})")
        return self


ADDRESS = re.compile(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\".]+")
ONE_OF = (
    "give exactly one of `slack_user` (a Slack user of the world) or `email` (someone outside Slack, who only mails)"
)


class Person(Spec):
    """A Slack user of the world (`slack_user`), or someone outside Slack who only mails (`email`, with a `name`):
    exactly one of the two. Each mistake is named at its field: without either, `slack_user` is missing."""

    ref: str  # the ref of their Slack user; for a person by `email`, a ref of its own, naming their address
    slack_user: str | None  # `$laura`; None (set by `_outside`) for a person by `email`
    email: str | None = None  # `events@harborhall.example`: a mailbox of the world, and nothing in Slack
    name: str | None = None  # a person by `email`: the display name their mail is from (`Dana Wells`)
    persona: str = ""
    reply_after: Duration = "30s"
    watches: list[str] = []  # channels whose every message reaches them
    knows: list[str] = []  # others' facts they know from the start (their own they always know)
    facts: list[Fact] = []
    decisions: list[Decision] = []
    script: list[Scripted] = []
    on: Annotated[list[Trigger], BeforeValidator(_listed)] = []  # one mapping, or a list of them
    general_answer: str | None = None  # the id of their fact they give to a vague question
    working_hours: WorkingHours | None = None  # when they take meetings (docs/people.md, "Invitations")

    @model_validator(mode="before")
    @classmethod
    def _outside(cls, data: Any) -> Any:
        """A person by `email` has no `slack_user` (so only a person with neither misses it) and must have a name."""
        if isinstance(data, dict) and "email" in data and "slack_user" not in data:
            return {"slack_user": None, "name": "", **data}
        return data

    @field_validator("email")
    @classmethod
    def _address(cls, email: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("slack_user") is not None:
            raise ValueError(ONE_OF)
        if email is not None and not ADDRESS.fullmatch(email):
            raise ValueError(f"expected an email address (name@example.com), found {email!r}")
        return email

    @field_validator("name")
    @classmethod
    def _named(cls, name: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("slack_user") is not None:
            raise ValueError("a Slack user's name is their profile's: `name` is for a person given by `email`")
        if name is not None and not name.strip():
            raise ValueError("a person given by `email` needs a `name`, the display name their mail is from")
        return name

    @field_validator("watches", "script", "on")
    @classmethod
    def _in_slack(cls, value: list[Any], info: ValidationInfo) -> list[Any]:
        if value and info.data.get("email") is not None:
            what = "watches no Slack channel" if info.field_name == "watches" else "says nothing in Slack"
            raise ValueError(f"a person outside Slack {what}: they only hear and answer mail")
        return value
