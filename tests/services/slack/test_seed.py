"""Building the `slack:` section into a world image: ids and times, refs, Slack's rules (`generate:` in
test_seed_generate.py)."""

from __future__ import annotations

import json
import textwrap

import pytest

from soundstage.errors import SpecError
from soundstage.services.slack import messages as slack_messages
from soundstage.services.slack import seed_messages, store
from soundstage.services.slack.timestamps import ts_us
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene, read_scene_text
from soundstage.world import Collection

from .conftest import START

HEAD = """
name: seed-test
task: test
clock: {start: "2026-03-02T14:00:00Z"}
seed:
  slack:
"""
USERS = """
users:
  - {ref: bot, name: bot, is_bot: true}
  - {ref: maya, name: maya, email: maya@acme.test}
  - {ref: laura, name: laura}
"""


def build(slack: str, extra: str = ""):
    text = HEAD + textwrap.indent(textwrap.dedent(slack).strip("\n"), "    ") + "\n" + extra
    return build_image(*read_scene_text(text))


def failure(slack: str, extra: str = "") -> SpecError:
    with pytest.raises(SpecError) as caught:
        build(slack, extra)
    return caught.value


def test_records_and_settings():
    image = build(USERS + "channels: [{ref: support, name: support, members: [$bot, $maya]}]")
    refs = image.refs
    assert image.settings["slack"] == {
        "team_id": image.collections[store.TEAMS].ids()[0],
        "domain": "soundstage",
        "name": "Soundstage",
        "plan": "free",
        "locale": "en-US",
        "custom_icon": False,
        "sso": None,
    }
    assert image.collections[store.USERS].ids() == ["USLACKBOT", refs["bot"], refs["maya"], refs["laura"]]
    channel = image.collections[store.CHANNELS].get(refs["support"])
    assert channel["members"] == [refs["bot"], refs["maya"]] and channel["creator"] == refs["bot"]


def test_message_times():
    image = build(
        USERS
        + """
channels: [{ref: c, name: c, members: [$maya, $laura]}]
messages:
  - {ref: a, channel: $c, user: $maya, text: first}
  - {ref: b, channel: $c, user: $laura, text: long ago, ago: 1d}
  - {ref: c2, channel: $c, user: $laura, text: second}
  - {ref: d, channel: $c, user: $maya, text: same second as b, ago: 1d}
"""
    )
    refs = image.refs
    assert (refs["a"], refs["c2"]) == (f"{START - 120}.000100", f"{START - 60}.000100")
    assert (refs["b"], refs["d"]) == (f"{START - 86400}.000100", f"{START - 86400}.000200")
    assert image.collections[store.MESSAGES].ids() == [refs["b"], refs["d"], refs["a"], refs["c2"]]


def test_threads_reactions_and_pins():
    image = build(
        USERS
        + """
channels: [{ref: c, name: c, members: [$maya, $laura, $bot]}]
messages:
  - {ref: root, channel: $c, user: $maya, text: root, pinned: true}
  - {ref: r1, channel: $c, user: $laura, text: r1, thread_ts: $root, reactions: {'+1': [$maya, $bot]}}
  - {ref: r2, channel: $c, user: $laura, text: r2, thread_ts: $root}
"""
    )
    refs = image.refs
    messages = image.collections[store.MESSAGES]
    root = messages.get(refs["root"])
    assert (root["reply_count"], root["reply_users"], root["latest_reply"], root["pinned_to"]) == (
        2,
        [refs["laura"]],
        refs["r2"],
        [refs["c"]],
    )
    assert messages.get(refs["r1"])["parent_user_id"] == refs["maya"]
    assert messages.get(refs["r1"])["reactions"] == [{"name": "+1", "users": [refs["maya"], refs["bot"]], "count": 2}]
    assert image.collections[store.PINS].get(f"{refs['c']}/{refs['root']}")["created_by"] == refs["maya"]


