"""Slack's error envelope: HTTP 200 with `{"ok": false, "error": "<code>"}`.

Argument problems also carry `response_metadata.messages` in Slack's `[ERROR] ...` form, which is what
real Slack sends for `invalid_arguments` and friends.
"""

from __future__ import annotations

from typing import Any

# The codes of Slack's failures on its side, among the errors it documents for every method: those an api
# fault of kind server_error may answer with (docs/faults.md).
SERVER_ERRORS = ("internal_error", "fatal_error", "service_unavailable", "request_timeout")


class SlackError(Exception):
    """A Slack error code; `messages` end up in `response_metadata.messages`, `extra` at the top level."""

    def __init__(self, code: str, *messages: str, **extra: Any) -> None:
        super().__init__(code)
        self.code = code
        self.messages = list(messages)
        self.extra = extra


def error_body(error: SlackError) -> dict[str, Any]:
    body: dict[str, Any] = {"ok": False, "error": error.code, **error.extra}
    if error.messages:
        body["response_metadata"] = {"messages": [f"[ERROR] {m}" for m in error.messages]}
    return body
