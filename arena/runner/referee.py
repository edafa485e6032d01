"""The referee: the arena's policy around one :class:`~arena.engine.game.Game`.

The engine knows the rules; the referee adds what a match between untrusted programs needs,
and nothing else (it imports neither gRPC nor the sandbox: it speaks to :class:`Seat` values):

- **time**: each decision has an allowance (``decision_ms``); time beyond it comes from the
  seat's bank for the game (``bank_ms``). A seat's deadline is allowance + bank left, counted
  from when the request is handed to the seat; past it the answer is a ``timeout`` fault and
  the bank is empty for the rest of the game. Each seat is judged at its own deadline: the
  tile choice is asked of every seat at once, and one slow seat does not delay the verdict
  on another. Every other message to a seat (game start, notices, game end) must be taken
  within one allowance.
- **faults**: a missing, late, unreadable or illegal answer is a fault (:class:`FaultKind`).
  The referee plays the default decision (:mod:`arena.table.defaults`) for the seat, records
  the fault (so the seat ranks last in that game) and tells the bot in a :class:`Notice`.
- **drops**: a seat is dropped from the rest of the match at its ``max_faults``-th fault, at
  once when it is lost (crash, closed stream), and at once when it stops taking what the arena
  writes to it (it would stall the table). A dropped seat becomes a :class:`DroppedSeat`:
  every later game records one fault for it and plays its default decisions.
- **notes**: what a seat said it was thinking with an answer in time (:mod:`arena.table.notes`,
  already bounded by the seat) is kept per game, keyed by turn, seat, kind and the seat's count
  of such decisions in the turn; a late answer's note goes with the answer.

Decisions are applied in seat order once every seat asked has answered or run out of time, so
a game is the same whatever order the answers arrive in.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from arena.engine.decisions import Decision, Pending, kind_of
from arena.engine.errors import IllegalDecisionError
from arena.engine.game import Game
from arena.engine.observation import Observation, observe
from arena.table.defaults import default_decision
from arena.table.faults import Drop, Fault, FaultKind
from arena.table.messages import (
    GameEnd,
    GameStart,
    Notice,
    NoticeKind,
    Reply,
    Request,
    SeatLost,
)
from arena.table.notes import DecisionNote, Note, option_names

from .seat import DroppedSeat, Posted, Seat

_T = TypeVar("_T")


@dataclass(frozen=True)
class TableRules:
    """The referee's numbers (defaults in :mod:`arena.runner.rules`)."""

    decision_ms: int
    bank_ms: int
    max_faults: int


@dataclass
class Player:
    """One entrant for the whole match: who plays it now (``seat``, a :class:`DroppedSeat`
    once dropped) and its tally. ``entry`` is its place in the lineup."""

    entry: int
    name: str
    seat: Seat
    faults: list[Fault] = field(default_factory=list)
    dropped: Drop | None = None
    answers: int = 0
    think_total: float = 0.0  # seconds
    think_max: float = 0.0

    def drop(self, drop: Drop) -> None:
        """Take the seat from its player for the rest of the match (the first drop counts)."""
        if self.dropped is not None:
            return
        self.dropped = drop
        self.seat.drop(drop.kind, drop.detail)
        self.seat = DroppedSeat(self.name, drop)


@dataclass(frozen=True)
class _Answered:
    decision: Decision | None  # None: unusable (``problem`` says why)
    spent: float
    problem: str = ""
    note: Note | None = None


@dataclass(frozen=True)
class _Failed:
    kind: FaultKind
    detail: str
    stalled: bool = False  # the seat did not take the request: drop it


class _Game:
    """The bookkeeping of one game under way."""

    def __init__(self, number: int, game_id: str, game: Game, players: Sequence[Player]) -> None:
        self.number = number  # 1-based
        self.game_id = game_id
        self.game = game
        self.players = players  # by seat
        self.faults: list[Fault] = []
        self.notices: list[tuple[Player, Notice]] = []
        self.notes: list[DecisionNote] = []
        self.asked: dict[tuple[int, int, str], int] = {}  # (turn, seat, kind) -> decisions

    def turn_index(self) -> int:
        """0-based index into the replay's turns of the turn under way."""
        game = self.game
        if game.in_turn() or game.is_over():
            return max(0, len(game.turns) - 1)
        return len(game.turns)


