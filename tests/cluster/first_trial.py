"""An agent for seeds/csv-export.yaml that does something to the node under the first trial that runs it, and
is examples/agents/csv_export.py every other time. The first run is the one that creates the file `MARKER`
names; it writes there the pid of the Ray worker process holding its trial's world and server (its
supervisor's parent, the node's stage), then, as its argument says:

- `kill`: kills that process, as a machine dying mid-trial would, and waits to be ended;
- `hold`: waits to be ended, so the test can take the whole node down under it.
"""

import os
import runpy
import signal
import sys
import time
from pathlib import Path

try:
    marker = os.open(os.environ["MARKER"], os.O_CREAT | os.O_EXCL | os.O_WRONLY)
except FileExistsError:
    runpy.run_path(str(Path(__file__).parents[2] / "examples" / "agents" / "csv_export.py"), run_name="__main__")
    sys.exit(0)
stat = Path(f"/proc/{os.getppid()}/stat").read_text()
stage = int(stat[stat.rindex(")") + 2 :].split()[1])
title = Path(f"/proc/{stage}/cmdline").read_bytes()
if b"_Stage" not in title:  # never touch anything but a stage
    sys.exit(f"the supervisor's parent is not a stage: {title[:200]!r}")
os.write(marker, str(stage).encode())
os.close(marker)
if sys.argv[1] == "kill":
    os.kill(stage, signal.SIGKILL)
time.sleep(600)  # the supervisor ends the agent's tree once its trial ends
