"""The impersonated services, registered in one place: name -> `Service` (see `services.base`)."""

from __future__ import annotations

from .base import Service
from .github import service as github
from .slack import service as slack

SERVICES: dict[str, Service] = {slack.name: slack, github.name: github}

__all__ = ["SERVICES", "Service"]
