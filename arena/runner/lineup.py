"""The line-up: bringing a match's entrants to the table and clearing it afterwards.

:class:`Lineup` checks the sandbox, starts each bot program in its own sandbox with a socket
and a token of its own (:func:`arena.sandbox.launch`, :class:`~arena.protocol.server.SeatServer`),
builds the programs whose manifest has a ``build`` (once per content, :mod:`.build`; a failed
build is a :class:`MatchError` with its log), announces where a bot started by hand should
connect, waits for every hello, and gives the
referee one :class:`~arena.runner.referee.Player` per entrant. A bot that does not start or
never says hello sits as a dropped seat from the first game on. When the match is over it tells
the bots still playing, gives them a moment to exit, then ends every process, stops the servers
and removes the private folder, whatever happened before.

A match may be played in several *sittings* (a duplicate match: one per seat rotation, so that
no process is dealt a deal twice): :meth:`Lineup.reseat` ends the sitting's processes as the
match end does, and brings in fresh ones (house bots too: a new instance); the players, with
their faults and drops, go on from one sitting to the next. A later sitting's log is appended
to the bot's one log file under a line saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from types import TracebackType

from arena import sandbox
from arena.bots.base import Bot
from arena.protocol import arena_pb2 as pb
from arena.protocol import convert
from arena.protocol.server import SeatServer
from arena.table.faults import Drop, FaultKind
from arena.table.messages import SeatLost
from arena.table.quote import quote

from .build import BuildFailed, ready
from .connected import ExternalSeat, ProgramSeat, SharedViews, exited_log_tail, log_tail
from .manifest import BotProgram
from .pool import PoolKey, Warm, WarmPool
from .referee import Player
from .results import ProgramInfo, SandboxReport
from .rules import EXTERNAL_WAIT_MS, MatchConfig
from .seat import DroppedSeat, HouseSeat, Seat

#: How long a kept process may take to say hello again before a new one takes its place (ms).
WARM_HELLO_MS = 2000
#: How long the bots still playing get to exit after the match end (seconds).
EXIT_GRACE = 2.0
#: How long the match end may take to write to one bot (seconds).
MATCH_END_WRITE = 1.0
#: How long the clearing of a sitting waits for its processes to end (seconds): past it the
#: match goes on, and the thread ending them keeps their uids leased until it is done.
END_WAIT = 30.0
#: How long a bot's server may take to stop past its grace (seconds).
SERVER_STOP_WAIT = 5.0
#: The threads that end bots' processes: not the event loop's default executor, which
#: ``asyncio.run`` joins at its end, so that an ending past :data:`END_WAIT` does not hold the
#: match's return either.
_ENDING = ThreadPoolExecutor(4, thread_name_prefix="bot-ending")


class MatchError(RuntimeError):
    """A match that cannot be run as asked (no sandbox, bad settings); the message says why."""


#: ``join(seat_key, welcome, wait_s)``: an entrant's own seat for this match (e.g. a remote
#: bot's, through the site's gateway), its Welcome to pass on; raises :class:`SeatLost` (with
#: why) if the bot does not take the seat within ``wait_s`` seconds. ``seat_key`` names the
#: seat uniquely (match id and lineup entry).
Join = Callable[[str, pb.Welcome, float], Awaitable[Seat]]


@dataclass(frozen=True)
class Entrant:
    """One lineup entry: a bot program (run sandboxed), a house bot in process, or an
    ``external`` bot that somebody starts by hand (to debug it): the runner announces where to
    connect and waits up to :data:`~arena.runner.rules.EXTERNAL_WAIT_MS` for it.

    A ``joined`` entrant brings its own seat (:data:`Join`): the site's remote bots.

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
    joined: Join | None = None
    #: Whose program it is (e.g. the site's bot version): a warm process is handed only to an
    #: entrant with the same ``version``, folder, command, environment and limits.
    version: str = ""

    def __post_init__(self) -> None:
        given = (self.program is not None) + (self.in_process is not None) + self.external
        if given + (self.joined is not None) != 1:
            raise ValueError(
                f"entrant {self.name!r}: give exactly one of program, in_process, external, joined"
            )

    @property
    def remote(self) -> bool:
        """Whether it plays over the protocol (a program or an external bot)."""
        return self.in_process is None

    @property
    def kind(self) -> str:
        """How it sits at the table: ``program``, ``external``, ``joined`` or ``in-process``."""
        if self.joined is not None:
            return "joined"
        return "program" if self.program else "external" if self.external else "in-process"


