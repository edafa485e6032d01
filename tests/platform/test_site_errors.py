"""Errors people can read: 400/403/404/500 pages in the site's layout with the view's own
message, JSON errors everywhere under ``/api/``, an oversized form field answered by the form,
and a refused name that keeps the chosen file."""

import uuid
from typing import Any

import pytest
from accounts.models import User
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path, reverse
from nimmt_site_testing import make_token, make_user, random_bot_upload
from submissions.models import Bot, BotVersion

pytestmark = pytest.mark.django_db

LAYOUT = b'class="site-header"'


def _boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


# This module is also a URLconf: the site's URLs and two that fail (see the 500 tests).
from config.urls import urlpatterns as site_urlpatterns  # noqa: E402

urlpatterns = [path("boom/", _boom), path("api/v1/boom/", _boom), *site_urlpatterns]
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"


@pytest.fixture
def alice() -> User:
    return make_user("alice")


@pytest.fixture
def bob() -> User:
    return make_user("bob")


def alices_bot(alice: User, status: str = BotVersion.PASSED) -> Bot:
    bot = Bot.objects.create(owner=alice, name="alice-bot")
    BotVersion.objects.create(bot=bot, number=1, status=status, code_dir="x")
    return bot


# ---------------------------------------------------------------------------- pages


def test_a_403_page_is_in_the_layout_with_the_views_words(
    client: Client, alice: User, bob: User
) -> None:
    bot = alices_bot(alice)
    client.force_login(bob)
    response = client.get(reverse("upload-version", args=[bot.uuid]))
    assert response.status_code == 403
    assert LAYOUT in response.content
    assert b"Only the bot&#x27;s owner can change it." in response.content
    assert b"Log out bob" in response.content  # the page knows who is logged in


def test_a_version_that_did_not_pass_is_refused_with_its_reason(
    client: Client, alice: User, bob: User
) -> None:
    bot = alices_bot(alice, BotVersion.FAILED)
    client.force_login(bob)
    version = bot.versions.get()
    response = client.get(reverse("bot-version", args=[bot.uuid, version.uuid]))
    assert response.status_code == 403
    assert b"Only the owner sees versions that did not pass." in response.content


def test_a_404_page_says_what_was_not_found(client: Client) -> None:
    unknown = client.get("/no/such/page/")
    assert unknown.status_code == 404
    assert LAYOUT in unknown.content
    assert b"There is no page at /no/such/page/." in unknown.content
    missing_bot = client.get(reverse("bot", args=[uuid.uuid4()]))
    assert missing_bot.status_code == 404
    assert b"No Bot matches the given query." in missing_bot.content
    assert LAYOUT in missing_bot.content


def test_a_500_page_is_in_the_layout_and_says_nothing_of_the_bug(settings: Any) -> None:
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500
    assert LAYOUT in response.content
    assert b"Something went wrong on our side" in response.content
    assert b"a bug" not in response.content and b"Traceback" not in response.content


def test_a_stale_form_is_refused_with_words_in_the_layout(alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "alice", "password": "x"})
    assert response.status_code == 403
    assert LAYOUT in response.content
    assert b"Reload the page and send the form again." in response.content


