"""The JSON API (``/api/v1/``): read ladders, bots, versions and matches; upload with a token."""
