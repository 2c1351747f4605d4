"""soundstage: a rehearsal stage for AI agents. The Slack, GitHub, Datadog and PagerDuty APIs over an
in-memory world, with scripted people, and checks that say whether an attempt passed, with evidence.

    with Stage() as stage:                            # a server in this process (docs/python.md)
        world = stage.world("refund-approval")
        run_my_agent(env=world.env)
        result = world.finish(output="...")           # or world.check(check.called("POST /api/chat.postMessage"))
        assert result.passed, result.explain()

    result = run_scenes(["seeds/csv-export.yaml"], "python examples/agents/csv_export.py")
    evaluation = rescore(trial_folder)   # re-score a saved trial, from its files; review(trial_folder) explains it

`check` builds checks in code, as a scene's YAML writes them; `@python_check("name")` registers a function as a
Python check, which answers True or False, a score or a `Verdict` from an `AttemptView` (docs/checks.md); the
pytest plugin (docs/pytest.md) gives tests the `stage` and `world` fixtures.

The CLI (`soundstage run|serve|check|explain|validate|list`) is a thin layer over these.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Where each public name lives. They are imported when first used, so `import soundstage.cli` (every command
# line) loads only what its command needs.
_PUBLIC = {
    "CheckResult": "checks",
    "Evaluation": "checks",
    "evaluate": "checks",
    "parse_checks": "checks",
    "rescore": "checks",
    "AttemptView": "checks.python",
    "Verdict": "checks.python",
    "python_check": "checks.python",
    "Clock": "clock",
    "InfrastructureError": "errors",
    "NotFound": "errors",
    "SoundstageError": "errors",
    "SpecError": "errors",
    "UsageError": "errors",
    "EventLog": "events",
    "Attempt": "grading",
    "AsyncLiveWorld": "rehearsal",
    "AsyncStage": "rehearsal",
    "LiveWorld": "rehearsal",
    "Result": "rehearsal",
    "Stage": "rehearsal",
    "review": "rehearsal",
    "Run": "results",
    "Trial": "results",
    "run_scenes": "runner",
    "Hub": "server",
    "Server": "server",
    "ImageCache": "stage",
    "WorldImage": "stage",
    "build_image": "stage",
    "validate_file": "stage",
    "World": "world",
}

if TYPE_CHECKING:
    from .checks import CheckResult, Evaluation, parse_checks, rescore

    # isort: split
    from .checks import builders as check
    from .checks import evaluate  # type: ignore[no-redef]  # mypy takes it for the submodule checks.evaluate
    from .checks.python import AttemptView, Verdict, python_check
    from .clock import Clock
    from .errors import InfrastructureError, NotFound, SoundstageError, SpecError, UsageError
    from .events import EventLog
    from .grading import Attempt
    from .rehearsal import AsyncLiveWorld, AsyncStage, LiveWorld, Result, Stage, review
    from .results import Run, Trial
    from .runner import run_scenes
    from .server import Hub, Server
    from .stage import ImageCache, WorldImage, build_image, validate_file
    from .world import World


def __getattr__(name: str) -> Any:
    if name == "check":
        return importlib.import_module(".checks.builders", __name__)
    if name not in _PUBLIC:
        raise AttributeError(f"module 'soundstage' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_PUBLIC[name]}", __name__), name)
    globals()[name] = value  # the next lookup is a plain one
    return value


__all__ = [
    "AsyncLiveWorld",
    "AsyncStage",
    "Attempt",
    "AttemptView",
    "CheckResult",
    "Clock",
    "Evaluation",
    "EventLog",
    "Hub",
    "ImageCache",
    "InfrastructureError",
    "LiveWorld",
    "NotFound",
    "Result",
    "Run",
    "Server",
    "SoundstageError",
    "SpecError",
    "Stage",
    "Trial",
    "UsageError",
    "Verdict",
    "World",
    "WorldImage",
    "build_image",
    "check",
    "evaluate",
    "parse_checks",
    "python_check",
    "rescore",
    "review",
    "run_scenes",
    "validate_file",
]
