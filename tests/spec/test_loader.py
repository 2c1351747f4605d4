from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from soundstage.errors import SpecError
from soundstage.spec import loader
from soundstage.spec.loader import (
    MAX_CHARS,
    MAX_DEPTH,
    MAX_VALUES,
    Document,
    SpecErrors,
    describe,
    dotted,
    load_yaml,
    read_document,
    validate_model,
)


def error_of(text: str) -> str:
    with pytest.raises(SpecError) as caught:
        load_yaml(text, "w.yaml")
    return str(caught.value)


def test_lines_of_keys_values_and_list_items() -> None:
    document = load_yaml(
        "# a comment\n"
        "name: acme\n"
        "slack:\n"
        "  users:\n"
        "    - {ref: bot, name: stagebot}\n"
        "    - ref: maya\n"
        "      name: maya\n"
        "  channels: []\n",
        "w.yaml",
    )
    assert document.file == "w.yaml"
    assert document.data == {
        "name": "acme",
        "slack": {"users": [{"ref": "bot", "name": "stagebot"}, {"ref": "maya", "name": "maya"}], "channels": []},
    }
    assert document.lines == {
        (): 2,
        ("name",): 2,
        ("slack",): 3,
        ("slack", "users"): 4,
        ("slack", "users", 0): 5,
        ("slack", "users", 0, "ref"): 5,
        ("slack", "users", 0, "name"): 5,
        ("slack", "users", 1): 6,
        ("slack", "users", 1, "ref"): 6,
        ("slack", "users", 1, "name"): 7,
        ("slack", "channels"): 8,
    }


def test_line_falls_back_to_the_nearest_ancestor() -> None:
    document = load_yaml("a:\n  b:\n    - x\n", "w.yaml")
    assert document.line(("a", "b", 0)) == 3
    assert document.line(("a", "b", 0, "missing", "deeper")) == 3
    assert document.line(("nothing",)) == 1


def test_scalars_follow_the_yaml_1_2_core_schema() -> None:
    document = load_yaml(
        "on: yes\n"
        "off: no\n"
        "flag: true\n"
        "other: False\n"
        "start: 2026-03-02T14:00:00Z\n"
        "day: 2026-03-02\n"
        "at: 14:30\n"
        "zip: 010\n"
        "hex: 0x1F\n"
        "count: 42\n"
        "minus: -3\n"
        "ratio: 0.5\n"
        "big: 1e3\n"
        "none: ~\n"
        "empty:\n",
        "w.yaml",
    )
    assert document.data == {
        "on": "yes",
        "off": "no",
        "flag": True,
        "other": False,
        "start": "2026-03-02T14:00:00Z",
        "day": "2026-03-02",
        "at": "14:30",
        "zip": 10,
        "hex": "0x1F",
        "count": 42,
        "minus": -3,
        "ratio": 0.5,
        "big": 1000.0,
        "none": None,
        "empty": None,
    }


def test_merge_keys_give_defaults_that_written_keys_override() -> None:
    document = load_yaml(
        "base: &base {tz: UTC, title: SRE}\nuser:\n  <<: *base\n  title: Lead\n",
        "w.yaml",
    )
    assert document.data["user"] == {"tz": "UTC", "title": "Lead"}
    assert document.lines[("user", "tz")] == 1
    assert document.lines[("user", "title")] == 4


def test_an_alias_shares_its_anchors_value() -> None:
    document = load_yaml("a: &members [x, y]\nb: *members\n", "w.yaml")
    assert document.data == {"a": ["x", "y"], "b": ["x", "y"]}
    assert document.lines[("b",)] == 2


def test_duplicate_key() -> None:
    assert error_of("slack:\n  users: []\n  channels: []\n  users: []\n") == (
        "w.yaml:4: slack.users: duplicate key 'users' (first given on line 2)"
    )


def test_duplicate_key_in_a_list_item() -> None:
    assert error_of("users:\n  - {name: a, name: b}\n") == (
        "w.yaml:2: users[0].name: duplicate key 'name' (first given on line 2)"
    )


def test_syntax_error_names_the_line() -> None:
    assert error_of("name: acme\nslack:\n  users: [a, b\n  channels: []\n") == (
        "w.yaml:4: slack.users[1]: invalid YAML: expected ',' or ']', but got ':' "
        "(while parsing a flow sequence on line 3)"
    )


