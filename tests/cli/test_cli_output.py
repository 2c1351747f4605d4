"""What the commands print where stdout is not a terminal: tables as wide as their content, never squashed to
80 columns; and a reader that stops reading (`| head -1`) ends the command quietly, as it ends `cat`."""

from __future__ import annotations

import signal
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from soundstage.cli.history import opened
from soundstage.results import Run
from soundstage.store import open_store, store_url

# Longer than any terminal is wide: a table squashed to one would wrap it over several lines.
LONG_NAME = "hello-" + "-".join(f"part{n}" for n in range(30))


def piped(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`soundstage ARGS...` in a process of its own, its stdout a pipe, with no terminal width to go by."""
    return subprocess.run(
        [sys.executable, "-m", "soundstage", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=120
    )


def test_tables_through_a_pipe_keep_long_values_on_one_line(bench) -> None:
    bench.scene.write_text(bench.scene.read_text().replace("name: hello", f"name: {LONG_NAME}", 1))
    agent = bench.hello() + " " + "--long-argument-" * 8  # the scripted agent reads its first argument only
    store = lambda: opened(None, bench.out)  # what `run` opens, made anew for each run
    before = bench.run(bench.agent("exit", "0"), store=store)
    after = bench.run(agent, trials=2, store=store)

    runs = piped("runs", cwd=bench.root)
    shown = piped("show", after.run_id, cwd=bench.root)
    compared = piped("compare", before.folder, after.folder, cwd=bench.root)

    assert (runs.returncode, shown.returncode, compared.returncode) == (0, 0, 0), runs.stderr + shown.stderr
    [row] = [line for line in runs.stdout.splitlines() if line.startswith(f"│ {after.run_id} ")]
    cells = [cell.strip() for cell in row.split("│")[1:-1]]
    assert cells[2:] == [agent, str(bench.scene), "2", "2/2", after.folder]
    [row] = [line for line in shown.stdout.splitlines() if line.startswith(f"│ {LONG_NAME} ")]
    assert [cell.strip() for cell in row.split("│")[1:-1]] == [
        LONG_NAME,
        "2/2",
        "#1 passed (score 1.00) #2 passed (score 1.00)",
    ]
    compared_line = (
        f"{LONG_NAME}: A 0/1 passed (pass@1 0%, mean score 0.00); B 2/2 passed (pass@1 100%, mean score 1.00)"
    )
    assert compared_line in compared.stdout.splitlines()
    for output in (runs, shown):  # every line of a table as long as its widest row: nothing wrapped
        table = [line for line in output.stdout.splitlines() if line[:1] in "┏┃┡│└"]
        assert len({len(line) for line in table}) == 1 and len(table[0]) > 200


def test_a_reader_that_stops_reading_ends_the_command_quietly_as_sigpipe(bench) -> None:
    store = open_store(store_url(None, bench.out))
    assert store is not None
    try:  # each row longer than a terminal, more of them than a pipe holds (64 KiB): it closes while rows remain
        for n in range(100):
            agent = f"python agent-{n}.py " + "--option " * 100
            started = datetime(2026, 3, 2, 14, n // 60, n % 60, tzinfo=UTC)
            store.start_run(
                Run(run_id=f"run-{n:03}", folder="", agent=agent, scenes=["hello"], trials=1, started_at=started)
            )
    finally:
        store.close()

    for args, reader in ((["runs"], ["head", "-1"]), (["runs", "--json"], ["head", "-c", "1"])):  # JSON is one line
        command = subprocess.Popen(
            [sys.executable, "-m", "soundstage", *args], cwd=bench.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        head = subprocess.run(reader, stdin=command.stdout, capture_output=True, check=True, timeout=60)
        assert command.stdout is not None and command.stderr is not None
        command.stdout.close()
        errors = command.stderr.read()
        command.stderr.close()

        assert head.stdout in (b"runs\n", b"{")
        assert (command.wait(60), errors) == (-signal.SIGPIPE, b"")
