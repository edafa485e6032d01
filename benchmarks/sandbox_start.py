"""How long a bot takes to start in the sandbox: from launch() to its first byte of output and
to its first gRPC call reaching the engine, plus the cost of launch() and kill() themselves.

    .venv/bin/python benchmarks/sandbox_start.py [--runs 30] [--compare-unsandboxed]

The bot is a Python program run as ``python3 bot.py`` with the bot runtime; the engine is a
gRPC server on a Unix socket in this process. The first start also builds the runtime if it is
stale and probes the machine; it is not counted.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from contextlib import contextmanager
from pathlib import Path

import grpc

from arena.sandbox import LaunchSpec, launch, layers

BOT = """\
import os, sys
sys.stdout.write("up\\n")
sys.stdout.flush()
import grpc
with grpc.insecure_channel(os.environ["NIMMT_ENGINE"]) as channel:
    channel.unary_unary("/nimmt.bench.Echo/Hello")(b"hi", timeout=10, wait_for_ready=True)
"""


class Engine:
    """Notes when the bot's call arrives."""

    def __init__(self) -> None:
        self.called = threading.Event()
        self.called_at = 0.0

    def hello(self, request: bytes, context: object) -> bytes:
        self.called_at = time.perf_counter()
        self.called.set()
        return request


@contextmanager
def engine_server(folder: Path, engine: Engine) -> Iterator[Path]:
    socket_path = folder / "engine.sock"
    handler = grpc.method_handlers_generic_handler(
        "nimmt.bench.Echo", {"Hello": grpc.unary_unary_rpc_method_handler(engine.hello)}
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"unix://{socket_path}")
    server.start()
    try:
        yield socket_path
    finally:
        server.stop(grace=None)


def start_once(spec: LaunchSpec, engine: Engine) -> dict[str, float]:
    """One start; milliseconds of each phase."""
    engine.called.clear()
    started = time.perf_counter()
    bot = launch(spec)
    launched = time.perf_counter()
    try:
        while not bot.log_text():
            time.sleep(0.0002)
        first_byte = time.perf_counter()
        if not engine.called.wait(20):
            raise RuntimeError(f"the bot never called the engine:\n{bot.log_text()}")
        bot.wait(20)
    finally:
        killing = time.perf_counter()
        bot.kill()
        killed = time.perf_counter()
    return {
        "launch() returns": (launched - started) * 1000,
        "first byte printed": (first_byte - started) * 1000,
        "first gRPC call": (engine.called_at - started) * 1000,
        "kill() after exit": (killed - killing) * 1000,
    }


def report(title: str, samples: list[dict[str, float]]) -> None:
    print(f"\n{title} ({len(samples)} starts)")
    print(f"  {'phase':<22} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}")
    for phase in samples[0]:
        values = sorted(sample[phase] for sample in samples)
        p95 = statistics.quantiles(values, n=20, method="inclusive")[18]
        print(f"  {phase:<22} {statistics.median(values):>10.1f} {p95:>10.1f} {values[-1]:>10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--compare-unsandboxed", action="store_true")
    args = parser.parse_args()

    print("layers:", ", ".join(name for name, on in layers().items() if on) or "none")
    folder = Path(tempfile.mkdtemp(prefix="nimmt-bench-"))
    try:
        folder.chmod(0o711)
        bot_dir = folder / "bot"
        bot_dir.mkdir(mode=0o755)
        (bot_dir / "bot.py").write_text(BOT)
        (bot_dir / "bot.py").chmod(0o644)
        engine = Engine()
        with engine_server(folder, engine) as socket_path:
            modes = [True, False] if args.compare_unsandboxed else [True]
            for sandbox in modes:
                spec = LaunchSpec(
                    command=["python3", "bot.py"],
                    bot_dir=bot_dir,
                    socket_path=socket_path,
                    log_path=folder / "bot.log",
                    sandbox=sandbox,
                )
                start_once(spec, engine)  # warm-up: runtime build, probe, page cache
                samples = [start_once(spec, engine) for _ in range(args.runs)]
                report("sandboxed" if sandbox else "unsandboxed (--unsafe-no-sandbox)", samples)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
