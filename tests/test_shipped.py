"""Every file the project ships for users to run loads and validates: the scenes, the world, the suites and the
check library. The README tells users to run them; a file it ships must never be refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from soundstage.spec.suites import expand_suites
from soundstage.stage import ImageCache
from soundstage.stage.validate import validated

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("seeds", "suites", "worlds", "checks", "examples")
SHIPPED = sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.y*ml"))
SUITES = sorted((ROOT / "suites").glob("*.yaml"))


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a user runs them: from the clone's root, with no other scene folders or libraries."""
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("SOUNDSTAGE_PATH", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_CHECKS", raising=False)


def test_every_folder_of_shipped_files_is_found() -> None:
    found = {path.relative_to(ROOT).parts[0] for path in SHIPPED}
    assert found == {"seeds", "suites", "worlds", "checks", "examples"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_shipped_file_validates_without_a_warning(path: Path) -> None:
    checked = validated(path.relative_to(ROOT))
    assert [str(problem) for problem in checked.errors + checked.warnings] == []


@pytest.mark.parametrize("suite", SUITES, ids=lambda path: path.stem)
def test_a_shipped_suite_loads_every_scene_by_its_name(suite: Path) -> None:
    scenes = expand_suites([suite.stem])  # `soundstage run safety`, as the README says
    assert scenes
    images = ImageCache()
    assert all(images.load(scene).name for scene in scenes)
