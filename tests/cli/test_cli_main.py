"""The console script: click's own usage errors follow the same rules as every other error."""

from __future__ import annotations

import json

import pytest

from soundstage.cli import main


def exit_code(args: list[str]) -> int:
    with pytest.raises(SystemExit) as exited:
        main(args)
    return exited.value.code


def test_an_unknown_option_is_exit_2_with_a_next_line(capsys) -> None:
    assert exit_code(["run", "--bogus"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "error: No such option: --bogus (Possible options: --out)",
        "next: soundstage run --help",
    ]


def test_in_json_mode_a_usage_error_is_one_document(capsys) -> None:
    assert exit_code(["validate", "--json"]) == 2
    out, _ = capsys.readouterr()
    assert json.loads(out) == {"error": {"type": "UsageError", "message": "Missing argument 'files'.", "exit_code": 2}}


def test_no_command_is_a_usage_error(capsys) -> None:
    assert exit_code([]) == 2
    assert capsys.readouterr().err.splitlines() == ["error: Missing command.", "next: soundstage --help"]


def test_help_exits_0(capsys) -> None:
    assert exit_code(["--help"]) == 0
    assert "Usage: soundstage [OPTIONS] COMMAND [ARGS]..." in capsys.readouterr().out


def test_the_command_line_loads_a_command_only_when_it_runs() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, soundstage.cli\n"
        "from soundstage.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pydantic', 'rich', 'starlette', 'uvicorn', 'httpx', 'faker', 'graphql', 'yaml', 'markdown_it') "
        "or m.startswith('soundstage.')), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    # The engine, the server, their libraries and rich (the commands' tables) wait for a command that needs them.
    assert (
        done.stderr.strip()
        == "['soundstage.cli', 'soundstage.cli.config', 'soundstage.cli.output', 'soundstage.errors']"
    )
    from soundstage.cli import COMMANDS

    for name in COMMANDS:  # every command is listed with its summary
        assert f" {name} " in done.stdout


def test_each_command_is_built_from_its_module(capsys) -> None:
    assert exit_code(["checks", "--help"]) == 0
    assert "Only the checks no scene uses." in capsys.readouterr().out
