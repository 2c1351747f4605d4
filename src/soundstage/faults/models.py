"""The `faults:` section of a scene, as written: a condition, the effects it has while it holds, and how
long the effects take to recover once it stops.

    - id: bad_deploy
      active_while: {github.file_at: {repo: acme/orders, ref: production, path: src/app.py, contains: "x"}}
      effects:
        - datadog.monitor: {monitor: $latency, state: Alert}
        - pagerduty.incident: {service: $orders_svc, title: "Orders p99 latency above 800ms", urgency: high}
        - metric: {name: orders.latency.p99, value: 2400, normal: 180}
      recover_after: 2m

An effect is one of the kinds the services register (`services.effects`); each is validated by its own
model. Refs, the condition (a state predicate) and the records the effects name are checked when the
image is built (`build.build_faults`), where errors can name the file, line and field.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, create_model, model_validator

from ..services.effects import EFFECTS
from ..spec.fields import Duration, Spec, matching


class WrittenEffect(Spec):
    """What every effect model has: exactly one key, the name of a registered effect kind."""

    @model_validator(mode="before")
    @classmethod
    def _one_key(cls, data: Any) -> Any:
        if not isinstance(data, dict) or len(data) != 1 or next(iter(data)) not in EFFECTS:
            keys = ", ".join(map(str, data)) if isinstance(data, dict) and data else "none"
            raise ValueError(f"an effect is a mapping with exactly one of: {', '.join(EFFECTS)}; found {keys}")
        return data

    def written(self) -> tuple[str, Spec]:
        """The effect kind's name and its arguments, as written."""
        field = next(iter(self.model_fields_set))
        return EFFECTS_BY_FIELD[field], getattr(self, field)


# One field per registered effect kind, named by its key (`datadog.monitor`).
EFFECTS_BY_FIELD = {name.replace(".", "_"): name for name in EFFECTS}
Effect = create_model(  # type: ignore[call-overload]
    "Effect",
    __base__=WrittenEffect,
    __doc__="One effect: a mapping with exactly one key, the name of an effect kind.",
    **{field: (EFFECTS[name].model | None, Field(None, alias=name)) for field, name in EFFECTS_BY_FIELD.items()},
)

FaultId = Annotated[str, matching(r"[A-Za-z_][A-Za-z0-9_.-]*", "an id of letters, digits, _ . and -")]


class Fault(Spec):
    id: FaultId
    active_while: dict[str, Any]  # a state predicate, e.g. {github.file_at: {...}}
    effects: list[Effect] = Field(min_length=1)  # type: ignore[valid-type]
    recover_after: Duration = "0s"
