"""Speed of the bot protocol and the sandboxed match runner (printed, never asserted).

``python benchmarks/protocol.py [--games 200] [--round-trips 2000]`` prints:

1. the decision round trip over the Unix socket, p50 and p99: from the arena writing a request
   (a real basic-game view) to reading the answer of a bot-kit program in the sandbox, on the
   gRPC socket and on the framed socket (:mod:`arena.protocol.frames`) side by side; beside
   them the floor of this machine, a bare gRPC echo of 64-byte messages;
2. the time a bot takes from its launch in the sandbox to its Hello;
3. per language, the starter of ``bots/starter-<language>/`` (built first if its manifest has a
   build, as the runner builds it): launch to Hello in the sandbox, and the decision round trip
   p50/p99 with its strategy answering, on the socket its kit takes when both are offered
   (``--languages`` picks some, ``--languages none`` skips);
4. a basic match of four ``random`` bots: sandboxed programs against the same games in process,
   in games per second once the bots are up, and their ratio.

Aims (issue 3): round trip p50 < 0.5 ms; >= 50 sandboxed games/s once the bots are up.
"""

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# isort: off
import arena  # noqa: F401  (first: it chooses gRPC's transport engine before gRPC loads)
import grpc

# isort: on
from arena import sandbox
from arena.bots.random import RandomBot
from arena.engine import Game
from arena.engine.observation import observe
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION, put_private, put_public
from arena.protocol.server import SeatServer
from arena.runner.build import ready
from arena.runner.manifest import MANIFEST, BotProgram, house_program, load
from arena.runner.match import Entrant, MatchConfig, run_match

FIRST_LEGAL_BOT = """\
from arena.botkit import KitBot, run


class FirstLegal(KitBot):
    name = "first-legal"

    def decide(self, view):
        return view.legal[0]


run(FirstLegal(), ["--quiet"])
"""


ECHO_CLIENT = """\
import asyncio, sys
import grpc


async def main():
    async with grpc.aio.insecure_channel(sys.argv[1]) as channel:
        call = channel.stream_stream("/echo/Echo", request_serializer=None,
                                     response_deserializer=None)()
        await call.write(b"hello")
        while (message := await call.read()) is not grpc.aio.EOF:
            await call.write(message)


asyncio.run(main())
"""


async def echo_round_trips(count: int, folder: Path) -> list[float]:
    """The floor: 64-byte messages echoed by a bare gRPC client (no sandbox, no protocol)."""
    connected: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    done = asyncio.Event()

    async def echo(request_iterator: Any, context: Any) -> None:
        await context.read()
        connected.set_result(context)
        await done.wait()

    server = grpc.aio.server()
    handler = grpc.stream_stream_rpc_method_handler(echo)
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("echo", {"Echo": handler}),)
    )
    address = f"unix://{folder}/echo.sock"
    server.add_insecure_port(address)
    await server.start()
    client = subprocess.Popen([sys.executable, "-c", ECHO_CLIENT, address])
    try:
        context = await asyncio.wait_for(connected, 30)
        times = []
        for _ in range(count):
            t0 = time.perf_counter()
            await context.write(b"x" * 64)
            await context.read()
            times.append(time.perf_counter() - t0)
        done.set()
    finally:
        client.kill()
        client.wait()
        await server.stop(0)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def round_trips(
    count: int, folder: Path, program: BotProgram | None = None, framed: bool = True
) -> tuple[list[float], float, str]:
    """Round-trip times (s) of ``count`` requests to a sandboxed bot, its start time (s) and
    the socket it took: ``program`` (ready to run), or by default a Python kit bot answering
    the first legal option; ``framed``: the framed socket is offered beside the gRPC one."""
    if program is None:
        bot_dir = folder / "bot"
        bot_dir.mkdir()
        (bot_dir / "bot.py").write_text(FIRST_LEGAL_BOT)
        for path in (folder, bot_dir, bot_dir / "bot.py"):
            path.chmod(0o755)
        command = ["python3", "bot.py"]
    else:
        bot_dir, command = program.directory, list(program.command)
    socket_dir = Path(tempfile.mkdtemp(prefix="nimmt-bench-"))
    socket_dir.chmod(0o711)

    welcome = pb.Welcome(protocol_version=PROTOCOL_VERSION, bot_name="first-legal", games=1)
    frames = socket_dir / "frames.sock" if framed else None
    server = SeatServer(socket_dir / "engine.sock", "first-legal", "t", welcome, frames_path=frames)
    connected = server.connected
    await server.start()
    spec = sandbox.LaunchSpec(
        command=command,
        bot_dir=bot_dir,
        socket_path=socket_dir / "engine.sock",
        frames_path=frames,
        log_path=folder / "bot.log",
        token="t",
    )
    started = time.perf_counter()
    process = sandbox.launch(spec)
    try:
        conn = await asyncio.wait_for(connected, 30)
        start_time = time.perf_counter() - started
        game = Game.new("basic", players=4, seed=1)
        view = observe(game, 0)
        times = []
        for request_id in range(1, count + 1):
            message = pb.EngineMessage()
            request = message.request
            request.request_id = request_id
            request.deadline_ms = 1000
            put_public(request.view, view)
            put_private(request.view, view)
            t0 = time.perf_counter()
            future = await conn.ask(message, request_id)
            await future
            times.append(time.perf_counter() - t0)
        conn.close()
    finally:
        process.kill()
        await server.stop(0)
    return times, start_time, conn.transport


