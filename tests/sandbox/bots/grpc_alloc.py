"""Bot that loads gRPC, opens a channel to the engine, then allocates and touches memory in
steps of argument 2 MB until it holds argument 1 MB (or fails), saying how far it got."""

import os
import sys

import grpc

if __name__ == "__main__":
    goal, step = int(sys.argv[1]), int(sys.argv[2])
    with grpc.insecure_channel(os.environ["NIMMT_ENGINE"]) as channel:
        reply = channel.unary_unary("/nimmt.test.Echo/Echo")(b"up", timeout=10)
        print(f"grpc reply: {reply!r}", flush=True)
        blocks = []
        held = 0
        while held < goal:
            try:
                blocks.append(b"x" * (step * 1024 * 1024))  # written, so resident
            except MemoryError:
                print(f"MemoryError after {held} MB", flush=True)
                sys.exit(3)
            held += step
            print(f"touched {held} MB", flush=True)
        print(f"HELD {held} MB", flush=True)
