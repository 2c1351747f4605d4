"""Warnings for `ask` phrases only their exact words reach: file, line and field of each."""

from __future__ import annotations

import pytest

from soundstage.people.narrow import narrow, narrow_asks

from .conftest import scene


@pytest.mark.parametrize(
    ("phrase", "is_narrow"),
    [
        ("contract", False),  # one word: every inflection of it asks
        ("root cause", False),  # a phrase of the synonym table
        ("what's going on", True),  # vague, not a group: answered by `general_answer`, not by this fact
        ("how much do they pay", True),
        ("W-4821", True),  # only someone who knows it already asks with it
        ("1.5.0", True),
    ],
)
def test_narrow_phrases(phrase, is_narrow):
    assert narrow(phrase) is is_narrow


def test_each_fact_and_decision_only_exact_words_ask_for_is_warned_of(tmp_path):
    people = """
  - ref: sam
    slack_user: $sam
    facts:
      - {id: value, text: "180k.", match: ["180k"], ask: ["contract value", "W-4821"]}
      - {id: plan, text: "Gold.", match: ["Gold"], ask: ["what plan", "plan"]}
      - {id: quiet, text: "Shh.", match: ["shh"]}
    decisions:
      - {id: waive, ask: ["waive the fee"], options: [waive, keep]}
"""
    path = tmp_path / "narrow.yaml"
    path.write_text(scene(people.replace("$sam", "$laura").replace("ref: sam", "ref: laura")))
    where = str(path)
    lines = path.read_text().splitlines()
    value, waive = (next(n for n, line in enumerate(lines, 1) if f"id: {id_}," in line) for id_ in ("value", "waive"))
    advice = 'add a single word a question would use, or a phrase of the synonym table (docs/people.md, "Other words")'
    assert [warning.to_dict() for warning in narrow_asks(path)] == [
        {
            "file": where,
            "line": value,
            "field": "people[0].facts[0].ask",
            "message": f'laura.value is asked only by these exact words ("contract value", "W-4821"): {advice}',
        },
        {
            "file": where,
            "line": waive,
            "field": "people[0].decisions[0].ask",
            "message": f'laura.waive is asked only by these exact words ("waive the fee"): {advice}',
        },
    ]


def test_a_file_that_cannot_be_read_gets_no_warning_here(tmp_path):
    (tmp_path / "broken.yaml").write_text("people: [ {ref: x, facts: 3}, 7 ]\n")
    assert narrow_asks(tmp_path / "broken.yaml") == []
    assert narrow_asks(tmp_path / "missing.yaml") == []
