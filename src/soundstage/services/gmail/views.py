"""Gmail records rendered as the API's resources (`Profile`, `Label`)."""

from __future__ import annotations

from typing import Any

from ...world import Record


def label(record: Record) -> dict[str, Any]:
    body: dict[str, Any] = {"id": record["label"], "name": record["name"]}
    for field in ("messageListVisibility", "labelListVisibility"):
        if record[field] is not None:
            body[field] = record[field]
    body["type"] = record["type"]
    return body
