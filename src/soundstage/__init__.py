"""soundstage: a rehearsal stage for AI agents. The Slack, GitHub, Datadog and PagerDuty APIs over an
in-memory world, with scripted people, and checks that say whether an attempt passed, with evidence.

    result = run_scenes(["seeds/csv-export.yaml"], "python examples/agents/csv_export.py")
    evaluation = evaluate(parse_checks(...), Attempt.load(trial_folder))   # re-score a saved trial

The CLI (`soundstage run|serve|check|explain|validate|list`) is a thin layer over these.
"""

from __future__ import annotations

# ruff: noqa: I001 (spec comes first: the services import the spec models, and the spec imports the services)
from .spec import ImageCache, WorldImage, build_image, validate_file
from .checks import Attempt, CheckResult, Evaluation, evaluate, parse_checks
from .clock import Clock
from .errors import InfrastructureError, NotFound, SoundstageError, SpecError, UsageError
from .events import EventLog
from .runner import RunResult, TrialResult, run_scenes
from .server import Hub, Server
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
    "run_scenes",
    "validate_file",
]
