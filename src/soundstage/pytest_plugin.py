"""The pytest plugin (docs/pytest.md), loaded by pytest through the `pytest11` entry point.

    @pytest.mark.scene("refund-approval")
    def test_refund(world):
        run_my_agent(world.env)
        world.finish(output="...").assert_passed()   # a failure's message names each check, with evidence

`stage` is one `Stage` for the whole session, started when a test first asks for it; `world` a fresh live
world of the scene the test's `scene` marker names, closed after the test. soundstage itself is imported
only then, so the plugin costs nothing to a session that does not use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .rehearsal import LiveWorld, Stage

MARKER = (
    "scene(name_or_path, scene_yaml=None): the scene the `world` fixture builds, as Stage.world takes it "
    "(soundstage's pytest plugin)"
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER)


@pytest.fixture(scope="session")
def stage() -> Iterator[Stage]:
    """A soundstage server in this process for the whole session."""
    from .rehearsal import Stage

    with Stage() as started:
        yield started


@pytest.fixture
def world(stage: Stage, request: pytest.FixtureRequest) -> Iterator[LiveWorld]:
    """A fresh live world of the scene named by the test's `@pytest.mark.scene(...)`."""
    from .errors import SoundstageError

    marker = request.node.get_closest_marker("scene")
    if marker is None:
        pytest.fail(
            f"{request.node.nodeid} uses the `world` fixture without a scene: mark it "
            '@pytest.mark.scene("refund-approval") (a scene\'s name or path, or scene_yaml="...")',
            pytrace=False,
        )
    problem: str | None = None
    try:
        live = stage.world(*marker.args, **marker.kwargs)
    except (SoundstageError, TypeError) as exc:  # a scene that does not load, a marker with wrong arguments
        problem = str(exc)
    if problem is not None:  # failed here, outside the handler: the report shows the problem once
        pytest.fail(f"the scene of {request.node.nodeid} cannot be rehearsed: {problem}", pytrace=False)
    try:
        yield live
    finally:
        live.close()
