"""The referee's policy, driven with fake seats: no gRPC, no sandbox, only :class:`Seat` values.

Each fake seat misbehaves in one way (too slow, lost, answers the wrong kind, stops taking what
it is sent, plays illegal tiles); the referee must record the fault, play the default decision,
drop the seat when the policy says so, and finish the game.
"""

import asyncio
import itertools
import time

import pytest

from arena.bots.random import RandomBot
from arena.engine.decisions import PlayTile, TakeRow
from arena.engine.game import Game
from arena.engine.replay import to_replay, verify
from arena.runner.referee import Player, Referee, TableRules
from arena.runner.seat import DroppedSeat, HouseSeat, Posted, Seat
from arena.table.defaults import default_decision
from arena.table.faults import FaultKind
from arena.table.messages import GameEnd, GameStart, Notice, Problem, Reply, Request, SeatLost

RULES = TableRules(decision_ms=50, bank_ms=100, max_faults=3)


class FakeSeat(Seat):
    """Plays the default decision at once and records what it was sent."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.requests: list[Request] = []
        self.notices: list[Notice] = []
        self.starts: list[GameStart] = []
        self.ends: list[GameEnd] = []
        self.dropped_with: tuple[str, str] | None = None
        self.problems: list[Problem] = []

    async def start_game(self, start: GameStart) -> None:
        self.starts.append(start)

    async def decide(self, request: Request) -> Reply:
        self.requests.append(request)
        return Reply(self.answer(request), asyncio.get_running_loop().time())

    def answer(self, request: Request):
        return default_decision(request.view)

    async def notify(self, notice: Notice) -> None:
        self.notices.append(notice)

    async def end_game(self, end: GameEnd) -> None:
        self.ends.append(end)

    def take_problems(self) -> list[Problem]:
        problems, self.problems = self.problems, []
        return problems

    def drop(self, kind: str, detail: str) -> None:
        self.dropped_with = (kind, detail)


class Sleepy(FakeSeat):
    """Answers after ``seconds`` (each time, or only for the ``when``-th request)."""

    def __init__(self, name: str, seconds: float, when: int | None = None) -> None:
        super().__init__(name)
        self.seconds = seconds
        self.when = when

    async def decide(self, request: Request) -> Reply:
        self.requests.append(request)
        if self.when is None or len(self.requests) == self.when:
            await asyncio.sleep(self.seconds)
        return Reply(self.answer(request), asyncio.get_running_loop().time())


class Lost(FakeSeat):
    async def decide(self, request: Request) -> Reply:
        raise SeatLost("the bot closed its stream")

    async def lost_detail(self, reason: str) -> str:
        return f"{reason}; exit status 9"


class WrongKind(FakeSeat):
    def answer(self, request: Request):
        return TakeRow(0)  # never what a basic game asks


class Illegal(FakeSeat):
    def answer(self, request: Request):
        return PlayTile(next(t for t in range(1, 105) if t not in request.view.hand))


class Stalls(FakeSeat):
    """Takes its second request and never returns it: the write never completes."""

    async def decide(self, request: Request) -> Reply:
        self.requests.append(request)
        if len(self.requests) == 2:
            await asyncio.sleep(3600)
        return Reply(self.answer(request), asyncio.get_running_loop().time())

    def expire(self, request_id: int) -> bool:
        return request_id == self.requests[1].request_id


def play(seats: list[Seat], *, games: int = 1, rules: TableRules = RULES, seed: int = 3):
    """Play ``games`` basic games between ``seats`` (fixed seats); the players and replays."""
    players = [Player(i, seat.name, seat) for i, seat in enumerate(seats)]

    async def main():
        referee = Referee(rules)
        replays = []
        for number in range(1, games + 1):
            game = Game.new("basic", players=len(seats), seed=seed + number)
            faults = await referee.play(
                game,
                number=number,
                game_id=f"g{number}",
                players=players,
                seeds=[1] * len(seats),
                names=[s.name for s in seats],
            )
            replays.append(
                to_replay(game, [s.name for s in seats], [f.replay_record() for f in faults])
            )
        return replays

    return players, asyncio.run(main())


def test_well_behaved_seats_play_without_a_fault_and_every_replay_verifies():
    seats = [FakeSeat("a"), FakeSeat("b"), HouseSeat("house", RandomBot())]
    players, replays = play(seats, games=2)
    assert all(p.faults == [] and p.dropped is None for p in players)
    assert all(verify(r) == [] for r in replays)
    assert len(seats[0].starts) == 2 and len(seats[0].ends) == 2
    assert seats[0].requests[0].deadline_ms == RULES.decision_ms + RULES.bank_ms


def test_a_slow_answer_is_a_timeout_the_default_is_played_and_the_bank_is_empty():
    slow = Sleepy("slow", seconds=0.3, when=2)
    players, replays = play([slow, FakeSeat("b")])
    faults = players[0].faults
    assert [f.kind for f in faults] == [FaultKind.TIMEOUT]
    assert faults[0].detail == "no answer within 150 ms (allowance 50 ms + bank 100 ms)"
    assert slow.requests[2].bank_ms == 0  # the bank is spent for the rest of the game
    (notice,) = slow.notices
    assert notice.fault and notice.played == default_decision(slow.requests[1].view)
    assert players[0].dropped is None
    assert verify(replays[0]) == []


def test_time_beyond_the_allowance_comes_from_the_bank():
    thinker = Sleepy("thinker", seconds=0.08)  # 30 ms over the allowance, every time
    players, _ = play([thinker, FakeSeat("b")], rules=TableRules(50, 1000, 3))
    banks = [r.bank_ms for r in thinker.requests]
    assert banks[0] == 1000 and all(a > b for a, b in itertools.pairwise(banks))
    assert players[0].faults == []


def test_each_seat_is_judged_at_its_own_deadline():
    """The silent seat's second timeout comes one allowance after its request, not when the
    neighbour with a big bank would have run out."""
    silent = Sleepy("silent", seconds=3600)
    slow_but_rich = Sleepy("rich", seconds=0.06)
    started = time.monotonic()
    players, _ = play([silent, slow_but_rich], rules=TableRules(50, 5000, 2))
    elapsed = time.monotonic() - started
    assert [f.kind for f in players[0].faults][:2] == [FaultKind.TIMEOUT] * 2
    assert players[0].dropped is not None
    assert players[1].faults == []
    # First timeout at 5.05 s (a full bank), the second at 0.05 s: the neighbour's 5 s bank
    # was never waited for a second time.
    assert elapsed < 9.0


def test_a_lost_seat_is_a_crash_and_dropped_at_once_then_plays_defaults():
    lost = Lost("lost")
    players, replays = play([lost, FakeSeat("b")], games=2)
    faults = players[0].faults
    assert faults[0].kind is FaultKind.CRASH
    assert faults[0].detail == "the bot closed its stream; exit status 9"
    assert players[0].dropped is not None and players[0].dropped.game == 1
    assert isinstance(players[0].seat, DroppedSeat)
    assert lost.dropped_with == ("crash", faults[0].detail)
    assert "dropped from the match in game 1" in faults[1].detail and faults[1].game == 2
    assert [f["seat"] for f in replays[1]["result"]["faults"]] == [0]
    assert all(verify(r) == [] for r in replays)


def test_an_answer_of_the_wrong_kind_is_a_protocol_fault_and_three_drop_the_seat():
    wrong = WrongKind("wrong")
    players, _ = play([wrong, FakeSeat("b")])
    faults = players[0].faults
    assert [f.kind for f in faults] == [FaultKind.PROTOCOL] * 3
    assert "asked for a tile decision, answered" in faults[0].detail
    assert players[0].dropped is not None
    assert "3 faults in the match (the limit is 3)" in players[0].dropped.detail
    assert len(wrong.requests) == 3  # never asked again once dropped


def test_an_illegal_tile_is_a_fault_and_the_default_is_played_instead():
    players, replays = play([Illegal("illegal"), FakeSeat("b")], rules=TableRules(50, 100, 99))
    faults = players[0].faults
    assert faults and all(f.kind is FaultKind.ILLEGAL for f in faults)
    assert "not in seat 0's hand" in faults[0].detail
    assert verify(replays[0]) == []
    assert replays[0]["result"]["ranks"][0] == 2  # a faulted seat ranks last


def test_a_seat_that_stops_taking_requests_is_dropped_at_its_first_stall():
    stalls = Stalls("stalls")
    players, replays = play([stalls, FakeSeat("b")], rules=TableRules(50, 100, 99))
    (fault,) = players[0].faults
    assert fault.kind is FaultKind.TIMEOUT and "stopped reading its stream" in fault.detail
    assert players[0].dropped is not None and players[0].dropped.kind is FaultKind.TIMEOUT
    assert verify(replays[0]) == []


def test_problems_a_seat_reports_are_protocol_faults_and_late_answers_only_notices():
    seat = FakeSeat("noisy")
    seat.problems = [
        Problem("late", 5, "the answer to request 5 came too late"),
        Problem("protocol", 0, "a message of 3 bytes that is not a nimmt.v1.BotMessage"),
    ]
    players, _ = play([seat, FakeSeat("b")])
    assert [f.kind for f in players[0].faults] == [FaultKind.PROTOCOL]
    kinds = [n.kind.value for n in seat.notices]
    assert kinds == ["late", "protocol"]
    assert seat.notices[0].fault is False


def test_a_flood_a_seat_reports_drops_it_whatever_the_fault_limit():
    seat = FakeSeat("flood")
    seat.problems = [Problem("flood", 0, "64 messages that answer no request; not read")]
    players, replays = play([seat, FakeSeat("b")], rules=TableRules(50, 100, 99))
    (fault,) = players[0].faults[:1]
    assert fault.kind is FaultKind.PROTOCOL and fault.detail.startswith("64 messages")
    assert players[0].dropped is not None and players[0].dropped.kind is FaultKind.PROTOCOL
    assert seat.dropped_with == ("protocol", "64 messages that answer no request; not read")
    assert verify(replays[0]) == []


def test_a_bots_control_characters_never_reach_a_fault_raw():
    class Escapes(FakeSeat):
        async def decide(self, request: Request) -> Reply:
            return Reply(None, asyncio.get_running_loop().time(), "bad \x1b[2J\x07 answer")

    players, _ = play([Escapes("esc"), FakeSeat("b")])
    assert players[0].faults[0].detail == "bad \\x1b[2J\\x07 answer"


@pytest.mark.parametrize("count", [2, 5])
def test_fault_order_follows_the_seats_not_the_clock(count):
    """Several seats that fail at the same moment are recorded in seat order."""
    seats: list[Seat] = [Sleepy(f"s{i}", seconds=0.3 - 0.05 * i, when=1) for i in range(count)]
    _players, replays = play(seats, rules=TableRules(20, 0, 9))
    first_turn = [f for f in replays[0]["result"]["faults"] if f["turn"] == 0]
    assert [f["seat"] for f in first_turn] == list(range(count))


class Posting(FakeSeat):
    """Takes each request at once (:meth:`Seat.post`, as a program on the framed socket does)
    and answers ``seconds`` later (``None``: never), or fails as lost (``lose``)."""

    def __init__(
        self, name: str, seconds: float | None = 0.0, lose: bool = False, full: bool = False
    ) -> None:
        super().__init__(name)
        self.seconds = seconds
        self.lose = lose
        self.full = full  # the request went into a buffer the bot never drains
        self.expired: list[int] = []

    async def decide(self, request: Request) -> Reply:
        raise AssertionError("a seat that takes requests at once is never awaited")

    def post(self, request: Request) -> Posted | None:
        self.requests.append(request)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Reply] = loop.create_future()

        def resolve() -> None:
            if answer.done():  # the deadline passed first
                return
            if self.lose:
                answer.set_exception(SeatLost("the bot closed its stream"))
            else:
                answer.set_result(Reply(self.answer(request), loop.time()))

        if self.seconds is not None and not self.full:
            loop.call_later(self.seconds, resolve)
        return Posted(answer, answer.result)

    def expire(self, request_id: int) -> bool:
        self.expired.append(request_id)
        return self.full


def test_seats_that_take_requests_at_once_play_alongside_awaited_ones_without_a_fault():
    posting = Posting("posting", seconds=0.005)
    seats = [posting, Sleepy("awaited", seconds=0.01), HouseSeat("house", RandomBot())]
    players, replays = play(seats, games=2)
    assert all(p.faults == [] and p.dropped is None for p in players)
    assert all(verify(r) == [] for r in replays)
    assert players[0].answers == len(posting.requests) > 0
    assert 0.005 <= players[0].think_max < 0.05


def test_a_taken_request_unanswered_by_its_deadline_is_a_timeout_at_that_deadline():
    silent = Posting("silent", seconds=None)
    started = time.monotonic()
    players, replays = play([silent, FakeSeat("b")], rules=TableRules(50, 100, 2))
    elapsed = time.monotonic() - started
    faults = players[0].faults
    assert [f.kind for f in faults] == [FaultKind.TIMEOUT] * 2
    assert faults[0].detail == "no answer within 150 ms (allowance 50 ms + bank 100 ms)"
    assert faults[1].detail == "no answer within 50 ms (allowance 50 ms + bank 0 ms)"
    assert silent.expired == [r.request_id for r in silent.requests]  # later answers: late
    assert players[0].dropped is not None
    assert 0.2 <= elapsed < 5
    assert verify(replays[0]) == []


def test_an_answer_after_the_deadline_is_late_even_if_it_beats_the_timer():
    """An answer read a moment past the deadline (before the deadline's timer has run) is
    still a timeout: the verdict is the deadline's."""

    class JustLate(Posting):
        def post(self, request: Request) -> Posted | None:
            self.requests.append(request)
            loop = asyncio.get_running_loop()
            answer: asyncio.Future[Reply] = loop.create_future()
            received = loop.time() + request.deadline_ms / 1000 + 0.001
            answer.set_result(Reply(self.answer(request), received))
            return Posted(answer, answer.result)

    players, _ = play([JustLate("late"), FakeSeat("b")], rules=TableRules(50, 0, 1))
    (fault,) = players[0].faults
    assert fault.kind is FaultKind.TIMEOUT and fault.detail.startswith("no answer within 50 ms")


def test_a_taken_request_of_a_lost_seat_is_a_crash_and_the_seat_is_dropped():
    lost = Posting("lost", lose=True)
    players, replays = play([lost, FakeSeat("b")])
    fault = players[0].faults[0]
    assert fault.kind is FaultKind.CRASH and fault.detail == "the bot closed its stream"
    assert players[0].dropped is not None and lost.dropped_with is not None
    assert verify(replays[0]) == []


def test_a_request_stuck_in_a_full_buffer_is_a_stall_and_the_seat_is_dropped():
    stuck = Posting("stuck", full=True)
    players, _ = play([stuck, FakeSeat("b")], rules=TableRules(50, 100, 99))
    (fault,) = players[0].faults
    assert fault.kind is FaultKind.TIMEOUT and "stopped reading its stream" in fault.detail
    assert players[0].dropped is not None


def test_fault_order_follows_the_seats_when_taken_and_awaited_requests_fail_together():
    seats: list[Seat] = [
        Sleepy("awaited-0", seconds=0.3, when=1),
        Posting("taken-1", seconds=None),
        Sleepy("awaited-2", seconds=0.3, when=1),
        Posting("taken-3", seconds=None),
    ]
    _players, replays = play(seats, rules=TableRules(20, 0, 9))
    first_turn = [f for f in replays[0]["result"]["faults"] if f["turn"] == 0]
    assert [f["seat"] for f in first_turn] == [0, 1, 2, 3]
