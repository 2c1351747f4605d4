from __future__ import annotations

import os
from pathlib import Path

import pytest

from soundstage.errors import NotFound
from soundstage.spec.discovery import find_scene, find_world, list_scenes, list_worlds, roots
from soundstage.spec.loader import describe


def write(path: Path, text: str = "name: x\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def two_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """Two SOUNDSTAGE_PATH roots and a current directory, all empty."""
    first, second, here = tmp_path / "first", tmp_path / "second", tmp_path / "here"
    for folder in (first, second, here):
        folder.mkdir()
    monkeypatch.setenv("SOUNDSTAGE_PATH", f"{first}{os.pathsep}{os.pathsep}{second}")
    monkeypatch.chdir(here)
    return first, second, here


def test_roots_are_the_path_then_the_current_directory(two_roots: tuple[Path, Path, Path]) -> None:
    first, second, here = two_roots
    assert roots() == [first, second, here]


def test_roots_without_soundstage_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_PATH", raising=False)
    monkeypatch.chdir(tmp_path)
    assert roots() == [tmp_path]


def test_find_scene_by_name_in_root_order(two_roots: tuple[Path, Path, Path]) -> None:
    _first, second, here = two_roots
    write(second / "seeds" / "outage.yaml")
    write(here / "seeds" / "outage.yaml")
    write(here / "seeds" / "local.yaml")
    assert find_scene("outage") == second / "seeds" / "outage.yaml"
    assert find_scene("local") == here / "seeds" / "local.yaml"


def test_an_existing_path_wins_over_a_name(two_roots: tuple[Path, Path, Path]) -> None:
    first, _, here = two_roots
    write(first / "seeds" / "outage.yaml")
    write(here / "outage")
    assert find_scene("outage") == Path("outage")
    assert find_scene(first / "seeds" / "outage.yaml") == first / "seeds" / "outage.yaml"


def test_a_missing_scene_lists_the_available_ones(two_roots: tuple[Path, Path, Path]) -> None:
    first, second, here = two_roots
    write(first / "seeds" / "b.yaml")
    write(here / "seeds" / "a.yaml")
    with pytest.raises(NotFound) as caught:
        find_scene("nope")
    assert str(caught.value) == (
        f"no scene 'nope': no such file, and no seeds/nope.yaml in {first}, {second}, {here}; available scenes: a, b"
    )


def test_a_missing_scene_when_there_are_none(two_roots: tuple[Path, Path, Path]) -> None:
    first, second, here = two_roots
    with pytest.raises(NotFound) as caught:
        find_scene("seeds/nope.yaml")
    assert str(caught.value) == (
        f"no scene 'seeds/nope.yaml': no such file, and no seeds/seeds/nope.yaml.yaml in {first}, {second}, {here}; "
        "no scenes found"
    )


def test_find_world_relative_to_the_scene_first(two_roots: tuple[Path, Path, Path]) -> None:
    first, _, here = two_roots
    scene = write(here / "project" / "seeds" / "s.yaml")
    write(here / "project" / "seeds" / "acme")
    write(first / "worlds" / "acme.yaml")
    shared = write(here / "shared" / "acme.yaml")
    assert find_world("acme", scene) == here / "project" / "seeds" / "acme"
    assert find_world("../../shared/acme.yaml", scene) == scene.parent / "../../shared/acme.yaml"
    assert find_world(shared, scene) == shared


def test_find_world_by_name_in_the_roots_then_beside_the_scene_folder(two_roots: tuple[Path, Path, Path]) -> None:
    _first, second, here = two_roots
    scene = write(here / "project" / "seeds" / "s.yaml")
    write(second / "worlds" / "acme.yaml")
    write(here / "project" / "worlds" / "acme.yaml")
    write(here / "project" / "worlds" / "globex.yaml")
    assert find_world("acme", scene) == second / "worlds" / "acme.yaml"
    assert find_world("globex", scene) == here / "project" / "worlds" / "globex.yaml"


def test_a_missing_world_lists_the_available_ones(two_roots: tuple[Path, Path, Path]) -> None:
    first, second, here = two_roots
    scene = write(here / "project" / "seeds" / "s.yaml")
    write(first / "worlds" / "acme.yaml")
    write(here / "project" / "worlds" / "globex.yaml")
    with pytest.raises(NotFound) as caught:
        find_world("initech", scene)
    assert str(caught.value) == (
        f"no world definition 'initech': no file {scene.parent / 'initech'}, and no worlds/initech.yaml in "
        f"{first}, {second}, {here}, {here / 'project'}; available world definitions: acme, globex"
    )


def test_list_scenes_by_name_with_descriptions(two_roots: tuple[Path, Path, Path]) -> None:
    _first, second, here = two_roots
    write(second / "seeds" / "outage.yaml", "name: outage\ndescription: The orders API is slow.\n")
    write(here / "seeds" / "outage.yaml", "name: outage\ndescription: shadowed by the first root\n")
    write(here / "seeds" / "blank.yaml", "name: blank\n")
    write(here / "seeds" / "broken.yaml", "name: broken\n  description: x\n")
    write(here / "seeds" / "odd.yaml", "name: odd\ndescription: [not, text]\n")
    write(here / "seeds" / "notes.txt", "not a scene\n")
    (here / "seeds" / "folder.yaml").mkdir()
    assert list_scenes() == [
        ("blank", here / "seeds" / "blank.yaml", ""),
        (
            "broken",
            here / "seeds" / "broken.yaml",
            f"invalid: {here / 'seeds' / 'broken.yaml'}:2: name: invalid YAML: mapping values are not allowed here",
        ),
        ("odd", here / "seeds" / "odd.yaml", ""),
        ("outage", second / "seeds" / "outage.yaml", "The orders API is slow."),
    ]


def test_list_worlds(two_roots: tuple[Path, Path, Path]) -> None:
    first, _, here = two_roots
    write(first / "worlds" / "acme.yaml", "name: acme\ndescription: A 40-person SaaS company.\n")
    write(here / "seeds" / "s.yaml", "name: s\n")
    assert list_worlds() == [("acme", first / "worlds" / "acme.yaml", "A 40-person SaaS company.")]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("a" * 300, "a" * 300),  # longer than a file name may be: the OS said so with an OSError
        ("a" * 5000, repr("a" * 57) + "..."),  # longer than any path: not repeated whole
        ("a\x00b", "'a\\x00b'"),  # no path holds a NUL byte: a ValueError
        ("a\ud800", "'a\\ud800'"),  # half a character: no message with it could be encoded
    ],
    ids=["long", "longer-than-a-path", "nul", "lone-surrogate"],
)
def test_a_name_no_file_can_have_is_not_found(two_roots: tuple[Path, Path, Path], name: str, shown: str) -> None:
    first, second, here = two_roots
    with pytest.raises(NotFound) as caught:
        find_scene(name)
    assert str(caught.value) == (
        f"no scene {describe(name)}: no such file, and no seeds/{shown}.yaml in {first}, {second}, {here}; "
        "no scenes found"
    )
    scene = write(here / "seeds" / "s.yaml")
    with pytest.raises(NotFound) as caught:
        find_world(name, scene)
    relative = str(scene.parent / name)
    assert str(caught.value) == (
        f"no world definition {describe(name)}: no file {relative if shown == name else describe(relative)}, "
        f"and no worlds/{shown}.yaml in {first}, {second}, {here}, {here}; no world definitions found"
    )