@dataclass
class _Slot:
    """One remote entrant while it is brought to the table."""

    player: Player
    entrant: Entrant
    server: SeatServer
    started: float
    process: sandbox.BotProcess | None = None
    log_path: Path | None = None
    start_ms: float | None = None
    #: The socket its bot said hello on (:attr:`Connection.transport`).
    transport: str | None = None
    #: Where a later sitting's log is appended once its process has ended (``log_path`` is
    #: then the sitting's own file).
    log_into: Path | None = None
    #: The process as the pool knows it (a reusable process), and whether it came from the pool.
    warm: Warm | None = None
    reused: bool = False
    #: Whether its kit said it stays (``Hello.stays``), and whether it was asked to.
    stays: bool = False
    kept: bool = False
    welcome: pb.Welcome | None = None


class Lineup:
    """The entrants of one match at the table (``async with Lineup(...) as players``)."""

    def __init__(
        self,
        config: MatchConfig,
        entrants: Sequence[Entrant],
        match_id: str,
        announce: Callable[[str, str, str], None] | None = None,
        sittings: int = 1,
        pool: WarmPool | None = None,
        deals: Sequence[frozenset[int]] = (),
    ) -> None:
        if sittings < 1 or config.games % sittings:
            raise ValueError(f"{config.games} games cannot be split into {sittings} sittings")
        if sittings > 1 and any(e.external or e.joined is not None for e in entrants):
            raise MatchError(
                "a bot started by hand or playing through its own seat cannot be started afresh "
                "for each sitting (it could remember the deals of the last)"
            )
        self.config = config
        self.entrants = list(entrants)
        self.match_id = match_id
        self.announce = announce
        self.sittings = sittings
        self.sitting = 0  # 0-based: the one under way
        #: Kept processes come from and go back to it; ``deals``: each sitting's deal seeds
        #: (a process is never handed a match with a deal it was dealt).
        self.pool = pool
        self.deals = list(deals)
        if pool is not None and len(self.deals) != sittings:
            raise ValueError("a line-up with a pool needs each sitting's deals")
        self.sandbox = SandboxReport()
        self.players: list[Player] = []
        self._sandboxed = False
        self._slots: dict[int, _Slot] = {}
        self._past: dict[int, list[_Slot]] = {}  # entry -> the slots of sittings gone by
        self._private_dir: Path | None = None
        self._closed = False
        self._views = SharedViews()
        self._joined: dict[int, Seat] = {}
        self._ended = False  # the match end was sent (finish)

    # -- bringing the bots in

    async def __aenter__(self) -> list[Player]:
        self._sandboxed = self._check_sandbox()
        for entry, entrant in enumerate(self.entrants):
            self.players.append(Player(entry, entrant.name, self._new_seat(entrant)))
        if any(e.remote for e in self.entrants):
            try:
                await self._prepare()
                await self._bring_in()
            except BaseException:
                await self._clear()
                raise
        return self.players

    def _new_seat(self, entrant: Entrant) -> Seat:
        """A house bot's seat (a new instance), or a program's until it says hello."""
        if entrant.in_process is not None:
            remote = any(e.remote for e in self.entrants)
            return HouseSeat(entrant.name, entrant.in_process(), threaded=remote)
        return DroppedSeat(entrant.name, Drop(0, FaultKind.CRASH, "not started yet"))

    async def reseat(self, games: int) -> None:
        """End this sitting (``games`` played in it, as :meth:`finish` does) and bring in the
        next with fresh processes and house bots; a player dropped stays dropped."""
        if self.sitting + 1 >= self.sittings:
            raise ValueError(f"all {self.sittings} sittings are played")
        await self._end_sitting(games)
        await self._clear_sitting()
        self.sitting += 1
        for player in self.players:
            if player.dropped is None:
                player.seat = self._new_seat(self.entrants[player.entry])
        if any(e.remote for e in self.entrants):
            await self._bring_in()

    def _check_sandbox(self) -> bool:
        """Whether bot programs run sandboxed; refuse untrusted bots without isolation."""
        programs = [e for e in self.entrants if e.program is not None]
        if not programs:
            return False
        layers = dict(sandbox.layers())
        if self.config.unsafe_no_sandbox:
            note = "--unsafe-no-sandbox: bots run as plain processes"
            self.sandbox = SandboxReport(False, layers, note)
            return False
        try:
            sandbox.require_isolation()
        except sandbox.SandboxUnavailable as exc:
            untrusted = [e.name for e in programs if not e.trusted]
            if untrusted:
                raise MatchError(
                    f"cannot isolate bots on this machine: {exc}\nRefusing to run "
                    f"{', '.join(untrusted)} without the sandbox. Pass --unsafe-no-sandbox "
                    "(unsafe_no_sandbox=True) to run them as plain processes, only for code you "
                    "trust."
                ) from None
            note = f"house bots only, run without a sandbox: {exc}"
            self.sandbox = SandboxReport(False, layers, note)
            return False
        self.sandbox = SandboxReport(True, layers)
        return True

    async def _prepare(self) -> None:
        """What every sitting's launches need, once: the runtime, the builds, the folder."""
        loop = asyncio.get_running_loop()
        if self._sandboxed:
            # Builds the bot runtime the first time (minutes); later a quick check.
            await loop.run_in_executor(None, sandbox.ensure_runtime)
        await self._build(not self.config.unsafe_no_sandbox)
        # A folder with a random name that others may traverse but not list (0711): the
        # sandbox resolves each socket's bind mount as the bot's uid. Tokens do the rest.
        self._private_dir = Path(tempfile.mkdtemp(prefix="nimmt-match-"))
        self._private_dir.chmod(0o711)

    async def _bring_in(self) -> None:
        config = self.config
        loop = asyncio.get_running_loop()
        assert self._private_dir is not None
        logs = (config.out / "logs") if config.out else (self._private_dir / "logs")
        limits = config.limits or sandbox.Limits()
        first_game = 1 + self.sitting * (config.games // self.sittings)
        joins = []
        for entry, entrant in enumerate(self.entrants):
            if not entrant.remote or self.players[entry].dropped is not None:
                continue
            welcome = convert.welcome(
                match_id=self.match_id,
                bot_name=entrant.name,
                games=config.games // self.sittings,
                decision_ms=config.decision_ms,
                bank_ms=config.bank_ms,
                max_faults=config.max_faults,
            )
            if entrant.joined is not None:
                joins.append(self._join(entry, entrant.joined, welcome))
                continue
            if entrant.program is not None:
                await self._seat_program(entry, entrant, welcome, logs, limits, first_game)
                continue
            token = secrets.token_urlsafe(24)
            server = SeatServer(
                self._private_dir / f"seat-{entry}-{self.sitting}.sock",
                entrant.name,
                token,
                welcome,
                hello_timeout=config.start_ms / 1000,
            )
            await server.start()
            self._slots[entry] = _Slot(self.players[entry], entrant, server, loop.time())
            if self.announce is not None:
                self.announce(entrant.name, server.address, token)
        waiting = [slot for slot in self._slots.values() if slot.player.dropped is None]
        hellos = (self._await_hello(slot, first_game) for slot in waiting)
        await asyncio.gather(*hellos, *joins)

    async def _seat_program(
        self,
        entry: int,
        entrant: Entrant,
        welcome: pb.Welcome,
        logs: Path,
        limits: sandbox.Limits,
        first_game: int,
        *,
        warm_ok: bool = True,
    ) -> _Slot:
        """Bring in a program's process for this sitting: a kept one of the pool that was not
        dealt this sitting's deals (``warm_ok``), else a new one (reusable where there is a
        pool); its hello is awaited by :meth:`_await_hello`."""
        assert entrant.program is not None and self._private_dir is not None
        loop = asyncio.get_running_loop()
        token = secrets.token_urlsafe(24)
        key = self._pool_key(entrant, limits)
        warm = None
        if key is not None and warm_ok and self.pool is not None:
            warm = self.pool.take(key, self.deals[self.sitting])
        seat_dir = None
        if warm is not None:
            seat_dir = warm.process.seat_dir
        elif key is not None and self.pool is not None:
            seat_dir = self.pool.seat_dir()
        if seat_dir is not None:
            socket_path = seat_dir / os.path.basename(sandbox.SANDBOX_SOCKET)
            frames_path = seat_dir / os.path.basename(sandbox.SANDBOX_FRAMES)
            for path in (socket_path, frames_path):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()  # the last match's
        else:
            socket_path = self._private_dir / f"seat-{entry}-{self.sitting}.sock"
            frames_path = self._private_dir / f"seat-{entry}-{self.sitting}.frames"
        server = SeatServer(
            socket_path,
            entrant.name,
            token,
            welcome,
            hello_timeout=self.config.start_ms / 1000,
            frames_path=frames_path,
        )
        await server.start()
        slot = _Slot(self.players[entry], entrant, server, loop.time(), welcome=welcome)
        self._slots[entry] = slot
        slot.log_path = logs / f"{_file_name(entrant.name)}.log"
        if self.sitting:  # appended to the first sitting's once it has ended
            slot.log_into = slot.log_path
            slot.log_path = self._private_dir / f"log-{entry}-{self.sitting}.log"
        if warm is not None:
            slot.warm, slot.reused, slot.process = warm, True, warm.process
            try:
                warm.process.give_token(token)
                warm.process.switch_log(slot.log_path)
                warm.process.thaw()
            except OSError as exc:
                self._refuse(slot, f"could not be woken: {exc}", first_game)
            return slot
        spec = sandbox.LaunchSpec(
            command=list(entrant.program.command),
            bot_dir=entrant.program.directory,
            socket_path=server.socket_path,
            frames_path=server.frames_path,
            log_path=slot.log_path,
            env=dict(entrant.env),
            token=token,
            limits=limits,
            sandbox=self._sandboxed,
            reusable=seat_dir is not None,
        )
        try:
            slot.process = sandbox.launch(spec)  # from this thread: see launch()
        except (OSError, ValueError, sandbox.SandboxUnavailable) as exc:
            if seat_dir is not None:
                shutil.rmtree(seat_dir, ignore_errors=True)
            self._refuse(slot, f"could not be started: {exc}", first_game)
            return slot
        if key is not None and slot.process.can_freeze:
            slot.warm = Warm(key, slot.process, cpu_limit=limits.cpu_seconds)
        return slot

    def _pool_key(self, entrant: Entrant, limits: sandbox.Limits) -> PoolKey | None:
        """What a kept process must match to be handed to ``entrant`` (None: not kept)."""
        if self.pool is None or not self._sandboxed or entrant.program is None:
            return None
        program = entrant.program
        return (
            entrant.version,
            str(program.directory),
            tuple(program.command),
            tuple(sorted(entrant.env.items())),
            limits,
            entrant.trusted,
        )

    async def _join(self, entry: int, join: Join, welcome: pb.Welcome) -> None:
        """Seat a joined entrant, or drop it before the first game if it does not come."""
        player = self.players[entry]
        try:
            seat = await join(f"{self.match_id}-{entry}", welcome, self.config.start_ms / 1000)
        except SeatLost as lost:
            player.drop(Drop(0, FaultKind.CRASH, str(lost)))
            return
        self._joined[entry] = seat
        player.seat = seat

    async def _build(self, sandboxed: bool) -> None:
        """Replace each entrant whose program has a build by its built program."""
        loop = asyncio.get_running_loop()
        for entry, entrant in enumerate(self.entrants):
            if entrant.program is None or not entrant.program.build:
                continue
            try:
                program = await loop.run_in_executor(
                    None, partial(ready, entrant.program, sandboxed=sandboxed)
                )
            except BuildFailed as failed:
                tail = "\n".join(f"  | {quote(line)}" for line in failed.build.log_tail())
                raise MatchError(f"{failed}\n{tail}" if tail else str(failed)) from None
            self.entrants[entry] = replace(entrant, program=program)

    async def _await_hello(self, slot: _Slot, first_game: int) -> None:
        await self._hello(slot, first_game)
        dropped = slot.player.dropped
        if slot.reused and dropped is not None and dropped.game in (0, first_game):
            # A kept process that did not come back: a new one takes its place (the seat's
            # drop is undone; it had not played).
            assert slot.process is not None
            slot.process.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(slot.server.stop(0), SERVER_STOP_WAIT)
            slot.player.dropped = None
            config = self.config
            assert self._private_dir is not None
            logs = (config.out / "logs") if config.out else (self._private_dir / "logs")
            assert slot.welcome is not None
            welcome = slot.welcome
            fresh = await self._seat_program(
                slot.player.entry,
                slot.entrant,
                welcome,
                logs,
                config.limits or sandbox.Limits(),
                first_game,
                warm_ok=False,
            )
            if fresh.player.dropped is None:
                await self._hello(fresh, first_game)

    async def _hello(self, slot: _Slot, first_game: int) -> None:
        loop = asyncio.get_running_loop()
        external = slot.process is None
        wait_ms = EXTERNAL_WAIT_MS if external else self.config.start_ms
        if slot.reused:
            wait_ms = min(wait_ms, WARM_HELLO_MS)
        limit = slot.started + wait_ms / 1000
        connected = slot.server.connected
        while not connected.done():
            if slot.process is not None and (status := slot.process.poll()) is not None:
                tail = await exited_log_tail(slot.process)
                why = f"exited with status {status} before saying hello{tail}"
                self._refuse(slot, why, first_game)
                return
            if loop.time() > limit:
                if external:
                    self._refuse(slot, f"nobody connected within {wait_ms} ms", first_game)
                    return
                refused = slot.server.rejections
                why = f" (the arena refused: {'; '.join(refused)})" if refused else ""
                self._refuse(
                    slot,
                    f"never said hello within {wait_ms} ms of its start{why}{self._tail(slot)}",
                    first_game,
                )
                return
            await asyncio.wait([connected], timeout=0.02)
        slot.start_ms = (loop.time() - slot.started) * 1000
        connection = connected.result()
        slot.stays = connection.hello.stays
        slot.transport = connection.transport
        views = self._views
        if slot.process is not None:
            slot.player.seat = ProgramSeat(slot.entrant.name, connection, views, slot.process)
        else:
            slot.player.seat = ExternalSeat(slot.entrant.name, connection, views)

    def _tail(self, slot: _Slot) -> str:
        return "" if slot.process is None else log_tail(slot.process)

    def _refuse(self, slot: _Slot, detail: str, first_game: int) -> None:
        """The entrant never takes its seat: it is dropped before the sitting's first game
        (game 1: before the match's first game, :attr:`Drop.before_start`)."""
        slot.player.drop(Drop(0 if first_game == 1 else first_game, FaultKind.CRASH, detail))
        if slot.process is not None:
            slot.process.kill()

    # -- clearing the table

    async def finish(self, games: int) -> None:
        """The match is over (``games`` played in the last sitting): tell the bots still
        playing, and give them a moment to exit."""
        self._ended = True
        await self._end_sitting(games)
        await self._clear(grace=0.2)

    async def _end_sitting(self, games: int) -> None:
        """Tell the bots still playing that their match is over, and give them a moment to exit."""
        ends = [
            asyncio.wait_for(self._end_seat(player, games), MATCH_END_WRITE)
            for player in self.players
            if player.dropped is None
        ]
        for outcome in await asyncio.gather(*ends, return_exceptions=True):
            if isinstance(outcome, BaseException) and not isinstance(
                outcome, SeatLost | TimeoutError
            ):
                raise outcome
        loop = asyncio.get_running_loop()
        limit = loop.time() + EXIT_GRACE
        processes = [
            s.process for s in self._slots.values() if s.process is not None and not s.kept
        ]
        while any(p.poll() is None for p in processes) and loop.time() < limit:
            await asyncio.sleep(0.01)

    async def _end_seat(self, player: Player, games: int) -> None:
        """Send the match end; a process in good standing whose kit stays is asked to stay."""
        slot = self._slots.get(player.entry)
        seat = player.seat
        if (
            slot is not None
            and slot.warm is not None
            and slot.stays
            and isinstance(seat, ProgramSeat)
            and seat.process is slot.process
            and not player.faults
            and slot.process.poll() is None
            and slot.process.limit_exceeded is None
        ):
            slot.kept = True
            await seat.end_match(games, 0, stay=True)
            return
        await seat.end_match(games, len(player.faults))

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self._clear()

    async def _clear(self, grace: float = 0.0) -> None:
        """End every process, stop the servers, remove the private folder (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._clear_sitting(grace)
        finally:
            if not self._ended:  # the match broke off: let the joined seats go too
                for seat in self._joined.values():
                    seat.drop("crash", "the match was broken off")
            if self._private_dir is not None:
                shutil.rmtree(self._private_dir, ignore_errors=True)
                self._private_dir = None

    async def _clear_sitting(self, grace: float = 0.2) -> None:
        """End the sitting's processes, stop its servers, keep its slots for the report."""
        slots, self._slots = self._slots, {}
        kept = [
            slot
            for slot in slots.values()
            if slot.kept
            and slot.warm is not None
            and slot.player.dropped is None
            and slot.process is not None
            and slot.process.poll() is None
        ]
        processes = [
            slot.process for slot in slots.values() if slot.process is not None and slot not in kept
        ]
        if kept:
            await self._keep(kept)
        if processes:  # all at once, through their cgroups, off the event loop
            ending = asyncio.get_running_loop().run_in_executor(_ENDING, sandbox.end_all, processes)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(ending), END_WAIT)
        for entry, slot in slots.items():
            self._past.setdefault(entry, []).append(slot)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(slot.server.stop(grace), grace + SERVER_STOP_WAIT)
            if slot.log_into is not None and slot.log_path is not None:
                _append_log(
                    slot.log_path, slot.log_into, self.sitting + 1, self.sittings, slot.reused
                )

    async def _keep(self, kept: list[_Slot]) -> None:
        """Give the processes asked to stay to the pool (frozen there), once their streams are
        closed: the match is over for them."""
        assert self.pool is not None
        pool = self.pool
        deals = self.deals[self.sitting]
        stops = (asyncio.wait_for(slot.server.stop(0.1), SERVER_STOP_WAIT) for slot in kept)
        await asyncio.gather(*stops, return_exceptions=True)  # all at once
        warms = []
        for slot in kept:
            assert slot.warm is not None
            slot.warm.deals |= deals
            slot.warm.matches += 1
            warms.append(slot.warm)
        loop = asyncio.get_running_loop()

        def give_all() -> None:
            sandbox.park_logs([warm.process for warm in warms])
            for warm in warms:
                pool.give(warm)

        giving = loop.run_in_executor(_ENDING, give_all)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(giving), END_WAIT)

    # -- what the match reports of each entrant

    def network_info(self, entry: int) -> Mapping[str, float | int | str] | None:
        """A joined entrant's network figures (see :meth:`Seat.network`)."""
        seat = self._joined.get(entry)
        return None if seat is None else seat.network()

    def program_info(self, entry: int) -> ProgramInfo | None:
        """How entrant ``entry``'s program ran (``None`` unless it is a program)."""
        entrant = self.entrants[entry]
        if entrant.program is None:
            return None
        slots = [*self._past.get(entry, []), *filter(None, [self._slots.get(entry)])]
        processes = [s.process for s in slots if s.process is not None]
        process = processes[-1] if processes else None
        log_path = slots[0].log_path if slots else None
        log = None
        if log_path is not None and self.config.out is not None:
            log = str(log_path.relative_to(self.config.out))
        starts = [s.start_ms for s in slots if s.start_ms is not None]
        peaks = [p.peak_memory_mb for p in processes if p.peak_memory_mb is not None]
        exits = [p.poll() for p in processes]
        return ProgramInfo(
            directory=str(entrant.program.directory),
            command=tuple(entrant.program.command),
            language=entrant.program.language,
            trusted=entrant.trusted,
            start_ms=max(starts) if starts else None,
            peak_memory_mb=max(peaks) if peaks else None,
            # a sitting's failure is not hidden by a later clean exit
            exit_code=next((code for code in exits if code), exits[-1] if exits else None),
            pid=None if process is None else process.pid,
            uid=None if process is None else process.uid,
            log=log,
            transport=next((s.transport for s in reversed(slots) if s.transport), None),
        )


def _append_log(part: Path, whole: Path, sitting: int, sittings: int, kept: bool) -> None:
    """Append a later sitting's log ``part`` to the bot's log ``whole``, under a line
    (``kept``: the sitting was played by a kept process, not a new one)."""
    how = (
        "a kept process of the bot, never dealt these deals"
        if kept
        else "the arena started the bot afresh"
    )
    with contextlib.suppress(OSError), whole.open("ab") as out:
        out.write(
            f"\n=== sitting {sitting} of {sittings}: {how} "
            "(a process of its own for each seat rotation) ===\n".encode()
        )
        with part.open("rb") as read:
            shutil.copyfileobj(read, out)
    with contextlib.suppress(OSError):
        part.unlink()


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.\-#]", "_", quote(name))
