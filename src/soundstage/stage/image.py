"""The world image: a scene parsed, resolved and built once; every live world is a cheap copy of it.

Building reads the scene (and the world definition it names), lets each service give ids to its records
and then build them (so `$refs` resolve across services), runs `generate:`, resolves the agent's
identities and the faults, and parses the checks. Images are cached by file and modification time; a
scene whose clock starts `now` is rebuilt for every world, since its records are dated from that moment.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .. import collector
from ..checks import Check, CheckSpecError, CheckSpecErrors, check_pass_list, watch_state_milestones
from ..checks.library import Parsed, parse_with_library
from ..checks.python import sources
from ..clock import Clock, parse_duration, parse_time, wall_us
from ..errors import NotFound, SpecError
from ..faults import api as api_faults
from ..faults import engine as faults_engine
from ..faults.build import ResolvedFault, build_faults
from ..ids import IdSource
from ..people.build import build_people, outside
from ..people.cast import Cast
from ..people.engine import attach
from ..services import SERVICES
from ..services.base import Address
from ..spec.build import BuildContext, LeftOut
from ..spec.discovery import find_named_scene, find_scene, find_world
from ..spec.loader import Document, PathKey, SpecErrors, load_yaml, read_document
from ..world import Collection, World
from .models import AgentSpec, ClockSpec, Scene, SceneParts, WorldDefinition, read_world, scene_parts
from .references import unresolved

DEFAULT_START = "2026-03-02T14:00:00Z"


@dataclass
class WorldImage:
    scene: Scene
    source: str  # the scene file, or "<scene_yaml>"
    world_name: str | None
    collections: dict[str, Collection]
    ids: IdSource
    clock: ClockSpec
    start: int
    refs: dict[str, str]
    settings: dict[str, Any]
    checks: list[Check]
    written_checks: list[Any]  # the scene's checks as written, `use` entries expanded: what a trial keeps
    agent: dict[str, Any] = field(default_factory=dict)
    cast: Cast = field(default_factory=Cast)  # the scene's people, resolved
    faults: list[ResolvedFault] = field(default_factory=list)  # the scene's faults, resolved
    api_faults: list[api_faults.ApiFaultRule] = field(default_factory=list)  # calls that misbehave
    files: list[str] = field(default_factory=list)  # the files it was built from
    yaml: str | None = None  # the scene's text when it was given as text (`scene_yaml`)
    digest: str = ""  # of that text and the files' contents as built (`ImageCache.load`): what a snapshot names

    @property
    def name(self) -> str:
        return self.scene.name

    @property
    def task(self) -> str:
        return self.scene.task

    @property
    def pass_ids(self) -> list[str] | None:
        return self.scene.pass_

    def scene_record(self) -> dict[str, Any]:
        """What a trial folder keeps of the scene (`scene.json`), enough to score the trial again."""
        return {
            "name": self.scene.name,
            "source": self.source,
            "world": self.world_name,
            "task": self.scene.task,
            "refs": self.refs,
            "agent": self.agent,
            "checks": self.written_checks,
            "pass": self.scene.pass_,
        }

    def instantiate(self, world_id: str) -> World:
        """A fresh live world: copies of the id maps (records are shared until changed), ids and clock."""
        clock = Clock(
            self.start,
            tick_us=parse_duration(self.clock.tick),
            realtime=self.clock.realtime,
            speed=self.clock.speed,
        )
        world = World(
            world_id,
            self.scene.name,
            {name: c.copy() for name, c in self.collections.items()},
            clock,
            self.ids.copy(),
            initial={name: c._records for name, c in self.collections.items()},
            refs=self.refs,
            settings=self.settings,
            task=self.scene.task,
            world_name=self.world_name,
            agent=dict(self.agent),
        )
        world.checks = self.checks
        world.pass_ids = self.pass_ids
        world.scene_record = self.scene_record()
        world.image = self
        for service in SERVICES.values():  # services that act on their own (monitors evaluating)
            start = getattr(service, "attach", None)
            if start is not None:
                start(world)
        # After the services (a fault active at the start writes their records), before the people (so they
        # hear a `fault_resolved` in the round it happens).
        faults_engine.attach(world, self.faults)
        api_faults.attach(world, self.api_faults)
        if world.log.last_seq > 1:  # a fault's effects at the start are part of the world the agent finds
            world.initial = world.snapshot()
        attach(world, self.cast)
        # After the people: watchers run in order, so a message's event comes before a milestone it causes.
        watch_state_milestones(world, self.checks)
        return world


def build_image(scene: Scene, scene_doc: Document, earlier: SceneParts | None = None) -> WorldImage:
    """Builds the image of a parsed scene; raises SpecErrors naming the file, line and field of every
    problem it finds (a problem in one part does not hide the problems of the others). `earlier`: the scene
    as `scene_parts` read it, whose problems are reported with these and whose parts left out are not looked
    for (a check naming a fact of a person left out is no problem of its own)."""
    # A big world makes hundreds of thousands of objects that all live on: without this, each full collection
    # walks all of them again (a fifth of loading 100,000 messages).
    with collector.held():
        return _build(scene, scene_doc, earlier or SceneParts(scene, [], []))


def scene_image(document: Document) -> WorldImage:
    """The image of a scene file's document; raises SpecErrors naming every problem of it at once, of its fields
    and of what they name."""
    parts = scene_parts(document)
    if parts.scene is None:
        raise SpecErrors(parts.errors)
    return build_image(parts.scene, document, parts)


def _build(scene: Scene, scene_doc: Document, earlier: SceneParts) -> WorldImage:
    scene_file = scene_doc.file
    try:
        world, world_doc = _world(scene, scene_doc)
    except SpecError as exc:
        raise SpecErrors(_sorted(earlier.errors + _listed(exc), scene_file)) from None
    clock = _clock(scene, world)
    documents = {doc.file: doc for doc in (scene_doc, world_doc) if doc is not None}
    seed = world.name if world else scene.name
    ctx = BuildContext(IdSource(seed), _start(clock), seed, documents)

    sections = _sections(scene, scene_file, world, world_doc)
    # People outside Slack are addresses of the world from the start: a mailbox each, `$dana` in the seed.
    mailing = tuple(outside(scene.people, ctx.at(scene_file, ("people",))))
    ctx.addresses = partial(addresses, ctx.collections, mailing)  # not a closure over ctx: no cycle to leave behind
    unnamed, built = _records(sections, ctx)
    built += _derived(scene_file, ctx) if not unnamed else []
    built += _generated(sections, ctx)
    errors = earlier.errors + unnamed + built
    if unnamed or any(path[0] == "seed" for path in earlier.left_out):
        # Records left out before their refs were defined: everything below resolves names against those refs,
        # and would only add false alarms. (A record left out in `build` has its ref: what names it is left
        # out quietly, BuildContext.attempt.)
        raise SpecErrors(_sorted(errors, scene_file))
    agent, unresolved_agent = _agent(scene, ctx.at(scene_file, ("agent",)))
    cast, unresolved_people = build_people(scene.people, ctx.at(scene_file, ("people",)))
    faults, unresolved_faults = build_faults(scene.faults, ctx.at(scene_file, ("faults",)))
    rules, unresolved_api_faults = api_faults.build_api_faults(scene.api_faults, ctx.at(scene_file, ("api_faults",)))
    # A person or fault that names a record left out is left out too: what it declares is not looked for.
    left_out = earlier.left_out + [
        (part, 0, key)
        for part, key, found in (("people", "slack_user", unresolved_people), ("faults", "id", unresolved_faults))
        if any(isinstance(error, LeftOut) for error in found)
    ]
    parsed, unparsed = _checks(scene, ctx.at(scene_file, ()), cast, faults, left_out)
    errors += unresolved_agent + unresolved_people + unresolved_faults + unresolved_api_faults + unparsed

    if errors:
        raise SpecErrors(_sorted(errors, scene_file))
    return WorldImage(
        scene=scene,
        source=scene_file,
        world_name=world.name if world else None,
        collections=ctx.collections,
        ids=ctx.ids,
        clock=clock,
        start=ctx.start,
        refs=dict(ctx.refs),
        settings={**ctx.settings, "rate_limits": dict(scene.rate_limits or {})},
        checks=parsed.checks,
        written_checks=parsed.expanded,
        agent=agent,
        cast=cast,
        faults=faults,
        api_faults=rules,
        files=[f for f in documents if not f.startswith("<")] + parsed.files,
    )


def _local(file: str) -> Path | None:
    """A file's path, None for text given inline (`<scene_yaml>`)."""
    return Path(file) if file and not file.startswith("<") else None


