"""gunicorn's settings for the site (``gunicorn -c python:config.gunicorn config.wsgi``).

Threaded workers: a spectator's live stream (:mod:`matches.live`) waits in a thread for up to
half a minute, so a sync worker would be pinned by one spectator. ``NIMMT_WEB_THREADS``
threads per worker hold that many streams and pages at once; many, since the workers do not
share the streams out evenly (each takes the connections it can, and a connection beyond its
threads waits for one) and a waiting stream costs little (no database connection; the
streams of one match share their reads). ``NIMMT_WEB_WORKERS`` processes, as before.

``forwarded_allow_ips``: the proxies whose ``X-Forwarded-*`` headers gunicorn believes are the
site's own ``NIMMT_TRUSTED_PROXIES`` (nobody when that is empty), never everyone.
"""

from config.env import env_int, trusted_proxies

workers = env_int("NIMMT_WEB_WORKERS", 3, minimum=1)
worker_class = "gthread"
threads = env_int("NIMMT_WEB_THREADS", 100, minimum=1)
# An empty string is "nobody" (gunicorn's own default would be loopback).
forwarded_allow_ips = ",".join(str(network) for network in trusted_proxies())
