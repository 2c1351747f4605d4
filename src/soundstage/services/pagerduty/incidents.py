"""Incidents without HTTP: trigger, acknowledge, resolve, reopen, reassign, escalate, update, snooze and
merge, each writing the log entries PagerDuty would (`log_entries`), and the incidents' alerts.

Records keep PagerDuty's field names with plain values: another object is its id (`service`, `priority`,
`assignments[].assignee`), an agent is `{"type": "user_reference" | "service_reference", "id"}`, a time is
epoch microseconds (`created_at`, `resolved_at`, `assignments[].at`...). `views_incidents` renders them.
Incidents (`P…` ids) are numbered 1, 2... (`incident_number`, ids namespace `pagerduty:incident_number`);
alerts have `Q…` ids. Callers validate first; these methods assume valid input and only write, so the same
calls always write the same records.

Each change stores the incident's `pending_actions` (`plan`): an unacknowledged incident escalates to the
next level of its policy after that level's `escalation_delay_in_minutes`; an acknowledged one returns to
triggered when its snooze ends or when the service's `acknowledgement_timeout` passes. `timers` runs them.
"""

from __future__ import annotations

from typing import Any

from ...clock import US, format_duration
from ...world import Record
from .log_entries import Agent, IncidentLog, service_agent, user_agent
from .store import ALERTS, ESCALATION_POLICIES, INCIDENTS, SERVICES
from .support_hours import in_support_hours

MINUTE = 60 * US

URGENCIES = ("high", "low")


def default_urgency(service: Record, at: int) -> str:
    """The urgency of a new incident on `service` at `at` when none is given: the service's constant urgency,
    or the one for inside or outside its support hours (high when it depends on the alert's severity)."""
    rule = service.get("incident_urgency_rule") or {}
    if rule.get("type") == "use_support_hours":
        inside = in_support_hours(service["support_hours"], at)
        rule = rule["during_support_hours" if inside else "outside_support_hours"]
    urgency = rule.get("urgency")
    return urgency if rule.get("type") == "constant" and urgency in URGENCIES else "high"


