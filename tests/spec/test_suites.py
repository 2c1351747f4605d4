"""Suites: a file listing scenes by name or path and/or by tag, run as its scenes (`soundstage run
suites/<name>.yaml`); a bad suite is refused with the file, line and field of each problem."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from soundstage.errors import SpecError
from soundstage.spec.suites import expand_suites, is_suite, read_suite

SCENE = (
    "name: {name}\ntags: {tags}\ntask: Do nothing.\n"
    "seed:\n  slack:\n    users: [{{ref: bot, name: bot, is_bot: true}}]\n"
)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOUNDSTAGE_PATH", raising=False)
    (tmp_path / "seeds").mkdir()
    (tmp_path / "suites").mkdir()
    for name, tags in (("alpha", "[oncall]"), ("beta", "[support, oncall]"), ("gamma", "[support]")):
        (tmp_path / "seeds" / f"{name}.yaml").write_text(SCENE.format(name=name, tags=tags))
    return tmp_path


def test_a_suite_is_its_scenes_in_order_each_once(here: Path) -> None:
    suite = here / "suites" / "mixed.yaml"
    suite.write_text("name: mixed\nscenes: [gamma, ../seeds/alpha.yaml]\ntags: [oncall]\n")
    read, scenes = read_suite(suite)
    assert read.name == "mixed"
    assert [Path(s).name for s in scenes] == ["gamma.yaml", "alpha.yaml", "beta.yaml"]
    assert is_suite(str(suite)) == suite
    assert is_suite("mixed") == here / "suites" / "mixed.yaml"  # by name, as no scene has it
    assert is_suite("alpha") is None and is_suite("seeds/alpha.yaml") is None
    assert [Path(s).name for s in expand_suites(["alpha", "mixed"])] == [
        "alpha",
        "gamma.yaml",
        "alpha.yaml",
        "beta.yaml",
    ]


def problems(here: Path, text: str) -> list[tuple[int | None, str, str]]:
    """Each problem of a suite of `text`: its line, field and message up to its first `:` or `;`."""
    suite = here / "suites" / "bad.yaml"
    suite.write_text(text)
    with pytest.raises(SpecError) as raised:
        read_suite(suite)
    errors: list[SpecError] = raised.value.errors  # type: ignore[attr-defined]
    return [(e.line, e.field, re.split("[:;]", e.message)[0]) for e in errors]


def test_a_bad_suite_names_each_problem(here: Path) -> None:
    text = "name: bad\nscenes:\n  - alpha\n  - alpah\ntags: [oncall, nothing]\n"
    assert problems(here, text) == [(4, "scenes[1]", "no scene 'alpah'"), (5, "tags", "no scene has the tag 'nothing'")]
    suite = here / "suites" / "bad.yaml"
    suite.write_text("name: empty\ndescription: nothing in it\n")
    with pytest.raises(SpecError) as raised:
        read_suite(suite)
    assert "a suite lists `scenes`, or `tags` whose scenes it runs, or both" in str(raised.value)


def test_run_takes_a_suite(here: Path) -> None:
    from typer.testing import CliRunner

    from soundstage.cli import app

    (here / "suites" / "support.yaml").write_text("name: support\ntags: [support]\n")
    result = CliRunner().invoke(app, ["run", "suites/support.yaml", "--agent", "true", "--json"])
    run = json.loads(result.stdout)
    assert [(r["scene"], r["trial"]) for r in run["results"]] == [("beta", 1), ("gamma", 1)]


def test_a_bad_field_of_a_suite_hides_no_missing_scene(here: Path) -> None:
    assert problems(here, "name: bad\ndescripton: typo\nscenes: [alpah]\n") == [
        (2, "descripton", "unknown field 'descripton'"),
        (3, "scenes[0]", "no scene 'alpah'"),
    ]
