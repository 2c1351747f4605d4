"""The toy vendor's request conventions: `ops`, and the `Call` a handler gets."""

from __future__ import annotations

from dataclasses import dataclass

from soundstage.services.base import Operations
from soundstage.services.rest import RestCall
from soundstage.world import Principal

from .errors import ToyError

ops = Operations("toy")


@dataclass
class Call(RestCall):
    principal: Principal

    def not_an_object(self) -> ToyError:
        return ToyError(400, "the body is not an object")
