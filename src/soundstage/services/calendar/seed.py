"""Building the Calendar records of a world image: every account's primary calendar, on its own list."""

from __future__ import annotations

from ...spec.build import BuildContext
from ..google import accounts
from . import calendars
from .store import CALENDARS, LIST


def derive(ctx: BuildContext) -> None:
    """A primary calendar for every account of the world (its id the account's address), owned by it and on
    its calendar list."""
    for account in accounts.settle(ctx):
        primary(ctx, account)


def primary(ctx: BuildContext, account: accounts.Account) -> None:
    if account.email in ctx.collection(CALENDARS):
        return
    calendar = calendars.calendar_record(account.email, account.email, account.time_zone, account.email, ctx.start)
    ctx.collection(CALENDARS).add(calendar["id"], calendar)
    entry = calendars.entry_record(account.email, calendar, "owner", ctx.start, primary=True)
    ctx.collection(LIST).add(entry["id"], entry)
