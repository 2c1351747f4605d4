"""Scripted people: Slack users the engine speaks for, who reveal what they know only when asked."""
