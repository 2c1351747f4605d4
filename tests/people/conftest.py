"""People scenes: live worlds with people on the shared test server, seen through slack_sdk, and their
people events as readable lines."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.people.cast import Cast
from soundstage.services.slack.store import CHANNELS
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text


def cast_of(scene_yaml: str) -> Cast:
    """The cast of a scene, as the image builder makes it (raises SpecError)."""
    scene, document = read_scene_text(scene_yaml)
    return build_image(scene, document).cast or Cast()


@pytest.fixture
def people(stage: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """`people(scene_yaml)`: a new live world with its people, worded by templates (unless a test sets
    SOUNDSTAGE_PEOPLE_MODEL itself)."""
    monkeypatch.delenv("SOUNDSTAGE_PEOPLE_MODEL", raising=False)
    return stage.world


# -- scenes -------------------------------------------------------------------------------------------

START = 1772460000  # 2026-03-02T14:00:00Z

BASE = """
name: {name}
task: t
clock: {clock}
agent: {{slack_user: $bot}}
seed:
  slack:
    users:
      - {{ref: bot, name: stagebot, real_name: Stage Bot, is_bot: true}}
      - {{ref: laura, name: laura, real_name: Laura Diaz, title: Customer Success}}
      - {{ref: maya, name: maya, real_name: Maya Chen, title: SRE}}
      - {{ref: omar, name: omar, real_name: Omar Haddad, title: Backend engineer}}
      - {{ref: priya, name: priya, real_name: Priya Raman, title: Engineering Manager}}
      - {{ref: nina, name: nina, real_name: Nina Park, title: Customer}}
    channels:
      - {{ref: support, name: support, members: [$bot, $laura, $maya, $omar]}}
      - {{ref: general, name: general, members: [$bot, $laura, $maya, $omar, $priya]}}
      - {{ref: ops, name: ops, members: [$bot, $omar], is_private: true}}
      - {{ref: ext, name: ext-northwind, members: [$bot, $nina, $laura]}}
    messages:
      - {{ref: maya_question, channel: $support, user: $maya, text: "Anyone seen the import errors?", ago: 1h}}
      - {{ref: omar_answer, channel: $support, user: $omar, text: "Looking", thread_ts: $maya_question, ago: 50m}}
# A fault people's `on:` may name. Its condition never holds: tests log its resolution by hand.
faults:
  - id: bad_deploy
    active_while: {{record: {{collection: slack.messages, where: {{text: "the cache is on fire"}}}}}}
    effects: [{{metric: {{name: orders.latency.p99, value: 2400}}}}]
people:
{people}
"""


def scene(people: str, name: str = "people-test", clock: str = '{start: "2026-03-02T14:00:00Z", tick: 5s}') -> str:
    """A scene of the shared test world with `people` (YAML list items, indented by two spaces)."""
    return BASE.format(name=name, clock=clock, people=people.strip("\n"))


def ts(seconds: int, n: int = 1) -> str:
    """The `ts` of the n-th message posted `seconds` after the clock start."""
    return f"{START + seconds}.{n * 100:06d}"


# -- reading what happened --------------------------------------------------------------------------

PEOPLE_KINDS = ("message", "asked", "revealed", "withheld", "referred", "told", "knows", "decided", "script")


class Names:
    """Ids as `$ref` (users, channels, messages) and DMs as `dm:<refs>`, for readable expectations."""

    def __init__(self, live: Any) -> None:
        world = live.world
        self.names = {v: "$" + k for k, v in world.refs.items()}
        for record in world[CHANNELS]:
            if record.get("is_im") or record.get("is_mpim"):
                members = sorted(self.names.get(m, m).lstrip("$") for m in record["members"])
                self.names[record["id"]] = "dm:" + "+".join(members)

    def __call__(self, value: Any) -> str:
        return self.names.get(value, value)

    def ts(self, value: str | None) -> str:
        if value is None:
            return "-"
        if value in self.names:
            return self.names[value]
        second, _, fraction = value.partition(".")
        n = int(fraction) // 100
        return f"@{int(second) - START}" + (f"/{n}" if n != 1 else "")


def line(event: dict[str, Any], name: Names) -> str:
    """One people event as a line: `@35 revealed $laura laura.workspace to $bot in @35`."""
    second = int(event["t"][11:13]) * 3600 + int(event["t"][14:16]) * 60 + int(event["t"][17:19]) - 14 * 3600
    at = f"@{second}"
    kind = event["kind"]
    if kind == "message":
        where = name(event["channel"]) + (f" thread {name.ts(event['thread_ts'])}" if event["thread_ts"] else "")
        to = ",".join(name(u) for u in event["to"]) or "nobody"
        facts = f" carries {','.join(event['facts'])}" if event["facts"] else ""
        agent = " (agent)" if event["from_agent"] else ""
        return (
            f"{at} message {name.ts(event['ts'])} {name(event['user'])}{agent} in {where} to {to}{facts}: "
            f"{event['text']}"
        )
    if kind == "asked":
        what = event["fact"] or event["decision"]
        return f"{at} asked {name(event['person'])} for {what} by {name(event['by'])} in {name.ts(event['ts'])}"
    if kind == "revealed":
        return f"{at} revealed {name(event['person'])} {event['fact']} to {name(event['to'])} in {name.ts(event['ts'])}"
    if kind == "withheld":
        return (
            f"{at} withheld {name(event['person'])} {event['fact']} to {name(event['to'])} ({event['reason']})"
            f" in {name.ts(event['ts'])}"
        )
    if kind == "referred":
        return (
            f"{at} referred {name(event['person'])} {event['fact']} to {name(event['to'])}: ask {name(event['owner'])}"
            f" in {name.ts(event['ts'])}"
        )
    if kind == "told":
        return f"{at} told {name(event['person'])} {event['fact']} in {name.ts(event['ts'])}"
    if kind == "knows":
        source = name(event["source"]) if event["source"] not in ("start", "agent") else event["source"]
        return f"{at} knows {name(event['person'])} {event['fact']} from {source} in {name.ts(event['ts'])}"
    if kind == "decided":
        return (
            f"{at} decided {name(event['person'])} {event['decision']} = {event['option']} by {name(event['by'])}"
            f" in {name.ts(event['ts'])}"
        )
    if kind == "script":
        return (
            f"{at} script {name(event['person'])} in {name(event['channel'])} ({event['trigger']}) "
            f"{name.ts(event['ts'])}: {event['text']}"
        )
    raise AssertionError(f"not a people event: {event}")


def story(live: Any, after: int = 0, kinds: tuple[str, ...] = PEOPLE_KINDS, start: bool = False) -> list[str]:
    """The people events of a live world after `seq`, one line each, ids named; what people knew from
    the start (`knows` events with source `start`) only when `start` is true."""
    name = Names(live)
    return [
        line(e, name) for e in live.events(after=after) if e["kind"] in kinds and (start or e.get("source") != "start")
    ]
