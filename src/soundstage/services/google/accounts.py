"""The world's Google accounts: one per person of the world with an email address (`ctx.addresses()`, from
every service's records), each known by its address. A `$ref` to any record of that person (their Slack user,
their PagerDuty user) names the account, as the scene's `agent: {google_user: $maya}` does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...spec.build import BuildContext

SETTINGS = "google"  # world.settings key: {"accounts": {email: {"name", "time_zone"}}, "ids": {record id: email}}


@dataclass(frozen=True)
class Account:
    email: str
    name: str
    time_zone: str  # an IANA zone: the person's, else UTC
    ids: tuple[str, ...] = ()  # the records of the person in other services, which a `$ref` names


def settle(ctx: BuildContext) -> list[Account]:
    """The world's accounts as the records built so far name them, noted in the image's settings (where the
    services read them from a live world)."""
    found: Sequence[Any] = ctx.addresses()
    ctx.settings[SETTINGS] = {
        "accounts": {a.email.lower(): {"name": a.name, "time_zone": a.time_zone or "UTC"} for a in found},
        "ids": {record_id: a.email.lower() for a in found for record_id in a.ids},
    }
    return [Account(a.email.lower(), a.name, a.time_zone or "UTC", tuple(a.ids)) for a in found]


def email_of(settings: Mapping[str, Any], value: str | None) -> str | None:
    """The account a record id (a resolved `$ref`) or an address names, or None."""
    known = settings.get(SETTINGS)
    if known is None or not value:
        return None
    if value in known["ids"]:
        return str(known["ids"][value])
    return value.lower() if value.lower() in known["accounts"] else None


def in_build(ctx: BuildContext, value: str | None) -> str | None:
    """`email_of` while an image is built: the accounts settled first."""
    settle(ctx)
    return email_of(ctx.settings, value)
