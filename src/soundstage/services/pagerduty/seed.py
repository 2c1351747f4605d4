"""Building the `pagerduty:` sections of a world definition and a scene into a world image, in two passes
(`assign` gives each record with a `ref` its id, `build` adds the records): the directory in
`seed_directory`, the incidents in `seed_incidents`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import seed_incidents, seed_directory
from .models import PagerdutySection

if TYPE_CHECKING:
    from ...spec.build import BuildContext


def _section(section: Any, ctx: BuildContext) -> PagerdutySection:
    if isinstance(section, PagerdutySection):
        return section
    try:
        return PagerdutySection.model_validate(section)
    except ValidationError as exc:
        raise ctx.error(str(exc)) from exc


def assign(section: Any, ctx: BuildContext) -> None:
    pagerduty = _section(section, ctx)
    seed_directory.assign(pagerduty, ctx)
    seed_incidents.assign(pagerduty, ctx)


def build(section: Any, ctx: BuildContext) -> None:
    pagerduty = _section(section, ctx)
    seed_directory.build(pagerduty, ctx)
    seed_incidents.build(pagerduty, ctx)
