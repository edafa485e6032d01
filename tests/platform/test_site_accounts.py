"""Sign-up, log-in and log-out, and personal API tokens (shown once, stored hashed, revocable)."""

import hashlib

import pytest
from accounts.models import ApiToken, User
from django.test import Client
from django.urls import reverse
from nimmt_site_testing import make_user

pytestmark = pytest.mark.django_db


def test_it_signs_up_and_logs_the_new_user_in(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "carol",
            "email": "carol@example.org",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("new-bot")
    assert client.get(reverse("my-bots")).status_code == 200
    assert User.objects.get(username="carol").check_password("a-long-test-password")


def test_it_refuses_a_weak_password(client: Client) -> None:
    response = client.post(
        reverse("signup"), {"username": "dave", "password1": "123", "password2": "123"}
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="dave").exists()


def test_it_logs_in_and_out(client: Client) -> None:
    make_user("alice")
    response = client.post(
        reverse("login"), {"username": "alice", "password": "a-long-test-password"}
    )
    assert response.status_code == 302
    assert client.get(reverse("my-bots")).status_code == 200
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("my-bots")).status_code == 302  # to the log-in page


def test_a_token_is_shown_once_and_stored_hashed(client: Client) -> None:
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post(reverse("tokens"), {"name": "laptop"})
    token = response.context["new_token"]
    assert token.startswith("nimmt_")
    assert token.encode() in response.content
    assert response["Cache-Control"] == "no-store"
    row = ApiToken.objects.get(user=alice)
    assert row.digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in (row.digest, row.hint, row.name)
    assert token.encode() not in client.get(reverse("tokens")).content
    assert ApiToken.authenticate(token) == alice


def test_a_revoked_token_no_longer_works(client: Client) -> None:
    alice = make_user("alice")
    row, token = ApiToken.issue(alice, "script")
    client.force_login(alice)
    assert client.post(reverse("revoke-token", args=[row.uuid])).status_code == 302
    row.refresh_from_db()
    assert row.is_revoked
    assert ApiToken.authenticate(token) is None
    response = client.get(reverse("api-bots"), headers={"authorization": f"Bearer {token}"})
    assert response.status_code == 401


def test_nobody_else_can_revoke_alices_token(client: Client) -> None:
    row, _ = ApiToken.issue(make_user("alice"), "script")
    client.force_login(make_user("bob"))
    assert client.post(reverse("revoke-token", args=[row.uuid])).status_code == 404
    row.refresh_from_db()
    assert not row.is_revoked


def test_the_admin_is_for_organisers(client: Client) -> None:
    client.force_login(make_user("alice"))
    assert client.get("/admin/").status_code == 302
    organiser = User.objects.create_superuser("org", "org@example.org", "a-long-test-password")
    client.force_login(organiser)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/submissions/bot/").status_code == 200
    assert client.get("/admin/matches/match/").status_code == 200
