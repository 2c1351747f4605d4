"""Gmail's state checks: `gmail.message` and `gmail.draft`.

They read records only (a saved trial has nothing else): `gmail.messages` (`mailbox`, `from`, `to`, `cc`,
`bcc`, `subject`, `text`, `labelIds`, `threadId`, `messageId`, `references`), `gmail.drafts` (`mailbox`,
`message`), `gmail.mailboxes` (`people`: the records that are each mailbox's owner, so that `$maya` names
her mailbox and her address) and `gmail.labels` (`label`, `name`, for labels given by name or ref).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import ConfigDict, Field

from ...grading.attempt import Attempt, Record
from ...grading.conditions import Condition, closest, contains, matching, misses, wants
from ...grading.kinds import Args, Counted, state_check
from ...grading.outcome import Outcome
from ...grading.words import count, listing, show, some
from .store import DRAFTS, LABELS, MAILBOXES, MESSAGES


class MailArgs(Args):
    """What a message or a draft must be: `mailbox` (whose copy: a person's ref or address; any mailbox
    otherwise, where a message sent to two people is three messages), `sender` (`from`), `to` (among its To, Cc
    and Bcc), `subject_contains`, `body_contains` (case aside), `subject_matches`, `body_matches` (a regex,
    searched, case-sensitive as Slack's `text_matches`: `(?i)` sets case aside)."""

    mailbox: str | None = None
    sender: str | None = Field(default=None, alias="from")
    to: str | None = None
    subject_contains: str | None = None
    body_contains: str | None = None
    subject_matches: re.Pattern[str] | None = None
    body_matches: re.Pattern[str] | None = None

    model_config = ConfigDict(**Args.model_config, populate_by_name=True)


class MessageArgs(MailArgs, Counted):
    """Also `label` (a label's id, name or ref: `SENT`, `STARRED`, `$vendors`) and `thread` (a message's ref
    or id: in its thread, in its mailbox, or answering one of that thread's messages in another)."""

    label: str | None = None
    thread: str | None = None


class DraftArgs(MailArgs, Counted):
    """Also `thread` (a message's ref or id: the draft is in its thread, as `gmail.message`'s)."""

    thread: str | None = None


def _address(attempt: Attempt, value: str) -> str:
    """The address a ref (any record of the person) or an address names."""
    for mailbox in attempt.records(MAILBOXES):
        if value in mailbox.get("people", ()) or value.lower() == mailbox.get("id"):
            return str(mailbox["id"])
    return value.lower()


def _label_id(attempt: Attempt, value: str, mailbox: str | None) -> set[str]:
    """The label ids a label's id, name or ref stands for (a name may be several mailboxes' labels)."""
    found = {str(value)}
    for label in attempt.records(LABELS):
        if mailbox is not None and label.get("mailbox") != mailbox:
            continue
        if value in (label.get("id"), label.get("label")) or str(value).lower() == str(label.get("name")).lower():
            found.add(str(label.get("label")))
    return found


def _thread(attempt: Attempt, value: str) -> Condition[Any]:
    found = attempt.index(MESSAGES, "id").get(value)
    if not found:
        return Condition(f"in the thread of {attempt.label(value)}", lambda m: False, lambda m: "that message is gone")
    first = found[0]
    same = [
        m
        for m in attempt.index(MESSAGES, "threadId").get(first.get("threadId"), [])
        if m.get("mailbox") == first.get("mailbox")
    ]
    ids = {m.get("messageId") for m in same}

    def holds(message: Any) -> bool:
        if message.get("mailbox") == first.get("mailbox"):
            return bool(message.get("threadId") == first.get("threadId"))
        return message.get("messageId") in ids or bool(ids & set(message.get("references") or ()))

    return Condition(f"in the thread of {attempt.label(value)}", holds, lambda m: "it is in another thread")


def _conditions(args: MailArgs, attempt: Attempt) -> list[Condition[Any]]:
    said: list[Condition[Any]] = []
    if args.mailbox is not None:
        mailbox = _address(attempt, args.mailbox)
        said.append(
            Condition(
                f"in {mailbox}'s mailbox",
                lambda m: m.get("mailbox") == mailbox,
                lambda m: f"it is {m.get('mailbox')}'s",
            )
        )
    if args.sender is not None:
        sender = _address(attempt, args.sender)
        said.append(
            Condition(f"from {sender}", lambda m: m.get("from") == sender, lambda m: f"it is from {m.get('from')}")
        )
    if args.to is not None:
        to = _address(attempt, args.to)
        said.append(
            Condition(
                f"sent to {to}",
                lambda m: to in [*m.get("to", ()), *m.get("cc", ()), *m.get("bcc", ())],
                lambda m: f"it is to {listing([*m.get('to', ()), *m.get('cc', ())]) or 'nobody'}",
            )
        )
    if args.subject_contains is not None:
        said.append(contains("subject", lambda m: m.get("subject"), args.subject_contains))
    if args.body_contains is not None:
        said.append(contains("body", lambda m: m.get("text"), args.body_contains))
    if args.subject_matches is not None:
        said.append(_matches("subject", "subject", args.subject_matches))
    if args.body_matches is not None:
        said.append(_matches("body", "text", args.body_matches))
    return said


def _matches(noun: str, field: str, regex: re.Pattern[str]) -> Condition[Any]:
    """That `regex` is found in a message's `field` (its `noun` in words)."""
    return Condition(
        f"whose {noun} matches /{regex.pattern}/",
        lambda m: regex.search(str(m.get(field) or "")) is not None,
        lambda m: f"its {noun} is {show(m.get(field) or '', 60)}",
    )


def _name(message: Any) -> str:
    return f"message {message.get('id')} in {message.get('mailbox')} ({show(message.get('subject') or '', 60)})"


def _search(
    attempt: Attempt, noun: str, records: Sequence[Any], conditions: list[Condition[Any]], args: Counted
) -> Outcome:
    expected = " ".join([args.how_many(noun), wants(conditions)]).strip()
    matched = matching(records, conditions)
    n = len(matched)
    passed = args.enough(n)
    describe = _name if noun == "message" else _draft_name
    if matched:
        found = f"{count(n, noun)} matched: {some(matched, n, describe)}"
        return Outcome(passed, expected, found, attempt.evidence(MESSAGES, matched))
    if not records:
        return Outcome(passed, expected, f"there are no {noun}s")
    near = closest(records, conditions)
    nearest = f"closest: {describe(near)}, but {listing(misses(near, conditions))}"
    actual = f"none of {count(len(records), noun)} matched; {nearest}"
    return Outcome(passed, expected, actual, attempt.record_evidence(MESSAGES, near))


def _draft_name(message: Any) -> str:
    return f"the draft of {_name(message)}"


@state_check("gmail.message", MessageArgs)
def message(args: MessageArgs, attempt: Attempt) -> Outcome:
    """Messages meeting every field given (at least one unless `count`/`count_gte` say)."""
    conditions = _conditions(args, attempt)
    if args.label is not None:
        mailbox = _address(attempt, args.mailbox) if args.mailbox is not None else None
        ids = _label_id(attempt, args.label, mailbox)
        conditions.append(
            Condition(
                f"labelled {attempt.label(args.label)}",
                lambda m: bool(ids & set(m.get("labelIds") or ())),
                lambda m: f"its labels are {listing(list(m.get('labelIds') or ())) or 'none'}",
            )
        )
    if args.thread is not None:
        conditions.append(_thread(attempt, args.thread))
    drafts = {d.get("message") for d in attempt.records(DRAFTS)}
    records = [m for m in attempt.records(MESSAGES) if m.get("id") not in drafts]
    return _search(attempt, "message", records, conditions, args)


@state_check("gmail.draft", DraftArgs)
def draft(args: DraftArgs, attempt: Attempt) -> Outcome:
    """Drafts (not sent) whose messages meet every field given."""
    messages = attempt.index(MESSAGES, "id")
    records: list[Record] = [
        messages[d.get("message")][0] for d in attempt.records(DRAFTS) if d.get("message") in messages
    ]
    conditions = _conditions(args, attempt)
    if args.thread is not None:
        conditions.append(_thread(attempt, args.thread))
    return _search(attempt, "draft", records, conditions, args)