class Referee:
    """Plays games between :class:`Player` values under :class:`TableRules`; one referee per
    match (request ids and fault counts run across its games)."""

    def __init__(self, rules: TableRules) -> None:
        self.rules = rules
        self.allowance = rules.decision_ms / 1000
        self._request_id = 0
        self._moment = 0

    async def play(
        self,
        game: Game,
        *,
        number: int,
        game_id: str,
        players: Sequence[Player],
        seeds: Sequence[int],
        names: Sequence[str],
        notes: list[DecisionNote] | None = None,
    ) -> list[Fault]:
        """Play ``game`` (number ``number``, 1-based) to its end, ``players[seat]`` at each
        seat; the faults, in the order they happened. The seats' notes on their decisions are
        appended to ``notes``, if given."""
        run = _Game(number, game_id, game, players)
        if notes is not None:
            run.notes = notes
        banks = [self.rules.bank_ms / 1000] * game.players
        await self._start(run, seeds, names)
        while (pending := game.pending) is not None:
            await self._decide(run, pending, banks)
            self._take_problems(run)
            await self._send_notices(run)
        await self._end(run)
        return run.faults

    # -- game start and end

    async def _start(self, run: _Game, seeds: Sequence[int], names: Sequence[str]) -> None:
        game = run.game
        for seat, player in enumerate(run.players):
            if player.dropped is not None:
                drop = player.dropped
                when = "before the first game" if drop.before_start else f"in game {drop.game}"
                self._record(
                    run,
                    seat,
                    drop.kind,
                    f"dropped from the match {when}: {drop.detail}; the arena plays default "
                    "decisions",
                    turn=0,
                )
        starts = {
            seat: GameStart(
                game_id=run.game_id,
                index=run.number - 1,
                variant=game.variant.name,
                players=game.players,
                seat=seat,
                seed=seeds[seat],
                names=tuple(names),
                layout=tuple(game.layout),
                bank_ms=self.rules.bank_ms,
            )
            for seat, player in enumerate(run.players)
            if player.dropped is None
        }
        await self._deliver(
            run, {seat: run.players[seat].seat.start_game(s) for seat, s in starts.items()}
        )
        self._take_problems(run)

    async def _end(self, run: _Game) -> None:
        result = run.game.result()
        faults = tuple(run.faults)
        await self._deliver(
            run,
            {
                seat: player.seat.end_game(
                    GameEnd(
                        run.game_id,
                        observe(run.game, seat),
                        tuple(result.scores),
                        tuple(result.ranks),
                        faults,
                    )
                )
                for seat, player in enumerate(run.players)
                if player.dropped is None
            },
            after_game=True,
        )

    async def _deliver(
        self, run: _Game, writes: dict[int, Coroutine[Any, Any, None]], after_game: bool = False
    ) -> None:
        """Run one message per seat at once, each bounded by the allowance when the seat is
        timed. A seat that does not take its message stalls the table: a timeout fault, and it
        is dropped. A lost seat is a crash; ``after_game`` (the replay is final) it is left to
        the next game to find, and a stall counts for the match only."""
        seats = list(writes)
        outcomes = await _together(
            [self._bounded(run.players[seat].seat, writes[seat]) for seat in seats],
            [run.players[seat].seat for seat in seats],
        )
        for seat, failed in zip(seats, outcomes, strict=True):
            player = run.players[seat]
            if failed is None or (after_game and not failed.stalled):
                continue
            if after_game:
                player.faults.append(
                    Fault(run.number, seat, failed.kind, run.turn_index(), failed.detail)
                )
            else:
                self._fault(run, seat, failed.kind, failed.detail)
            if failed.stalled:
                self._drop(player, failed.kind, failed.detail, run.number)

    async def _bounded(self, seat: Seat, write: Coroutine[Any, Any, None]) -> _Failed | None:
        try:
            if seat.timed:
                async with asyncio.timeout(self.allowance):
                    await write
            else:
                await write
        except TimeoutError:
            return _Failed(FaultKind.TIMEOUT, self._stall_detail(), stalled=True)
        except SeatLost as lost:
            return _Failed(FaultKind.CRASH, await seat.lost_detail(str(lost)))
        return None

    def _stall_detail(self) -> str:
        return (
            f"the bot did not read what the arena sent it within {self.rules.decision_ms} ms "
            "(it stopped reading its stream); it is dropped, as it would stall the table"
        )

    # -- one decision

    async def _decide(self, run: _Game, pending: Pending, banks: list[float]) -> None:
        """Ask every seat in ``pending.seats`` at once, then apply the answers in seat order,
        with a fault and the default decision where an answer is missing or wrong."""
        game = run.game
        views = {seat: observe(game, seat) for seat in pending.seats}
        self._moment += 1
        loop = asyncio.get_running_loop()
        asks: dict[int, Coroutine[Any, Any, _Answered | _Failed]] = {}
        posted: dict[int, tuple[Posted, Request, float, asyncio.TimerHandle]] = {}
        for number in pending.seats:
            who = run.players[number].seat
            request = self._request(run, number, views[number], pending, banks[number])
            handed = loop.time()
            if who.timed and (post := who.post(request)) is not None:
                # Its own deadline, without a task: the answer's future fails at it.
                timer = loop.call_at(
                    handed + request.deadline_ms / 1000 + who.transit, _time_out, post.answer
                )
                posted[number] = (post, request, handed, timer)
            else:
                asks[number] = self._ask(who, request, pending, handed)
        seats = [run.players[number].seat for number in asks]
        gathered = dict(zip(asks, await _together(list(asks.values()), seats), strict=True))
        for number, (post, request, handed, timer) in posted.items():
            gathered[number] = await self._collect(
                run.players[number].seat, post, request, pending, handed, timer
            )
        outcomes = {number: gathered[number] for number in pending.seats}  # in seat order
        decisions: dict[int, Decision] = {}
        turn = run.turn_index()
        for seat, outcome in outcomes.items():
            player = run.players[seat]
            key = (turn, seat, pending.kind.value)
            index = run.asked[key] = run.asked.get(key, -1) + 1
            if isinstance(outcome, _Answered) and outcome.note is not None:
                run.notes.append(
                    DecisionNote(
                        seat,
                        turn,
                        pending.kind.value,
                        index,
                        outcome.note,
                        option_names(views[seat].legal),
                        str(outcome.decision or default_decision(views[seat])),
                    )
                )
            if isinstance(outcome, _Failed):
                if outcome.kind is FaultKind.TIMEOUT:
                    banks[seat] = 0.0
                played = default_decision(views[seat])
                self._fault(run, seat, outcome.kind, outcome.detail, played=played)
                if outcome.stalled:
                    self._drop(player, outcome.kind, outcome.detail, run.number)
                continue
            if player.seat.timed:
                player.answers += 1
                player.think_total += outcome.spent
                player.think_max = max(player.think_max, outcome.spent)
                banks[seat] = max(0.0, banks[seat] - max(0.0, outcome.spent - self.allowance))
            if outcome.decision is None:
                played = default_decision(views[seat])
                self._fault(run, seat, FaultKind.PROTOCOL, outcome.problem, played=played)
                continue
            decisions[seat] = outcome.decision
        for seat in pending.seats:
            decision = decisions.get(seat)
            if decision is None:
                decision = default_decision(views[seat])
            try:
                game.apply(seat, decision)
            except IllegalDecisionError as exc:
                fallback = default_decision(views[seat])
                self._fault(run, seat, FaultKind.ILLEGAL, str(exc), played=fallback)
                game.apply(seat, fallback)

    def _request(
        self, run: _Game, seat_number: int, view: Observation, pending: Pending, bank: float
    ) -> Request:
        self._request_id += 1
        deadline = self.allowance + bank
        return Request(
            request_id=self._request_id,
            moment=self._moment,
            game_id=run.game_id,
            seat=seat_number,
            kind=pending.kind,
            view=view,
            deadline_ms=int(deadline * 1000),
            bank_ms=int(bank * 1000),
            allowance_ms=self.rules.decision_ms,
        )

    async def _ask(
        self, seat: Seat, request: Request, pending: Pending, handed: float
    ) -> _Answered | _Failed:
        try:
            if seat.timed:
                # A timeout scope, not wait_for: no task of its own per decision.
                async with asyncio.timeout(request.deadline_ms / 1000 + seat.transit):
                    reply = await seat.decide(request)
            else:
                reply = await seat.decide(request)
        except TimeoutError:
            return self._timed_out(seat, request)
        except SeatLost as lost:
            return _Failed(FaultKind.CRASH, await seat.lost_detail(str(lost)))
        return self._judge(seat, request, pending, reply, handed)

    async def _collect(
        self,
        seat: Seat,
        post: Posted,
        request: Request,
        pending: Pending,
        handed: float,
        timer: asyncio.TimerHandle,
    ) -> _Answered | _Failed:
        """The outcome of a request the seat took at once (:meth:`Seat.post`)."""
        try:
            if not post.answer.done():
                with contextlib.suppress(Exception):  # reply() raises it again
                    await post.answer
            reply = post.reply()
        except TimeoutError:
            return self._timed_out(seat, request)
        except SeatLost as lost:
            return _Failed(FaultKind.CRASH, await seat.lost_detail(str(lost)))
        finally:
            timer.cancel()
        return self._judge(seat, request, pending, reply, handed)

    def _timed_out(self, seat: Seat, request: Request) -> _Failed:
        if seat.expire(request.request_id):
            return _Failed(FaultKind.TIMEOUT, self._stall_detail(), stalled=True)
        return self._late(request)

    def _judge(
        self, seat: Seat, request: Request, pending: Pending, reply: Reply, handed: float
    ) -> _Answered | _Failed:
        """A reply in time, or a late one; and whether what it says answers the request."""
        spent = reply.received - handed
        if seat.timed and spent * 1000 > request.deadline_ms:  # read just after the deadline
            seat.expire(request.request_id)
            return self._late(request)
        if reply.decision is None:
            return _Answered(None, spent, reply.error, reply.note)
        if kind_of(reply.decision) is not pending.kind:
            return _Answered(
                None,
                spent,
                f"asked for a {pending.kind.value} decision, answered '{reply.decision}'",
                reply.note,
            )
        return _Answered(reply.decision, spent, note=reply.note)

    def _late(self, request: Request) -> _Failed:
        return _Failed(
            FaultKind.TIMEOUT,
            f"no answer within {request.deadline_ms} ms (allowance {request.allowance_ms} ms "
            f"+ bank {request.bank_ms} ms)",
        )

    # -- faults, notices, problems

    def _record(self, run: _Game, seat: int, kind: FaultKind, detail: str, turn: int) -> Fault:
        fault = Fault(run.number, seat, kind, turn, detail)
        run.faults.append(fault)
        run.players[seat].faults.append(fault)
        return fault

    def _fault(
        self,
        run: _Game,
        seat: int,
        kind: FaultKind,
        detail: str,
        *,
        request_id: int = 0,
        played: Decision | None = None,
    ) -> None:
        player = run.players[seat]
        if player.dropped is not None:
            return  # a dropped seat's fault was recorded at its drop
        fault = self._record(run, seat, kind, detail, run.turn_index())
        if kind is FaultKind.CRASH:
            self._drop(player, kind, fault.detail, run.number)
            return
        notice = Notice(NoticeKind(kind.value), request_id, run.game_id, fault.detail, True, played)
        run.notices.append((player, notice))
        if len(player.faults) >= self.rules.max_faults:
            self._drop(
                player,
                kind,
                f"{len(player.faults)} faults in the match (the limit is "
                f"{self.rules.max_faults}); the last: {fault.detail}",
                run.number,
            )

    def _drop(self, player: Player, kind: FaultKind, detail: str, number: int) -> None:
        player.drop(Drop(number, kind, detail))

    def _take_problems(self, run: _Game) -> None:
        """Record what the seats sent since the last look that answered nothing."""
        for seat, player in enumerate(run.players):
            for problem in player.seat.take_problems():
                if player.dropped is not None:
                    break
                if problem.kind == "flood":  # the seat is no longer read: it cannot go on
                    self._fault(
                        run, seat, FaultKind.PROTOCOL, problem.detail, request_id=problem.request_id
                    )
                    self._drop(player, FaultKind.PROTOCOL, problem.detail, run.number)
                elif problem.kind == "late":
                    message = f"{problem.detail}; it was ignored (the timeout was the fault)"
                    notice = Notice(
                        NoticeKind.LATE, problem.request_id, run.game_id, message, False
                    )
                    run.notices.append((player, notice))
                else:
                    self._fault(
                        run, seat, FaultKind.PROTOCOL, problem.detail, request_id=problem.request_id
                    )

    async def _send_notices(self, run: _Game) -> None:
        notices, run.notices = run.notices, []
        by_seat: dict[int, list[Notice]] = {}
        for player, notice in notices:
            if player.dropped is None:
                seat = run.players.index(player)
                by_seat.setdefault(seat, []).append(notice)
        if by_seat:
            await self._deliver(
                run,
                {seat: self._notify_all(run.players[seat].seat, n) for seat, n in by_seat.items()},
            )

    @staticmethod
    async def _notify_all(seat: Seat, notices: list[Notice]) -> None:
        for notice in notices:
            await seat.notify(notice)


def _time_out(answer: asyncio.Future[Any]) -> None:
    if not answer.done():
        answer.set_exception(TimeoutError())


async def _together(calls: list[Coroutine[Any, Any, _T]], seats: list[Seat]) -> list[_T]:
    """The results of ``calls``, one per seat, run at once when a timed seat is among them (its
    clock must not wait for the others); one after the other when none is, which spares a
    table of house bots a task per message."""
    if len(calls) > 1 and any(seat.timed for seat in seats):
        return list(await asyncio.gather(*calls))
    return [await call for call in calls]
