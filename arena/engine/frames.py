"""A game step by step, as the replay viewer draws it: the engine's frames (``nimmt-frames/1``).

:func:`frames` re-plays a ``nimmt-replay/1`` replay (or a finished :class:`Game`) with the
engine and notes the position after every step of play: the deal, each turn's reveal, every
action card played, every tile landing on its space, every completed or taken row, every luck
card placed, and the end of each turn. The viewer only draws and animates them; the rules live
here, in the engine, and nowhere else.

>>> from arena.engine import Game
>>> game = Game.new("basic", players=3, seed=4)
>>> while not game.is_over():
...     for seat in game.pending.seats:
...         game.apply(seat, game.legal(seat)[0])
>>> film = frames(game)
>>> film.frames[0].step.kind, film.frames[1].step.kind, film.frames[2].step.kind
('setup', 'reveal', 'land')
>>> film.frames[-1].spaces == tuple(map(tuple, game.spaces))
True
>>> film.result.scores == game.result().scores
True
>>> len(film.turn_ends) == len(game.turns) + 1
True

How it is built: a :class:`Game` set up from the replay is driven through its turns by
:func:`~arena.engine.replay.replay_turn`, and a listener (:meth:`Game.listen`) notes a frame
at each step event the Game emits, from the position the Game holds right then (it changes
nothing in play). A replay that does not re-simulate cleanly has no frames
(:class:`UnverifiedReplayError`).

JSON (:meth:`Frames.to_json`), every index 0-based as in the replay::

    {
      "format": "nimmt-frames/1",
      "variant": "pro+luck",
      "rules": "nimmt-rules/2",                         # the reading the game was played under
      "players": ["alice-bot", "bob-bot", "random-1"],   # names, seat order
      "layout": ["....+F", ...],                        # the replay's layout ([] for classic)
      "row_lengths": [6, 6, 7, ...],                    # spaces per row
      "bullheads": [0, 1, 1, ...],                      # bullheads[t]: tile t's (index 0 unused,
                                                        # the game's reading's table)
      "higher_is_better": true,                         # false: classic, scores are penalties
      "seat": null,                                     # or S: the game as seat S saw it
      "turns": 14,
      "turn_ends": [0, 9, 17, ...],                     # the frame ending turn k (0: the deal)
      "result": {"scores": [...], "ranks": [...],       # after any end-of-game hand penalty
                 "faults": [{"seat": 1, "kind": "timeout", "turn": 3}]},   # never a detail
      "frames": [
        {
          "turn": 3,                                    # 0: the deal; k: during/ending turn k
          "step": {"kind": "land", "seat": 1, ...},     # what happened (below)
          "spaces": [[12, 0, ...], ...],                # tile, 0 empty, -1 skipped (Game.spaces)
          "markers": [[2, 3, "plus5"], ...],            # luck markers: row, space, card
          "stops": [4],                                 # rows closed by a Stop card
          "tray": [[37, 2], ...],                       # revealed (tile, seat) not yet placed
          "scores": [...], "deltas": [...],             # after the step; change by the step
          "hands": [11, 12, 10], "held": [["stop"], [], []],   # hand sizes, action cards
          "supply": 40, "luck_deck": 10, "action_deck": 20,
          "asks": {"kind": "action", "seat": 2} | null, # the engine waits for this decision here
          "hand": [3, 41, ...],                         # seat S's view only: S's tiles in hand
          "history": [[12, 40], [7, null], ...]         # and per turn so far, each seat's tile
        }, ...
      ]
    }

A seat's view (``frames(replay, seat=S)``) is what seat S knew at each step, the fields of its
:class:`~arena.engine.observation.Observation`: every frame adds ``hand``, S's tiles, and
``history``, the tile each seat revealed in each turn so far; ``held`` names S's own action
cards but each other seat's only as ``"hidden"`` (one per card, their number is public); the
rest of a frame is public to every seat anyway. So a browser showing a seat's view is never
sent another seat's hidden cards.

Steps (``step.kind``, with the fields that apply; absent fields are null or empty):

- ``setup``: the deal. ``reveal``: the turn's tiles are revealed (``tray``, placing order).
- ``action``: ``seat`` plays ``card`` on ``tile`` (``row``, ``new_tile`` as recorded); the
  position is the one before the card's effect, which the next steps show.
- ``land``: ``seat``'s ``tile`` is on ``space`` of ``row``; ``marker``: the luck marker that
  was on that space; ``drew``: ``"tile"`` and/or ``"action"`` if the space gave the seat a
  tile or an action card. On a final space the row's effect is the next step.
- ``complete``: the row is complete: its other ``tiles`` (``heads`` bullheads) went ``to``
  ``"box"`` or ``"hand"`` (claimed), ``tile`` moved to the first space of ``to_row``;
  ``marker`` as for ``land``.
- ``sixth`` (card game): ``tile`` is the sixth card of ``row``; the next step takes the row.
- ``take`` (card game): ``seat`` took the ``tiles`` of ``row`` (``heads`` bullheads) and
  ``tile`` starts it; ``chosen``: the card was lower than every row, the seat chose the row.
- ``added``: ``seat``'s Another card took effect before anything else happened (its new
  ``tile`` is revealed and in the tray, the seat's tiles in placing order) and the engine asks
  about it at once.
- ``luck``: ``seat`` put luck card ``card`` on ``space`` of ``row``.
- ``end``: the turn is over; ``second_set``: every seat drew a new hand; ``over``: the game is.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .decisions import DecisionKind
from .errors import ReplayError
from .game import (
    ActionPlayed,
    Asked,
    Event,
    Game,
    Landed,
    LuckPlaced,
    Revealed,
    RowCompleted,
    RowTaken,
    SixthCard,
    TurnEnded,
)
from .readings import CURRENT
from .record import GameRecord
from .replay import as_record, replay_turn, simulate, start, to_record

FORMAT = "nimmt-frames/1"
#: What a seat's view says in place of an action card another seat holds (its number is public).
HIDDEN_CARD = "hidden"

__all__ = [
    "FORMAT",
    "HIDDEN_CARD",
    "Asks",
    "Fault",
    "Film",
    "FinalResult",
    "Frame",
    "Frames",
    "Step",
    "UnverifiedReplayError",
    "frames",
    "header",
]


class UnverifiedReplayError(ReplayError):
    """The replay does not re-simulate cleanly with the engine; ``problems`` says where."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        shown = "; ".join(self.problems[:3]) + (" ..." if len(self.problems) > 3 else "")
        super().__init__(f"the replay does not verify, so it has no frames: {shown}")


