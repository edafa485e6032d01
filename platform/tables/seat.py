"""The person's seat: the arena's :class:`~arena.runner.seat.Seat` for a person in a browser.

The referee speaks to it as to any seat; it passes each message on through the database, the
one thing the worker shares with the web processes (:mod:`tables.services`): a request becomes
an :class:`~tables.models.Ask` row, and the seat polls it every :data:`POLL_S` until the
person's browser has answered. The referee times the seat like a bot (it is ``timed``): past
the deadline it plays the default decision and records a timeout fault, and at the match's
fault limit it drops the person, whose later decisions are then played at once. A person who
lets ``TABLE_ABANDON_DECISIONS`` decisions in a row run out has left: the seat is lost at the
next request, and the game ends without them in seconds, freeing the table's slot.

The ORM is blocking and must not run on the match's event loop: every database call runs on
one thread of the seat's own, which closes its connection when the match ends (:meth:`close`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from django.conf import settings
from django.db import connections

from arena.engine.decisions import parse_decision
from arena.runner.seat import Seat
from arena.table.messages import GameEnd, GameStart, Notice, Reply, Request, SeatLost
from tables import services

#: How often the seat looks for the person's answer (s).
POLL_S = 0.1

_T = TypeVar("_T")


class PersonSeat(Seat):
    """Table ``table_pk``'s person, answering in the browser."""

    timed = True

    def __init__(self, name: str, table_pk: int, abandon_after: int | None = None) -> None:
        super().__init__(name)
        self.table_pk = table_pk
        #: Decisions in a row that ran out before the person is taken to have left the table.
        self.abandon_after = (
            settings.TABLE_ABANDON_DECISIONS if abandon_after is None else abandon_after
        )
        self._missed = 0  # decisions in a row that ran out
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="person-seat")
        self._closed = False
        self._over = False

    async def _db(self, call: Callable[[], _T]) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    async def start_game(self, start: GameStart) -> None:
        await self._db(partial(services.game_started, self.table_pk, start))

    async def decide(self, request: Request) -> Reply:
        if self._missed >= self.abandon_after:
            # The person left (closed the tab, walked away): end their part at once, so that
            # the rest of the game is played without waiting and the table's slot is free.
            raise SeatLost(
                f"the person let {self._missed} decisions in a row run out: gone from the table"
            )
        ask_pk = await self._db(partial(services.open_ask, self.table_pk, request))
        loop = asyncio.get_running_loop()
        while True:
            answered = await self._db(partial(services.answer_of, ask_pk))
            if answered == services.RESIGNED:
                raise SeatLost("the person resigned")
            if isinstance(answered, tuple):
                text, at = answered
                # When the person answered, on the event loop's clock (not when it was read).
                received = loop.time() - max(0.0, time.time() - at)
                self._missed = 0
                return Reply(parse_decision(text), received)
            await asyncio.sleep(POLL_S)

    def expire(self, request_id: int) -> bool:
        self._missed += 1
        self._submit(partial(services.expire_ask, self.table_pk, request_id))
        return False

    async def notify(self, notice: Notice) -> None:
        await self._db(partial(services.note, self.table_pk, notice.message))

    async def end_game(self, end: GameEnd) -> None:
        await self._db(partial(services.game_ended, self.table_pk, end))

    def drop(self, kind: str, detail: str) -> None:
        if not self._over:  # after the match's end, the line-up only clears the table
            self._submit(partial(services.person_dropped, self.table_pk, detail))

    async def end_match(self, games: int, faults: int) -> None:
        self._over = True

    def _submit(self, call: Callable[[], object]) -> None:
        if not self._closed:
            self._thread.submit(call)

    def close(self) -> None:
        """The match is over: finish what is written and close the thread's connection."""
        if self._closed:
            return
        self._closed = True
        self._thread.submit(connections.close_all).result()
        self._thread.shutdown(wait=True)
