"""The impersonated services, registered in one place: name -> `Service` (see `services.base`)."""

from __future__ import annotations

from .base import Service
from .slack import service as slack

SERVICES: dict[str, Service] = {slack.name: slack}

__all__ = ["SERVICES", "Service"]
