"""Building the Gmail records of a world image: every account's mailbox and its system labels."""

from __future__ import annotations

from ...spec.build import BuildContext
from ..google import accounts
from . import labels, mailboxes
from .store import LABELS, MAILBOXES


def derive(ctx: BuildContext) -> None:
    for account in accounts.settle(ctx):
        if account.email in ctx.collection(MAILBOXES):
            continue
        ctx.collection(MAILBOXES).add(account.email, mailboxes.mailbox_record(account.email))
        for order, name in enumerate(labels.SYSTEM):
            label = labels.system_label(account.email, name, order)
            ctx.collection(LABELS).add(label["id"], label)
