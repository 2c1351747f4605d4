"""A scripted agent for seeds/training-reminders.yaml: no model, only slack_sdk and the standard library's
time zones.

For each attendee it reads the time zone in their Slack profile (tz, an IANA name), works out 09:00 on
Tuesday there and the training's time there, and schedules the reminder DM for that moment.
"""

import sys
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from _colleagues import connect, find_user

TRAINING = datetime(2026, 3, 4, 16, 0, tzinfo=UTC)
ATTENDEES = ["kenji", "maya", "omar"]

client = connect()
sys.stdin.read()
scheduled = []
for name in ATTENDEES:
    user = client.users_info(user=find_user(client, name=name))["user"]
    zone = ZoneInfo(user["tz"])
    post_at = datetime(2026, 3, 3, 9, 0, tzinfo=zone)
    local = TRAINING.astimezone(zone)
    first_name = user["real_name"].split()[0]
    client.chat_scheduleMessage(
        channel=user["id"],
        post_at=int(post_at.timestamp()),
        text=f"Good morning {first_name}! Reminder: the security training is on {local:%A} at {local:%H:%M} "
        f"your time ({TRAINING:%H:%M} UTC on {TRAINING:%A}).",
    )
    scheduled.append(f"{first_name}: {post_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC")
print("\n".join(scheduled))
