"""Datadog's error envelope: `{"errors": ["<message>", ...]}` (APIErrorResponse, v1 and most of v2).

A handler raises `DatadogError` before its first write; the service turns it into the reply.
"""

from __future__ import annotations

from typing import Any


class DatadogError(Exception):
    """An HTTP status and Datadog's messages."""

    def __init__(self, status: int, *messages: str, headers: dict[str, str] | None = None) -> None:
        super().__init__("; ".join(messages))
        self.status = status
        self.messages = list(messages)
        self.headers = headers or {}


# What Datadog says with each error on its side.
SERVER_ERRORS = {
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def server_error(status: int) -> DatadogError:
    """Datadog's answer to a failure on its side: 500, 502, 503 or 504."""
    return DatadogError(status, SERVER_ERRORS[status])


def envelope(error: DatadogError) -> dict[str, Any]:
    return {"errors": error.messages}


def forbidden() -> DatadogError:
    return DatadogError(403, "Forbidden")


def not_found(what: str = "Not found") -> DatadogError:
    return DatadogError(404, what)


def bad_request(*messages: str) -> DatadogError:
    return DatadogError(400, *messages)
