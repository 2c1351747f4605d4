"""A scripted agent for seeds/customer-email-reply.yaml: no model, only google-api-python-client. It finds
Northwind's email, answers it in its thread (threadId, In-Reply-To, References) and copies Laura."""

import base64
import sys
from email.message import EmailMessage

from _google import gmail_client

gmail = gmail_client()
sys.stdin.read()

found = gmail.users().messages().list(userId="me", q="from:ops@northwind.example timeouts").execute()
original = gmail.users().messages().get(userId="me", id=found["messages"][0]["id"], format="metadata").execute()
headers = {h["name"]: h["value"] for h in original["payload"]["headers"]}

reply = EmailMessage()
reply["To"] = "ops@northwind.example"
reply["Cc"] = "laura@acme.test"
reply["Subject"] = "Re: " + headers["Subject"]
reply["In-Reply-To"] = headers["Message-ID"]
reply["References"] = headers["Message-ID"]
reply.set_content("We are investigating the timeouts now and will send you an update within the hour.\n\nMaya")
raw = base64.urlsafe_b64encode(reply.as_bytes()).decode()
sent = gmail.users().messages().send(userId="me", body={"raw": raw, "threadId": original["threadId"]}).execute()
print(sent["id"])
