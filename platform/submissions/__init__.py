"""Bots and their versions: upload, safe unpacking, validation in the sandbox, active version."""