def _world(scene: Scene, scene_doc: Document) -> tuple[WorldDefinition | None, Document | None]:
    """The world definition the scene names, and its document, if it names one."""
    if not scene.world:
        return None, None
    try:
        world_path = find_world(scene.world, _local(scene_doc.file))
    except NotFound as exc:  # report it where the scene names the world
        raise SpecError(str(exc), file=scene_doc.file, line=scene_doc.lines.get(("world",)), field="world") from exc
    world, world_doc = read_world(world_path)
    # Validated, the data lives on in `world`; the document is kept only to find the lines of errors, and
    # the parsed data of a big world (its dicts and lists) would be held meanwhile for nothing.
    world_doc.data = {}
    return world, world_doc


def _clock(scene: Scene, world: WorldDefinition | None) -> ClockSpec:
    """The scene's clock, else its world's, else one starting at `DEFAULT_START`."""
    return scene.clock or (world.clock if world else None) or ClockSpec(start=DEFAULT_START)


def _start(clock: ClockSpec) -> int:
    """When the clock starts, in epoch µs: `now` is this second's start."""
    return wall_us() // 1_000_000 * 1_000_000 if clock.start == "now" else parse_time(clock.start)


Section = tuple[str, tuple[str | int, ...], Any]  # (file, path in it, the holder of service sections)


