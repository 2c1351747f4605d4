"""The transcript a judge model reads: every kind of entry, names for Slack ids, what each call answered."""

from __future__ import annotations

from pathlib import Path

from tests.people.mail_trial import OUTSIDE, OUTSIDE_AGENT, mail_trial

from soundstage.checks import Attempt
from soundstage.checks.transcript import Names, start_time, transcript
from soundstage.events import (
    AfterFinishEvent,
    AskedEvent,
    ClockEvent,
    DecidedEvent,
    FaultResolvedEvent,
    FaultStartedEvent,
    KnowsEvent,
    MessageEvent,
    MilestoneEvent,
    ReferredEvent,
    RevealedEvent,
    ScriptEvent,
    ToldEvent,
    WithheldEvent,
)
from soundstage.services.slack.store import CHANNELS, MESSAGES, USERS

BOT, DANA, SAM = "U0BOT000001", "U0DANA00001", "U0SAM000001"
USER_RECORDS = [
    {"id": BOT, "name": "stagebot", "real_name": "Stage Bot"},
    {"id": DANA, "name": "dana", "real_name": "Dana Ruiz"},
    {"id": SAM, "name": "sam", "profile": {"real_name": "Sam Okafor"}},
]
CHANNEL_RECORDS = [
    {"id": "C0SUPPORT01", "name": "support"},
    {"id": "D0DANA00001", "is_im": True, "members": [BOT, DANA]},
    {"id": "G0GROUP0001", "is_mpim": True, "members": [BOT, DANA, SAM]},
]
REPLY_TS = "1772460015.000100"


def unchanged(value):
    return value


def office(log) -> Attempt:
    channels = {"ok": True, "channels": CHANNEL_RECORDS[:2], "response_metadata": {"next_cursor": ""}}
    log.call("POST", "/api/conversations.list", response=channels)  # 2, at 14:00:10
    reply = {"channel": "C0SUPPORT01", "text": "Under Reports.", "thread_ts": "1772459990.000100"}
    posted = log.call(
        "POST",
        "/api/chat.postMessage",
        body=reply,
        response={
            "ok": True,
            "channel": "C0SUPPORT01",
            "ts": REPLY_TS,
            "message": {**reply, "user": BOT, "ts": REPLY_TS},
        },
    )  # 3
    log.write(MESSAGES, "added", REPLY_TS, by=posted)  # 4
    log.event(
        MessageEvent,
        ts=REPLY_TS,
        channel="C0SUPPORT01",
        user=BOT,
        text="Under Reports.",
        to=[DANA],
        facts=["dana.export"],
        from_agent=True,
    )  # 5
    log.event(AskedEvent, person=DANA, by=BOT, fact="dana.workspace", ts=REPLY_TS)  # 6
    log.event(WithheldEvent, person=SAM, fact="sam.contract_value", to=BOT, reason="confidential", ts="1")  # 7
    log.event(ReferredEvent, person=SAM, fact="dana.workspace", owner=DANA, to=BOT, ts="1")  # 8
    log.event(RevealedEvent, person=DANA, fact="dana.workspace", to=BOT, ts="1")  # 9
    log.event(ToldEvent, person=DANA, fact="dana.export", ts=REPLY_TS)  # 10
    log.event(KnowsEvent, person=SAM, fact="dana.workspace", source=DANA, ts="1")  # 11
    log.event(DecidedEvent, person=DANA, decision="dana.refund", option="approve", by=BOT, ts="1")  # 12
    log.event(
        ScriptEvent, person=DANA, ts="1772460065.000100", channel="G0GROUP0001", text="Any news?", trigger="at 1m"
    )
    issues = [{"id": 900 + n, "number": n, "title": f"Issue {n}", "state": "open"} for n in range(1, 13)]
    log.call("GET", "/repos/acme/orders/issues", service="github", response=issues)  # 14
    invalid = {
        "message": "Validation Failed",
        "errors": [{"resource": "Issue", "field": "title", "code": "missing_field"}],
    }
    log.call("POST", "/repos/acme/orders/issues", service="github", status=422, response=invalid, error=True)
    log.call("POST", "/api/chat.update", response={"ok": False, "error": "message_not_found"}, error=True)  # 16
    log.call("GET", "/api/v1/monitor", service="datadog", status=403, response={"errors": ["Forbidden"]}, error=True)
    pd_error = {"error": {"message": "Invalid Input Provided", "code": 2001, "errors": ["Status is invalid."]}}
    log.call("PUT", "/incidents/P1", service="pagerduty", status=400, response=pd_error, error=True)  # 18
    incidents = {"data": [{"id": "inc-1", "attributes": {"title": "Orders slow", "state": "active"}}], "meta": {}}
    log.call("GET", "/api/v2/incidents", service="datadog", response=incidents)  # 19
    log.event(MilestoneEvent, key='{"slack.message": {"channel": "C0SUPPORT01"}}')  # 20
    log.event(FaultStartedEvent, fault="bad_deploy")  # 21
    log.event(ClockEvent, advanced="5m")  # 22
    log.event(FaultResolvedEvent, fault="bad_deploy")  # 23
    log.finish("Answered.")  # 24
    log.event(AfterFinishEvent, service="slack", method="POST", path="/api/chat.postMessage", status=401)  # 25
    messages = [
        {"channel": "C0SUPPORT01", "user": SAM, "text": "Heads-up: renewal at 180k.", "ts": "1772373600.000100"},
        {"channel": "C0SUPPORT01", "user": DANA, "text": "Where is the export?", "ts": "1772459990.000100"},
        {**reply, "user": BOT, "ts": REPLY_TS},
        {"channel": "G0GROUP0001", "user": DANA, "text": f"Any news, <@{SAM}>?", "ts": "1772460065.000100"},
    ]
    state = {USERS: USER_RECORDS, CHANNELS: CHANNEL_RECORDS, MESSAGES: messages}
    return Attempt(log.events, state, identities={"slack_user": BOT})


