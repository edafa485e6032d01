"""Settings of the Nimmt Arena site, read from ``NIMMT_*`` environment variables.

With no variable set except ``NIMMT_DEBUG=true`` the site runs as a demo that needs no server:
SQLite and a folder-based Celery broker under ``platform/var/``. Production sets
``NIMMT_DATABASE_URL=postgres://...``, ``NIMMT_BROKER_URL=redis://...``, ``NIMMT_SECRET_KEY``
and ``NIMMT_ALLOWED_HOSTS``; then ``manage.py check --deploy`` is clean. Every value is parsed
strictly by :mod:`config.env`: a bad one stops start-up with an error naming the variable.
"""

from datetime import timedelta
from pathlib import Path

import django_stubs_ext
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    broker_from_url,
    cache_from_url,
    database_from_url,
    email_from_url,
    env_bool,
    env_float,
    env_int,
    env_list,
    env_path,
    env_rate,
    env_source,
    env_str,
    redis_from_url,
    trusted_proxies,
)
from config.object_store import object_store

django_stubs_ext.monkeypatch()  # ModelAdmin[Bot] and friends at run time, for the type hints

BASE_DIR = Path(__file__).resolve().parent.parent  # platform/
REPO_DIR = BASE_DIR.parent
VAR_DIR = env_path("NIMMT_VAR_DIR", BASE_DIR / "var")  # demo database, broker folders

# ---------------------------------------------------------------------------- core

