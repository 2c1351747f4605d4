"""The toy vendor's error envelope: `{"error": "<message>"}`."""

from __future__ import annotations

from typing import Any


class ToyError(Exception):
    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def envelope(error: ToyError) -> dict[str, Any]:
    return {"error": error.message}


def server_error(status: int) -> ToyError:
    return ToyError(status, "the shelf is down")
