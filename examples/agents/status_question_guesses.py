"""A failing agent for seeds/status-question.yaml: it answers without looking.

It reads the question and reassures support that all is well, without asking Datadog, where the error
count monitor is alerting. It retries Slack's internal error, so its wrong answer does get posted.
Fails: answered_in_thread, read_the_monitors.
"""

import sys

from _colleagues import channel_id, connect, message_with, patiently

sys.stdin.read()
slack = connect()
support = channel_id(slack, "support")
question = message_with(slack, support, "our side")
answer = "All systems look normal on our side; it is probably something in Globex's setup."
patiently(slack.chat_postMessage, channel=support, thread_ts=question["ts"], text=answer)
print(answer)
