"""Request bodies as Datadog reads them, declared as models: `Body` (JSON types taken strictly, fields it does
not know ignored), the values its bodies share (`Int64`, `Number`), and `read`, which answers the first field
that fails, in the order the model declares them, as the handler words it (`Says`, or the field's name).

A model says what a body holds. What needs the world or the record a call changes (a monitor that must exist,
an end after the start a downtime has) stays in the handler, checked where the handler's answers put it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from ..base import INT64_MAX, INT64_MIN
from .calls import fits_int64

Place = tuple[str | int, ...]  # where in a body a problem is: `("points", 0, "value")`, `()` for the body itself
M = TypeVar("M", bound="Body")


class Body(BaseModel):
    """A JSON object of a request; `whole` is what Datadog says of a value that is no object at all."""

    model_config = ConfigDict(strict=True, extra="ignore", defer_build=True)
    whole: ClassVar[str] = "expected an object"

    @classmethod
    def words(cls, place: Place) -> str:
        """What Datadog says of the problem at `place`: what its field `Says`."""
        if not place:
            return cls.whole
        says = next(m for m in _field(cls, place[0]).metadata if isinstance(m, Says))
        return says.each if len(place) > 1 and says.each else says.words


@dataclass(frozen=True)
class Says:
    """How Datadog words a field that fails: `words`, or `each` when one of its elements does."""

    words: str
    each: str = ""


def _field(model: type[Body], key: str | int) -> Any:
    """The field a body's key fills (its alias, where it has one)."""
    return next(f for name, f in model.model_fields.items() if key in (name, f.alias))


def read(model: type[M], value: Any, refuse: Callable[[Place], Exception]) -> M:
    """`value` as `model`, or `refuse(place)` raised for its first problem."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise refuse(exc.errors(include_url=False)[0]["loc"]) from None


def holds(test: Callable[[Any], bool]) -> AfterValidator:
    """A value that `test` passes."""

    def check(value: Any) -> Any:
        if not test(value):
            raise ValueError(test.__name__)  # never shown: `read` answers in Datadog's words
        return value

    return AfterValidator(check)


def empty_as(default: Any) -> BeforeValidator:
    """A field Datadog reads as `default` when it is null or empty (0, "", false, [])."""
    return BeforeValidator(lambda value: value or default)


Int64 = Annotated[int, Field(ge=INT64_MIN, le=INT64_MAX)]  # a JSON integer Datadog stores: never a boolean
Number = Annotated[int | float, holds(fits_int64)]  # a JSON number it stores: an integer of int64, or a float
