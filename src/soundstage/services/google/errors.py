"""Google's error envelope, as every Google API answers it:

    {"error": {"code": 404, "message": "Not Found",
               "errors": [{"message": "Not Found", "domain": "global", "reason": "notFound"}],
               "status": "NOT_FOUND"}}

`status` is the canonical gRPC code Google maps each HTTP status to; `reason` is the API's own word.
"""

from __future__ import annotations

from typing import Any

# HTTP status -> Google's canonical status.
STATUSES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ABORTED",
    412: "FAILED_PRECONDITION",
    413: "INVALID_ARGUMENT",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}


class GoogleError(Exception):
    """A Google API error: its status, `reason`, the message, and where the mistake is (`location`: a
    parameter's name, with its `location_type`), with the headers it carries."""

    def __init__(
        self,
        status: int,
        reason: str,
        message: str,
        location: str | None = None,
        location_type: str = "parameter",
        headers: dict[str, str] | None = None,
        top: str | None = None,
        domain: str = "global",
    ) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.message = message
        self.location = location
        self.location_type = location_type
        self.headers = headers or {}
        self.top = top  # the envelope's own message where it differs from the error's (authentication)
        self.domain = domain  # `global`, or the API's own (`calendar`)


def envelope(error: GoogleError) -> dict[str, Any]:
    if not error.reason:  # a refusal of Google's front end (a batch it cannot take): no `errors` list
        return {"error": {"code": error.status, "message": error.message, "status": STATUSES[error.status]}}
    item: dict[str, Any] = {"message": error.message, "domain": error.domain, "reason": error.reason}
    if error.location is not None:
        item["location"] = error.location
        item["locationType"] = error.location_type
    return {
        "error": {
            "code": error.status,
            "message": error.top or error.message,
            "errors": [item],
            "status": STATUSES.get(error.status, "UNKNOWN"),
        }
    }


def not_found() -> GoogleError:
    return GoogleError(404, "notFound", "Not Found")


def bad_request(message: str = "Bad Request") -> GoogleError:
    return GoogleError(400, "badRequest", message)


def invalid(message: str, location: str | None = None) -> GoogleError:
    """A parameter or field of the request that is not valid (`reason` invalid)."""
    return GoogleError(400, "invalid", message, location)


def required(message: str, location: str | None = None) -> GoogleError:
    return GoogleError(400, "required", message, location)


def forbidden(message: str = "Forbidden") -> GoogleError:
    return GoogleError(403, "forbidden", message)


def parse_error(message: str = "Parse Error") -> GoogleError:
    """A body that is not JSON, or not the object the method takes."""
    return GoogleError(400, "parseError", message)


def backend_error(status: int = 500) -> GoogleError:
    if status == 503:
        return GoogleError(503, "backendError", "The service is currently unavailable.")
    return GoogleError(status, "backendError", "Backend Error")


def too_large() -> GoogleError:
    return GoogleError(413, "uploadTooLarge", "Request Too Large")


def rate_limited(retry_after: int) -> GoogleError:
    """The per-user rate limit: 429 with Google's `rateLimitExceeded`."""
    headers = {"Retry-After": str(retry_after)} if retry_after else {}
    return GoogleError(429, "rateLimitExceeded", "Rate Limit Exceeded", headers=headers)
