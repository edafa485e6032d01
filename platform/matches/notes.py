"""A bot's notes on its decisions in a game, for the bot's owner only.

The runner writes every seat's notes beside the game's replay (``notes/game-00001.json``,
``nimmt-notes/1``, see docs/REPLAY.md); the site keeps that file with the match's other files
and never serves it as it is. :func:`owned_notes` is the one way out: the notes of the seats
whose bot the requester owns, nothing of anyone else's. The game page gives them to the viewer
and the owner's replay download carries them; the public replay and its public download never
hold them. A game without a notes file (no bot annotated, or a match played before notes)
simply has none.
"""

import json
from collections.abc import Callable, Sequence
from typing import Any

from core import storage

from arena.engine.record import GameRecord
from arena.table.notes import NOTES_FORMAT, notes_name
from matches.models import Match, Seat, entrant_names


def replay_owners(
    replay: GameRecord, seats: Sequence[Seat], owns: Callable[[Seat], bool]
) -> list[bool]:
    """Per seat of the game's replay: does the requester own its bot? (The replay's players
    name their entry in the match's lineup, which is the match's seat number: looked up by
    that number, never by position in ``seats``, since a seat without a bot — a person at a
    table — has no row; a replay without entries is matched by name.)"""
    by_number = {seat.seat: seat for seat in seats}
    by_name = dict(zip(entrant_names(list(seats)), seats, strict=True))
    owners = []
    for player in replay.players:
        entry = player.entry
        seat = by_name.get(player.name) if entry is None else by_number.get(entry)
        owners.append(seat is not None and owns(seat))
    return owners


def owned_notes(match: Match, game: int, owners: Sequence[bool]) -> dict[str, Any] | None:
    """The notes of game ``game`` (1-based) made by the seats ``owners`` marks (per replay
    seat: owned by the requester), as ``{"format", "seats", "notes"}``; ``None`` if the
    requester owns no seat of the game or those seats made no note."""
    mine = [seat for seat, owned in enumerate(owners) if owned]
    if not mine or not match.result_dir or not 1 <= game <= len(match.replays):
        return None
    name = notes_name(match.replays[game - 1])
    if not storage.safe_name(name):
        return None
    try:
        data = json.loads(storage.read_bytes(f"{match.result_dir}/{name}"))
    except (FileNotFoundError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != NOTES_FORMAT:
        return None
    notes = [n for n in data.get("notes", []) if isinstance(n, dict) and n.get("seat") in set(mine)]
    if not notes:
        return None
    return {"format": NOTES_FORMAT, "seats": mine, "notes": notes}
