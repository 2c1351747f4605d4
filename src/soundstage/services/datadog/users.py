"""Users (`datadog.users`, keyed by UUID): their records, as the seed writes them.

A record has the v2 User attributes `id`, `handle` (the email unless given), `email`, `name`, `title`,
`status` (`Active`, `Pending`, `Disabled`), `disabled`, `verified`, `service_account`, `mfa_enabled`, and
`created_at`/`modified_at` (epoch microseconds), and `legacy_id`: the integer id v1 objects show (a
monitor's `creator.id`). Other records name users by UUID (`creator`, `author`,
`commander`, `created_by`, `last_modified_by`). Every user belongs to the world's one organization.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from ...world import World


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


def org_id(world: World) -> str:
    """The UUID of the world's organization: made from the seed, so it is the same in every copy of the world
    without drawing on the id counters."""
    digest = hashlib.sha256(f"{world.ids.seed}\x00datadog:org".encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))
