"""Settings from NIMMT_* variables: strict parsing, and a production set-up that passes
``check --deploy``."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from config.env import (
    broker_from_url,
    database_from_url,
    env_bool,
    env_float,
    env_int,
    env_list,
    env_networks,
    env_path,
    env_source,
    trusted_proxies,
)
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from gunicorn.config import validate_string_to_addr_list  # type: ignore[import-untyped]
from nimmt_site_testing import PLATFORM, REPO


@pytest.mark.parametrize(
    ("read", "value", "words"),
    [
        (lambda env: env_bool("NIMMT_DEBUG", False, env), "maybe", "NIMMT_DEBUG='maybe'"),
        (lambda env: env_int("NIMMT_DEBUG", 1, environ=env), "ten", "not a whole number"),
        (lambda env: env_int("NIMMT_DEBUG", 1, minimum=3, environ=env), "2", "below"),
        (lambda env: env_float("NIMMT_DEBUG", 1.0, environ=env), "nan", "minimum"),
        (lambda env: env_list("NIMMT_DEBUG", [], env), "a,,b", "empty item"),
        (lambda env: env_path("NIMMT_DEBUG", REPO, env), "relative/dir", "absolute"),
        (lambda env: database_from_url("NIMMT_DEBUG", "", env), "mysql://x/y", "unsupported"),
        (lambda env: database_from_url("NIMMT_DEBUG", "", env), "postgres://h:port/x", "port"),
        (lambda env: database_from_url("NIMMT_DEBUG", "", env), "postgres://h/", "names no"),
        (lambda env: database_from_url("NIMMT_DEBUG", "", env), "sqlite:///", "absolute"),
        (lambda env: database_from_url("NIMMT_DEBUG", "", env), "sqlite:///rel.db", "absolute"),
        (lambda env: broker_from_url("NIMMT_DEBUG", "", env), "amqp://x", "unsupported"),
        (lambda env: env_source("NIMMT_DEBUG", "", env), "our git server", "repository's address"),
        (lambda env: env_source("NIMMT_DEBUG", "", env), "relative/clone", "absolute path"),
        (lambda env: env_networks("NIMMT_DEBUG", [], env), "10.0.0.1/8", "not an IP address"),
        (lambda env: env_networks("NIMMT_DEBUG", [], env), "proxy.example", "not an IP address"),
    ],
)
def test_it_names_the_variable_with_a_bad_value(read: object, value: str, words: str) -> None:
    with pytest.raises(ImproperlyConfigured) as raised:
        read({"NIMMT_DEBUG": value})  # type: ignore[operator]
    assert "NIMMT_DEBUG" in str(raised.value)
    assert words in str(raised.value)


def test_it_reads_good_values_and_defaults() -> None:
    env = {"A": " Yes ", "B": "7", "C": "x, y", "D": ""}
    assert env_bool("A", False, env) is True
    assert env_int("B", 1, environ=env) == 7
    assert env_list("C", [], env) == ["x", "y"]
    assert env_int("D", 5, environ=env) == 5  # empty is unset
    db = database_from_url("X", "postgres://u:p%2Fw@db.example:5433/arena?sslmode=require", {})
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == ("u", "p/w", "db.example", 5433)
    assert db["OPTIONS"] == {"sslmode": "require"}
    for source in ("https://git.example.org/arena.git", "git@git.example.org:arena.git", "/srv/a"):
        assert env_source("S", "", {"S": source}) == source
    assert env_source("S", "", {}) == ""


def test_only_the_listed_proxies_are_trusted_and_by_default_none_or_loopback() -> None:
    assert trusted_proxies({}) == []
    assert [str(n) for n in trusted_proxies({"NIMMT_BEHIND_TLS_PROXY": "yes"})] == [
        "127.0.0.1/32",
        "::1/128",
    ]
    listed = {"NIMMT_BEHIND_TLS_PROXY": "yes", "NIMMT_TRUSTED_PROXIES": "172.29.57.1"}
    assert [str(n) for n in trusted_proxies(listed)] == ["172.29.57.1/32"]
    with pytest.raises(ImproperlyConfigured, match="NIMMT_TRUSTED_PROXIES"):
        trusted_proxies({"NIMMT_TRUST_FORWARDED_FOR": "true"})  # the old switch trusted anyone


@pytest.mark.parametrize(
    ("env", "allowed"),
    [
        ({}, ""),
        ({"NIMMT_BEHIND_TLS_PROXY": "true"}, "127.0.0.1/32,::1/128"),
        ({"NIMMT_TRUSTED_PROXIES": "10.0.0.0/24, 10.1.0.9"}, "10.0.0.0/24,10.1.0.9/32"),
    ],
)
def test_gunicorn_believes_forwarded_headers_from_the_sites_proxies_only(
    env: dict[str, str], allowed: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import config.gunicorn as g; print(repr(g.forwarded_allow_ips))"],
        cwd=PLATFORM,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == repr(allowed)
    assert validate_string_to_addr_list(allowed) == [a for a in allowed.split(",") if a]


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PLATFORM,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


PRODUCTION = {
    "PATH": "/usr/bin:/bin",
    "NIMMT_DEBUG": "false",
    "NIMMT_SECRET_KEY": "q8w4-production-like-secret-Zx0c9vB7nM5aS3dF1gH2jK4lP6oI8uY0tR",
    "NIMMT_ALLOWED_HOSTS": "arena.example.org",
    "NIMMT_DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
    "NIMMT_BROKER_URL": "redis://127.0.0.1:6379/13",
}


def test_production_settings_pass_check_deploy(tmp_path: object) -> None:
    env = {**PRODUCTION, "NIMMT_VAR_DIR": str(tmp_path), "NIMMT_DATA_DIR": str(tmp_path)}
    done = _manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stderr + done.stdout
    assert "no issues" in done.stdout


def test_it_refuses_to_start_in_production_without_a_secret_key() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "NIMMT_SECRET_KEY"}
    done = _manage(env, "check")
    assert done.returncode != 0
    assert "NIMMT_SECRET_KEY" in done.stderr


def test_a_bad_variable_stops_manage_py_with_its_name() -> None:
    done = _manage({**PRODUCTION, "NIMMT_MATCH_LEASE_SECONDS": "soon"}, "check")
    assert done.returncode != 0
    assert "NIMMT_MATCH_LEASE_SECONDS='soon' is not a whole number" in done.stderr


def test_every_model_change_has_its_migration(tmp_path: object) -> None:
    env = {**PRODUCTION, "NIMMT_VAR_DIR": str(tmp_path), "NIMMT_DATA_DIR": str(tmp_path)}
    done = _manage(env, "makemigrations", "--check", "--dry-run")
    assert done.returncode == 0, "models changed without a migration:\n" + done.stdout


def test_each_test_process_loads_the_settings_with_its_own_broker() -> None:
    """The conftest gives each test process its broker (``broker_url``) before the settings
    load: settings read earlier, from the environment of the process that started this one,
    would name that one's."""
    assert os.environ["NIMMT_BROKER_URL"] == settings.CELERY_BROKER_URL


@pytest.mark.slow
def test_a_file_of_site_tests_runs_alone_in_two_processes() -> None:
    """``pytest -n 2 tests/platform/<file>`` from a fresh shell: every process finds the
    project and loads the settings with its own broker (none with the controller's)."""
    fresh = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("NIMMT_", "PYTEST_", "DJANGO_"))
        or name in ("NIMMT_TEST_DATABASE_URL", "NIMMT_TEST_BROKER_URL")
    }
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "-p", "no:cacheprovider",
         str(Path(__file__).relative_to(REPO)), "-k", "own_broker"],
        cwd=REPO, env=fresh, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout
