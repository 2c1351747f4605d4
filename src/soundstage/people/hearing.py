"""Who hears a message, and whether it was put to them (docs/people.md, "Who hears a message").

A person hears a message in a DM or group DM they are in, one that mentions them or calls them by name
(`names`), a reply in a thread they are in, and every message of a channel they watch. It is put to
them (`addressed`) when it is in a DM with them, mentions them, calls them by name, or is a question in a
thread they are in that calls on nobody else; it is `direct` in the first four cases, which alone earn an
acknowledgement when the message asks nothing. A message that mentions or names someone else is not put
to the others who hear it, and channel chatter is put to nobody.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from ..services.slack import store
from ..services.slack.store import CHANNELS, MESSAGES, WRITTEN
from ..services.slack.timestamps import ts_us
from ..world import Record, World
from .cast import Cast, Person
from .names import MENTION
from .understanding import Reading


@dataclass(frozen=True)
class Hearer:
    person: Person
    direct: bool  # a DM with them, a mention, their name
    addressed: bool  # direct, or a question in a thread they are in that calls on nobody else


def hearers(world: World, cast: Cast, message: Record, author: str, reading: Reading) -> list[Hearer]:
    """The people who hear a message, in cast order."""
    conversation = world[CHANNELS].get(message["channel"])
    if conversation is None:
        return []
    raw = message.get("text") or ""
    called = cast.names.addressees(raw) - {author}
    if conversation.get("is_im") or conversation.get("is_mpim"):
        members = set(conversation.get("members") or ())
        return in_conversation(cast, members, author, called, bool(conversation.get("is_mpim")))
    mentioned = set(MENTION.findall(raw))
    in_thread = thread_people(world, cast, message)
    heard = []
    for person in cast.people:
        if person.user == author:
            continue
        if person.user in mentioned:
            direct = store.can_see(conversation, person.user)
        else:  # called by name: only someone in the channel reads it
            direct = person.user in called and store.is_member(conversation, person.user)
        thread = person.user in in_thread and store.can_see(conversation, person.user)
        addressed = direct or (thread and reading.question and not (called - {person.user}))
        if direct or thread or conversation["id"] in person.watches:
            heard.append(Hearer(person, direct, addressed))
    return heard


def in_conversation(
    cast: Cast, members: Collection[str], author: str, called: Collection[str], group: bool
) -> list[Hearer]:
    """The people who hear a message of a DM or group DM, in cast order: its members but the author. It is put
    to each of them (direct), but that in a group a message that calls on some members is put to them alone.
    Mail put to several people (its To) is heard as a group DM is (the engine's `mailed`)."""
    on = set(called) & set(members)
    heard = []
    for person in cast.people:
        if person.user in members and person.user != author:
            put = not group or not on or person.user in on
            heard.append(Hearer(person, put, put))
    return heard


def thread_people(world: World, cast: Cast, message: Record) -> set[str]:
    """Who is in the thread a reply is in: whoever wrote its first message or an earlier reply, or was
    mentioned or called by name in one of them."""
    thread_ts = message.get("thread_ts")
    if not thread_ts or thread_ts == message["ts"]:
        return set()
    people: set[str] = set()
    earlier = []
    parent = world[MESSAGES].get(thread_ts)
    if parent is not None:
        earlier.append(parent)
    before = ts_us(message["ts"])
    earlier += [reply for reply in store.replies(world, thread_ts) if ts_us(reply["ts"]) < before]
    for said in earlier:
        if said.get("subtype") in WRITTEN:
            people.add(str(said.get("user")))
            people |= cast.names.addressees(said.get("text") or "")
    return people
