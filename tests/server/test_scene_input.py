"""Scenes the control API is given that no world can be made of: each is refused with the file, line and
field, and never a 500. Each of these was a 500 (and a long name was written whole to the server log)."""

from __future__ import annotations

import json
from typing import Any

import pytest

LONE = "expected text, found a lone UTF-16 surrogate (half of a character), which no file or reply can hold"
LONG = f"expected a name of at most 255 bytes (it names the scene's trial folders), found {'a' * 57!r}... (300 bytes)"


def create(stage: Any, body: dict[str, Any]) -> Any:
    # json.dumps escapes a lone surrogate (`\ud800`) as JSON allows; httpx's own encoder would refuse it
    return stage.http.post("/v1/worlds", content=json.dumps(body), headers={"Content-Type": "application/json"})


@pytest.mark.parametrize(
    ("scene_yaml", "line", "field", "message"),
    [
        ('name: "\\ud800"\ntask: t\nworld: acme\n', 1, "name", LONE),
        ("name: x\ntask: 'a\ud800'\nworld: acme\n", 2, "task", LONE),
        (f"name: {'a' * 300}\ntask: t\nworld: acme\n", 1, "name", LONG),
    ],
    ids=["escaped-surrogate", "lone-surrogate", "long-name"],
)
def test_a_scene_no_world_can_be_made_of_is_refused_where_it_is(
    stage: Any, scene_yaml: str, line: int, field: str, message: str
) -> None:
    response = create(stage, {"scene_yaml": scene_yaml})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_scene"
    assert error["errors"] == [{"file": "<scene_yaml>", "line": line, "field": field, "message": message}]


@pytest.mark.parametrize("world", ["a" * 300, '"a\\0b"'], ids=["long", "nul"])
def test_a_world_name_no_file_can_have_is_not_found(stage: Any, world: str) -> None:
    response = create(stage, {"scene_yaml": f"name: x\ntask: t\nworld: {world}\n"})
    assert response.status_code == 422, response.text
    (error,) = response.json()["error"]["errors"]
    assert (error["line"], error["field"]) == (3, "world")
    assert error["message"].startswith("no world definition ")


@pytest.mark.parametrize("scene", ["a" * 300, "a" * 50_000, "a\x00b", "a\ud800"], ids=["long", "huge", "nul", "lone"])
def test_a_scene_name_no_file_can_have_is_refused(stage: Any, scene: str) -> None:
    response = create(stage, {"scene": scene})
    assert 400 <= response.status_code < 500, response.text
    error = response.json()["error"]
    assert isinstance(error["code"], str)
    assert len(error["message"]) < 5_000  # the name is shortened, not repeated whole
