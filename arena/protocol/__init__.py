"""The bot protocol ``nimmt.v1``: generated messages and the conversions to engine values.

``protos/nimmt/v1/arena.proto`` is the source of truth; ``arena_pb2*`` are generated from it by
``python protos/generate.py`` (never edit them). :mod:`arena.protocol.convert` turns engine
values into messages and back; :mod:`arena.protocol.server` is the arena's side of the stream.
"""

from .convert import PROTOCOL_VERSION, ProtocolError

__all__ = ["PROTOCOL_VERSION", "ProtocolError"]
