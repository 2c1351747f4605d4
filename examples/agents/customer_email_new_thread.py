"""A careless agent for seeds/customer-email-reply.yaml: it writes Northwind a new email rather than answering
in the thread, forgets Laura, and sends a second one to correct itself."""

import base64
import sys
from email.message import EmailMessage

from _google import gmail_client

gmail = gmail_client()
sys.stdin.read()

for text in ("We are investigating the timeouts.", "Update within the hour, promised."):
    message = EmailMessage()
    message["To"] = "ops@northwind.example"
    message["Subject"] = "Order timeouts"
    message.set_content(text)
    raw = base64.urlsafe_b64encode(message.as_bytes()).decode()
    gmail.users().messages().send(userId="me", body={"raw": raw}).execute()
