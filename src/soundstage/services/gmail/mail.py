"""The world's people reading and answering mail (services/mail.py): a message as sent (the sender's copy, SENT,
in the sender's own mailbox), whom it reached (To, and Cc and Bcc, with a mailbox in the world), and a person's
reply, sent by `sending.send` as any account's: From them, To the sender, `Re:` and the thread's References."""

from __future__ import annotations

from ...events import MailHeaders
from ...world import Record, World
from ..google import accounts
from ..google.service import GoogleService
from ..mail import Letter
from . import messages, mime, sending
from .store import MAILBOXES, MESSAGES


class GmailMail:
    service = "gmail"
    collection = MESSAGES

    def address(self, world: World, person: str) -> str | None:
        address = accounts.email_of(world.settings, person)
        return address if address is not None and address in world[MAILBOXES] else None

    def agent(self, world: World) -> str | None:
        return self.address(world, world.agent.get(GoogleService.agent_user) or "")

    def sent(self, world: World, record_id: str) -> Letter | None:
        record = world[MESSAGES].get(record_id)
        if record is None or "SENT" not in record["labelIds"] or record["from"] != record["mailbox"]:
            return None
        if record.get("inserted"):  # put into the mailbox by insert or import, labelled SENT maybe, never sent
            return None
        sender = str(record["from"])
        boxes = world[MAILBOXES]
        to = tuple(dict.fromkeys(a for a in record["to"] if a != sender and a in boxes))
        cc = tuple(
            dict.fromkeys(a for a in (*record["cc"], *record["bcc"]) if a != sender and a in boxes and a not in to)
        )
        shown = self._agent_copy(world, record) or record
        mailbox = boxes.one(sender)
        people = mailbox.get("people") or []
        return Letter(
            record=str(record["id"]),
            ref=str(shown["id"]),
            thread=str(shown["threadId"]),
            sender=sender,
            author=str(people[0]) if people else sender,
            text=f"{record['subject']}\n\n{record['text']}".strip(),
            to=to,
            cc=cc,
            headers=MailHeaders(
                sender=sender,
                to=list(record["to"]),
                cc=list(record["cc"]),
                bcc=list(record["bcc"]),
                subject=str(record["subject"]),
            ),
            automatic=bool(record.get("autoSubmitted")),
        )

    def _agent_copy(self, world: World, record: Record) -> Record | None:
        """The agent's copy of a message another sent it (the one the agent reads), if the agent received one."""
        agent = self.agent(world)
        if agent is None or agent == record["mailbox"]:
            return None
        for copy in world[MESSAGES].by("messageId", record["messageId"]):
            if copy["mailbox"] == agent and copy["internalDate"] == record["internalDate"]:
                return copy
        return None

    def answer(self, world: World, letter: Letter, sender: str, text: str) -> Letter:
        """A reply as Gmail's clients write one: `Re:` before the subject (once), In-Reply-To the letter and
        References its chain; in the thread of the sender's copy of the letter, delivered by `sending.send`."""
        asked = world[MESSAGES].one(letter.record)
        subject = messages.reply_subject(str(asked["subject"]))
        received = [
            m
            for m in world[MESSAGES].by("messageId", asked["messageId"])
            if m["mailbox"] == sender and m["internalDate"] == asked["internalDate"]
        ]
        at = world.now()
        raw = mime.compose(
            sender,
            [letter.sender],
            [],
            subject,
            text,
            at,
            messages.message_id_header(world.ids),
            "",
            [*asked["references"], asked["messageId"]],
        )
        name = str(world.settings[accounts.SETTINGS]["accounts"][sender]["name"])
        thread = str(received[0]["threadId"]) if received else None
        sent = sending.send(world, world.ids, sender, name, raw, thread, at)
        reply = self.sent(world, sent["id"])
        assert reply is not None  # the sender's copy of what was just sent
        return reply