def test_a_message_to_a_user_is_a_dm():
    image = build(USERS + "messages: [{ref: m, channel: $bot, user: $maya, text: hi}]")
    message = image.collections[store.MESSAGES].get(image.refs["m"])
    dm = image.collections[store.CHANNELS].get(message["channel"])
    assert dm["is_im"] is True and dm["members"] == [image.refs["maya"], image.refs["bot"]]


def test_messages_of_former_members_and_given_ts():
    image = build(
        USERS
        + """
channels: [{ref: c, name: c, members: [$maya], former_members: [$laura]}]
messages:
  - {ref: old, channel: $c, user: $laura, text: "I was here", ts: "1772450000.123456"}
  - {ref: same, channel: $c, user: $maya, text: same second, ago: 10000s}
  - {ref: later, channel: $c, user: $maya, text: later}
"""
    )
    refs = image.refs
    assert (refs["old"], refs["same"]) == ("1772450000.123456", "1772450000.123600")
    messages = image.collections[store.MESSAGES]
    assert messages.ids() == [refs["old"], refs["same"], refs["later"]]
    assert messages.get(refs["old"])["user"] == refs["laura"]
    assert image.collections[store.CHANNELS].get(refs["c"])["members"] == [refs["maya"]]


def test_messages_given_out_of_order_are_kept_in_ts_order():
    image = build(
        USERS
        + """
channels: [{ref: c, name: c, members: [$maya]}]
messages:
  - {ref: third, channel: $c, user: $maya, text: c, ago: 1m}
  - {ref: first, channel: $c, user: $maya, text: a, ts: "1772450000.123456"}
  - {ref: fourth, channel: $c, user: $maya, text: d}
  - {ref: second, channel: $c, user: $maya, text: b, ago: 2h}
"""
    )
    messages = image.collections[store.MESSAGES]
    assert messages.ids() == sorted(messages.ids(), key=ts_us)
    assert messages.ids() == [image.refs[name] for name in ("first", "second", "third", "fourth")]


def test_a_live_world_goes_on_counting_the_ts_of_the_start_second():
    # The counters of earlier seconds stay with the build; the start's second (`ago: 0s`) is the live world's.
    image = build(
        USERS
        + """
channels: [{ref: c, name: c, members: [$maya]}]
messages:
  - {ref: early, channel: $c, user: $maya, text: a, ts: "1772450000.000100"}
  - {ref: now, channel: $c, user: $maya, text: b, ago: 0s}
  - {ref: before, channel: $c, user: $maya, text: c}
"""
    )
    start_second = START
    assert image.refs["now"] == f"{start_second}.000100"
    counters = image.ids.copy()._counters
    assert [name for name in counters if name.startswith("slack:ts:")] == [f"slack:ts:{start_second}"]
    world = image.instantiate("w")
    posted = slack_messages.post(world, image.refs["c"], image.refs["maya"], "hello")
    assert posted["ts"] == f"{start_second}.000200"


def test_dms_and_group_dms_with_their_ids():
    image = build(
        USERS
        + """
dms: [{ref: d, id: D0ABCDEF123, users: [$maya, $laura]}, {ref: self, users: [$bot], ago: 2d}]
group_dms: [{ref: g, id: G0ABCDEF123, users: [$maya, $laura, $bot]}]
messages:
  - {ref: in_dm, channel: $d, user: $laura, text: psst}
  - {ref: by_user, channel: $maya, user: $laura, text: same DM}
  - {ref: in_group, channel: $g, user: $bot, text: hello all}
"""
    )
    refs, conversations, messages = image.refs, image.collections[store.CHANNELS], image.collections[store.MESSAGES]
    dm = conversations.get("D0ABCDEF123")
    assert (refs["d"], dm["is_im"], dm["members"], dm["user"]) == (
        "D0ABCDEF123",
        True,
        [refs["maya"], refs["laura"]],
        refs["laura"],
    )
    assert conversations.get(refs["self"])["members"] == [refs["bot"]]
    assert conversations.get(refs["self"])["created"] == START - 2 * 86400
    group = conversations.get("G0ABCDEF123")
    assert (group["name"], group["is_mpim"], group["is_private"]) == ("mpdm-maya--laura--bot-1", True, True)
    assert [messages.get(refs[r])["channel"] for r in ("in_dm", "by_user", "in_group")] == [
        "D0ABCDEF123",
        "D0ABCDEF123",
        "G0ABCDEF123",
    ]


