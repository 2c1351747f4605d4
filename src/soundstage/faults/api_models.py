"""The `api_faults:` section of a scene, as written: which calls of a service misbehave, how, and when.

    - id: slack_busy
      service: slack
      operation: chat.postMessage          # the operation as the trace names it, `*` a wildcard
      kind: rate_limit                     # rate_limit | server_error | slow
      retry_after: 30s
      first: 2                             # or every: N, probability: p; none: every matching call

Everything here is checked when the scene is read, so errors name the file, line and field; the
matching and the decision of each call are in `api`. What differs by vendor comes from its service
(`services.base.Service`): the options only some services read (`fault_options`: GitHub's `github_limit`),
the statuses each allows (`fault_statuses`) and its answers.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, create_model, model_validator

from ..grading.patterns import CallPattern
from ..grading.words import listing
from ..services import SERVICES
from ..services.base import FaultOption
from ..spec.fields import Duration, Spec, matching

# Real latency a call may be held for: enough to trip an agent's timeouts, never enough to stall a run.
MAX_REAL_DELAY_MS = 5000


def _owners(name: str) -> str:
    """The services that read option `name`, as a refusal names them: `Datadog's and PagerDuty's`."""
    return listing([f"{s.title}'s" for s in SERVICES.values() if name in getattr(s, "fault_options", {})])


def _pattern(text: str) -> str:
    # The trace checks' grammar; its ValueError says what was expected. A fault meets the REST call, which a
    # REST pattern names whether it came over MCP or not.
    if CallPattern.parse(text).tool is not None:
        raise ValueError(f"an api fault matches REST calls ('POST /api/chat.postMessage'), not a tool: got {text!r}")
    return text


class ApiFaultBase(Spec):
    """The fields every api fault has; `ApiFault` adds the services' options."""

    id: Annotated[str, matching(r"[A-Za-z0-9_.-]+", "a name of letters, digits and _ . -")]
    service: str
    operation: str | None = None
    call: Annotated[str, AfterValidator(_pattern)] | None = None
    kind: Literal["rate_limit", "server_error", "slow"]
    retry_after: Duration = "30s"
    status: int | None = None
    delay: Duration = "0s"
    real_delay_ms: int = Field(0, ge=0, le=MAX_REAL_DELAY_MS)
    every: int | None = Field(None, ge=1)
    first: int | None = Field(None, ge=1)
    probability: float | None = Field(None, ge=0, le=1)
    after_seq: int | None = Field(None, ge=0)
    until: Duration | None = None

    @model_validator(mode="after")
    def _coherent(self) -> ApiFaultBase:
        if self.service not in SERVICES:
            raise ValueError(f"service is one of: {', '.join(SERVICES)}; found {self.service!r}")
        chosen = [name for name in ("every", "first", "probability") if getattr(self, name) is not None]
        if len(chosen) > 1:
            raise ValueError(f"give at most one of every, first, probability; found {', '.join(chosen)}")
        if self.call is not None and CallPattern.parse(self.call).service not in (None, self.service):
            raise ValueError(f"call {self.call!r} names another service than {self.service}")
        given = self.model_fields_set
        own = {"retry_after"} if self.kind == "rate_limit" else set()
        own |= {name for name, option in OPTIONS.items() if option.kind == self.kind}
        stray = sorted(given & ({"retry_after"} | set(OPTIONS)) - own)
        if stray:
            raise ValueError(f"{', '.join(stray)} does not apply to kind {self.kind}")
        read = getattr(SERVICES[self.service], "fault_options", {})
        foreign = next((name for name in OPTIONS if name in given and name not in read), None)
        if foreign is not None:
            raise ValueError(OPTIONS[foreign].alone.format(owners=_owners(foreign)))
        self._check_status()
        if self.kind == "slow" and self.delay == "0s" and not self.real_delay_ms:
            raise ValueError("a slow fault has a delay (simulated) or real_delay_ms, or both")
        return self

    def _check_status(self) -> None:
        if self.status is None:
            return
        allowed = getattr(SERVICES[self.service], "fault_statuses", {}).get(self.kind, ())
        if self.status not in allowed:
            said = ", ".join(map(str, allowed)) if allowed else "none (the vendor's own)"
            raise ValueError(f"status for a {self.service} {self.kind} is one of: {said}; found {self.status}")


def _options() -> dict[str, FaultOption]:
    """The options the services declare (`Service.fault_options`), each once, in the order they are registered."""
    options: dict[str, FaultOption] = {}
    for service in SERVICES.values():
        for name, option in getattr(service, "fault_options", {}).items():
            if name in ApiFaultBase.model_fields or options.setdefault(name, option) != option:
                raise ValueError(f"{service.name}'s api fault option {name} is another field or option already")
    return options


OPTIONS = _options()
ApiFault = create_model(  # type: ignore[call-overload]
    "ApiFault",
    __base__=ApiFaultBase,
    __doc__="An api fault as a scene writes it: the fields every one has, and the services' options.",
    **{name: (option.type, option.default) for name, option in OPTIONS.items()},
)