async def each_language(
    count: int, folder: Path, programs: list[tuple[str, BotProgram]]
) -> dict[str, tuple[list[float], float, str]]:
    """:func:`round_trips` of each starter, in one event loop (gRPC's asyncio support keeps
    its completion queue on the first loop it ran on)."""
    measured = {}
    for name, program in programs:
        (folder / name).mkdir()
        measured[name] = await round_trips(count, folder / name, program)
    return measured


def starters(names: list[str] | None) -> list[tuple[str, BotProgram]]:
    """The starters of ``bots/`` (those named, or all), each ready to run."""
    root = Path(__file__).resolve().parent.parent / "bots"
    found = []
    for folder in sorted(root.glob("starter-*")):
        name = folder.name.removeprefix("starter-")
        if (folder / MANIFEST).is_file() and (names is None or name in names):
            found.append((name, ready(load(folder))))
    return found


def match_rate(games: int, sandboxed: bool) -> tuple[float, dict[str, float], dict[str, float]]:
    """Games per second of a basic match of four random bots, counted from the first game's end
    (so the bots' start is not in it); the bots' start times (ms); CPU seconds of the runner
    and of the bots (whole match, starts included)."""
    if sandboxed:
        program = house_program("random")
        entrants = [
            Entrant("random" if i == 0 else f"random#{i + 1}", program=program, trusted=True)
            for i in range(4)
        ]
    else:
        entrants = [
            Entrant("random" if i == 0 else f"random#{i + 1}", in_process=RandomBot)
            for i in range(4)
        ]
    stamps: list[float] = []
    bots_cpu: list[float] = []

    def progress(done: int, total: int) -> None:
        stamps.append(time.perf_counter())
        if done == total:  # the bots are still running: read their CPU time
            bots_cpu.append(_bot_cpu_seconds())

    config = MatchConfig("basic", games, seed=1)
    cpu = time.process_time()
    result = run_match(config, entrants, progress=progress)
    used = {"runner": time.process_time() - cpu, "bots": bots_cpu[0] if bots_cpu else 0.0}
    starts = {b.name: (b.program.start_ms if b.program else None) or 0.0 for b in result.bots}
    return (games - 1) / (stamps[-1] - stamps[0]), starts, used


def _bot_cpu_seconds() -> float:
    """CPU time of the running bot kit processes (``bot.py``) of this machine."""
    total = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if b"bot.py" not in (proc / "cmdline").read_bytes():
                continue
            fields = (proc / "stat").read_text().rsplit(") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--round-trips", type=int, default=2000)
    parser.add_argument(
        "--languages", help="comma-separated starters to measure (default: all; 'none': skip)"
    )
    args = parser.parse_args(argv)
    print(f"sandbox layers: {sandbox.layers()}")
    sandbox.ensure_runtime()

    with tempfile.TemporaryDirectory(prefix="nimmt-bench-") as folder:
        floor = asyncio.run(echo_round_trips(args.round_trips, Path(folder)))
    floor = floor[len(floor) // 10 :]
    print(
        f"gRPC floor, 64-byte echo on a Unix socket (no sandbox, no protocol): "
        f"p50 {1000 * percentile(floor, 0.5):.3f} ms, p99 {1000 * percentile(floor, 0.99):.3f} ms"
    )
    means: dict[str, list[float]] = {}
    for framed in (False, True, False, True):  # alternated: the machine's load falls alike
        with tempfile.TemporaryDirectory(prefix="nimmt-bench-") as folder:
            times, start, transport = asyncio.run(
                round_trips(args.round_trips, Path(folder), framed=framed)
            )
        warm = times[len(times) // 10 :]
        means.setdefault(transport, []).append(statistics.fmean(warm))
        print(
            f"decision round trip on the {transport} socket ({len(warm)} after warm-up, full "
            f"basic view, sandboxed kit bot): p50 {1000 * percentile(warm, 0.5):.3f} ms, "
            f"p99 {1000 * percentile(warm, 0.99):.3f} ms, mean {1000 * statistics.fmean(warm):.3f}"
            f" ms; launch to Hello {1000 * start:.0f} ms"
        )
    if "grpc" in means and "framed" in means:
        ratio = min(means["framed"]) / min(means["grpc"])
        print(f"round trip framed / gRPC (best mean of each): {ratio:.2f}x")

    names = None if args.languages is None else args.languages.split(",")
    programs = starters(names)
    with tempfile.TemporaryDirectory(prefix="nimmt-bench-") as folder:
        measured = asyncio.run(each_language(args.round_trips, Path(folder), programs))
    for name, (times, start, transport) in measured.items():
        warm = times[len(times) // 10 :]
        print(
            f"{name} starter in the sandbox ({transport} socket): launch to Hello "
            f"{1000 * start:.0f} ms; decision round trip p50 {1000 * percentile(warm, 0.5):.3f}"
            f" ms, p99 {1000 * percentile(warm, 0.99):.3f} ms"
        )

    load = os.getloadavg()[0]
    sandboxed, starts, used = match_rate(args.games, sandboxed=True)
    in_process, _, _ = match_rate(args.games, sandboxed=False)
    decisions = args.games * 12 * 4
    print(
        f"CPU per decision in the sandboxed match (bot starts included): runner "
        f"{1e6 * used['runner'] / decisions:.0f} us, bot "
        f"{1e6 * used['bots'] / decisions:.0f} us; {os.cpu_count()} CPUs, load average "
        f"{load:.1f} before the match"
    )
    print(
        "bot start in the sandbox, 4 bots at once: "
        + ", ".join(f"{name} {ms:.0f} ms" for name, ms in starts.items())
    )
    print(
        f"{args.games}-game basic match, 4 random bots: sandboxed {sandboxed:.1f} games/s, "
        f"in process {in_process:.1f} games/s, ratio {in_process / sandboxed:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
