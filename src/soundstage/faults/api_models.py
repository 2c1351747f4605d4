"""The `api_faults:` section of a scene, as written: which calls of a service misbehave, how, and when.

    - id: slack_busy
      service: slack
      operation: chat.postMessage          # the operation as the trace names it, `*` a wildcard
      kind: rate_limit                     # rate_limit | server_error | slow
      retry_after: 30s
      first: 2                             # or every: N, probability: p; none: every matching call

Everything here is checked when the scene is read, so errors name the file, line and field; the
matching and the decision of each call are in `api`, the vendors' answers in `api_answers`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from ..grading.patterns import CallPattern
from ..spec.fields import Duration, Rate, Spec, matching

# Real latency a call may be held for: enough to trip an agent's timeouts, never enough to stall a run.
MAX_REAL_DELAY_MS = 5000
# The HTTP statuses each vendor answers a server fault with (an `ok: false` code at HTTP 200 for Slack).
SERVER_STATUSES = {
    "slack": (200, 500, 502, 503, 504),
    "github": (500, 502, 503, 504),
    "datadog": (500, 502, 503, 504),
    "pagerduty": (500,),
}
SLACK_SERVER_ERRORS = ("internal_error", "fatal_error", "service_unavailable", "request_timeout")


def _pattern(text: str) -> str:
    CallPattern.parse(text)  # the trace checks' grammar; its ValueError says what was expected
    return text


class ApiFault(Spec):
    id: Annotated[str, matching(r"[A-Za-z0-9_.-]+", "a name of letters, digits and _ . -")]
    service: str
    operation: str | None = None
    call: Annotated[str, AfterValidator(_pattern)] | None = None
    kind: Literal["rate_limit", "server_error", "slow"]
    retry_after: Duration = "30s"
    github_limit: Literal["primary", "secondary"] = "secondary"
    limit: Rate = "100/1m"  # the limit the 429's headers announce (Datadog, PagerDuty)
    status: int | None = None
    error: Literal[SLACK_SERVER_ERRORS] | None = None  # type: ignore[valid-type]
    delay: Duration = "0s"
    real_delay_ms: int = Field(0, ge=0, le=MAX_REAL_DELAY_MS)
    every: int | None = Field(None, ge=1)
    first: int | None = Field(None, ge=1)
    probability: float | None = Field(None, ge=0, le=1)
    after_seq: int | None = Field(None, ge=0)
    until: Duration | None = None

    @model_validator(mode="after")
    def _coherent(self) -> ApiFault:
        if self.service not in SERVER_STATUSES:
            raise ValueError(f"service is one of: {', '.join(SERVER_STATUSES)}; found {self.service!r}")
        chosen = [name for name in ("every", "first", "probability") if getattr(self, name) is not None]
        if len(chosen) > 1:
            raise ValueError(f"give at most one of every, first, probability; found {', '.join(chosen)}")
        if self.call is not None and CallPattern.parse(self.call).service not in (None, self.service):
            raise ValueError(f"call {self.call!r} names another service than {self.service}")
        given = self.model_fields_set
        own = {"rate_limit": {"retry_after", "github_limit", "limit"}, "server_error": {"error"}, "slow": set()}
        stray = sorted(given & {"retry_after", "github_limit", "limit", "error"} - own[self.kind])
        if stray:
            raise ValueError(f"{', '.join(stray)} does not apply to kind {self.kind}")
        if "github_limit" in given and self.service != "github":
            raise ValueError("github_limit (primary or secondary) is GitHub's alone")
        if "limit" in given and self.service not in ("datadog", "pagerduty"):
            raise ValueError("limit is announced by Datadog's and PagerDuty's headers alone")
        if "error" in given and self.service != "slack":
            raise ValueError("error (an `ok: false` code) is Slack's alone")
        self._check_status()
        if self.kind == "slow" and self.delay == "0s" and not self.real_delay_ms:
            raise ValueError("a slow fault has a delay (simulated) or real_delay_ms, or both")
        return self

    def _check_status(self) -> None:
        if self.status is None:
            return
        if self.kind == "rate_limit":
            allowed: tuple[int, ...] = (403, 429) if self.service == "github" else ()
        else:
            allowed = SERVER_STATUSES[self.service] if self.kind == "server_error" else ()
        if self.status not in allowed:
            said = ", ".join(map(str, allowed)) if allowed else "none (the vendor's own)"
            raise ValueError(f"status for a {self.service} {self.kind} is one of: {said}; found {self.status}")