def test_bad_indentation() -> None:
    assert error_of("name: acme\n  description: x\n") == (
        "w.yaml:2: name: invalid YAML: mapping values are not allowed here"
    )  # a plain value goes on over lines: `acme description` is name's, broken by its `:`


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("name: x\ndescription: Doing no harm: keeping data in\n", "w.yaml:2: description"),  # suites/safety.yaml's
        ("a:\n  - b: 1\n  - c: d: 2\n", "w.yaml:3: a[1].c"),
        ("- a\n- b: c: d\n", "w.yaml:2: [1].b"),
        ("a:\n  b: 1\n c: 2\n", "w.yaml:3"),  # between entries, at the top: no field
    ],
)
def test_a_syntax_error_names_the_field_it_broke(text: str, where: str) -> None:
    assert error_of(text).rsplit(": invalid YAML", 1)[0] == where


def test_a_character_yaml_does_not_allow() -> None:
    assert error_of("name: acme\ntask: \x07\n") == (
        "w.yaml:2: invalid YAML: special characters are not allowed (found #x0007)"
    )


def test_unknown_tag() -> None:
    assert error_of("name: !!python/name:os.system x\n") == (
        "w.yaml:1: name: invalid YAML: could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/name:os.system'"
    )


def test_tagged_collection() -> None:
    assert error_of("users: !custom [a]\n") == "w.yaml:1: users: invalid YAML: unsupported tag !custom"


def test_a_key_must_be_a_plain_value() -> None:
    assert error_of("? [a, b]\n: c\n") == "w.yaml:1: invalid YAML: a key must be a plain value, not a list or mapping"


def test_recursive_alias() -> None:
    assert error_of("a: &loop [*loop]\n") == "w.yaml:1: a[0]: invalid YAML: an alias refers to a value that contains it"


def test_an_alias_bomb_is_refused_where_it_crosses_the_budget() -> None:
    # Nine aliases a level, 9**9 values from 396 bytes (one of 642 bytes once took 37 s and 2.2 GB to read).
    levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    levels += [f"{name}: &{name} [{', '.join(['*' + previous] * 9)}]" for previous, name in zip("abcdefgh", "bcdefghi")]
    text = "\n".join(levels) + "\n"
    assert len(text) == 396
    assert error_of(text) == (
        f"w.yaml:5: e[5]: the file expands to more than {MAX_VALUES:,} values "
        "(an alias counts the values of its anchor again each time it is used)"
    )


def test_a_merge_key_bomb_is_refused_before_it_is_flattened() -> None:
    # Each level merges the one before twice: 2**40 entries once flattened.
    levels = ["m0: &m0 {a: 1, b: 2}"] + [f"m{n}: &m{n} {{<<: [*m{n - 1}, *m{n - 1}]}}" for n in range(1, 41)]
    assert error_of("\n".join(levels) + "\n") == (
        f"w.yaml:13: m12.<<[1]: the file expands to more than {MAX_VALUES:,} values "
        "(an alias counts the values of its anchor again each time it is used)"
    )


def test_aliases_within_the_budget_still_expand() -> None:
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"{name}: &{name} [{', '.join(['*' + previous] * 10)}]" for previous, name in zip("abc", "bcd")]
    document = load_yaml("\n".join(levels) + "\n", "w.yaml")
    assert len(document.data["d"]) == 10 and document.data["d"][9][9][9] == ["x"] * 10  # 10**4 values


def test_many_values_without_aliases_count_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_VALUES", 1000)  # the real budget takes PyYAML seconds to reach
    text = "a: [" + ", ".join(["1"] * 1000) + "]\n"
    assert error_of(text) == (
        "w.yaml:1: a[997]: the file expands to more than 1,000 values "
        "(an alias counts the values of its anchor again each time it is used)"
    )


