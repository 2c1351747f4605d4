"""What hangs off an incident besides its alerts, without HTTP: notes (`pagerduty.notes`: `id`, `incident`,
`user`, `content`, `created_at`), responder requests and status updates (kept on the incident, in
`responder_requests` and `status_updates`), and the change events of its service (`pagerduty.change_events`).
"""

from __future__ import annotations

from typing import Any

from ...world import Record
from .log_entries import IncidentLog, user_agent
from .store import CHANGE_EVENTS, INCIDENTS, NOTES


class IncidentParts(IncidentLog):
    """Notes, responder requests, status updates and related change events of the incidents."""

    def notes(self, incident_id: str) -> list[Record]:
        return self.col(NOTES).by("incident", incident_id)

    def related_change_events(self, incident: Record) -> list[Record]:
        """The change events on the incident's service up to its creation, newest first."""
        events = [
            e
            for e in self.col(CHANGE_EVENTS).by("service", incident["service"])
            if e["timestamp"] <= incident["created_at"]
        ]
        return sorted(events, key=lambda e: e["timestamp"], reverse=True)

    def annotate(self, incident: Record, user_id: str, content: str, at: int, note_id: str | None = None) -> Record:
        note_id = note_id or self.ids.pagerduty()
        note = self.col(NOTES).add(
            note_id, {"id": note_id, "incident": incident["id"], "user": user_id, "content": content, "created_at": at}
        )
        self.add_log(
            incident, "annotate_log_entry", at, user_agent(user_id), {"type": "note"}, "Note added.", note=content
        )
        return note

    def request_responders(
        self, incident: Record, requester: str, message: str, targets: list[dict[str, Any]], at: int
    ) -> dict[str, Any]:
        """A responder request: each target (`{"type": "user" | "escalation_policy", "id"}`) is paged; a
        policy pages whoever is on call at its first level (kept as the target's `users`)."""
        targets = [
            {**t, "users": self.on_call(t["id"], 1, at)} if t["type"] == "escalation_policy" else t for t in targets
        ]
        request = {"requester": requester, "requested_at": at, "message": message, "targets": targets}
        self.col(INCIDENTS).change(
            incident["id"], responder_requests=[*incident["responder_requests"], request], updated_at=at
        )
        return request

    def post_status_update(
        self,
        incident: Record,
        sender: str,
        message: str,
        at: int,
        subject: str | None = None,
        html_message: str | None = None,
    ) -> dict[str, Any]:
        update = {
            "id": self.ids.pagerduty(),
            "message": message,
            "subject": subject,
            "html_message": html_message,
            "sender": sender,
            "created_at": at,
        }
        self.col(INCIDENTS).change(incident["id"], status_updates=[*incident["status_updates"], update], updated_at=at)
        return update
