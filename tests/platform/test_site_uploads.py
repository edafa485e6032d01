"""Uploading bots through the form and the API: what is kept, what is refused, who may."""

import io
import stat
import zipfile
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from accounts.models import User
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from nimmt_site_testing import (
    TEST_BOTS,
    bot_files,
    make_token,
    make_user,
    random_bot_upload,
    staging_leftovers,
    stored_files,
    tar_upload,
    zip_upload,
)
from submissions.models import Bot, BotVersion
from submissions.tasks import requeue_stale_versions

from arena.runner.manifest import load

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice() -> User:
    return make_user("alice")


@pytest.fixture
def bob() -> User:
    return make_user("bob")


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


def _bomb() -> bytes:
    """A zip whose one member inflates from a few KiB to 60 MiB (over every limit)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("nimmt-bot.toml", 'name = "bomb"\ncommand = ["python3", "bot.py"]\n')
        archive.writestr("bot.py", b"\0" * (60 * 1024 * 1024))
    return buffer.getvalue()


def _with_symlink(name: str = "secrets") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for member, data in bot_files(TEST_BOTS / "quick", "linky").items():
            if member != name:
                archive.writestr(member, data)
        link = zipfile.ZipInfo(name)
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/shadow")
    return buffer.getvalue()


def _with_manifest(manifest: bytes) -> SimpleUploadedFile:
    return zip_upload({**bot_files(TEST_BOTS / "quick"), "nimmt-bot.toml": manifest})


MALFORMED: dict[str, tuple[Callable[[], SimpleUploadedFile], str]] = {
    "parent path": (
        lambda: zip_upload({**bot_files(TEST_BOTS / "quick", "escaper"), "../evil.py": b"x"}),
        "..",
    ),
    "symbolic link": (
        lambda: SimpleUploadedFile("bot.zip", _with_symlink()),
        "link",
    ),
    "zip bomb": (lambda: SimpleUploadedFile("bomb.zip", _bomb()), "limit"),
    "no manifest": (lambda: zip_upload({"bot.py": b"print(1)\n"}), "nimmt-bot.toml"),
    "manifest naming no file": (
        lambda: zip_upload(
            {"nimmt-bot.toml": b'name = "x"\ncommand = ["python3", "main.py"]\n', "bot.py": b""}
        ),
        "main.py",
    ),
    "not a program": (lambda: SimpleUploadedFile("notes.txt", b"hello"), ".py"),
    "huge manifest": (
        lambda: _with_manifest(b'name = "x"\ncommand = ["python3", "bot.py"]\n' + b"#" * 70_000),
        "nimmt-bot.toml: is larger than 64 KiB.",
    ),
    "manifest not UTF-8": (
        lambda: _with_manifest(b'name = "x"\ncommand = ["python3", "bot.py"]\n# \xff\xfe\n'),
        "nimmt-bot.toml: is not UTF-8 text",
    ),
    "command going up": (
        lambda: _with_manifest(b'name = "x"\ncommand = ["python3", "../../bots/x/bot.py"]\n'),
        "leaves the bot's folder with '..'",
    ),
    "command with an absolute path": (
        lambda: _with_manifest(b'name = "x"\ncommand = ["/usr/bin/python3", "bot.py"]\n'),
        "is an absolute path",
    ),
    "name with control characters": (
        lambda: _with_manifest(b'name = "x\\u001b[2J"\ncommand = ["python3", "bot.py"]\n'),
        "'name' must be 1 to 40 letters",
    ),
    "deeply nested manifest": (
        lambda: _with_manifest(b"name = " + b"[" * 20_000 + b"]" * 20_000),
        "nested too deeply",
    ),
    "manifest with a huge number": (
        lambda: _with_manifest(b'command = ["python3", "bot.py"]\nname = ' + b"7" * 50_000),
        "Exceeds the limit",
    ),
    "manifest that is a link": (
        lambda: SimpleUploadedFile("bot.zip", _with_symlink("nimmt-bot.toml")),
        "'nimmt-bot.toml' is a symbolic link",
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_it_refuses_a_malformed_upload_and_keeps_nothing(alice_client: Client, case: str) -> None:
    make, words = MALFORMED[case]
    response = alice_client.post(reverse("new-bot"), {"name": "mybot", "file": make()})
    assert response.status_code == 400
    message = " ".join(response.context["form"].errors["file"])
    assert words in message, message
    assert str(settings.DATA_DIR) not in message  # no path of the machine
    assert not Bot.objects.exists()
    assert not BotVersion.objects.exists()
    assert stored_files() == []
    assert staging_leftovers() == []


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_it_refuses_a_malformed_api_upload_with_a_json_message(
    client: Client, alice: User, case: str
) -> None:
    make, words = MALFORMED[case]
    response = client.post(
        reverse("api-bots"),
        {"name": "mybot", "file": make()},
        headers={"authorization": f"Bearer {make_token(alice)}"},
    )
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert str(settings.DATA_DIR) not in response.json()["error"]
    assert not BotVersion.objects.exists()
    assert stored_files() == []
    assert staging_leftovers() == []


def test_it_shows_a_manifest_problem_escaped(alice_client: Client) -> None:
    upload = _with_manifest(b'name = "<img src=x onerror=alert(1)>"\ncommand = ["bot.py"]\n')
    response = alice_client.post(reverse("new-bot"), {"name": "", "file": upload})
    assert response.status_code == 400
    page = response.content.decode()
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<img src=x" not in page
    assert not BotVersion.objects.exists()


def test_it_keeps_a_good_upload_as_a_pending_version(alice_client: Client, alice: User) -> None:
    response = alice_client.post(
        reverse("new-bot"), {"name": "", "file": random_bot_upload("lowball")}
    )
    bot = Bot.objects.get()
    assert response.status_code == 302
    assert response["Location"] == bot.get_absolute_url()
    assert bot.name == "lowball"  # from the manifest
    assert bot.owner == alice
    version = bot.versions.get()
    assert (version.number, version.status) == (1, BotVersion.PENDING)
    assert (version.code_path() / "nimmt-bot.toml").is_file()
    assert version.manifest["command"] == ["python3", "bot.py"]
    assert staging_leftovers() == []


def test_it_numbers_versions_and_takes_tar_gz_and_single_files(
    alice_client: Client, alice: User
) -> None:
    alice_client.post(reverse("new-bot"), {"name": "multi", "file": random_bot_upload("multi")})
    bot = Bot.objects.get()
    tar = tar_upload(bot_files(TEST_BOTS / "quick", "multi"))
    single = SimpleUploadedFile(
        "lowball.py",
        b"from arena.botkit import KitBot, run\n\n"
        b"class Lowball(KitBot):\n"
        b"    def choose_tile(self, view):\n        return min(view.hand)\n\n"
        b"if __name__ == '__main__':\n    run(Lowball())\n",
    )
    for upload in (tar, single):
        response = alice_client.post(reverse("upload-version", args=[bot.uuid]), {"file": upload})
        assert response.status_code == 302, response.content
    assert list(bot.versions.order_by("number").values_list("number", flat=True)) == [1, 2, 3]
    third = bot.versions.get(number=3)
    assert third.manifest == {"name": "multi", "command": ["python3", "lowball.py"]}
    assert load(third.code_path()).command == ("python3", "lowball.py")  # as the runner reads it


def test_a_single_file_gets_a_manifest_the_runner_reads(alice_client: Client) -> None:
    # An awkward file name: the manifest written for it must still be one the runner accepts.
    upload = SimpleUploadedFile("-_my bot.py", b"print('hi')\n")
    response = alice_client.post(reverse("new-bot"), {"name": "", "file": upload})
    assert response.status_code == 302, response.content
    bot = Bot.objects.get()
    assert bot.name == "my_bot"
    version = bot.versions.get()
    program = load(version.code_path())
    assert (program.name, program.command) == ("my_bot", ("python3", "_my_bot.py"))
    assert version.manifest == {"name": "my_bot", "command": ["python3", "_my_bot.py"]}


def test_it_refuses_a_taken_name_in_any_case(alice_client: Client) -> None:
    alice_client.post(reverse("new-bot"), {"name": "Taken", "file": random_bot_upload("taken")})
    response = alice_client.post(
        reverse("new-bot"), {"name": "tAKEN", "file": random_bot_upload("taken")}
    )
    assert response.status_code == 400
    assert "taken" in " ".join(response.context["form"].errors["name"])  # under the name
    assert Bot.objects.count() == 1
    assert BotVersion.objects.count() == 1


def test_an_anonymous_user_cannot_upload(client: Client) -> None:
    response = client.post(reverse("new-bot"), {"name": "anon", "file": random_bot_upload("a")})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    api = client.post(reverse("api-bots"), {"name": "anon", "file": random_bot_upload("a")})
    assert api.status_code == 401
    assert "token" in api.json()["error"]
    assert not Bot.objects.exists()
    assert stored_files() == []


def test_a_revoked_or_wrong_token_cannot_upload(client: Client, alice: User) -> None:
    token = make_token(alice)
    alice.api_tokens.get().revoke()
    for header in (f"Bearer {token}", "Bearer nimmt_not-a-token", f"Token {token}"):
        response = client.post(
            reverse("api-bots"),
            {"file": random_bot_upload("x")},
            headers={"authorization": header},
        )
        assert response.status_code == 401, header
    assert not Bot.objects.exists()


def test_it_uploads_through_the_api_with_a_token(client: Client, alice: User) -> None:
    auth = {"authorization": f"Bearer {make_token(alice)}"}
    response = client.post(
        reverse("api-bots"), {"name": "scripted", "file": random_bot_upload("x")}, headers=auth
    )
    assert response.status_code == 201
    body = response.json()
    assert body["bot"]["name"] == "scripted"
    assert body["version"]["status"] == "pending"
    again = client.post(body["bot"]["versions_url"], {"file": random_bot_upload("x")}, headers=auth)
    assert again.status_code == 201
    assert again.json()["version"]["number"] == 2


def test_alice_cannot_change_bobs_bot(client: Client, alice: User, bob: User) -> None:
    client.force_login(bob)
    client.post(reverse("new-bot"), {"name": "bobs", "file": random_bot_upload("bobs")})
    bot = Bot.objects.get()
    version = bot.versions.get()
    version.status = BotVersion.PASSED
    version.save()
    client.force_login(alice)
    pages = [
        (reverse("upload-version", args=[bot.uuid]), {"file": random_bot_upload("bobs")}),
        (reverse("activate-version", args=[bot.uuid]), {"version": str(version.uuid)}),
        (reverse("retire-bot", args=[bot.uuid]), {}),
        (reverse("resume-bot", args=[bot.uuid]), {}),
    ]
    for url, data in pages:
        assert client.post(url, data).status_code == 403, url
    auth = {"authorization": f"Bearer {make_token(alice)}"}
    api = [
        (reverse("api-bot-versions", args=[bot.uuid]), {"file": random_bot_upload("bobs")}),
        (reverse("api-bot-activate", args=[bot.uuid]), {"version": str(version.uuid)}),
        (reverse("api-bot-retire", args=[bot.uuid]), {}),
        (reverse("api-bot-resume", args=[bot.uuid]), {}),
    ]
    for url, data in api:
        response = client.post(url, data, headers=auth)
        assert response.status_code == 403, url
        assert "owner" in response.json()["error"]
    bot.refresh_from_db()
    assert bot.versions.count() == 1
    assert bot.active_version is None
    assert bot.retired_at is None


def test_the_owner_picks_the_active_version_and_retires(client: Client, alice: User) -> None:
    client.force_login(alice)
    client.post(reverse("new-bot"), {"name": "mine", "file": random_bot_upload("mine")})
    bot = Bot.objects.get()
    client.post(reverse("upload-version", args=[bot.uuid]), {"file": random_bot_upload("mine")})
    first, second = bot.versions.order_by("number")
    BotVersion.objects.filter(pk=first.pk).update(status=BotVersion.PASSED)
    refused = client.post(reverse("activate-version", args=[bot.uuid]), {"version": second.uuid})
    assert refused.status_code == 302
    bot.refresh_from_db()
    assert bot.active_version is None  # v2 has not passed
    client.post(reverse("activate-version", args=[bot.uuid]), {"version": first.uuid})
    bot.refresh_from_db()
    assert bot.active_version == first
    page = client.get(bot.get_absolute_url())
    assert b"v1</a> (active)" in page.content
    assert b"waiting" in page.content  # v2 waits its turn behind v1 (submissions.turns)
    asked = client.get(reverse("retire-bot", args=[bot.uuid]))
    assert b"Yes, retire mine" in asked.content and b"cannot be undone" in asked.content
    client.post(reverse("retire-bot", args=[bot.uuid]))  # no "yes": asked again, not retired
    bot.refresh_from_db()
    assert not bot.is_retired
    client.post(reverse("retire-bot", args=[bot.uuid]), {"confirm": "yes"})
    bot.refresh_from_db()
    assert bot.is_retired
    response = client.post(
        reverse("upload-version", args=[bot.uuid]), {"file": random_bot_upload("mine")}
    )
    assert response.status_code == 400
    assert bot.versions.count() == 2


def test_the_sweeper_sends_a_version_whose_message_was_lost_again_once(
    alice_client: Client, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    bob_client = Client()
    bob_client.force_login(bob)  # (two owners: each has one version checked at a time)
    for client, name in ((alice_client, "fresh"), (bob_client, "lost")):
        client.post(reverse("new-bot"), {"name": name, "file": random_bot_upload(name)})
    long_ago = timezone.now() - timedelta(hours=1)
    BotVersion.objects.filter(bot__name="lost").update(queued_at=long_ago)
    with django_capture_on_commit_callbacks() as sent:
        requeue_stale_versions.run()
    assert len(sent) == 1
    with django_capture_on_commit_callbacks() as again:
        requeue_stale_versions.run()
    assert again == []
    assert BotVersion.objects.get(bot__name="lost").queued_at > long_ago


def test_a_description_with_html_is_kept_as_text_and_shown_escaped(alice_client: Client) -> None:
    upload = _with_manifest(
        b'name = "x"\ncommand = ["python3", "bot.py"]\n'
        b'description = "<script>alert(1)</script>\\nsecond line"\n'
    )
    response = alice_client.post(reverse("new-bot"), {"name": "showy", "file": upload})
    assert response.status_code == 302, response.content
    version = BotVersion.objects.get()
    assert version.manifest["description"] == "<script>alert(1)</script>\nsecond line"
    page = alice_client.get(version.get_absolute_url()).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page
