"""Gmail's own refusals in Google's envelope (`google.errors`): its reasons and messages."""

from __future__ import annotations

from ..google.errors import GoogleError

NOT_FOUND = "Requested entity was not found."
RAW_REQUIRED = "'raw' RFC822 payload message string or uploading message via /upload/* URL required"


def not_found() -> GoogleError:
    return GoogleError(404, "notFound", NOT_FOUND)


def invalid_argument(message: str) -> GoogleError:
    return GoogleError(400, "invalidArgument", message)


def label_conflict() -> GoogleError:
    """As Gmail answers a label name taken (reported in gauteh/lieer#207 and GAM-team/got-your-back#105)."""
    return GoogleError(409, "aborted", "Label name exists or conflicts")