def _sections(
    scene: Scene, scene_file: str, world: WorldDefinition | None, world_doc: Document | None
) -> list[Section]:
    """What holds service sections, world definition first: its records come first and the scene's may name them."""
    sections: list[Section] = []
    if world is not None and world_doc is not None:
        sections.append((world_doc.file, (), world))
    if scene.seed is not None:
        sections.append((scene_file, ("seed",), scene.seed))
    return sections


def _records(sections: list[Section], ctx: BuildContext) -> tuple[list[SpecError], list[SpecError]]:
    """Gives every section's records their ids, then builds them, so that a `$ref` resolves across services:
    the problems of each pass, every record's (a record with a problem is left out, and the others built). A
    section with a problem in the first pass is not built."""
    found: dict[str, list[SpecError]] = {"assign": [], "build": []}
    failed: set[tuple[str, str]] = set()  # (file, service) whose section could not be given its ids
    for step, errors in found.items():
        for file, here, holder in sections:
            for name, service in SERVICES.items():
                section = getattr(holder, name, None)
                if section is None or (file, name) in failed:
                    continue
                before = len(errors)
                try:
                    getattr(service, step)(section, ctx.at(file, here + (name,)))
                except SpecError as exc:
                    errors += _listed(exc)
                errors += ctx.taken()
                if len(errors) > before:
                    failed.add((file, name))
    return found["assign"], found["build"]


def addresses(collections: dict[str, Collection], outside: tuple[Address, ...] = ()) -> list[Address]:
    """The world's people by email address (case aside), as every service's records name them
    (`Service.addresses`), then the scene's people outside Slack (`outside`), in the order first named: the first
    name and time zone given, every record's id."""
    found: dict[str, Address] = {}
    named = (getattr(service, "addresses", None) for service in SERVICES.values())
    for address in [*(a for of in named if of is not None for a in of(collections)), *outside]:
        key = address.email.lower()
        seen = found.get(key)
        found[key] = (
            address
            if seen is None
            else Address(seen.email, seen.name, seen.time_zone or address.time_zone, seen.ids + address.ids)
        )
    return list(found.values())


def _derived(file: str, ctx: BuildContext) -> list[SpecError]:
    """Runs each service's `derive`, once the sections' records are all built."""
    errors: list[SpecError] = []
    for name, service in SERVICES.items():
        derive = getattr(service, "derive", None)
        if derive is None:
            continue
        try:
            derive(ctx.at(file, (name,)))
        except SpecError as exc:
            errors += _listed(exc)
        errors += ctx.taken()
    return errors


def _generated(sections: list[Section], ctx: BuildContext) -> list[SpecError]:
    """Runs each section's `generate:`, by the service its key names."""
    errors: list[SpecError] = []
    for file, here, holder in sections:
        for key, options in (holder.generate or {}).items():
            service_name, collection = key.split(".", 1)
            try:
                SERVICES[service_name].generate(collection, options, ctx.at(file, here + ("generate", key)))
            except SpecError as exc:
                errors.append(exc)
    return errors


def _agent(scene: Scene, ctx: BuildContext) -> tuple[dict[str, Any], list[SpecError]]:
    """What the scene's `agent:` says (its defaults without one), its identity in each service resolved."""
    options = scene.agent or AgentSpec()
    agent: dict[str, Any] = {
        "pass_env": list(options.pass_env),
        "may_advance_clock": options.may_advance_clock,
        "network": options.network,
        "allow": list(options.allow),
    }
    errors: list[SpecError] = []
    for service in SERVICES.values():
        value = getattr(options, service.agent_user, None)
        if value is not None:
            try:
                agent[service.agent_user] = ctx.resolve(value, service.agent_user)
            except SpecError as exc:
                errors.append(exc)
    return agent, errors


