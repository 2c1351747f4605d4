"""Slack's own objects, as stored in the world's collections and built by both the seed and the store.

Every record has the fields the official schema marks required, in Slack's formats: `ts` strings of epoch
seconds and 6 digits, integer epoch seconds elsewhere. Two fields are ours and never rendered: a
conversation's `members` (user ids) and a message's `channel`. Records are never changed in place and a
change cannot drop a key, so a message field that no longer applies is set to None and not rendered.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ...clock import US
from ...ids import IdSource

Record = Mapping[str, Any]

SLACKBOT = "USLACKBOT"

# Slack labels time zones with long names; zoneinfo only knows abbreviations.
_TZ_LABELS = {
    "PST": "Pacific Standard Time",
    "PDT": "Pacific Daylight Time",
    "MST": "Mountain Standard Time",
    "MDT": "Mountain Daylight Time",
    "CST": "Central Standard Time",
    "CDT": "Central Daylight Time",
    "EST": "Eastern Standard Time",
    "EDT": "Eastern Daylight Time",
    "GMT": "Greenwich Mean Time",
    "UTC": "Coordinated Universal Time",
    "BST": "British Summer Time",
    "CET": "Central European Time",
    "CEST": "Central European Summer Time",
    "EET": "Eastern European Time",
    "EEST": "Eastern European Summer Time",
    "IST": "India Standard Time",
    "JST": "Japan Standard Time",
    "AEST": "Australian Eastern Standard Time",
    "AEDT": "Australian Eastern Daylight Time",
}
EMOJI = re.compile(r"[a-z0-9_+'\-]+(::skin-tone-[2-6])?")
_CHANNEL_NAME = re.compile(r"[\w\-]+")
THREAD_FIELDS = ("thread_ts", "reply_count", "reply_users_count", "latest_reply", "reply_users", "is_locked")
_AVATAR_SIZES = (24, 32, 48, 72, 192, 512)
_TEAM_ICON_SIZES = (34, 44, 68, 88, 102, 132, 230)


def channel_name_error(name: str) -> str | None:
    """Slack's error code for an invalid channel name, or None when the name is valid."""
    if len(name) > 80:
        return "invalid_name_maxlength"
    if not _CHANNEL_NAME.fullmatch(name) or name != name.lower():
        return "invalid_name_specials"
    if not re.search(r"[^\W_]", name):
        return "invalid_name_punctuation"
    return None


def seconds(us: int) -> int:
    return us // US


def make_ts(ids: IdSource, us: int) -> str:
    """A new message `ts` at `us`: the second, then a per-second counter times 100 (unique, increasing)."""
    second = us // US
    return f"{second}.{ids.next(f'slack:ts:{second}') * 100:06d}"


def ts_us(ts: str) -> int:
    """A well-formed `ts` string to epoch microseconds (for ordering and comparing with `oldest`/`latest`)."""
    second, _, fraction = ts.partition(".")
    return int(second) * US + int((fraction + "000000")[:6])


