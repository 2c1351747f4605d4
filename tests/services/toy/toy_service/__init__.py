"""A toy vendor's API (`/items`, a shelf of items), as a `Service` of a package outside soundstage: what
tests/services/test_toy_service.py registers through the `soundstage.services` entry point, the way any
installed service is. Its files are the skeleton of every service package (docs/architecture.md)."""

from .service import service

__all__ = ["service"]
