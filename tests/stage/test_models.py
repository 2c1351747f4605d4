from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from soundstage.errors import SpecError
from soundstage.services.slack.models import SlackSection, User
from soundstage.spec.loader import SpecErrors, load_yaml, validate_model
from soundstage.stage.models import (
    AgentSpec,
    ClockSpec,
    Seed,
    WorldDefinition,
    read_scene,
    read_scene_text,
    read_world,
    services,
)

WORLD = """\
name: acme
description: A 40-person SaaS company selling an orders API.
clock: {start: "2026-03-02T14:00:00Z"}
slack:
  team: {ref: acme_team, name: Acme, domain: acme}
  users:
    - {ref: bot, name: stagebot, real_name: Stage Bot, is_bot: true}
    - {ref: maya, name: maya, real_name: Maya Chen, title: SRE, email: maya@acme.test}
  channels:
    - {ref: support, name: support, members: [$bot, $maya]}
  messages:
    - {ref: question, channel: $support, user: $maya, text: "Where do I find the CSV export?"}
generate:
  slack.messages: {channel: $support, count: 200}
"""

SCENE = """\
name: export-question
world: acme
description: A customer asks where the CSV export is.
task: |
  Answer the open question in #support.
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent:
  slack_user: $bot
  pass_env: [OPENROUTER_API_KEY]
seed:
  slack:
    users: [{ref: laura, name: laura, real_name: Laura Diaz, title: Customer Success}]
people: []
faults: []
checks:
  - id: answered
    state:
      slack.message: {channel: $support, from: $bot, text_contains: "Reports"}
pass: [answered]
rate_limits:
  slack: {chat.postMessage: 5/1m, "*": 100/1h}
"""


def world_errors(text: str) -> list[str]:
    return _errors(lambda: validate_model(WorldDefinition, load_yaml(text, "acme.yaml")))


def scene_errors(text: str) -> list[str]:
    return _errors(lambda: read_scene_text(text, "scene.yaml"))


def _errors(read: Callable[[], object]) -> list[str]:
    with pytest.raises(SpecError) as caught:
        read()
    return [str(error) for error in getattr(caught.value, "errors", [caught.value])]


def test_a_world_definition_loads(tmp_path: Path) -> None:
    path = tmp_path / "acme.yaml"
    path.write_text(WORLD)
    world, document = read_world(path)
    assert document.file == str(path)
    assert document.lines[("slack", "users", 1, "email")] == 8
    assert world.name == "acme"
    assert world.description == "A 40-person SaaS company selling an orders API."
    assert world.clock == ClockSpec(start="2026-03-02T14:00:00Z", tick="5s", realtime=False, speed=1.0)
    assert world.generate == {"slack.messages": {"channel": "$support", "count": 200}}
    assert world.slack == SlackSection.model_validate(document.data["slack"])
    assert [user.name for user in world.slack.users] == ["stagebot", "maya"]


def test_a_scene_loads(tmp_path: Path) -> None:
    path = tmp_path / "export-question.yaml"
    path.write_text(SCENE)
    scene, document = read_scene(path)
    assert document.file == str(path)
    assert scene.name == "export-question"
    assert scene.world == "acme"
    assert scene.task == "Answer the open question in #support.\n"
    assert scene.clock == ClockSpec(start="2026-03-02T14:00:00Z", tick="5s")
    assert scene.agent == AgentSpec(slack_user="$bot", pass_env=["OPENROUTER_API_KEY"])
    assert scene.seed is not None and scene.seed.slack is not None
    assert [user.ref for user in scene.seed.slack.users] == ["laura"]
    assert scene.seed.generate == {}
    assert (scene.people, scene.faults) == ([], [])
    assert scene.checks == [
        {
            "id": "answered",
            "state": {"slack.message": {"channel": "$support", "from": "$bot", "text_contains": "Reports"}},
        }
    ]
    assert scene.pass_ == ["answered"]
    assert scene.rate_limits == {"slack": {"chat.postMessage": "5/1m", "*": "100/1h"}}


def test_a_scene_with_only_a_seed_and_defaults() -> None:
    scene, document = read_scene_text("name: tiny\ntask: Say hi.\nseed: {slack: {users: [{name: a}]}}\n")
    assert document.file == "<scene_yaml>"
    assert scene.world is None
    assert (scene.description, scene.clock, scene.agent, scene.checks, scene.pass_, scene.rate_limits) == (
        "",
        None,
        None,
        [],
        None,
        {},
    )


