"""Building the directory part of the `pagerduty:` section."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...spec.build import BuildContext
    from .models import PagerdutySection


def assign(section: PagerdutySection, ctx: BuildContext) -> None:
    """Pass 1: ids for the records with a `ref`."""


def build(section: PagerdutySection, ctx: BuildContext) -> None:
    """Pass 2: the records."""
