"""Strict readers of ``NIMMT_*`` environment variables for the settings module.

Every reader takes the variable's name and a default (used when the variable is unset or empty)
and raises :class:`~django.core.exceptions.ImproperlyConfigured` naming the variable when its
value cannot be read, so a typo in a deployment fails at start-up, not at the first request.
"""

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    value = (os.environ if environ is None else environ).get(name, "").strip()
    return value or None


def env_str(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    """The variable's text, or ``default``."""
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, environ: Mapping[str, str] | None = None) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off`` (any case)."""
    value = _raw(name, environ)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean; use true or false")


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """A whole number, optionally within ``minimum..maximum``."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum {maximum}")
    return number


def env_float(
    name: str, default: float, *, minimum: float = 0.0, environ: Mapping[str, str] | None = None
) -> float:
    """A number (seconds, ratios), at least ``minimum``."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number") from None
    if not number >= minimum:  # also rejects nan
        raise ImproperlyConfigured(f"{name}={value!r} is below the minimum {minimum}")
    return number


def env_list(name: str, default: list[str], environ: Mapping[str, str] | None = None) -> list[str]:
    """A comma-separated list; blanks around items are dropped, empty items are an error."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(f"{name}={value!r} has an empty item; separate with commas")
    return items


def env_networks(
    name: str, default: list[str], environ: Mapping[str, str] | None = None
) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Comma-separated IP addresses or networks (``10.0.0.0/8``); an address is a network of one.

    >>> [str(n) for n in env_networks("X", [], {"X": "127.0.0.1, 10.1.0.0/16, ::1"})]
    ['127.0.0.1/32', '10.1.0.0/16', '::1/128']
    """
    networks = []
    for item in env_list(name, default, environ):
        try:
            networks.append(ipaddress.ip_network(item))  # strict: 10.1.2.3/16 is a mistake
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {item!r} is not an IP address or network (write 10.0.0.5 or 10.0.0.0/24)"
            ) from None
    return networks


def trusted_proxies(
    environ: Mapping[str, str] | None = None,
) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The addresses whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed:
    ``NIMMT_TRUSTED_PROXIES``, by default this machine's loopback when ``NIMMT_BEHIND_TLS_PROXY``
    is on (a proxy on the same host) and nobody otherwise. Read by the site's settings and by
    gunicorn's (its ``forwarded_allow_ips``), so the two always agree.

    >>> trusted_proxies({"NIMMT_BEHIND_TLS_PROXY": "true"})
    [IPv4Network('127.0.0.1/32'), IPv6Network('::1/128')]
    >>> trusted_proxies({})
    []
    """
    if _raw("NIMMT_TRUST_FORWARDED_FOR", environ) is not None:
        raise ImproperlyConfigured(
            "NIMMT_TRUST_FORWARDED_FOR is gone: list the proxies whose X-Forwarded-For is "
            "believed in NIMMT_TRUSTED_PROXIES (addresses or networks), or leave it unset"
        )
    behind_proxy = env_bool("NIMMT_BEHIND_TLS_PROXY", False, environ)
    return env_networks(
        "NIMMT_TRUSTED_PROXIES", ["127.0.0.1", "::1"] if behind_proxy else [], environ
    )


def env_path(name: str, default: Path, environ: Mapping[str, str] | None = None) -> Path:
    """An absolute folder path (a relative one is an error: it would depend on the cwd)."""
    value = _raw(name, environ)
    if value is None:
        return default
    path = Path(value)
    if not path.is_absolute():
        raise ImproperlyConfigured(f"{name}={value!r} must be an absolute path")
    return path


def database_from_url(
    name: str, default: str, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """A ``DATABASES`` entry from ``sqlite:///abs/path`` or ``postgres://user:pw@host:port/db``.

    Query parameters of a PostgreSQL URL (``?sslmode=require``) become ``OPTIONS``.

    >>> database_from_url("X", "postgres://bob:s%40cret@db:5433/arena?sslmode=require")["PORT"]
    5433
    >>> database_from_url("X", "sqlite:////srv/nimmt/db.sqlite3")["NAME"]
    '/srv/nimmt/db.sqlite3'
    """
    url = env_str(name, default, environ)
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        # sqlite:////abs/path: the three slashes of an empty host, then the absolute path.
        path = unquote(url[len("sqlite:///") :]) if url.startswith("sqlite:///") else ""
        if not path.startswith("/") or path == "/":
            raise ImproperlyConfigured(
                f"{name}={url!r}: a SQLite URL is sqlite:////absolute/path/to/file.sqlite3"
            )
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": path,
            # Several processes (site, worker, beat) share the file: wait for locks, take the
            # write lock when a transaction starts, and let readers run beside one writer.
            "OPTIONS": {
                "timeout": 30,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    if parts.scheme in ("postgres", "postgresql"):
        dbname = unquote(parts.path.lstrip("/"))
        if not dbname or "/" in dbname:
            raise ImproperlyConfigured(f"{name}={url!r} names no database (postgres://.../NAME)")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"{name}={url!r} has a bad port") from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": dbname,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": port or "",
            "OPTIONS": dict(parse_qsl(parts.query, keep_blank_values=True)),
        }
    raise ImproperlyConfigured(
        f"{name}={url!r}: unsupported database; use postgres://... or sqlite:////path"
    )


