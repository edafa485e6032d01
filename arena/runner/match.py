"""A match: bot programs, each in its own sandbox, play a series of games over the bot protocol.

:func:`run_match` starts a gRPC server on a Unix socket in a private folder (a random name that
others may traverse but not list: the sandbox needs that to bind the socket), one sandbox per bot
program (:func:`arena.sandbox.launch`), each holding a token of its own, and plays the games one
after the other. House bots can also sit in the match in process (no gRPC), to compare; and an
*external* bot, started by hand (in a debugger), can take a seat.

Seeding is that of ``nimmt play`` (:func:`arena.local.series_game`): game ``i`` is dealt from
``seed + i``, seats rotate, and each bot gets :func:`arena.local.bot_seed`; so a match of house
bots gives the same replays sandboxed and in process.

**Time** is measured here, from when a request is written to when its answer is read. Each
decision has an allowance (:data:`DECISION_MS`); time beyond it is drawn from the seat's time
bank for the game (:data:`BANK_MS`). The deadline sent is allowance + bank left; past it the
answer is a timeout and the bank is empty for the rest of the game. The tile choice is asked of
every seat at once.

**Faults** (``timeout``, ``crash``, ``illegal``, ``protocol``) never stop the match. The arena
plays the default decision (:mod:`arena.runner.defaults`) for the seat, records
``{seat, kind, turn, detail}`` in the replay's ``result.faults`` (so the seat ranks last in that
game) and tells the bot in a Notice. A bot is **dropped** from the rest of the match at its
:data:`MAX_FAULTS`-th fault, or at once when it crashes or disconnects: its process is killed,
and every later game records one fault for its seat (of the kind that dropped it) and plays
default decisions for it. Messages that answer no open request (garbage, unknown request ids)
are protocol faults of the game under way; an answer that comes after its request timed out is
only a notice.

Output (``out``): ``game-00001.json``... (``nimmt-replay/1``), ``logs/<bot>.log`` (the bot's
stdout and stderr, head and tail kept) and ``match.json`` (settings, sandbox layers, per-bot
faults, times and memory, the results table).
"""

import asyncio
import contextlib
import json
import re
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import grpc

from arena.bots.base import Bot, GameInfo
from arena.engine.decisions import Decision, Pending, kind_of
from arena.engine.errors import IllegalDecisionError
from arena.engine.game import Game
from arena.engine.observation import Observation, observe
from arena.engine.replay import to_replay, write
from arena.engine.variants import variant as get_variant
from arena.local import series_game
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import (
    KIND_TO_PROTO,
    PROTOCOL_VERSION,
    ProtocolError,
    decision_from_proto,
    fault_to_proto,
    put_decision,
    put_private,
    put_public,
)
from arena.protocol.server import ArenaServer, BotLost, Connection
from arena.stats import BotSummary, SeatedGame, summarize_series

from .defaults import default_decision
from .manifest import BotProgram
from .rules import BANK_MS, DECISION_MS, EXTERNAL_WAIT_MS, MAX_FAULTS, START_MS

#: Last lines of a bot's log quoted in a crash fault's detail.
LOG_LINES_IN_DETAIL = 3
#: How long (x 10 ms) a crash waits for the bot's process to exit, to report its status.
CRASH_WAIT_STEPS = 50
MATCH_FORMAT = "nimmt-match/1"

FAULT_KINDS = ("timeout", "crash", "illegal", "protocol")


class MatchError(RuntimeError):
    """A match that cannot be run as asked (no sandbox, bad settings); the message says why."""


