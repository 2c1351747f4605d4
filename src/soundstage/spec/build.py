"""The context services build a world image in: ids, refs, the clock start, seeded fake data, errors.

Building runs in two passes over every service section (world definition first, then the scene's
`seed`): `assign` gives each record with a `ref` its id, so that `build` can resolve `$name` anywhere,
across services too.

A service builds each record of its section with `attempt`: a record with a problem is left out, its problem
kept (`errors`), and the next record is built, so that one run reports every problem of a section. A record
that names one left out is left out too, without a problem of its own (`LeftOut`): the problem is the other's.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import SpecError
from ..ids import IdSource
from ..world import Collection
from .loader import Document, dotted
from .refs import RefError, ref_name, resolve_refs

if TYPE_CHECKING:  # Faker loads when a world generates data (`generate:`), not with every build
    from faker import Faker

    from .fake import Fake

Path = tuple[str | int, ...]
# Faker's providers of every value the services' `generate:` draw (names, companies, words, user names, IP
# addresses). A Faker of all its providers draws the same values from the same seed, but loading all of them
# took longer than the messages of a world's `generate:` (tests/spec/test_build.py compares the two).
FAKER_PROVIDERS = (
    "faker.providers.person",
    "faker.providers.company",
    "faker.providers.lorem",
    "faker.providers.internet",
)
M = TypeVar("M", bound=BaseModel)
# One Faker a thread, seeded again for each build: a Faker's parts reference each other, so one made and dropped
# by each build would be garbage only a full collection frees, and a server runs none (collector.py).
_FAKERS = threading.local()


class LeftOut(SpecError):
    """A record names a record left out for its own problem: it is left out too, and its problem is not
    reported (it would only repeat the other's)."""


class BuildContext:
    def __init__(self, ids: IdSource, start: int, seed: str, documents: dict[str, Document] | None = None) -> None:
        self.ids = ids
        self.start = start  # clock start, epoch microseconds
        self.refs: dict[str, str] = {}  # ref name -> id
        self.ref_kinds: dict[str, str] = {}  # ref name -> collection of the record it names
        self.collections: dict[str, Collection] = {}
        self.settings: dict[str, Any] = {}  # per-service facts other parts need (e.g. slack team id)
        self.scratch: dict[str, Any] = {}  # what a service keeps while it builds only, never in the image
        # The world's people by email address, as the records built so far name them (`Service.addresses`,
        # merged by stage.image, which sets this).
        self.addresses: Callable[[], Sequence[Any]] = tuple
        self.file = ""  # the file being built from, for errors
        self.here: Path = ()  # path of the section being built within that file
        self._documents = documents or {}  # by file: where errors find their lines
        self._seed = seed
        self.random = random.Random(seed)
        self.errors: list[SpecError] = []  # the problems of the records `attempt` left out, not yet taken
        self.failed: set[str] = set()  # the ids (what their refs stand for) of the records left out

    @cached_property
    def faker(self) -> Faker:
        """Realistic fake values for `generate:`, seeded with the build's seed. Made when first used: importing
        Faker and making one is a large part of a build that generates nothing."""
        faker: Faker | None = getattr(_FAKERS, "faker", None)
        if faker is None:
            from faker import Faker

            faker = _FAKERS.faker = Faker(providers=list(FAKER_PROVIDERS))
        faker.seed_instance(self._seed)  # a new random state: what it draws depends on this seed alone
        return faker

    @cached_property
    def fake(self) -> Fake:
        """Faker's own values for the texts `generate:` makes by the thousand, drawn from `faker`'s random source
        without the cost of its calls."""
        from .fake import Fake

        return Fake(self.faker)

    def at(self, file: str, here: Path) -> BuildContext:
        """Points errors at `here` (e.g. `("seed", "slack")`) in `file`."""
        self.file, self.here = file, here
        return self

    def collection(self, name: str) -> Collection:
        collection = self.collections.get(name)
        if collection is None:
            collection = self.collections[name] = Collection(name)
        return collection

    def line(self, *path: str | int) -> int | None:
        document = self._documents.get(self.file)
        return document.line(self.here + path) if document is not None else None

    def error(self, message: str, *path: str | int) -> SpecError:
        return SpecError(message, file=self.file, line=self.line(*path), field=dotted(self.here + path))

    def parsed(self, model: type[M], value: Any) -> M:
        """A part of a file as its model (a service section, `generate:` options): given already parsed, or
        validated here, the first problem named at its field."""
        if isinstance(value, model):
            return value
        try:
            return model.model_validate(value)
        except ValidationError as exc:
            problem = exc.errors()[0]
            raise self.error(problem["msg"], *problem["loc"]) from None

    def attempt(self, build: Callable[[], object], record_id: str | None = None, ref: str | None = None) -> bool:
        """Builds one record (`build()`), True when it was built. A record with a problem is left out: its
        problem kept in `errors`, its id (`record_id`, or a stand-in for a `ref` its build would have defined)
        in `failed`, so that what names it is left out too, quietly. A record whose id is left out already is
        not built."""
        if record_id is not None and record_id in self.failed:
            return False
        try:
            build()
        except LeftOut:
            pass
        except SpecError as exc:
            self.errors += getattr(exc, "errors", None) or [exc]
        else:
            return True
        if record_id is not None:
            self.failed.add(record_id)
        if ref and ref not in self.refs:
            self.refs[ref] = f"(left out: ${ref})"
            self.ref_kinds[ref] = "a record left out"
            self.failed.add(self.refs[ref])
        return False

    def taken(self) -> list[SpecError]:
        """The problems `attempt` kept since last taken."""
        errors, self.errors = self.errors, []
        return errors

    def built(self, value: Any) -> None:
        """Leaves out (raises LeftOut) what names `value`, an id of a record left out."""
        if self.failed and isinstance(value, str) and value in self.failed:
            raise LeftOut(f"{value} was left out", file=self.file)

    def define(self, ref: str | None, value: str, kind: str, *path: str | int) -> None:
        """Names a record: `$ref` now means `value` (its id). Refs are unique across the whole world."""
        if not ref:
            return
        if ref in self.refs:
            raise self.error(f"ref {ref!r} is defined twice (first for {self.ref_kinds[ref]})", *path, "ref")
        self.refs[ref] = value
        self.ref_kinds[ref] = kind

    def resolve(self, value: Any, *path: str | int) -> Any:
        """Replaces every `$name` string inside `value` with that record's id; unknown names are errors."""
        try:
            resolved = resolve_refs(value, self.refs)
        except RefError as exc:
            raise self.error(exc.message, *path, *exc.path) from None
        self.built(resolved)
        return resolved

    def resolve_kind(self, value: Any, kind: str, *path: str | int) -> str:
        """Resolves a `$name` that must name a record of collection `kind`; a plain id passes through."""
        resolved = self.resolve(value, *path)
        name = ref_name(value)
        if name is not None:
            actual = self.ref_kinds[name]
            if actual != kind:
                raise self.error(f"{value} names a record of {actual}, expected one of {kind}", *path)
        return resolved
