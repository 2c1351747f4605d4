"""Writes docs/services/<service>-coverage.md for every registered service: how soundstage's answers measure
up against real recorded responses (tests/services/recorded_coverage.py), per operation and per service, and
which operations have none recorded (all of them, for a service with no data file).

    python scripts/coverage_docs.py [--floors]

It starts a soundstage server of its own (on a free port, with a throwaway home for its certificates), makes
each service's calls and writes the pages; tests/services/test_recorded.py checks they are up to date. With
`--floors` it also sets each service's floors and mismatch ceilings (one of each per measure, tailored and
neutral) in tests/services/recorded/<service>.json to the figures just measured (to raise the ratchet after
an improvement; never to lower it unnoticed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floors", action="store_true", help="set the floors to the measured figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["SOUNDSTAGE_HOME"] = home
        from tests.conftest import Stage
        from tests.services.recorded_coverage import DOCS, RECORDED, SERVICES, WORLDS, measure, render

        from soundstage.server import Server

        server = Server().start()
        stage = Stage(server)
        try:
            for service in SERVICES:
                measures = [measure(stage, service, world) for world in WORLDS]
                failures = [failure for each in measures for failure in each.failures]
                if failures:
                    raise SystemExit(f"{service}: calls failed:\n" + "\n".join(failures))
                data = measures[0].data
                if args.floors and "origin" in data:  # a service with recorded responses
                    data["floors"] = {each.world: each.average for each in measures}
                    data["max_mismatches"] = {each.world: each.mismatches for each in measures}
                    (RECORDED / f"{service}.json").write_text(json.dumps(data, indent=1) + "\n")
                    for each in measures:
                        each.data = data
                (DOCS / f"{service}-coverage.md").write_text(render(measures))
                figures = ", ".join(f"{each.world} {each.average:.1%}" for each in measures)
                print(f"{service}: {figures} over {len(measures[0].comparisons)} operations")
        finally:
            stage.http.close()
            stage.https.close()
            server.stop()


if __name__ == "__main__":
    main()