@dataclass(frozen=True)
class Entrant:
    """One lineup entry: a bot program (run sandboxed), a house bot in process, or an
    ``external`` bot that somebody starts by hand (to debug it): the runner announces where to
    connect and waits up to :data:`EXTERNAL_WAIT_MS` for it.

    ``trusted`` programs (the house bots' own) may run with whatever sandbox layers the machine
    has; any other program needs full isolation unless the match is ``unsafe_no_sandbox``.
    ``env`` is added to the program's environment (e.g. ``NIMMT_BOT_OPTIONS``).
    """

    name: str
    program: BotProgram | None = None
    in_process: Callable[[], Bot] | None = None
    external: bool = False
    trusted: bool = False
    env: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (self.program is not None) + (self.in_process is not None) + self.external != 1:
            raise ValueError(
                f"entrant {self.name!r}: give exactly one of program, in_process, external"
            )

    @property
    def remote(self) -> bool:
        """Whether it plays over the protocol (a program or an external bot)."""
        return self.in_process is None


@dataclass(frozen=True)
class MatchConfig:
    """What to play and under which rules (defaults: the documented ones)."""

    variant: str
    games: int
    seed: int
    out: Path | None = None
    decision_ms: int = DECISION_MS
    bank_ms: int = BANK_MS
    max_faults: int = MAX_FAULTS
    start_ms: int = START_MS
    unsafe_no_sandbox: bool = False
    limits: Any = None  # arena.sandbox.Limits; None: its defaults

    def __post_init__(self) -> None:
        get_variant(self.variant)
        for name in ("games", "decision_ms", "max_faults", "start_ms"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not isinstance(self.bank_ms, int) or self.bank_ms < 0:
            raise ValueError(f"bank_ms must be a non-negative integer, got {self.bank_ms!r}")


@dataclass
class MatchResult:
    """The outcome: one replay per game, the per-bot summary rows and ``match.json``'s content."""

    replays: list[dict[str, Any]]
    table: list[BotSummary]
    summary: dict[str, Any]


# ----------------------------------------------------------------------------- per-bot state


@dataclass
class _Player:
    """One entrant during the match."""

    index: int
    entrant: Entrant
    token: str = ""
    bot: Bot | None = None  # in process
    process: Any = None  # arena.sandbox.BotProcess
    connection: Connection | None = None
    connected: asyncio.Future[Connection] | None = None
    log_path: Path | None = None
    started: float = 0.0
    start_ms: float | None = None
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))
    dropped: dict[str, Any] | None = None
    answers: int = 0
    think_total: float = 0.0
    think_max: float = 0.0
    exit_code: int | None = None
    peak_memory_mb: float | None = None
    pid: int | None = None
    uid: int | None = None

    @property
    def name(self) -> str:
        return self.entrant.name

    @property
    def fault_count(self) -> int:
        return sum(self.faults.values())


@dataclass
class _Ask:
    seat: int
    player: _Player
    request_id: int
    future: asyncio.Future[Any]
    sent: float
    deadline: float  # seconds after `sent`


class _GameRun:
    """The bookkeeping of one game: seats, banks, faults, notices to send."""

    def __init__(self, index: int, game_id: str, game: Game, seats: list[_Player]) -> None:
        self.index = index
        self.game_id = game_id
        self.game = game
        self.seats = seats
        self.faults: list[dict[str, Any]] = []
        self.banks: list[float] = []
        self.notices: list[tuple[_Player, pb.EngineMessage]] = []

    def turn_index(self) -> int:
        """0-based index into the replay's turns of the turn under way."""
        game = self.game
        if game.in_turn() or game.is_over():
            return max(0, len(game.turns) - 1)
        return len(game.turns)

    def seat_of(self, player: _Player) -> int | None:
        for seat, p in enumerate(self.seats):
            if p is player:
                return seat
        return None


# ----------------------------------------------------------------------------- the match