def test_a_user_without_a_time_zone_has_no_tz_fields():
    image = build("users: [{ref: u, name: u, tz: null}]")
    user = image.collections[store.USERS].get(image.refs["u"])
    assert not {"tz", "tz_label", "tz_offset"} & set(user)


def test_given_ids_are_kept():
    image = build("users: [{ref: u, id: U0ABCDEF123, name: u}]\nchannels: [{ref: c, id: C0ABCDEF123, name: c}]")
    assert (image.refs["u"], image.refs["c"]) == ("U0ABCDEF123", "C0ABCDEF123")


@pytest.mark.parametrize(
    ("slack", "message", "field"),
    [
        (USERS + "channels: [{name: c, members: [$bot, $nobody]}]", "unknown ref $nobody", "channels[0].members[1]"),
        (
            USERS + "channels: [{ref: c, name: c}, {name: d, members: [$c]}]",
            "$c names a record of slack.channels, expected one of slack.users",
            "channels[1].members[0]",
        ),
        (
            USERS + "channels: [{name: c, members: [U0NOTAUSER1]}]",
            "U0NOTAUSER1 is not a Slack user",
            "channels[0].members[0]",
        ),
        (USERS + "channels: [{name: Support}]", "invalid channel name 'Support'", "channels[0].name"),
        (USERS + "channels: [{name: c}, {name: c}]", "a channel is already named 'c'", "channels[1].name"),
        (
            USERS + "channels: [{name: c, previous_names: [d, Old]}]",
            "invalid previous name 'Old'",
            "channels[0].previous_names[1]",
        ),
        (
            USERS + "channels: [{name: c, previous_names: [c]}]",
            "invalid previous name 'c'",
            "channels[0].previous_names[0]",
        ),
        (USERS + "channels: [{name: c, members: [$bot, $bot]}]", "a member is listed twice", "channels[0].members"),
        (
            USERS + "channels: [{name: c, posting_restricted_to: {type: []}}]",
            "name who may: type [admin], users or both",
            "channels[0].posting_restricted_to",
        ),
        (
            USERS + "channels: [{name: c, threads_restricted_to: {user: [$maya, $nobody]}}]",
            "unknown ref $nobody",
            "channels[0].threads_restricted_to.user[1]",
        ),
        (
            USERS + "channels: [{name: c, posting_restricted_to: {user: [$maya, $maya]}}]",
            "a user is listed twice",
            "channels[0].posting_restricted_to.user",
        ),
        (
            USERS + "channels: [{name: c, posting_restricted_to: {type: [org_admin]}}]",
            "expected 'admin', found 'org_admin'",
            "channels[0].posting_restricted_to.type[0]",
        ),
        ("users: [{name: a}, {name: a}]", "a Slack user is already named 'a'", "users[1].name"),
        (
            "users: [{name: a, email: x@y.z}, {name: b, email: x@y.z}]",
            "another Slack user has the email",
            "users[1].email",
        ),
        ("users: [{name: a, tz: Mars/Olympus}]", "unknown time zone 'Mars/Olympus'", "users[0].tz"),
        ("users: [{name: a, status: {expires_in: 1h}}]", "a status has a text, an emoji or both", "users[0].status"),
        (
            "users: [{name: a, status: {emoji: palm_tree}}]",
            "a status emoji is written :name:, not 'palm_tree'",
            "users[0].status.emoji",
        ),
        (
            "users: [{name: a, status: {emoji: ':party_parrot:'}}]",
            ":party_parrot: is not one of Slack's standard emoji",
            "users[0].status.emoji",
        ),
        (
            "users: [{name: a, status: {text: Away, expires_in: 0s}}]",
            "a status expires after the clock start",
            "users[0].status.expires_in",
        ),
        (
            USERS + "channels: [{ref: c, name: c, members: [$bot]}]\nmessages: [{channel: $c, user: $maya, text: x}]",
            "$maya is not a member (nor a former member) of the channel $c",
            "messages[0].user",
        ),
        (
            USERS + "channels: [{name: c, members: [$maya], former_members: [$maya]}]",
            "a former member is also a member",
            "channels[0].former_members",
        ),
        (
            USERS + "channels: [{ref: c, name: c, members: [$maya]}]\n"
            "messages: [{channel: $c, user: $maya, text: x, ts: '1772459000.5'}]",
            "'1772459000.5' is not a Slack ts",
            "messages[0].ts",
        ),
        (
            USERS + "channels: [{ref: c, name: c, members: [$maya]}]\n"
            "messages: [{channel: $c, user: $maya, text: x, ts: '1772460000.000001'}]",
            "a message's ts must be before the clock start",
            "messages[0].ts",
        ),
        (
            USERS + "channels: [{ref: c, name: c, members: [$maya]}]\n"
            "messages: [{channel: $c, user: $maya, text: x, ts: '1772459000.000001', ago: 1h}]",
            "give a message either `ts` or `ago`",
            "messages[0].ts",
        ),
        (
            USERS + "channels: [{ref: c, name: c, members: [$maya]}]\nmessages:\n"
            "  - {channel: $c, user: $maya, text: x, ts: '1772459000.000001'}\n"
            "  - {channel: $c, user: $maya, text: y, ts: '1772459000.000001'}",
            "another message has the ts 1772459000.000001",
            "messages[1].ts",
        ),
        (USERS + "dms: [{users: [$maya, $laura, $bot]}]", "a dm has 1 to 2 users", "dms[0].users"),
        (USERS + "group_dms: [{users: [$maya, $laura]}]", "a group dm has 3 to 9 users", "group_dms[0].users"),
        (
            USERS + "dms: [{users: [$maya, $laura]}, {users: [$laura, $maya]}]",
            "these users already have one",
            "dms[1].users",
        ),
        (USERS + "dms: [{users: [$maya, $maya]}]", "a user is listed twice", "dms[0].users"),
        (
            USERS + "messages: [{channel: $nowhere, user: $maya, text: x}]",
            "unknown ref $nowhere",
            "messages[0].channel",
        ),
        (
            USERS + "channels: [{ref: c, name: c, members: [$maya]}]\n"
            "messages: [{channel: $c, user: $maya, text: x, reactions: {':tada:': [$maya]}}]",
            "invalid emoji name ':tada:'",
            "messages[0].reactions",
        ),
    ],
)
def test_errors_name_the_field(slack, message, field):
    error = failure(slack)
    assert message in error.message
    assert error.field == f"seed.slack.{field}"
    assert error.file == "<scene_yaml>" and error.line is not None


