"""Building the `slack:` sections of a world definition and a scene into a world image.

`assign` (pass 1, every file) gives each record its id: the team `T…`, users `U…`, channels `C…`, DMs `D…`, group DMs
`G…` and messages their `ts`. Messages without `ago` or `ts` are posted in file order, one minute apart, ending one
minute before the clock start. `build` (pass 2) adds the records (`seed_directory`, `seed_messages`), resolving refs and
rejecting anything Slack could not hold (a member that is not a user, a reply in another channel...).
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from . import seed_directory, seed_messages
from .models import SlackSection, Team
from .store import BOOKMARKS, CHANNELS, MESSAGES, TEAMS, USERGROUPS, USERS
from .timestamps import seconds, ts_us

MINUTE = 60 * US
_TS = re.compile(r"\d{10}\.\d{6}")

# Ids given out by `assign` for `build` to use, per build and per list of records (file, section path, list):
# the id of each record by its index (a list, not a key per record: a world may give 100,000 messages).
_assigned: WeakKeyDictionary[BuildContext, dict[tuple[Any, ...], list[str]]] = WeakKeyDictionary()


def _ids(ctx: BuildContext, kind: str, count: int = 0) -> list[str]:
    """The ids of the records of the section's list `kind`; `assign` makes room for `count` of them."""
    return _assigned.setdefault(ctx, {}).setdefault((ctx.file, ctx.here, kind), [""] * count)


def _team_settings(ctx: BuildContext, team_id: str, team: Team) -> None:
    domain = team.domain or re.sub(r"[^a-z0-9-]", "", team.name.lower()) or "workspace"
    if team.sso is not None and team.plan != "business_plus":
        raise ctx.error(f"single sign-on needs the business_plus plan, not {team.plan}", "team", "sso")
    ctx.settings["slack"] = {
        "team_id": team_id,
        "domain": domain,
        "name": team.name,
        "plan": team.plan,
        "locale": team.locale,
        "custom_icon": team.custom_icon,
        "sso": None if team.sso is None else {"name": team.sso.name, "label": team.sso.label},
    }


# -- pass 1 ------------------------------------------------------------------------------------------


def assign(section: Any, ctx: BuildContext) -> None:
    slack = ctx.parsed(SlackSection, section)
    if slack.team is not None:
        ctx.attempt(partial(_assign_team, ctx, slack.team))
    lists: list[tuple[str, str, str, list[Any]]] = [
        ("users", "U", USERS, slack.users),
        ("channels", "C", CHANNELS, slack.channels),
        ("dms", "D", CHANNELS, slack.dms),
        ("group_dms", "G", CHANNELS, slack.group_dms),
        ("usergroups", "S", USERGROUPS, slack.usergroups),
        ("bookmarks", "Bk", BOOKMARKS, slack.bookmarks),
    ]
    for kind, prefix, collection, records in lists:
        given = _ids(ctx, kind, len(records))
        for i, record in enumerate(records):
            given[i] = record.id or ctx.ids.slack(prefix)
            ctx.attempt(partial(ctx.define, record.ref, given[i], collection, kind, i))
    # Messages with their own `ts` first, so that no `ts` made for another message can be the same.
    stamps = _ids(ctx, "messages", len(slack.messages))
    for i, message in enumerate(slack.messages):
        if message.ts is not None:
            ctx.attempt(partial(_given_ts, ctx, message, i, stamps))
    undated = [i for i, m in enumerate(slack.messages) if m.ago is None and m.ts is None]
    at = {i: ctx.start - (len(undated) - k) * MINUTE for k, i in enumerate(undated)}
    for i, message in enumerate(slack.messages):
        if message.ts is None:
            when = at[i] if message.ago is None else ctx.start - parse_duration(message.ago)
            stamps[i] = seed_messages.seed_ts(ctx, when)
        ctx.attempt(partial(ctx.define, message.ref, stamps[i], MESSAGES, "messages", i))


def _assign_team(ctx: BuildContext, team: Team) -> None:
    if "slack" in ctx.settings:
        raise ctx.error("the Slack team is already defined (a world has one team)", "team")
    team_id = team.id or ctx.ids.slack("T")
    _team_settings(ctx, team_id, team)
    ctx.define(team.ref, team_id, TEAMS, "team")


def _given_ts(ctx: BuildContext, message: Any, i: int, stamps: list[str]) -> None:
    """A message's own `ts`, checked, into `stamps`; the second's counter moves past it, so `ts`s made later are
    newer."""
    ts = message.ts
    if message.ago is not None:
        raise ctx.error("give a message either `ts` or `ago`", "messages", i, "ts")
    if not _TS.fullmatch(ts):
        raise ctx.error(f"{ts!r} is not a Slack ts (epoch seconds, a dot and 6 digits)", "messages", i, "ts")
    if ts_us(ts) >= ctx.start:
        raise ctx.error("a message's ts must be before the clock start", "messages", i, "ts")
    second, _, fraction = ts.partition(".")
    while seed_messages.count_ts(ctx, int(second)) * 100 < int(fraction):
        pass
    stamps[i] = ts


# -- pass 2 ------------------------------------------------------------------------------------------


def build(section: Any, ctx: BuildContext) -> None:
    """Each record built on its own (`BuildContext.attempt`): one with a problem is left out, the others built."""
    slack = ctx.parsed(SlackSection, section)
    if "slack" not in ctx.settings:
        _team_settings(ctx, ctx.ids.slack("T"), Team())
    team_id = ctx.settings["slack"]["team_id"]
    start = seconds(ctx.start)
    seed_directory.build_team(ctx, team_id, start)
    user_ids = _ids(ctx, "users")
    for i, user in enumerate(slack.users):
        ctx.attempt(partial(seed_directory.build_user, ctx, user_ids[i], user, i, team_id, start), user_ids[i])
    for i, user in enumerate(slack.users):
        ctx.attempt(partial(seed_directory.check_guest, ctx, user, user_ids[i], i), user_ids[i])
    _each(ctx, "channels", slack.channels, seed_directory.build_channel, team_id, start)
    _each(ctx, "dms", slack.dms, seed_directory.build_dm, team_id, start)
    _each(ctx, "group_dms", slack.group_dms, seed_directory.build_group_dm, team_id, start)
    stamps = _ids(ctx, "messages")
    posters: seed_messages.Posters = {}
    for i, message in enumerate(slack.messages):
        ctx.attempt(partial(seed_messages.build_message, ctx, stamps[i], message, i, team_id, posters), stamps[i])
    for i, message in enumerate(slack.messages):
        ctx.attempt(partial(seed_messages.link_message, ctx, stamps[i], message, i), stamps[i])
    seed_messages.finish_messages(ctx)
    _each(ctx, "usergroups", slack.usergroups, seed_directory.build_usergroup, team_id, start)
    _each(ctx, "bookmarks", slack.bookmarks, seed_directory.build_bookmark, team_id, start)


def _each(ctx: BuildContext, kind: str, records: list[Any], build_one: Any, team_id: str, start: int) -> None:
    """Builds each record of the section's list `kind` with `build_one(ctx, id, record, i, team_id, start)`."""
    ids = _ids(ctx, kind)
    for i, record in enumerate(records):
        ctx.attempt(partial(build_one, ctx, ids[i], record, i, team_id, start), ids[i])
