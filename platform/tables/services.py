"""What a table does, for both sides: the worker's :class:`~tables.seat.PersonSeat` writes
the game as the person sees it, the person's browser reads it and answers.

Every function here is a short transaction on the database, the only thing a worker and a web
process share. An answer is taken at most once (a conditional ``UPDATE`` on the open
:class:`~tables.models.Ask`), and only if it is one of the decisions the person's view lists
as legal, before the deadline: the referee never waits on a wrong answer, and a request
answered twice (a double click, two tabs) counts once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from core.locks import hold_count
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from matches.models import Match, Seat
from submissions.models import Bot
from tournaments.models import Tournament

from arena.engine.decisions import parse_decision
from arena.engine.errors import IllegalDecisionError
from arena.engine.variants import variant as get_variant
from arena.table.messages import GameEnd, GameStart, Request
from tables.models import Ask, Guest, Table

#: An answer must be in this long before the referee's deadline, so that it reaches the
#: referee in time (the seat reads answers every ``tables.seat.POLL_S``).
ANSWER_MARGIN = timedelta(milliseconds=250)
#: The notices a table keeps (the newest).
KEEP_NOTICES = 20
#: ``Table.dropped`` of a person who resigned: the seat sees it at its next decision and leaves
#: the game (the arena plays the rest of it for the person at once).
RESIGNED = "you resigned"


@dataclass(frozen=True)
class TimeControl:
    """A person's clock: ``decision_ms`` per decision, ``bank_ms`` per game beyond it."""

    key: str
    label: str
    decision_ms: int
    bank_ms: int


TIME_CONTROLS = (
    TimeControl("relaxed", "Relaxed: 30 s a decision, 2 min bank", 30_000, 120_000),
    TimeControl("normal", "Normal: 15 s a decision, 1 min bank", 15_000, 60_000),
    TimeControl("quick", "Quick: 6 s a decision, 20 s bank", 6_000, 20_000),
)


class TableRefused(ValueError):
    """A table that cannot be set up as asked; the message says why."""


def playable_bots() -> list[Bot]:
    """The bots a person may choose: the house bots, and every ladder bot whose owner lets
    people play it (``Bot.plays_people``), among those that play (``Bot.objects.playing``:
    a passed active version, neither retired nor paused, the owner's account active)."""
    return list(
        Bot.objects.playing()
        .filter(Q(is_house=True) | Q(plays_people=True))
        .select_related("active_version")
        .order_by("-is_house", "name")
    )


def person_name(person: User | AbstractBaseUser | AnonymousUser) -> str:
    """The person's name at the table: the username, with ``@`` (a bot's name has none)."""
    return f"@{person.get_username()}"


def open_table_of(person: User | AbstractBaseUser | AnonymousUser) -> Table | None:
    """The person's table whose game is still to be played or under way, if any."""
    return (
        Table.objects.filter(person_id=person.pk, match__status__in=(Match.QUEUED, Match.RUNNING))
        .order_by("-created_at")
        .first()
    )


def check_room(address: str | None = None) -> None:
    """Raise :class:`TableRefused` while ``TABLES_AT_ONCE`` tables are queued or playing: each
    holds a match worker for its game, and the bots' matches must keep theirs; or while
    ``address`` (the client's, :func:`accounts.throttle.client_ip`) has ``TABLES_PER_ADDRESS``
    of them, whatever its guests or accounts: one address cannot take every table."""
    hold_count("tables open")  # within a transaction: people's requests count one at a time
    open_tables = Table.objects.filter(match__status__in=(Match.QUEUED, Match.RUNNING))
    if open_tables.count() >= settings.TABLES_AT_ONCE:
        raise TableRefused(
            f"every table is taken (at most {settings.TABLES_AT_ONCE} games with people at "
            "once): try again in a few minutes"
        )
    cap = settings.TABLES_PER_ADDRESS
    if address and open_tables.filter(address=address).count() >= cap:
        raise TableRefused(
            f"your address has {cap} table{'s' if cap > 1 else ''} open already (at most "
            f"{cap} at once, so that everyone gets a seat): finish a game there first"
        )


