"""The pytest plugin (docs/pytest.md), run as a user runs it: examples/test_rehearsals.py (two scenes) and a
file of failures, in a pytest of its own that loads the plugin through its entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).parent.parent

EXAMPLE = ROOT / "examples" / "test_rehearsals.py"  # rehearsals of two scenes that pass

# What a failed rehearsal and a misnamed scene look like, and where markers may go.
FAILING = f"""
import subprocess
import sys

import pytest

AGENTS = {str(ROOT / "examples" / "agents")!r}


@pytest.mark.scene("refund-approval")
def test_refund_confirmed_too_early(world):
    done = subprocess.run([sys.executable, f"{{AGENTS}}/refund_too_early.py"], env=world.env, input=world.task,
                          capture_output=True, text=True, timeout=120, check=True)
    result = world.finish(output=done.stdout)
    assert result.passed, result.explain()


@pytest.mark.scene("csv-export")
class TestMarkedClass:
    def test_the_class_marker_names_the_scene(self, world, stage):
        assert (world.scene, world.finished, world.id in stage.hub.worlds) == ("csv-export", False, True)

    @pytest.mark.scene(scene_yaml="name: inline\\ntask: Nothing.\\nseed: \
{{slack: {{team: {{name: Acme, domain: acme}}}}}}\\n")
    def test_the_closest_marker_wins(self, world):
        assert (world.scene, world.task) == ("inline", "Nothing.")


closed = []


@pytest.mark.scene("csv-export")
def test_a_world_kept_for_later(world):
    closed.append(world.id)


def test_a_world_is_closed_after_its_test(stage):
    assert len(closed) == 1 and closed[0] not in stage.hub.worlds


def test_a_world_without_a_scene(world):
    pass


@pytest.mark.scene("no-such-scene")
def test_a_scene_that_is_not_there(world):
    pass
"""


@pytest.fixture
def rehearsals(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("SOUNDSTAGE_PATH", str(ROOT))  # where `refund-approval` and `csv-export` are found
    pytester.makepyfile(test_rehearsals=EXAMPLE.read_text(), test_failing=FAILING)
    (pytester.path / "agents").symlink_to(ROOT / "examples" / "agents")  # beside the example, as in examples/
    return pytester


def test_a_test_file_rehearses_two_scenes_with_the_checks_in_its_failures(rehearsals: pytest.Pytester) -> None:
    result = rehearsals.runpytest_subprocess("--strict-markers", "-p", "no:cacheprovider", "-v")

    result.assert_outcomes(passed=7, failed=1, errors=2)
    result.stdout.fnmatch_lines(
        [
            "test_rehearsals.py::test_the_refund_is_approved_before_it_is_confirmed PASSED*",
            "test_rehearsals.py::test_confirming_the_refund_too_early_is_caught PASSED*",
            "test_rehearsals.py::test_the_csv_question_is_answered_once PASSED*",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*_ test_refund_confirmed_too_early _*",
            "E * AssertionError: refund-approval: failed",
            "E *   approved_before_confirming (before): failed",
            (
                'E *     expected:    $priya deciding priya.refund: "approve the refund", then a message from $bot in '
                "CAUVACJMVE0 ($ext_northwind), in that order"
            ),
            "E *     #45 2026-03-02T14:02:05Z decided UWMRFXY8ZAH decided priya.refund: approve the refund",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            (
                "*test_a_world_without_a_scene uses the `world` fixture without a scene: mark it "
                '@pytest.mark.scene("refund-approval")*'
            ),
        ]
    )
    result.stdout.fnmatch_lines(["*the scene of *test_a_scene_that_is_not_there cannot be rehearsed: no scene *"])
    assert "Traceback" not in result.stdout.str()
    assert "During handling" not in result.stdout.str()  # each problem once
    result.stdout.fnmatch_lines(
        ["E * where False = <Result refund-approval: failed (approved_before_confirming)>.passed"]
    )


def test_the_scene_marker_is_registered(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("--markers")

    result.stdout.fnmatch_lines(["@pytest.mark.scene(name_or_path, scene_yaml=None): the scene the `world` fixture *"])


def test_the_plugin_can_be_left_out(rehearsals: pytest.Pytester) -> None:
    result = rehearsals.runpytest_subprocess("-p", "no:soundstage", "test_rehearsals.py", "-k", "is_approved")

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'world' not found*"])
