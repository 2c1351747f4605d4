"""A failing agent for seeds/customer-email-draft.yaml: it never asks Omar.

It drafts the reply in Northwind's thread at once, with a date of its own ("early next week"), so the
draft is unsent and in the right place but carries a guess, not the fix's date.
Fails: learned_the_date, drafted_in_thread, asked_before_drafting.
"""

import sys

from _clients import gmail_http
from _draft_reply import draft, latest_from_northwind, reply_to

gmail = gmail_http()
sys.stdin.read()
question = latest_from_northwind(gmail)
body = "Hello Northwind team,\n\nWe expect the fix for the order timeouts early next week.\n\nBest,\nLaura"
print(draft(gmail, reply_to(question, body))["id"])
