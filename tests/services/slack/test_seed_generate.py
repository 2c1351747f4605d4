"""`generate: {slack.messages: ...}`: seeded noise messages, their stamps, threads and shared parts."""

from __future__ import annotations

import pytest

from soundstage.services.slack import messages as slack_messages
from soundstage.services.slack import store
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene

from .conftest import START
from .test_seed import USERS, build, failure

GENERATE = """
channels: [{ref: c, name: c, members: [$bot, $maya, $laura]}]
"""


def test_generate_messages():
    extra = "  generate:\n    slack.messages: {channel: $c, count: 40, threads: 0.3, reactions: 0.5}\n"
    image = build(USERS + GENERATE, extra)
    again = build(USERS + GENERATE, extra)
    messages = list(image.collections[store.MESSAGES])
    assert len(messages) == 40
    assert messages == list(again.collections[store.MESSAGES])  # seeded: the same every time
    refs = image.refs
    assert {m["user"] for m in messages} <= {refs["maya"], refs["laura"]}  # members, not the bot
    assert all(m["channel"] == refs["c"] and m["text"] for m in messages)
    stamps = [m["ts"] for m in messages]
    assert stamps == sorted(stamps) and int(stamps[0].split(".")[0]) >= START - 7 * 86400
    assert int(stamps[-1].split(".")[0]) < START
    replies = [m for m in messages if m.get("parent_user_id")]
    assert replies and any(m.get("reactions") for m in messages)
    by_ts = {m["ts"]: m for m in messages}
    for parent_ts in {reply["thread_ts"] for reply in replies}:  # each thread summed up in its first message
        thread = [r for r in replies if r["thread_ts"] == parent_ts]
        assert by_ts[parent_ts] == {**by_ts[parent_ts], **slack_messages.thread_summary(parent_ts, thread)}


def test_generated_messages_do_not_depend_on_the_machines_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Faker draws dates and times up to the machine's clock: none of those may reach a world."""
    import datetime as real

    import faker.providers.date_time as dates

    extra = "  generate:\n    slack.messages: {channel: $c, count: 200}\n"
    texts = []
    for year in (2001, 2040):

        class Frozen(real.datetime):
            YEAR = year  # this turn's year, bound when the class is made (not when `now` is called)

            @classmethod
            def now(cls, tz=None):  # type: ignore[no-untyped-def]
                return real.datetime(cls.YEAR, 6, 1, 12, 0, tzinfo=tz)

        monkeypatch.setattr(dates, "datetime", Frozen)
        texts.append([m["text"] for m in build(USERS + GENERATE, extra).collections[store.MESSAGES]])
    assert texts[0] == texts[1]
    assert any("retro at" in text for text in texts[0])  # the template that shows a time is among them


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ("{channel: $c, count: 0}", "greater than or equal to 1"),
        ("{channel: $c, colour: red}", "Extra inputs are not permitted"),
        ("{channel: $maya}", "names a record of slack.users"),
        ("{channel: $c, users: [$c]}", "names a record of slack.channels"),
        ("{channel: $c, span: soon}", "not a duration"),
    ],
)
def test_generate_errors(options, problem):
    assert problem in failure(USERS + GENERATE, f"  generate:\n    slack.messages: {options}\n").message


def test_generate_only_messages():
    error = failure(USERS + GENERATE, "  generate:\n    slack.users: {count: 3}\n")
    assert "only slack.messages can" in error.message


def test_generated_stamps_go_on_from_the_files_and_an_earlier_generate(tmp_path) -> None:
    """A span of 60 s puts every generated message in the same second, 60 s before the start, where the file
    gives a message `ts` .000250: the world's five messages take the counts after it, the scene's four the
    counts after those."""
    second = START - 60
    (tmp_path / "worlds").mkdir()
    (tmp_path / "worlds" / "w.yaml").write_text(
        f"""name: w
clock: {{start: "2026-03-02T14:00:00Z"}}
slack:
  users: [{{ref: maya, name: maya}}, {{ref: laura, name: laura}}]
  channels: [{{ref: c, name: c, members: [$maya, $laura]}}]
  messages: [{{channel: $c, user: $maya, text: given, ts: "{second}.000250"}}]
generate:
  slack.messages: {{channel: $c, count: 5, span: 60s, threads: 0}}
"""
    )
    (tmp_path / "seeds").mkdir()
    scene = tmp_path / "seeds" / "s.yaml"
    scene.write_text(
        "name: s\nworld: w\ntask: t\nseed:\n  generate:\n    slack.messages: {channel: $c, count: 4, span: 60s}\n"
    )
    image = build_image(*read_scene(scene))
    stamps = image.collections[store.MESSAGES].ids()
    assert stamps == [f"{second}.{fraction:06d}" for fraction in [250, *range(400, 1300, 100)]]


def test_equal_generated_parts_are_one_object() -> None:
    """A generated text said again is the earlier message's string and rich_text section, equal reactions are one
    list; each message keeps a block of its own (its `block_id`)."""
    extra = "  generate:\n    slack.messages: {channel: $c, count: 300, reactions: 0.8}\n"
    messages = list(build(USERS + GENERATE, extra).collections[store.MESSAGES])
    first: dict[str, dict] = {}
    said_again = 0
    for message in messages:
        earlier = first.setdefault(message["text"], message)
        if earlier is not message:
            said_again += 1
            assert message["text"] is earlier["text"]
            assert message["blocks"][0]["elements"] is earlier["blocks"][0]["elements"]
            assert message["blocks"][0] is not earlier["blocks"][0]
    assert said_again > 50
    reacted: dict[str, list] = {}
    for message in messages:
        if "reactions" in message:
            assert reacted.setdefault(repr(message["reactions"]), message["reactions"]) is message["reactions"]
    assert len(reacted) < sum("reactions" in m for m in messages)