def test_the_whole_attempt_in_simulated_time(log):
    group = "group DM of Stage Bot (the agent), Dana Ruiz and Sam Okafor"
    assert transcript(office(log), unchanged) == [
        '2026-03-01 14:00:00 message from Sam Okafor in #support, ts 1772373600.000100: "Heads-up: renewal at 180k."',
        '13:59:50 message from Dana Ruiz in #support, ts 1772459990.000100: "Where is the export?"',
        "14:00:00 the attempt started (scene test)",
        (
            "14:00:10 seq 2 slack POST /api/conversations.list -> 200 channels (2): C0SUPPORT01 (#support); "
            "D0DANA00001 (DM of Stage Bot (the agent) and Dana Ruiz)"
        ),
        (
            '14:00:15 seq 3 slack POST /api/chat.postMessage body={"channel": "C0SUPPORT01 (#support)", "text": '
            '"Under Reports.", "thread_ts": "1772459990.000100"} -> 200 channel C0SUPPORT01 (#support), '
            'ts 1772460015.000100, message 1772460015.000100 Stage Bot (the agent): "Under Reports."'
        ),
        (
            "14:00:15 message from Stage Bot (the agent) in #support, thread 1772459990.000100, ts 1772460015.000100: "
            '"Under Reports." (carries dana.export)'
        ),
        "14:00:30 Stage Bot (the agent) asked Dana Ruiz for dana.workspace",
        "14:00:35 Sam Okafor withheld sam.contract_value from Stage Bot (the agent): it is confidential",
        "14:00:40 Sam Okafor, asked for dana.workspace, referred Stage Bot (the agent) to its owner Dana Ruiz",
        "14:00:45 Dana Ruiz revealed dana.workspace to Stage Bot (the agent)",
        "14:00:50 the agent told Dana Ruiz dana.export",
        "14:00:55 Sam Okafor knows dana.workspace, told by Dana Ruiz",
        "14:01:00 Dana Ruiz decided dana.refund: approve (asked by Stage Bot (the agent))",
        f'14:01:05 message from Dana Ruiz in {group}, ts 1772460065.000100: "Any news, <@{SAM} (Sam Okafor)>?"',
        f"14:01:05 Dana Ruiz wrote in {group} on their own (at 1m)",
        "14:01:10 seq 14 github GET /repos/acme/orders/issues -> 200 (12): "
        + "; ".join(f'number {n} "Issue {n}" (open)' for n in range(1, 11))
        + " and 2 more",
        (
            "14:01:15 seq 15 github POST /repos/acme/orders/issues -> 422 error: "
            "Validation Failed; Issue title missing_field"
        ),
        "14:01:20 seq 16 slack POST /api/chat.update -> 200 error: message_not_found",
        "14:01:25 seq 17 datadog GET /api/v1/monitor -> 403 error: Forbidden",
        "14:01:30 seq 18 pagerduty PUT /incidents/P1 -> 400 error: 2001; Invalid Input Provided; Status is invalid.",
        '14:01:35 seq 19 datadog GET /api/v2/incidents -> 200 data (1): id inc-1 "Orders slow" (active)',
        '14:01:40 milestone reached: {"slack.message": {"channel": "C0SUPPORT01 (#support)"}}',
        "14:01:45 fault bad_deploy started",
        "14:01:50 the clock was moved on by 5m",
        "14:01:55 fault bad_deploy resolved",
        "14:02:00 the attempt ended (finished)",
        "14:02:05 after the end, a call was refused: slack POST /api/chat.postMessage -> 401",
    ]


