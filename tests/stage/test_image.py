"""Building world images from scenes, refs across files, and live worlds as copies of an image."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from soundstage.errors import SpecError
from soundstage.services.slack.store import MESSAGES, USERS
from soundstage.stage import ImageCache, validate_file
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene, read_scene_text

ROOT = Path(__file__).resolve().parents[2]

INLINE = """name: inline
task: t
clock: {start: "2026-03-02T14:00:00Z"}
agent: {slack_user: $bot}
seed:
  slack:
    users:
      - {ref: bot, name: stagebot, is_bot: true}
      - {ref: maya, name: maya}
    channels:
      - {ref: general, name: general, members: [$bot, $maya]}
checks:
  - id: posted
    trace: {called: "POST /api/chat.postMessage"}
"""


def test_acme_scene_builds_with_refs_resolved():
    image = build_image(*read_scene(ROOT / "seeds" / "csv-export.yaml"))
    assert image.world_name == "acme"
    assert image.refs["support"].startswith("C") and image.refs["bot"].startswith("U")
    assert image.agent["slack_user"] == image.refs["bot"]
    question = image.collections[MESSAGES].get(image.refs["csv_question"])
    assert question["channel"] == image.refs["support"] and question["user"] == image.refs["laura"]
    assert len(image.collections[MESSAGES]) > 120  # the generated noise is there


def test_images_are_deterministic():
    one = build_image(*read_scene(ROOT / "seeds" / "csv-export.yaml"))
    two = build_image(*read_scene(ROOT / "seeds" / "csv-export.yaml"))
    assert one.refs == two.refs
    assert list(one.collections[MESSAGES]) == list(two.collections[MESSAGES])


def test_live_worlds_share_records_until_changed():
    image = build_image(*read_scene_text(INLINE))
    a, b = image.instantiate("a"), image.instantiate("b")
    maya = image.refs["maya"]
    assert a[USERS].get(maya) is b[USERS].get(maya)
    a[USERS].change(maya, real_name="Maya")
    assert b[USERS].get(maya) is image.collections[USERS].get(maya)
    assert USERS not in b.diff() and USERS in a.diff()
    assert a.ids.slack("C") == b.ids.slack("C")


def test_unknown_ref_names_file_line_and_field():
    with pytest.raises(SpecError) as info:
        build_image(*read_scene_text(INLINE.replace("members: [$bot, $maya]", "members: [$bot, $mia]")))
    error = info.value
    assert (error.file, error.line, error.field) == ("<scene_yaml>", 11, "seed.slack.channels[0].members[1]")
    assert "unknown ref $mia" in error.message


def test_check_errors_name_the_line():
    with pytest.raises(SpecError) as info:
        build_image(*read_scene_text(INLINE.replace('called: "POST /api/chat.postMessage"', "callled: x")))
    assert info.value.line == 14 and info.value.field.startswith("checks[0]")


def test_pass_list_must_name_checks():
    with pytest.raises(SpecError) as info:
        build_image(*read_scene_text(INLINE + "pass: [posted, nope]\n"))
    assert "nope" in info.value.message and info.value.line == 15


def test_cache_reuses_images_and_notices_edits(tmp_path):
    scene = tmp_path / "s.yaml"
    scene.write_text(INLINE)
    cache = ImageCache()
    first = cache.load(scene=str(scene))
    assert cache.load(scene=str(scene)) is first
    assert cache.load(scene_yaml=INLINE) is cache.load(scene_yaml=INLINE)
    scene.write_text(INLINE.replace("task: t", "task: changed"))
    os.utime(scene, ns=(1, 1))
    assert cache.load(scene=str(scene)).task == "changed"


def test_cache_notices_an_edit_that_keeps_the_files_time(tmp_path):
    scene = tmp_path / "s.yaml"
    scene.write_text(INLINE)
    os.utime(scene, ns=(1, 1))
    cache = ImageCache()
    cache.load(scene=str(scene))
    scene.write_text(INLINE.replace("task: t", "task: longer"))
    os.utime(scene, ns=(1, 1))
    assert cache.load(scene=str(scene)).task == "longer"


def test_cache_keeps_the_images_used_last():
    cache = ImageCache(size=2)
    one, two = INLINE, INLINE.replace("task: t", "task: two")
    first = cache.load(scene_yaml=one)
    cache.load(scene_yaml=two)
    assert cache.load(scene_yaml=one) is first  # used again: now the newest
    cache.load(scene_yaml=INLINE.replace("task: t", "task: three"))  # pushes out `two`, the oldest
    assert cache.load(scene_yaml=one) is first
    assert len(cache._images) == 2 and cache.load(scene_yaml=two).task == "two"


def test_validate_file_reports_every_example_as_valid():
    for path in sorted((ROOT / "worlds").glob("*.yaml")) + sorted((ROOT / "seeds").glob("*.yaml")):
        assert validate_file(path) == [], path


def test_validate_file_reports_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(INLINE.replace("name: maya}", "name: maya, emial: x}"))
    errors = validate_file(bad)
    assert [(e.line, e.field) for e in errors] == [(9, "seed.slack.users[1].emial")]


def test_building_leaves_the_garbage_collector_as_it_was():
    """An image is built with what exists frozen out of the collector's sight (`collector.held`); its watch
    on full collections ends with the build, whether the build succeeds or fails."""
    callbacks, enabled = list(gc.callbacks), gc.isenabled()
    build_image(*read_scene_text(INLINE))
    with pytest.raises(SpecError):
        build_image(*read_scene_text(INLINE.replace("$maya]", "$nobody]")))
    assert (gc.callbacks, gc.isenabled()) == (callbacks, enabled)
