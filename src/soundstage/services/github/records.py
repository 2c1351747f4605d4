"""The GitHub records of one world, live or being built: its collections and the id source new records
are numbered from. The state modules (`repos`, `commits`, `issues`, `pulls`, `deployments`, `ci`) read
and write through a `Records`, so the same code serves a live world and an image being seeded.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass, field

from ...ids import IdSource
from ...spec.build import BuildContext
from ...world import Collection, World, found_again_by_forks
from .git import Objects
from .store import BLOBS, COMMITS, TAG_OBJECTS, TREES

# Where each kind's numeric ids start (GitHub's ids are large and grow; these look like theirs).
_IDS = {
    "Issue": 3_100_000_000,
    "PullRequest": 2_800_000_000,
    "IssueComment": 3_900_000_000,
    "PullRequestReview": 2_700_000_000,
    "PullRequestReviewComment": 1_900_000_000,
    "Deployment": 2_500_000_000,
    "DeploymentStatus": 5_900_000_000,
    "Release": 210_000_000,
    "Workflow": 160_000_000,
    "WorkflowRun": 13_000_000_000,
    "CheckRun": 38_000_000_000,
    "StatusContext": 33_000_000_000,
    "Reaction": 310_000_000,
    "Milestone": 14_000_000,
    "IssueType": 1_386_000,
}


def node_id(kind: str, number: int) -> str:
    """GitHub's legacy GraphQL id: base64 of `0<len>:<Kind><id>`."""
    return base64.b64encode(f"0{len(kind)}:{kind}{number}".encode()).decode()


@found_again_by_forks
class KnownObjects:
    """Where a world's git objects live, once looked up (a collection, once made, stays the same object): a world
    part, so that every call of a live world finds them. A fork looks up its own."""

    __slots__ = ("objects",)

    def __init__(self) -> None:
        self.objects: Objects | None = None


@dataclass(frozen=True)
class Records:
    """A world's collections by name (`world.__getitem__` or `ctx.collection`) and its id source."""

    collection: Callable[[str], Collection]
    ids: IdSource
    known: KnownObjects = field(default_factory=KnownObjects, repr=False, compare=False)

    @classmethod
    def live(cls, world: World) -> Records:
        return cls(world.__getitem__, world.ids, world.part(KnownObjects))

    @classmethod
    def image(cls, ctx: BuildContext) -> Records:
        return cls(ctx.collection, ctx.ids)

    def __getitem__(self, name: str) -> Collection:
        return self.collection(name)

    @property
    def objects(self) -> Objects:
        """The git objects: blobs, trees, commits and annotated tags."""
        known = self.known
        if known.objects is None:
            known.objects = Objects(self[BLOBS], self[TREES], self[COMMITS], self[TAG_OBJECTS])
        return known.objects

    def new_id(self, kind: str) -> tuple[int, str]:
        """The next numeric id of a kind of record (`Issue`, `CheckRun`...) and its node id."""
        number = _IDS[kind] + self.ids.next(f"github:{kind}")
        return number, node_id(kind, number)