def test_an_inline_scene_with_an_alias_bomb_is_an_invalid_scene(stage: Any) -> None:
    bomb = ["x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    bomb += [f"x{n}: &x{n} [{', '.join([f'*x{n - 1}'] * 9)}]" for n in range(1, 9)]
    scene = "name: bomb\ntask: t\nworld: acme\nchecks:\n  - {id: c, output: {contains: {"
    text = scene + ", ".join(bomb) + "}}}\n"
    response = stage.http.post("/v1/worlds", json={"scene_yaml": text})
    assert response.status_code == 422
    error = response.json()["error"]["errors"][0]
    assert (error["file"], error["line"], error["field"]) == ("<scene_yaml>", 5, "checks[0].output.contains.x4[5]")
    assert error["message"].startswith(f"the file expands to more than {MAX_VALUES:,} values")


@pytest.mark.parametrize("depth", [MAX_DEPTH, 100_000])
def test_nesting_past_the_limit_names_its_line_and_field(depth: int) -> None:
    # The top-level mapping is the first level, so `depth` lists under it go one past the limit.
    text = "name: acme\nslack:\n  users:\n    - " + "[" * depth + "]" * depth + "\n"
    field = "slack.users[0]" + "[0]" * (MAX_DEPTH - 3)
    assert error_of(text) == f"w.yaml:4: {field}: nested more than {MAX_DEPTH} levels deep"


def test_nesting_up_to_the_limit_is_read() -> None:
    document = load_yaml("a: " + "[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1) + "\n", "w.yaml")
    value, depth = document.data["a"], 1
    while isinstance(value, list):
        value, depth = value[0], depth + 1
    assert (value, depth) == (1, MAX_DEPTH)


def test_text_longer_than_the_limit(tmp_path: Path) -> None:
    text = "a: x\n" * (MAX_CHARS // 5) + "b: " + "y" * 10 + "\n"
    assert len(text) > MAX_CHARS
    assert error_of(text) == (
        f"w.yaml:{MAX_CHARS // 5 + 1}: the file is longer than {MAX_CHARS:,} characters; "
        "split it, or use generate: for bulk records"
    )


def test_a_file_on_disk_has_the_wider_bounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A big world given as records is read from its file; the same text sent as `scene_yaml` is refused.
    text = "a:\n" + "".join(f"  - {i}\n" for i in range(MAX_VALUES)) + "b: " + "y" * MAX_CHARS + "\n"
    big = tmp_path / "big.yaml"
    big.write_text(text)
    assert len(read_document(big).data["a"]) == MAX_VALUES
    assert "the file is longer than 1,048,576 characters" in error_of(text)
    monkeypatch.setattr(loader, "FILE_VALUES", 1000)  # the real file budget takes seconds to reach
    with pytest.raises(SpecError, match="the file expands to more than 1,000 values"):
        read_document(big)
    monkeypatch.setattr(loader, "FILE_CHARS", 1000)
    huge = tmp_path / "huge.yaml"
    huge.write_bytes(b"a: " + b"x" * 4000)
    with pytest.raises(SpecError) as caught:
        read_document(huge)
    assert (caught.value.line, caught.value.message) == (
        None,
        "the file is longer than 1,000 characters; split it, or use generate: for bulk records",
    )


def test_top_level_must_be_a_mapping() -> None:
    assert error_of("- a\n- b\n") == "w.yaml:1: expected a mapping at the top level, found a list of 2 items"
    assert error_of("\n\njust text\n") == "w.yaml:3: expected a mapping at the top level, found 'just text'"


def test_empty_file() -> None:
    assert error_of("# nothing here\n") == "w.yaml:1: the file is empty; expected a mapping"


def test_several_documents() -> None:
    assert error_of("a: 1\n---\nb: 2\n") == (
        "w.yaml:2: invalid YAML: but found another document (expected a single document in the stream on line 1)"
    )


def test_read_document(tmp_path: Path) -> None:
    path = tmp_path / "acme.yaml"
    path.write_bytes("\ufeffname: acme\n".encode())
    document = read_document(path)
    assert (document.data, document.file) == ({"name": "acme"}, str(path))


def test_read_document_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        read_document(tmp_path / "nope.yaml")
    assert str(caught.value) == f"{tmp_path / 'nope.yaml'}: no such file"


def test_read_document_directory(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        read_document(tmp_path)
    assert str(caught.value) == f"{tmp_path}: is a directory; expected a YAML file"


def test_read_document_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes("name: acme\ndescription: caf\xe9\n".encode("latin-1"))
    with pytest.raises(SpecError) as caught:
        read_document(path)
    assert str(caught.value) == f"{path}:2: not UTF-8 text (byte 0xe9)"


def test_dotted() -> None:
    assert dotted(("slack", "users", 2, "email")) == "slack.users[2].email"
    assert dotted((0, "name")) == "[0].name"
    assert dotted(()) == ""


def test_describe() -> None:
    assert [describe(v) for v in (None, True, 3, 0.5, "5 minutes", {}, [1], [1, 2])] == [
        "null",
        "true",
        "3",
        "0.5",
        "'5 minutes'",
        "a mapping",
        "a list of 1 item",
        "a list of 2 items",
    ]
    assert describe("x" * 80) == "'" + "x" * 57 + "'..."


def _even(value: int) -> int:
    if value % 2:
        raise ValueError(f"expected an even number, found {value}")
    return value


class Item(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str
    size: float = Field(1.0, gt=0)


class Box(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["crate", "bag"]
    items: list[Item] = []
    tags: str | list[str] = []
    labels: dict[Annotated[str, AfterValidator(str.lower)], Annotated[Item, Field(title="label")]] = {}
    count: Annotated[int, AfterValidator(_even)] = 0
    from_: str = Field("", alias="from")


def errors_of(text: str) -> list[str]:
    with pytest.raises(SpecErrors) as caught:
        validate_model(Box, load_yaml(text, "box.yaml"))
    return [str(error) for error in caught.value.errors]


def test_validate_model_returns_the_model() -> None:
    box = validate_model(Box, load_yaml("kind: bag\nitems: [{name: a, size: 2}]\nfrom: shop\n", "box.yaml"))
    assert box == Box(kind="bag", items=[Item(name="a", size=2.0)], **{"from": "shop"})


def test_unknown_fields_list_the_allowed_ones_at_every_depth() -> None:
    text = "kind: bag\nitems:\n  - {name: a, colour: red}\nlabels:\n  top: {name: b, wieght: 2}\nsize: 3\n"
    assert errors_of(text) == [
        "box.yaml:3: items[0].colour: unknown field 'colour'; expected one of: name, size",
        "box.yaml:5: labels.top.wieght: unknown field 'wieght'; expected one of: name, size",
        "box.yaml:6: size: unknown field 'size'; expected one of: count, from, items, kind, labels, tags",
    ]


def test_type_errors_say_what_was_expected_and_found() -> None:
    assert errors_of("kind: box\nitems: {name: a}\ncount: 3\n") == [
        "box.yaml:1: kind: expected 'crate' or 'bag', found 'box'",
        "box.yaml:2: items: expected a list, found a mapping",
        "box.yaml:3: count: expected an even number, found 3",
    ]


def test_missing_field_points_at_its_parent() -> None:
    assert errors_of("kind: bag\nitems:\n  - size: 2\n") == ["box.yaml:3: items[0].name: required field is missing"]
    assert errors_of("items: []\n") == ["box.yaml:1: kind: required field is missing"]


def test_union_members_are_not_part_of_the_field_path() -> None:
    assert errors_of("kind: bag\ntags: 5\n") == [
        "box.yaml:2: tags: expected a string, found 5",
        "box.yaml:2: tags: expected a list, found 5",
    ]


def test_numbers_in_expectations_read_as_written() -> None:
    assert errors_of("kind: bag\nitems: [{name: a, size: 0}]\n") == [
        "box.yaml:2: items[0].size: expected a number greater than 0, found 0"
    ]


def test_errors_come_in_line_order_with_a_count() -> None:
    with pytest.raises(SpecErrors) as caught:
        validate_model(Box, load_yaml("count: 1\nitems: 4\nkind: x\n", "box.yaml"))
    assert str(caught.value) == "box.yaml:1: count: expected an even number, found 1 (and 2 more errors)"
    assert caught.value.to_dict() == {
        "file": "box.yaml",
        "line": 1,
        "field": "count",
        "message": "expected an even number, found 1 (and 2 more errors)",
        "errors": [
            {"file": "box.yaml", "line": 1, "field": "count", "message": "expected an even number, found 1"},
            {"file": "box.yaml", "line": 2, "field": "items", "message": "expected a list, found 4"},
            {"file": "box.yaml", "line": 3, "field": "kind", "message": "expected 'crate' or 'bag', found 'x'"},
        ],
    }


def test_a_single_error_has_no_count() -> None:
    with pytest.raises(SpecErrors) as caught:
        validate_model(Box, Document(data={"kind": "bag", "count": 1}, lines={("count",): 7}, file="box.yaml"))
    assert str(caught.value) == "box.yaml:7: count: expected an even number, found 1"
    assert caught.value.exit_code == 2


def _document(data: dict[str, Any]) -> Document:
    return Document(data=data, lines={}, file="<mem>")


def test_an_error_without_lines_still_names_the_field() -> None:
    with pytest.raises(SpecErrors) as caught:
        validate_model(Box, _document({"kind": "bag", "items": [{"name": 1}]}))
    assert str(caught.value) == "<mem>: items[0].name: expected a string, found 1"


LONE = "expected text, found a lone UTF-16 surrogate (half of a character), which no file or reply can hold"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('name: "\\ud800"\n', "w.yaml:1: name"),  # an escape of half a character
        ("name: x\ntask: 'a\ud800b'\n", "w.yaml:2: task"),  # text that came as JSON
        ("name: x\nusers:\n  - {n: \udfff}\n", "w.yaml:3: users[0].n"),
        ("name: x\nusers:\n  - {\udfff: 1}\n", "w.yaml:3: users[0]"),  # in a key: where the key is
        ("name: x # \ud800\n", "w.yaml:1"),  # in a comment: the line alone
    ],
    ids=["escaped", "in-a-value", "in-a-flow-value", "in-a-key", "in-a-comment"],
)
def test_a_lone_surrogate_is_no_text(text: str, where: str) -> None:
    """A lone surrogate made a world no reply or log line could be written of: the control API's answer was a 500."""
    assert error_of(text) == f"{where}: {LONE}"


def test_a_surrogate_pair_is_a_character() -> None:
    assert load_yaml('name: "\\ud83d\\ude00"\n', "w.yaml").data == {"name": "😀"}
