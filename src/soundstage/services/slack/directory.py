"""Who is in the workspace, as stored: the team, its users (Slackbot among them) and its user groups."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ...clock import US
from . import profiles
from .names import normalized

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
_TEAM_ICON_SIZES = (34, 44, 68, 88, 102, 132, 230)


# Slack's internal code of each plan, which team.info answers as `pay_prod_cur` (the product paid for).
PLAN_CODES = {"free": "", "pro": "std", "business_plus": "plus"}


def team(
    team_id: str,
    name: str,
    domain: str,
    *,
    plan: str = "free",
    locale: str = "en-US",
    custom_icon: bool = False,
    sso: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The team object team.info answers: on `plan` (PLAN_CODES), in `locale`, with an icon of its own
    uploaded (`custom_icon`, also served as uploaded: `image_original`) or Slack's default one, and the
    identity provider of its SAML single sign-on (`sso`: its `name` and `label`), if any."""
    if custom_icon:
        digest = hashlib.sha256(team_id.encode()).hexdigest()
        stem = f"https://avatars.slack-edge.com/{int(digest[:12], 16) % 10**12:012d}_{digest[12:32]}"
        icon: dict[str, Any] = {f"image_{n}": f"{stem}_{n}.png" for n in _TEAM_ICON_SIZES}
        icon.update(image_original=f"{stem}_original.png", image_default=False)
    else:
        icon = {
            f"image_{n}": f"https://a.slack-edge.com/80588/img/avatars-teams/ava_0001-{n}.png" for n in _TEAM_ICON_SIZES
        }
        icon["image_default"] = True
    found: dict[str, Any] = {
        "id": team_id,
        "name": name,
        "url": f"https://{domain}.slack.com/",
        "domain": domain,
        "email_domain": "",
        "icon": icon,
        "avatar_base_url": "https://ca.slack-edge.com/",
        "is_verified": False,
        "locale": locale,
        "pay_prod_cur": PLAN_CODES[plan],
        "lob_sales_home_enabled": False,
        "is_sfdc_auto_slack": False,
    }
    if sso is not None:
        found["sso_provider"] = {"type": "saml", "name": sso["name"], "label": sso["label"]}
    return found


def timezone_fields(tz: str, at_us: int) -> dict[str, Any]:
    """`tz`, `tz_label`, `tz_offset` (seconds) of a zone at a moment. Raises ValueError for an unknown zone."""
    try:
        zone = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {tz!r} (expected an IANA name such as Europe/Berlin)") from exc
    moment = datetime.fromtimestamp(at_us // US, UTC).astimezone(zone)
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
    pronouns: str = "",
    email: str | None = None,
    is_bot: bool = False,
    is_admin: bool = False,
    deleted: bool = False,
    zone: Mapping[str, Any],
    updated: int,
    bot_id: str | None = None,
    app_id: str | None = None,
    custom_image: bool = False,
    status: Mapping[str, Any] | None = None,
    start_date: str | None = None,
    guest_invited_by: str | None = None,
    single_channel: bool = False,
) -> dict[str, Any]:
    """A user as Slack stores them; `custom_image`: they uploaded a photo (when last `updated`), else they
    have Slack's default avatar; `status`: their custom status (`profiles.status`), if any; `start_date`: the
    day they started (YYYY-MM-DD), if their profile shows it; `guest_invited_by`: the user who invited them
    as a guest (none for a full member), a single-channel guest with `single_channel`."""
    digest = hashlib.sha256((email or user_id).encode()).hexdigest()
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
        **(status or profiles.no_status()),
        "status_text_canonical": "",
        "huddle_state": "default_unset",  # in no huddle (a world has none)
        "huddle_state_expiration_ts": 0,
        "first_name": first,
        "last_name": last,
    }
    if pronouns:  # Slack's profile has them only once the person has filled them in
        profile["pronouns"] = pronouns
    if start_date is not None:
        profile["start_date"] = start_date
    if guest_invited_by is not None:
        profile["guest_invited_by"] = guest_invited_by
    if email is not None:
        profile["email"] = email
    if bot_id is not None:
        profile["bot_id"] = bot_id
        profile["api_app_id"] = app_id or ""
        profile["always_active"] = True
    profile.update(profiles.photo(digest, updated) if custom_image else profiles.default_avatar(digest))
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
        "is_restricted": guest_invited_by is not None,  # a guest, of either kind
        "is_ultra_restricted": guest_invited_by is not None and single_channel,
        "is_bot": is_bot,
        "is_app_user": False,
        "updated": updated,
        **({"is_workflow_bot": False} if is_bot else {}),
        "is_email_confirmed": email is not None,
        "who_can_share_contact_card": "EVERYONE",
    }


def slackbot(team_id: str, zone: Mapping[str, Any], updated: int) -> dict[str, Any]:
    """Slack's own Slackbot user, present in every workspace (and, like in Slack, not `is_bot`)."""
    return user(SLACKBOT, team_id, "slackbot", real_name="Slackbot", zone=zone, updated=updated)


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
        # A group the workspace made itself: not synced from an identity provider, not an org's (Grid), not a
        # sidebar section; anyone may see it, and its members and settings are not locked.
        "is_idp_group": False,
        "is_org_level": False,
        "is_section": False,
        "is_visible": True,
        "is_membership_locked": False,
        "is_editing_restricted": False,
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
