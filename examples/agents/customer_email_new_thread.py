"""A careless agent for seeds/customer-email-reply.yaml: it writes Northwind a new email rather than answering
in the thread, forgets Laura, and sends a second one to correct itself."""

import base64
import os
import sys
from email.message import EmailMessage

from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build

gmail = build(
    "gmail",
    "v1",
    credentials=Credentials(os.environ["GOOGLE_OAUTH_TOKEN"]),
    client_options={"api_endpoint": os.environ["GMAIL_API_URL"]},
    static_discovery=True,
)
sys.stdin.read()

for text in ("We are investigating the timeouts.", "Update within the hour, promised."):
    message = EmailMessage()
    message["To"] = "ops@northwind.example"
    message["Subject"] = "Order timeouts"
    message.set_content(text)
    raw = base64.urlsafe_b64encode(message.as_bytes()).decode()
    gmail.users().messages().send(userId="me", body={"raw": raw}).execute()
