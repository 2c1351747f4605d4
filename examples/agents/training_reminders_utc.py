"""A failing agent for seeds/training-reminders.yaml: it schedules everyone on UTC.

It schedules the three DMs for 09:00 UTC and gives the training's time in UTC, never reading anyone's
time zone: right for London, 09:00 at night in Tokyo and 01:00 in the morning in Los Angeles.
Fails: kenji_at_9_in_tokyo, maya_at_9_in_los_angeles, kenji_told_his_time, maya_told_her_time.
"""

import sys
from datetime import UTC, datetime

from _colleagues import connect, find_user

client = connect()
sys.stdin.read()
post_at = int(datetime(2026, 3, 3, 9, 0, tzinfo=UTC).timestamp())
for name in ["kenji", "maya", "omar"]:
    client.chat_scheduleMessage(
        channel=find_user(client, name=name),
        post_at=post_at,
        text=f"Good morning {name.capitalize()}! Reminder: the security training is on Wednesday at 16:00 UTC.",
    )
print("Scheduled all three for 2026-03-03 09:00 UTC.")
