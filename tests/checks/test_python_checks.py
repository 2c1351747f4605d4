"""Python checks (docs/checks.md, "Python checks"): a function of the user's project grades the attempt; what it
answers, what it raises or never answers, where it is found, and that the agent cannot change it."""

from __future__ import annotations

import json
import os
import shlex
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from tests.sandboxes import needs_bwrap
from typer.testing import CliRunner

from soundstage import check, project
from soundstage.checks import Attempt, CheckSpecErrors, evaluate, parse_checks, rescore
from soundstage.checks.library import parse_checks_with_library
from soundstage.checks.python import python_check
from soundstage.cli import app
from soundstage.runner import run_scenes, trial_cover
from soundstage.services.slack.store import MESSAGES
from soundstage.stage import ImageCache
from soundstage.stage.validate import validated

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "python-checks"
AGENTS = ROOT / "examples" / "agents"

HELLO = """\
name: hello
task: "Say hello in #general."
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $bot}
seed:
  slack:
    team: {name: Acme, domain: acme}
    users:
      - {ref: bot, name: stagebot, real_name: Stage Bot, is_bot: true}
    channels:
      - {ref: general, name: general, members: [$bot]}
checks:
"""


class Project:
    """The current folder, a project whose modules each test names afresh (Python keeps a module by its name)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.prefix = f"checks_{uuid.uuid4().hex[:12]}"

    def module(self, code: str, name: str = "") -> str:
        """Writes a module of the project; answers its name."""
        module = f"{self.prefix}{name}"
        (self.root / f"{module}.py").write_text(textwrap.dedent(code))
        return module

    def scene(self, checks: str, name: str = "hello.yaml") -> Path:
        path = self.root / "seeds" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(HELLO + textwrap.dedent(checks))
        return path


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    for name in ("SOUNDSTAGE_PATH", "SOUNDSTAGE_CHECKS", "SOUNDSTAGE_CONFIG", "SOUNDSTAGE_JSON"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the places a test adds go with it
    made = Project(tmp_path)
    yield made
    for name in [name for name in sys.modules if name.startswith(made.prefix)]:
        del sys.modules[name]


@pytest.fixture
def attempt(log) -> Attempt:
    posted = log.call("POST", "/api/chat.postMessage", body={"channel": "C1", "text": "hello"})  # 2
    log.write(MESSAGES, "added", "1772460010.000100", by=posted)  # 3
    log.finish("done")  # 4
    state = {MESSAGES: [{"channel": "C1", "user": "U1", "text": "hello", "ts": "1772460010.000100"}]}
    diff = {MESSAGES: {"added": [state[MESSAGES][0]], "removed": [], "changed": []}}
    return Attempt(log.events, state, diff, "done", {"general": "C1"}, identities={"slack_user": "U1"})


def grade(attempt: Attempt, *checks: dict) -> list:
    return evaluate(parse_checks(list(checks), attempt.refs), attempt).checks


def test_a_check_answering_true_or_false_passes_or_fails(proj, attempt) -> None:
    module = proj.module(
        """
        def said(attempt, word):
            return any(word in m["text"] for m in attempt.records("slack.messages"))
        """
    )
    hello, bye = grade(
        attempt,
        {"id": "hello", "python": {"function": f"{module}:said", "args": {"word": "hello"}}},
        {"id": "bye", "python": {"function": f"{module}:said", "args": {"word": "bye"}}},
    )

    assert (hello.kind, hello.passed, hello.score, hello.invalid) == ("python", True, 1.0, False)
    assert hello.explanation == f"Passed: expected the Python check {module}:said to pass, and it answered pass."
    assert hello.args == {"function": f"{module}:said", "args": {"word": "hello"}}
    assert (bye.passed, bye.score, bye.invalid) == (False, 0.0, False)


def test_a_score_passes_at_the_threshold(proj, attempt) -> None:
    module = proj.module("def half(attempt):\n    return 0.5\n")

    strict, lenient = grade(
        attempt,
        {"id": "strict", "python": f"{module}:half"},
        {"id": "lenient", "python": {"function": f"{module}:half", "threshold": 0.5}},
    )

    assert (strict.passed, strict.score) == (False, 0.5)
    assert strict.actual == "it answered a score of 0.5"
    assert (lenient.passed, lenient.score) == (True, 0.5)


def test_a_verdict_gives_its_evidence_and_explanation(proj, attempt) -> None:
    module = proj.module(
        """
        from soundstage import Verdict

        def posted(attempt):
            seqs = [call.seq for call in attempt.trace if call.path == "/api/chat.postMessage"]
            return Verdict(passed=True, score=0.75, evidence=[*seqs, 999], explanation=f"posted at {seqs}")
        """
    )

    [result] = grade(attempt, {"id": "posted", "python": f"{module}:posted"})

    assert (result.passed, result.score, result.evidence) == (True, 0.75, [2])  # 999 is no event of the attempt
    assert result.actual == "it answered a score of 0.75: posted at [2]"


def test_an_async_check_is_awaited(proj, attempt) -> None:
    module = proj.module("async def finished(attempt):\n    return attempt.output == 'done'\n")

    [result] = grade(attempt, {"id": "finished", "python": f"{module}:finished"})

    assert (result.passed, result.invalid) == (True, False)


def test_an_exception_makes_the_check_invalid_naming_it_and_its_line(proj, attempt) -> None:
    module = proj.module("def broken(attempt):\n    return attempt.records('slack.messages')[5]\n")

    [result] = grade(attempt, {"id": "broken", "python": f"{module}:broken"})

    assert (result.passed, result.score, result.invalid) == (None, None, True)
    assert result.actual == f"it raised IndexError: list index out of range ({proj.root / module}.py:2 in broken)"


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("None", "None"),
        ("'yes'", "'yes'"),
        ("1.5", "1.5"),
        ("float('nan')", "nan"),
        ("[True]", "[True]"),
    ],
)
def test_any_other_answer_makes_the_check_invalid(proj, attempt, answer: str, shown: str) -> None:
    module = proj.module(f"def odd(attempt):\n    return {answer}\n")

    [result] = grade(attempt, {"id": "odd", "python": f"{module}:odd"})

    assert (result.passed, result.invalid) == (None, True)
    assert result.actual == (
        f"it returned {shown}; a Python check answers True or False, a score from 0 to 1, or a soundstage.Verdict"
    )


def test_a_verdict_out_of_bounds_is_an_error_of_the_check(proj, attempt) -> None:
    module = proj.module("from soundstage import Verdict\n\ndef odd(attempt):\n    return Verdict(score=2)\n")

    [result] = grade(attempt, {"id": "odd", "python": f"{module}:odd"})

    assert (result.passed, result.invalid) == (None, True)
    assert result.actual.startswith("it raised ValueError: Verdict.score is a number from 0 to 1, got 2 (")


def test_a_check_past_its_timeout_is_invalid(proj, attempt) -> None:
    module = proj.module("import threading\n\nGATE = threading.Event()\n\ndef stuck(attempt):\n    GATE.wait()\n")
    try:
        [result] = grade(attempt, {"id": "stuck", "python": {"function": f"{module}:stuck", "timeout": 0.2}})
    finally:
        sys.modules[module].GATE.set()  # the thread left behind ends

    assert (result.passed, result.invalid) == (None, True)
    assert result.actual == "it did not answer within its timeout of 0.2 seconds"


def test_what_a_check_changes_no_other_check_sees(proj, attempt) -> None:
    module = proj.module(
        """
        def vandal(attempt, **args):
            attempt.state["slack.messages"][0]["text"] = "changed"
            attempt.state.clear()
            attempt.diff["slack.messages"]["added"].clear()
            attempt.trace[0].body["text"] = "changed"
            attempt.refs["general"] = "C9"
            attempt.identities["slack_user"] = "U9"
            args["word"] = "changed"
            return True

        def intact(attempt, word):
            return (
                attempt.records("slack.messages")[0]["text"] == "hello"
                and attempt.diff["slack.messages"]["added"][0]["text"] == "hello"
                and attempt.events[1].body == {"channel": "C1", "text": "hello"}
                and attempt.refs == {"general": "C1"}
                and attempt.identities == {"slack_user": "U1"}
                and word == "hello"
            )

        def assigns(attempt):
            attempt.output = "changed"
        """
    )
    args = {"word": "hello"}
    vandal, assigns, intact = grade(
        attempt,
        {"id": "vandal", "python": {"function": f"{module}:vandal", "args": args}},
        {"id": "assigns", "python": f"{module}:assigns"},
        {"id": "intact", "python": {"function": f"{module}:intact", "args": args}},
    )

    assert (vandal.passed, intact.passed) == (True, True)
    assert assigns.invalid and assigns.actual.startswith("it raised AttributeError")
    assert attempt.state[MESSAGES][0]["text"] == "hello" and attempt.output == "done"


def test_a_registered_name_and_the_builder(proj, attempt) -> None:
    @python_check(f"{proj.prefix}.short")
    def short(attempt, limit: int) -> bool:
        return all(len(m["text"]) <= limit for m in attempt.records("slack.messages"))

    fits, too_long = grade(
        attempt,
        check.python(f"{proj.prefix}.short", id="fits", limit=5),
        check.python(f"{proj.prefix}.short", id="too_long", limit=4),
    )

    assert (fits.passed, too_long.passed) == (True, False)
    with pytest.raises(ValueError, match="registered twice"):
        python_check(f"{proj.prefix}.short")(lambda attempt: True)


def test_an_entry_point_names_a_check(proj, attempt, tmp_path, monkeypatch) -> None:
    site = tmp_path / "site"
    info = site / "demo_checks-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: demo-checks\nVersion: 1.0\n")
    module = f"{proj.prefix}_installed"
    (info / "entry_points.txt").write_text(f"[soundstage.checks]\n{proj.prefix}-quiet = {module}:quiet\n")
    (site / f"{module}.py").write_text("def quiet(attempt):\n    return len(attempt.trace) <= 1\n")
    monkeypatch.syspath_prepend(str(site))

    [result] = grade(attempt, {"id": "quiet", "python": f"{proj.prefix}-quiet"})
    assert (result.passed, result.invalid) == (True, False)

    with pytest.raises(CheckSpecErrors) as raised:
        parse_checks([{"id": "typo", "python": f"{proj.prefix}-qiuet"}], {})
    said, registered = str(raised.value).split(" (registered: ")
    assert said == (
        f"<input>: checks[0].python: no Python check named '{proj.prefix}-qiuet': name one as module:function, or "
        "register it with @python_check or a 'soundstage.checks' entry point"
    )
    assert f"{proj.prefix}-quiet" in registered.removesuffix(")").split(", ")  # with those other tests registered


def test_a_project_file_registers_a_check_as_a_library_check(proj, attempt, tmp_path, monkeypatch) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    module = f"{proj.prefix}_project"
    (folder / f"{module}.py").write_text("def said(attempt, word):\n    return word in attempt.output\n")
    (folder / "soundstage.yaml").write_text(
        f"checks:\n  - id: said\n    params: {{word: what to say}}\n    python: {{function: '{module}:said', "
        "args: {word: $word}}\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the module is found in the project's folder, named by SOUNDSTAGE_CONFIG
    monkeypatch.setenv("SOUNDSTAGE_CONFIG", str(folder / "soundstage.yaml"))
    found = project.load(folder / "soundstage.yaml", os.environ)
    for name, value in found.variables.items():
        monkeypatch.setenv(name, value)

    checks = parse_checks_with_library([{"use": {"check": "said", "word": "done"}}], attempt.refs)
    [result] = evaluate(checks, attempt).checks

    assert (result.id, result.kind, result.passed) == ("said", "python", True)


def test_validate_names_every_problem_at_its_line(proj) -> None:
    good = proj.module("def said(attempt, word):\n    return True\n")
    broken = proj.module("def said(attempt:\n", name="_broken")
    failing = proj.module("raise RuntimeError('no database')\n", name="_failing")
    scene = proj.scene(
        f"""\
          - id: no_module
            python: {proj.prefix}_missing:said
          - id: no_function
            python: {{function: "{good}:sayd"}}
          - id: wrong_args
            python: {{function: "{good}:said", args: {{words: hello}}}}
          - id: no_args
            python: {good}:said
          - id: syntax
            python: {broken}:said
          - id: raises
            python: {failing}:said
          - id: not_a_name
            python: "os.path:"
          - id: good
            python: {{function: "{good}:said", args: {{word: hello}}}}
        """
    )

    checked = validated(scene)

    at = f"{scene}:"
    assert [str(error) for error in checked.errors] == [
        f"{at}14: checks[0].python: no module named '{proj.prefix}_missing' on Python's path or in {proj.root}",
        f"{at}16: checks[1].python.function: the module {good} ({proj.root / good}.py) has no 'sayd'",
        (
            f"{at}18: checks[2].python.args: {good}:said(attempt, word) cannot be called with the attempt and args "
            '{"words": "hello"}: missing a required argument: \'word\''
        ),
        (
            f"{at}20: checks[3].python: {good}:said(attempt, word) cannot be called with the attempt and args {{}}: "
            "missing a required argument: 'word'"
        ),
        (
            f"{at}22: checks[4].python: the module {broken} could not be imported: SyntaxError: '(' was never closed "
            f"({proj.root / broken}.py:1)"
        ),
        (
            f"{at}24: checks[5].python: the module {failing} could not be imported: RuntimeError: no database "
            f"({proj.root / failing}.py:1 in <module>)"
        ),
        f"{at}26: checks[6].python: expected module:function (dotted Python names), found 'os.path:'",
    ]


def test_a_module_edited_after_loading_makes_the_check_invalid(proj, attempt) -> None:
    module = proj.module("def judged(attempt):\n    return False\n")
    checks = parse_checks([{"id": "judged", "python": f"{module}:judged"}], {})
    path = proj.root / f"{module}.py"
    path.write_text("def judged(attempt):\n    return True\n")

    [result] = evaluate(checks, attempt).checks

    assert (result.passed, result.invalid) == (None, True)
    assert result.actual == (
        f"it was not run: its module's file {path} changed after the check was loaded, before the attempt began"
    )
    # Parsed again (a scene loaded anew, a saved trial scored again), it is the file as it is now.
    [again] = evaluate(parse_checks([{"id": "judged", "python": f"{module}:judged"}], {}), attempt).checks
    assert (again.passed, again.invalid) == (True, False)


def test_an_image_is_built_again_when_its_check_module_changes(proj) -> None:
    module = proj.module("def judged(attempt):\n    return False\n")
    scene = proj.scene(f"  - id: judged\n    python: {module}:judged\n")
    images = ImageCache()
    first = images.load(str(scene))
    path = proj.root / f"{module}.py"
    path.write_text("def judged(attempt):\n    return True  # changed\n")

    second = images.load(str(scene))

    assert second is not first
    world = second.instantiate("w1")
    world.finish("", "exited")
    [result] = evaluate(world.checks, Attempt.from_world(world)).checks
    assert (result.passed, result.invalid) == (True, False)


def test_the_agent_never_sees_a_check_module(proj) -> None:
    module = proj.module("def judged(attempt):\n    return True\n")
    scene = proj.scene(f"  - id: judged\n    python: {module}:judged\n")
    image = ImageCache().load(str(scene))

    cover = trial_cover(proj.root / "runs", proj.root / "runs" / "hello" / "1", image, {})

    assert proj.root / f"{module}.py" in cover.hidden
    assert proj.root not in cover.hidden  # the project's folder itself stays readable


TAMPERING_AGENT = """\
import pathlib, sys
sys.stdin.read()
path = pathlib.Path(PATH)
try:
    print(f"read {len(path.read_text())} characters")
