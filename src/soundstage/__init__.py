"""soundstage: a rehearsal stage for AI agents. The Slack, GitHub, Datadog and PagerDuty APIs over an
in-memory world, with scripted people, and checks that say whether an attempt passed, with evidence.

    result = run_scenes(["seeds/csv-export.yaml"], "python examples/agents/csv_export.py")
    evaluation = rescore(trial_folder)   # re-score a saved trial, from its files

The CLI (`soundstage run|serve|check|explain|validate|list`) is a thin layer over these.
"""

from __future__ import annotations

from .checks import CheckResult, Evaluation, evaluate, parse_checks, rescore
from .clock import Clock
from .errors import InfrastructureError, NotFound, SoundstageError, SpecError, UsageError
from .events import EventLog
from .grading import Attempt
from .runner import RunResult, TrialResult, run_scenes
from .server import Hub, Server
from .stage import ImageCache, WorldImage, build_image, validate_file
from .world import World

__all__ = [
    "Attempt",
    "CheckResult",
    "Clock",
    "Evaluation",
    "EventLog",
    "Hub",
    "ImageCache",
    "InfrastructureError",
    "NotFound",
    "RunResult",
    "Server",
    "SoundstageError",
    "SpecError",
    "TrialResult",
    "UsageError",
    "World",
    "WorldImage",
    "build_image",
    "evaluate",
    "parse_checks",
    "rescore",
    "run_scenes",
    "validate_file",
]