@pytest.mark.parametrize(
    ("messages", "problem"),
    [
        (
            "[{ref: a, channel: $c, user: $maya, text: a}, {channel: $d, user: $maya, text: b, thread_ts: $a}]",
            "a reply must be in the same channel",
        ),
        (
            (
                "[{ref: a, channel: $c, user: $maya, text: a}, "
                "{ref: b, channel: $c, user: $maya, text: b, thread_ts: $a}, "
                "{channel: $c, user: $maya, text: c, thread_ts: $b}]"
            ),
            "thread_ts must name a thread's first message",
        ),
        (
            (
                "[{ref: a, channel: $c, user: $maya, text: a},"
                " {channel: $c, user: $maya, text: b, thread_ts: $a, ago: 1h}]"
            ),
            "a reply must be posted after its thread's first message",
        ),
        ("[{ref: a, channel: $c, user: $maya, text: a, thread_ts: $c}]", "names a record of slack.channels"),
    ],
)
def test_thread_errors(messages, problem):
    channels = "channels: [{ref: c, name: c, members: [$maya]}, {ref: d, name: d, members: [$maya]}]\n"
    assert problem in failure(USERS + channels + f"messages: {messages}").message


def test_unknown_fields_are_rejected():
    error = failure("users: [{name: a, nickname: b}]")
    assert "nickname" in str(error)


