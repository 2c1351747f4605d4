"""A world of many messages given as records: a bad record deep inside is still reported at its own line and
field, every problem at once, though the lines of a plain file are only found when an error asks for them."""

from __future__ import annotations

from pathlib import Path

from soundstage.spec.loader import load_yaml
from soundstage.stage import validate_file

COUNT = 3000


def _world(folder: Path, bad: dict[int, str]) -> tuple[Path, dict[int, int]]:
    """A world file of COUNT messages, message i written as bad[i] when given; the line of each message."""
    lines = [
        "name: bigworld",
        "slack:",
        "  users:",
        "    - {ref: maya, name: maya}",
        "    - {ref: omar, name: omar}",
        "  channels:",
        "    - {ref: general, name: general, members: [$maya, $omar]}",
        "  messages:",
    ]
    at = {}
    for i in range(COUNT):
        at[i] = len(lines) + 1
        thread = f", thread_ts: $m{i - 1}" if i % 10 == 3 else ""
        lines.append(bad.get(i, f'    - {{ref: m{i}, channel: $general, user: $maya{thread}, text: "Message {i}."}}'))
    path = folder / "bigworld.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path, at


def test_a_bad_field_deep_inside_is_named_at_its_line(tmp_path: Path) -> None:
    bad = {
        2017: "    - {ref: m2017, channel: $general, user: $maya, text: 5}",
        2950: '    - {ref: m2950, channel: $general, user: $maya, text: "x", colour: red}',
    }
    path, at = _world(tmp_path, bad)
    errors = [(e.line, e.field, e.message) for e in validate_file(path)]
    assert errors == [
        (at[2017], "slack.messages[2017].text", "expected a string, found 5"),
        (at[2950], "slack.messages[2950].colour", errors[1][2]),
    ]
    assert errors[1][2].startswith("unknown field 'colour'; expected one of: ago, channel")


def test_a_message_that_is_not_a_mapping_is_named_at_its_line(tmp_path: Path) -> None:
    path, at = _world(tmp_path, {1234: "    - just text", 2345: "    - [channel, user]"})
    errors = [(e.line, e.field, e.message) for e in validate_file(path)]
    assert errors == [
        (at[1234], "slack.messages[1234]", "expected a mapping, found 'just text'"),
        (at[2345], "slack.messages[2345]", "expected a mapping, found a list of 2 items"),
    ]


def test_a_bad_ref_deep_inside_is_named_at_its_line(tmp_path: Path) -> None:
    path, at = _world(tmp_path, {2718: '    - {channel: $general,\n       user: $nobody, text: "Who?"}'})
    (error,) = validate_file(path)
    assert (error.file, error.line, error.field) == (str(path), at[2718] + 1, "slack.messages[2718].user")
    assert "nobody" in error.message


def test_the_lines_found_later_are_those_read_node_by_node(tmp_path: Path) -> None:
    path, _ = _world(tmp_path, {})
    text = path.read_text()
    plain = load_yaml(text, "w.yaml", max_values=10**6)
    # An anchor makes the text not plain: it is read node by node, its lines recorded as it goes.
    by_nodes = load_yaml(text.replace("name: bigworld", "name: &n bigworld"), "w.yaml", max_values=10**6)
    assert plain.data == by_nodes.data
    assert plain.lines == by_nodes.lines
