"""The project file from the command line: it drives a run with no flags, flags and variables win over it,
`soundstage config` says where each setting comes from, and a bad file is refused with its lines."""

from __future__ import annotations

import json


def project_file(bench, text: str) -> None:
    bench.write("soundstage.yaml", text)


def test_the_project_file_drives_a_run_with_no_flags(bench, cli) -> None:
    project_file(bench, f"run:\n  agent: '{bench.hello()}'\n  trials: 2\n  out: results\n")
    result = cli("run", "hello.yaml", "--json")
    assert result.exit_code == 0, result.stdout
    run = json.loads(result.stdout)
    assert (run["trials"], run["agent"]) == (2, bench.hello())
    assert run["folder"].startswith(str(bench.root / "results"))
    flagged = json.loads(cli("run", "hello.yaml", "--trials", "1", "--json").stdout)
    assert flagged["trials"] == 1  # a flag wins over the file


def test_config_says_where_each_setting_comes_from(bench, cli) -> None:
    project_file(
        bench, "run: {trials: 4, env: {MODEL: secret-model-name}}\nstore: sqlite:///team.db\njudge: {key_env: MY_KEY}\n"
    )
    result = cli("config", "--json", env={"MY_KEY": "sk-hidden-value", "SOUNDSTAGE_JUDGE_MODEL": "from-env"})
    assert result.exit_code == 0, result.stdout
    shown = json.loads(result.stdout)
    assert shown["file"] == str(bench.root / "soundstage.yaml")
    settings = {s["name"]: (s["value"], s["source"]) for s in shown["settings"]}
    assert settings["run --trials"] == (4, "file")
    assert settings["run --parallel"] == (None, "default")  # 1, or with --ray one per CPU of the cluster
    assert settings["run --env"] == (["MODEL=<hidden>"], "file")
    assert settings["SOUNDSTAGE_DB"] == ("sqlite:///team.db", "file")
    assert settings["SOUNDSTAGE_JUDGE_KEY"] == ("<hidden>", "file")
    assert settings["SOUNDSTAGE_JUDGE_MODEL"] == ("from-env", "environment")
    assert "sk-hidden-value" not in result.stdout and "secret-model-name" not in result.stdout


def test_a_project_file_named_by_config(bench, cli) -> None:
    bench.write("other.yaml", "run: {timeout: 12.5}\n")
    shown = json.loads(cli("--config", "other.yaml", "config", "--json").stdout)
    assert shown["file"] == str(bench.root / "other.yaml")
    assert {s["name"]: s["value"] for s in shown["settings"]}["run --timeout"] == 12.5


def test_a_bad_project_file_is_refused_with_its_lines(bench, cli) -> None:
    project_file(bench, "run:\n  trials: many\nstore: 3\n")
    result = cli("run", "hello.yaml", "--agent", bench.hello(), "--json")
    assert result.exit_code == 2
    errors = json.loads(result.stdout)["error"]["errors"]
    assert [(e["line"], e["field"]) for e in errors] == [(2, "run.trials"), (3, "store")]