def create_table(
    person: User | AbstractBaseUser | AnonymousUser,
    variant: str,
    bots: list[Bot],
    *,
    decision_ms: int,
    bank_ms: int,
    guest: bool = False,
    seed: int | None = None,
    address: str | None = None,
) -> Table:
    """A new table: ``person`` against ``bots`` (one game of ``variant``); the match is
    queued (the caller sends it, :func:`tables.tasks.start_table`); ``address``, the client's,
    counts against ``TABLES_PER_ADDRESS`` (:func:`check_room`). Raises
    :class:`TableRefused` for a player count the variant does not have, a bot chosen twice or
    a bot the person may not choose."""
    try:
        rules = get_variant(variant)
    except (KeyError, ValueError) as error:
        raise TableRefused(f"unknown variant {variant!r}") from error
    players = len(bots) + 1
    if players not in rules.players:
        low, high = rules.players.start, rules.players.stop - 1
        raise TableRefused(
            f"{variant} is played by {low} to {high} players: choose {low - 1} to {high - 1} "
            f"bots, not {len(bots)}"
        )
    if len({bot.pk for bot in bots}) != len(bots):
        raise TableRefused("each bot can take one seat only")
    allowed = {bot.pk for bot in playable_bots()}
    refused = [bot.name for bot in bots if bot.pk not in allowed]
    if refused:
        raise TableRefused(f"these bots do not play people: {', '.join(refused)}")
    if person.pk is None:
        raise TableRefused("log in (or play as a guest) to take a seat")
    rng = random.Random(seed)
    entry = rng.randrange(players)  # the person's place in the lineup
    with transaction.atomic():
        # The person's row, locked: two tables asked for at once are set up one after the other.
        get_user_model().objects.select_for_update().filter(pk=person.pk).first()
        if open_table_of(person) is not None:
            # A seat holds a worker for the whole game: one table at a time per person.
            raise TableRefused("you are at a table already: finish that game first")
        check_room(address)  # ... and only so many on the whole site and per address
        match = Match.objects.create(
            variant=variant, players=players, games=1, seed=rng.randrange(2**31)
        )
        others = iter(bots)
        for number in range(players):
            if number != entry:
                bot = next(others)
                assert bot.active_version is not None
                Seat.objects.create(match=match, seat=number, bot=bot, version=bot.active_version)
        return Table.objects.create(
            person_id=person.pk,
            match=match,
            entry=entry,
            name=person_name(person),
            guest=guest,
            decision_ms=decision_ms,
            bank_ms=bank_ms,
            address=address or "",
        )


# -- the worker's side (tables.seat.PersonSeat)


def game_started(table_pk: int, start: GameStart) -> None:
    Table.objects.filter(pk=table_pk).update(
        game=start.index + 1, seat=start.seat, names=list(start.names)
    )


def open_ask(table_pk: int, request: Request) -> int:
    """Note ``request`` as the person's open decision; its row's id."""
    now = timezone.now()
    view = request.view.to_dict()
    table = Table.objects.only("game").get(pk=table_pk)
    with transaction.atomic():
        Table.objects.filter(pk=table_pk).update(view=view)
        ask = Ask.objects.create(
            table_id=table_pk,
            request_id=request.request_id,
            game=table.game,
            kind=request.kind.value,
            view=view,
            asked_at=now,
            deadline_at=now + timedelta(milliseconds=request.deadline_ms) - ANSWER_MARGIN,
            allowance_ms=request.allowance_ms,
            bank_ms=request.bank_ms,
        )
    return ask.pk


def answer_of(ask_pk: int) -> tuple[str, float] | str | None:
    """The person's answer to ask ``ask_pk`` and when it came (a Unix time), if any yet;
    :data:`RESIGNED` if the person resigned instead."""
    row = (
        Ask.objects.filter(pk=ask_pk).values_list("answer", "answered_at", "table__dropped").first()
    )
    if row is None:
        return None
    if row[0] and row[1] is not None:
        return row[0], row[1].timestamp()
    return RESIGNED if row[2] == RESIGNED else None


def expire_ask(table_pk: int, request_id: int) -> None:
    Ask.objects.filter(table_id=table_pk, request_id=request_id).update(expired=True)


def note(table_pk: int, message: str) -> None:
    """Keep what the arena told the person (a fault, the decision played for them)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().only("notices").get(pk=table_pk)
        stamp = timezone.now().isoformat(timespec="seconds")
        table.notices = [*table.notices, {"at": stamp, "message": message}][-KEEP_NOTICES:]
        table.save(update_fields=["notices"])


def game_ended(table_pk: int, end: GameEnd) -> None:
    Table.objects.filter(pk=table_pk).update(view=end.view.to_dict())


def person_dropped(table_pk: int, detail: str) -> None:
    """The arena dropped the person (the first reason counts)."""
    Table.objects.filter(pk=table_pk, dropped="").update(dropped=detail)


# -- the browser's side


def resign(table: Table) -> bool:
    """The person gives the table's game up: their seat leaves it at its next decision (a
    crash, ranked last) and the bots finish it at once. ``False`` if the game is over already
    or the person was dropped or resigned before."""
    open_match = Q(match__status__in=(Match.QUEUED, Match.RUNNING))
    return bool(Table.objects.filter(open_match, pk=table.pk, dropped="").update(dropped=RESIGNED))


class AnswerRefused(ValueError):
    """An answer that is not taken; ``status`` the HTTP status to say so with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def open_ask_of(table: Table) -> Ask | None:
    """The decision the table's person has to make now, if any."""
    return (
        Ask.objects.filter(table=table, answer="", expired=False, deadline_at__gt=timezone.now())
        .order_by("-request_id")
        .first()
    )


