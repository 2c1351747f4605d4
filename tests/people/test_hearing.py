"""Who hears a message: DMs, mentions, threads someone is part of, watched channels, and nobody else.

Every message someone writes gets one `message` event naming who heard it; only messages someone wrote
count (not Slack's join or topic notices). People answer only the agent, and acknowledge a message that
asks them nothing only when it was addressed to them (a DM or a mention).
"""

from __future__ import annotations

from soundstage.people.engine import State
from soundstage.services.slack import channels, messages
from soundstage.services.slack.store import MESSAGES

from .conftest import scene, story

PEOPLE = """
  - ref: laura
    slack_user: $laura
    reply_after: 30s
    watches: [$support]
  - ref: maya
    slack_user: $maya
    reply_after: 1m
  - ref: omar
    slack_user: $omar
    reply_after: 2m
"""
SCENE = scene(PEOPLE, name="hearing")


def test_a_dm_reaches_the_person_and_is_acknowledged_in_the_dm(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    dm = slack.conversations_open(users=refs["maya"])["channel"]["id"]  # @0
    slack.chat_postMessage(channel=dm, text="Hello Maya, the deploy went out.")  # @5
    live.advance("1m")
    assert story(live) == [
        "@5 message @5 $bot (agent) in dm:bot+maya to $maya: Hello Maya, the deploy went out.",
        "@65 message @65 $maya in dm:bot+maya to nobody: Got it, thanks!",
    ]
    history = slack.conversations_history(channel=dm)["messages"]
    assert [(m["user"], m["text"], m.get("thread_ts")) for m in history] == [
        (refs["maya"], "Got it, thanks!", None),
        (refs["bot"], "Hello Maya, the deploy went out.", None),
    ]


def test_a_mention_reaches_the_person_and_is_answered_in_the_thread(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    posted = slack.chat_postMessage(channel=refs["general"], text=f"<@{refs['omar']}> can you look at the queue?")
    live.advance("2m")
    assert story(live) == [
        f"@0 message @0 $bot (agent) in $general to $omar: <@{refs['omar']}> can you look at the queue?",
        "@120 message @120 $omar in $general thread @0 to nobody: Got it, thanks!",
    ]
    replies = slack.conversations_replies(channel=refs["general"], ts=posted["ts"])["messages"]
    assert [(m["user"], m["text"]) for m in replies] == [
        (refs["bot"], f"<@{refs['omar']}> can you look at the queue?"),
        (refs["omar"], "Got it, thanks!"),
    ]


def test_a_labelled_mention_counts_too(people):
    live = people(SCENE)
    refs = live.world.refs
    live.slack().chat_postMessage(channel=refs["general"], text=f"ping <@{refs['maya']}|maya>")
    assert story(live) == [f"@0 message @0 $bot (agent) in $general to $maya: ping <@{refs['maya']}|maya>"]


def test_a_mention_does_not_reach_someone_who_cannot_see_the_conversation(people):
    live = people(SCENE)
    refs = live.world.refs
    # #ops is private to the bot and Omar; Laura is not in it.
    live.slack().chat_postMessage(channel=refs["ops"], text=f"<@{refs['laura']}> <@{refs['omar']}> heads up")
    live.advance("5m")
    assert story(live) == [
        f"@0 message @0 $bot (agent) in $ops to $omar: <@{refs['laura']}> <@{refs['omar']}> heads up",
        "@120 message @120 $omar in $ops thread @0 to nobody: Got it, thanks!",
    ]


def test_a_watched_channel_reaches_the_watcher_without_an_acknowledgement(people):
    live = people(SCENE)
    refs = live.world.refs
    live.slack().chat_postMessage(channel=refs["support"], text="Morning all, the export is fixed.")
    live.advance("5m")
    assert story(live) == ["@0 message @0 $bot (agent) in $support to $laura: Morning all, the export is fixed."]
    history = live.slack().conversations_history(channel=refs["support"])["messages"]
    assert next(m["user"] for m in history) == refs["bot"]


def test_a_channel_nobody_watches_reaches_nobody(people):
    live = people(SCENE)
    refs = live.world.refs
    live.slack().chat_postMessage(channel=refs["general"], text="Morning all")
    live.advance("5m")
    assert story(live) == ["@0 message @0 $bot (agent) in $general to nobody: Morning all"]


def test_a_thread_reaches_whoever_wrote_its_first_message_or_a_reply(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    # Maya wrote the thread's first message and Omar a reply; Laura watches #support anyway.
    slack.chat_postMessage(channel=refs["support"], thread_ts=refs["maya_question"], text="Which errors?")
    slack.chat_postMessage(channel=refs["support"], text="Unrelated note")
    live.advance("5m")
    assert story(live) == [
        "@0 message @0 $bot (agent) in $support thread $maya_question to $laura,$maya,$omar: Which errors?",
        "@5 message @5 $bot (agent) in $support to $laura: Unrelated note",
    ]


def test_writing_in_a_thread_makes_a_person_part_of_it(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    first = slack.chat_postMessage(channel=refs["general"], text=f"<@{refs['maya']}> quick one")["ts"]  # @0
    live.advance("1m")  # Maya acknowledges in the thread at @60
    slack.chat_postMessage(channel=refs["general"], thread_ts=first, text="Thanks!")  # @65: reaches Maya
    live.advance("1m")
    assert story(live) == [
        f"@0 message @0 $bot (agent) in $general to $maya: <@{refs['maya']}> quick one",
        "@60 message @60 $maya in $general thread @0 to nobody: Got it, thanks!",
        "@65 message @65 $bot (agent) in $general thread @0 to $maya: Thanks!",  # no mention: no reply
    ]


def test_a_group_dm_reaches_each_member_who_answers_in_it(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    group = slack.conversations_open(users=f"{refs['maya']},{refs['omar']}")["channel"]["id"]
    slack.chat_postMessage(channel=group, text="Hi both")  # @5
    live.advance("2m")
    assert story(live) == [
        "@5 message @5 $bot (agent) in dm:bot+maya+omar to $maya,$omar: Hi both",
        "@65 message @65 $maya in dm:bot+maya+omar to $omar: Got it, thanks!",
        "@125 message @125 $omar in dm:bot+maya+omar to $maya: Got it, thanks!",
    ]


def test_only_written_messages_count(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    slack.conversations_setTopic(channel=refs["support"], topic="Customer questions")  # a channel_topic notice
    slack.conversations_join(channel=refs["general"])  # already a member: nothing posted
    slack.conversations_invite(channel=refs["general"], users=refs["nina"])  # a channel_join notice
    assert story(live) == []
    kinds = [(e["kind"], e.get("collection")) for e in live.events() if e["kind"] == "write"]
    assert ("write", MESSAGES) in kinds  # the notices were written, and not heard


def test_people_do_not_hear_themselves_and_answer_only_the_agent(people):
    live = people(SCENE)
    world = live.world
    refs = world.refs

    with world.lock:  # Nina (not a person) DMs Maya; Maya writes in #support, which Laura watches
        dm, _ = channels.open_dm(world, refs["nina"], refs["maya"])
        messages.post(world, dm["id"], refs["nina"], "Hi Maya")
        messages.post(world, refs["support"], refs["maya"], f"<@{refs['maya']}> note to self")
        world.notify()
    live.advance("5m")
    assert story(live) == [
        "@0 message @0 $nina in dm:maya+nina to $maya: Hi Maya",
        f"@0 message @0/2 $maya in $support to $laura: <@{refs['maya']}> note to self",
    ]


def test_a_thread_reply_in_a_dm_is_answered_in_that_thread(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    dm = slack.conversations_open(users=refs["maya"])["channel"]["id"]  # @0
    first = slack.chat_postMessage(channel=dm, text="Two things")["ts"]  # @5
    slack.chat_postMessage(channel=dm, thread_ts=first, text="First: the deploy is out.")  # @10
    live.advance("1m")
    replies = slack.conversations_replies(channel=dm, ts=first)["messages"]
    assert [(m["user"], m["text"]) for m in replies] == [
        (refs["bot"], "Two things"),
        (refs["bot"], "First: the deploy is out."),
        (refs["maya"], "OK, thanks for letting me know."),
    ]
    top = slack.conversations_history(channel=dm)["messages"]
    assert [(m["user"], m["text"]) for m in top] == [
        (refs["maya"], "Got it, thanks!"),
        (refs["bot"], "Two things"),
    ]


def test_a_world_without_people_has_no_engine(people):
    live = people(scene("  []").replace("people:\n  []", "people: []"))
    live.slack().chat_postMessage(channel=live.world.refs["general"], text="Hello")
    assert story(live, start=True) == []
    assert live.world.part(State) == State()  # the engine never kept anything


# -- put to them: by name, in a thread, and not when someone else is called on ---------------------------

ASKING = scene(
    """
  - ref: omar
    slack_user: $omar
    reply_after: 30s
    facts:
      - {id: incident, text: "A bad cache key.", match: ["bad cache key"], ask: ["root cause"]}
  - ref: maya
    slack_user: $maya
    reply_after: 1m
  - ref: priya
    slack_user: $priya
    reply_after: 2m
""",
    name="hearing-asked",
)


def test_calling_someone_by_name_puts_the_message_to_them(people):
    live = people(ASKING)
    refs = live.world.refs
    slack = live.slack()
    slack.chat_postMessage(channel=refs["general"], text="Omar, why is checkout failing?")  # @0
    slack.chat_postMessage(channel=refs["general"], text="hey maya the deploy is out")  # @5
    slack.chat_postMessage(channel=refs["general"], text="Omar said the queue is fine.")  # @10: about him
    slack.chat_postMessage(channel=refs["ops"], text="Maya, are you around?")  # @15: #ops is not hers
    live.advance("2m")
    assert story(live) == [
        "@0 message @0 $bot (agent) in $general to $omar: Omar, why is checkout failing?",
        "@0 asked $omar for omar.incident by $bot in @0",
        "@5 message @5 $bot (agent) in $general to $maya: hey maya the deploy is out",
        "@10 message @10 $bot (agent) in $general to nobody: Omar said the queue is fine.",
        "@15 message @15 $bot (agent) in $ops to nobody: Maya, are you around?",
        "@30 revealed $omar omar.incident to $bot in @30",
        "@30 message @30 $omar in $general thread @0 to nobody carries omar.incident: Sure. A bad cache key.",
        "@65 message @65 $maya in $general thread @5 to nobody: Got it, thanks!",
    ]


def test_a_question_in_a_thread_is_put_to_everyone_in_it_unless_it_calls_on_someone(people):
    live = people(ASKING)
    refs = live.world.refs
    slack = live.slack()
    thread = refs["maya_question"]  # Maya asked it, Omar replied
    slack.chat_postMessage(channel=refs["support"], thread_ts=thread, text="cc <@{}>".format(refs["priya"]))  # @0
    slack.chat_postMessage(channel=refs["support"], thread_ts=thread, text="Thanks all.")  # @5: a statement
    slack.chat_postMessage(channel=refs["support"], thread_ts=thread, text="Maya, any errors on your side?")  # @10
    slack.chat_postMessage(channel=refs["support"], thread_ts=thread, text="Why is checkout failing?")  # @15
    live.advance("3m")
    assert story(live) == [
        f"@0 message @0 $bot (agent) in $support thread $maya_question to $omar,$maya,$priya: cc <@{refs['priya']}>",
        "@5 message @5 $bot (agent) in $support thread $maya_question to $omar,$maya,$priya: Thanks all.",
        # Put to Maya: Omar and Priya, in the thread too, leave it to her (it asks nothing she knows).
        (
            "@10 message @10 $bot (agent) in $support thread $maya_question to $omar,$maya,$priya: "
            "Maya, any errors on your side?"
        ),
        (
            "@15 message @15 $bot (agent) in $support thread $maya_question to $omar,$maya,$priya: "
            "Why is checkout failing?"
        ),
        "@15 asked $omar for omar.incident by $bot in @15",
        "@15 asked $maya for omar.incident by $bot in @15",
        "@15 asked $priya for omar.incident by $bot in @15",
        "@45 revealed $omar omar.incident to $bot in @45",
        (
            "@45 message @45 $omar in $support thread $maya_question to $maya,$priya carries omar.incident: "
            "Sure. A bad cache key."
        ),
        "@45 knows $maya omar.incident from $omar in @45",
        "@45 knows $priya omar.incident from $omar in @45",
        "@70 message @70 $maya in $support thread $maya_question to $omar,$priya: Got it, thanks!",
        "@75 message @75 $maya in $support thread $maya_question to $omar,$priya: No idea, I'm afraid.",
        "@120 message @120 $priya in $support thread $maya_question to $omar,$maya: OK, thanks for letting me know.",
        "@135 message @135 $priya in $support thread $maya_question to $omar,$maya: Hmm, I don't know that one.",
    ]
