"""The context services build a world image in: ids, refs, the clock start, seeded fake data, errors.

Building runs in two passes over every service section (world definition first, then the scene's
`seed`): `assign` gives each record with a `ref` its id, so that `build` can resolve `$name` anywhere,
across services too.
"""

from __future__ import annotations

import random
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


class BuildContext:
    def __init__(self, ids: IdSource, start: int, seed: str, documents: dict[str, Document] | None = None) -> None:
        self.ids = ids
        self.start = start  # clock start, epoch microseconds
        self.refs: dict[str, str] = {}  # ref name -> id
        self.ref_kinds: dict[str, str] = {}  # ref name -> collection of the record it names
        self.collections: dict[str, Collection] = {}
        self.settings: dict[str, Any] = {}  # per-service facts other parts need (e.g. slack team id)
        self.scratch: dict[str, Any] = {}  # what a service keeps while it builds only, never in the image
        self.file = ""  # the file being built from, for errors
        self.here: Path = ()  # path of the section being built within that file
        self._documents = documents or {}  # by file: where errors find their lines
        self._seed = seed
        self.random = random.Random(seed)

    @cached_property
    def faker(self) -> Faker:
        """Realistic fake values for `generate:`, seeded with the build's seed. Made when first used: importing
        Faker and making one is a large part of a build that generates nothing."""
        from faker import Faker

        faker = Faker(providers=list(FAKER_PROVIDERS))
        faker.seed_instance(self._seed)
        return faker

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
            return resolve_refs(value, self.refs)
        except RefError as exc:
            raise self.error(exc.message, *path, *exc.path) from None

    def resolve_kind(self, value: Any, kind: str, *path: str | int) -> str:
        """Resolves a `$name` that must name a record of collection `kind`; a plain id passes through."""
        resolved = self.resolve(value, *path)
        name = ref_name(value)
        if name is not None:
            actual = self.ref_kinds[name]
            if actual != kind:
                raise self.error(f"{value} names a record of {actual}, expected one of {kind}", *path)
        return resolved
