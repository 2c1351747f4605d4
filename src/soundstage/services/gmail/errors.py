"""Gmail's own refusals in Google's envelope (`google.errors`): its reasons and messages, and the canonical
status Gmail gives a 400 that is a failed precondition rather than an invalid argument."""

from __future__ import annotations

from ..google.errors import GoogleError

NOT_FOUND = "Requested entity was not found."


class GmailError(GoogleError):
    """A Google error whose envelope's `status` is `canonical` rather than the one its HTTP status maps to."""

    def __init__(self, status: int, reason: str, message: str, canonical: str | None = None) -> None:
        super().__init__(status, reason, message)
        self.canonical = canonical


def not_found() -> GmailError:
    return GmailError(404, "notFound", NOT_FOUND)


def invalid_argument(message: str) -> GmailError:
    return GmailError(400, "invalidArgument", message)


def failed_precondition(message: str = "Precondition check failed.") -> GmailError:
    return GmailError(400, "failedPrecondition", message, "FAILED_PRECONDITION")


def label_conflict() -> GmailError:
    return GmailError(409, "failedPrecondition", "Label name exists or conflicts", "ABORTED")
