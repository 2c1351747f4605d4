"""Building the toy records of a world image from the `toy:` section."""

from __future__ import annotations

from soundstage.spec.build import BuildContext

from .models import ToySection, UserSpec
from .store import BOXES, ITEMS, USERS


def assign(section: ToySection, ctx: BuildContext) -> None:
    """Pass 1: every record with a `ref` gets its id."""
    for field, collection in (("users", USERS), ("items", ITEMS)):
        for i, record in enumerate(getattr(section, field)):
            ctx.define(record.ref, f"{field[0]}{ctx.ids.next('toy')}", collection, field, i)


def build(section: ToySection, ctx: BuildContext) -> None:
    """Pass 2: the records."""
    for field, collection in (("users", USERS), ("items", ITEMS)):
        for record in getattr(section, field):
            record_id = ctx.refs[record.ref] if record.ref else f"{field[0]}{ctx.ids.next('toy')}"
            fields = {"email": record.email} if isinstance(record, UserSpec) and record.email else {}
            ctx.collection(collection).add(record_id, {"id": record_id, "name": record.name, **fields})


def derive(ctx: BuildContext) -> None:
    """A box for every person of the world with an address, whichever service's records name them."""
    for address in ctx.addresses():
        ctx.collection(BOXES).add(address.email, {"id": address.email, "owner": address.name})