def test_clock_defaults_and_now() -> None:
    assert ClockSpec.model_validate({"start": "now"}) == ClockSpec(start="now", tick="5s", realtime=False, speed=1.0)
    clock = ClockSpec.model_validate({"start": "2026-03-02", "tick": "250ms", "realtime": True, "speed": 2})
    assert (clock.start, clock.tick, clock.realtime, clock.speed) == ("2026-03-02", "250ms", True, 2.0)


def test_rate_limits_true_means_all_operations() -> None:
    scene, _ = read_scene_text("name: x\ntask: t\nworld: acme\nrate_limits: {slack: true}\n")
    assert scene.rate_limits == {"slack": True}


def test_services_are_the_sections_a_world_may_have() -> None:
    assert services() == ["slack", "github", "datadog", "pagerduty", "calendar", "gmail"]
    assert list(Seed.model_fields) == ["slack", "github", "datadog", "pagerduty", "calendar", "gmail", "generate"]


def test_unknown_fields_at_every_depth() -> None:
    text = WORLD.replace("clock: {start:", "clock: {speeed: 2, start:").replace("title: SRE", "titel: SRE")
    assert world_errors(text + "jira: {}\n") == [
        "acme.yaml:3: clock.speeed: unknown field 'speeed'; expected one of: realtime, speed, start, tick",
        "acme.yaml:8: slack.users[1].titel: unknown field 'titel'; expected one of: "
        + ", ".join(sorted(User.model_fields)),
        (
            "acme.yaml:15: jira: unknown field 'jira'; "
            "expected one of: calendar, clock, datadog, description, generate, github, gmail, name, pagerduty, slack"
        ),
    ]


def test_unknown_fields_in_a_scene() -> None:
    assert scene_errors("name: x\ntask: t\nworld: acme\nagent:\n  slack_user: $bot\n  token: abc\nsteps: []\n") == [
        (
            "scene.yaml:6: agent.token: unknown field 'token'; expected one of: "
            "allow, datadog_user, github_user, google_user, may_advance_clock, network, pagerduty_user, "
            "pass_env, slack_user"
        ),
        (
            "scene.yaml:7: steps: unknown field 'steps'; expected one of: "
            "agent, api_faults, checks, clock, description, difficulty, faults, name, pass, people, rate_limits, seed, "
            "tags, task, world"
        ),
    ]


def test_unknown_field_in_a_scene_seed() -> None:
    assert scene_errors("name: x\ntask: t\nseed:\n  slack: {}\n  name: y\n") == [
        (
            "scene.yaml:5: seed.name: unknown field 'name'; expected one of: calendar, datadog, generate, "
            "github, gmail, pagerduty, slack"
        )
    ]


def test_wrong_types() -> None:
    assert scene_errors(
        "name: [x]\ntask: 5\nworld: acme\nclock: {start: now, realtime: 'yes', speed: fast}\ncheck: []\n"
        "checks: [answered]\npass: answered\n"
    ) == [
        "scene.yaml:1: name: expected a string, found a list of 1 item",
        "scene.yaml:2: task: expected a string, found 5",
        "scene.yaml:4: clock.realtime: expected true or false, found 'yes'",
        "scene.yaml:4: clock.speed: expected a number, found 'fast'",
        (
            "scene.yaml:5: check: unknown field 'check'; expected one of: "
            "agent, api_faults, checks, clock, description, difficulty, faults, name, pass, people, rate_limits, seed, "
            "tags, task, world"
        ),
        "scene.yaml:6: checks[0]: expected a mapping, found 'answered'",
        "scene.yaml:7: pass: expected a list, found 'answered'",
    ]


def test_missing_required_fields() -> None:
    assert scene_errors("# a scene\ndescription: nothing else\nworld: acme\n") == [
        "scene.yaml:2: name: required field is missing",
        "scene.yaml:2: task: required field is missing",
    ]
    assert world_errors("description: no name\nslack:\n  users:\n    - {real_name: Nobody}\n") == [
        "acme.yaml:1: name: required field is missing",
        "acme.yaml:4: slack.users[0].name: required field is missing",
    ]


def test_a_scene_clock_needs_a_start() -> None:
    assert scene_errors("name: x\ntask: t\nworld: acme\nclock:\n  tick: 1s\n") == [
        "scene.yaml:4: clock.start: required field is missing"
    ]


