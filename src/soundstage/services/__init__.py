"""The impersonated services, registered in one place: name -> `Service` (see `services.base`)."""

from __future__ import annotations

from .base import Service
from .datadog import service as datadog
from .github import service as github
from .pagerduty import service as pagerduty
from .slack import service as slack

SERVICES: dict[str, Service] = {
    slack.name: slack,
    github.name: github,
    datadog.name: datadog,
    pagerduty.name: pagerduty,
}

__all__ = ["SERVICES", "Service"]
