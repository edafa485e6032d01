"""Bot that calls the engine once over gRPC (generic API) and prints the reply."""

import os
import sys

import grpc

if __name__ == "__main__":
    with grpc.insecure_channel(os.environ["NIMMT_ENGINE"]) as channel:
        echo = channel.unary_unary("/nimmt.test.Echo/Echo")
        reply = echo(sys.argv[1].encode(), timeout=10, wait_for_ready=True)
    print(f"reply: {reply.decode()}", flush=True)
