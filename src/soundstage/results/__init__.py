"""What a run leaves behind, in one shape: a `Run`, its `Trial`s with their check results, each scene's
`SceneFigures` and the run's evaluations, as typed, versioned models (docs/cli.md, "Run folders", "The results
store"). Everything that writes or reads runs speaks them: the runner, the results store, the runs API and
the commands.

    version.py   VERSION, and how earlier shapes are read
    trial.py     Trial (result.json, with its check results and digests), Counts, a trial's outcome
    figures.py   SceneFigures: pass@1, pass@k, pass^k, each check's pass rate and the mean score, computed here alone
    run.py       Run (run.json, and the store's run under an evaluation), Evaluation, ListedRun, the exit code
    files.py     run.json, result.json and checks.json, written and read here alone
    writer.py    RunWriter: the results store as a run goes, and run.json (ResultsSink: the store's side)
    folders.py   reading run folders: runs, trials' logs, recorded digests; FolderRuns, a library of runs
    library.py   RunLibrary: where runs are read back from (the store, run folders)
    log.py       TrialLog: a trial's calls, events, diff, output, stderr and its records' names
    names.py     the names of a trial's records by id, as each service names them
    digests.py   the digests of a trial folder's files
    trust.py     whether a stored grade can be trusted: files changed since, notes, `files_unchanged`
    compare.py   two runs compared
    selection.py RunFilter: the runs of a scene, of an agent, started within a span of days
"""

from __future__ import annotations

from ..checks.results import CheckResult
from .compare import compare_runs, compare_trials
from .figures import CheckFigures, SceneFigures, run_figures, scene_figures
from .folders import FolderRuns, read_log, read_run, run_folders
from .library import RunLibrary
from .log import TrialLog
from .names import record_names
from .run import Evaluation, ListedRun, Run, exit_code, unimplemented
from .selection import RunFilter
from .trial import Counts, Outcome, Trial, outcome
from .version import VERSION
from .writer import ResultsSink, RunWriter

__all__ = [
    "VERSION",
    "CheckFigures",
    "CheckResult",
    "Counts",
    "Evaluation",
    "FolderRuns",
    "ListedRun",
    "Outcome",
    "ResultsSink",
    "Run",
    "RunFilter",
    "RunLibrary",
    "RunWriter",
    "SceneFigures",
    "Trial",
    "TrialLog",
    "compare_runs",
    "compare_trials",
    "exit_code",
    "outcome",
    "read_log",
    "read_run",
    "record_names",
    "run_figures",
    "run_folders",
    "scene_figures",
    "unimplemented",
]