def test_team_defined_twice(tmp_path):
    (tmp_path / "world.yaml").write_text("name: w\nslack:\n  team: {name: Acme}\n")
    scene = tmp_path / "scene.yaml"
    scene.write_text("name: s\ntask: t\nworld: world.yaml\nseed:\n  slack:\n    team: {name: Other}\n")
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene(scene))
    assert "the Slack team is already defined" in caught.value.message
    assert caught.value.field == "seed.slack.team"


def test_scene_seed_adds_to_the_world(tmp_path):
    (tmp_path / "world.yaml").write_text(
        "name: w\nslack:\n  team: {name: Acme}\n  users: [{ref: maya, name: maya}]\n"
        "  channels: [{ref: c, name: c, members: [$maya]}]\n"
        "  messages: [{ref: q, channel: $c, user: $maya, text: q}]\n"
    )
    scene = tmp_path / "scene.yaml"
    scene.write_text(
        "name: s\ntask: t\nworld: world.yaml\nseed:\n  slack:\n"
        "    messages: [{ref: a, channel: $c, user: $maya, text: a, thread_ts: $q}]\n"
    )
    image = build_image(*read_scene(scene))
    q = image.collections[store.MESSAGES].get(image.refs["q"])
    assert (q["reply_count"], q["latest_reply"]) == (1, image.refs["a"])
    # Both files post their undated messages in the same minute; the per-second counter keeps them apart.
    assert (image.refs["q"], image.refs["a"]) == (f"{START - 60}.000100", f"{START - 60}.000200")
    assert image.collections[store.MESSAGES].ids() == sorted(image.collections[store.MESSAGES].ids())


# -- building many messages: who posts where is found once per pair, the order kept when it is already right --

MANY = (
    USERS
    + """
channels:
  - {ref: c, name: c, members: [$maya, $laura, $bot]}
  - {ref: e, name: e, members: [$maya, $laura], former_members: [$bot]}
messages:
  - {ref: a, channel: $c, user: $maya, text: "a <@U1> & b", pinned: true}
  - {channel: $c, user: $laura, text: r1, thread_ts: $a, reactions: {eyes: [$maya]}}
  - {ref: b, channel: $e, user: $bot, text: "from a bot", ago: 3h}
  - {channel: $laura, user: $maya, text: "a DM"}
  - {channel: $maya, user: $laura, text: "the same DM"}
  - {channel: $c, user: $maya, text: r2, thread_ts: $a}
  - {channel: $e, user: $laura, text: "given", ts: "1772450000.123456"}
  - {channel: $laura, user: $maya, text: "the DM again", reactions: {tada: [$laura, $maya]}}
  - {channel: $c, user: $laura, text: r3, thread_ts: $a}
"""
)
IN_ORDER = (
    USERS
    + """
channels: [{ref: c, name: c, members: [$maya, $laura]}]
messages:
"""
    + "".join(
        f"  - {{ref: m{i}, channel: $c, user: ${'maya' if i % 3 else 'laura'}, text: 'm {i}'"
        + (f", thread_ts: $m{i - 2}}}\n" if i % 4 == 3 else "}\n")
        for i in range(40)
    )
)


def _finish_by_sorting(ctx) -> None:
    """How messages were finished before: always sorted into a new collection, each thread's parent a new dict."""
    ordered = sorted(ctx.collection(store.MESSAGES), key=lambda m: ts_us(m["ts"]))
    replies: dict = {}
    for record in ordered:
        if record.get("parent_user_id"):
            replies.setdefault(record["thread_ts"], []).append(record)
    by_ts = {m["ts"]: m for m in ordered}
    for parent_ts, thread in replies.items():
        by_ts[parent_ts] = {**by_ts[parent_ts], **slack_messages.thread_summary(parent_ts, thread)}
    ctx.collections[store.MESSAGES] = Collection(store.MESSAGES, by_ts)


def _everything(image) -> str:
    collections = {name: list(c) for name, c in sorted(image.collections.items())}
    return json.dumps([collections, image.refs, image.ids._counters], sort_keys=False)


GENERATED = "  generate:\n    slack.messages: {channel: $c, count: 30}\n"