def test_bad_durations() -> None:
    assert scene_errors("name: x\ntask: t\nworld: acme\nclock:\n  start: now\n  tick: 5 minutes\n") == [
        "scene.yaml:6: clock.tick: expected a duration like 30s, 5m or 2h, found '5 minutes'"
    ]
    assert scene_errors("name: x\ntask: t\nworld: acme\nclock: {start: now, tick: 5}\n") == [
        "scene.yaml:4: clock.tick: expected a duration like 30s, 5m or 2h, found 5"
    ]


def test_bad_times() -> None:
    assert world_errors("name: acme\nclock:\n  start: yesterday at noon\n") == [
        (
            "acme.yaml:3: clock.start: expected now or an ISO-8601 time like 2026-03-02T14:00:00Z, "
            "found 'yesterday at noon'"
        )
    ]
    assert world_errors("name: acme\nclock: {start: 1700000000}\n") == [
        "acme.yaml:2: clock.start: expected now or an ISO-8601 time like 2026-03-02T14:00:00Z, found 1700000000"
    ]
    assert world_errors("name: acme\nclock: {start: 2026-13-02T14:00:00Z}\n") == [
        (
            "acme.yaml:2: clock.start: expected now or an ISO-8601 time like 2026-03-02T14:00:00Z, "
            "found '2026-13-02T14:00:00Z'"
        )
    ]


def test_speed_must_be_positive() -> None:
    assert world_errors("name: acme\nclock: {start: now, speed: 0}\n") == [
        "acme.yaml:2: clock.speed: expected a number greater than 0, found 0"
    ]


def test_bad_rate_strings() -> None:
    assert scene_errors(
        "name: x\ntask: t\nworld: acme\nrate_limits:\n  slack:\n    chat.postMessage: 5 per minute\n"
        "    '*': 10/0s\n    conversations.list: 3\n"
    ) == [
        (
            "scene.yaml:6: rate_limits.slack.chat.postMessage: expected a rate like 5/1m (calls per duration), "
            "found '5 per minute'"
        ),
        "scene.yaml:7: rate_limits.slack.*: expected a rate like 5/1m (calls per duration), found '10/0s'",
        "scene.yaml:8: rate_limits.slack.conversations.list: expected a rate like 5/1m (calls per duration), found 3",
    ]


def test_bad_rate_limit_values_and_services() -> None:
    assert scene_errors("name: x\ntask: t\nworld: acme\nrate_limits:\n  slack: false\n  jira: true\n") == [
        (
            "scene.yaml:5: rate_limits.slack: expected true or a mapping of operation name (or *) to a rate like 5/1m, "
            "found false"
        ),
        (
            "scene.yaml:6: rate_limits.jira: expected a service, one of: slack, github, datadog, pagerduty, "
            "calendar, gmail; found 'jira'"
        ),
    ]


def test_bad_generate_keys() -> None:
    text = "name: acme\ngenerate:\n  messages: {count: 2}\n  slak.messages: {}\n  slack.messages: 5\n"
    assert world_errors(text) == [
        (
            "acme.yaml:3: generate.messages: "
            "expected <service>.<collection> with service one of: slack, github, datadog, pagerduty, "
            "calendar, gmail; found 'messages'"
        ),
        (
            "acme.yaml:4: generate.slak.messages: "
            "expected <service>.<collection> with service one of: slack, github, datadog, pagerduty, calendar, gmail; "
            "found 'slak.messages'"
        ),
        "acme.yaml:5: generate.slack.messages: expected a mapping, found 5",
    ]


def test_faults_and_people_are_checked() -> None:
    assert scene_errors(
        "name: x\ntask: t\nworld: acme\npeople:\n  - ref: laura\n    persona: Friendly.\nfaults: [{id: bad_deploy}]\n"
    ) == [
        "scene.yaml:5: people[0].slack_user: required field is missing",
        "scene.yaml:7: faults[0].active_while: required field is missing",
        "scene.yaml:7: faults[0].effects: required field is missing",
    ]


def test_a_scene_needs_a_world_or_a_seed() -> None:
    assert scene_errors("name: x\ntask: t\n") == [
        "scene.yaml:1: a scene needs `world` (a world definition to start from) or `seed` (the whole world)"
    ]
    assert scene_errors("# empty world\nname: x\ntask: t\nworld: ''\n") == [
        "scene.yaml:2: a scene needs `world` (a world definition to start from) or `seed` (the whole world)"
    ]