class _Match:
    def __init__(
        self,
        config: MatchConfig,
        entrants: Sequence[Entrant],
        progress: Callable[[int, int], None] | None,
        announce: Callable[[str, str, str], None] | None = None,
    ) -> None:
        self.announce = announce
        self.config = config
        self.players = [_Player(i, e) for i, e in enumerate(entrants)]
        self.progress = progress
        self.match_id = secrets.token_hex(4)
        self.allowance = config.decision_ms / 1000
        self.next_request = 0
        self.replays: list[dict[str, Any]] = []
        self.seated: list[SeatedGame] = []
        self.sandbox_report: dict[str, Any] = {"enabled": False, "layers": {}}
        self.server: ArenaServer | None = None
        self.private_dir: Path | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    # -- set-up and tear-down

    def _check_sandbox(self) -> bool:
        """Whether bot programs run sandboxed; refuse untrusted bots without isolation."""
        programs = [p for p in self.players if p.entrant.program is not None]
        if not programs:
            return False
        from arena import sandbox

        self.sandbox_report["layers"] = dict(sandbox.layers())
        if self.config.unsafe_no_sandbox:
            self.sandbox_report["note"] = "--unsafe-no-sandbox: bots run as plain processes"
            return False
        try:
            sandbox.require_isolation()
        except sandbox.SandboxUnavailable as exc:
            untrusted = [p.name for p in programs if not p.entrant.trusted]
            if untrusted:
                raise MatchError(
                    f"cannot isolate bots on this machine: {exc}\nRefusing to run "
                    f"{', '.join(untrusted)} without the sandbox. Pass --unsafe-no-sandbox "
                    "(unsafe_no_sandbox=True) to run them as plain processes, only for code you "
                    "trust."
                ) from None
            self.sandbox_report["note"] = f"house bots only, run without a sandbox: {exc}"
            return False
        self.sandbox_report["enabled"] = True
        return True

    async def _start_bots(self, sandboxed: bool) -> None:
        programs = [p for p in self.players if p.entrant.program is not None]
        for player in self.players:
            if player.entrant.in_process is not None:
                player.bot = player.entrant.in_process()
        if not any(p.entrant.remote for p in self.players):
            return
        from arena import sandbox

        loop = asyncio.get_running_loop()
        if sandboxed and programs:
            # Builds the bot runtime the first time (minutes); later a quick check.
            await loop.run_in_executor(None, sandbox.ensure_runtime)
        # A folder with a random name that others may traverse but not list (0711): the
        # sandbox resolves the socket's bind mount as the bot's uid. Tokens do the rest.
        self.private_dir = Path(tempfile.mkdtemp(prefix="nimmt-match-"))
        self.private_dir.chmod(0o711)
        socket_path = self.private_dir / "engine.sock"
        self.server = ArenaServer(
            socket_path, self._welcome, hello_timeout=self.config.start_ms / 1000
        )
        await self.server.start()
        logs = (self.config.out / "logs") if self.config.out else (self.private_dir / "logs")
        limits = self.config.limits or sandbox.Limits()
        for player in programs:
            program = player.entrant.program
            assert program is not None
            player.token = secrets.token_urlsafe(24)
            player.connected = self.server.expect(player.token, player.name)
            player.log_path = logs / f"{_file_name(player.name)}.log"
            spec = sandbox.LaunchSpec(
                command=list(program.command),
                bot_dir=program.directory,
                socket_path=socket_path,
                log_path=player.log_path,
                env={**player.entrant.env, "NIMMT_TOKEN": player.token},
                limits=limits,
                sandbox=sandboxed,
            )
            player.started = loop.time()
            try:
                player.process = sandbox.launch(spec)  # from this thread: see launch()
                player.pid, player.uid = player.process.pid, player.process.uid
            except (OSError, sandbox.SandboxUnavailable) as exc:
                self._drop(player, "crash", f"could not be started: {exc}", game=0)
        for player in self.players:
            if player.entrant.external:
                player.token = secrets.token_urlsafe(24)
                player.connected = self.server.expect(player.token, player.name)
                player.started = loop.time()
                if self.announce is not None:
                    self.announce(player.name, self.server.address, player.token)
        await self._await_hellos([p for p in self.players if p.entrant.remote])

    async def _await_hellos(self, remote: list[_Player]) -> None:
        loop = asyncio.get_running_loop()
        limit = loop.time() + self.config.start_ms / 1000
        external_limit = loop.time() + EXTERNAL_WAIT_MS / 1000
        waiting = [p for p in remote if p.dropped is None]
        while waiting:
            for player in list(waiting):
                assert player.connected is not None
                if player.connected.done():
                    player.connection = player.connected.result()
                    player.start_ms = (loop.time() - player.started) * 1000
                    waiting.remove(player)
                elif player.entrant.external:
                    if loop.time() > external_limit:
                        waiting.remove(player)
                        self._drop(
                            player,
                            "crash",
                            f"nobody connected within {EXTERNAL_WAIT_MS} ms",
                            game=0,
                        )
                elif player.process.poll() is not None:
                    waiting.remove(player)
                    status = player.process.poll()
                    self._drop(
                        player,
                        "crash",
                        f"exited with status {status} before saying hello{self._log_tail(player)}",
                        game=0,
                    )
                elif loop.time() > limit:
                    waiting.remove(player)
                    refused = self.server.rejections if self.server else []
                    why = f" (the arena refused: {'; '.join(refused)})" if refused else ""
                    self._drop(
                        player,
                        "crash",
                        f"never said hello within {self.config.start_ms} ms of its start{why}"
                        f"{self._log_tail(player)}",
                        game=0,
                    )
            if waiting:
                pending = [p.connected for p in waiting if p.connected is not None]
                await asyncio.wait(pending, timeout=0.02)

    def _welcome(self, name: str) -> pb.Welcome:
        return pb.Welcome(
            protocol_version=PROTOCOL_VERSION,
            match_id=self.match_id,
            bot_name=name,
            games=self.config.games,
            decision_ms=self.config.decision_ms,
            bank_ms=self.config.bank_ms,
            max_faults=self.config.max_faults,
        )

    async def _finish(self) -> None:
        """Tell every bot the match is over, let them exit, then end whatever is left."""
        for player in self.players:
            conn = player.connection
            if conn is not None and player.dropped is None and conn.lost is None:
                end = pb.EngineMessage()
                end.match_end.games = len(self.replays)
                end.match_end.faults = player.fault_count
                with contextlib.suppress(BotLost):
                    await conn.send(end)
                conn.close()
        loop = asyncio.get_running_loop()
        limit = loop.time() + 2.0
        while any(p.process is not None and p.process.poll() is None for p in self.players):
            if loop.time() > limit:
                break
            await asyncio.sleep(0.01)
        self._cleanup()
        if self.server is not None:
            await self.server.stop(0.2)

    def _cleanup(self) -> None:
        for player in self.players:
            if player.process is not None:
                player.process.kill()
                player.exit_code = player.process.poll()
                player.peak_memory_mb = player.process.peak_memory_mb
        if self.private_dir is not None:
            shutil.rmtree(self.private_dir, ignore_errors=True)
            self.private_dir = None

    # -- faults

    def _log_tail(self, player: _Player) -> str:
        if player.process is None:
            return ""
        # Non-blank lines, without the ^^^ markers under a traceback's source line.
        lines = [
            line
            for line in player.process.log_text().splitlines()
            if line.strip() and line.strip(" ~^")
        ]
        if not lines:
            return "; its log is empty"
        tail = " | ".join(line.strip()[:200] for line in lines[-LOG_LINES_IN_DETAIL:])
        return f"; last log lines: {tail}"

    def _drop(self, player: _Player, kind: str, detail: str, game: int) -> None:
        if player.dropped is not None:
            return
        player.dropped = {"game": game, "kind": kind, "detail": detail}
        if player.connection is not None:
            player.connection.close(
                grpc.StatusCode.ABORTED, f"dropped from the match: {kind}: {detail}"[:1000]
            )
        if player.process is not None:
            process = player.process
            if kind == "crash" or self.loop is None:
                process.kill()
            else:  # a moment to log the ABORTED status before the kill
                self.loop.call_later(0.3, process.kill)

    def _fault(
        self,
        run: _GameRun,
        seat: int,
        kind: str,
        detail: str,
        *,
        request_id: int = 0,
        played: Decision | None = None,
    ) -> None:
        player = run.seats[seat]
        run.faults.append({"seat": seat, "kind": kind, "turn": run.turn_index(), "detail": detail})
        player.faults[kind] += 1
        if kind != "crash" and player.connection is not None and player.dropped is None:
            notice = pb.EngineMessage()
            n = notice.notice
            n.kind = _NOTICE[kind]
            n.request_id = request_id
            n.game_id = run.game_id
            n.message = detail
            n.fault = True
            if played is not None:
                put_decision(n.played, played)
            run.notices.append((player, notice))
        if kind == "crash":
            self._drop(player, kind, detail, run.index)
        elif player.fault_count >= self.config.max_faults:
            self._drop(
                player,
                kind,
                f"{player.fault_count} faults in the match (the limit is "
                f"{self.config.max_faults}); the last: {detail}",
                run.index,
            )

    async def _crash_detail(self, player: _Player, reason: str) -> str:
        """Why the stream ended, in words: the exit status if the process ends within a moment
        (the stream usually closes just before it exits), and the last lines of its log."""
        status = None
        if player.process is not None:
            for _ in range(CRASH_WAIT_STEPS):
                status = player.process.poll()
                if status is not None:
                    await asyncio.sleep(0.02)  # let the log reader drain the last lines
                    break
                await asyncio.sleep(0.01)
        what = f"the process exited with status {status}" if status is not None else reason
        return f"{what}{self._log_tail(player)}"

    def _take_problems(self, run: _GameRun) -> None:
        """Record what the reader tasks found since the last look (garbage, unknown ids)."""
        for player in self.players:
            conn = player.connection
            if conn is None or not conn.problems:
                continue
            problems, conn.problems = conn.problems, []
            seat = run.seat_of(player)
            for problem in problems:
                if player.dropped is not None:
                    break
                if problem.kind == "late":
                    notice = pb.EngineMessage()
                    n = notice.notice
                    n.kind = pb.NOTICE_KIND_LATE
                    n.request_id = problem.request_id
                    n.game_id = run.game_id
                    n.message = f"{problem.detail}; it was ignored (the timeout was the fault)"
                    run.notices.append((player, notice))
                elif seat is not None:
                    self._fault(
                        run, seat, "protocol", problem.detail, request_id=problem.request_id
                    )
                else:  # not seated in this game: counts for the match only
                    player.faults["protocol"] += 1

    async def _send_notices(self, run: _GameRun) -> None:
        notices, run.notices = run.notices, []
        for player, message in notices:
            if player.connection is not None and player.dropped is None:
                with contextlib.suppress(BotLost):
                    await player.connection.send(message)

    # -- one game

    async def _play_game(self, index: int) -> dict[str, Any]:
        config = self.config
        loop = asyncio.get_running_loop()
        n = len(self.players)
        series = series_game(config.seed, index, n)
        bot_seeds = series.bot_seeds(config.seed)
        seats = [self.players[entry] for entry in series.seats]
        # As `nimmt play` names seats, so that the same seed gives the same replay.
        names = [p.name.partition("#")[0] for p in seats]
        players = [{"name": name, "entry": e} for name, e in zip(names, series.seats, strict=True)]
        game = Game.new(config.variant, players=n, seed=series.deal_seed)
        run = _GameRun(index, f"game-{index + 1:05d}", game, seats)
        run.banks = [config.bank_ms / 1000] * n
        starts: list[tuple[int, _Player, Coroutine[Any, Any, None]]] = []
        for seat, player in enumerate(seats):
            if player.dropped is not None:
                d = player.dropped
                player.faults[d["kind"]] += 1
                run.faults.append(
                    {
                        "seat": seat,
                        "kind": d["kind"],
                        "turn": 0,
                        "detail": f"dropped from the match in game {d['game'] + 1}: "
                        f"{d['detail']}; the arena plays default decisions",
                    }
                )
                continue
            info = GameInfo(config.variant, n, seat, bot_seeds[seat], run.game_id)
            if player.bot is not None:
                player.bot.start_game(info)
                continue
            assert player.connection is not None
            start = pb.EngineMessage()
            s = start.game_start
            s.game_id = run.game_id
            s.game_index = index
            s.variant = config.variant
            s.players = n
            s.seat = seat
            s.seed = bot_seeds[seat]
            s.player_names.extend(names)
            s.layout.extend(game.layout)
            s.bank_ms = config.bank_ms
            starts.append((seat, player, player.connection.send(start)))
        sent = await asyncio.gather(*(send for _, _, send in starts), return_exceptions=True)
        for (seat, player, _), outcome in zip(starts, sent, strict=True):
            if isinstance(outcome, BotLost):
                self._fault(run, seat, "crash", await self._crash_detail(player, str(outcome)))
            elif isinstance(outcome, BaseException):
                raise outcome
        self._take_problems(run)
        while (pending := game.pending) is not None:
            await self._decide(run, pending, loop)
            self._take_problems(run)
            await self._send_notices(run)
        replay = to_replay(game, players, run.faults)
        replay["series"] = {"seed": config.seed, "game": index + 1}
        result = replay["result"]
        scores, ranks = tuple(result["scores"]), tuple(result["ranks"])
        ends: list[Coroutine[Any, Any, None]] = []
        for seat, player in enumerate(seats):
            if player.dropped is not None:
                continue
            view = observe(game, seat)
            if player.bot is not None:
                player.bot.end_game(view, scores, ranks)
                continue
            assert player.connection is not None
            end = pb.EngineMessage()
            e = end.game_end
            e.game_id = run.game_id
            put_public(e.view, view)
            put_private(e.view, view)
            e.scores.extend(scores)
            e.ranks.extend(ranks)
            for f in run.faults:
                e.faults.append(fault_to_proto(f))
            ends.append(player.connection.send(end))
        for outcome in await asyncio.gather(*ends, return_exceptions=True):
            if isinstance(outcome, BaseException) and not isinstance(outcome, BotLost):
                raise outcome
        self.seated.append(SeatedGame(series.seats, scores, ranks))
        return replay

    async def _decide(
        self, run: _GameRun, pending: Pending, loop: asyncio.AbstractEventLoop
    ) -> None:
        """Ask every seat in ``pending.seats`` (all at once), then apply the answers in seat
        order, with a fault and the default decision where an answer is missing or wrong."""
        game = run.game
        views: dict[int, Observation] = {}
        decisions: dict[int, Decision] = {}
        asks: list[_Ask] = []
        prepared: list[tuple[int, _Player, int, pb.EngineMessage, float]] = []
        public: bytes | None = None
        for seat in pending.seats:
            player = run.seats[seat]
            view = views[seat] = observe(game, seat)
            if player.dropped is not None or player.bot is not None:
                continue
            assert player.connection is not None
            self.next_request += 1
            request_id = self.next_request
            deadline = self.allowance + run.banks[seat]
            message = pb.EngineMessage()
            request = message.request
            request.request_id = request_id
            request.game_id = run.game_id
            request.seat = seat
            request.kind = KIND_TO_PROTO[pending.kind]
            if public is None:  # the same for every seat asked at this moment
                shared = pb.Observation()
                put_public(shared, view)
                public = shared.SerializeToString()
            request.view.MergeFromString(public)
            put_private(request.view, view)
            request.deadline_ms = int(deadline * 1000)
            request.bank_ms = int(run.banks[seat] * 1000)
            request.allowance_ms = self.config.decision_ms
            prepared.append((seat, player, request_id, message, deadline))
        # Written concurrently: each write waits for gRPC to take it, and the bots should all
        # get the tile choice at once.
        if len(prepared) == 1:
            seat, player, request_id, message, _ = prepared[0]
            outcomes: list[Any] = [await _ask(player, message, request_id)]
        else:
            outcomes = await asyncio.gather(
                *(
                    _ask(player, message, request_id)
                    for _, player, request_id, message, _ in prepared
                ),
                return_exceptions=True,
            )
        for (seat, player, request_id, _, deadline), outcome in zip(
            prepared, outcomes, strict=True
        ):
            if isinstance(outcome, BotLost):
                self._fault(run, seat, "crash", await self._crash_detail(player, str(outcome)))
            elif isinstance(outcome, BaseException):
                raise outcome
            else:
                future, sent = outcome
                asks.append(_Ask(seat, player, request_id, future, sent, deadline))
        local = [
            (seat, run.seats[seat].bot)
            for seat in pending.seats
            if run.seats[seat].bot is not None and run.seats[seat].dropped is None
        ]

        def think() -> None:
            for seat, bot in local:
                assert bot is not None
                decisions[seat] = bot.decide(views[seat])

        if local and asks:
            # In a thread, so that the event loop keeps reading (and timing) the programs'
            # answers while an in-process bot thinks.
            await loop.run_in_executor(None, think)
        elif local:
            think()
        if asks:
            until = max(a.sent + a.deadline for a in asks)
            await asyncio.wait([a.future for a in asks], timeout=max(0.0, until - loop.time()))
        for ask in asks:
            if ask.future.done() and ask.future.exception() is not None:
                reason = str(ask.future.exception())
                detail = await self._crash_detail(ask.player, reason)
                self._fault(run, ask.seat, "crash", detail)
                continue
            decision = self._collect(run, pending, ask, views[ask.seat])
            if decision is not None:
                decisions[ask.seat] = decision
        for seat in pending.seats:
            decision = decisions.get(seat)
            if decision is None:
                decision = default_decision(views[seat])
            try:
                game.apply(seat, decision)
            except IllegalDecisionError as exc:
                fallback = default_decision(views[seat])
                self._fault(run, seat, "illegal", str(exc), played=fallback)
                game.apply(seat, fallback)

    def _collect(
        self, run: _GameRun, pending: Pending, ask: _Ask, view: Observation
    ) -> Decision | None:
        """One ask's outcome (the stream still up): the decision, or ``None`` after recording a
        fault (and then the default decision is played)."""
        seat, player, future = ask.seat, ask.player, ask.future
        if future.done():
            reply = future.result()
            spent = reply.received - ask.sent
            if spent <= ask.deadline:
                player.answers += 1
                player.think_total += spent
                player.think_max = max(player.think_max, spent)
                if spent > self.allowance:
                    run.banks[seat] = max(0.0, run.banks[seat] - (spent - self.allowance))
                try:
                    decision = decision_from_proto(reply.answer.decision)
                except ProtocolError as exc:
                    detail = str(exc)
                else:
                    if kind_of(decision) is pending.kind:
                        return decision
                    detail = f"asked for a {pending.kind.value} decision, answered '{decision}'"
                self._fault(
                    run,
                    seat,
                    "protocol",
                    detail,
                    request_id=ask.request_id,
                    played=default_decision(view),
                )
                return None
        if player.connection is not None:
            player.connection.expire(ask.request_id)
        run.banks[seat] = 0.0
        bank_left = int((ask.deadline - self.allowance) * 1000)
        self._fault(
            run,
            seat,
            "timeout",
            f"no answer within {int(ask.deadline * 1000)} ms (allowance "
            f"{self.config.decision_ms} ms + bank {bank_left} ms)",
            request_id=ask.request_id,
            played=default_decision(view),
        )
        return None

    # -- the whole match

    async def run(self) -> MatchResult:
        self.loop = asyncio.get_running_loop()
        started = time.time()
        out = self.config.out
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            for stale in out.glob("game-*.json"):  # an earlier, longer run's
                if re.fullmatch(r"game-\d{5,}\.json", stale.name):
                    stale.unlink()
        sandboxed = self._check_sandbox()
        # Replays are written by a thread of their own, off the games' critical path.
        writer = ThreadPoolExecutor(1, thread_name_prefix="replay-writer")
        writes: list[asyncio.Future[None]] = []
        try:
            await self._start_bots(sandboxed)
            for index in range(self.config.games):
                replay = await self._play_game(index)
                self.replays.append(replay)
                if out is not None:
                    path = out / f"game-{index + 1:05d}.json"
                    writes.append(self.loop.run_in_executor(writer, write, path, replay))
                if self.progress is not None:
                    self.progress(index + 1, self.config.games)
            await self._finish()
            await asyncio.gather(*writes)
        finally:
            writer.shutdown(wait=True)
            self._cleanup()
            if self.server is not None:
                await self.server.stop(0)
        table = summarize_series([p.name for p in self.players], self.seated)
        summary = self._summary(table, started)
        if out is not None:
            (out / "match.json").write_text(json.dumps(summary, indent=2) + "\n", "utf-8")
        return MatchResult(self.replays, table, summary)

    def _summary(self, table: list[BotSummary], started: float) -> dict[str, Any]:
        config = self.config
        bots = []
        for player in self.players:
            entrant = player.entrant
            program = entrant.program
            entry: dict[str, Any] = {
                "name": player.name,
                "kind": "program" if program else "external" if entrant.external else "in-process",
                "faults": dict(player.faults),
                "dropped": player.dropped,
                "answers": player.answers,
                "think_ms": {
                    "mean": round(1000 * player.think_total / player.answers, 3)
                    if player.answers
                    else None,
                    "max": round(1000 * player.think_max, 3),
                },
            }
            if program is not None:
                log = None
                if player.log_path is not None and config.out is not None:
                    log = str(player.log_path.relative_to(config.out))
                entry |= {
                    "directory": str(program.directory),
                    "command": list(program.command),
                    "language": program.language,
                    "trusted": entrant.trusted,
                    "start_ms": None if player.start_ms is None else round(player.start_ms, 1),
                    "peak_memory_mb": None
                    if player.peak_memory_mb is None
                    else round(player.peak_memory_mb, 1),
                    "exit_code": player.exit_code,
                    "pid": player.pid,
                    "uid": player.uid,
                    "log": log,
                }
            bots.append(entry)
        return {
            "format": MATCH_FORMAT,
            "protocol": f"nimmt.v1/{PROTOCOL_VERSION}",
            "match_id": self.match_id,
            "started": datetime.fromtimestamp(started, UTC).isoformat(timespec="seconds"),
            "duration_s": round(time.time() - started, 3),
            "variant": config.variant,
            "games": len(self.replays),
            "seed": config.seed,
            "decision_ms": config.decision_ms,
            "bank_ms": config.bank_ms,
            "max_faults": config.max_faults,
            "sandbox": self.sandbox_report,
            "bots": bots,
            "results": [row.to_dict() for row in table],
            "replays": [f"game-{i + 1:05d}.json" for i in range(len(self.replays))],
        }


