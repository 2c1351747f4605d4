"""PagerDuty's error envelope: `{"error": {"message", "code", "errors"}}`, and the Events API's.

A handler raises `PagerDutyError` before its first write; the service turns it into the reply.
"""

from __future__ import annotations

from typing import Any


class PagerDutyError(Exception):
    """An HTTP status, PagerDuty's numeric error code and message, and the details under `errors`."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: list[str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}


class InvalidEvent(PagerDutyError):
    """The Events API's refusal: 400 `{"status": "invalid event", "message": "Event object is invalid",
    "errors": [...]}`."""

    def __init__(self, *errors: str) -> None:
        super().__init__(400, 0, "Event object is invalid", list(errors))


def envelope(error: PagerDutyError) -> dict[str, Any]:
    if isinstance(error, InvalidEvent):
        return {"status": "invalid event", "message": error.message, "errors": error.errors}
    body: dict[str, Any] = {"message": error.message, "code": error.code}
    if error.errors is not None:
        body["errors"] = error.errors
    return {"error": body}


def server_error(status: int) -> PagerDutyError:
    """PagerDuty's answer to a failure on its side, whatever its status: its classic code list has one code
    for them all (2000, `Internal Error`)."""
    return PagerDutyError(status, 2000, "Internal Error")


def invalid(*errors: str) -> PagerDutyError:
    """400 `Invalid Input Provided` (code 2001), with what was wrong."""
    return PagerDutyError(400, 2001, "Invalid Input Provided", list(errors))


def conflict(*errors: str) -> PagerDutyError:
    """400 `Arguments Caused Error` (code 2002): the input is well formed but the state refuses it."""
    return PagerDutyError(400, 2002, "Arguments Caused Error", list(errors))


def not_found() -> PagerDutyError:
    """404 `Not Found` (code 2100)."""
    return PagerDutyError(404, 2100, "Not Found")


def bad_time(name: str) -> PagerDutyError:
    """400 code 2004: a `since`/`until` that is no ISO-8601 time."""
    return PagerDutyError(
        400,
        2004,
        "Invalid 'since' or 'until' Parameter Values",
        [f"{name} is not a valid date."],
    )


def bad_range(detail: str) -> PagerDutyError:
    """400 code 2005: `since` after `until`, or a range longer than the operation allows."""
    return PagerDutyError(400, 2005, "Invalid Query Date Range", [detail])
