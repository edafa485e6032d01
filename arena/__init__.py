"""Nimmt Arena: the 6 nimmt! Brettspiel rules engine, house bots, match runner and CLI.

Importing the package chooses gRPC's transport engine for the processes of the arena (the
runner, the bot kit) before gRPC loads: :data:`GRPC_EXPERIMENTS` turns off the EventEngine
client and listener that grpcio enables by default since 1.80 and keeps gRPC's older polling
engine. On the arena's traffic (one small message each way per decision, over a Unix socket)
the older engine takes about half the CPU time and half the context switches per message
(``benchmarks/protocol.py`` prints the figures). An explicit ``GRPC_EXPERIMENTS`` in the
environment wins; sandboxed bots get the same setting from the runner.
"""

import os

__version__ = "0.1.0"

#: gRPC experiments the arena's processes run with (gRPC reads them when it is first imported).
GRPC_EXPERIMENTS = "-event_engine_client,-event_engine_listener"
os.environ.setdefault("GRPC_EXPERIMENTS", GRPC_EXPERIMENTS)
