"""Users (`datadog.users`, keyed by UUID): their records, as the seed writes them.

A record has the v2 User attributes `id`, `handle` (the email unless given), `email`, `name`, `title`,
`status` (`Active`, `Pending`, `Disabled`), `disabled`, `verified`, `service_account`, `mfa_enabled`, and
`created_at`/`modified_at` (epoch microseconds), and `legacy_id`: the integer id v1 objects show (a
monitor's `creator.id`). Other records name users by UUID (`creator`, `author`,
`commander`, `created_by`, `last_modified_by`). Every user belongs to the world's one organization
(`account`).
"""

from __future__ import annotations

from typing import Any


def user(
    user_id: str,
    legacy_id: int,
    email: str,
    at: int,
    handle: str | None = None,
    name: str | None = None,
    title: str | None = None,
    status: str | None = None,
    disabled: bool = False,
    verified: bool = True,
    service_account: bool = False,
    mfa_enabled: bool = False,
) -> dict[str, Any]:
    return {
        "id": user_id,
        "legacy_id": legacy_id,
        "handle": handle or email,
        "email": email,
        "name": name,
        "title": title,
        "status": status or ("Disabled" if disabled else "Active"),
        "disabled": disabled,
        "verified": verified,
        "service_account": service_account,
        "mfa_enabled": mfa_enabled,
        "created_at": at,
        "modified_at": at,
    }
