"""Hostile builds through the site's validation with a real worker: a build that leaves a
1,100-deep tree with a setuid program, one whose sparse files pass the cap at their apparent
size. Each version fails with its reason, the worker lives, nothing set-id is left in the
machine's build folder, and the next upload of another bot builds and passes."""

import subprocess
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from nimmt_site_testing import CeleryProcess, make_user, wait_for, zip_upload
from submissions.models import Bot, BotVersion

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

STARTER = Path(__file__).resolve().parents[2] / "bots" / "starter-python" / "bot.py"
MANIFEST = b'name = "made"\ncommand = ["python3", "made.py"]\nbuild = ["sh", "build.sh"]\n'

DEEP_TREE = (
    b"i=0; while [ $i -lt 1100 ]; do mkdir d; cd d; i=$((i+1)); done\n"
    b"cp /usr/bin/id id; chmod 6755 id; echo x > open; chmod 666 open\n"
)
SPARSE = b"cp starter.py made.py; for i in $(seq 1 200); do truncate -s 1000M sparse$i; done\n"
FORK_BOMB = b"i=0; while [ $i -lt 300 ]; do sleep 30 & i=$((i+1)); done; wait\n"
#: Two folders whose files hold the same bytes split differently (an unframed key mixed them).
SPLIT = b"cat a > made.py; if [ -f b ]; then cat b >> made.py; fi\n"


def upload(client: Client, name: str, script: bytes, **extra: bytes) -> Bot:
    files = {"nimmt-bot.toml": MANIFEST, "build.sh": script, "starter.py": STARTER.read_bytes()}
    files.update(extra)
    response = client.post(reverse("new-bot"), {"name": name, "file": zip_upload(files)})
    assert response.status_code == 302, response.content
    return Bot.objects.get(name=name)


def verdict(bot: Bot) -> BotVersion:
    return wait_for(
        f"the verdict on {bot.name}",
        lambda: BotVersion.objects.filter(bot=bot, status__in=["passed", "failed"]).first(),
        timeout=600,
    )


def build_root(worker: CeleryProcess) -> Path:
    cache = worker.env.get("NIMMT_CACHE_DIR") or str(Path(worker.env["NIMMT_DATA_DIR"]) / "cache")
    return Path(cache) / "builds"


def set_id_files(root: Path) -> list[str]:
    found = subprocess.run(["find", str(root), "-perm", "/6000"], capture_output=True, text=True)
    return found.stdout.split()


def test_hostile_builds_fail_with_their_reason_and_the_next_upload_builds(
    client: Client, celery_worker: CeleryProcess
) -> None:
    client.force_login(make_user("mallory"))
    deep = verdict(upload(client, "deep", DEEP_TREE))
    assert deep.status == "failed"
    assert "FAIL build: `sh build.sh` failed: its folder is deeper than 64 levels" in (
        deep.validation_log
    )
    sparse = verdict(upload(client, "sparse", SPARSE))
    assert sparse.status == "failed"
    assert "failed: its folder grew beyond 1024 MB" in sparse.validation_log
    bomb = verdict(upload(client, "bomb", FORK_BOMB))
    assert bomb.status == "failed"
    assert "fork" in bomb.validation_log.lower(), bomb.validation_log
    one = verdict(upload(client, "split-one", SPLIT, a=b"x = 1", b=b"y = 2\n"))
    two = verdict(upload(client, "split-two", SPLIT, a=b"x = 1\x00Fb\x000\x00y = 2\n"))
    for version in (one, two):
        assert "build: `sh build.sh` built in" in version.validation_log, version.validation_log

    assert celery_worker.process is not None and celery_worker.process.poll() is None
    output = celery_worker.output()
    assert "RecursionError" not in output and "WorkerLostError" not in output
    root = build_root(celery_worker)
    assert root.is_dir() and set_id_files(root) == []
    assert not list(root.glob(".*.building*")), "a failed build leaves no folder behind"

    client.force_login(make_user("alice"))
    honest = verdict(upload(client, "honest", b"cp starter.py made.py\n"))
    assert honest.status == "passed", honest.validation_log
    assert "ok   build: `sh build.sh` built in" in honest.validation_log
