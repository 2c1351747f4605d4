"""A second toy service of the same vendor (`toybox`): its tokens are the toy account's (`account`), it answers
the paths of the toy host under `/boxes` (a host split by path prefix), and it makes a box for every person
of the world with an address (`derive`), from any service's records (`addresses`)."""

from __future__ import annotations

from typing import Any

from soundstage.services.base import Operations
from soundstage.world import World

from . import seed
from .calls import Call
from .models import BoxSection
from .service import ToyService
from .store import BOXES

ops = Operations("toybox")


@ops("GET /boxes")
def list_boxes(call: Call) -> Any:
    return {"boxes": list(call.world[BOXES])}


class BoxService(ToyService):
    name = "toybox"
    title = "Toy Box"
    section = BoxSection
    agent_user = "toy_user"
    account = "toy"
    hosts = ("api.toy.test/boxes",)
    ops = ops

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        return {"TOY_BOX_URL": base_url}

    def assign(self, section: Any, ctx: Any) -> None:
        ctx.parsed(BoxSection, section)

    def build(self, section: Any, ctx: Any) -> None:
        ctx.parsed(BoxSection, section)

    def derive(self, ctx: Any) -> None:
        seed.derive(ctx)


box = BoxService()