def normalized(text: str) -> str:
    """Slack's `*_normalized` names: accents dropped."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def team(team_id: str, name: str, domain: str) -> dict[str, Any]:
    icon: dict[str, Any] = {
        f"image_{n}": f"https://a.slack-edge.com/80588/img/avatars-teams/ava_0001-{n}.png" for n in _TEAM_ICON_SIZES
    }
    icon["image_default"] = True
    return {
        "id": team_id,
        "name": name,
        "url": f"https://{domain}.slack.com/",
        "domain": domain,
        "email_domain": "",
        "icon": icon,
        "avatar_base_url": "https://ca.slack-edge.com/",
        "is_verified": False,
    }


def timezone_fields(tz: str, at_us: int) -> dict[str, Any]:
    """`tz`, `tz_label`, `tz_offset` (seconds) of a zone at a moment. Raises ValueError for an unknown zone."""
    try:
        zone = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {tz!r} (expected an IANA name such as Europe/Berlin)") from exc
    moment = datetime.fromtimestamp(at_us // US, timezone.utc).astimezone(zone)
    offset = moment.utcoffset()
    abbreviation = moment.tzname() or tz
    return {
        "tz": tz,
        "tz_label": _TZ_LABELS.get(abbreviation, abbreviation),
        "tz_offset": int(offset.total_seconds()) if offset is not None else 0,
    }


def user(
    user_id: str,
    team_id: str,
    name: str,
    *,
    real_name: str,
    display_name: str = "",
    title: str = "",
    email: str | None = None,
    is_bot: bool = False,
    is_admin: bool = False,
    deleted: bool = False,
    zone: Mapping[str, Any],
    updated: int,
    bot_id: str | None = None,
    app_id: str | None = None,
) -> dict[str, Any]:
    digest = _hash(email or user_id)
    first, _, last = real_name.partition(" ")
    profile: dict[str, Any] = {
        "title": title,
        "phone": "",
        "skype": "",
        "real_name": real_name,
        "real_name_normalized": normalized(real_name),
        "display_name": display_name,
        "display_name_normalized": normalized(display_name),
        "fields": {},
        "status_text": "",
        "status_emoji": "",
        "status_emoji_display_info": [],
        "status_expiration": 0,
        "avatar_hash": "g" + digest[:11],
        "first_name": first,
        "last_name": last,
    }
    if email is not None:
        profile["email"] = email
    if bot_id is not None:
        profile["bot_id"] = bot_id
        profile["api_app_id"] = app_id or ""
        profile["always_active"] = True
    for n in _AVATAR_SIZES:
        profile[f"image_{n}"] = f"https://secure.gravatar.com/avatar/{digest[:32]}.jpg?s={n}&d=mm"
    profile["team"] = team_id
    return {
        "id": user_id,
        "team_id": team_id,
        "name": name,
        "deleted": deleted,
        "color": digest[-6:],
        "real_name": real_name,
        **zone,
        "profile": profile,
        "is_admin": is_admin,
        "is_owner": False,
        "is_primary_owner": False,
        "is_restricted": False,
        "is_ultra_restricted": False,
        "is_bot": is_bot,
        "is_app_user": False,
        "updated": updated,
        "is_email_confirmed": email is not None,
        "who_can_share_contact_card": "EVERYONE",
    }


def slackbot(team_id: str, zone: Mapping[str, Any], updated: int) -> dict[str, Any]:
    """Slack's own Slackbot user, present in every workspace (and, like in Slack, not `is_bot`)."""
    return user(SLACKBOT, team_id, "slackbot", real_name="Slackbot", zone=zone, updated=updated)


def topic(value: str, creator: str, at: int) -> dict[str, Any]:
    """A conversation's `topic` or `purpose`."""
    return {"value": value, "creator": creator if value else "", "last_set": at if value else 0}


def channel(
    channel_id: str,
    team_id: str,
    name: str,
    *,
    creator: str,
    created: int,
    members: Iterable[str],
    is_private: bool = False,
    is_archived: bool = False,
    is_mpim: bool = False,
    topic_value: str = "",
    purpose_value: str = "",
) -> dict[str, Any]:
    return {
        "id": channel_id,
        "name": name,
        "is_channel": not (is_private or is_mpim),
        "is_group": False,
        "is_im": False,
        "is_mpim": is_mpim,
        "is_private": is_private or is_mpim,
        "created": created,
        "is_archived": is_archived,
        "is_general": name == "general" and not is_mpim,
        "unlinked": 0,
        "name_normalized": normalized(name),
        "is_shared": False,
        "is_org_shared": False,
        "is_pending_ext_shared": False,
        "pending_shared": [],
        "context_team_id": team_id,
        "parent_conversation": None,
        "creator": creator,
        "is_ext_shared": False,
        "shared_team_ids": [team_id],
        "pending_connected_team_ids": [],
        "topic": topic(topic_value, creator, created),
        "purpose": topic(purpose_value, creator, created),
        "previous_names": [],
        "members": list(members),
    }


def im(dm_id: str, team_id: str, opener: str, other: str, created: int) -> dict[str, Any]:
    """A direct message conversation between `opener` and `other` (the same user for a self-DM)."""
    return {
        "id": dm_id,
        "created": created,
        "is_archived": False,
        "is_im": True,
        "is_org_shared": False,
        "context_team_id": team_id,
        "user": other,
        "is_user_deleted": False,
        "priority": 0,
        "members": [opener] if opener == other else [opener, other],
    }


