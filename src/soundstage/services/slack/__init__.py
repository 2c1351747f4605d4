"""The Slack Web API (`/api/<method>`), as a `Service` (see `services.base`)."""

from .service import SlackService, service

__all__ = ["SlackService", "service"]
