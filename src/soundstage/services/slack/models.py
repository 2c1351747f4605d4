"""The `slack:` section of world and scene files (docs/scenes.md; its fields in docs/services/slack.md).

Values that name other records are refs (`$maya`) or plain ids (`U0123456789`); they are resolved when the
image is built, so these models only check shapes.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field, Strict, StrictBool, StrictInt, StrictStr
from pydantic.dataclasses import dataclass

from ...clock import parse_duration
from ...spec.fields import Spec


def _duration(value: str | int) -> str | int:
    parse_duration(value)
    return value


Duration = Annotated[str | int, AfterValidator(_duration)]
StrictDuration = Annotated[StrictStr | StrictInt, AfterValidator(_duration)]


def _date(value: str) -> str:
    try:
        date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(f"{value!r} is not a date (YYYY-MM-DD)") from exc
    if len(value) != len("YYYY-MM-DD"):
        raise ValueError(f"{value!r} is not a date (YYYY-MM-DD)")
    return value


IsoDate = Annotated[str, AfterValidator(_date)]


class SingleSignOn(Spec):
    """SAML single sign-on, which Slack offers from the Business+ plan: the identity provider as Slack keys it
    (`okta`) and as the sign-in page names it (`Okta`)."""

    name: str = Field(pattern=r"^[a-z0-9_]+$")
    label: str


class Team(Spec):
    ref: str | None = None
    id: str | None = None
    name: str = "Soundstage"
    domain: str | None = None  # default: the name, lower case, letters and digits only
    plan: Literal["free", "pro", "business_plus"] = "free"  # Slack's plans for one workspace
    locale: str = Field(default="en-US", pattern=r"^[a-z]{2}-[A-Z]{2}$")  # the workspace's language
    custom_icon: bool = False  # an icon of its own (else Slack's default, its initials on a color)
    sso: SingleSignOn | None = None  # sign-in through an identity provider (Business+)


class Status(Spec):
    """A custom status: a text, a standard emoji (`:palm_tree:`) or both; `expires_in` after the clock
    start, Slack clears it (none: it stays)."""

    text: str = Field("", max_length=100)
    emoji: str = ""
    expires_in: Duration | None = None


class Guest(Spec):
    """A guest account (a paid plan's): who invited them, and whether they may be in one channel only (a
    single-channel guest) or in the channels they are invited to (a multi-channel guest)."""

    invited_by: str
    single_channel: bool = False


class User(Spec):
    ref: str | None = None
    id: str | None = None
    name: str
    real_name: str | None = None
    display_name: str = ""
    title: str = ""
    pronouns: str = ""  # as the person wrote them ("she/her"); none unless given
    email: str | None = None
    is_bot: bool = False
    is_admin: bool = False
    tz: str | None = "America/Los_Angeles"  # null: a user who never set one (no `tz` fields)
    deleted: bool = False
    custom_image: bool = False  # they uploaded a photo (else Slack's default avatar)
    status: Status | None = None
    start_date: IsoDate | None = None  # the day they started, as their profile shows it
    guest: Guest | None = None  # none: a full member


class Restriction(Spec):
    """Who may post (or reply in threads) in a channel: workspace admins and owners (`type: [admin]`) and
    the users listed."""

    type: list[Literal["admin"]] = []
    user: list[str] = []


class Channel(Spec):
    ref: str | None = None
    id: str | None = None
    name: str
    members: list[str] = []
    former_members: list[str] = []  # users who have left; their messages stay, as in Slack
    is_private: bool = False
    is_archived: bool = False
    topic: str = ""
    purpose: str = ""
    created_by: str | None = None  # default: the first member
    previous_names: list[str] = []  # names it had before being renamed, the latest first
    posting_restricted_to: Restriction | None = None  # none: every member may post
    threads_restricted_to: Restriction | None = None  # none: every member may reply in threads


class Conversation(Spec):
    """A DM (two users, or one: a self-DM) or a group DM (three to nine users), with its id if given."""

    ref: str | None = None
    id: str | None = None
    users: list[str]
    ago: Duration = "30d"  # opened this long before the clock start


_NO_REACTIONS: Mapping[str, list[str]] = MappingProxyType({})


# A dataclass with slots, not a `Spec` model: a world may give 100,000 messages, all held while their records
# are built, and a model's instance dict and set of given fields took four times the memory. Strict field by
# field, as `Spec` is strict: a strict dataclass would take only its instances, not mappings.
@dataclass(config=ConfigDict(extra="forbid"), slots=True, kw_only=True)
class Message:
    ref: StrictStr | None = None
    channel: StrictStr  # a channel, DM or group DM, or a user: the DM between that user and `user`
    user: StrictStr
    text: StrictStr
    thread_ts: StrictStr | None = None  # the thread's parent message (a ref)
    # Without any, one empty mapping shared by all, read only: a big world's messages would each have a dict.
    reactions: Annotated[Mapping[StrictStr, Annotated[list[StrictStr], Strict()]], Strict()] = Field(
        default_factory=lambda: _NO_REACTIONS
    )
    ago: StrictDuration | None = None  # posted this long before the clock start
    ts: StrictStr | None = None  # or its exact `ts` (before the clock start), sub-second part and all
    pinned: StrictBool = False


class Usergroup(Spec):
    ref: str | None = None
    id: str | None = None
    name: str
    handle: str
    description: str = ""
    users: list[str] = []
    channels: list[str] = []  # default channels of the group
    created_by: str | None = None
    disabled: bool = False


class Bookmark(Spec):
    ref: str | None = None
    id: str | None = None
    channel: str
    title: str
    link: str
    emoji: str | None = None
    created_by: str | None = None


class SlackSection(Spec):
    team: Team | None = None
    users: list[User] = []
    channels: list[Channel] = []
    dms: list[Conversation] = []
    group_dms: list[Conversation] = []
    messages: list[Message] = []
    usergroups: list[Usergroup] = []
    bookmarks: list[Bookmark] = []


class GenerateMessages(Spec):
    """Options of `generate: {slack.messages: {...}}`."""

    channel: str
    count: int = Field(50, ge=1, le=100_000)
    users: list[str] | None = None  # default: the channel's members who are not bots
    span: Duration = "7d"  # spread over this long before the clock start
    threads: float = Field(0.15, ge=0, le=1)  # share of messages that are thread replies
    reactions: float = Field(0.2, ge=0, le=1)  # share of messages with a reaction
