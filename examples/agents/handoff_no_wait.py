"""A failing agent for seeds/handoff-wait.yaml: it does not wait for the one person who knows.

It asks Omar, polls for three simulated minutes, and when no answer has come posts the handoff anyway,
telling Priya to check with Omar herself.
Fails: learned_the_status, handoff_carries_the_status, priya_told, waited_for_omar, handoff_within_45m.
"""

import sys

from _colleagues import ask, channel_id, connect, find_user

client = connect()
sys.stdin.read()
omar = find_user(client, name="omar")
priya = find_user(client, name="priya")

# ask() gives up after a few polls: three minutes, against Omar's half hour.
answer = ask(client, omar, "Hi Omar, what is the status of the search reindex on batch-2?")
status = answer or f"no answer from <@{omar}> yet, please check with him"
handoff = f"<@{priya}> Evening handoff. Search reindex: {status}"
client.chat_postMessage(channel=channel_id(client, "engineering"), text=handoff)
print(handoff)
