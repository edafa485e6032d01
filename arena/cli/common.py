"""What the ``nimmt`` subcommands share: the errors that set the exit status, argument types,
and the progress line of a series.

A subcommand raises :class:`UsageError` for bad input (exit status 2, with its usage) and
:class:`Failure` when it ran but could not do its job (exit status 1); see :func:`arena.cli.main`.
"""

import argparse
import math
import sys
import time
from collections.abc import Callable
from typing import TextIO, TypeAlias

# Not subscriptable at run time, hence the string.
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class UsageError(Exception):
    """Bad input on the command line: exit status 2, with the subcommand's usage."""


class Failure(Exception):
    """The command ran but could not do its job (an unreadable file...): exit status 1."""


def at_least(low: int) -> Callable[[str], int]:
    """An argument type: a whole number no smaller than ``low``.

    >>> at_least(1)("3")
    3
    >>> at_least(0)("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at least 0, got -1
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


class Progress:
    """Progress of a series on stderr: a redrawn bar on a terminal, else a line every tenth."""

    def __init__(self, total: int, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self.started = time.monotonic()
        self._drawn = 0.0
        self._step = max(1, math.ceil(total / 10))

    def update(self, done: int) -> None:
        if self.quiet:
            return
        elapsed = time.monotonic() - self.started
        if not self.tty:
            if done % self._step == 0 or done == self.total:
                self.stream.write(f"{done}/{self.total} games, {elapsed:.1f} s\n")
                self.stream.flush()
            return
        now = time.monotonic()
        if now - self._drawn < 0.1 and done < self.total:
            return
        self._drawn = now
        width = 30
        filled = width * done // self.total
        eta = elapsed / done * (self.total - done) if done else 0.0
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games"
            f"  {elapsed:.0f} s, {eta:.0f} s left "
        )
        self.stream.flush()

    def close(self) -> None:
        if self.tty and not self.quiet:
            self.stream.write("\n")
            self.stream.flush()
