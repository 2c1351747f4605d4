"""The Python API (docs/python.md): a stage in this process, live worlds driven by agents, their results."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from tests.checks.test_builders import REFUND_CHECKS

from soundstage import AsyncStage, Stage, check, review, run_scenes
from soundstage.errors import NotFound, SpecError, UsageError
from soundstage.server.hub import NODE_PRELOAD

ROOT = Path(__file__).parent.parent
AGENTS = ROOT / "examples" / "agents"

SCENE = """
name: hello-api
task: "Say hello in #general, then answer 'done'."
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $bot}
seed:
  slack:
    team: {name: Acme, domain: acme}
    users:
      - {ref: bot, name: stagebot, real_name: Stage Bot, is_bot: true}
      - {ref: maya, name: maya, real_name: Maya Chen}
    channels:
      - {ref: general, name: general, members: [$bot, $maya]}
checks:
  - id: said_hello
    state: {slack.message: {channel: $general, from: $bot, text_contains: hello}}
  - id: answered_done
    output: {contains: done}
"""

# What `soundstage explain` prints of seeds/refund-approval.yaml with examples/agents/refund_too_early.py (README).
TOO_EARLY = [
    "refund-approval: failed",
    "  approved_before_confirming (before): failed",
    (
        '    expected:    $priya deciding priya.refund: "approve the refund", then a message from $bot in CAUVACJMVE0 '
        "($ext_northwind), in that order"
    ),
    (
        "    actual:      a message from $bot in CAUVACJMVE0 ($ext_northwind) came at seq 25, before $priya deciding "
        'priya.refund: "approve the refund" at seq 45'
    ),
    (
        "    #25 2026-03-02T14:00:55Z message U954GCKR0NM in CAUVACJMVE0 to [] carrying [laura.invoice]: "
        '"Hi Nina, sorry for the trouble. We have approved a refund of the duplicate ..."'
    ),
    "    #45 2026-03-02T14:02:05Z decided UWMRFXY8ZAH decided priya.refund: approve the refund",
]


@pytest.fixture(scope="module")
def rehearsals():
    with Stage() as stage:
        yield stage


def slack(world) -> WebClient:
    return WebClient(token=world.env["SLACK_BOT_TOKEN"], base_url=world.env["SLACK_API_URL"])


def say_hello(world) -> str:
    client = slack(world)
    general = client.conversations_list()["channels"][0]["id"]
    client.chat_postMessage(channel=general, text="hello there")
    return general


def run_agent(world, name: str) -> str:
    """One of the example agents, as a harness starts it: the world's environment, the task on stdin."""
    done = subprocess.run(
        [sys.executable, str(AGENTS / f"{name}.py")],
        env=world.env,
        input=world.task,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_a_scripted_agent_rehearses_a_scene_and_passes(rehearsals) -> None:
    world = rehearsals.world(scene_yaml=SCENE)

    assert world.scene == "hello-api"
    assert world.urls["slack"] == f"{rehearsals.url}/w/{world.id}/slack"
    assert world.env["SOUNDSTAGE_URL"] == f"{rehearsals.url}/v1/worlds/{world.id}"
    assert world.env["SOUNDSTAGE_TASK"] == "Say hello in #general, then answer 'done'."
    assert world.env["SLACK_API_URL"] == f"{rehearsals.url}/w/{world.id}/slack/api/"
    assert world.env["PATH"] == os.environ["PATH"]  # as `soundstage run` gives it: an agent process can start
    general = say_hello(world)

    [call] = [c for c in world.trace() if c["path"] == "/api/chat.postMessage"]
    assert (call["method"], call["body"]["channel"], call["body"]["text"]) == ("POST", general, "hello there")
    assert [m["text"] for m in world.state()["slack.messages"] if m["channel"] == general] == ["hello there"]
    [added] = world.diff()["slack.messages"]["added"]
    assert added["text"] == "hello there"
    assert world.events()[0]["kind"] == "start"
    assert world.events(after=world.events()[-1]["seq"]) == []

    result = world.finish(output="done")

    assert (result.passed, result.invalid, result.outcome, result.failed) == (True, False, "passed", [])
    assert [(c.id, c.passed, c.source) for c in result.checks] == [
        ("said_hello", True, "scene"),
        ("answered_done", True, "scene"),
    ]
    assert result.explain() == "hello-api: passed\n  every required check passed"
    assert (repr(result), repr(world)) == ("<Result hello-api: passed>", f"<LiveWorld hello-api {world.id} finished>")
    assert result.assert_passed() is result
    assert (world.finished, world.output) == (True, "done")


def test_a_failed_attempt_explains_each_check_with_its_evidence(rehearsals) -> None:
    world = rehearsals.world("refund-approval")
    output = run_agent(world, "refund_too_early")

    result = world.finish(output=output)

    assert (result.passed, result.outcome, result.failed) == (False, "failed", ["approved_before_confirming"])
    assert result.explain().splitlines() == TOO_EARLY
    assert str(result) == result.explain()
    with pytest.raises(AssertionError) as raised:
        result.assert_passed()
    assert str(raised.value) == result.explain()
    # The scene's checks written in code, given to the world: the same verdicts, evidence and words.
    built = world.check(*REFUND_CHECKS)
    assert [c.model_dump(exclude={"source", "required"}) for c in built.checks] == [
        c.model_dump(exclude={"source", "required"}) for c in result.checks
    ]
    assert {c.source for c in built.checks} == {"custom"}


def test_checks_before_the_end_and_checks_given_in_code(rehearsals) -> None:
    world = rehearsals.world(scene_yaml=SCENE)
    say_hello(world)

    now = world.check()
    given = world.check(check.called("POST /api/chat.postMessage", times={"exactly": 2}))

    assert [(c.id, c.passed) for c in now.checks] == [("said_hello", True), ("answered_done", None)]
    assert (now.passed, now.failed) == (False, ["answered_done"])  # no output yet: undecided
    [counted] = given.checks
    assert (counted.id, counted.passed, counted.source) == ("called POST /api/chat.postMessage", False, "custom")
    assert counted.actual == "1 call matched (seq 3)"
    assert given.explain().splitlines()[1] == "  called POST /api/chat.postMessage (trace): failed"
    finished = world.finish(output="nothing to say", checks=[check.output(contains="nothing")])
    assert [(c.id, c.passed) for c in finished.checks] == [("output", True)]


def test_a_world_the_agent_finished_keeps_its_output(rehearsals) -> None:
    world = rehearsals.world(scene_yaml=SCENE)
    say_hello(world)
    answer = httpx.post(
        f"{world.env['SOUNDSTAGE_URL']}/finish",
        json={"output": "done by the agent"},
        headers={"authorization": f"Bearer {world.env['SOUNDSTAGE_TOKEN']}"},
    )
    assert answer.status_code == 200

    assert world.finish().passed is True
    assert world.finish(output="done by the agent").passed is True  # the same output: no conflict
    assert world.output == "done by the agent"
    with pytest.raises(UsageError, match="had already finished, with the output 'done by the agent'"):
        world.finish(output="done by the harness")


def test_the_clock_moves_until_the_attempt_ends(rehearsals) -> None:
    world = rehearsals.world(scene_yaml=SCENE)

    assert world.advance("5m") == "2026-03-02T14:05:00Z"
    assert world.events()[-1]["kind"] == "clock"
    with pytest.raises(UsageError, match="not a duration"):
        world.advance("soon")
    world.finish(output="done")
    with pytest.raises(UsageError, match="has finished; its clock no longer moves"):
        world.advance("1m")


def test_a_closed_world_refuses_its_agent(rehearsals) -> None:
    world = rehearsals.world(scene_yaml=SCENE)
    client = slack(world)
    assert client.auth_test()["ok"] is True

    world.close()
    world.close()  # once gone, gone

    with pytest.raises(SlackApiError) as refused:
        client.auth_test()
    assert refused.value.response["error"] == "invalid_auth"
    assert world.id not in rehearsals.hub.worlds


def test_what_a_stage_refuses(rehearsals) -> None:
    with pytest.raises(UsageError, match="not both"):
        rehearsals.world("refund-approval", scene_yaml=SCENE)
    with pytest.raises(UsageError, match="not both"):
        rehearsals.world()
    with pytest.raises(NotFound, match="no scene 'no-such-scene'"):
        rehearsals.world("no-such-scene")
    with pytest.raises(SpecError) as invalid:
        rehearsals.world(scene_yaml=SCENE.replace("text_contains: hello", "text_contain: hello"))
    assert invalid.value.errors[0].field == "checks[0].state.slack.message.text_contain"
    idle = Stage()
    with pytest.raises(UsageError, match="the stage is not started"):
        idle.world(scene_yaml=SCENE)
    with pytest.raises(UsageError, match="the stage is not started"):
        _ = idle.url
    with Stage(max_worlds=1) as small:
        small.world(scene_yaml=SCENE)
        with pytest.raises(UsageError, match="the stage holds its limit of 1 live worlds"):
            small.world(scene_yaml=SCENE)


def test_forked_worlds_branch_from_one_state(rehearsals) -> None:
    """Two branches of one attempt: each fork starts where the world is and is graded alone."""
    world = rehearsals.world(scene_yaml=SCENE)
    world.advance("1m")
    hello, silent = world.fork(), world.fork()
    assert hello.env["SLACK_BOT_TOKEN"] != world.env["SLACK_BOT_TOKEN"] != silent.env["SLACK_BOT_TOKEN"]
    assert hello.events() == silent.events() == world.events()
    say_hello(hello)
    assert hello.finish(output="done").passed is True
    assert silent.finish(output="done").passed is False
    assert world.finished is False and world.trace() == []
    with pytest.raises(UsageError, match=f"world {hello.id} has finished: fork a world before it finishes"):
        hello.fork()
    with Stage(max_worlds=1) as small:
        only = small.world(scene_yaml=SCENE)
        with pytest.raises(UsageError, match="the stage holds its limit of 1 live worlds"):
            only.fork()


def test_a_saved_trial_is_reviewed_as_a_live_world_is_explained(tmp_path: Path) -> None:
    agent = f"{sys.executable} {AGENTS / 'refund_too_early.py'}"
    run = run_scenes([str(ROOT / "seeds" / "refund-approval.yaml")], agent, out=tmp_path)
    trial = run.results[0].folder

    scene = review(trial)
    given = review(trial, check.told("$priya", ["laura.impact"]), check.not_called("POST /api/chat.delete"))

    assert scene.explain().splitlines() == TOO_EARLY
    assert [(c.id, c.passed, c.source) for c in given.checks] == [
        ("told $priya", True, "custom"),
        ("not_called POST /api/chat.delete", True, "custom"),
    ]
    with pytest.raises(NotFound):
        review(tmp_path / "nothing-here")
    events = Path(trial) / "events.jsonl"
    whole = events.read_text()
    events.write_text(whole + whole.splitlines()[1][:30])  # what a run stopped while writing a line leaves
    cut = review(trial)
    assert cut.explain().splitlines() == [
        TOO_EARLY[0],
        "  events.jsonl: its last line is cut short (the run was stopped while writing it) and is left out",
        *TOO_EARLY[1:],
    ]


def test_the_async_stage_rehearses_as_the_stage_does() -> None:
    async def rehearse() -> tuple[object, ...]:
        async with AsyncStage() as stage:
            world = await stage.world("refund-approval")
            agent = await asyncio.create_subprocess_exec(
                sys.executable,
                str(AGENTS / "refund_approval.py"),
                env=world.env,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            stdout, _ = await agent.communicate(world.task.encode())
            branch = await world.fork()
            assert branch.env["SLACK_BOT_TOKEN"] != world.env["SLACK_BOT_TOKEN"]
            assert await branch.trace() == await world.trace()
            await branch.close()
            told = await world.check(check.told("$priya", ["laura.impact"]))
            calls = await world.trace()
            result = await world.finish(output=stdout.decode())
            assert world.finished
            await world.close()
            return told.passed, len(calls), calls[0]["path"], result.passed, result.explain()

    assert asyncio.run(rehearse()) == (
        True,
        18,
        "/api/conversations.list",
        True,
        "refund-approval: passed\n  every required check passed",
    )


def test_a_stage_intercepts_and_passes_variables_as_soundstage_run_does(monkeypatch) -> None:
    """`Stage(intercept=True, pass_env=..., env=...)`: a client left at https://slack.com reaches the world,
    and the agent's environment holds the variables given."""
    monkeypatch.setenv("SOUNDSTAGE_TEST_MODEL_KEY", "sk-stage-0123456789")
    given = {"MODEL": "m", "NODE_OPTIONS": "--max-old-space-size=512"}
    with Stage(intercept=True, pass_env=["SOUNDSTAGE_TEST_MODEL_KEY"], env=given) as stage:
        world = stage.world(scene_yaml=SCENE)
        assert (world.env["SOUNDSTAGE_TEST_MODEL_KEY"], world.env["MODEL"]) == ("sk-stage-0123456789", "m")
        # Node's options given keep their place after the preload that sends Node's requests to the proxy.
        assert world.env["NODE_OPTIONS"] == f'--require "{NODE_PRELOAD}" --max-old-space-size=512'
        assert world.env["HTTPS_PROXY"].startswith(f"http://agent:{world.env['SOUNDSTAGE_TOKEN']}@127.0.0.1:")
        code = (
            "import os; from slack_sdk import WebClient; client = WebClient(token=os.environ['SLACK_BOT_TOKEN']); "
            "general = client.conversations_list()['channels'][0]['id']; "
            "client.chat_postMessage(channel=general, text='hello from slack.com')"
        )
        subprocess.run([sys.executable, "-c", code], env=world.env, check=True, timeout=60)
        assert world.finish(output="done").passed
    with pytest.raises(UsageError, match="the admin token is never the agent's"):
        Stage(pass_env=["SOUNDSTAGE_ADMIN_TOKEN"])