DEBUG = env_bool("NIMMT_DEBUG", False)
SECRET_KEY = env_str("NIMMT_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("NIMMT_SECRET_KEY must be set unless NIMMT_DEBUG=true")
    SECRET_KEY = "django-insecure-nimmt-arena-demo-only-never-use-this-key-in-production"

ALLOWED_HOSTS = env_list("NIMMT_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("NIMMT_CSRF_TRUSTED_ORIGINS", [])
SITE_NAME = env_str("NIMMT_SITE_NAME", "Nimmt Arena")
# Where bot authors clone the project from (the "Write a bot" page); the demo (NIMMT_DEBUG)
# names its own clone.
SOURCE_URL = env_source(
    "NIMMT_SOURCE_URL", str(REPO_DIR) if DEBUG and (REPO_DIR / ".git").exists() else ""
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "django_ratelimit",
    "core",
    "accounts",
    "submissions",
    "ladders",
    "matches",
    "versiontests",
    "tournaments",
    "tables",
    "challenges",
    "matchups",
    "seasons",
    "notifications",
    "api",
    "guide",
    "remote",
    "demo",
]

MIDDLEWARE = [
    # X-Forwarded-* only from TRUSTED_PROXIES: before anything reads them
    "accounts.throttle.ForwardedHeaders",
    # /healthz and /metrics, for load balancers and Prometheus on internal addresses: before
    # the host check and the HTTPS redirect (core.operations).
    "core.operations.OperationsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tables.guests.GuestsOnlyPlay",  # a guest's forms go to its tables only
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last: it answers a locked-out log-in
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.site",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url("NIMMT_DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
}
DATABASES["default"]["CONN_MAX_AGE"] = env_int("NIMMT_DATABASE_CONN_MAX_AGE", 0, minimum=0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out log-in before the rest
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-bots"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env_path("NIMMT_STATIC_ROOT", VAR_DIR / "static")

# ---------------------------------------------------------------------------- security
# Production (NIMMT_DEBUG=false) is strict by default; each switch can be turned off for a
# deployment that terminates TLS elsewhere and knows what it does.

SECURE_SSL_REDIRECT = env_bool("NIMMT_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("NIMMT_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("NIMMT_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("NIMMT_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("NIMMT_HSTS_PRELOAD", not DEBUG)
BEHIND_TLS_PROXY = env_bool("NIMMT_BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    # Only behind a proxy that sets this header itself (and strips it from clients).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"  # in the site's layout
# Every script and style is a file of the site's own (no inline code, no style attributes).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# The client's address, for log-in lockout, sign-up and table limits: REMOTE_ADDR, or, when
# REMOTE_ADDR is one of these proxies, the nearest X-Forwarded-For entry that is not one of them
# (accounts.throttle). X-Forwarded-* headers from anybody else are dropped on arrival.
TRUSTED_PROXIES = trusted_proxies()

# ---------------------------------------------------------------------------- the arena

DATA_DIR = env_path("NIMMT_DATA_DIR", VAR_DIR / "data")  # staging; kept files (see STORAGES)
# Bot archives, replays and logs are kept in the storage "arena" (core.storage): the data folder,
# or an S3-compatible object store when NIMMT_S3_BUCKET is set (config.object_store).
# Each machine unpacks the bot versions it plays into its own cache.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "arena": object_store() or {"BACKEND": "core.storage.DataFolderStorage"},
}
CACHE_DIR = env_path("NIMMT_CACHE_DIR", DATA_DIR / "cache")
METRICS_TOKEN = env_str("NIMMT_METRICS_TOKEN", "")  # /metrics asks for it when set
HOUSE_BOTS_DIR = env_path("NIMMT_HOUSE_BOTS_DIR", REPO_DIR / "bots")
SEEDS_DIR = env_path("NIMMT_SEEDS_DIR", REPO_DIR / "seeds")

MAX_UPLOAD_BYTES = env_int("NIMMT_MAX_UPLOAD_BYTES", 2 * 1024 * 1024, minimum=1024)
UNPACK_MAX_BYTES = env_int("NIMMT_UNPACK_MAX_BYTES", 20 * 1024 * 1024, minimum=1024)
UNPACK_MAX_FILES = env_int("NIMMT_UNPACK_MAX_FILES", 500, minimum=1)
FILE_UPLOAD_MAX_MEMORY_SIZE = 512 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES + 64 * 1024

# A worker holds a match for this long and renews the hold every third of it; a match whose
# holder stopped renewing (a killed worker) is played again by whoever claims it next.
MATCH_LEASE_SECONDS = env_int("NIMMT_MATCH_LEASE_SECONDS", 60, minimum=3)
VALIDATION_LEASE_SECONDS = env_int("NIMMT_VALIDATION_LEASE_SECONDS", 60, minimum=3)
# An owner's versions pending or validating at once; more wait their turn (submissions.turns)
VALIDATION_PER_OWNER = env_int("NIMMT_VALIDATION_PER_OWNER", 1, minimum=1)
# Work whose message was lost (a broker restart, a send while it was down) is sent again this
# long after its last sending, at the sweep after: lost work waits at most 45 + 15 = 60 s
# (core.celery.resend_stale). Work whose worker died is sent again as soon as its lease ends.
REQUEUE_AFTER_SECONDS = env_int("NIMMT_REQUEUE_AFTER_SECONDS", 45, minimum=1)
SWEEP_INTERVAL_SECONDS = env_float("NIMMT_SWEEP_INTERVAL_SECONDS", 15.0, minimum=0.5)
# A match that found a disk of the arena's full waits this long before it is tried again (the
# attempt not counted: core.disks).
DISK_FULL_RETRY_SECONDS = env_float("NIMMT_DISK_FULL_RETRY_SECONDS", 30.0, minimum=0.5)
# A match is stopped past its own bound (matches.bounds.time_bound: starts, games, decisions,
# allowance and bank) plus this margin; a cap (seconds, 0: none) may shorten every bound.
MATCH_TIME_MARGIN_SECONDS = env_float("NIMMT_MATCH_TIME_MARGIN_SECONDS", 60.0, minimum=0.0)
MATCH_TIME_CAP_SECONDS = env_float("NIMMT_MATCH_TIME_CAP_SECONDS", 0.0, minimum=0.0)
SCHEDULE_INTERVAL_SECONDS = env_float("NIMMT_SCHEDULE_INTERVAL_SECONDS", 20.0, minimum=0.5)
SCHEDULE_IN_FLIGHT = env_int("NIMMT_SCHEDULE_IN_FLIGHT", 4, minimum=0)  # per ladder
PAIR_DAILY_CAP = env_int("NIMMT_PAIR_DAILY_CAP", 40, minimum=1)
RATING_NEIGHBOURS = env_int("NIMMT_RATING_NEIGHBOURS", 6, minimum=1)
# Version tests (versiontests.services) running at once on the whole site; later ones wait.
VERSION_TESTS_AT_ONCE = env_int("NIMMT_VERSION_TESTS_AT_ONCE", 2, minimum=1)
# People's tables queued or playing at once on the whole site: each holds a match worker for its
# game, and a guest's takes one click (tables.services.create_table).
TABLES_AT_ONCE = env_int("NIMMT_TABLES_AT_ONCE", 4, minimum=1)
# of them from one address (its guests and accounts together), so that one cannot take all
TABLES_PER_ADDRESS = env_int("NIMMT_TABLES_PER_ADDRESS", 2, minimum=1)
# a person who lets this many decisions in a row run out is gone: the game ends without them
TABLE_ABANDON_DECISIONS = env_int("NIMMT_TABLE_ABANDON_DECISIONS", 3, minimum=1)
# A guest idle this long (no table, no log-in) is deleted with its tables, its matches kept
# (tables.services.forget_guests); its session (SESSION_COOKIE_AGE, 2 weeks) is over by then.
GUEST_KEEP_DAYS = env_int("NIMMT_GUEST_KEEP_DAYS", 30, minimum=1)
# The hour (UTC) at which the beat adds the day's public games to the dataset (matches.dataset).
EXPORT_HOUR_UTC = env_int("NIMMT_EXPORT_HOUR_UTC", 3, minimum=0, maximum=23)
FAULT_PAUSE_MATCHES = env_int("NIMMT_FAULT_PAUSE_MATCHES", 3, minimum=1)
LOG_CAP_BYTES = env_int("NIMMT_LOG_CAP_BYTES", 64 * 1024, minimum=1024)
# Validation is the arena's bot check (arena.runner.check) plus the formats of the ladders.
# The runner's clock: an allowance per decision, and a bank per game for the time beyond it.
DECISION_MS = env_int("NIMMT_DECISION_MS", 1000, minimum=1)
BANK_MS = env_int("NIMMT_BANK_MS", 10_000, minimum=0)
# A bot whose manifest has a build is built once per version, in the validation task, in the
# sandbox within these limits (arena.runner.build.BuildLimits); matches run what it made.
BUILD_SECONDS = env_int("NIMMT_BUILD_SECONDS", 300, minimum=1)
BUILD_MEMORY_MB = env_int("NIMMT_BUILD_MEMORY_MB", 2048, minimum=64)
# A build's share of the machine (cores' worth of CPU time, processes and threads), so that a
# fork bomb of a build slows no match; and the free space it must leave on the build disk.
BUILD_CPUS = env_float("NIMMT_BUILD_CPUS", 1.0, minimum=0.01)
BUILD_PROCESSES = env_int("NIMMT_BUILD_PROCESSES", 128, minimum=16)
BUILD_RESERVE_MB = env_int("NIMMT_BUILD_RESERVE_MB", 256, minimum=1)
GAMES_PER_MATCH = env_int("NIMMT_GAMES_PER_MATCH", 1, minimum=1, maximum=100)
# The most games one tournament may plan (a round robin grows with the entrants' combinations).
TOURNAMENT_MAX_GAMES = env_int("NIMMT_TOURNAMENT_MAX_GAMES", 2000, minimum=1)
# Decision analyses (matches.analyses): samples per decision and a wall-time bound per seat on
# the worker; new analyses per user per hour, and analyses waiting on the whole site.
ANALYSIS_SAMPLES = env_int("NIMMT_ANALYSIS_SAMPLES", 200, minimum=1, maximum=5000)
ANALYSIS_SECONDS = env_int("NIMMT_ANALYSIS_SECONDS", 120, minimum=1, maximum=1800)
ANALYSIS_PER_HOUR = env_int("NIMMT_ANALYSIS_PER_HOUR", 10, minimum=0)
ANALYSIS_WAITING = env_int("NIMMT_ANALYSIS_WAITING", 20, minimum=1)
# Challenges (challenges.services): one user's new challenges per hour, the most games one
# challenge may play (deals x players), and one user's challenges queued or playing at once.
CHALLENGES_PER_HOUR = env_int("NIMMT_CHALLENGES_PER_HOUR", 10, minimum=0)
CHALLENGE_MAX_GAMES = env_int("NIMMT_CHALLENGE_MAX_GAMES", 60, minimum=1, maximum=1000)
CHALLENGES_WAITING = env_int("NIMMT_CHALLENGES_WAITING", 2, minimum=1)
# Notifications (notifications.services): the beat looks for events this often, over this
# window; a failed delivery is tried again after RETRY · 2^(tries - 1) s, ATTEMPTS tries in all.
NOTIFY_POLL_SECONDS = env_float("NIMMT_NOTIFY_POLL_SECONDS", 10.0, minimum=0.5)
NOTIFY_WINDOW_SECONDS = env_int("NIMMT_NOTIFY_WINDOW_SECONDS", 3600, minimum=60)
NOTIFY_RETRY_SECONDS = env_float("NIMMT_NOTIFY_RETRY_SECONDS", 30.0, minimum=0.1)
NOTIFY_ATTEMPTS = env_int("NIMMT_NOTIFY_ATTEMPTS", 5, minimum=1, maximum=20)
WEBHOOK_TIMEOUT_SECONDS = env_float("NIMMT_WEBHOOK_TIMEOUT_SECONDS", 10.0, minimum=0.5)
# Webhooks may call loopback and private addresses, and plain http:// (tests, a private demo
# only: in production it would let any user make the site call its own internal services).
WEBHOOK_ALLOW_PRIVATE = env_bool("NIMMT_WEBHOOK_ALLOW_PRIVATE", False)
# The site's address, for the links in mails and webhooks.
SITE_URL = env_str("NIMMT_SITE_URL", "http://127.0.0.1:8000")

# ---------------------------------------------------------------------------- Celery

CELERY_BROKER_URL = broker_from_url("NIMMT_BROKER_URL", "filesystem://localhost//")
# A worker takes its next task from the first of its queues that has one (core.celery.QUEUES:
# people's tables and ratings before the league's matches), on either broker.
if CELERY_BROKER_URL.startswith("filesystem"):
    CELERY_BROKER_TRANSPORT = "core.brokers:FolderTransport"
    _BROKER_DIR = VAR_DIR / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "data_folder_in": str(_BROKER_DIR / "queue"),
        "data_folder_out": str(_BROKER_DIR / "queue"),
        "control_folder": str(_BROKER_DIR / "control"),
        "store_processed": False,
    }
    for _folder in ("queue", "control"):  # the transport needs them before the first message
        (_BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
else:
    # With acks_late, a task whose worker died is delivered again after visibility_timeout;
    # the restore scan runs every interval * throttle seconds (STACK-NOTES.md).
    _VISIBILITY = env_int("NIMMT_BROKER_VISIBILITY_TIMEOUT", 3600, minimum=1)
    if MATCH_LEASE_SECONDS >= _VISIBILITY:
        # A redelivered task must find the dead worker's lease over, or it leaves the match.
        raise ImproperlyConfigured(
            "NIMMT_MATCH_LEASE_SECONDS must be shorter than NIMMT_BROKER_VISIBILITY_TIMEOUT"
        )
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": _VISIBILITY,
        "unacked_restore_interval": env_int("NIMMT_BROKER_RESTORE_INTERVAL", 10, minimum=1),
        "unacked_restore_throttle": env_int("NIMMT_BROKER_RESTORE_THROTTLE", 10, minimum=1),
        "socket_connect_timeout": 5,
        "queue_order_strategy": "priority",
    }
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None  # a broker restart must not stop the workers
CELERY_TASK_DEFAULT_QUEUE = "maintenance"
CELERY_IMPORTS = ("config.sweeps",)  # a project module, not an app: autodiscovery misses it
CELERY_TASK_ROUTES = ("core.celery.route",)  # each task's queue, as house_task fixed it
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # long tasks: do not hold messages another worker could run
# Every task in a fresh pool child, forked from a worker that never made a gRPC server or
# channel: gRPC supports fork only before its first one (grpc's doc/fork_support.md), and a
# child that played a match has them (and their threads). A child forked after them wedged in
# grpc.aio.server(). The fork costs a few ms against a match's second of CPU (docs/OPERATIONS.md).
# A pool child keeps up to NIMMT_WARM_BOTS bot processes warm between its matches (frozen,
# arena.runner.pool), idle at most NIMMT_WARM_IDLE_SECONDS: a bot's start costs more CPU than a
# short match's decisions. A kept child must then play many tasks (the pool is the child's).
WARM_BOTS = env_int("NIMMT_WARM_BOTS", 0, minimum=0, maximum=64)
WARM_IDLE_SECONDS = env_int("NIMMT_WARM_IDLE_SECONDS", 300, minimum=1)
CELERY_WORKER_MAX_TASKS_PER_CHILD = env_int(
    "NIMMT_WORKER_MAX_TASKS_PER_CHILD", 200 if WARM_BOTS else 1, minimum=1
)
CELERY_WORKER_POOL = "core.pool:TaskPool"  # prefork, an exited child replaced at once
# A running match survives a broker outage; its result is guarded by its claim on the row.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# A beat message expires after two of its intervals: a maintenance worker skips expired
# messages to the oldest fresh one, the first sent at some tick, so with one interval a single
# task longer than the interval made the other entries of its tick expire unrun; with two they
# are still fresh after it. (The tasks are idempotent: a run too many costs a few queries.)
CELERY_BEAT_SCHEDULE = {
    "schedule-matches": {
        "task": "matches.tasks.schedule_matches",
        "schedule": SCHEDULE_INTERVAL_SECONDS,
        "options": {"queue": "maintenance", "expires": 2 * SCHEDULE_INTERVAL_SECONDS},
    },
    # Every safety net in one task (config.sweeps): one task a tick where five were sent.
    "sweep": {
        "task": "config.sweeps.sweep",
        "schedule": SWEEP_INTERVAL_SECONDS,
        "options": {"queue": "maintenance", "expires": 2 * SWEEP_INTERVAL_SECONDS},
    },
    "notice-events": {
        "task": "notifications.tasks.notice_events",
        "schedule": NOTIFY_POLL_SECONDS,
        "options": {"queue": "maintenance", "expires": 2 * NOTIFY_POLL_SECONDS},
    },
    "record-missing-matchups": {
        "task": "matchups.tasks.record_missing_matchups",
        "schedule": 60.0,
        "options": {"queue": "maintenance", "expires": 60.0},
    },
    # The dataset of public games (matches.dataset), one increment a night.
    "export-games": {
        "task": "matches.tasks.export_games",
        "schedule": crontab(minute=0, hour=EXPORT_HOUR_UTC),
        "options": {"queue": "maintenance", "expires": 6 * 3600.0},
    },
    "forget-old-guests": {
        "task": "tables.tasks.forget_old_guests",
        "schedule": 3600.0,
        "options": {"queue": "maintenance", "expires": 3600.0},
    },
}

# ---------------------------------------------------------------------------- accounts

# Rate limits count in the cache, which every web process must share: by default the broker's
# Redis (keys of its own prefix); the demo, one process without Redis, counts in memory.
CACHES = {
    "default": cache_from_url(
        "NIMMT_CACHE_URL",
        CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "locmem://",
    )
}
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]  # Django's own Redis cache: shared, atomic
if DEBUG and CACHES["default"]["BACKEND"].endswith("LocMemCache"):
    SILENCED_SYSTEM_CHECKS.append("django_ratelimit.E003")  # the demo's one process
RATELIMIT_IP_META_KEY = "accounts.throttle.limit_address"
# New accounts per address (counted when one is made), and sign-up attempts per address.
SIGNUP_RATE = env_rate("NIMMT_SIGNUP_RATE", "5/h")
SIGNUP_ATTEMPT_RATE = env_rate("NIMMT_SIGNUP_ATTEMPT_RATE", "30/h")

# Log-in lockout (django-axes, accounts.lockout): after this many failed passwords for one
# username from one address, that pair is refused for the cool-off (other addresses can still
# log in to it); after LOGIN_ADDRESS_FAILURE_LIMIT failures from one address, whatever the
# usernames, that address is refused for every account (password spraying).
AXES_HANDLER = "accounts.lockout.LockoutHandler"
AXES_FAILURE_LIMIT = env_int("NIMMT_LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int(
    "NIMMT_LOGIN_ADDRESS_FAILURE_LIMIT", 20, minimum=AXES_FAILURE_LIMIT
)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("NIMMT_LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]  # in this order
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"

# With confirmation on, a new account stays inactive until its owner follows the link mailed
# to the address given at sign-up (valid for PASSWORD_RESET_TIMEOUT, 3 days).
EMAIL_CONFIRMATION = env_bool("NIMMT_EMAIL_CONFIRMATION", False)
_EMAIL = email_from_url("NIMMT_EMAIL_URL", "console://")
EMAIL_BACKEND = _EMAIL.backend
EMAIL_FILE_PATH = _EMAIL.file_path
EMAIL_HOST, EMAIL_PORT = _EMAIL.host, _EMAIL.port
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _EMAIL.user, _EMAIL.password
EMAIL_USE_TLS, EMAIL_USE_SSL = _EMAIL.tls, _EMAIL.ssl
DEFAULT_FROM_EMAIL = env_str("NIMMT_EMAIL_FROM", f"{SITE_NAME} <arena@localhost>")

# ---------------------------------------------------------------------------- remote bots

# The gateway (remote.gateway, `manage.py run_gateway`): where remote bots connect, with TLS
# (certificate and key files; plaintext only when it listens on loopback), and the address the
# bot page tells their owners to use. The hand-over to the workers goes through Redis
# (lists a worker and a gateway block on, keys that expire, atomic check-and-set scripts):
# REMOTE_REDIS_URL, by default the broker's when it is Redis; the demo's folder broker has no
# such store, so ./dev demo starts a private Redis on a socket for it. A bot stays online
# for REMOTE_GRACE_SECONDS after its connection drops, and a match waits as long for it to
# reconnect; REMOTE_NETWORK_MS caps the time of each answer that is counted as the network's,
# not the bot's (remote.seat).
GATEWAY_ADDRESS = env_str("NIMMT_GATEWAY_ADDRESS", "127.0.0.1:7443")
GATEWAY_URL = env_str("NIMMT_GATEWAY_URL", "")
_GATEWAY_CERT = env_str("NIMMT_GATEWAY_TLS_CERT", "")
_GATEWAY_KEY = env_str("NIMMT_GATEWAY_TLS_KEY", "")
GATEWAY_TLS_CERT = Path(_GATEWAY_CERT) if _GATEWAY_CERT else None
GATEWAY_TLS_KEY = Path(_GATEWAY_KEY) if _GATEWAY_KEY else None
GATEWAY_IDLE_SECONDS = env_float("NIMMT_GATEWAY_IDLE_SECONDS", 600.0, minimum=1.0)
GATEWAY_MESSAGES_PER_SECOND = env_float("NIMMT_GATEWAY_MESSAGES_PER_SECOND", 50.0, minimum=1.0)
# HTTP/2 keepalive: a half-open connection (a peer gone without a FIN) ends within the sum
GATEWAY_KEEPALIVE_SECONDS = env_float("NIMMT_GATEWAY_KEEPALIVE_SECONDS", 10.0, minimum=1.0)
GATEWAY_KEEPALIVE_TIMEOUT_SECONDS = env_float(
    "NIMMT_GATEWAY_KEEPALIVE_TIMEOUT_SECONDS", 5.0, minimum=1.0
)
# streams one address may open a minute (a kit opens one per match, more after failures)
GATEWAY_CONNECTS_PER_MINUTE = env_int("NIMMT_GATEWAY_CONNECTS_PER_MINUTE", 60, minimum=1)
# connections open at once from one address (a bot needs one; a NAT of many bots needs more)
GATEWAY_CONNECTIONS_PER_ADDRESS = env_int("NIMMT_GATEWAY_CONNECTIONS_PER_ADDRESS", 16, minimum=1)
REMOTE_GRACE_SECONDS = env_float("NIMMT_REMOTE_GRACE_SECONDS", 30.0, minimum=1.0)
REMOTE_NETWORK_MS = env_int("NIMMT_REMOTE_NETWORK_MS", 250, minimum=0, maximum=5000)
REMOTE_REDIS_URL = redis_from_url(
    "NIMMT_REMOTE_REDIS_URL", CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else ""
)

# ---------------------------------------------------------------------------- logging

LOG_LEVEL = env_str("NIMMT_LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR"):
    raise ImproperlyConfigured(f"NIMMT_LOG_LEVEL={LOG_LEVEL!r}: use DEBUG, INFO, WARNING or ERROR")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