async def _ask(
    player: _Player, message: pb.EngineMessage, request_id: int
) -> tuple[asyncio.Future[Any], float]:
    """Send a request; its answer's future and the loop time the write completed (when the
    deadline starts). Raises :class:`BotLost` or returns (gather passes the exception on)."""
    assert player.connection is not None
    future = await player.connection.ask(message, request_id)
    return future, asyncio.get_running_loop().time()


_NOTICE = {
    "timeout": pb.NOTICE_KIND_TIMEOUT,
    "illegal": pb.NOTICE_KIND_ILLEGAL,
    "protocol": pb.NOTICE_KIND_PROTOCOL,
}


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.\-#]", "_", name)


def run_match(
    config: MatchConfig,
    entrants: Sequence[Entrant],
    progress: Callable[[int, int], None] | None = None,
    announce: Callable[[str, str, str], None] | None = None,
) -> MatchResult:
    """Play the match ``config`` describes between ``entrants`` (lineup order; the number of
    entrants is the number of players). ``progress(done, total)`` is called after each game;
    ``announce(name, address, token)`` once the runner waits for an external bot.

    Raises :class:`MatchError` if the bots cannot be run as asked (see :class:`Entrant`).
    """
    if not entrants:
        raise MatchError("a match needs at least one bot")
    get_variant(config.variant).check_players(len(entrants))
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise MatchError(f"entrant names must differ: {names}")
    return asyncio.run(_Match(config, entrants, progress, announce).run())


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
    "run_match",
]
