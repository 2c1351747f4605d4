"""Gmail test worlds: live worlds on the shared test server, reached the way an agent reaches them."""

from __future__ import annotations

from typing import Any

import pytest
from tests.services.google_world import SCENE, GoogleWorld


@pytest.fixture(scope="module")
def gmail_read(stage: Any) -> GoogleWorld:
    """One world shared by a module's read-only tests."""
    return GoogleWorld(stage.world(SCENE), "gmail", "v1", "GMAIL_API_URL")
