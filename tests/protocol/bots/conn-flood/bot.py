"""Hostile fixture: floods its sockets (the gRPC one and the framed one) with connections
(plain sockets that never speak), and holds them open.

``NIMMT_BOT_OPTIONS=before`` floods before saying hello (its own connection then finds every
place taken); otherwise it says hello first, plays with the bot kit, and floods on its first
decision.
"""

import os
import socket

from arena.botkit import KitBot, run

CONNECTIONS = 100  # per socket: its open files are capped at 256


def flood(held):
    for name in ("NIMMT_ENGINE", "NIMMT_FRAMES"):
        path = os.environ[name].removeprefix("unix://")
        opened = 0
        for _ in range(CONNECTIONS):
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                connection.connect(path)
            except OSError as exc:
                print(f"conn-flood: connect to {name} failed: {exc}", flush=True)
                connection.close()
                break
            held.append(connection)
            opened += 1
        print(f"conn-flood: {opened} connections to {name} opened", flush=True)


class Flooder(KitBot):
    name = "conn-flood"

    def __init__(self, held):
        super().__init__()
        self.held = held

    def decide(self, view):
        if not self.held:
            flood(self.held)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    held = []
    if os.environ.get("NIMMT_BOT_OPTIONS") == "before":
        flood(held)
    run(Flooder(held))
