"""Building the Gmail records of a world image: every account's mailbox and its system labels (`derive`), and
the section's labels, messages, drafts and filters (`build`), in file order, as the API would have made them
(filters last: they act on mail delivered once the world runs, not on the file's own)."""

from __future__ import annotations

from functools import partial

from ...clock import parse_duration
from ...spec.build import BuildContext
from ...world import Collection, Record
from ..google import accounts
from . import drafts, filters, labels, mailboxes, messages, mime, sending
from .models import Draft, Filter, GmailSection, Label, Message
from .store import DRAFTS, FILTERS, LABELS, MAILBOXES, MESSAGES


class Image:
    """The image being built, seen as the state modules see a world (its collections by name)."""

    def __init__(self, ctx: BuildContext) -> None:
        self.ctx = ctx

    def __getitem__(self, name: str) -> Collection:
        return self.ctx.collection(name)


def derive(ctx: BuildContext) -> None:
    for account in accounts.settle(ctx):
        if account.email in ctx.collection(MAILBOXES):
            continue
        people = sorted(i for i, email in ctx.settings[accounts.SETTINGS]["ids"].items() if email == account.email)
        ctx.collection(MAILBOXES).add(account.email, mailboxes.mailbox_record(account.email, people))
        for order, name in enumerate(labels.SYSTEM):
            label = labels.system_label(account.email, name, order)
            ctx.collection(LABELS).add(label["id"], label)


def build(section: GmailSection, ctx: BuildContext) -> None:
    derive(ctx)  # the mailboxes of the people known so far, which the section's records are in
    for i, label in enumerate(section.labels):
        ctx.attempt(partial(_label, ctx, label, i), ref=label.ref)
    for i, message in enumerate(section.messages):
        ctx.attempt(partial(_message, ctx, message, i), ref=message.ref)
    for i, draft in enumerate(section.drafts):
        ctx.attempt(partial(_draft, ctx, draft, i), ref=draft.ref)
    for i, spec in enumerate(section.filters):
        ctx.attempt(partial(_filter, ctx, spec, i), ref=spec.ref)


def _mailbox(ctx: BuildContext, value: str, *path: str | int) -> str:
    address = accounts.in_build(ctx, ctx.resolve(value, *path))
    if address is None or address not in ctx.collection(MAILBOXES):
        raise ctx.error(f"{value!r} names no person of the world with an email address", *path)
    return address


def _address(ctx: BuildContext, value: str, *path: str | int) -> str:
    """A person's address, or an address of nobody in the world (mail from outside)."""
    resolved = ctx.resolve(value, *path)
    address = accounts.in_build(ctx, resolved)
    if address is None and "@" not in resolved:
        raise ctx.error(f"{value!r} names no person of the world with an email address", *path)
    return address or resolved.lower()


def _label(ctx: BuildContext, label: Label, i: int) -> None:
    address = _mailbox(ctx, label.mailbox, "labels", i, "mailbox")
    image = Image(ctx)
    if labels.named(image, address, label.name) is not None or label.name.upper() in labels.SYSTEM:
        raise ctx.error(f"{address} has a label named {label.name!r} already", "labels", i, "name")
    record = labels.create(image, ctx.ids, address, label.name, {})
    ctx.define(label.ref, record["id"], LABELS, "labels", i)


def _label_ids(ctx: BuildContext, address: str, given: list[str], *path: str | int) -> list[str]:
    """Label ids of the mailbox: a system label's id, or a user label's ref, id or name."""
    found = []
    for k, value in enumerate(given):
        resolved = ctx.resolve(value, *path, k)
        record = ctx.collection(LABELS).get(resolved) or labels.get(Image(ctx), address, resolved)
        record = record or labels.named(Image(ctx), address, resolved)
        if record is None or record["mailbox"] != address:
            raise ctx.error(f"{address} has no label {value!r}", *path, k)
        found.append(record["label"])
    return found


def _answered(ctx: BuildContext, value: str | None, *path: str | int) -> Record | None:
    if value is None:
        return None
    found = ctx.collection(MESSAGES).get(ctx.resolve(value, *path))
    if found is None:
        raise ctx.error(f"reply_to {value!r} names no earlier message of the file", *path)
    return found


def _raw(ctx: BuildContext, sender: str, spec: Message | Draft, at: int, where: str, i: int) -> bytes:
    answered = _answered(ctx, spec.reply_to, where, i, "reply_to")
    subject = spec.subject
    if subject is None:
        subject = messages.reply_subject(answered["subject"]) if answered is not None else ""
    replying = [*answered["references"], answered["messageId"]] if answered is not None else None
    return mime.compose(
        _named(ctx, sender),
        [_named(ctx, _address(ctx, a, where, i, "to", k)) for k, a in enumerate(spec.to)],
        [_named(ctx, _address(ctx, a, where, i, "cc", k)) for k, a in enumerate(spec.cc)],
        subject,
        spec.body,
        at,
        messages.message_id_header(ctx.ids),
        f"000000000000{ctx.ids.hex('gmail:boundary', 16)}",
        replying,
        tuple(mime.Attachment(a.filename, a.mime_type, a.content.encode()) for a in getattr(spec, "attachments", ())),
    )


