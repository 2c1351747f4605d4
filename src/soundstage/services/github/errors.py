"""GitHub's error envelope: `{"message", "documentation_url", "status"}`, plus `errors[]` on a 422.

A handler raises `GitHubError` before its first write; the service turns it into the reply.
"""

from __future__ import annotations

from typing import Any

DOCS = "https://docs.github.com/rest"
# What GitHub says with each error on its side.
SERVER_ERRORS = {
    500: "Server Error",
    502: "Server Error",
    503: "Service Unavailable",
    504: (
        "We couldn't respond to your request in time. Sorry about that. Please try resubmitting your request "
        "and contact us if the problem persists."
    ),
}


class GitHubError(Exception):
    """An HTTP status and GitHub's message; `errors` are the 422 `Validation Failed` entries."""

    def __init__(
        self,
        status: int,
        message: str,
        errors: list[dict[str, Any]] | None = None,
        documentation_url: str = DOCS,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors
        self.documentation_url = documentation_url
        self.headers = headers or {}


def envelope(error: GitHubError) -> dict[str, Any]:
    body: dict[str, Any] = {"message": error.message}
    if error.errors is not None:
        body["errors"] = error.errors
    body["documentation_url"] = error.documentation_url
    body["status"] = str(error.status)
    return body


def server_error(status: int) -> GitHubError:
    """GitHub's answer to a failure on its side: 500, 502, 503 or 504."""
    return GitHubError(status, SERVER_ERRORS[status])


def not_found(documentation_url: str = DOCS) -> GitHubError:
    return GitHubError(404, "Not Found", documentation_url=documentation_url)


def failed(*errors: dict[str, Any]) -> GitHubError:
    """422 `Validation Failed` with these `errors[]` entries."""
    return GitHubError(422, "Validation Failed", list(errors))


def invalid(resource: str, field: str, code: str = "invalid", message: str | None = None) -> GitHubError:
    """422 `Validation Failed` with one entry; `code` is missing, missing_field, invalid, already_exists, custom."""
    entry: dict[str, Any] = {"resource": resource, "field": field, "code": code}
    if message is not None:
        entry["message"] = message
    return failed(entry)


def _show(value: Any) -> str:
    """A value as GitHub's validator quotes it in `For 'x', <value> is not ...`."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def type_error(name: str, value: Any, kind: str) -> GitHubError:
    """422 for a body field of the wrong type: `kind` is `a string`, `an array`, `a boolean`..."""
    return GitHubError(422, f"Invalid request.\n\nFor '{name}', {_show(value)} is not {kind}.")