@pytest.mark.parametrize(
    ("slack", "extra"),
    [(MANY, ""), (MANY, GENERATED), (IN_ORDER, ""), (IN_ORDER, GENERATED)],
    ids=["out of order, DMs, bots", "out of order, generated", "in file order", "in order, generated"],
)
def test_messages_build_as_each_one_alone_did(monkeypatch, slack, extra):
    """The same records, ids and order as when every message resolved its author and conversation itself
    and the messages were always sorted anew (generated messages come before the file's: sorted too)."""
    built = _everything(build(slack, extra))
    alone = seed_messages.build_message

    def each_alone(ctx, ts, message, i, team_id, posters):
        alone(ctx, ts, message, i, team_id, {})

    monkeypatch.setattr(seed_messages, "build_message", each_alone)
    monkeypatch.setattr(seed_messages, "finish_messages", _finish_by_sorting)
    assert built == _everything(build(slack, extra))


def test_a_pair_found_valid_does_not_hide_a_later_problem():
    error = failure(
        USERS
        + """
channels: [{ref: c, name: c, members: [$maya]}]
messages:
  - {channel: $c, user: $maya, text: one}
  - {channel: $c, user: $maya, text: two}
  - {channel: $c, user: $laura, text: three}
"""
    )
    assert error.field == "seed.slack.messages[2].user" and "not a member" in error.message


GUESTS = """
team: {name: Acme, plan: pro}
users:
  - {ref: bot, name: bot, is_bot: true}
  - {ref: laura, name: laura, start_date: "2020-09-01"}
  - {ref: nina, name: nina, guest: {invited_by: $laura, single_channel: true}}
  - {ref: ben, name: ben, guest: {invited_by: $laura}}
"""


def test_guests_and_start_dates():
    image = build(
        GUESTS
        + "channels:\n"
        + "  - {ref: ext, name: ext, members: [$bot, $laura, $nina, $ben]}\n"
        + "  - {ref: vendors, name: vendors, members: [$laura, $ben]}\n"
    )
    users, refs = image.collections[store.USERS], image.refs
    nina, ben, laura = (users.get(refs[name]) for name in ("nina", "ben", "laura"))
    assert (nina["is_restricted"], nina["is_ultra_restricted"], nina["profile"]["guest_invited_by"]) == (
        True,
        True,
        refs["laura"],
    )
    assert (ben["is_restricted"], ben["is_ultra_restricted"], ben["profile"]["guest_invited_by"]) == (
        True,
        False,
        refs["laura"],
    )
    assert (laura["is_restricted"], laura["is_ultra_restricted"], laura["profile"]["start_date"]) == (
        False,
        False,
        "2020-09-01",
    )
    assert "start_date" not in nina["profile"] and "guest_invited_by" not in laura["profile"]


# The guests' section broken one way (a text in it replaced), where the error is and what it says.
CHANNELS_AB = "channels:\n  - {name: a, members: [$nina]}\n  - {name: b, members: [$laura, $nina]}\n"
BROKEN = [
    (("plan: pro", "plan: free"), "users[2].guest", "guest accounts need a paid plan (the team's `plan`), not free"),
    (("{invited_by: $laura}", "{invited_by: $nina}"), "users[3].guest.invited_by", "$nina is not a full member"),
    (("{invited_by: $laura}", "{invited_by: $bot}"), "users[3].guest.invited_by", "$bot is not a full member"),
    (("users:", CHANNELS_AB + "users:"), "channels[1].members[1]", "a single-channel guest, already in #a"),
    (('"2020-09-01"', '"2020-9-1"'), "users[1].start_date", "'2020-9-1' is not a date (YYYY-MM-DD)"),
    (("pro}", "pro, sso: {name: okta, label: Okta}}"), "team.sso", "needs the business_plus plan, not pro"),
]


@pytest.mark.parametrize(("change", "where", "message"), BROKEN)
def test_guest_and_team_errors(change, where, message):
    error = failure(GUESTS.replace(*change))
    assert where in str(error) and message in str(error), str(error)