class Incidents(IncidentLog):
    """The incidents and their alerts."""

    # -- reads ---------------------------------------------------------------------------------------

    def incident(self, key: str) -> Record | None:
        """An incident by its id, or by its number (PagerDuty accepts either in the path)."""
        found = self.col(INCIDENTS).get(key)
        if found is None and key.isascii() and key.isdigit():
            numbered = self.col(INCIDENTS).by("incident_number", int(key))
            found = numbered[0] if numbered else None
        return found

    def alerts(self, incident_id: str) -> list[Record]:
        return self.col(ALERTS).by("incident", incident_id)

    def open_with_key(self, service_id: str, key: str) -> Record | None:
        """The open incident of `service_id` with dedup key `key`, if any."""
        for record in self.col(INCIDENTS).by("incident_key", key):
            if record["service"] == service_id and record["status"] != "resolved":
                return record
        return None

    def levels(self, policy_id: str) -> int:
        policy = self.col(ESCALATION_POLICIES).get(policy_id)
        return len(policy["escalation_rules"]) if policy else 0

    def escalation_delay(self, policy_id: str, level: int) -> int | None:
        """How long an unacknowledged incident stays at `level` before it escalates (None at the last level)."""
        policy = self.col(ESCALATION_POLICIES).get(policy_id)
        if policy is None or level >= len(policy["escalation_rules"]):
            return None
        return policy["escalation_rules"][level - 1]["escalation_delay_in_minutes"] * MINUTE

    # -- writes --------------------------------------------------------------------------------------

    def trigger(
        self,
        *,
        service: Record,
        title: str,
        at: int,
        agent: Agent,
        channel: str = "api",
        urgency: str = "high",
        priority: str | None = None,
        details: str | None = None,
        incident_key: str | None = None,
        assignees: list[str] | None = None,
        escalation_policy: str | None = None,
        escalation_level: int = 1,
        incident_id: str | None = None,
        conference_bridge: dict[str, str | None] | None = None,
    ) -> Record:
        """A new triggered incident, assigned to `assignees` or else to the policy's on-call at the level."""
        incident_id = incident_id or self.ids.pagerduty()
        policy = escalation_policy or service["escalation_policy"]
        direct = assignees is not None
        users = assignees if assignees is not None else self.on_call(policy, escalation_level, at)
        incident = self.col(INCIDENTS).add(
            incident_id,
            {
                "id": incident_id,
                "incident_number": self.ids.next("pagerduty:incident_number"),
                "title": title,
                "service": service["id"],
                "escalation_policy": policy,
                "teams": list(service.get("teams") or []),
                "status": "triggered",
                "urgency": urgency,
                "priority": priority,
                "details": details,
                "incident_key": incident_key or self.ids.hex("pagerduty:incident_key", 32),
                "escalation_level": escalation_level,
                "assigned_via": "direct_assignment" if direct else "escalation_policy",
                "assignments": [{"at": at, "assignee": u} for u in users],
                "acknowledgements": [],
                "created_at": at,
                "updated_at": at,
                "last_status_change_at": at,
                "last_status_change_by": agent,
                "resolved_at": None,
                "resolution": None,
                "merged_into": None,
                "conference_bridge": conference_bridge,
                "pending_actions": [],
                "snoozed_until": None,
                "responder_requests": [],
                "status_updates": [],
                "first_trigger_log_entry": None,
            },
        )
        via = "the website" if channel == "website" else "the API"
        trigger = self.add_log(
            incident,
            "trigger_log_entry",
            at,
            agent,
            {"type": channel},
            f"Triggered through {via}.",
            event_details={"description": title},
        )
        incident = self._change(incident, first_trigger_log_entry=trigger["id"])
        if users:
            self.add_log(
                incident,
                "assign_log_entry",
                at,
                agent,
                {"type": channel},
                f"Assigned to {self._names(users)}.",
                assignees=users,
            )
        return incident

    def add_alert(
        self,
        incident: Record,
        *,
        summary: str,
        at: int,
        severity: str = "critical",
        source: str | None = None,
        details: dict[str, Any] | None = None,
        alert_key: str | None = None,
        alert_id: str | None = None,
    ) -> Record:
        alert_id = alert_id or self.ids.pagerduty("Q", 14)
        return self.col(ALERTS).add(
            alert_id,
            {
                "id": alert_id,
                "incident": incident["id"],
                "service": incident["service"],
                "summary": summary,
                "severity": severity,
                "source": source,
                "status": "resolved" if incident["status"] == "resolved" else "triggered",
                "alert_key": alert_key or incident["incident_key"],
                "details": details or {},
                "created_at": at,
                "resolved_at": incident["resolved_at"],
                "first_trigger_log_entry": incident["first_trigger_log_entry"],
            },
        )

    def acknowledge(self, incident: Record, user_id: str, at: int, channel: str = "website") -> Record:
        """Acknowledged by `user_id` (again, when someone else acknowledges too); the escalation stops."""
        return self._acknowledge(incident, {"at": at, "acknowledger": user_id}, user_agent(user_id), channel)

    def acknowledge_by_service(self, incident: Record, at: int) -> Record:
        """Acknowledged through its service's integration (an Events API `acknowledge`): the acknowledger
        is the service (`acknowledger_type: service_reference`)."""
        service_id = incident["service"]
        ack = {"at": at, "acknowledger": service_id, "acknowledger_type": "service_reference"}
        return self._acknowledge(incident, ack, service_agent(service_id), "api")

    def _acknowledge(self, incident: Record, ack: dict[str, Any], agent: Agent, channel: str) -> Record:
        at = ack["at"]
        acks = [a for a in incident["acknowledgements"] if a["acknowledger"] != ack["acknowledger"]]
        acks.append(ack)
        fields: dict[str, Any] = {
            "status": "acknowledged",
            "acknowledgements": acks,
            "updated_at": at,
            "snoozed_until": None,
        }
        if incident["status"] != "acknowledged":
            fields.update(last_status_change_at=at, last_status_change_by=agent)
        incident = self._change(incident, **fields)
        timeout = self._ack_timeout(incident)
        self.add_log(
            incident,
            "acknowledge_log_entry",
            at,
            agent,
            {"type": channel},
            f"Acknowledged by {self._agent_name(agent)}.",
            acknowledgement_timeout=timeout // US if timeout else None,
        )
        return incident

    def _change(self, incident: Record, **fields: Any) -> Record:
        """Stores `fields` with the pending actions the new state implies."""
        merged = {**incident, **fields}
        return self.col(INCIDENTS).change(incident["id"], **fields, pending_actions=self.plan(merged))

    def plan(self, incident: Record) -> list[dict[str, Any]]:
        """The timers an incident in this state runs: escalation while triggered through its policy, the
        end of a snooze or the acknowledgement timeout while acknowledged."""
        if incident["status"] == "triggered" and incident["assigned_via"] == "escalation_policy":
            delay = self.escalation_delay(incident["escalation_policy"], incident["escalation_level"])
            since = max([incident["last_status_change_at"], *(a["at"] for a in incident["assignments"])])
            return [{"type": "escalate", "at": since + delay}] if delay else []
        if incident["status"] == "acknowledged":
            if incident["snoozed_until"] is not None:
                return [{"type": "unacknowledge", "at": incident["snoozed_until"]}]
            timeout = self._ack_timeout(incident)
            last = max(a["at"] for a in incident["acknowledgements"])
            return [{"type": "unacknowledge", "at": last + timeout}] if timeout else []
        return []

    def _ack_timeout(self, incident: Record) -> int | None:
        service = self.col(SERVICES).get(incident["service"])
        seconds = service.get("acknowledgement_timeout") if service else None
        return seconds * US if seconds else None

    def unacknowledge(self, incident: Record, at: int, reason: str) -> Record:
        """Back to triggered when a snooze or the acknowledgement timeout runs out; the assignees are paged again."""
        service = service_agent(incident["service"])
        incident = self._change(
            incident,
            status="triggered",
            acknowledgements=[],
            updated_at=at,
            last_status_change_at=at,
            last_status_change_by=service,
        )
        self.add_log(
            incident, "unacknowledge_log_entry", at, service, {"type": "timeout"}, f"Unacknowledged due to {reason}."
        )
        return incident

    def resolve(
        self,
        incident: Record,
        agent: Agent,
        at: int,
        channel: str = "website",
        resolution: str | None = None,
        merged_into: str | None = None,
    ) -> Record:
        incident = self._change(
            incident,
            status="resolved",
            resolved_at=at,
            assignments=[],
            resolution=resolution,
            merged_into=merged_into,
            updated_at=at,
            last_status_change_at=at,
            last_status_change_by=agent,
        )
        for alert in self.alerts(incident["id"]):
            if alert["status"] != "resolved":
                self.col(ALERTS).change(alert["id"], status="resolved", resolved_at=at)
        by = self._agent_name(agent)
        self.add_log(
            incident,
            "resolve_log_entry",
            at,
            agent,
            {"type": channel},
            f"Resolved by {by}.",
            note=resolution,
        )
        return incident

    def reopen(
        self, incident: Record, status: str, user_id: str, at: int, assignees: list[str] | None = None
    ) -> Record:
        """A resolved incident opened again: triggered (to `assignees` or the policy's on-call at level 1),
        or acknowledged (assigned to whoever reopened it)."""
        agent = user_agent(user_id)
        direct = status == "acknowledged" or assignees is not None
        if status == "acknowledged":
            users = [user_id]
        else:
            users = assignees if assignees is not None else self.on_call(incident["escalation_policy"], 1, at)
        incident = self._change(
            incident,
            status="triggered",
            assigned_via="direct_assignment" if direct else "escalation_policy",
            resolved_at=None,
            resolution=None,
            merged_into=None,
            escalation_level=1,
            assignments=[{"at": at, "assignee": u} for u in users],
            acknowledgements=[],
            updated_at=at,
            last_status_change_at=at,
            last_status_change_by=agent,
        )
        self.add_log(incident, "trigger_log_entry", at, agent, {"type": "website"}, "Reopened.")
        if users:
            self.add_log(
                incident,
                "assign_log_entry",
                at,
                agent,
                {"type": "website"},
                f"Assigned to {self._names(users)}.",
                assignees=users,
            )
        if status == "acknowledged":
            incident = self.acknowledge(incident, user_id, at)
        return incident

    def reassign(self, incident: Record, users: list[str], agent: Agent, at: int) -> Record:
        """Assigned directly to `users` (the escalation no longer follows the policy)."""
        incident = self._change(
            incident,
            assignments=[{"at": at, "assignee": u} for u in users],
            assigned_via="direct_assignment",
            status="triggered" if incident["status"] == "acknowledged" else incident["status"],
            acknowledgements=[],
            updated_at=at,
        )
        by = self._agent_name(agent)
        self.add_log(
            incident,
            "assign_log_entry",
            at,
            agent,
            {"type": "website"},
            f"Reassigned to {self._names(users)} by {by}.",
            assignees=users,
        )
        return incident

    def escalate(self, incident: Record, level: int, agent: Agent, at: int, channel: str = "website") -> Record:
        """Assigned to whoever is on call at `level` of the incident's policy, and triggered again."""
        users = self.on_call(incident["escalation_policy"], level, at)
        incident = self._change(
            incident,
            escalation_level=level,
            assignments=[{"at": at, "assignee": u} for u in users],
            assigned_via="escalation_policy",
            status="triggered",
            acknowledgements=[],
            updated_at=at,
            last_status_change_at=at if incident["status"] != "triggered" else incident["last_status_change_at"],
        )
        summary = f"Escalated to level {level}"
        if agent["type"] == "user_reference":
            summary += f" by {self._agent_name(agent)}"
        self.add_log(
            incident,
            "escalate_log_entry",
            at,
            agent,
            {"type": channel},
            f"{summary}: assigned to {self._names(users)}.",
            assignees=users,
            escalation_level=level,
        )
        return incident

    def update(self, incident: Record, agent: Agent, at: int, **fields: Any) -> Record:
        """Title, priority, urgency or conference bridge; a change of urgency is logged."""
        changed = {k: v for k, v in fields.items() if incident.get(k) != v}
        if not changed:
            return incident
        old = incident["urgency"]
        incident = self.col(INCIDENTS).change(incident["id"], **changed, updated_at=at)
        if "urgency" in changed:
            self.add_log(
                incident,
                "urgency_change_log_entry",
                at,
                agent,
                {"type": "website"},
                f"Urgency changed from {old} to {incident['urgency']} by {self._agent_name(agent)}.",
            )
        return incident

    def snooze(self, incident: Record, user_id: str, seconds: int, at: int) -> Record:
        until = at + seconds * US
        incident = self.col(INCIDENTS).change(
            incident["id"], snoozed_until=until, pending_actions=[{"type": "unacknowledge", "at": until}], updated_at=at
        )
        self.add_log(
            incident,
            "snooze_log_entry",
            at,
            user_agent(user_id),
            {"type": "website"},
            f"Snoozed for {format_duration(seconds * US)} by {self._name(user_id)}.",
            changed_actions=incident["pending_actions"],
        )
        return incident

    def merge(self, target: Record, sources: list[Record], user_id: str, at: int) -> Record:
        """The sources' alerts move to `target`; each source is resolved, naming the target."""
        agent = user_agent(user_id)
        for source in sources:
            for alert in self.alerts(source["id"]):
                self.col(ALERTS).change(alert["id"], incident=target["id"])
            self.resolve(source, agent, at, merged_into=target["id"])
        return self.col(INCIDENTS).change(target["id"], updated_at=at)