except OSError as exc:
    print(f"could not read: {exc.strerror}")
try:
    path.write_text("def judged(attempt):\\n    return True\\n")
    print("rewrote the check")
except OSError as exc:
    print(f"could not write: {exc.strerror}")
"""


def tamper(proj, sandbox: str):
    module = proj.module("def judged(attempt):\n    return False\n")
    scene = proj.scene(f"  - id: judged\n    python: {module}:judged\n")
    agent = proj.root / "agent.py"
    agent.write_text(TAMPERING_AGENT.replace("PATH", repr(str(proj.root / f"{module}.py"))))  # not on its command line
    command = shlex.join([sys.executable, str(agent)])
    run = run_scenes([str(scene)], command, out=proj.root / "runs", sandbox=sandbox)
    [trial] = run.results
    return trial, Path(trial.folder)


def test_an_agent_without_a_sandbox_that_rewrites_its_check_gets_an_invalid_trial(proj) -> None:
    trial, folder = tamper(proj, "none")

    assert (folder / "output.txt").read_text().splitlines() == ["read 38 characters", "rewrote the check"]
    assert trial.outcome == "invalid"
    [result] = trial.checks
    assert (result.passed, result.invalid) == (None, True)
    assert "changed after the check was loaded, before the attempt began" in result.actual


@needs_bwrap
def test_a_sandboxed_agent_can_neither_read_nor_rewrite_its_check(proj) -> None:
    trial, folder = tamper(proj, "required")

    assert (folder / "output.txt").read_text().splitlines() == [
        "could not read: Permission denied",
        "could not write: Permission denied",
    ]
    assert trial.outcome == "failed"
    [result] = trial.checks
    assert (result.passed, result.invalid) == (False, False)


def run_example(agent: str, out: Path) -> tuple[dict, Path]:
    """`soundstage run` of the shipped example project's scene, from its folder, as its comment says."""
    os.chdir(EXAMPLE)
    command = shlex.join([sys.executable, str(AGENTS / f"{agent}.py")])
    result = CliRunner().invoke(app, ["run", "csv-export-facts", "--agent", command, "--out", str(out), "--json"])
    [trial] = json.loads(result.stdout)["results"]
    folder = Path(trial["folder"])
    return {**trial, "checks": json.loads((folder / "checks.json").read_text())}, folder