def bot_profile(bot: Record, team_id: str) -> dict[str, Any]:
    image = bot["profile"]["image_72"]
    return {
        "id": bot["profile"]["bot_id"],
        "deleted": bot["deleted"],
        "name": bot["name"],
        "updated": bot["updated"],
        "app_id": bot["profile"]["api_app_id"],
        "icons": {"image_36": image, "image_48": image, "image_72": image},
        "team_id": team_id,
    }


def message(
    ts: str,
    channel_id: str,
    author: Record,
    text: str,
    team_id: str,
    *,
    thread_ts: str | None = None,
    parent_user: str | None = None,
    subtype: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    record: dict[str, Any] = {"type": "message"}
    if subtype:
        record["subtype"] = subtype
    record.update({"user": author["id"], "text": text, "ts": ts, "team": team_id})
    if "bot_id" in author["profile"]:
        record["bot_id"] = author["profile"]["bot_id"]
        record["app_id"] = author["profile"]["api_app_id"]
        record["bot_profile"] = bot_profile(author, team_id)
    if thread_ts is not None:
        record["thread_ts"] = thread_ts
        if parent_user is not None:
            record["parent_user_id"] = parent_user
    if extra:
        record.update(extra)
    record["channel"] = channel_id
    return record


def thread_summary(parent_ts: str, replies: Iterable[Record]) -> dict[str, Any]:
    """The fields a thread's parent carries about its replies; all None (not rendered) when none are left."""
    users: dict[str, None] = {}
    count = 0
    latest = None
    for reply in replies:
        count += 1
        users.setdefault(reply["user"], None)
        latest = reply["ts"]
    if not count:
        return dict.fromkeys(THREAD_FIELDS)
    return {
        "thread_ts": parent_ts,
        "reply_count": count,
        "reply_users_count": len(users),
        "latest_reply": latest,
        "reply_users": list(users),
        "is_locked": False,
    }


def reactions(by_name: Mapping[str, list[str]]) -> list[dict[str, Any]]:
    return [{"name": name, "users": list(users), "count": len(users)} for name, users in by_name.items() if users]


def permalink(domain: str, record: Record) -> str:
    channel_id, ts = record["channel"], record["ts"]
    link = f"https://{domain}.slack.com/archives/{channel_id}/p{ts.replace('.', '')}"
    thread_ts = record.get("thread_ts")
    if thread_ts and thread_ts != ts:
        link += f"?thread_ts={thread_ts}&cid={channel_id}"
    return link


def usergroup(
    group_id: str,
    team_id: str,
    name: str,
    handle: str,
    *,
    description: str,
    users: list[str],
    channels: list[str],
    created_by: str,
    created: int,
    disabled: bool,
) -> dict[str, Any]:
    return {
        "id": group_id,
        "team_id": team_id,
        "is_usergroup": True,
        "is_subteam": True,
        "name": name,
        "description": description,
        "handle": handle,
        "is_external": False,
        "date_create": created,
        "date_update": created,
        "date_delete": created if disabled else 0,
        "auto_type": None,
        "auto_provision": False,
        "enterprise_subteam_id": "",
        "created_by": created_by,
        "updated_by": created_by,
        "deleted_by": created_by if disabled else None,
        "prefs": {"channels": channels, "groups": []},
        "users": users,
        "user_count": len(users),
        "channel_count": len(channels),
    }


def bookmark(
    bookmark_id: str,
    channel_id: str,
    title: str,
    link: str,
    emoji: str | None,
    by: str,
    team_id: str,
    created: int,
    rank: str,
) -> dict[str, Any]:
    return {
        "id": bookmark_id,
        "channel_id": channel_id,
        "title": title,
        "link": link,
        "emoji": emoji,
        "icon_url": None,
        "type": "link",
        "entity_id": None,
        "date_created": created,
        "date_updated": 0,
        "rank": rank,
        "last_updated_by_user_id": by,
        "last_updated_by_team_id": team_id,
        "shortcut_id": None,
        "app_id": None,
    }
