"""The check library: definitions read with every problem at its line, `use` entries expanded with their
arguments (problems reported where the scene wrote them), the expanded checks kept by the trial, and where
libraries are found."""

from __future__ import annotations

from pathlib import Path

import pytest

from soundstage.checks.library import find_library, read_library_file
from soundstage.errors import SpecError
from soundstage.spec.loader import SpecErrors
from soundstage.stage import build_image
from soundstage.stage.models import read_scene

LIBRARY = """\
description: shared checks
checks:
  - id: answered_in_thread
    description: A reply in the question's thread.
    params:
      channel: the channel
      question: the question's message
      contains: {description: text the reply has, default: null}
      by: {description: who replies, default: $bot}
    state:
      slack.message: {channel: $channel, in_thread_of: $question, from: $by, text_contains: $contains}
  - id: no_errors
    trace: {no_errors: true}
  - id: quiet_in
    params: {channel: where}
    never: {in: $channel, text_contains: hello}
"""

SCENE = """\
name: greet
task: Say hello in the thread.
agent: {slack_user: $bot}
seed:
  slack:
    users:
      - {ref: bot, name: stagebot, is_bot: true}
      - {ref: maya, name: maya}
    channels:
      - {ref: general, name: general, members: [$bot, $maya]}
    messages:
      - {ref: question, channel: $general, user: $maya, text: "anyone?"}
checks:
"""


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOUNDSTAGE_PATH", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_CHECKS", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_CONFIG", raising=False)
    (tmp_path / "checks").mkdir()
    (tmp_path / "checks" / "shared.yaml").write_text(LIBRARY)
    (tmp_path / "seeds").mkdir()
    return tmp_path


def scene(here: Path, checks: str, name: str = "greet") -> Path:
    path = here / "seeds" / f"{name}.yaml"
    path.write_text(SCENE + checks)
    return path


def errors_of(path: Path) -> list[tuple[str, int | None, str | None, str]]:
    with pytest.raises(SpecError) as raised:
        build_image(*read_scene(path))
    errors = getattr(raised.value, "errors", [raised.value])
    return [(Path(e.file).name, e.line, e.field, e.message) for e in errors]


def test_a_use_becomes_the_library_check_with_its_arguments(here: Path) -> None:
    path = scene(
        here,
        "  - use: {check: answered_in_thread, channel: $general, question: $question, contains: hi}\n"
        "  - {id: no_errors_at_all, use: no_errors}\n"
        "  - use: {check: quiet_in, channel: $general}\n",
    )
    image = build_image(*read_scene(path))
    assert [check.id for check in image.checks] == ["answered_in_thread", "no_errors_at_all", "quiet_in"]
    general, question, bot = image.refs["general"], image.refs["question"], image.refs["bot"]
    assert image.checks[0].spec == {"channel": general, "in_thread_of": question, "from": bot, "text_contains": "hi"}
    assert image.checks[2].spec == {"in": general, "text_contains": "hello"}
    # The trial keeps the checks expanded and unresolved, so it scores the same whatever the library becomes.
    assert image.scene_record()["checks"] == [
        {
            "id": "answered_in_thread",
            "state": {
                "slack.message": {
                    "channel": "$general",
                    "in_thread_of": "$question",
                    "from": "$bot",
                    "text_contains": "hi",
                }
            },
        },
        {"id": "no_errors_at_all", "trace": {"no_errors": True}},
        {"id": "quiet_in", "never": {"in": "$general", "text_contains": "hello"}},
    ]
    assert str(here / "checks" / "shared.yaml") in image.files  # a changed library rebuilds the image


def test_problems_of_uses_are_reported_where_the_scene_wrote_them(here: Path) -> None:
    path = scene(
        here,
        "  - use: answerd_in_thread\n"
        "  - use: {check: answered_in_thread, channel: $genral, question: $question, colour: red}\n"
        "  - use: {check: quiet_in}\n"
        "  - use: {check: answered_in_thread, channel: $general, question: $question, contains: 42}\n"
        "  - id: no_errors\n"
        "    trace: {no_errors: true}\n"
        "  - use: no_errors\n",
    )
    library = here / "checks" / "shared.yaml"
    assert errors_of(path) == [
        (
            "greet.yaml",
            14,
            "checks[0].use",
            (
                "no library check 'answerd_in_thread' "
                f"(library checks: answered_in_thread, no_errors, quiet_in; read from: {library})"
            ),
        ),
        (
            "greet.yaml",
            15,
            "checks[1].use.colour",
            (
                "answered_in_thread has no parameter 'colour' "
                f"(parameters: channel, question, contains, by; defined at {library}:3)"
            ),
        ),
        ("greet.yaml", 16, "checks[2].use", "quiet_in needs the argument 'channel': where"),
        ("greet.yaml", 17, "checks[3].use.contains", "expected a string, found 42"),
        (
            "greet.yaml",
            17,
            "checks[3].use",
            (
                "check id 'answered_in_thread' is used twice (first at checks[1]): "
                "a use entry is named after its library check, so give it an `id`"
            ),
        ),
        (
            "greet.yaml",
            20,
            "checks[5].use",
            (
                "check id 'no_errors' is used twice (first at checks[4]): a use entry is "
                "named after its library check, so give it an `id`"
            ),
        ),
    ]


