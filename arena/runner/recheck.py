"""A bot re-asked every recorded decision of one seat of a replay (``nimmt replay decisions``).

The replay is re-played with the engine (:func:`arena.engine.replay.replay_turn`); before each
decision of the seat the engine notes the seat's view (:func:`~arena.engine.observation.observe`,
the very view the arena sent then). The bot program is started the way a match starts it
(:class:`~arena.runner.lineup.Lineup`: its build, its sandbox, its hello), told of one game
with the seat, the names and the bot seed of the recorded game, asked each decision in the
order the game asked them, with the match's time per decision, and told the game's end. Every
answer is compared with the recorded decision: a bot author's regression test ("does version 2
still play what version 1 played here?").
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from arena.engine.decisions import Decision, DecisionKind
from arena.engine.errors import ReplayError
from arena.engine.game import Game
from arena.engine.observation import Observation, observe
from arena.engine.record import GameRecord
from arena.engine.replay import replay_turn, simulate, start
from arena.local import series_game
from arena.table.messages import GameEnd, GameStart, Request, SeatLost

from .lineup import Entrant, Lineup, MatchError
from .manifest import BotProgram
from .rules import MatchConfig
from .seat import Seat

#: Seconds past a request's deadline before its answer counts as missing.
SLACK_S = 0.5


@dataclass(frozen=True)
class Recorded:
    """One decision of the seat in the replay and the view it was taken in."""

    turn: int  # 1-based
    kind: DecisionKind
    view: Observation
    decision: Decision


@dataclass(frozen=True)
class Answer:
    """The bot's answer now to a recorded decision: ``decision`` (``None`` with ``problem``:
    it answered nothing usable in time), and whether it is a legal one."""

    recorded: Recorded
    decision: Decision | None
    problem: str = ""

    @property
    def differs(self) -> bool:
        return self.decision != self.recorded.decision


@dataclass(frozen=True)
class Recheck:
    """Every recorded decision of ``seat`` and the bot's answer now."""

    seat: int
    name: str  # the seat's name in the replay
    answers: tuple[Answer, ...]
    lost: str = ""  # the bot stopped playing before the last decision: why

    @property
    def differing(self) -> tuple[Answer, ...]:
        return tuple(a for a in self.answers if a.differs)


def recorded_decisions(record: GameRecord, seat: int) -> tuple[list[Recorded], Game]:
    """The decisions of ``seat`` in ``replay``, in the order the game asked them, each with
    the seat's view then; and the game at its end. Raises :class:`ReplayError` for a replay
    that does not verify or a seat it does not have."""
    final, problems = simulate(record)
    if problems:
        raise ReplayError(f"the replay does not verify: {'; '.join(problems[:3])}")
    if not 0 <= seat < final.players:
        raise ReplayError(f"there is no seat {seat} in this game (seats 0..{final.players - 1})")
    game = start(record)
    found: list[Recorded] = []

    def note(at: Game, who: int, decision: Decision) -> None:
        if who == seat and at.pending is not None:
            turn = len(at.turns) + (not at.in_turn())
            found.append(Recorded(turn, at.pending.kind, observe(at, seat), decision))

    for turn in record.turns:
        replay_turn(game, turn, note)
    return found, game


def bot_seed(record: GameRecord, seat: int) -> int:
    """The seed the arena gave the seat's bot in this game (``nimmt match`` and the site
    record the series: its seed and the game's number); else the deal's seed."""
    series = record.series
    if series is not None and series.game >= 1:
        duplicate = series.deal is not None
        dealt = series_game(series.seed, series.game - 1, len(record.players), duplicate=duplicate)
        return dealt.bot_seeds(series.seed)[seat]
    return record.seed


async def recheck(
    replay: GameRecord, seat: int, program: BotProgram, config: MatchConfig
) -> Recheck:
    """Ask ``program`` every recorded decision of ``seat`` (``config``: the time per decision
    and bank, the sandbox's settings; its variant must be the replay's). Raises
    :class:`ReplayError` for a bad replay or seat, :class:`MatchError` if the bot cannot be
    started."""
    asked, final = recorded_decisions(replay, seat)
    names = replay.names
    game_id = "recheck"
    answers: list[Answer] = []
    lineup = Lineup(config, [Entrant(program.name, program=program)], secrets.token_hex(4))
    async with lineup as players:
        [player] = players
        if player.dropped is not None:
            raise MatchError(f"{program.name} did not start: {player.dropped.detail}")
        table = player.seat
        start_game = GameStart(
            game_id=game_id,
            index=0,
            variant=final.variant.name,
            players=final.players,
            seat=seat,
            seed=bot_seed(replay, seat),
            names=names,
            layout=tuple(final.layout),
            bank_ms=config.bank_ms,
        )
        lost = ""
        try:
            await table.start_game(start_game)
            for number, record in enumerate(asked, start=1):
                answers.append(await _ask(table, number, game_id, seat, record, config))
            result = final.result()
            ranks = replay.result.ranks
            await table.end_game(GameEnd(game_id, observe(final, seat), result.scores, ranks, ()))
        except SeatLost as exc:
            lost = await table.lost_detail(str(exc))
        await lineup.finish(1)
    return Recheck(seat, names[seat], tuple(answers), lost)


async def _ask(
    table: Seat, number: int, game_id: str, seat: int, record: Recorded, config: MatchConfig
) -> Answer:
    view = record.view
    deadline_ms = config.decision_ms + config.bank_ms
    request = Request(
        request_id=number,
        moment=number,
        game_id=game_id,
        seat=seat,
        kind=record.kind,
        view=view,
        deadline_ms=deadline_ms,
        bank_ms=config.bank_ms,
        allowance_ms=config.decision_ms,
    )
    try:
        reply = await asyncio.wait_for(table.decide(request), deadline_ms / 1000 + SLACK_S)
    except TimeoutError:
        table.expire(number)
        return Answer(record, None, f"no answer within {deadline_ms} ms")
    if reply.decision is None:
        return Answer(record, None, reply.error or "no decision")
    if reply.decision not in view.legal:
        return Answer(record, reply.decision, "not a legal decision here")
    return Answer(record, reply.decision)


def summary(check: Recheck, answers: Sequence[Answer] | None = None) -> str:
    """The summary line: how many decisions were re-asked and how many now differ."""
    differing = check.differing if answers is None else answers
    return (
        f"{len(check.answers)} decisions of seat {check.seat} ({check.name}) re-asked: "
        f"{len(differing)} differ" + (f"; the bot stopped: {check.lost}" if check.lost else "")
    )
