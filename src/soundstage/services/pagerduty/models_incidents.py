"""The incidents part of the `pagerduty:` section."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class _Model(BaseModel):
    # Strict like the rest of the file formats: YAML already types its values, so "yes" is no boolean.
    model_config = ConfigDict(extra="forbid", strict=True)


class IncidentsSection(_Model):
    pass
