"""Who a message calls on: mentions, and names where a colleague takes them as said to them."""

from __future__ import annotations

import pytest

from soundstage.people.names import Names

USERS = [
    {"id": "UOMAR", "name": "omar", "profile": {"first_name": "Omar", "real_name": "Omar Haddad", "display_name": ""}},
    {
        "id": "UMAYA",
        "name": "maya.chen",
        "profile": {"first_name": "Maya", "real_name": "Maya Chen", "display_name": "mc"},
    },
]
NAMES = Names.of(USERS)


@pytest.mark.parametrize(
    ("text", "called"),
    [
        ("Omar, why is checkout failing?", {"UOMAR"}),
        ("omar: quick one", {"UOMAR"}),
        ("Omar?", {"UOMAR"}),
        ("OMAR HADDAD - are you there", {"UOMAR"}),
        ("hey omar why is it down", {"UOMAR"}),
        ("Thanks for that. Maya, one more thing", {"UMAYA"}),
        ("thanks, Omar!", {"UOMAR"}),
        ("any idea, Omar?", {"UOMAR"}),
        ("Any idea what's going on with checkout Omar?", {"UOMAR"}),
        ("cc @maya.chen", {"UMAYA"}),
        ("mc, ping", {"UMAYA"}),  # a display name
        ("<@UOTHER> see above", {"UOTHER"}),  # a mention, whoever it names
        ("did you ask Omar?", set()),  # the name is what is asked about
        ("Omar said it is fixed", set()),
        ("Omar's fix landed?", set()),
        ("We talked to Maya, Omar and Priya.", set()),
        ("Hi Omar and Maya,\n\nwhere are we?", {"UOMAR", "UMAYA"}),  # several greeted at once
        ("Omar, Maya Chen: which one?", {"UOMAR", "UMAYA"}),
        ("hello @omar & mc, any news", {"UOMAR", "UMAYA"}),
        ("Hi Omar and Priya,", {"UOMAR"}),  # a name no user has calls on nobody
        ("Omar and Maya fixed it.", set()),  # names that are what the sentence is about
    ],
)
def test_who_a_message_calls_on(text, called):
    assert NAMES.addressees(text) == called


def test_a_name_two_users_share_calls_on_both():
    names = Names.of(
        [*USERS, {"id": "UOMAR2", "name": "omar.b", "profile": {"first_name": "Omar", "real_name": "Omar B"}}]
    )
    assert names.addressees("Omar, got a minute?") == {"UOMAR", "UOMAR2"}
    assert Names.of([]).addressees("Omar, hi") == frozenset()
