"""Every language's starter kit, as an author downloads it from "Write a bot", is uploaded to
the site, built and checked by a real worker, and plays a ladder match without a fault
(JavaScript in the browser, tests/browser/test_browser_kits.py; Go, tests/platform/
test_site_builds.py, with its build log)."""

import shutil

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from matches.models import Match
from matches.tasks import queue_match
from nimmt_site_testing import CeleryProcess, basic_ladder, make_user, program_bot, wait_for
from submissions.models import Bot, BotVersion

pytestmark = pytest.mark.django_db(transaction=True)

#: The toolchain each kit's build needs (./dev installs them).
NEEDS = {"python": "python3", "cpp": "g++", "java": "javac"}


@pytest.mark.slow
@pytest.mark.parametrize("language", list(NEEDS))
def test_a_downloaded_kit_is_uploaded_built_checked_and_plays(
    client: Client, celery_worker: CeleryProcess, language: str
) -> None:
    if shutil.which(NEEDS[language]) is None:
        pytest.skip(f"{NEEDS[language]} is not installed (./dev installs it)")
    ladder = basic_ladder(players=2)
    house = program_bot("house-a")
    client.force_login(make_user("alice"))
    kit = client.get(reverse("guide-kit", args=[language]))
    assert kit.status_code == 200
    archive = SimpleUploadedFile(f"{language}.zip", kit.content, content_type="application/zip")
    upload = {"name": f"{language}-bot", "file": archive}
    response = client.post(reverse("new-bot"), upload)
    assert response.status_code == 302, response.content.decode()[:2000]
    bot = Bot.objects.get(name=f"{language}-bot")
    version = wait_for(
        f"the check of the {language} kit",
        lambda: BotVersion.objects.filter(bot=bot, status__in=["passed", "failed"]).first(),
        timeout=600,
        every=1,
    )
    assert version.status == BotVersion.PASSED, version.validation_log
    bot.refresh_from_db()  # its passed version is the active one now
    match = queue_match(ladder, [bot, house])
    finished = wait_for(
        "its ladder match",
        lambda: Match.objects.filter(pk=match.pk, status=Match.FINISHED).first(),
        timeout=300,
        every=1,
    )
    seat = finished.seats.get(bot=bot)
    assert seat.faults == [] and seat.score is not None
