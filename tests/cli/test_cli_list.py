"""`soundstage list`: world definitions and scenes in reach; the operations each service implements."""

from __future__ import annotations

import json
from pathlib import Path

from soundstage.services import SERVICES

SPEC = {
    "swagger": "2.0",
    "basePath": "/api",
    "paths": {
        "/chat.postMessage": {"post": {}},
        "/admin.apps.approve": {"post": {}},
        "/conversations.list": {"get": {}},
    },
}


def test_list_shows_worlds_and_scenes(bench, cli) -> None:
    (bench.root / "seeds").mkdir()
    (bench.root / "worlds").mkdir()
    (bench.root / "seeds" / "hello.yaml").write_text(
        bench.scene.read_text().replace("task:", "description: Says hello.\ntask:")
    )
    (bench.root / "worlds" / "acme.yaml").write_text("name: acme\ndescription: A small company.\n")

    human = cli("list")
    data = json.loads(cli("list", "--json").stdout)

    assert human.exit_code == 0
    assert data == {
        "worlds": [
            {"name": "acme", "path": str(Path.cwd() / "worlds" / "acme.yaml"), "description": "A small company."}
        ],
        "scenes": [
            {
                "name": "hello",
                "path": str(Path.cwd() / "seeds" / "hello.yaml"),
                "description": "Says hello.",
                "tags": [],
                "difficulty": None,
            }
        ],
        "suites": [],
    }
    assert "Says hello." in human.stdout and "A small company." in human.stdout
    assert (
        human.stdout.splitlines()[-1]
        == f"next: soundstage run {Path.cwd() / 'seeds' / 'hello.yaml'} --agent 'python agent.py'"
    )


def test_list_by_tag_with_difficulty_and_suites(bench, cli) -> None:
    (bench.root / "seeds").mkdir()
    (bench.root / "suites").mkdir()
    hello = bench.scene.read_text()
    (bench.root / "seeds" / "hello.yaml").write_text(
        hello.replace("task:", "tags: [greeting, slack]\ndifficulty: easy\ntask:")
    )
    (bench.root / "seeds" / "bye.yaml").write_text(
        hello.replace("name: hello", "name: bye").replace("task:", "tags: [slack]\ntask:")
    )
    (bench.root / "suites" / "greetings.yaml").write_text("name: greetings\ndescription: Hellos.\ntags: [greeting]\n")

    def listed(*args: str) -> list[tuple[str, list[str], str | None]]:
        data = json.loads(cli("list", "--json", *args).stdout)
        return [(s["name"], s["tags"], s["difficulty"]) for s in data["scenes"]]

    assert listed() == [("bye", ["slack"], None), ("hello", ["greeting", "slack"], "easy")]
    assert listed("--tag", "greeting") == [("hello", ["greeting", "slack"], "easy")]
    assert listed("--tag", "greeting", "--tag", "slack") == [
        ("bye", ["slack"], None),
        ("hello", ["greeting", "slack"], "easy"),
    ]
    assert listed("--tag", "nope") == []
    assert json.loads(cli("list", "--json").stdout)["suites"] == [
        {"name": "greetings", "path": str(Path.cwd() / "suites" / "greetings.yaml"), "description": "Hellos."}
    ]
    assert "no scenes with the tag nope" in cli("list", "--tag", "nope").stdout


def test_operations_come_from_the_registry(bench, cli) -> None:
    result = cli("list", "--operations", "--json")

    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"services": {name: s.operations() for name, s in SERVICES.items()}}
    assert "chat.postMessage" in SERVICES["slack"].operations()


def test_operations_against_an_openapi_file(bench, cli) -> None:
    spec = bench.write("slack.json", json.dumps(SPEC))

    result = cli("list", "--spec", str(spec))
    data = json.loads(cli("list", "--spec", str(spec), "--json").stdout)["spec"]

    assert result.exit_code == 0
    assert (data["total"], data["implemented"]) == (3, 2)
    assert [(o["method"], o["path"], o["implemented"]) for o in data["operations"]] == [
        ("POST", "/chat.postMessage", True),
        ("POST", "/admin.apps.approve", False),
        ("GET", "/conversations.list", True),
    ]
    assert result.stdout.splitlines()[-5:] == [
        f"{spec}: 2 of 3 operations implemented",
        "  [x] POST /chat.postMessage",
        "  [ ] POST /admin.apps.approve",
        "  [x] GET /conversations.list",
        "next: soundstage serve",
    ]


def test_a_spec_that_is_not_openapi_exits_2(bench, cli) -> None:
    bench.write("notes.yaml", "just: notes\n")

    assert cli("list", "--spec", "notes.yaml").exit_code == 2
    assert cli("list", "--spec", "absent.yaml").exit_code == 2
