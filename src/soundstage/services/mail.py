"""What the people engine asks of a service that carries mail between the world's people (Gmail), so that people
hear the agent's mail and answer it in its thread without the engine knowing the service: a service offers a
`Mail` as its `mail` member (services/base.py), and the engine calls it for the records its writes add to
`collection`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..events import MailHeaders
from ..world import World


@dataclass(frozen=True)
class Letter:
    """One piece of mail as sent, as people read it."""

    record: str  # the sender's copy's id in the service's collection
    ref: str  # what events name it by (Gmail: its id in the agent's mailbox when it has a copy, else the sender's)
    thread: str  # the thread events place it in (Gmail: that copy's thread id)
    sender: str  # the sender's address
    author: str  # who sent it, as events name people: a record id (their Slack user), else the address
    text: str  # what people read: its subject and its body
    to: tuple[str, ...]  # the addresses it is put to, that received a copy
    cc: tuple[str, ...]  # the other addresses that received a copy (Cc, Bcc)
    headers: MailHeaders  # From, To, Cc, Bcc and the subject as written, for `message` events to show
    automatic: bool = False  # sent by no person (`Auto-Submitted`: a vacation responder's reply): heard, never answered


class Mail(Protocol):
    service: str  # the service's name, as `message` events give it
    collection: str  # the collection whose added records may be mail sent

    def address(self, world: World, person: str) -> str | None:
        """The address of a person of the world, named by one of their records' ids (their Slack user)."""

    def agent(self, world: World) -> str | None:
        """The agent's address in the service, if it has one."""

    def sent(self, world: World, record_id: str) -> Letter | None:
        """The mail a new record is the sender's copy of; None for any other record (a copy received, a draft)."""

    def answer(self, world: World, letter: Letter, sender: str, text: str) -> Letter:
        """Sends `text` from `sender` to the letter's sender, in its thread, as the service sends a reply; the
        reply as sent."""
