"""Building the monitoring part of the `datadog:` section."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...spec.build import BuildContext
    from .models import DatadogSection


def assign(section: DatadogSection, ctx: BuildContext) -> None:
    """Pass 1: ids for the records with a `ref`."""


def build(section: DatadogSection, ctx: BuildContext) -> None:
    """Pass 2: the records."""