def _named(ctx: BuildContext, address: str) -> str:
    """An address with its person's name, as mail clients write them."""
    known = ctx.settings[accounts.SETTINGS]["accounts"].get(address)
    return f"{known['name']} <{address}>" if known else address


def _message(ctx: BuildContext, spec: Message, i: int) -> None:
    sender = _address(ctx, spec.from_, "messages", i, "from")
    at = ctx.start - parse_duration(spec.ago)
    message = mime.parse(_raw(ctx, sender, spec, at, "messages", i))
    image = Image(ctx)
    answered = _answered(ctx, spec.reply_to, "messages", i, "reply_to")
    own = None
    if answered is not None:
        own = messages.answered_thread(image, sender, messages.answers(message), str(message["Subject"]))
    if not spec.to and not spec.cc:
        raise ctx.error("a message needs a recipient (to or cc)", "messages", i, "to")
    copies = sending.deliver(image, ctx.ids, sender, message, own, at, recorded=False)
    if spec.mailbox is not None:
        owner = _mailbox(ctx, spec.mailbox, "messages", i, "mailbox")
    else:
        owner = next((a for a in copies if a != sender), sender)
    if owner not in copies:
        raise ctx.error(f"{owner} neither sent nor received this message", "messages", i, "mailbox")
    record = copies[owner]
    extra = _label_ids(ctx, owner, spec.labels, "messages", i, "labels")
    collection = ctx.collection(MESSAGES)
    held = [label for label in [*record["labelIds"], *extra] if not (spec.read and label == "UNREAD")]
    collection.change(record["id"], labelIds=list(dict.fromkeys(held)))
    ctx.define(spec.ref, record["id"], MESSAGES, "messages", i)


def _draft(ctx: BuildContext, spec: Draft, i: int) -> None:
    address = _mailbox(ctx, spec.mailbox, "drafts", i, "mailbox")
    at = ctx.start
    raw = _raw(ctx, address, spec, at, "drafts", i)
    image = Image(ctx)
    answered = _answered(ctx, spec.reply_to, "drafts", i, "reply_to")
    thread_id = None
    if answered is not None:
        parsed = mime.parse(raw)
        thread_id = messages.answered_thread(image, address, messages.answers(parsed), str(parsed["Subject"]))
    record = messages.add(image, ctx.ids, address, raw, at, ["DRAFT"], thread_id, recorded=False)
    draft = drafts.create(image, ctx.ids, record)
    ctx.define(spec.ref, draft["id"], DRAFTS, "drafts", i)


def _filter(ctx: BuildContext, spec: Filter, i: int) -> None:
    """A filter as filters.create makes one, held to the API's rules (criteria, an action, no filter twice, at most
    a thousand)."""
    address = _mailbox(ctx, spec.mailbox, "filters", i, "mailbox")
    given = spec.criteria
    criteria = {
        name: value
        for name, value in (
            ("from", given.from_),
            ("to", given.to),
            ("subject", given.subject),
            ("query", given.query),
            ("negatedQuery", given.negated_query),
            ("hasAttachment", given.has_attachment),
            ("excludeChats", given.exclude_chats),
            ("size", given.size),
            ("sizeComparison", given.size_comparison),
        )
        if value
    }
    if not filters.has_criteria(criteria):
        raise ctx.error("a filter needs criteria: a text, has_attachment, or a size with size_comparison", "filters", i)
    action = {
        name: list(dict.fromkeys(_label_ids(ctx, address, given_ids, "filters", i, "action", key)))
        for name, key, given_ids in (
            ("addLabelIds", "add_labels", spec.action.add_labels),
            ("removeLabelIds", "remove_labels", spec.action.remove_labels),
        )
        if given_ids
    }
    if not filters.has_action(action):
        raise ctx.error("a filter needs an action: add_labels or remove_labels", "filters", i, "action")
    image = Image(ctx)
    if "DRAFT" in (*action.get("addLabelIds", ()), *action.get("removeLabelIds", ())):
        raise ctx.error("a filter cannot add or remove DRAFT", "filters", i, "action")
    existing = filters.of(image, address)
    if len(existing) >= filters.LIMIT:
        raise ctx.error(f"{address} has {filters.LIMIT} filters already, Gmail's limit", "filters", i)
    if any(filters.same(record, criteria, action) for record in existing):
        raise ctx.error(f"{address} has this filter already", "filters", i)
    record = filters.create(image, ctx.ids, address, criteria, action)
    ctx.define(spec.ref, record["id"], FILTERS, "filters", i)
