"""A match: a series of games between a line-up of bots, each bot at a seat of its own kind.

:func:`run_match` brings the entrants to the table (:class:`~arena.runner.lineup.Lineup`:
sandboxed programs, house bots in process, a bot started by hand), has the referee
(:mod:`arena.runner.referee`) play the games one after the other, and sums the match up in a
:class:`~arena.runner.results.MatchResult`.

Seeding is that of ``nimmt play`` (:func:`arena.local.series_game`): game ``i`` is dealt from
``seed + i``, seats rotate, and each bot gets :func:`arena.local.bot_seed`; so a match of house
bots gives the same replays sandboxed and in process. A duplicate match
(``MatchConfig.duplicate``) plays each deal once per seat rotation, and no bot is dealt a deal
twice: each rotation is a *sitting* of fresh bot processes (and new house bot instances) that
plays that rotation of every deal, so the games are played rotation by rotation (with 4 bots:
games 1, 5, 9... with the first processes, then 2, 6, 10... with new ones); a bot that remembers
what it was dealt learns nothing about its opponents' hands from it. A bot started by hand or
playing through a seat of its own (a remote bot, a person) could remember across processes: a
duplicate match refuses it.

Output (``config.out``): ``game-00001.json``... (``nimmt-replay/1``), beside a game in which a
bot annotated its decisions ``notes/game-00001.json`` (``nimmt-notes/1``, every seat's notes:
whoever runs the match sees them all; the site keeps each for its bot's owner), ``logs/<bot>.log``
(each program's stdout and stderr, head and tail kept) and ``match.json``
(:meth:`MatchResult.write`).
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from arena.engine.game import Game
from arena.engine.record import GameRecord, Series
from arena.engine.replay import to_record, write
from arena.engine.variants import variant as get_variant
from arena.local import series_game
from arena.protocol.convert import PROTOCOL_VERSION
from arena.stats import SeatedGame, summarize_series
from arena.table.notes import NOTES_FOLDER, DecisionNote, notes_file, notes_name

from .lineup import Entrant, Lineup, MatchError
from .pool import WarmPool
from .referee import Player, Referee, TableRules
from .results import (
    BotReport,
    MatchResult,
    MatchSettings,
    Ranking,
    match_ranks,
    replay_file,
)
from .rules import BANK_MS, DECISION_MS, EXTERNAL_WAIT_MS, MAX_FAULTS, START_MS, MatchConfig

_REPLAY_NAME = re.compile(r"game-\d{5,}\.json")

#: ``watch(number, game, names)``: game ``number`` (1-based) of the match is dealt (see
#: :func:`run_match`).
Watch = Callable[[int, Game, tuple[str, ...]], None]
#: How often a match's loop calls ``alive`` (:func:`run_match`), in seconds.
ALIVE_S = 0.5
#: How long a match's replay files may take to be written once its games are over (seconds);
#: past it the match fails with a ``TimeoutError`` rather than wait on a disk that hangs.
WRITES_WAIT = 60.0


async def _beat(alive: Callable[[], None]) -> None:
    while True:
        alive()
        await asyncio.sleep(ALIVE_S)


async def _play(
    config: MatchConfig,
    entrants: Sequence[Entrant],
    progress: Callable[[int, int], None] | None,
    announce: Callable[[str, str, str], None] | None,
    watch: Watch | None,
    alive: Callable[[], None] | None = None,
    pool: WarmPool | None = None,
) -> MatchResult:
    if alive is None:
        return await _play_match(config, entrants, progress, announce, watch, pool)
    alive()  # the loop runs: from here on its own beats say so
    beating = asyncio.create_task(_beat(alive))
    try:
        return await _play_match(config, entrants, progress, announce, watch, pool)
    finally:
        beating.cancel()


async def _play_match(
    config: MatchConfig,
    entrants: Sequence[Entrant],
    progress: Callable[[int, int], None] | None,
    announce: Callable[[str, str, str], None] | None,
    watch: Watch | None,
    pool: WarmPool | None = None,
) -> MatchResult:
    started = time.time()
    match_id = secrets.token_hex(4)
    out = config.out
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for stale in [*out.glob("game-*.json"), *out.glob(f"{NOTES_FOLDER}/game-*.json")]:
            # an earlier, longer run's
            if _REPLAY_NAME.fullmatch(stale.name):
                stale.unlink()
    loop = asyncio.get_running_loop()
    referee = Referee(TableRules(config.decision_ms, config.bank_ms, config.max_faults))
    replays: list[GameRecord] = []
    notes: list[tuple[DecisionNote, ...]] = []
    seated: list[SeatedGame] = []
    plan = sittings(config, len(entrants))
    n = len(entrants)
    dup = config.duplicate
    deals = [
        frozenset(series_game(config.seed, i, n, duplicate=dup).deal_seed for i in part)
        for part in plan
    ]
    lineup = Lineup(
        config, entrants, match_id, announce, sittings=len(plan), pool=pool, deals=deals
    )
    # Replays are written by a thread of their own, off the games' critical path.
    writer = ThreadPoolExecutor(1, thread_name_prefix="replay-writer")
    writes: list[asyncio.Future[None]] = []
    played: dict[int, tuple[GameRecord, tuple[DecisionNote, ...], SeatedGame]] = {}
    try:
        async with lineup as players:
            for sitting, indices in enumerate(plan):
                if sitting:
                    await lineup.reseat(len(plan[sitting - 1]))
                for index in indices:
                    game_notes: list[DecisionNote] = []
                    replay, game = await _play_game(
                        config, referee, players, index, watch, game_notes
                    )
                    outcome = replay.result
                    seated_game = SeatedGame(game, outcome.scores, outcome.ranks)
                    played[index] = (replay, tuple(game_notes), seated_game)
                    if out is not None:
                        path = out / replay_file(index)
                        writes.append(loop.run_in_executor(writer, write, path, replay))
                        if game_notes:
                            path = out / notes_name(replay_file(index))
                            path.parent.mkdir(exist_ok=True)
                            content = notes_file(game_notes)
                            writes.append(loop.run_in_executor(writer, write, path, content))
                    if progress is not None:
                        progress(len(played), config.games)
            await lineup.finish(len(plan[-1]))
    finally:
        # Every replay is written before the match returns or fails, but a write that hangs
        # (a disk that stopped answering) is not waited on for ever.
        unwritten: set[asyncio.Future[None]] = set()
        if writes:
            _, unwritten = await asyncio.wait(writes, timeout=WRITES_WAIT)
        writer.shutdown(wait=False)
    if unwritten:
        raise TimeoutError(
            f"{len(unwritten)} of the match's files were not written within {WRITES_WAIT:.0f} s"
        )
    for written in writes:
        written.result()  # a write that failed (a full disk, say) fails the match
    for index in sorted(played):  # in the order of the games' numbers
        replay, game_notes_, seated_game = played[index]
        replays.append(replay)
        notes.append(game_notes_)
        seated.append(seated_game)
    table = summarize_series([p.name for p in players], seated)
    result = MatchResult(
        match_id=match_id,
        protocol=f"nimmt.v1/{PROTOCOL_VERSION}",
        started=datetime.fromtimestamp(started, UTC).isoformat(timespec="seconds"),
        duration_s=time.time() - started,
        settings=MatchSettings(
            config.variant,
            config.games,
            config.seed,
            config.decision_ms,
            config.bank_ms,
            config.max_faults,
            config.duplicate,
        ),
        sandbox=lineup.sandbox,
        bots=_reports(lineup, players, seated, config),
        table=tuple(table),
        replays=tuple(replays),
        notes=tuple(notes),
    )
    if out is not None:
        result.write(out)
    return result


async def _play_game(
    config: MatchConfig,
    referee: Referee,
    players: list[Player],
    index: int,
    watch: Watch | None,
    notes: list[DecisionNote],
) -> tuple[GameRecord, tuple[int, ...]]:
    """Game ``index``: its replay, and the lineup entry at each seat; the seats' notes are
    appended to ``notes``."""
    n = len(players)
    series = series_game(config.seed, index, n, duplicate=config.duplicate)
    seats = [players[entry] for entry in series.seats]
    # As `nimmt play` names seats, so that the same seed gives the same replay.
    names = [p.name.partition("#")[0] for p in seats]
    game = Game.new(config.variant, players=n, seed=series.deal_seed)
    if watch is not None:
        watch(index + 1, game, tuple(names))
    game_id = replay_file(index).removesuffix(".json")
    faults = await referee.play(
        game,
        number=index + 1,
        game_id=game_id,
        players=seats,
        seeds=series.bot_seeds(config.seed),
        names=names,
        notes=notes,
    )
    entries = [{"name": name, "entry": e} for name, e in zip(names, series.seats, strict=True)]
    deal = series.deal + 1 if config.duplicate else None
    return to_record(
        game,
        entries,
        [f.replay_record() for f in faults],
        Series(config.seed, index + 1, deal),
    ), series.seats


def sittings(config: MatchConfig, players: int) -> list[list[int]]:
    """The games (0-based indices) each set of bot processes plays, in playing order: all of
    them in one sitting, but in a duplicate match one sitting per seat rotation, ``r``'s
    being the games ``r, r + players, r + 2·players...`` (rotation ``r`` of every deal).

    >>> from arena.runner.rules import MatchConfig
    >>> sittings(MatchConfig("basic", 6, 1, duplicate=True), 3)
    [[0, 3], [1, 4], [2, 5]]
    >>> sittings(MatchConfig("basic", 3, 1), 3)
    [[0, 1, 2]]
    """
    if not config.duplicate:
        return [list(range(config.games))]
    return [list(range(rotation, config.games, players)) for rotation in range(players)]


def _reports(
    lineup: Lineup, players: list[Player], seated: list[SeatedGame], config: MatchConfig
) -> tuple[BotReport, ...]:
    scores = [0] * len(players)
    game_ranks: list[list[int]] = [[] for _ in players]
    for game in seated:
        for seat, entry in enumerate(game.seats):
            scores[entry] += game.scores[seat]
            game_ranks[entry].append(game.ranks[seat])
    ranks = match_ranks(
        game_ranks,
        Ranking.of(config.games, config.duplicate),
        scores,
        get_variant(config.variant).higher_is_better,
    )
    return tuple(
        BotReport(
            name=player.name,
            kind=lineup.entrants[player.entry].kind,
            # by game (a duplicate match plays them rotation by rotation), in order within one
            faults=tuple(sorted(player.faults, key=lambda fault: fault.game)),
            dropped=player.dropped,
            answers=player.answers,
            think_mean_ms=1000 * player.think_total / player.answers if player.answers else None,
            think_max_ms=1000 * player.think_max,
            score=scores[player.entry],
            rank=ranks[player.entry],
            program=lineup.program_info(player.entry),
            network=lineup.network_info(player.entry),
        )
        for player in players
    )


def run_match(
    config: MatchConfig,
    entrants: Sequence[Entrant],
    progress: Callable[[int, int], None] | None = None,
    announce: Callable[[str, str, str], None] | None = None,
    watch: Watch | None = None,
    alive: Callable[[], None] | None = None,
    pool: WarmPool | None = None,
) -> MatchResult:
    """Play the match ``config`` describes between ``entrants`` (lineup order; the number of
    entrants is the number of players). ``progress(done, total)`` is called after each game;
    ``announce(name, address, token)`` once the runner waits for an external bot.
    ``watch(number, game, names)`` is called when game ``number`` (1-based) is dealt, before
    its first decision, so that a spectator can follow it live by listening to its step events
    (:meth:`Game.listen`, e.g. :class:`arena.engine.frames.Film`); a listener runs inside the
    match's loop, so it must be quick and must not change the game. ``alive()`` is called from
    the match's loop every :data:`ALIVE_S` seconds while it runs (and once as it starts): a
    loop that something blocks stops calling it (the site lets the match's lease run out).
    ``pool``: sandboxed programs whose kit stays come from it and go back to it
    (:mod:`arena.runner.pool`); without one every process is ended with the match.

    Raises :class:`MatchError` if the bots cannot be run as asked (see :class:`Entrant`).
    """
    if not entrants:
        raise MatchError("a match needs at least one bot")
    get_variant(config.variant).check_players(len(entrants))
    if config.duplicate and config.games % len(entrants):
        raise MatchError(
            f"a duplicate match of {len(entrants)} bots plays each deal once per seat rotation: "
            f"games must be a multiple of {len(entrants)}, got {config.games}"
        )
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise MatchError(f"entrant names must differ: {names}")
    if config.duplicate:
        remembering = [e.name for e in entrants if e.external or e.joined is not None]
        if remembering:
            raise MatchError(
                f"a duplicate match cannot seat {', '.join(remembering)}: a bot started by hand "
                "or playing through a seat of its own (a remote bot, a person) would see each "
                "deal in every seat rotation and could remember it; play the match without "
                "duplicate deals"
            )
    return asyncio.run(_play(config, entrants, progress, announce, watch, alive, pool))


__all__ = [
    "BANK_MS",
    "DECISION_MS",
    "EXTERNAL_WAIT_MS",
    "MAX_FAULTS",
    "START_MS",
    "Entrant",
    "MatchConfig",
    "MatchError",
    "MatchResult",
    "Watch",
    "run_match",
    "sittings",
]
