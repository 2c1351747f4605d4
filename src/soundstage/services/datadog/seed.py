"""Building the `datadog:` sections of a world definition and a scene into a world image, in two passes
(`assign` gives each record with a `ref` its id, `build` adds the records): the monitoring part in
`seed_monitoring`, the rest in `seed_records`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import seed_monitoring, seed_records
from .models import DatadogSection

if TYPE_CHECKING:
    from ...spec.build import BuildContext


def _section(section: Any, ctx: BuildContext) -> DatadogSection:
    if isinstance(section, DatadogSection):
        return section
    try:
        return DatadogSection.model_validate(section)
    except ValidationError as exc:
        raise ctx.error(str(exc)) from exc


def assign(section: Any, ctx: BuildContext) -> None:
    datadog = _section(section, ctx)
    seed_records.assign(datadog, ctx)
    seed_monitoring.assign(datadog, ctx)


def build(section: Any, ctx: BuildContext) -> None:
    datadog = _section(section, ctx)
    seed_records.build(datadog, ctx)
    seed_monitoring.build(datadog, ctx)