def test_a_use_entry_carries_the_weight_the_scene_gives_it_and_a_bad_one_is_named_at_its_line(here: Path) -> None:
    path = scene(
        here, "  - use: no_errors\n    weight: 2.5\n  - id: quiet\n    use: {check: quiet_in, channel: $general}\n"
    )
    image = build_image(*read_scene(path))
    assert [(check.id, check.weight) for check in image.checks] == [("no_errors", 2.5), ("quiet", 1.0)]
    assert image.scene_record()["checks"][0] == {"id": "no_errors", "weight": 2.5, "trace": {"no_errors": True}}

    bad = scene(here, "  - use: no_errors\n    weight: heavy\n  - use: no_errors\n    id: again\n    colour: red\n")
    assert errors_of(bad) == [
        ("greet.yaml", 15, "checks[0].weight", "weight is a number, 0 or more (default 1); found 'heavy'"),
        ("greet.yaml", 16, "checks[1]", "a use entry has `use`, and optionally `id` and `weight`; found colour"),
    ]


def test_an_unknown_ref_in_an_argument_is_named_at_that_argument(here: Path) -> None:
    path = scene(here, "  - use: {check: answered_in_thread, channel: $genral, question: $question}\n")
    [(file, line, field, message)] = errors_of(path)
    assert (file, line, field) == ("greet.yaml", 14, "checks[0].use.channel")
    assert message.startswith("unknown ref $genral (known refs: ")


def test_a_problem_inside_the_definition_names_the_library_check(here: Path) -> None:
    (here / "checks" / "shared.yaml").write_text(
        "checks:\n  - id: by_someone\n    params: {who: a person}\n"
        "    state: {slack.message: {from: $who, count_gte: many}}\n"
    )
    path = scene(here, "  - use: {check: by_someone, who: $maya}\n")
    assert errors_of(path) == [
        (
            "greet.yaml",
            14,
            "checks[0].use",
            f"library check by_someone ({here / 'checks' / 'shared.yaml'}:2): expected a whole number, found 'many'",
        )
    ]


def test_a_library_file_is_checked_whole_with_lines(here: Path) -> None:
    bad = here / "checks" / "shared.yaml"
    bad.write_text(
        "colour: red\n"
        "checks:\n"
        "  - id: two_kinds\n"
        "    trace: {no_errors: true}\n"
        "    output: {contains: x}\n"
        "  - id: 'has space'\n"
        "    trace: {no_errors: true}\n"
        "  - id: unused_param\n"
        "    params: {channel: where}\n"
        "    trace: {no_errors: true}\n"
        "  - id: twice\n"
        "    trace: {no_errors: true}\n"
        "  - id: twice\n"
        "    trace: {no_errors: true}\n"
        "  - id: bad_state\n"
        "    state: {slack.mesage: {}}\n"
    )
    with pytest.raises(SpecErrors) as raised:
        read_library_file(bad)
    assert [(e.line, e.field, e.message) for e in raised.value.errors] == [
        (1, "colour", "unknown key 'colour': a library file has `checks` and `description`"),
        (
            3,
            "checks[0]",
            (
                "a check definition has exactly one kind key (before, decided, judge, knows, message, never, "
                "output, python, revealed, state, told, trace, within); found trace, output"
            ),
        ),
        (6, "checks[1].id", "expected an id of letters, digits, _, . and -, found 'has space'"),
        (9, "checks[2].params.channel", "parameter 'channel' is not used: no $channel in the check"),
        (13, "checks[4].id", "'twice' is defined twice in this file (first at checks[3])"),
        (16, "checks[5].state", errors_message(raised.value.errors[-1].message)),
    ]
    # A scene that uses the library gets the library's problems, at the library's lines.
    path = scene(here, "  - use: no_errors\n")
    assert {(file, line) for file, line, _, _ in errors_of(path)} == {("shared.yaml", n) for n in (1, 3, 6, 9, 13, 16)}


def errors_message(message: str) -> str:
    assert message.startswith("state names exactly one state check (")
    return message


def test_first_definition_wins_and_hides_the_others(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    team = here / "team"
    team.mkdir()
    (team / "mine.yaml").write_text("checks:\n  - id: no_errors\n    trace: {max_calls: 3}\n")
    monkeypatch.setenv("SOUNDSTAGE_CHECKS", str(team))
    library = find_library()
    assert library.files == [str(team / "mine.yaml"), str(here / "checks" / "shared.yaml")]
    assert library.definitions["no_errors"].body == {"trace": {"max_calls": 3}}
    assert [d.where for d in library.hidden["no_errors"]] == [f"{here / 'checks' / 'shared.yaml'}:12"]


def test_a_scene_elsewhere_finds_the_library_beside_its_folder(
    here: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = scene(here, "  - use: no_errors\n")
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    assert [check.id for check in build_image(*read_scene(path)).checks] == ["no_errors"]
