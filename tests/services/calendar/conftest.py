"""Google Calendar test worlds: live worlds on the shared test server, reached the way an agent reaches them."""

from __future__ import annotations

from typing import Any

import pytest
from tests.services.google_world import SCENE, GoogleWorld


def calendar_world(live: Any) -> GoogleWorld:
    return GoogleWorld(live, "calendar", "v3", "GOOGLE_CALENDAR_API_URL")


@pytest.fixture
def cal(stage: Any) -> GoogleWorld:
    """A fresh world for tests that write or move the clock."""
    return calendar_world(stage.world(SCENE))


@pytest.fixture(scope="module")
def cal_read(stage: Any) -> GoogleWorld:
    """One world shared by a module's read-only tests."""
    return calendar_world(stage.world(SCENE))
