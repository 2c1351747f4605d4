"""The Slack Web API (`/api/<method>`), as a `Service` (see `services.base`)."""

from .service import service

__all__ = ["service"]
