"""Webhooks: a game's or a player's HTTPS endpoints told of turns, endings and presence.

model.py (what a webhook is), notifications.py (what a save tells them, as queue entries),
signing.py (Standard Webhooks signatures), addresses.py (the SSRF guard), sender.py (one POST),
delivery.py (the worker that drains the durable queue, with retries).
"""
