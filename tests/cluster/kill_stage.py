"""An agent for seeds/csv-export.yaml that, the first time any trial runs it, kills the Ray worker process
holding its trial's world and server (its supervisor's parent, the node's stage), as a machine dying mid-trial
would, and waits to be ended; every other time it is examples/agents/csv_export.py. The first run is the one
that creates the file `KILL_MARKER` names, and writes the pid it killed there."""

import os
import runpy
import signal
import sys
import time
from pathlib import Path

try:
    marker = os.open(os.environ["KILL_MARKER"], os.O_CREAT | os.O_EXCL | os.O_WRONLY)
except FileExistsError:
    runpy.run_path(str(Path(__file__).parents[2] / "examples" / "agents" / "csv_export.py"), run_name="__main__")
    sys.exit(0)
stat = Path(f"/proc/{os.getppid()}/stat").read_text()
stage = int(stat[stat.rindex(")") + 2 :].split()[1])  # the supervisor's parent
title = Path(f"/proc/{stage}/cmdline").read_bytes()
if b"_Stage" not in title:  # never kill anything but a stage
    sys.exit(f"the supervisor's parent is not a stage: {title[:200]!r}")
os.write(marker, str(stage).encode())
os.close(marker)
os.kill(stage, signal.SIGKILL)
time.sleep(60)  # the supervisor ends the agent's tree once its parent is gone
