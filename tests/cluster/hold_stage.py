"""An agent for seeds/csv-export.yaml that, the first time any trial runs it, writes the pid of the Ray worker
process holding its trial's world and server (its supervisor's parent, the node's stage) to the file
`HOLD_MARKER` names and waits to be ended, so the test can take the node down under it; every other time it
is examples/agents/csv_export.py."""

import os
import runpy
import sys
import time
from pathlib import Path

try:
    marker = os.open(os.environ["HOLD_MARKER"], os.O_CREAT | os.O_EXCL | os.O_WRONLY)
except FileExistsError:
    runpy.run_path(str(Path(__file__).parents[2] / "examples" / "agents" / "csv_export.py"), run_name="__main__")
    sys.exit(0)
stat = Path(f"/proc/{os.getppid()}/stat").read_text()
os.write(marker, stat[stat.rindex(")") + 2 :].split()[1].encode())  # the supervisor's parent
os.close(marker)
time.sleep(600)
