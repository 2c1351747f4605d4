"""The Agent-Diff importer: an excerpt of the peer's Slack bench imported, its scenes run with scripted agents.

The excerpt (tests/importers/agent_diff/, see SOURCE.md) is cut by scripts/cut_agent_diff.py.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
import yaml

from soundstage.errors import SpecError, UsageError
from soundstage.importers.agent_diff import import_agent_diff
from soundstage.runner import run_scenes
from soundstage.stage.validate import validate_file

DATA = Path(__file__).resolve().parent / "agent_diff"
ORACLE = DATA / "oracle.py"

# test -> the checks its wrong agent fails (None: no wrong agent)
CASES: dict[str, set[str] | None] = {
    "test_1": {"a1"},
    "test_2": None,
    "test_3": None,
    "test_5": {"a1"},
    "test_7": None,
    "test_8": None,
    "test_9": None,
    "test_11": None,
    "test_12": {"a1"},
    "test_13": {"a1"},
    "test_14": None,
    "test_17": None,
    "test_23": {"a2", "a3"},  # a1 (rich_text_section) is not expressed
    "test_27": {"a1"},  # a2 (DAU) is not expressed
    "test_56": {"a1"},
}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("agent_diff")
    import_agent_diff(DATA / "seed.json", DATA / "suite.json", out)
    return out


def test_the_excerpt_imports_into_valid_files_with_a_report(imported: Path) -> None:
    files = sorted(imported.glob("worlds/*.yaml")) + sorted(imported.glob("seeds/*.yaml"))
    assert len(files) == 17
    assert {str(f): validate_file(f) for f in files} == {str(f): [] for f in files}
    report = json.loads((imported / "report.json").read_text())
    assert (report["assertions"], report["expressed"], report["expressed_with_caveat"], report["unexpressed"]) == (
        41,
        38,
        1,
        2,
    )
    assert [(d["test"], d["check"]) for d in report["details"]] == [
        ("test_14", "a1"),
        ("test_23", "a1"),
        ("test_27", "a2"),
    ]
    assert [(w["test"], w["warning"][:60]) for w in report["warnings"]] == [
        ("test_50", "no attempt can pass: a2 and a3 cannot both hold (the channel")
    ]
    assert (
        (imported / "seeds" / "test_50.yaml")
        .read_text()
        .splitlines()[1]
        .startswith("# WARNING: no attempt can pass: a2 and a3 cannot both hold")
    )
    scene = (imported / "seeds" / "test_23.yaml").read_text()
    assert "# a1: NOT EXPRESSED: " in scene
    assert "#   why: rich_text_section is in every one of the rich_text blocks soundstage makes, as Slack" in scene


def test_the_world_keeps_the_seed_ids_former_members_and_dms(imported: Path) -> None:
    world = yaml.safe_load((imported / "worlds" / "agent-diff-seed.yaml").read_text())["slack"]
    random = next(c for c in world["channels"] if c["id"] == "C02EFGH5678")
    assert random["members"] == ["$U01AGENBOT9", "$U02JOHNDOE1", "$U03ROBERT23", "$U06HUBERT23"]
    assert "$U_MATEO" in random["former_members"]
    assert world["dms"] == [{"ref": "D01AGENTSOPHIE", "id": "D01AGENTSOPHIE", "users": ["$U01AGENBOT9", "$U_SOPHIE"]}]
    reply = next(m for m in world["messages"] if m["ts"] == "1700153200.000999")
    assert reply["thread_ts"] == "$ts_1700143200.000999"


def test_a_check_is_exact_in_case_and_counts_each_membership(imported: Path) -> None:
    checks = yaml.safe_load((imported / "seeds" / "test_5.yaml").read_text())["checks"]
    assert checks == [
        {
            "id": "a1",
            "state": {
                "diff": {
                    "collection": "slack.channels",
                    "each": "members",
                    "change": "added",
                    "where": {"members": {"equals": "U05MORGAN23"}, "id": {"equals": "C02EFGH5678"}},
                    "count": 1,
                    "ignore_case": False,
                }
            },
        }
    ]


def run(imported: Path, test: str, tmp_path: Path, *mode: str) -> tuple[list[str], str]:
    command = shlex.join([sys.executable, str(ORACLE), test, *mode])
    (result,) = run_scenes([str(imported / "seeds" / f"{test}.yaml")], command, out=tmp_path, timeout=120).results
    log = (Path(result.folder) / "agent.log").read_text()
    assert result.exit_code == 0, log
    checks = json.loads((Path(result.folder) / "checks.json").read_text())
    return [c["id"] for c in checks if c["passed"] is not True], log


@pytest.mark.parametrize("test", list(CASES))
def test_the_oracle_passes_every_check(imported: Path, test: str, tmp_path: Path) -> None:
    failed, log = run(imported, test, tmp_path)
    assert failed == [], log


@pytest.mark.parametrize("test", [t for t, failed in CASES.items() if failed])
def test_a_wrong_agent_fails_exactly_the_checks_it_misses(imported: Path, test: str, tmp_path: Path) -> None:
    failed, log = run(imported, test, tmp_path, "wrong")
    assert set(failed) == CASES[test], log


def test_a_member_removed_and_invited_back_is_a_changed_membership_as_in_agent_diff(
    imported: Path, tmp_path: Path
) -> None:
    # test_50 keeps Mateo and Robert in #project-alpha-dev: no membership of theirs added, removed or changed.
    command = shlex.join([sys.executable, str(ORACLE), "test_50", "rejoin"])
    (result,) = run_scenes([str(imported / "seeds" / "test_50.yaml")], command, out=tmp_path, timeout=120).results
    checks = {c["id"]: c for c in json.loads((Path(result.folder) / "checks.json").read_text())}
    assert {n: checks[n]["passed"] for n in ("a8", "a9", "a10", "a11", "a12", "a13")} == {
        "a8": True,  # not added: he was there at the start and is at the end
        "a9": True,  # not removed, for the same reason
        "a10": False,  # but his membership is a new one, as Agent-Diff's joined_at says
        "a11": True,
        "a12": True,
        "a13": True,  # Robert's is the one he had
    }
    assert checks["a10"]["actual"].startswith('1 record matched: id "C06ALPHADEV", name "project-alpha-dev" (joined')


def test_input_errors_name_the_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "seed.json"
    bad.write_text(json.dumps({"users": [{"user_id": "U1"}], "channels": [], "channel_members": []}))
    with pytest.raises(SpecError) as caught:
        import_agent_diff(bad, DATA / "suite.json", tmp_path / "out")
    # and, as the users of its tests are not in it, one error for each of them
    first = f"{bad}: users[0].username: required text field is missing or empty"
    assert str(caught.value) == f"{first} (and 16 more errors)"
    suite = tmp_path / "suite.json"
    suite.write_text(
        json.dumps({"tests": [{"id": "t", "prompt": "p", "impersonate_user_id": "U_NOBODY", "assertions": []}]})
    )
    with pytest.raises(SpecError) as caught:
        import_agent_diff(DATA / "seed.json", suite, tmp_path / "out")
    assert str(caught.value) == f"{suite}: tests[0].impersonate_user_id: 'U_NOBODY' is not a user of seed.json"


def test_every_input_error_at_once_and_nothing_written(tmp_path: Path) -> None:
    seed = tmp_path / "seed.json"
    data = json.loads((DATA / "seed.json").read_text())
    data["users"][1:3] = [{"user_id": "U_NONAME"}, "not a row"]
    seed.write_text(json.dumps(data))
    suite = tmp_path / "suite.json"
    tests = [{"id": "t", "prompt": "p", "impersonate_user_id": "U_NOBODY", "assertions": []}, {"id": "u"}]
    suite.write_text(json.dumps({"tests": tests}))
    out = tmp_path / "out"
    with pytest.raises(SpecError) as caught:
        import_agent_diff(seed, suite, out)
    assert [str(e) for e in caught.value.errors] == [  # type: ignore[attr-defined]
        f"{seed}: users[1].username: required text field is missing or empty",
        f"{seed}: users[2]: expected an object, found str",
        f"{suite}: tests[1].prompt: required text field is missing or empty",
        f"{suite}: tests[1].impersonate_user_id: required text field is missing or empty",
        f"{suite}: tests[1].assertions: expected a list of assertions",
        f"{suite}: tests[0].impersonate_user_id: 'U_NOBODY' is not a user of seed.json",
    ]
    assert not out.exists()  # not even the world file


BOX_SEED = {"box_users": [{"id": "27512847635", "name": "Admin"}], "box_folders": [], "box_files": []}


@pytest.mark.parametrize("service", ["box", "calendar", "linear"])
def test_a_suite_of_another_service_is_refused_once_saying_only_slack_is_supported(
    tmp_path: Path, service: str
) -> None:
    suite = tmp_path / f"{service}_bench.json"
    tests = [{"id": f"test_{n}", "prompt": "p", "impersonate_user_id": "x", "assertions": []} for n in range(3)]
    suite.write_text(json.dumps({"service": service, "tests": tests}))
    with pytest.raises(SpecError) as caught:
        import_agent_diff(DATA / "seed.json", suite, tmp_path / "out")
    assert str(caught.value) == (
        f"{suite}: service: a suite for '{service}', not Slack: only Slack is supported (Agent-Diff's Slack bench)"
    )
    assert not (tmp_path / "out").exists()


def test_a_seed_of_another_service_is_refused_naming_its_tables(tmp_path: Path) -> None:
    seed = tmp_path / "box_default.json"
    seed.write_text(json.dumps(BOX_SEED))
    with pytest.raises(SpecError) as caught:
        import_agent_diff(seed, DATA / "suite.json", tmp_path / "out")
    assert str(caught.value) == (
        f"{seed}: channels: not an Agent-Diff Slack seed, having no channels or channel_members table (its tables:"
        " box_users, box_folders, box_files): only Slack is supported (Agent-Diff's Slack bench)"
    )
    assert not (tmp_path / "out").exists()


def test_a_file_that_cannot_be_written_leaves_nothing_behind(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "seeds").mkdir(parents=True)
    (out / "seeds" / "test_9.yaml").mkdir()  # a folder where a scene goes
    with pytest.raises(UsageError, match="test_9.yaml: cannot be written: Is a directory"):
        import_agent_diff(DATA / "seed.json", DATA / "suite.json", out)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["seeds", "seeds/test_9.yaml"]