def answer(table: Table, request_id: Any, text: Any) -> str:
    """Take the person's answer ``text`` to request ``request_id``; the decision taken, in its
    text form. Raises :class:`AnswerRefused` (nothing is stored) for an answer to no open
    request (409: answered already, out of time, or the game is over), or one that is not a
    legal decision."""
    if not isinstance(request_id, int) or isinstance(request_id, bool):
        raise AnswerRefused("'request' must be the number of the decision asked")
    if not isinstance(text, str) or len(text) > 80:
        raise AnswerRefused("'decision' must be a decision's text, e.g. 'tile 42'")
    ask = Ask.objects.filter(table=table, request_id=request_id).first()
    if ask is None:
        raise AnswerRefused(f"decision {request_id} was never asked at this table", 404)
    if ask.answer:
        raise AnswerRefused(f"decision {request_id} is answered already ({ask.answer})", 409)
    now = timezone.now()
    if ask.expired or ask.deadline_at <= now:
        raise AnswerRefused(
            f"decision {request_id} is out of time: the arena played the default for you", 409
        )
    if table.match.status != Match.RUNNING:  # the worker died, say: nobody reads answers
        raise AnswerRefused(f"the game is over ({table.match.status})", 409)
    try:
        decision = str(parse_decision(text))
    except IllegalDecisionError as error:
        raise AnswerRefused(str(error)) from None
    legal = ask.view.get("legal", [])
    if decision not in legal:
        raise AnswerRefused(f"'{decision}' is not legal now; legal: {', '.join(legal)}")
    taken = Ask.objects.filter(pk=ask.pk, answer="", expired=False, deadline_at__gt=now).update(
        answer=decision, answered_at=now
    )
    if not taken:
        raise AnswerRefused(f"decision {request_id} is answered already", 409)
    return decision


def remaining_ms(deadline: datetime) -> int:
    return max(0, int((deadline - timezone.now()).total_seconds() * 1000))


def state(table: Table) -> dict[str, Any]:
    """What the person's page shows: the game as the person sees it and the open decision."""
    match = table.match
    ask = open_ask_of(table) if match.status == Match.RUNNING else None
    view = ask.view if ask is not None else table.view
    return {
        "status": match.status,
        "error": match.error if match.status == Match.FAILED else "",
        "game": table.game,
        "seat": table.seat,
        "names": table.names,
        "view": view,
        "ask": None
        if ask is None
        else {
            "request": ask.request_id,
            "kind": ask.kind,
            "legal": ask.view.get("legal", []),
            "remaining_ms": remaining_ms(ask.deadline_at),
            "allowance_ms": ask.allowance_ms,
            "bank_ms": ask.bank_ms,
        },
        "decision_ms": table.decision_ms,
        "bank_ms": table.bank_ms,
        "notices": table.notices,
        "dropped": table.dropped,
        "result": None
        if table.rank is None
        else {"score": table.score, "rank": table.rank, "faults": len(table.faults)},
        "match_url": match.get_absolute_url(),
    }


# -- guests are forgotten


#: Guests deleted per transaction by :func:`forget_guests`.
FORGET_BATCH = 500


def forget_guests(keep: timedelta, *, now: datetime | None = None) -> int:
    """Delete the guests that have not sat down (nor logged in) for ``keep``, with their
    tables; how many. A guest is a user made by one click, whose session is its only key:
    once that has expired, nobody can be that guest again, and its rows only grow the
    database. Their matches and replays stay (the replays name the guest as it played).

    Never a guest with a table still to be played or under way, nor one that owns anything
    beyond its tables (an administrator may have given it a bot or a tournament). The users'
    rows are locked as :func:`create_table` locks them, skipping any it holds: a guest that
    sits down at this moment is left for the next time.
    """
    cutoff = (now or timezone.now()) - keep
    tables = Table.objects.filter(person=OuterRef("pk"))
    forgettable = (
        get_user_model()
        .objects.filter(
            Exists(Guest.objects.filter(user=OuterRef("pk"), created_at__lt=cutoff)),
            Q(last_login__isnull=True) | Q(last_login__lt=cutoff),
            ~Exists(tables.filter(created_at__gte=cutoff)),
            ~Exists(tables.filter(match__status__in=(Match.QUEUED, Match.RUNNING))),
            ~Exists(Bot.objects.filter(owner=OuterRef("pk"))),
            ~Exists(Tournament.objects.filter(organiser=OuterRef("pk"))),
        )
        .order_by("pk")
    )
    forgotten = 0
    while True:
        with transaction.atomic():
            batch = list(
                forgettable.select_for_update(skip_locked=True).values_list("pk", flat=True)[
                    :FORGET_BATCH
                ]
            )
            if batch:
                get_user_model().objects.filter(pk__in=batch).delete()
        forgotten += len(batch)
        if len(batch) < FORGET_BATCH:
            return forgotten
