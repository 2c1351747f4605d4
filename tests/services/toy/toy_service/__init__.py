"""A toy vendor's API (`/items`, a shelf of items), as a `Service` of a package outside soundstage: what
tests/services/test_toy_service.py registers through the `soundstage.services` entry point, the way any
installed service is. Its files are the skeleton of every service package (docs/architecture.md); `box.py` is a
second service of the same vendor (`toybox`), sharing its account, its host and its people."""

from .box import box
from .service import service

__all__ = ["box", "service"]