# ---------------------------------------------------------------------------- the API


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/nothing-here/",
        "/api/v1/bots/not-a-uuid/",
        "/api/v1/matches/12345/",
        "/api/v1/versions/00000000-0000-0000-0000-00000000000g/",
        "/api/",
    ],
)
def test_every_unknown_api_path_answers_json(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert "ids in paths are UUIDs" in response.json()["error"]


def test_api_refusals_are_json_with_the_views_words(client: Client, alice: User) -> None:
    missing = client.get(reverse("api-bot", args=[uuid.uuid4()]))
    assert missing.status_code == 404
    assert missing.json() == {"error": "No Bot matches the given query."}
    wrong_method = client.delete(reverse("api-ladders"))
    assert wrong_method.status_code == 405
    assert wrong_method.json() == {"error": "Use GET."}
    bad_query = client.get(reverse("api-matches"), {"bot": "nope"})
    assert bad_query.status_code == 400
    assert bad_query.json() == {"error": "'bot' must be a UUID, not 'nope'."}
    # Digits int() does not read ("²"), and a number too long to be worth reading.
    for limit in ("²", "٣", "9" * 5000, "-1"):
        odd = client.get(reverse("api-matches"), {"limit": limit})
        assert odd.status_code == 400, limit
        assert "'limit' must be a whole number" in odd.json()["error"]
    other = make_user("bob")
    bot = alices_bot(alice)
    refused = client.post(
        reverse("api-bot-retire", args=[bot.uuid]),
        headers={"authorization": f"Bearer {make_token(other)}"},
    )
    assert refused.status_code == 403
    assert refused.json() == {"error": "Only the bot's owner can change it."}


def test_an_api_server_error_is_json(settings: Any) -> None:
    settings.ROOT_URLCONF = __name__
    response = Client(raise_request_exception=False).get("/api/v1/boom/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert "Something went wrong" in response.json()["error"]


# ---------------------------------------------------------------------------- oversized fields


def test_an_oversized_form_field_is_answered_under_the_file_field(
    client: Client, alice: User, settings: Any
) -> None:
    client.force_login(alice)
    huge = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post(reverse("new-bot"), {"name": huge, "file": random_bot_upload("big")})
    assert response.status_code == 413
    assert LAYOUT in response.content
    errors = " ".join(response.context["form"].errors["file"])
    assert "text fields came to more than" in errors
    assert b'id="new-bot-form"' in response.content  # the form again, to try once more
    assert not Bot.objects.exists()


def test_an_oversized_field_on_a_new_version_is_answered_by_its_form(
    client: Client, alice: User, bob: User, settings: Any
) -> None:
    bot = alices_bot(alice)
    huge = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    client.force_login(alice)
    url = reverse("upload-version", args=[bot.uuid])
    response = client.post(url, {"activate": huge})
    assert response.status_code == 413
    assert "text fields came to more than" in " ".join(response.context["form"].errors["file"])
    client.force_login(bob)  # someone else's bot: refused as ever, not shown its form
    refused = client.post(url, {"activate": huge})
    assert refused.status_code == 403
    assert b"Only the bot&#x27;s owner can change it." in refused.content


def test_an_oversized_api_field_is_a_json_error(client: Client, alice: User, settings: Any) -> None:
    huge = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post(
        reverse("api-bots"),
        {"name": "big", "file": huge},  # the bot sent as a text field, not a file
        headers={"authorization": f"Bearer {make_token(alice)}"},
    )
    assert response.status_code == 413
    assert "Choose the bot in the file field" in response.json()["error"]


# ---------------------------------------------------------------------------- a taken name


def test_a_taken_name_is_said_under_the_name_and_the_file_is_kept(
    client: Client, alice: User, bob: User
) -> None:
    alices_bot(alice)
    client.force_login(bob)
    response = client.post(
        reverse("new-bot"), {"name": "Alice-Bot", "file": random_bot_upload("x", "mine.zip")}
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert "The name 'Alice-Bot' is taken" in " ".join(form.errors["name"])
    assert "file" not in form.errors
    assert b"Kept from your last try: <strong>mine.zip</strong>" in response.content
    held = form.held_upload.token
    again = client.post(reverse("new-bot"), {"name": "bobs-bot", "held": held})
    assert again.status_code == 302
    version = Bot.objects.get(name="bobs-bot").versions.get()
    assert version.status == BotVersion.PENDING
    # Used once: the same token keeps nothing any more.
    third = client.post(reverse("new-bot"), {"name": "bobs-other", "held": held})
    assert third.status_code == 400
    assert "Choose the bot's file." in " ".join(third.context["form"].errors["file"])


def test_a_taken_name_from_the_manifest_is_said_under_the_name(
    client: Client, alice: User, bob: User
) -> None:
    alices_bot(alice)
    client.force_login(bob)
    response = client.post(reverse("new-bot"), {"name": "", "file": random_bot_upload("alice-bot")})
    assert response.status_code == 400
    errors = " ".join(response.context["form"].errors["name"])
    assert "taken" in errors and "nimmt-bot.toml" in errors
    assert response.context["form"].held_upload is not None


def test_nobody_can_use_a_file_another_user_kept(client: Client, alice: User, bob: User) -> None:
    alices_bot(alice)
    client.force_login(bob)
    response = client.post(
        reverse("new-bot"), {"name": "alice-bot", "file": random_bot_upload("x")}
    )
    token = response.context["form"].held_upload.token
    mallory = make_user("mallory")
    client.force_login(mallory)
    for held in (token, "../" + token, "0" * 32):
        stolen = client.post(reverse("new-bot"), {"name": "stolen", "held": held})
        assert stolen.status_code == 400
    assert not Bot.objects.filter(name="stolen").exists()
