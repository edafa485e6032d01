"""The hand-over between a match worker and the gateway a remote bot is connected to: Redis
keys and the messages that travel through them, never process memory, so the worker and the
gateway may be on different machines and any number of gateways may serve (each bot is on at
most one of them at a time; a worker does not need to know which).

Per bot (``<bot>`` is the bot's primary key):

- ``live:<bot>``: the id of the bot's one live connection (``SET NX``; a second connection is
  refused while it exists). Its gateway refreshes it every :data:`HEARTBEAT` seconds and it
  expires :data:`LIVE_TTL` seconds after the gateway dies. Revoking the bot's token deletes it:
  the gateway sees that at its next heartbeat and cuts the connection.
- ``online:<bot>``: present while the bot is connected, and for the grace period after
  (``REMOTE_GRACE_SECONDS``); the scheduler gives matches to bots that have it.
- ``inbox:<bot>``: a list of seat assignments (:class:`Assignment`) a worker pushes; the
  connection waiting for a match pops one.
- ``resume:<bot>``: the seat of a match under way whose connection dropped; a connection made
  within the grace period takes it and plays on.

Per seat (``<seat>``, the runner's seat key: match id and lineup entry):

- ``down:<seat>``: worker → gateway, :class:`Down` messages (one ``EngineMessage`` each, and
  whether to end the stream after it);
- ``up:<seat>``: gateway → worker, :class:`Up` events (joined, a bot message with the time it
  took, lost);
- ``seat:<seat>``: the Welcome and the latest GameStart, which a resumed connection is sent
  again.

Every key expires (:data:`KEEP`), so nothing outlives a crashed worker or gateway for long.
"""

import base64
import json
from dataclasses import asdict, dataclass
from typing import Any

PREFIX = "nimmt:remote:"
#: How often a gateway refreshes its connections' keys and checks them (seconds).
HEARTBEAT = 1.0
#: How long a connection's ``live`` key outlives its gateway's last heartbeat (seconds).
LIVE_TTL = 5
#: How long the per-seat lists and records are kept (seconds); longer than any match.
KEEP = 2 * 3600


def live_key(bot: int) -> str:
    return f"{PREFIX}live:{bot}"


def online_key(bot: int) -> str:
    return f"{PREFIX}online:{bot}"


def inbox_key(bot: int) -> str:
    return f"{PREFIX}inbox:{bot}"


def resume_key(bot: int) -> str:
    return f"{PREFIX}resume:{bot}"


def down_key(seat: str) -> str:
    return f"{PREFIX}down:{seat}"


def up_key(seat: str) -> str:
    return f"{PREFIX}up:{seat}"


def seat_key(seat: str) -> str:
    return f"{PREFIX}seat:{seat}"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"), validate=True)


@dataclass(frozen=True)
class Assignment:
    """A worker asks the bot's connection to take a seat: ``welcome`` (a serialized
    ``EngineMessage``) is the first thing to send; void after ``until`` (epoch seconds)."""

    seat: str
    welcome: bytes
    until: float

    def dumps(self) -> str:
        return json.dumps({"seat": self.seat, "welcome": _b64(self.welcome), "until": self.until})

    @classmethod
    def loads(cls, text: str | bytes) -> "Assignment":
        data = json.loads(text)
        return cls(str(data["seat"]), _unb64(data["welcome"]), float(data["until"]))


@dataclass(frozen=True)
class Down:
    """One message for the bot (a serialized ``EngineMessage``; ``request_id`` if it is a
    request, so the gateway times its answer), or, with ``close``, the end of the stream after
    it (a gRPC status code name and details)."""

    message: bytes = b""
    request_id: int = 0
    close: str = ""
    details: str = ""

    def dumps(self) -> str:
        data = asdict(self)
        data["message"] = _b64(self.message)
        return json.dumps(data)

    @classmethod
    def loads(cls, text: str | bytes) -> "Down":
        data = json.loads(text)
        return cls(
            _unb64(data["message"]),
            int(data["request_id"]),
            str(data["close"]),
            str(data["details"]),
        )


@dataclass(frozen=True)
class Up:
    """What the gateway tells the worker: ``joined`` (the bot took the seat; ``kit``,
    ``address``), ``message`` (``raw``, a message of the bot's; ``spent``: seconds from when
    the request it answers was written to the bot's stream until it arrived, -1 if it answers
    no request written), or ``lost`` (the connection ended; ``reason``)."""

    kind: str
    raw: bytes = b""
    spent: float = -1.0
    kit: str = ""
    address: str = ""
    reason: str = ""

    def dumps(self) -> str:
        data = asdict(self)
        data["raw"] = _b64(self.raw)
        return json.dumps(data)

    @classmethod
    def loads(cls, text: str | bytes) -> "Up":
        data: dict[str, Any] = json.loads(text)
        return cls(
            str(data["kind"]),
            _unb64(data["raw"]),
            float(data["spent"]),
            str(data["kit"]),
            str(data["address"]),
            str(data["reason"]),
        )
