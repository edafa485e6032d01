"""The framed transport of the bot protocol: the same messages as the gRPC stream, each one
prefixed by its length, over a plain Unix socket.

A sandboxed bot reaches the arena on the same machine, through a socket of its seat's own;
there gRPC's HTTP/2 machinery (frames, flow control, a poller thread and an event loop at both
ends) costs more CPU per decision than the decision itself. The arena therefore listens on a
second socket of the seat, ``$NIMMT_FRAMES``, where the conversation of ``Arena.Play`` runs
without gRPC:

- each message is a *frame*: its length in bytes as a protobuf varint, then the serialized
  message (protobuf's own "delimited" format: Java's ``writeDelimitedTo``/``parseDelimitedFrom``,
  Go's ``protodelim``, C++'s ``SerializeDelimitedToZeroCopyStream`` read and write it);
- the bot writes ``BotMessage`` frames (Hello first, then Answers), the arena ``EngineMessage``
  frames, in the order and with the meaning of the gRPC stream;
- the arena ends the conversation with an empty frame (a zero length: no ``EngineMessage`` it
  sends is empty) followed by one frame of UTF-8 text, the status: the gRPC status code's name,
  a space and the reason (``OK`` after ``MatchEnd``; ``UNAUTHENTICATED missing or unknown
  token...`` when it refuses the bot), then closes the socket.

A frame longer than :data:`MAX_FRAME` (or a length that is not a varint of at most
:data:`MAX_VARINT` bytes) is a broken stream, as a message over gRPC's size limit is.

This module holds the format only; :mod:`arena.protocol.server` serves it and
:mod:`arena.botkit` speaks it.
"""

#: The longest frame either side accepts (bytes); an answer is a few bytes, a request a few KiB.
MAX_FRAME = 4 * 1024 * 1024
#: A length is a varint of at most this many bytes (``MAX_FRAME`` needs four).
MAX_VARINT = 5
#: What ends a conversation: an empty frame (the status frame follows).
END = b"\x00"


class FrameError(ValueError):
    """The bytes on the socket are not a frame this transport accepts."""


def frame(payload: bytes) -> bytes:
    """``payload`` with its varint length in front.

    >>> frame(b"abc"), frame(b"x" * 300)[:2]
    (b'\\x03abc', b'\\xac\\x02')
    """
    size = len(payload)
    head = bytearray()
    while size >= 0x80:
        head.append((size & 0x7F) | 0x80)
        size >>= 7
    head.append(size)
    return bytes(head) + payload


def status_frames(code: str, details: str) -> bytes:
    """The end of a conversation: the empty frame, then the status ``code`` and ``details``.

    >>> status_frames("OK", "")
    b'\\x00\\x02OK'
    """
    text = f"{code} {details}".strip()
    return END + frame(text.encode("utf-8", "replace"))


def parse_status(payload: bytes) -> tuple[str, str]:
    """The code name and reason of a status frame's ``payload``.

    >>> parse_status(b"UNAUTHENTICATED missing token")
    ('UNAUTHENTICATED', 'missing token')
    """
    code, _, details = payload.decode("utf-8", "replace").partition(" ")
    return code, details


class FrameBuffer:
    """Frames out of a byte stream that arrives in pieces: :meth:`feed` takes what arrived
    and returns the frames it completed (payloads, without their lengths).

    >>> buffer = FrameBuffer()
    >>> buffer.feed(b"\\x03ab"), buffer.feed(b"c\\x00"), buffer.pending
    ([], [b'abc', b''], 0)
    """

    __slots__ = ("_data", "limit")

    def __init__(self, limit: int = MAX_FRAME) -> None:
        self._data = bytearray()
        self.limit = limit

    @property
    def pending(self) -> int:
        """Bytes received that are not yet a whole frame."""
        return len(self._data)

    def feed(self, data: bytes | bytearray | memoryview) -> list[bytes]:
        """The frames ``data`` completes; :class:`FrameError` for a length over the limit or
        longer than :data:`MAX_VARINT` bytes (the buffer is then unusable). What is kept is
        copied: ``data`` may be a reader's buffer that the next read overwrites."""
        buf = self._data
        buf += data
        frames: list[bytes] = []
        at, end = 0, len(buf)
        while at < end:
            size = shift = 0
            head = at
            while True:
                if head == end:
                    del buf[:at]
                    return frames
                byte = buf[head]
                head += 1
                size |= (byte & 0x7F) << shift
                if not byte & 0x80:
                    break
                shift += 7
                if head - at >= MAX_VARINT:
                    raise FrameError(f"a frame length of more than {MAX_VARINT} bytes")
            if size > self.limit:
                raise FrameError(f"a frame of {size} bytes, over the limit of {self.limit}")
            if head + size > end:
                break
            frames.append(bytes(buf[head : head + size]))
            at = head + size
        del buf[:at]
        return frames
