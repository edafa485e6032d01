"""A bot's notes on its own decisions: what it was thinking, for its owner's eyes only.

A bot may send with each answer a short text and one number per legal option (the protocol's
``Answer.note`` and ``Answer.option_values``; a house bot returns a :class:`Note` from
:meth:`arena.bots.base.Bot.annotate`). The arena keeps them bounded, never faulting a seat for
them: text beyond :data:`NOTE_BYTES` bytes of UTF-8 is cut at a character boundary, values beyond
:data:`MAX_VALUES` (or beyond the number of options) are dropped, and a value that is not finite
is kept as "no value" (``None``).

The notes of a game are kept apart from its public replay, in a ``nimmt-notes/1`` file (see
docs/REPLAY.md), one :class:`DecisionNote` per annotated decision:

>>> note = Note.bounded("x" * 2000, [1.5, float("nan"), 3.0])
>>> len(note.text), note.values
(1000, (1.5, None, 3.0))
>>> Note.bounded("é" * 600, []).text == "é" * 500  # 2 bytes each: cut between characters
True
>>> Note.bounded("", [float("inf")]) is None  # nothing usable: no note
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass
from typing import Any

from arena.engine.decisions import Decision

#: ``format`` of a game's notes file.
NOTES_FORMAT = "nimmt-notes/1"
#: The longest note kept, in bytes of UTF-8.
NOTE_BYTES = 1000
#: The most per-option values kept.
MAX_VALUES = 128
#: The folder of the notes files, beside the replays.
NOTES_FOLDER = "notes"


def cut_utf8(text: str, limit: int = NOTE_BYTES) -> str:
    """``text`` cut to at most ``limit`` bytes of UTF-8, never inside a character.

    >>> cut_utf8("ab€", 4)
    'ab'
    """
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return data.decode("utf-8")
    return data[:limit].decode("utf-8", "ignore")


@dataclass(frozen=True)
class Note:
    """A bot's note on one decision: ``text`` and ``values`` (one per legal option, in the
    order of the view's ``legal``; ``None`` where it gave no usable number)."""

    text: str = ""
    values: tuple[float | None, ...] = ()

    @classmethod
    def bounded(
        cls, text: str, values: Iterable[float | None], options: int | None = None
    ) -> Note | None:
        """The note as the arena keeps it (see the module's docstring); ``None`` if nothing
        of it is usable. ``options``: how many legal options there were (values beyond are
        dropped)."""
        if not text and isinstance(values, Sized) and not len(values):
            return None  # most answers carry no note: spare them the work below
        cap = MAX_VALUES if options is None else min(MAX_VALUES, options)
        kept: list[float | None] = []
        for value in values:
            if len(kept) >= cap:
                break
            number = None if value is None else float(value)
            kept.append(number if number is not None and math.isfinite(number) else None)
        while kept and kept[-1] is None:
            kept.pop()
        note = cls(cut_utf8(text), tuple(kept))
        return note if note.text or note.values else None


@dataclass(frozen=True)
class DecisionNote:
    """A :class:`Note` with the decision it is about: the seat, the turn (0-based index into
    the replay's ``turns``), the kind of decision, ``index`` (the seat's 0-based count of
    decisions of that kind in that turn), the legal options' text forms, and the decision."""

    seat: int
    turn: int
    kind: str
    index: int
    note: Note
    options: tuple[str, ...]
    decision: str

    def to_dict(self) -> dict[str, Any]:
        """The notes file's record of this note."""
        return {
            "seat": self.seat,
            "turn": self.turn,
            "kind": self.kind,
            "index": self.index,
            "text": self.note.text,
            "values": list(self.note.values),
            "options": list(self.options[: len(self.note.values)]),
            "decision": self.decision,
        }


def option_names(legal: Sequence[Decision]) -> tuple[str, ...]:
    """The text forms of the legal options (``"tile 37"``), at most :data:`MAX_VALUES`."""
    return tuple(str(decision) for decision in legal[:MAX_VALUES])


def notes_file(notes: Sequence[DecisionNote], seats: Iterable[int] | None = None) -> dict[str, Any]:
    """A game's ``nimmt-notes/1`` content: the notes of ``seats`` (every seat if ``None``)."""
    keep = None if seats is None else set(seats)
    return {
        "format": NOTES_FORMAT,
        "notes": [n.to_dict() for n in notes if keep is None or n.seat in keep],
    }


def notes_name(replay_name: str) -> str:
    """The notes file of a replay, relative to the replay's folder: in a folder ``notes/`` of
    its own, so that what reads ``game-*.json`` as replays never meets a notes file.

    >>> notes_name("game-00001.json")
    'notes/game-00001.json'
    """
    return f"{NOTES_FOLDER}/{replay_name}"
