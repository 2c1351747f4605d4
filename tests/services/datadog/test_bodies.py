"""Request bodies declared as models (services/datadog/bodies.py): the first field that fails, in the order the
model declares them, answered in the words it says."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import Field

from soundstage.services.datadog.bodies import Body, Int64, Number, Place, Says, empty_as, holds, read
from soundstage.services.datadog.errors import DatadogError, bad_request


class _Item(Body):
    name: Annotated[str, holds(str.isidentifier), Says("expected a name")]
    size: Annotated[Int64 | None, Says("expected an integer")] = None
    values: Annotated[list[Number], Field(min_length=1), Says("expected a non-empty array", each="expected numbers")]
    interval: Annotated[int, empty_as(60), Says("expected seconds")] = 60


def _refused(place: Place) -> Exception:
    return bad_request(f"{place[:1]} {_Item.words(place)}")  # the field, whatever element of it failed


def _answer(value: Any) -> str:
    with pytest.raises(DatadogError) as caught:
        read(_Item, value, _refused)
    assert caught.value.status == 400
    return caught.value.messages[0]


def test_a_body_is_read_strictly_and_what_it_does_not_know_is_left_out() -> None:
    item = read(_Item, {"name": "cpu", "values": [1, 2.5], "interval": 0, "other": True}, _refused)
    assert item.model_dump() == {"name": "cpu", "size": None, "values": [1, 2.5], "interval": 60}


@pytest.mark.parametrize(
    ("value", "answer"),
    [
        ([], "() expected an object"),
        ({"values": [1]}, "('name',) expected a name"),
        ({"name": "1cpu", "size": "2", "values": []}, "('name',) expected a name"),
        ({"name": "cpu", "size": True, "values": []}, "('size',) expected an integer"),
        ({"name": "cpu", "size": 2**63, "values": [1]}, "('size',) expected an integer"),
        ({"name": "cpu", "values": []}, "('values',) expected a non-empty array"),
        ({"name": "cpu", "values": [1, False]}, "('values',) expected numbers"),
        ({"name": "cpu", "values": [-(2**63) - 1]}, "('values',) expected numbers"),
        ({"name": "cpu", "values": [1], "interval": True}, "('interval',) expected seconds"),
    ],
)
def test_the_first_field_that_fails_is_answered_in_its_words(value: Any, answer: str) -> None:
    assert _answer(value) == answer
