"""Issue events and timelines: one function per operation. The events are what the state modules
recorded as the world changed (`events`); the issue operations accept a pull request's number too."""

from __future__ import annotations

from typing import Any

from . import events, views_events
from .calls import Call, ops, paginate
from .store import ISSUE_EVENTS

DOCS = "https://docs.github.com/rest/issues"


@ops("GET /repos/{owner}/{repo}/issues/{issue_number}/events")
def list_issue_events(call: Call) -> Any:
    repo = call.repo()
    record = call.item(repo)[1]
    found = events.of_item(call.records, repo["full_name"], record["number"])
    return paginate(call, found, lambda e: views_events.event(call.base, call.records, e))


@ops("GET /repos/{owner}/{repo}/issues/events")
def list_repo_events(call: Call) -> Any:
    repo = call.repo()
    found = events.of_repo(call.records, repo["full_name"])
    return paginate(call, found, lambda e: views_events.event(call.base, call.records, e, with_issue=True))


@ops("GET /repos/{owner}/{repo}/issues/events/{event_id}")
def get_event(call: Call) -> Any:
    record = call.by_id(call.repo(), ISSUE_EVENTS, "event_id", f"{DOCS}/events#get-an-issue-event")
    return views_events.event(call.base, call.records, record, with_issue=True)


@ops("GET /repos/{owner}/{repo}/issues/{issue_number}/timeline")
def list_timeline(call: Call) -> Any:
    record = call.item(call.repo())[1]
    return paginate(call, views_events.timeline(call.base, call.records, record))