def broker_from_url(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    """A Celery broker URL: ``redis://``/``rediss://``, or ``filesystem://localhost//`` (folders,
    no server: for a demo on one machine)."""
    url = env_str(name, default, environ)
    scheme = urlsplit(url).scheme
    if scheme not in ("redis", "rediss", "filesystem"):
        raise ImproperlyConfigured(
            f"{name}={url!r}: unsupported broker; use redis://host:6379/0 or filesystem://"
        )
    if scheme.startswith("redis"):
        try:
            _ = urlsplit(url).port  # parsing the port is what checks it
        except ValueError:
            raise ImproperlyConfigured(f"{name}={url!r} has a bad port") from None
    return url


def env_source(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    """Where ``git clone`` finds a repository: an ``https://``, ``http://``, ``ssh://``,
    ``git://`` or ``file://`` URL, ``user@host:path``, or an absolute path; ``""`` for none.

    >>> env_source("X", "", {"X": "https://git.example.org/nimmt-arena.git"})
    'https://git.example.org/nimmt-arena.git'
    """
    value = env_str(name, default, environ).strip()
    scheme = urlsplit(value).scheme
    scp_like = re.fullmatch(r"[\w.-]+@[\w.-]+:\S+", value) is not None
    if value and not (
        scheme in ("https", "http", "ssh", "git", "file") or scp_like or value.startswith("/")
    ):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a repository's address; give a URL "
            "(https://host/project.git), user@host:path or an absolute path"
        )
    return value


def redis_from_url(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    """A Redis URL: ``redis://host:6379/0``, ``rediss://...`` or ``unix:///abs/redis.sock``
    (a private server on a socket, as ``./dev demo`` starts one); ``""`` for none.

    >>> redis_from_url("X", "", {"X": "unix:///run/nimmt/redis.sock"})
    'unix:///run/nimmt/redis.sock'
    """
    url = env_str(name, default, environ)
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        if parts.netloc or not parts.path.startswith("/"):
            raise ImproperlyConfigured(f"{name}={url!r}: a socket URL is unix:///absolute/path")
        return url
    if parts.scheme not in ("redis", "rediss"):
        raise ImproperlyConfigured(
            f"{name}={url!r}: not Redis; use redis://host:6379/0 or unix:///path/redis.sock"
        )
    try:
        _ = parts.port
    except ValueError:
        raise ImproperlyConfigured(f"{name}={url!r} has a bad port") from None
    return url


_RATE = re.compile(r"(?P<count>[1-9][0-9]*)/(?P<multiple>[1-9][0-9]*)?(?P<period>[smhd])")


def env_rate(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    """A rate limit as django-ratelimit reads it: ``5/h`` (five an hour), ``10/15m``, ``1/s``.

    >>> env_rate("X", "5/h", {"X": "20/10m"})
    '20/10m'
    """
    value = env_str(name, default, environ)
    if _RATE.fullmatch(value) is None:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a rate; write COUNT/PERIOD, e.g. 5/h, 20/10m (s, m, h, d)"
        )
    return value


def cache_from_url(
    name: str, default: str, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """A ``CACHES`` entry from ``redis://host:6379/1`` (Django's Redis cache) or ``locmem://``
    (one process's memory: only for a demo served by one process).

    >>> cache_from_url("X", "locmem://")["BACKEND"]
    'django.core.cache.backends.locmem.LocMemCache'
    """
    url = env_str(name, default, environ)
    parts = urlsplit(url)
    if parts.scheme in ("redis", "rediss"):
        try:
            _ = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"{name}={url!r} has a bad port") from None
        return {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "nimmt-cache",  # beside the broker's keys when they share a database
        }
    if url == "locmem://":
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    raise ImproperlyConfigured(
        f"{name}={url!r}: unsupported cache; use redis://host:6379/1 or locmem://"
    )


@dataclass(frozen=True)
class Email:
    """How the site sends mail (Django's ``EMAIL_*`` settings)."""

    backend: str
    file_path: str = ""
    host: str = "localhost"
    port: int = 25
    user: str = ""
    password: str = ""
    tls: bool = False
    ssl: bool = False


def email_from_url(name: str, default: str, environ: Mapping[str, str] | None = None) -> Email:
    """``console://`` (mails printed to the log), ``file:///abs/folder`` (a file per mail) or
    ``smtp://user:pw@host:587?tls=true`` (``ssl=true`` for port 465).

    >>> email_from_url("X", "smtp://bob:s%40cret@mail.example?tls=true")
    Email(backend='django.core.mail.backends.smtp.EmailBackend', file_path='', \
host='mail.example', port=587, user='bob', password='s@cret', tls=True, ssl=False)
    """
    url = env_str(name, default, environ)
    parts = urlsplit(url)
    if url == "console://":
        return Email("django.core.mail.backends.console.EmailBackend")
    if parts.scheme == "file":
        folder = unquote(parts.path)
        if parts.netloc or not folder.startswith("/") or folder == "/":
            raise ImproperlyConfigured(f"{name}={url!r}: a file URL is file:///absolute/folder")
        return Email("django.core.mail.backends.filebased.EmailBackend", file_path=folder)
    if parts.scheme == "smtp":
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"{name}={url!r} has a bad port") from None
        if not parts.hostname:
            raise ImproperlyConfigured(f"{name}={url!r} names no host (smtp://host:587)")
        options = dict(parse_qsl(parts.query))
        if unknown := sorted(set(options) - {"tls", "ssl"}):
            raise ImproperlyConfigured(f"{name}={url!r}: unknown option {unknown[0]!r}")
        tls, ssl = (
            env_bool(f"{name} {key}", False, {f"{name} {key}": options.get(key, "")})
            for key in ("tls", "ssl")
        )
        if tls and ssl:
            raise ImproperlyConfigured(f"{name}={url!r}: choose tls=true or ssl=true, not both")
        return Email(
            "django.core.mail.backends.smtp.EmailBackend",
            host=parts.hostname,
            port=port or (465 if ssl else 587 if tls else 25),
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            tls=tls,
            ssl=ssl,
        )
    raise ImproperlyConfigured(
        f"{name}={url!r}: unsupported email; use console://, file:///folder or smtp://host:587"
    )
