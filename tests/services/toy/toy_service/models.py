"""The `toy:` section of world and scene files."""

from __future__ import annotations

from pydantic import Field

from soundstage.spec.fields import Spec


class UserSpec(Spec):
    ref: str | None = None
    name: str
    email: str | None = None


class ItemSpec(Spec):
    ref: str | None = None
    name: str


class ToySection(Spec):
    users: list[UserSpec] = Field(default_factory=list)
    items: list[ItemSpec] = Field(default_factory=list)


class BoxSection(Spec):
    """The `toybox:` section: nothing of its own; a box is made for every person with an address."""
