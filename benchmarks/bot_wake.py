"""What a pause between requests costs a bot: its CPU per decision with the requests back to back,
and with the gaps a match leaves between them, side by side in one run (printed, never asserted).

    python benchmarks/bot_wake.py [--bots random,heuristic] [--gaps 0,0.5,1,2] [--games 40]
        [--repeats 3]

For each bot this starts the house program ``bots/<bot>/bot.py`` as a plain process on this
machine (no sandbox: the sandbox's own cost is :mod:`match_cost`'s) and serves it the framed
socket (:mod:`arena.protocol.frames`) itself: the Hello, then the recorded requests of seat 0 in
``--games`` basic games (real views), one at a time, each after a pause of ``gap`` ms, each
answer read before the next pause. The bot's CPU is read from ``/proc/<pid>/schedstat``
(nanoseconds on a CPU, not ticks) after its Hello and after its last answer, so its start is not
counted: CPU per decision = the difference over the decisions. The gaps alternate within each
repeat; medians are printed with each gap's ratio to the back-to-back figure.

Why: a decision through the sandbox costs a bot more CPU than the same decision answered back
to back, and the in-process bots a match is compared with pay neither. A bot that waits about a
millisecond for its next request (the runner and the other bots run meanwhile) wakes on a CPU
whose caches hold other work, and the kernel's wake-up is paid by the process woken.

**Measured** 2026-12-06 on the shared 2-core development machine (``--repeats 3``, 480
decisions a run, load average 1.3), CPU per decision of the bot process in µs, medians, and the
ratio to back to back:

=========  =============  =============  =============  =============
bot        gap 0          gap 0.5 ms     gap 1 ms       gap 2 ms
=========  =============  =============  =============  =============
random     75.5 (1.00x)   84.4 (1.12x)   103.4 (1.37x)  124.1 (1.64x)
heuristic  160.9 (1.00x)  143.6 (0.89x)  184.8 (1.15x)  227.6 (1.41x)
=========  =============  =============  =============  =============

In a 4-game match of ``random,random,heuristic,heuristic`` the runner takes about a
millisecond between two requests to a bot. Back to back, ``random``'s 75 µs are the kit's own
work (reading the frame, the view from the message, the answer); ``random``'s decision itself
is under 1 µs in process.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from arena.engine import Game  # noqa: E402
from arena.engine.observation import observe  # noqa: E402
from arena.protocol import convert  # noqa: E402
from arena.protocol.frames import FrameBuffer, frame  # noqa: E402
from arena.table.messages import Request  # noqa: E402


def recorded_requests(games: int) -> list[bytes]:
    """Seat 0's requests in ``games`` basic games of random play, framed."""
    rng = random.Random(1)
    frames: list[bytes] = []
    for seed in range(games):
        game = Game.new("basic", 4, seed)
        while (pending := game.pending) is not None:
            for seat in pending.seats:
                view = observe(game, seat)
                if seat == 0:
                    request = Request(
                        request_id=len(frames) + 1,
                        moment=len(frames),
                        game_id=f"g{seed}",
                        seat=0,
                        kind=pending.kind,
                        view=view,
                        deadline_ms=10_000,
                        bank_ms=10_000,
                        allowance_ms=10_000,
                    )
                    frames.append(frame(convert.request_message(request).SerializeToString()))
                game.apply(seat, rng.choice(view.legal))
    return frames


def cpu_ns(pid: int) -> int:
    """Nanoseconds ``pid`` has run on a CPU (its threads' sum: the kit is single-threaded)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])


def read_frame(sock: socket.socket, buffer: FrameBuffer) -> bytes:
    while True:
        data = sock.recv(65536)
        if not data:
            raise SystemExit("the bot closed its socket")
        for payload in buffer.feed(data):
            return payload  # one message at a time: the bot answers one request


def run(bot: str, gap_ms: float, frames: list[bytes]) -> float:
    """The bot's CPU per decision (µs) with ``gap_ms`` between an answer and the next request."""
    with tempfile.TemporaryDirectory(prefix="bot-wake-") as folder:
        path = os.path.join(folder, "frames.sock")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(1)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": str(HERE),
            "NIMMT_FRAMES": f"unix://{path}",
            "NIMMT_TOKEN": "bench",
        }
        program = subprocess.Popen(
            [sys.executable, "bot.py", "--quiet"],
            cwd=HERE / "bots" / bot,
            env=env,
            stderr=subprocess.DEVNULL,
        )
        try:
            connection, _ = server.accept()
            with connection:
                buffer = FrameBuffer()
                read_frame(connection, buffer)  # the Hello
                start = cpu_ns(program.pid)
                for request in frames:
                    if gap_ms:
                        time.sleep(gap_ms / 1000)
                    connection.sendall(request)
                    read_frame(connection, buffer)
                spent = cpu_ns(program.pid) - start
                connection.sendall(frame(b"") + frame(b"OK the benchmark is over"))
            program.wait(timeout=30)
        finally:
            if program.poll() is None:
                program.kill()
                program.wait()
            server.close()
    return spent / len(frames) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="random,heuristic")
    parser.add_argument("--gaps", default="0,0.5,1,2", help="pauses between requests, in ms")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    bots = args.bots.split(",")
    gaps = [float(g) for g in args.gaps.split(",")]
    frames = recorded_requests(args.games)
    figures: dict[tuple[str, float], list[float]] = {(b, g): [] for b in bots for g in gaps}
    for _ in range(args.repeats):
        for bot in bots:
            for gap in gaps:
                figures[(bot, gap)].append(run(bot, gap, frames))
    print(
        f"load average {os.getloadavg()[0]:.2f}; CPU per decision of the bot process (µs), "
        f"{len(frames)} decisions a run, medians of {args.repeats}"
    )
    print(f"{'bot':10}" + "".join(f"{f'gap {g:g} ms':>18}" for g in gaps))
    for bot in bots:
        base = statistics.median(figures[(bot, gaps[0])])
        cells = []
        for gap in gaps:
            value = statistics.median(figures[(bot, gap)])
            cells.append(f"{value:8.1f} ({value / base:4.2f}x)")
        print(f"{bot:10}" + "".join(f"{c:>18}" for c in cells))


if __name__ == "__main__":
    main()
