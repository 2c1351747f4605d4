"""Exporting a run of 1,000 trials as training data (docs/cli.md, "soundstage export"): budget 5 s.

    python benchmarks/export.py [--trials 1000] [--calls 10]

A run folder of TRIALS trials over 10 scenes, each with result.json (5 check results), scene.json, output.txt and
a trace.jsonl of CALLS Slack calls with answers of a few hundred bytes, is written first (not timed); then the
run is read and exported to a JSONL file, as `soundstage export RUN --output FILE` does, three times. It prints
the best wall and CPU time of the three, and the file's size.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from soundstage.checks import CheckResult
from soundstage.results import Counts, Run, Trial, read_run
from soundstage.results.export import export_lines
from soundstage.results.files import RUN_FILE, checks_json, encoded, result_json

SCENES = 10
BUDGET = 5.0


def write_trial(folder: Path, scene: str, number: int, calls: int) -> Trial:
    folder.mkdir(parents=True)
    checks = [
        CheckResult(
            id=f"check_{n}",
            kind="state:slack.message",
            required=True,
            passed=number % 3 != 0 or n > 0,
            expected="a message in #general saying the export is done",
            actual="1 message",
            explanation="a message in #general",
            evidence=[2],
            source="scene",
        )
        for n in range(5)
    ]
    trial = Trial(
        scene=scene,
        trial=number,
        world=f"w{number:032x}",
        outcome="passed" if number % 3 else "failed",
        exit_code=0,
        timed_out=False,
        finish_reason="exited",
        wall_seconds=1.0,
        simulated_seconds=30.0,
        counts=Counts(calls=calls, events=calls * 2 + 2, errors=0, unimplemented=0),
        folder=str(folder),
        checks=checks,
    )
    trace = []
    for seq in range(2, calls + 2):
        message = {"ts": f"1772460{seq:03d}.000100", "user": "U954GCKR0NM", "text": "The CSV export lives " * 8}
        trace.append(
            {
                "seq": seq,
                "kind": "call",
                "t": "2026-03-02T14:00:00Z",
                "service": "slack",
                "method": "POST",
                "path": "/api/conversations.history",
                "operation": "conversations.history",
                "query": {},
                "body": {"channel": "C2FJSP4FLTM", "limit": 20},
                "status": 200,
                "response": {"ok": True, "messages": [message, message]},
            }
        )
    (folder / "trace.jsonl").write_text("".join(json.dumps(line) + "\n" for line in trace))
    (folder / "scene.json").write_bytes(encoded({"name": scene, "task": "Answer the CSV export question."}))
    (folder / "output.txt").write_text("Answered in the thread.\n")
    (folder / "checks.json").write_bytes(checks_json(checks))
    (folder / "result.json").write_bytes(result_json(trial))
    return trial


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=10)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "20260101-000000"
        trials = [
            write_trial(
                folder / f"scene-{n % SCENES}" / str(n // SCENES + 1),
                f"scene-{n % SCENES}",
                n // SCENES + 1,
                options.calls,
            )
            for n in range(options.trials)
        ]
        run = Run(
            run_id=folder.name,
            folder=str(folder),
            agent="python agent.py",
            scenes=[f"seeds/scene-{n}.yaml" for n in range(SCENES)],
            trials=options.trials // SCENES,
            started_at=datetime.now(UTC),
            results=trials,
        )
        (folder / RUN_FILE).write_text(run.model_dump_json())
        out = Path(temporary) / "export.jsonl"
        best_wall = best_cpu = float("inf")
        for _ in range(3):
            wall, cpu = time.perf_counter(), time.process_time()
            with out.open("w", encoding="utf-8") as file:
                for line in export_lines(read_run(folder)):
                    file.write(line + "\n")
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
        lines, size = out.read_text().count("\n"), out.stat().st_size
    verdict = "within" if best_cpu < BUDGET else "OVER"
    print(f"export of {lines} trials ({options.calls} calls each): {best_wall:.2f} s wall, {best_cpu:.2f} s CPU")
    print(f"  {size:,} bytes; budget {BUDGET:.0f} s of CPU: {verdict}")


if __name__ == "__main__":
    main()
