"""docker-compose.yml against the code, without a Docker engine: every variable it sets for the
site's containers is one the code reads, the ones production needs are all set, and the values
it gives (its defaults, with placeholders for what .env must set) start the site."""

import ast
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from nimmt_site_testing import PLATFORM, REPO

COMPOSE = REPO / "docker-compose.yml"
NEEDED = {  # what a production site cannot start or work without
    "NIMMT_SECRET_KEY",
    "NIMMT_ALLOWED_HOSTS",
    "NIMMT_DATABASE_URL",
    "NIMMT_BROKER_URL",
    "NIMMT_S3_BUCKET",
    "NIMMT_S3_ENDPOINT_URL",
    "NIMMT_S3_ACCESS_KEY_ID",
    "NIMMT_S3_SECRET_ACCESS_KEY",
}
SUBSTITUTION = re.compile(r"\$\{(?P<name>[A-Z0-9_]+)(?:(?P<op>:-|:\?)(?P<arg>[^}]*))?\}")


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def _site_services() -> dict[str, dict[str, Any]]:
    """The services that run the site's image (web, workers, beat)."""
    return {
        name: service
        for name, service in _compose()["services"].items()
        if service.get("image") == "nimmt-arena:latest"
    }


def read_by_the_code() -> set[str]:
    """Every NIMMT_* name the site, the arena and the image's entry point read."""
    names = set()
    for root in (PLATFORM, REPO / "arena"):
        for path in root.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and re.fullmatch(r"NIMMT_[A-Z0-9_]+", node.value)
                ):
                    names.add(node.value)
    entrypoint = (REPO / "docker" / "entrypoint.sh").read_text()
    names |= set(re.findall(r"\$\{(NIMMT_[A-Z0-9_]+)", entrypoint))
    return names


def _resolved(value: object) -> str:
    """A compose value with ``${X:-default}`` as its default and ``${X:?...}`` as a
    placeholder of what .env must give (as ``docker compose config`` would with that .env)."""

    def one(match: re.Match[str]) -> str:
        if match["op"] == ":-":
            return str(match["arg"])
        if match["op"] == ":?":
            if match["name"] == "NIMMT_SECRET_KEY":
                return "compose-check-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
            return "arena.example.org" if "HOSTS" in match["name"] else "set-in-dot-env"
        return ""

    return SUBSTITUTION.sub(one, str(value))


def test_the_site_services_set_only_variables_the_code_reads() -> None:
    read = read_by_the_code()
    assert {"NIMMT_S3_BUCKET", "NIMMT_METRICS_TOKEN", "NIMMT_WEB_WORKERS"} <= read  # the scan works
    services = _site_services()
    assert set(services) == {"web", "worker-matches", "worker-validation", "beat"}
    for name, service in services.items():
        unread = sorted(set(service["environment"]) - read)
        assert unread == [], f"{name} sets variables nothing reads: {unread}"
        missing = sorted(NEEDED - set(service["environment"]))
        assert missing == [], f"{name} lacks {missing}"
    dockerfile = (REPO / "docker" / "Dockerfile").read_text()
    image_env = set(re.findall(r"\b(NIMMT_[A-Z0-9_]+)=", dockerfile))
    assert image_env and image_env <= read, sorted(image_env - read)


def test_the_site_starts_with_the_values_compose_gives_it(tmp_path: Path) -> None:
    web = _site_services()["web"]
    env = {name: _resolved(value) for name, value in web["environment"].items()}
    assert env["NIMMT_S3_ENDPOINT_URL"] == "http://object-store:9000"
    env |= {
        "PATH": "/usr/bin:/bin",
        "NIMMT_VAR_DIR": str(tmp_path),
        "NIMMT_DATA_DIR": str(tmp_path),
        "NIMMT_STATIC_ROOT": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PLATFORM,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    shown = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c",
         "from django.conf import settings as s; print(s.STORAGES['arena']['BACKEND'])"],
        cwd=PLATFORM, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert shown.stdout.split()[-1:] == ["core.storage.WriteOnceS3Storage"], shown.stderr


def test_the_object_store_flower_and_prometheus_are_in_the_compose_file() -> None:
    services = _compose()["services"]
    for site in _site_services().values():
        assert site["depends_on"]["object-store-bucket"]["condition"] == (
            "service_completed_successfully"
        )
        assert not any(
            str(v).endswith(":/data") for v in site.get("volumes", [])
        )  # no shared folder
    assert services["flower"]["environment"]["CELERY_BROKER_URL"] == "redis://redis:6379/0"
    scrape = yaml.safe_load((REPO / "docker" / "prometheus.yml").read_text())
    job = scrape["scrape_configs"][0]
    assert job["metrics_path"] == "/metrics"
    assert job["static_configs"][0]["targets"] == ["web:8000"]
    for published in ("flower", "prometheus"):
        assert all(port.startswith("127.0.0.1:") for port in services[published]["ports"])


def test_the_web_port_is_published_on_loopback_only_and_its_proxy_is_the_one_trusted() -> None:
    compose = _compose()
    assert all(port.startswith("127.0.0.1:") for port in compose["services"]["web"]["ports"])
    # a proxy on the host reaches the container from the network's gateway: that one only
    (network,) = compose["networks"]["default"]["ipam"]["config"]
    trusted = _resolved(_site_services()["web"]["environment"]["NIMMT_TRUSTED_PROXIES"])
    assert trusted == network["gateway"]
    assert "--forwarded-allow-ips" not in (REPO / "docker" / "entrypoint.sh").read_text()
