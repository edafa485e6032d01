"""Strict readers of ``NIMMT_*`` environment variables for the settings module.

Every reader takes the variable's name and a default (used when the variable is unset or empty)
and raises :class:`~django.core.exceptions.ImproperlyConfigured` naming the variable when its
value cannot be read, so a typo in a deployment fails at start-up, not at the first request.
"""

import os
from collections.abc import Mapping
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
