"""People's tables shared fairly: open tables per address (``TABLES_PER_ADDRESS``, whatever its
guests or accounts), one per person, and a table whose person left (``TABLE_ABANDON_DECISIONS``
decisions in a row ran out) ends in seconds and frees its slot."""

import threading
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connections
from django.test import Client
from django.urls import reverse
from matches.models import Match
from nimmt_site_testing import make_user, program_bot, wait_for
from submissions.models import Bot
from tables import services
from tables.models import Table
from tables.tasks import play_table

pytestmark = pytest.mark.django_db

HERE, ELSEWHERE = "203.0.113.5", "198.51.100.7"


@pytest.fixture(autouse=True)
def fresh_counters() -> None:
    cache.clear()  # the guests-per-address counter lives in the test broker's Redis


@pytest.fixture
def house() -> list[Bot]:
    return [program_bot("quick-a"), program_bot("quick-b")]


def _play(table: Table) -> threading.Thread:
    """Play ``table`` as a worker would, in a thread."""

    def work() -> None:
        try:
            play_table(table_pk=table.pk)
        finally:
            connections.close_all()

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def test_a_guest_click_loop_from_one_address_cannot_take_every_table(
    house: list[Bot], settings: Any
) -> None:
    """The attack: 40 clicks on "play as a guest" from one address, each a new browser."""
    assert settings.TABLES_AT_ONCE == 4 and settings.TABLES_PER_ADDRESS == 2
    statuses = [
        Client().post(reverse("play-guest"), REMOTE_ADDR=HERE).status_code for _ in range(40)
    ]
    assert statuses.count(302) == 2, statuses
    refused = Client().post(reverse("play-guest"), REMOTE_ADDR=HERE)
    assert (
        refused.status_code == 503 and b"your address has 2 tables open already" in refused.content
    )
    assert Table.objects.filter(address=HERE).count() == 2
    # ... and no guest was made for nothing: only the two who sit at the tables
    assert Table.objects.values("person").distinct().count() == 2
    elsewhere = Client().post(reverse("play-guest"), REMOTE_ADDR=ELSEWHERE)
    assert elsewhere.status_code == 302


def test_an_account_and_guests_of_one_address_share_its_tables(house: list[Bot]) -> None:
    alice = make_user("alice")
    services.create_table(alice, "basic", house, decision_ms=1000, bank_ms=0, address=HERE)
    Client().post(reverse("play-guest"), REMOTE_ADDR=HERE)
    with pytest.raises(services.TableRefused, match="your address has 2 tables"):
        services.create_table(
            make_user("bob"), "basic", house, decision_ms=1000, bank_ms=0, address=HERE
        )
    # a finished game frees its place
    Match.objects.filter(table__person=alice).update(status=Match.FINISHED)
    services.create_table(
        make_user("carol"), "basic", house, decision_ms=1000, bank_ms=0, address=HERE
    )


@pytest.mark.django_db(transaction=True)
def test_an_abandoned_table_ends_within_seconds_and_frees_its_slot(
    house: list[Bot], sandbox_runtime: Any, settings: Any
) -> None:
    """The attack: people who walk away held their tables' slots for 7-8 minutes."""
    settings.TABLE_ABANDON_DECISIONS = 2
    settings.TABLES_AT_ONCE = 1
    alice = make_user("alice")
    table = services.create_table(alice, "basic", house, decision_ms=1500, bank_ms=0, seed=5)
    began = time.monotonic()
    thread = _play(table)  # alice never answers
    wait_for(
        "the abandoned game to end",
        lambda: Match.objects.filter(pk=table.match_id, status=Match.FINISHED).exists(),
        timeout=60,
    )
    took = time.monotonic() - began
    thread.join(timeout=60)
    table.refresh_from_db()
    assert "2 decisions in a row run out: gone from the table" in table.dropped
    # two decisions' time and the bots' quick play, not a decision per turn of the game
    assert took < 2 * 1.5 + 20, took
    services.create_table(make_user("bob"), "basic", house, decision_ms=1000, bank_ms=0)
