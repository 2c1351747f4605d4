"""Plain YAML is read straight from libyaml's events (`loader._Plain`): it must give exactly the data and
lines that reading node by node gives (`_Loader`, `_Builder`), and hand every other text to that reading."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from soundstage.spec import loader
from soundstage.spec.loader import PathKey

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for p in ROOT.glob("**/*.yaml") if ".git" not in p.parts and "node_modules" not in p.parts)

PLAIN = [
    (
        "a: 1\nb: [x, 2, {c: d}]\n'e': null\nf: 1.5\ng: true\nh: 010\ni: ~\nj: 14:30\nk: on\n1: x\nl:\n  - m: n\n"
        "    o: [p]\n  - q\n"
    ),
    "- a\n- b\n",
    "just text",
    'a: {b: {c: [[1], []]}}\nz: "\\u00e9 caf\u00e9"\nw: |\n  two\n  lines\nv: >-\n  folded\n  text\n',
    "x: -.inf\ny: .NaN\nz: +12\nq: 1e3\nr: FALSE\ns: '010'\nt: !!str\nu: \"\"\n",
    "? complex\n: value\nempty:\nlist: []\nmap: {}\n",
    "---\na: 1\n...\n",
]
NOT_PLAIN = [
    "a: &x 1\nb: *x\n",
    "base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n",
    "a: !!int '3'\n",
    "a: 1\na: 2\n",
    "[a]: 1\n",
    "a: 1\n---\nb: 2\n",
    "",
    "# only a comment\n",
    'a: "\\ud800"\n',
    "a: [1, 2\n",
    "a: b: c\n",
    "x: " + "[" * 101 + "]" * 101 + "\n",
]


def _by_nodes(text: str) -> tuple[Any, dict[PathKey, int]]:
    lines: dict[PathKey, int] = {}
    reader = loader._Loader(text, "f", loader.MAX_VALUES)
    node = reader.get_single_node()
    return loader._Builder(reader, "f", lines, []).build(node, ()), lines


def _plain(text: str) -> tuple[Any, dict[PathKey, int]]:
    lines: dict[PathKey, int] = {}
    return loader._Plain(text, loader.MAX_VALUES).read(lines), lines


@pytest.mark.parametrize("text", PLAIN + [p.read_text() for p in FILES], ids=lambda t: t[:30])
def test_plain_text_reads_as_node_by_node(text: str) -> None:
    try:
        fast = _plain(text)
    except loader.yaml.YAMLError:  # libyaml is stricter in places (`a: b: c` in a plain value): left to PyYAML
        return
    except loader._NotPlain:
        assert "&" in text or "<<" in text or "!!" in text, "a plain file left to the slow reading"
        return
    assert fast == _by_nodes(text)
    assert repr(fast) == repr(_by_nodes(text))  # the same types too (1 and True, 1.0 and 1 are equal)


@pytest.mark.parametrize("text", NOT_PLAIN, ids=lambda t: t[:30])
def test_other_texts_are_left_to_the_node_by_node_reading(text: str) -> None:
    with pytest.raises((loader._NotPlain, loader.yaml.YAMLError)):
        _plain(text)


def test_a_world_past_the_bounds_is_refused_as_before() -> None:
    many = "a:\n" + "".join(f"  - {i}\n" for i in range(loader.MAX_VALUES))
    with pytest.raises(loader.SpecError, match="more than 50,000 values"):
        loader.load_yaml(many, "w.yaml")


def test_a_ref_written_many_times_is_one_string() -> None:
    data, _ = _plain('a: [{user: $maya, text: hi}, {user: $maya, text: hi}]\nb: "$maya"\n')
    first, second = data["a"]
    assert first["user"] is second["user"] is data["b"] == "$maya"
    assert first["user"] == _by_nodes("a: $maya\n")[0]["a"]