def _checks(
    scene: Scene, ctx: BuildContext, cast: Cast, faults: list[ResolvedFault], left_out: list[PathKey]
) -> tuple[Parsed, list[SpecError]]:
    """The scene's checks parsed (library entries expanded) and its pass list checked, and what is wrong with
    them: their own problems, then every name they use that the scene does not resolve (but those of people
    or faults left out)."""
    parsed = parse_with_library(scene.checks, ctx.refs, scene_file=_local(ctx.file))
    errors = parsed.library_errors + [_located(ctx, e) for e in parsed.errors]
    try:
        written = [str(c["id"]) for c in parsed.expanded if isinstance(c, dict) and isinstance(c.get("id"), str)]
        if all(path[0] != "checks" for path in left_out):
            check_pass_list(scene.pass_, parsed.checks, written)
    except CheckSpecErrors as exc:
        errors += [_located(ctx, e) for e in exc.errors]
    errors += unresolved(ctx, parsed.checks, cast, scene, faults, left_out)
    return parsed, errors


def _sorted(errors: list[SpecError], scene_file: str) -> list[SpecError]:
    """The scene's first, each file's by line; none of a part that names a record left out (its own problem is
    reported)."""
    kept = [error for error in errors if not isinstance(error, LeftOut)]
    return sorted(kept, key=lambda error: (error.file != scene_file, error.line or 0))


def _listed(exc: SpecError) -> list[SpecError]:
    return list(getattr(exc, "errors", None) or [exc])


def _located(ctx: BuildContext, error: CheckSpecError) -> SpecError:
    """A check list's problem, at its file, line and field (`checks[2].trace.times`)."""
    return ctx.error(error.message, error.root, *error.path)


class ImageCache:
    """Images by scene text, or by scene file while neither it nor its world definition has changed; the
    `size` used last, so a server sent endless distinct inline scenes keeps a bounded number. Runs in threads
    may share one: an image is never changed, only copied."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._images: OrderedDict[Any, tuple[WorldImage, list[tuple[Path, tuple[int, int]]]]] = OrderedDict()
        self._lock = threading.Lock()  # held for lookups only, never while an image is built

    def load(self, scene: str | None = None, scene_yaml: str | None = None, named: bool = False) -> WorldImage:
        """The image of `scene` (a path or a name; only a name when `named`) or of the text `scene_yaml`."""
        if scene_yaml is not None:
            # surrogatepass: text with a lone surrogate still has a key, and the loader says where it is
            key: Any = hashlib.sha256(scene_yaml.encode("utf-8", "surrogatepass")).hexdigest()
            cached = self._cached(key)
            if cached is not None:
                return cached
            image = scene_image(load_yaml(scene_yaml, "<scene_yaml>"))
        else:
            if not scene:
                raise SpecError("give a scene name or path, or the scene's YAML text")
            path = find_named_scene(scene) if named else find_scene(scene)
            key = path.resolve()
            cached = self._cached(key)
            if cached is not None:
                return cached
            image = scene_image(read_document(path))  # errors name the path as the user gave it
        image.yaml = scene_yaml
        image.digest = source_digest(scene_yaml, image.files)
        if image.clock.start != "now":
            # A Python check's module too: a changed module is imported again (checks/python.py).
            files = [(f, _stamp(f)) for f in [*map(Path, image.files), *sources(image.checks)]]
            with self._lock:
                self._images[key] = (image, files)
                while len(self._images) > self.size:
                    self._images.popitem(last=False)
        return image

    def _cached(self, key: Any) -> WorldImage | None:
        """The image kept under `key` while none of the files it was built from has changed since."""
        with self._lock:
            cached = self._images.get(key)
            if cached is None or any(_stamp(f) != stamp for f, stamp in cached[1]):
                return None
            self._images.move_to_end(key)
            return cached[0]


def source_digest(text: str | None, files: list[str]) -> str:
    """sha256 of a scene's text (when given as text) and of the contents of the files it was built from, in
    order: two images of the same digest were built from the same words."""
    digest = hashlib.sha256()
    for part in ([text.encode("utf-8", "surrogatepass")] if text is not None else []) + [
        Path(f).read_bytes() for f in files
    ]:
        digest.update(b"%d:" % len(part) + part)
    return digest.hexdigest()


def _stamp(path: Path) -> tuple[int, int]:
    """When the file was last written, and its size: a file rewritten within the clock's resolution mostly
    changes size too."""
    try:
        found = path.stat()
    except OSError:
        return (-1, -1)
    return (found.st_mtime_ns, found.st_size)