@dataclass(frozen=True)
class Step:
    """What happened at one step of play (module docstring: which fields each kind uses)."""

    kind: str
    seat: int | None = None
    tile: int | None = None
    row: int | None = None
    space: int | None = None
    card: str | None = None
    new_tile: int | None = None
    marker: str | None = None
    drew: tuple[str, ...] = ()
    tiles: tuple[int, ...] = ()
    heads: int | None = None
    to: str | None = None
    to_row: int | None = None
    chosen: bool = False
    second_set: bool = False
    over: bool = False

    def to_json(self) -> dict[str, Any]:
        """The step as JSON: the kind and every field that is set."""
        data: dict[str, Any] = {"kind": self.kind}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name != "kind" and value is not None and value is not False and value != ():
                data[name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class Asks:
    """The decision the engine waits for right after a frame (inside a turn)."""

    kind: str
    seat: int


@dataclass(frozen=True)
class Frame:
    """The position after one step, as the engine holds it."""

    turn: int
    step: Step
    spaces: tuple[tuple[int, ...], ...]
    markers: tuple[tuple[str | None, ...], ...]
    stops: tuple[int, ...]
    tray: tuple[tuple[int, int], ...]
    scores: tuple[int, ...]
    deltas: tuple[int, ...]
    hands: tuple[int, ...]
    held: tuple[tuple[str, ...], ...]
    supply: int
    luck_deck: int
    action_deck: int
    asks: Asks | None = None
    hand: tuple[int, ...] | None = None  # a seat's view: that seat's tiles in hand
    # a seat's view: per turn so far, the tile each seat revealed (Observation.history)
    history: tuple[tuple[int | None, ...], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        if self.hand is not None:
            seen["hand"] = list(self.hand)
        if self.history is not None:
            seen["history"] = [list(plays) for plays in self.history]
        return {
            "turn": self.turn,
            "step": self.step.to_json(),
            "spaces": [list(row) for row in self.spaces],
            "markers": [
                [r, s, card]
                for r, row in enumerate(self.markers)
                for s, card in enumerate(row)
                if card is not None
            ],
            "stops": list(self.stops),
            "tray": [list(play) for play in self.tray],
            "scores": list(self.scores),
            "deltas": list(self.deltas),
            "hands": list(self.hands),
            "held": [list(cards) for cards in self.held],
            "supply": self.supply,
            "luck_deck": self.luck_deck,
            "action_deck": self.action_deck,
            "asks": None if self.asks is None else {"kind": self.asks.kind, "seat": self.asks.seat},
            **seen,
        }


@dataclass(frozen=True)
class Fault:
    """A seat's fault as every viewer may see it: its kind and turn, never its detail."""

    seat: int
    kind: str
    turn: int


@dataclass(frozen=True)
class FinalResult:
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    faults: tuple[Fault, ...]


@dataclass(frozen=True)
class Frames:
    """A whole game as frames: ``frames[turn_ends[k]]`` is the position after turn ``k``."""

    variant: str
    players: tuple[str, ...]
    layout: tuple[str, ...]
    row_lengths: tuple[int, ...]
    bullheads: tuple[int, ...]
    higher_is_better: bool
    turn_ends: tuple[int, ...]
    frames: tuple[Frame, ...]
    result: FinalResult
    rules: str = CURRENT.name  # the reading of the rules the game was played under
    seat: int | None = None  # a seat's view (:func:`frames`), or None: every seat's cards

    @property
    def turns(self) -> int:
        return len(self.turn_ends) - 1

    def to_json(self) -> dict[str, Any]:
        """The JSON the site serves (module docstring)."""
        head = _header(
            self.variant,
            self.rules,
            self.players,
            self.layout,
            self.row_lengths,
            self.bullheads,
            self.higher_is_better,
        )
        return {
            **head,
            "seat": self.seat,
            "turns": self.turns,
            "turn_ends": list(self.turn_ends),
            "result": {
                "scores": list(self.result.scores),
                "ranks": list(self.result.ranks),
                "faults": [
                    {"seat": f.seat, "kind": f.kind, "turn": f.turn} for f in self.result.faults
                ],
            },
            "frames": [frame.to_json() for frame in self.frames],
        }


def _header(
    variant: str,
    rules: str,
    players: Sequence[str],
    layout: Sequence[str],
    row_lengths: Sequence[int],
    bullheads: Sequence[int],
    higher_is_better: bool,
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "variant": variant,
        "rules": rules,
        "players": list(players),
        "layout": list(layout),
        "row_lengths": list(row_lengths),
        "bullheads": list(bullheads),
        "higher_is_better": higher_is_better,
    }


def header(game: Game, names: Sequence[str]) -> dict[str, Any]:
    """What the frames of ``game`` (its seats named ``names``) say besides the frames, the
    turns and the result: the JSON keys ``format`` to ``higher_is_better`` of
    :meth:`Frames.to_json`, known from the deal on. With :class:`Film`, a game in progress.

    >>> game = Game.new("classic", players=2, seed=1)
    >>> head = header(game, ["a", "b"])
    >>> head["players"], head["layout"], head["bullheads"][55], head["row_lengths"]
    (['a', 'b'], [], 7, [5, 5, 5, 5])
    """
    return _header(
        game.variant.name,
        game.rules.name,
        names,
        game.layout,
        [len(row) for row in game.spaces],
        game.bullheads[: game.variant.tiles + 1],
        game.variant.higher_is_better,
    )


def frames(source: GameRecord | Mapping[str, Any] | Game, seat: int | None = None) -> Frames:
    """The frames of a replay (``nimmt-replay/1``) or of a finished game.

    With ``seat``, the game as that seat saw it (:class:`Film`): each frame adds the seat's
    ``hand`` and names no action card of another seat; nothing else in a frame is private.

    Raises :class:`~arena.engine.errors.ReplayError` for a file that is not a replay or a
    seat it does not have, and :class:`UnverifiedReplayError` for one that does not
    re-simulate cleanly.

    >>> game = Game.new("pro", players=2, seed=3)
    >>> while not game.is_over():
    ...     for s in game.pending.seats:
    ...         game.apply(s, game.legal(s)[0])
    >>> seen = frames(game, seat=1)
    >>> seen.seat, seen.frames[0].hand == tuple(sorted(game.setup["hands"][1]))
    (1, True)
    """
    if isinstance(source, Game):
        record = to_record(source, [f"seat {s}" for s in range(source.players)])
    else:
        record = as_record(source)  # ReplayError on a bad shape
    final, problems = simulate(record)  # ReplayError on a bad deal
    if problems:
        raise UnverifiedReplayError(problems)
    if seat is not None and not (
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < final.players
    ):
        raise ReplayError(f"there is no seat {seat!r} in this game (seats 0..{final.players - 1})")
    game = start(record)
    film = Film(game, seat)
    game.listen(film.step)
    for turn in record.turns:
        replay_turn(game, turn)
    result = final.result()
    return Frames(
        variant=final.variant.name,
        players=record.names,
        layout=final.layout,
        row_lengths=tuple(len(row) for row in final.spaces),
        bullheads=final.bullheads[: final.variant.tiles + 1],
        higher_is_better=final.variant.higher_is_better,
        turn_ends=tuple(film.turn_ends),
        frames=tuple(film.notes),
        result=FinalResult(
            scores=result.scores,
            ranks=record.result.ranks,  # verified; faults rank last
            faults=tuple(Fault(f.seat, f.kind, f.turn) for f in record.result.faults),
        ),
        rules=final.rules.name,
        seat=seat,
    )


class Film:
    """The frames of one game, noted from its step events: each event is one frame of the
    position the game holds when it is emitted. Listen with it to a game being played
    (``game.listen(film.step)``) and ``film.notes`` grows as the game goes: the live view of a
    running match; :func:`frames` has it re-play a replay.

    >>> game = Game.new("basic", players=2, seed=4)
    >>> film = Film(game)
    >>> game.listen(film.step)
    >>> for seat in game.pending.seats:
    ...     game.apply(seat, game.legal(seat)[0])
    >>> [frame.step.kind for frame in film.notes][:3], film.turn_ends
    (['setup', 'reveal', 'land'], [0, 4])

    With ``seat``, the frames are that seat's view (what its
    :class:`~arena.engine.observation.Observation` holds): each notes the seat's ``hand`` and
    the tiles revealed so far (``history``), and the action cards of the other seats only as
    :data:`HIDDEN_CARD`, one per card.
    """

    def __init__(self, game: Game, seat: int | None = None) -> None:
        self.game = game
        self.seat = seat
        self.notes: list[Frame] = []
        self.turn_ends = [0]
        self.note(Step("setup"))

    def note(
        self,
        step: Step,
        *,
        tray: Sequence[tuple[int, int]] | None = None,
        spaces: Sequence[Sequence[int]] | None = None,
    ) -> None:
        """A frame of the position now (``spaces``/``tray``: what differs from the Game's)."""
        game = self.game
        previous = self.notes[-1].scores if self.notes else (0,) * game.players
        scores = tuple(game.scores)
        self.notes.append(
            Frame(
                turn=len(game.turns),
                step=step,
                spaces=tuple(tuple(row) for row in (spaces if spaces is not None else game.spaces)),
                markers=tuple(tuple(row) for row in game.markers),
                stops=tuple(sorted(game.stops)),
                tray=tuple(tray if tray is not None else game.to_place()),
                scores=scores,
                deltas=tuple(now - before for now, before in zip(scores, previous, strict=True)),
                hands=tuple(len(hand) for hand in game.hands),
                held=self._held(),
                supply=len(game.supply),
                luck_deck=len(game.luck_deck),
                action_deck=len(game.action_deck),
                hand=None if self.seat is None else tuple(game.hands[self.seat]),
                history=None if self.seat is None else tuple(tuple(t.plays) for t in game.turns),
            )
        )

    def _held(self) -> tuple[tuple[str, ...], ...]:
        """The action cards each seat holds, as this film may show them."""
        return tuple(
            tuple(cards) if self.seat is None or s == self.seat else (HIDDEN_CARD,) * len(cards)
            for s, cards in enumerate(self.game.held)
        )

    def step(self, event: Event) -> None:
        """Note the frame of one step event (the listener)."""
        match event:
            case Revealed():
                self.note(Step("reveal"))
            case ActionPlayed(seat, tile, card, row, new_tile):
                self.note(
                    Step("action", seat=seat, tile=tile, card=card, row=row, new_tile=new_tile),
                    tray=[(tile, seat), *self.game.to_place()],  # the tile it is played on
                )
            case Landed(seat, tile, row, space, _delta, marker, drew_tile, drew_card):
                drew = ("tile",) * (drew_tile is not None) + ("action",) * (drew_card is not None)
                step = Step("land", seat=seat, tile=tile, row=row, space=space, marker=marker)
                self.note(replace(step, drew=drew))
            case RowCompleted(seat, tile, row, tiles, claimed, to_row, _delta, marker):
                self.note(
                    Step(
                        "complete",
                        seat=seat,
                        tile=tile,
                        row=row,
                        space=len(self.game.spaces[row]) - 1,
                        marker=marker,
                        tiles=tiles,
                        heads=sum(self.game.bullheads[t] for t in tiles),
                        to="hand" if claimed and tiles else "box",
                        to_row=to_row,
                    )
                )
            case SixthCard(seat, tile, row):
                self.note(Step("sixth", seat=seat, tile=tile, row=row))
            case RowTaken(seat, tile, row, tiles, _delta, chosen):
                heads = sum(self.game.bullheads[t] for t in tiles)
                step = Step("take", seat=seat, tile=tile, row=row, space=0, tiles=tiles)
                self.note(replace(step, heads=heads, to="box", chosen=chosen))
            case LuckPlaced(seat, card, row, space):
                self.note(Step("luck", seat=seat, row=row, space=space, card=card))
            case TurnEnded(second_set=second_set):
                self.note(Step("end", second_set=second_set, over=self.game.is_over()))
                self.turn_ends.append(len(self.notes) - 1)
            case Asked(pending) if pending.kind is not DecisionKind.TILE:
                last, game = self.notes[-1], self.game
                tray = ([game.current] if game.current else []) + game.to_place()
                held = self._held()
                if last.step.kind == "action" and (last.tray != tuple(tray) or last.held != held):
                    # The card took effect with no step of its own before the engine asks
                    # again (Another: the new tile is revealed at once and asked about).
                    added = Step("added", seat=last.step.seat, tile=last.step.new_tile)
                    self.note(added, tray=tray)
                # the engine waits for this decision right after the last step
                self.notes[-1] = replace(
                    self.notes[-1], asks=Asks(pending.kind.value, pending.seats[0])
                )