def test_the_shipped_example_scene_is_graded_by_its_python_check(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(EXAMPLE)
    for name in ("SOUNDSTAGE_PATH", "SOUNDSTAGE_CHECKS", "SOUNDSTAGE_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))

    passing, folder = run_example("csv_export", tmp_path / "runs")
    careless, _ = run_example("careless_support", tmp_path / "runs")

    [facts, handled] = passing["checks"]
    assert (passing["outcome"], facts["kind"], facts["passed"], facts["score"]) == ("passed", "python", True, 1.0)
    assert facts["actual"] == (
        "it answered a score of 1: the reply repeats 3 of the 3 facts of the PSA (Reports > Exports, 50k rows, "
        "10 minutes)"
    )
    assert len(facts["evidence"]) == 1 and handled["passed"] is True
    [facts_failed, _] = careless["checks"]
    assert (careless["outcome"], facts_failed["passed"], facts_failed["score"]) == ("failed", False, 0.0)
    assert facts_failed["actual"] == "it answered a score of 0: the agent posted no reply in the question's thread"
    # Scored again from its files, elsewhere, the check is found beside the scene's folder.
    monkeypatch.chdir(tmp_path)
    again = rescore(folder)
    assert again.checks[0].model_dump() == {**facts, "required": True, "version": again.checks[0].version}
