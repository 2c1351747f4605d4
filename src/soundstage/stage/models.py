"""The whole files: world definitions (`worlds/<name>.yaml`) and scenes (`seeds/<name>.yaml`), made of
each service's section (`Service.section`), the people, the faults and the checks.

Every model forbids unknown keys and is strict about types (YAML already gives each value its type, so
`realtime: "yes"` is a mistake, not a boolean). Validators raise messages that say what was expected
and what was found; `loader.validate_model` adds file, line and field.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Discriminator, Field, Tag, create_model, model_validator

from ..errors import SpecError
from ..faults.api_models import ApiFault
from ..faults.models import Fault
from ..people.models import Person
from ..services import SERVICES
from ..spec.fields import Duration, Rate, Spec, Time, env_name, host_port
from ..spec.loader import (
    Document,
    PathKey,
    SpecErrors,
    describe,
    dotted,
    load_yaml,
    read_document,
    validate_model,
    validate_partly,
)


class ClockSpec(Spec):
    """Simulated time (docs/scenes.md): where it starts, how far each agent call moves it."""

    start: Time
    tick: Duration = "5s"
    realtime: bool = False
    speed: float = Field(default=1.0, gt=0)


def services() -> list[str]:
    """The services a world file may have a section for, in the order they are registered."""
    return list(SERVICES)


def _service(name: str) -> str:
    if name not in services():
        raise ValueError(f"expected a service, one of: {', '.join(services())}; found {describe(name)}")
    return name


def _collection(key: str) -> str:
    service, _, plural = key.partition(".")
    if service not in services() or not plural:
        raise ValueError(
            f"expected <service>.<collection> with service one of: {', '.join(services())}; found {describe(key)}"
        )
    return key


Seed = create_model(  # type: ignore[call-overload]
    "Seed",
    __base__=Spec,
    __doc__="Service sections and bulk data: the records a world starts with.",
    **{name: (service.section | None, None) for name, service in SERVICES.items()},
    generate=(dict[Annotated[str, AfterValidator(_collection)], dict[str, Any]], {}),
)


class WorldDefinition(Seed):  # type: ignore[valid-type,misc]
    """`worlds/<name>.yaml` (docs/scenes.md)."""

    name: str
    description: str = ""
    clock: ClockSpec | None = None


class _AgentOptions(Spec):
    pass_env: list[Annotated[str, AfterValidator(env_name)]] = []
    may_advance_clock: bool = True  # whether the agent's own token may move the simulated clock
    # Through the interception proxy: `offline` refuses every host but the vendors' (logged all the same).
    network: Literal["online", "offline"] = "online"
    # `host:port`s the proxy lets the agent reach all the same: a local model server, a host of an offline scene.
    allow: list[Annotated[str, AfterValidator(host_port)]] = []


AgentSpec = create_model(  # type: ignore[call-overload]
    "AgentSpec",
    __base__=_AgentOptions,
    __doc__="Who the agent is in each service (refs such as `$bot`), and what of the environment it gets.",
    **{service.agent_user: (str | None, None) for service in SERVICES.values()},
)


def _rate_limit_kind(value: Any) -> str | None:
    return "all" if value is True else "operations" if isinstance(value, dict) else None


RateLimit = Annotated[
    Annotated[Literal[True], Tag("all")] | Annotated[dict[str, Rate], Tag("operations")],
    Discriminator(
        _rate_limit_kind,
        custom_error_type="rate_limit",
        custom_error_message="expected true or a mapping of operation name (or *) to a rate like 5/1m",
    ),
]


# The longest file name most file systems allow, in bytes.
MAX_NAME_BYTES = 255


def _folder_name(name: str) -> str:
    """A scene's name names its trial folders (`<run>/<scene name>/<trial>`): one folder, on any system."""
    if not name.strip() or name in (".", "..") or any(c in name for c in "/\\\0"):
        raise ValueError(f"expected a name that can name a folder (not . or .., no / or \\), found {describe(name)}")
    size = len(name.encode())
    if size > MAX_NAME_BYTES:
        raise ValueError(
            f"expected a name of at most {MAX_NAME_BYTES} bytes (it names the scene's trial folders), "
            f"found {describe(name)} ({size:,} bytes)"
        )
    return name


class Scene(Spec):
    """`seeds/<name>.yaml` (docs/scenes.md): a world, the task, and how the attempt is judged."""

    name: Annotated[str, AfterValidator(_folder_name)]
    world: str | None = None
    description: str = ""
    tags: list[str] = []  # for `soundstage list --tag` and suites' `tags`
    difficulty: Literal["easy", "medium", "hard"] | None = None
    task: str
    clock: ClockSpec | None = None
    agent: AgentSpec | None = None  # type: ignore[valid-type]
    seed: Seed | None = None  # type: ignore[valid-type]
    people: list[Person] = []
    faults: list[Fault] = []
    api_faults: list[ApiFault] = []  # type: ignore[valid-type]
    checks: list[dict[str, Any]] = []
    pass_: list[str] | None = Field(None, alias="pass")
    rate_limits: dict[Annotated[str, AfterValidator(_service)], RateLimit] = {}

    @model_validator(mode="after")
    def _has_world(self) -> Scene:
        if not self.world and self.seed is None:
            raise ValueError("a scene needs `world` (a world definition to start from) or `seed` (the whole world)")
        return self


@functools.cache
def _sections_built() -> None:
    """Builds each service section's validator on its own, once. Scenes and world files both hold every
    section, and pydantic builds a deferred model's validator where it is first used: inside each of them,
    twice, unless the section's own is built already, which both then use."""
    for service in SERVICES.values():
        service.section.model_rebuild()


def read_world(path: Path) -> tuple[WorldDefinition, Document]:
    document = read_document(path)
    _sections_built()
    return validate_model(WorldDefinition, document), document


def read_scene(path: Path) -> tuple[Scene, Document]:
    document = read_document(path)
    return checked_scene(document), document


def read_scene_text(text: str, file: str = "<scene_yaml>") -> tuple[Scene, Document]:
    document = load_yaml(text, file)
    return checked_scene(document), document


def checked_scene(document: Document) -> Scene:
    """The scene; raises SpecErrors naming every problem of its fields."""
    parts = scene_parts(document)
    if parts.errors or parts.scene is None:
        raise SpecErrors(parts.errors)
    return parts.scene


@dataclass
class SceneParts:
    """A scene read as far as it goes: the parts of it that validate, the problems of the others, and the paths
    of what was left out for them (`loader.validate_partly`)."""

    scene: Scene | None
    errors: list[SpecError]
    left_out: list[PathKey]


# What a scene missing its name or task is built with meanwhile, so that its other problems are found too.
_STAND_INS = {"name": "scene", "task": ""}


def scene_parts(document: Document) -> SceneParts:
    """The scene's fields, every operation its `rate_limits` name checked to be one the service implements (or
    `*`): a misspelt name would otherwise limit nothing, silently."""
    _sections_built()
    scene, errors, left_out = validate_partly(Scene, document, _STAND_INS)
    for service, limits in scene.rate_limits.items() if scene is not None else ():
        known = SERVICES[service].operations()
        for operation in limits if isinstance(limits, dict) else ():
            if operation != "*" and operation not in known:
                path = ("rate_limits", service, operation)
                close = difflib.get_close_matches(operation, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                message = (
                    f"expected * or a {service} operation soundstage implements, found {describe(operation)}{hint}"
                )
                errors.append(SpecError(message, file=document.file, line=document.line(path), field=dotted(path)))
    return SceneParts(scene, sorted(errors, key=lambda error: error.line or 0), left_out)
