"""What every PagerDuty object carries: `id`, `type`, `summary`, `self` (absolute, built from the request,
so the client's follow-up calls come back here) and `html_url` (the account's web app)."""

from __future__ import annotations

from typing import Any

from .calls import Call

# The account's web app, as `html_url` fields name it.
WEB = "https://acme.pagerduty.com"


def self_url(call: Call, path: str, record_id: str) -> str:
    """`{base}/{path}/{id}`, e.g. `https://127.0.0.1:8751/w/w1/pagerduty/incidents/PABC123`."""
    return f"{call.base}/{path}/{record_id}"


def html_url(path: str, record_id: str) -> str:
    return f"{WEB}/{path}/{record_id}"


def identity(
    call: Call,
    kind: str,
    path: str,
    record_id: str,
    summary: str,
    web_path: str | None = None,
) -> dict[str, Any]:
    """The five fields every object starts with; `kind` is its `type` (`incident`, `user`...)."""
    # `self_url` and `html_url` spelled out: an answer holds a few of these per object it lists.
    return {
        "id": record_id,
        "type": kind,
        "summary": summary,
        "self": f"{call.request.base_url}/{path}/{record_id}",
        "html_url": f"{WEB}/{web_path or path}/{record_id}",
    }


def reference(
    call: Call,
    kind: str,
    path: str,
    record_id: str,
    summary: str,
    web_path: str | None = None,
) -> dict[str, Any]:
    """A reference to another object: its identity with `type: "<kind>_reference"`."""
    return identity(call, f"{kind}_reference", path, record_id, summary, web_path)
