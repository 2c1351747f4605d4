"""A bot's fields on its messages, made once per author record."""

from __future__ import annotations

from soundstage.services.slack.messages import _bot_fields, bot_fields
from soundstage.services.slack.store import USERS

from .conftest import SCENE


def test_a_bots_fields_are_made_once_per_record_and_read_as_made_afresh(stage):
    world = stage.world(SCENE).world
    bot = world[USERS].get(world.agent["slack_user"])
    person = next(u for u in world[USERS] if "bot_id" not in u["profile"])
    for author in (bot, person):
        assert bot_fields(author, "T1") == _bot_fields(author, "T1")
        assert bot_fields(author, "T1") is bot_fields(author, "T1")  # one bot_profile for all its messages
    assert bot_fields(bot, "T2") == _bot_fields(bot, "T2") != _bot_fields(bot, "T1")  # the team is in it
    renamed = world[USERS].change(bot["id"], name="stagebot-2")  # a new record: its fields are made again
    assert bot_fields(renamed, "T1")["bot_profile"]["name"] == "stagebot-2"
    assert bot_fields(bot, "T1")["bot_profile"]["name"] == bot["name"]
