"""The GitHub REST API (v3), as a `Service` (see `services.base`)."""

from .service import GitHubService, service

__all__ = ["GitHubService", "service"]
