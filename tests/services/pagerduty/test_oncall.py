"""Who is on call: rotations, overrides, layer order, restrictions, and escalation levels resolved
through schedules, computed straight from the world's records at chosen moments."""

from __future__ import annotations

from typing import Any

from soundstage.clock import parse_time
from soundstage.services.pagerduty.oncall import (
    Entry,
    escalation_targets,
    on_call,
    render_final,
    render_layer,
)
from soundstage.services.pagerduty.store import SCHEDULES

from .conftest import PagerDutyWorld


def at(text: str) -> int:
    return parse_time(text)


def test_weekly_rotation_hands_over_on_mondays(pd_read: PagerDutyWorld) -> None:
    world, primary = pd_read.live.world, pd_read.ref("primary")
    sam, maya = pd_read.ref("sam"), pd_read.ref("maya")
    assert on_call(world, primary, at("2026-02-23T08:59:59Z")) is None  # before the layer starts
    assert on_call(world, primary, at("2026-02-23T09:00:00Z")) == sam
    assert on_call(world, primary, at("2026-03-02T08:59:59Z")) == sam
    assert on_call(world, primary, at("2026-03-02T09:00:00Z")) == maya
    assert on_call(world, primary, at("2026-03-09T09:00:00Z")) == sam
    assert on_call(world, primary, at("2026-03-16T09:00:00Z")) == maya
    assert on_call(world, "PNOSUCH", at("2026-03-02T09:00:00Z")) is None


def test_override_wins_over_the_rotation(pd_read: PagerDutyWorld) -> None:
    world, primary = pd_read.live.world, pd_read.ref("primary")
    lee, maya = pd_read.ref("lee"), pd_read.ref("maya")
    assert on_call(world, primary, at("2026-03-02T23:59:59Z")) == maya
    assert on_call(world, primary, at("2026-03-03T00:00:00Z")) == lee
    assert on_call(world, primary, at("2026-03-03T05:59:59Z")) == lee
    assert on_call(world, primary, at("2026-03-03T06:00:00Z")) == maya


def test_escalation_levels(pd_read: PagerDutyWorld) -> None:
    world, ep = pd_read.live.world, pd_read.ref("ep")
    maya, sam, lee = pd_read.ref("maya"), pd_read.ref("sam"), pd_read.ref("lee")
    assert escalation_targets(world, ep, 1, at("2026-03-02T14:00:00Z")) == [maya]
    assert escalation_targets(world, ep, 1, at("2026-03-03T01:00:00Z")) == [lee]
    assert escalation_targets(world, ep, 1, at("2026-03-10T01:00:00Z")) == [sam]
    assert escalation_targets(world, ep, 2, at("2026-03-02T14:00:00Z")) == [lee]
    assert escalation_targets(world, ep, 3, at("2026-03-02T14:00:00Z")) == []
    assert escalation_targets(world, ep, 0, at("2026-03-02T14:00:00Z")) == []
    assert escalation_targets(world, "PNOSUCH", 1, at("2026-03-02T14:00:00Z")) == []


def test_final_schedule_rendering_merges_and_clips(pd_read: PagerDutyWorld) -> None:
    world = pd_read.live.world
    schedule = world[SCHEDULES].get(pd_read.ref("primary"))
    maya, sam, lee = pd_read.ref("maya"), pd_read.ref("sam"), pd_read.ref("lee")
    assert render_final(schedule, at("2026-03-01T00:00:00Z"), at("2026-03-10T00:00:00Z")) == [
        Entry(at("2026-03-01T00:00:00Z"), at("2026-03-02T09:00:00Z"), sam),
        Entry(at("2026-03-02T09:00:00Z"), at("2026-03-03T00:00:00Z"), maya),
        Entry(at("2026-03-03T00:00:00Z"), at("2026-03-03T06:00:00Z"), lee),
        Entry(at("2026-03-03T06:00:00Z"), at("2026-03-09T09:00:00Z"), maya),
        Entry(at("2026-03-09T09:00:00Z"), at("2026-03-10T00:00:00Z"), sam),
    ]


LAYERED = """
name: pagerduty-layers
task: test
clock: {start: "2026-03-02T14:00:00Z"}
agent: {pagerduty_user: $ana}
seed:
  pagerduty:
    users:
      - {ref: ana, name: Ana, email: ana@acme.test}
      - {ref: ben, name: Ben, email: ben@acme.test}
      - {ref: cy, name: Cy, email: cy@acme.test}
    schedules:
      - ref: layered
        name: Layered
        time_zone: America/New_York
        schedule_layers:
          - {start: -14d, rotation_turn_length: 1d, rotation_virtual_start: "2026-02-01T00:00:00Z", users: [$ana, $ben]}
          - start: -14d
            rotation_turn_length_seconds: 604800
            users: [$cy]
            restrictions:
              - {type: daily_restriction, start_time_of_day: "09:00:00", duration_seconds: 28800}
          - start: -14d
            end: -1d
            users: [$ben]
            restrictions:
              - {type: weekly_restriction, start_day_of_week: 6, start_time_of_day: "00:00:00", \
duration_seconds: 172800}
    escalation_policies:
      - ref: both
        name: Both
        escalation_rules:
          - {targets: [$layered, $cy, $ana]}
"""


def test_later_layers_win_inside_their_restrictions(stage: Any) -> None:
    live = PagerDutyWorld(stage.world(LAYERED))
    world, layered = live.live.world, live.ref("layered")
    ana, ben, cy = live.ref("ana"), live.ref("ben"), live.ref("cy")
    # Daily turns from 2026-02-01 00:00 UTC: even days Ana, odd days Ben; 2026-03-02 is day 29.
    assert on_call(world, layered, at("2026-03-02T13:59:59Z")) == ben  # 08:59 in New York
    assert on_call(world, layered, at("2026-03-03T00:00:00Z")) == ana
    assert on_call(world, layered, at("2026-03-02T14:00:00Z")) == cy  # 09:00 EST: layer 2's window
    assert on_call(world, layered, at("2026-03-02T21:59:59Z")) == cy
    assert on_call(world, layered, at("2026-03-02T22:00:00Z")) == ben
    # Layer 3 covers weekends (Saturday 00:00 to Monday 00:00 New York time) until its end.
    assert on_call(world, layered, at("2026-02-28T15:00:00Z")) == ben  # Saturday 10:00 EST
    assert on_call(world, layered, at("2026-03-01T04:59:59Z")) == ben
    assert escalation_targets(world, live.ref("both"), 1, at("2026-03-02T14:00:00Z")) == [cy, ana]


def test_layer_rendering_respects_restrictions(stage: Any) -> None:
    live = PagerDutyWorld(stage.world(LAYERED))
    schedule = live.live.world[SCHEDULES].get(live.ref("layered"))
    cy = live.ref("cy")
    assert render_layer(
        schedule,
        schedule["schedule_layers"][1],
        at("2026-03-02T00:00:00Z"),
        at("2026-03-04T00:00:00Z"),
    ) == [
        Entry(at("2026-03-02T14:00:00Z"), at("2026-03-02T22:00:00Z"), cy),
        Entry(at("2026-03-03T14:00:00Z"), at("2026-03-03T22:00:00Z"), cy),
    ]
