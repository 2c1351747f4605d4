"""The `toy:` section of world and scene files."""

from __future__ import annotations

from pydantic import Field

from soundstage.spec.fields import Spec


class UserSpec(Spec):
    ref: str | None = None
    name: str


class ItemSpec(Spec):
    ref: str | None = None
    name: str


class ToySection(Spec):
    users: list[UserSpec] = Field(default_factory=list)
    items: list[ItemSpec] = Field(default_factory=list)