def test_bad_environment_variable_names() -> None:
    assert scene_errors("name: x\ntask: t\nworld: acme\nagent: {pass_env: [OK_1, 'A-B']}\n") == [
        "scene.yaml:4: agent.pass_env[1]: expected an environment variable name like OPENROUTER_API_KEY, found 'A-B'"
    ]


def test_the_hosts_a_scene_allows_are_host_and_port_in_one_spelling() -> None:
    text = (
        "name: x\ntask: t\nworld: acme\nagent: {allow: ['127.0.0.1:11434', 'Models.Internal.:08000', '[::0001]:80']}\n"
    )
    scene, _ = read_scene_text(text, "scene.yaml")
    assert scene.agent is not None and scene.agent.allow == ["127.0.0.1:11434", "models.internal:8000", "[::1]:80"]


def test_bad_hosts_to_allow() -> None:
    text = (
        "name: x\ntask: t\nworld: acme\nagent:\n"
        "  allow:\n    - localhost\n    - 'host:0'\n    - '::1:80'\n    - 'a b:80'\n"
    )
    expected = "expected host:port like 127.0.0.1:11434, localhost:8080 or [::1]:8080, found"
    assert scene_errors(text) == [
        f"scene.yaml:6: agent.allow[0]: {expected} 'localhost'",
        f"scene.yaml:7: agent.allow[1]: {expected} 'host:0'",
        f"scene.yaml:8: agent.allow[2]: {expected} '::1:80'",
        f"scene.yaml:9: agent.allow[3]: {expected} 'a b:80'",
    ]


def test_the_admin_token_is_never_passed_to_the_agent() -> None:
    assert scene_errors("name: x\ntask: t\nworld: acme\nagent: {pass_env: [SOUNDSTAGE_ADMIN_TOKEN]}\n") == [
        (
            "scene.yaml:4: agent.pass_env[0]: the admin token is never the agent's: SOUNDSTAGE_ADMIN_TOKEN cannot be "
            "passed to it"
        )
    ]


def test_yaml_errors_come_through_the_readers(tmp_path: Path) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text("name: x\ntask: t\nname: y\n")
    with pytest.raises(SpecError) as caught:
        read_scene(path)
    assert str(caught.value) == f"{path}:3: name: duplicate key 'name' (first given on line 1)"
    assert scene_errors("- name: x\n") == ["scene.yaml:1: expected a mapping at the top level, found a list of 1 item"]


def test_reading_a_missing_world(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        read_world(tmp_path / "nope.yaml")
    assert str(caught.value) == f"{tmp_path / 'nope.yaml'}: no such file"


def test_validation_errors_are_spec_errors_with_a_count() -> None:
    with pytest.raises(SpecErrors) as caught:
        read_scene_text("name: 1\ntask: 2\nworld: acme\n", "scene.yaml")
    assert str(caught.value) == "scene.yaml:1: name: expected a string, found 1 (and 1 more error)"
    assert [str(error) for error in caught.value.errors] == [
        "scene.yaml:1: name: expected a string, found 1",
        "scene.yaml:2: task: expected a string, found 2",
    ]


def test_a_scene_name_names_a_folder() -> None:
    """The name names the scene's trial folders: a name no folder can have was a crash when the trial was made."""
    longest = "é" * 127 + "a"  # 255 bytes
    assert read_scene_text(f"name: {longest}\ntask: t\nworld: acme\n")[0].name == longest
    too_long = "é" * 128
    assert scene_errors(f"name: {too_long}\ntask: t\nworld: acme\n") == [
        (
            "scene.yaml:1: name: expected a name of at most 255 bytes (it names the scene's trial folders), found "
            f"{'é' * 57!r}... (256 bytes)"
        )
    ]
    huge = "a" * 1_000_000  # within the file's size bound, far past the name's
    (error,) = scene_errors(f"task: t\nworld: acme\nname: {huge}\n")
    assert error.startswith("scene.yaml:3: name: expected a name of at most 255 bytes") and len(error) < 200
    for name in ("'..'", "a/b", "'a\\b'", '"a\\0b"', "' '"):
        (error,) = scene_errors(f"name: {name}\ntask: t\nworld: acme\n")
        assert error.startswith("scene.yaml:1: name: expected a name that can name a folder"), name
