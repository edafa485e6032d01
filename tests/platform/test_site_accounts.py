"""Sign-up, log-in and log-out, and personal API tokens (shown once, stored hashed, revocable);
log-in lockout (django-axes, by username and address), sign-up limits (django-ratelimit, on the
real Redis cache), and email confirmation when it is on."""

import hashlib
import re
from ipaddress import ip_network
from typing import Any

import pytest
from accounts.confirmation import tokens
from accounts.models import ApiToken, User
from accounts.throttle import client_ip
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
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


# ---------------------------------------------------------------------------- log-in lockout

ALICE_PASSWORD = "a-long-test-password"
HERE = "203.0.113.5"
ELSEWHERE = "198.51.100.7"


@pytest.fixture(autouse=True)
def fresh_counters() -> None:
    """Rate-limit counters live in the real cache (the test broker's Redis): start from none."""
    cache.clear()


def log_in(client: Client, username: str, password: str, address: str = HERE) -> HttpResponse:
    return client.post(  # type: ignore[return-value]
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_it_locks_out_a_username_from_one_address_after_five_wrong_passwords(
    client: Client,
) -> None:
    make_user("alice")
    statuses = [log_in(client, "alice", f"wrong-{n}").status_code for n in range(20)]
    assert statuses[:4] == [200] * 4  # the form again, with its error
    assert set(statuses[4:]) == {429}, statuses
    refused = log_in(client, "alice", ALICE_PASSWORD)
    assert refused.status_code == 429
    assert b"Too many wrong passwords" in refused.content
    assert b"site-header" in refused.content  # in the site's layout
    assert "_auth_user_id" not in client.session


def test_the_lockout_does_not_reach_the_owner_at_another_address(client: Client) -> None:
    make_user("alice")
    for n in range(10):
        log_in(client, "alice", f"wrong-{n}", HERE)
    assert log_in(client, "alice", ALICE_PASSWORD, HERE).status_code == 429
    elsewhere = Client()
    assert log_in(elsewhere, "alice", ALICE_PASSWORD, ELSEWHERE).status_code == 302
    assert elsewhere.get(reverse("my-bots")).status_code == 200


def test_a_locked_out_address_can_still_log_in_to_other_accounts(client: Client) -> None:
    make_user("alice")
    make_user("bob")
    for n in range(6):
        log_in(client, "alice", f"wrong-{n}")
    assert log_in(client, "bob", ALICE_PASSWORD).status_code == 302


def test_spaces_or_unicode_forms_of_the_name_count_against_the_same_account(
    client: Client,
) -> None:
    make_user("alice")
    # The form strips and NFKC-normalises the name: all of these are "alice" to it.
    for variant in (" alice", "alice ", "ａｌｉｃｅ", "\talice", " alice "):
        log_in(client, variant, "wrong")
    assert log_in(client, "alice", ALICE_PASSWORD).status_code == 429


def test_a_good_log_in_clears_the_count_of_failures(client: Client) -> None:
    make_user("alice")
    for n in range(4):
        log_in(client, "alice", f"wrong-{n}")
    assert log_in(client, "alice", ALICE_PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for n in range(4):
        assert log_in(client, "alice", f"wrong-{n}").status_code == 200
    assert log_in(client, "alice", ALICE_PASSWORD).status_code == 302


def test_the_admin_log_in_is_locked_out_too(client: Client) -> None:
    User.objects.create_superuser("org", "org@example.org", ALICE_PASSWORD)
    for n in range(6):
        client.post(
            "/admin/login/", {"username": "org", "password": f"wrong-{n}"}, REMOTE_ADDR=HERE
        )
    response = client.post(
        "/admin/login/", {"username": "org", "password": ALICE_PASSWORD}, REMOTE_ADDR=HERE
    )
    assert response.status_code == 429


PROXY = "10.0.0.2"  # the site's TLS proxy in these tests


@pytest.fixture
def behind_proxy(settings: Any) -> None:
    settings.TRUSTED_PROXIES = [ip_network(PROXY), ip_network("10.9.0.0/16")]


def test_behind_a_proxy_the_client_is_the_address_the_proxy_appended(
    client: Client, behind_proxy: None
) -> None:
    make_user("alice")
    for n in range(6):  # the client claims a new address each time; the proxy appends the real one
        client.post(
            reverse("login"),
            {"username": "alice", "password": f"wrong-{n}"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, {HERE}",
        )
    locked = client.post(
        reverse("login"),
        {"username": "alice", "password": ALICE_PASSWORD},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=HERE,
    )
    assert locked.status_code == 429


def test_through_a_chain_of_trusted_proxies_the_client_is_the_first_untrusted_hop(
    behind_proxy: None,
) -> None:
    factory = RequestFactory()

    def seen(forwarded: str, remote: str = PROXY) -> str | None:
        return client_ip(factory.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded))

    assert seen(f"192.0.2.9, {HERE}, 10.9.3.4") == HERE  # 10.9.3.4: an inner proxy
    assert seen(f"{HERE}, 10.9.3.4, 10.9.0.1") == HERE
    assert seen("not-an-address, 10.9.3.4") == "10.9.3.4"  # the proxies' word ends at garbage
    assert seen("") == PROXY
    assert seen(f"192.0.2.9, {HERE}", remote=ELSEWHERE) == ELSEWHERE  # not a proxy


def test_forged_forwarded_addresses_from_a_client_that_is_not_the_proxy_are_ignored(
    client: Client, behind_proxy: None
) -> None:
    """The attack: the web port reached directly, a fresh X-Forwarded-For on every try."""
    make_user("alice")
    statuses = [
        client.post(
            reverse("login"),
            {"username": "alice", "password": f"wrong-{n}"},
            REMOTE_ADDR=HERE,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        ).status_code
        for n in range(40)
    ]
    assert statuses[:4] == [200] * 4 and set(statuses[4:]) == {429}
    assert log_in(client, "alice", ALICE_PASSWORD).status_code == 429
    password = "a-long-test-password"
    statuses = [
        Client()
        .post(
            reverse("signup"),
            {"username": f"u{n}", "password1": password, "password2": password},
            REMOTE_ADDR=HERE,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 198.51.100.{n}",
        )
        .status_code
        for n in range(10)
    ]
    assert statuses == [302] * 5 + [429] * 5
    assert User.objects.filter(username__startswith="u").count() == 5


def test_a_forwarded_for_header_is_ignored_without_a_proxy(client: Client) -> None:
    assert client_ip(RequestFactory().get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"
    make_user("alice")
    for n in range(6):  # no proxies configured: even loopback's header is its own word
        client.post(
            reverse("login"),
            {"username": "alice", "password": f"wrong-{n}"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    assert log_in(client, "alice", ALICE_PASSWORD, "127.0.0.1").status_code == 429


def test_a_client_cannot_say_it_came_over_https_unless_it_is_the_proxy(
    client: Client, settings: Any, behind_proxy: None
) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    direct = client.get("/", REMOTE_ADDR=HERE, HTTP_X_FORWARDED_PROTO="https")
    assert direct.status_code == 301 and direct["Location"].startswith("https://")
    proxied = client.get(
        "/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR=HERE
    )
    assert proxied.status_code == 200


# ---------------------------------------------------------------------------- password spraying


def test_one_password_against_many_usernames_locks_the_address_out(
    client: Client, settings: Any
) -> None:
    """The attack: one password tried against 50 usernames from one address."""
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 20
    for n in range(5):
        make_user(f"user{n}")  # (names without an account count as failures too)
    make_user("alice")
    statuses = [log_in(client, f"user{n}", "Summer2026!").status_code for n in range(50)]
    # one try per name, yet refused from the 20th failure on
    assert statuses[:19] == [200] * 19 and set(statuses[19:]) == {429}, statuses
    refused = log_in(client, "alice", ALICE_PASSWORD)
    assert refused.status_code == 429 and b"Too many wrong passwords" in refused.content
    assert log_in(Client(), "alice", ALICE_PASSWORD, ELSEWHERE).status_code == 302


def test_a_good_log_in_does_not_clear_the_addresss_failures(client: Client) -> None:
    make_user("mallory")  # the sprayer's own account
    for n in range(15):
        make_user(f"user{n}")
    for n in range(15):
        log_in(client, f"user{n}", "Summer2026!")
    assert log_in(client, "mallory", ALICE_PASSWORD).status_code == 302  # clears mallory's only
    client.post(reverse("logout"))
    statuses = [log_in(client, f"user{n}", "Winter2026!").status_code for n in range(10)]
    assert statuses[:4] == [200] * 4 and set(statuses[4:]) == {429}, statuses


def test_new_ipv6_addresses_of_one_network_count_as_one(client: Client) -> None:
    make_user("alice")
    for n in range(6):
        log_in(client, "alice", "wrong", f"2001:db8:5:6::{n + 1:x}")
    assert log_in(client, "alice", ALICE_PASSWORD, "2001:db8:5:6::99").status_code == 429


# ---------------------------------------------------------------------------- sign-up limits


def sign_up(client: Client, username: str, address: str = HERE, **extra: str) -> HttpResponse:
    data = {
        "username": username,
        "email": f"{username}@example.org",
        "password1": "a-long-test-password",
        "password2": "a-long-test-password",
        **extra,
    }
    return client.post(reverse("signup"), data, REMOTE_ADDR=address)  # type: ignore[return-value]


def test_it_makes_at_most_five_accounts_an_hour_from_one_address() -> None:
    statuses = [sign_up(Client(), f"user{n}").status_code for n in range(8)]
    assert statuses == [302] * 5 + [429] * 3
    assert User.objects.count() == 5
    refused = sign_up(Client(), "late")
    assert b"Too many new accounts from your address (at most 5 an hour)" in refused.content
    assert sign_up(Client(), "elsewhere", ELSEWHERE).status_code == 302


def test_failed_sign_ups_are_limited_too_but_do_not_use_up_the_accounts(
    client: Client, settings: Any
) -> None:
    settings.SIGNUP_ATTEMPT_RATE = "10/h"
    for n in range(3):
        assert sign_up(client, f"weak{n}", password1="123", password2="123").status_code == 200
    assert sign_up(client, "carol").status_code == 302  # mistakes did not count as accounts
    other = Client()
    statuses = [sign_up(other, f"x{n}", password1="1", password2="1").status_code for n in range(8)]
    assert statuses[:6] == [200] * 6 and statuses[6:] == [429] * 2
    assert b"Too many sign-up attempts" in sign_up(other, "dave").content


def test_sign_up_is_refused_with_words_when_the_cache_is_down(settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        }
    }
    # (Django's test signals rebuild the cache handler when CACHES changes.)
    response = sign_up(Client(), "carol")
    assert response.status_code == 429
    assert b"Sign-up is unavailable for a moment" in response.content
    assert not User.objects.filter(username="carol").exists()


# ---------------------------------------------------------------------------- email confirmation


def test_with_confirmation_on_a_new_account_opens_only_with_the_mailed_link(
    client: Client, settings: Any, mailoutbox: list[Any]
) -> None:
    settings.EMAIL_CONFIRMATION = True
    response = sign_up(client, "carol")
    assert response.status_code == 200
    assert b"We mailed a link to" in response.content
    carol = User.objects.get(username="carol")
    assert not carol.is_active
    assert "_auth_user_id" not in client.session
    refused = log_in(client, "carol", "a-long-test-password")
    assert refused.status_code == 200
    assert b"not confirmed yet" in refused.content
    [mail] = mailoutbox
    assert mail.to == ["carol@example.org"]
    link = re.search(r"https?://testserver(/accounts/confirm/\S+)", mail.body)
    assert link is not None
    opened = client.get(link.group(1))
    assert opened.status_code == 302 and opened["Location"] == reverse("login")
    carol.refresh_from_db()
    assert carol.is_active
    assert log_in(client, "carol", "a-long-test-password").status_code == 302
    again = Client().get(link.group(1))  # a link works once
    assert again.status_code == 400
    assert b"does not confirm an account" in again.content


def test_with_confirmation_on_sign_up_needs_an_email_address(client: Client, settings: Any) -> None:
    settings.EMAIL_CONFIRMATION = True
    response = sign_up(client, "carol", email="")
    assert response.status_code == 200
    assert not User.objects.filter(username="carol").exists()


def test_a_forged_or_foreign_confirmation_link_opens_nothing(client: Client, settings: Any) -> None:
    settings.EMAIL_CONFIRMATION = True
    sign_up(client, "carol")
    sign_up(Client(), "mallory", ELSEWHERE)
    carol = User.objects.get(username="carol")
    mallory = User.objects.get(username="mallory")
    mallory_token = tokens.make_token(mallory)
    carol_uid = urlsafe_base64_encode(force_bytes(carol.pk))
    for path in (
        reverse("confirm-email", args=[carol_uid, mallory_token]),
        reverse("confirm-email", args=[carol_uid, "abc-123"]),
        reverse("confirm-email", args=["!!", mallory_token]),
    ):
        assert client.get(path).status_code == 400
    carol.refresh_from_db()
    assert not carol.is_active


def test_without_confirmation_the_account_opens_at_once(client: Client) -> None:
    assert sign_up(client, "carol").status_code == 302
    assert User.objects.get(username="carol").is_active
