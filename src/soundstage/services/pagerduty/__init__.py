"""The PagerDuty REST API v2 over the world's users, teams, services, escalation policies, schedules and
incidents."""

from .service import PagerDutyService, service

__all__ = ["PagerDutyService", "service"]
