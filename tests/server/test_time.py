"""Simulated time over HTTP: ticks per call, the clock endpoint, due events, realtime and `start: now`."""

from __future__ import annotations

from soundstage.clock import parse_time

SCENE = """
name: time-test
task: t
clock: {clock}
agent: {{slack_user: $bot}}
seed:
  slack:
    users:
      - {{ref: bot, name: stagebot, is_bot: true}}
"""


def auth_test(live):
    return live.http.post(f"/w/{live.id}/slack/api/auth.test", headers={"Authorization": f"Bearer {live.token}"})


def dates(live, n):
    return [auth_test(live).headers["date"] for _ in range(n)]


def test_each_call_ticks_the_clock(stage):
    live = stage.world(SCENE.format(clock='{start: "2026-03-02T14:00:00Z", tick: 30s}'))
    assert dates(live, 3) == [
        "Mon, 02 Mar 2026 14:00:00 GMT",
        "Mon, 02 Mar 2026 14:00:30 GMT",
        "Mon, 02 Mar 2026 14:01:00 GMT",
    ]
    assert [c["t"] for c in live.trace()] == ["2026-03-02T14:00:00Z", "2026-03-02T14:00:30Z", "2026-03-02T14:01:00Z"]
    live.advance("1h")
    assert dates(live, 1) == ["Mon, 02 Mar 2026 15:01:30 GMT"]


def test_due_events_happen_before_the_next_call_is_answered(stage):
    live = stage.world(SCENE.format(clock='{start: "2026-03-02T14:00:00Z", tick: 5s}'))
    world = live.world
    seen = []
    world.schedule(parse_time("2026-03-02T14:00:07Z"), lambda w: seen.append((w.now(), w.log.last_seq)))
    auth_test(live)  # 14:00:00, nothing due yet
    assert seen == []
    auth_test(live)  # 14:00:05, still nothing
    auth_test(live)  # 14:00:10: the event at 14:00:07 runs first, at its own time
    assert seen == [(parse_time("2026-03-02T14:00:07Z"), 3)]
    assert live.trace()[-1]["t"] == "2026-03-02T14:00:10Z"


def test_realtime_clock_follows_the_wall_clock_at_speed(stage, wall):
    live = stage.world(SCENE.format(clock='{start: "2026-03-02T14:00:00Z", realtime: true, speed: 60}'))
    # ticks do not move a realtime clock
    assert dates(live, 2) == ["Mon, 02 Mar 2026 14:00:00 GMT", "Mon, 02 Mar 2026 14:00:00 GMT"]
    wall.move(1.2)  # one wall second is a simulated minute
    assert dates(live, 1) == ["Mon, 02 Mar 2026 14:01:12 GMT"]
    live.advance("1h")  # on top of the wall clock
    wall.move(0.5)
    assert dates(live, 1) == ["Mon, 02 Mar 2026 15:01:42 GMT"]
    assert [c["t"] for c in live.trace()] == [
        "2026-03-02T14:00:00Z",
        "2026-03-02T14:00:00Z",
        "2026-03-02T14:01:12Z",
        "2026-03-02T15:01:42Z",
    ]


def test_start_now_starts_at_the_wall_time_in_whole_seconds(stage, wall):
    live = stage.world(SCENE.format(clock="{start: now}"))
    assert live.events()[0]["t"] == "2026-03-02T15:30:00Z"  # the wall clock reads 15:30:00.25