def test_scrub_sees_every_query_body_and_response(log):
    log.call("GET", "/api/users.info", query={"user": DANA}, body={"k": 1}, response={"ok": True, "user": {"id": DANA}})
    seen = []

    def scrub(value):
        seen.append(value)
        return value

    (_, line) = transcript(Attempt(log.events, {USERS: USER_RECORDS}), scrub)
    assert seen == [{"user": DANA}, {"k": 1}, {"ok": True, "user": {"id": DANA}}]
    assert line == (
        '14:00:10 seq 2 slack GET /api/users.info query={"user": "U0DANA00001 (Dana Ruiz)"} body={"k": 1} '
        "-> 200 user U0DANA00001 (Dana Ruiz)"
    )


def test_long_answers_and_bodies_are_cut(log):
    long = "x" * 3000
    log.call("POST", "/api/chat.postMessage", body={"text": long}, response={"ok": True, "message": long})
    (_, line) = transcript(Attempt(log.events), unchanged)
    body = '{"text": "' + "x" * 989 + "…"
    assert line == f"14:00:10 seq 2 slack POST /api/chat.postMessage body={body} -> 200 message {'x' * 99}…"


def test_the_agent_is_known_by_its_calls_when_the_attempt_does_not_say(log):
    log.call("POST", "/api/auth.test")
    log.events[-1] = log.events[-1].model_copy(update={"actor": BOT})
    names = Names(Attempt(log.events, {USERS: USER_RECORDS, CHANNELS: CHANNEL_RECORDS}))
    assert (names.user(BOT), names.user(DANA), names.user("U0NOBODY001"), names.channel("D0DANA00001")) == (
        "Stage Bot (the agent)",
        "Dana Ruiz",
        "U0NOBODY001",
        "DM of Stage Bot (the agent) and Dana Ruiz",
    )


def test_the_start_of_the_attempt(log):
    assert start_time(Attempt(log.events)) == "2026-03-02 14:00:00"
    assert start_time(Attempt([])) == "(unknown)"


def test_mail_reads_as_mail_with_its_sender_recipients_subject_and_thread(tmp_path):
    attempt = Attempt.load(mail_trial(tmp_path))
    said = attempt.of(MessageEvent)
    thread = said[0].channel
    lines = [line for line in transcript(attempt, unchanged) if " mail (gmail) " in line]
    assert lines == [
        (
            f"14:00:00 mail (gmail) from Maya Chen (the agent) <maya@acme.test> to omar@acme.test, cc priya@acme.test, "
            f'subject "Northwind", thread {thread}, id {said[0].ts}: "Hi Omar,\\n\\nwhich workspace is Northwind on?'
            '\\n\\nMaya"'
        ),
        (
            f'14:10:00 mail (gmail) from Omar Haddad <omar@acme.test> to maya@acme.test, subject "Re: Northwind", '
            f'thread {thread}, id {said[1].ts}: "Northwind is on workspace W-4821." (carries omar.workspace)'
        ),
        (
            f'15:00:00 mail (gmail) from Priya Raman <priya@acme.test> to maya@acme.test, subject "Re: Northwind", '
            f'thread {thread}, id {said[2].ts}: "I don\'t know, ask Omar Haddad (omar@acme.test)."'
        ),
    ]
    # Each after what it answers: the call that sent it, the person's `revealed` or `referred`.
    everything = transcript(attempt, unchanged)
    assert everything.index(lines[0]) == next(i for i, line in enumerate(everything) if "messages/send" in line) + 1
    assert "Omar Haddad revealed omar.workspace to Maya Chen" in everything[everything.index(lines[1]) - 1]


def test_a_person_outside_slack_is_their_address(tmp_path: Path) -> None:
    """Dana only mails: the transcript names her by her address, her mail as mail."""
    attempt = Attempt.load(mail_trial(tmp_path, OUTSIDE, OUTSIDE_AGENT))
    said = attempt.of(MessageEvent)
    lines = transcript(attempt, unchanged)
    assert [line for line in lines if " mail (gmail) " in line] == [
        (
            f"14:00:00 mail (gmail) from Maya Chen (the agent) <maya@acme.test> to events@harborhall.example, "
            f'subject "Northwind", thread {said[0].channel}, id {said[0].ts}: "Hi Dana,\\n\\nwhat deposit do you '
            'need?\\n\\nMaya"'
        ),
        (
            f'16:00:00 mail (gmail) from events@harborhall.example to maya@acme.test, subject "Re: Northwind", '
            f'thread {said[0].channel}, id {said[1].ts}: "Yes, I can help with that. A 30% deposit holds the date." '
            "(carries dana.deposit)"
        ),
    ]
    assert "16:00:00 events@harborhall.example revealed dana.deposit to Maya Chen" in lines
