"""A bot's stdout and stderr, capped: the first and the last bytes are kept, the middle is cut.

A thread drains the pipe so a chatty bot never blocks on a full pipe; the head goes to the log
file as it arrives (so a crash of the runner still leaves it), the tail is kept in memory and
written after a ``[... N bytes cut ...]`` line when the log is closed.

The pipe is read only under the log's lock (the thread waits for data with ``poll``, then reads
what is there while holding it), so whoever holds the lock can read the rest itself: a log
switched or settled has everything the bot wrote before, however late the thread gets to run
on a busy machine.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from pathlib import Path

#: Bytes kept from the start of a bot's output.
HEAD_BYTES = 64 * 1024
#: Bytes kept from the end of a bot's output.
TAIL_BYTES = 64 * 1024
#: Bytes read from the pipe at a time.
READ_BYTES = 64 * 1024
#: Reads made at most to empty the pipe while holding the lock (a bot that writes without
#: pause cannot hold it for longer).
READS_AT_ONCE = 16


def settle(logs: list[CappedLog], quiet: float = 0.02, limit: float = 0.5) -> None:
    """Wait until nothing has come through any of the pipes for ``quiet`` seconds (at most
    ``limit``): the last words of processes that go on running are in their logs. The pipes
    are read here too, so what was written is counted whether or not the logs' threads have
    run meanwhile."""
    deadline = time.monotonic() + limit
    seen: list[int] = []
    while time.monotonic() < deadline:
        now = [log.read_waiting() for log in logs]
        if now == seen:
            return
        seen = now
        time.sleep(quiet)


def cut_line(count: int) -> bytes:
    """The line standing for ``count`` bytes left out of a log."""
    return f"\n[... {count} bytes cut ...]\n".encode()


class CappedLog:
    """Reads a pipe until EOF into a capped log file."""

    def __init__(
        self, read_fd: int, path: Path, *, head: int = HEAD_BYTES, tail: int = TAIL_BYTES
    ) -> None:
        self._fd = read_fd
        os.set_blocking(read_fd, False)  # our end only: the bot's end is another file
        self._head_limit = head
        self._tail_limit = tail
        self._head = bytearray()
        self._tail = bytearray()
        self._cut = 0
        self._received = 0  # bytes read from the pipe so far
        self._lock = threading.Lock()
        self._file = open(path, "wb")  # noqa: SIM115 - closed by close()
        self._closed = False
        self._ended = False  # the pipe reached its end (or failed): nothing more to read
        self._unwritable = False  # the file could not be written (its disk is full)
        self._thread = threading.Thread(target=self._drain, name=f"bot-log {path}", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)  # a closed pipe's POLLHUP comes anyway
        try:
            while not self._ended:
                poller.poll()
                with self._lock:
                    self._read(1)
        except OSError:
            pass
        finally:
            with self._lock:
                os.close(self._fd)
                self._ended = True

    def _read(self, reads: int = READS_AT_ONCE) -> None:
        """Take what is in the pipe now, in at most ``reads`` reads (the lock held): ``_ended``
        once it has reached its end."""
        for _ in range(reads):
            if self._ended:
                return
            try:
                chunk = os.read(self._fd, READ_BYTES)
            except BlockingIOError:
                return
            except OSError:
                self._ended = True
                return
            if not chunk:
                self._ended = True
                return
            self._received += len(chunk)
            if not self._closed:
                self._take(chunk)

    def _take(self, chunk: bytes) -> None:
        room = self._head_limit - len(self._head)
        if room > 0:
            self._head += chunk[:room]
            if not self._unwritable:
                try:
                    self._file.write(chunk[:room])
                    self._file.flush()
                except OSError:  # a full disk: the head is kept in memory (text()) only, and
                    self._unwritable = True  # the pipe still drained (the bot never blocks)
            chunk = chunk[room:]
        if not chunk:
            return
        self._tail += chunk
        excess = len(self._tail) - self._tail_limit
        if excess > 0:
            del self._tail[:excess]
            self._cut += excess

    def _contents(self) -> bytes:
        middle = cut_line(self._cut) if self._cut else b""
        return bytes(self._head) + middle + bytes(self._tail)

    @property
    def at_end(self) -> bool:
        """Whether the pipe has reached its end: every byte the bot wrote has been read."""
        return not self._thread.is_alive()

    def text(self) -> str:
        """The capped log so far."""
        with self._lock:
            return self._contents().decode("utf-8", errors="replace")

    def read_waiting(self) -> int:
        """Take what is in the pipe now, without waiting for the log's thread; how many bytes
        came through the pipe so far."""
        with self._lock:
            self._read()
            return self._received

    def switch(self, path: Path) -> None:
        """Finish the current file (its tail written, as :meth:`close` does) and go on in a
        new one at ``path``, with its own cap: a process kept for another match logs that
        match apart. What is in the pipe when it is called goes to the current file."""
        with self._lock:
            if self._closed:
                return
            self._read()
            with contextlib.suppress(OSError):  # a full disk: the log ends where it could be
                if not self._unwritable:  # written
                    if self._cut:
                        self._file.write(cut_line(self._cut))
                    self._file.write(self._tail)
            with contextlib.suppress(OSError):
                self._file.close()
            self._head, self._tail, self._cut = bytearray(), bytearray(), 0
            self._unwritable = True  # until the new file is open
            self._file = open(path, "wb")  # noqa: SIM115 - closed by close()
            self._unwritable = False

    def close(self, timeout: float = 2.0) -> None:
        """Wait for EOF (or ``timeout``), then write the tail and close the file (idempotent).

        Output that arrives after ``timeout`` (from a process that escaped the kill) is dropped.
        """
        self._thread.join(timeout)
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if not self._unwritable:
                if self._cut:
                    self._file.write(cut_line(self._cut))
                self._file.write(self._tail)
            self._file.close()
