"""Hostile fixture: on turn 2 of game 1, lists its network interfaces and tries to reach the
host's 127.0.0.1 (TCP port ``ESCAPE_TCP_PORT``, UDP port ``ESCAPE_UDP_PORT``), then plays on."""

import os
import socket

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation


def escape(tcp_port: int, udp_port: int) -> None:
    with open("/proc/net/dev") as dev:
        names = sorted(line.split(":")[0].strip() for line in dev if ":" in line)
    print("tcp-escape: interfaces:", ",".join(names), flush=True)
    try:
        socket.create_connection(("127.0.0.1", tcp_port), timeout=0.2).close()
    except OSError as error:
        print(f"tcp-escape: connect to 127.0.0.1:{tcp_port} failed: {error!r}", flush=True)
    else:
        print(f"tcp-escape: CONNECTED to 127.0.0.1:{tcp_port}", flush=True)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        try:
            sent = udp.sendto(b"escaped", ("127.0.0.1", udp_port))
        except OSError as error:
            print(f"tcp-escape: udp send failed: {error!r}", flush=True)
        else:
            print(f"tcp-escape: udp sent {sent} bytes (to its own loopback)", flush=True)


class TcpEscape(KitBot):
    name = "tcp-escape"

    def decide(self, view: Observation) -> Decision:
        if (
            self.info.game_id == "game-00001"
            and view.turn == 2
            and view.pending is not None
            and view.pending.kind is DecisionKind.TILE
        ):
            escape(int(os.environ["ESCAPE_TCP_PORT"]), int(os.environ["ESCAPE_UDP_PORT"]))
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(TcpEscape())
