"""Independent referee for `nimmt-replay/1` files.

This module is a second, independent implementation of the rules in ``docs/RULES.md``
(6 nimmt! Brettspiel in its four modes plus the classic card game). It was written from the
rules text and the replay format (``docs/REPLAY.md``) only, without reading or importing
the engine, so that the two implementations can cross-check each other: the engine writes
replays, this referee re-simulates them from ``setup`` and the recorded ``plays``/``choices`` and
reports every place where the record disagrees with the rules.

Public API: :func:`check_replay` returns a list of human-readable mismatch descriptions (empty
when the replay agrees). Messages about a turn name it as ``turn N (turns[N-1])``: turn numbers
are 1-based, the index into ``turns`` is 0-based.

Command line::

    python tests/independent_referee.py FILE...    # .json or .json.gz; exit 1 on any mismatch

Where RULES.md leaves a detail open, this referee follows the project's written interpretations
(placement order, timing of luck cards and action cards, the meaning of each replay field); they
are restated next to the code that implements them.

Readings (RULES.md 10): a replay names the reading of the rules it was played under in its
``rules`` key. ``"nimmt-rules/2"`` is the current text; a replay without the key, or with
``"nimmt-rules/1"``, is judged by the earlier reading, which differs on four points: the board
game's tiles carry the card game's bullheads (55 carries 7, not 5); Stop may not close the row
the tile would go to; after Another the tile the card was played on goes first, then the new
one; Plus five adds 5 on top of whatever the space and its marker do.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeGuard

FORMAT = "nimmt-replay/1"
VARIANTS = ("basic", "basic+luck", "pro", "pro+luck", "classic")

# RULES.md 1: default board layouts (top row first), one character per space.
BASIC_LAYOUT: tuple[str, ...] = (
    "...+-F",
    "....+F",
    "...-+-F",
    "..+F",
    "....-F",
    "....+-+F",
    "..-F",
    "...+-F",
    "....-+F",
    "...-+F",
)
PRO_LAYOUT: tuple[str, ...] = (
    "...D-F",
    "....AC",
    "...-D+F",
    "..AF",
    "....DC",
    "....+A-F",
    "..DC",
    "...A-F",
    "....D+F",
    "...-AC",
)

LUCK_CARDS = ("plus5", "final10")
LUCK_DECK: Counter[str] = Counter({"plus5": 8, "final10": 4})
ACTION_CARDS = ("stop", "swap", "skip", "front", "ascending", "anywhere", "another", "plus5")
ACTION_DECK: Counter[str] = Counter({card: 3 for card in ACTION_CARDS})
FAULT_KINDS = ("timeout", "crash", "illegal", "protocol")

BOARD_TILES = 100
CLASSIC_CARDS = 104
BOARD_HAND = 12
CLASSIC_HAND = 10
CLASSIC_TURNS = 10
CLASSIC_ROW_LIMIT = 5  # the sixth card takes the row
BASIC_SET_TURNS = 12
REFILL = 12  # tiles per player in a second set
PRO_TURN_CAP = 200
START_ROWS = 4

# Marker put in the message when a replay stops before the game is over.
UNFINISHED = "game is not over"

READING_1 = "nimmt-rules/1"
READING_2 = "nimmt-rules/2"
BOARD_MAX_BULLHEADS = 5  # RULES.md 1, reading 2: tiles carry 1 to 5 bullheads


def bullheads(tile: int) -> int:
    """Bullheads of a card of the card game (RULES.md 7; the board game's under reading 1)."""
    if tile == 55:
        return 7
    if tile % 11 == 0:
        return 5
    if tile % 10 == 0:
        return 3
    if tile % 5 == 0:
        return 2
    return 1


def board_bullheads(tile: int) -> int:
    """Bullheads of a board-game tile under reading 2 (RULES.md 1): the card game's table
    capped at 5, so that 55 carries 5."""
    return min(bullheads(tile), BOARD_MAX_BULLHEADS)


def competition_ranks(scores: Sequence[int], faulted: set[int], lower_is_better: bool) -> list[int]:
    """Competition ranks (1, 1, 3); faulted seats rank below all others, then by score."""
    keys = [
        (seat in faulted, score if lower_is_better else -score) for seat, score in enumerate(scores)
    ]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


class _Fatal(Exception):
    """A mismatch after which re-simulating further makes no sense."""


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is(value: object, expected: int) -> bool:
    """``value`` is the integer ``expected`` (JSON ``true`` is not 1)."""
    return _is_int(value) and value == expected


def _int_list(value: object, length: int) -> TypeGuard[list[int]]:
    return isinstance(value, list) and len(value) == length and all(_is_int(v) for v in value)


def _turn_name(index: int) -> str:
    return f"turn {index + 1} (turns[{index}])"


class _Row:
    """One board row: tiles by space, skipped spaces, luck markers, Stop marker."""

    def __init__(self, layout: str) -> None:
        self.layout = layout
        self.tiles: list[int | None] = [None] * len(layout)
        self.skipped: set[int] = set()
        self.markers: dict[int, str] = {}
        self.stopped = False

    @property
    def final(self) -> int:
        return len(self.layout) - 1

    def holds_tile(self) -> bool:
        return any(tile is not None for tile in self.tiles)

    def active(self) -> bool:
        return self.holds_tile() and not self.stopped

    def last_tile(self) -> int:
        return [tile for tile in self.tiles if tile is not None][-1]

    def first_tile(self) -> int | None:
        return self.tiles[0]

    def next_empty(self) -> int:
        """The first space after every tile and skipped space (skipped spaces count as filled)."""
        filled = [i for i, tile in enumerate(self.tiles) if tile is not None or i in self.skipped]
        return filled[-1] + 1 if filled else 0

    def tile_count(self) -> int:
        return sum(1 for tile in self.tiles if tile is not None)

    def clear(self) -> list[int]:
        removed = [tile for tile in self.tiles if tile is not None]
        self.tiles = [None] * len(self.layout)
        self.skipped = set()
        self.markers = {}
        return removed


class _Game:
    """Re-simulation of one replay; collects mismatches in ``self.problems``."""

    def __init__(self, replay: dict[str, Any]) -> None:
        self.replay = replay
        self.problems: list[str] = []
        self.where = "setup"
        self.variant = ""
        self.classic = False
        self.pro = False
        self.luck = False
        self.n = 0
        self.layout: tuple[str, ...] = ()
        self.rows: list[_Row] = []
        self.classic_rows: list[list[int]] = []
        self.hands: list[set[int]] = []
        self.supply: list[int] = []
        self.luck_deck: list[str] = []
        self.action_deck: list[str] = []
        self.held: list[Counter[str]] = []
        self.scores: list[int] = []
        self.refilled = False
        self.choices: list[Any] = []
        self.next_choice = 0
        self.reading = READING_1
        # Reading 2, Another: the seat's revealed tiles still to be placed now, each with
        # whether it has had its action card; None while no Another card is being resolved.
        self.own_tiles: list[tuple[int, bool]] | None = None

    def heads(self, tile: int) -> int:
        """Bullheads of ``tile`` in this game (card game: always the card game's table)."""
        if self.classic or self.reading == READING_1:
            return bullheads(tile)
        return board_bullheads(tile)

    # ----------------------------------------------------------------- reporting

    def note(self, message: str) -> None:
        self.problems.append(message if self.where == "" else f"{self.where}: {message}")

    def fail(self, message: str) -> _Fatal:
        self.note(message)
        return _Fatal(message)

    # ----------------------------------------------------------------- setup

    def run(self) -> None:
        try:
            self.check_setup()
            ended_after = self.play_turns()
            self.where = "result"
            if ended_after is not None:
                self.check_result()
        except _Fatal:
            pass

    def check_setup(self) -> None:
        replay = self.replay
        if not isinstance(replay, dict):
            raise self.fail("replay is not a JSON object")
        if replay.get("format") != FORMAT:
            self.note(f"format is {replay.get('format')!r}, expected {FORMAT!r}")
        rules = replay.get("rules", READING_1)
        if rules not in (READING_1, READING_2):
            raise self.fail(f"unknown rules reading {rules!r}")
        self.reading = rules
        variant = replay.get("variant")
        if variant not in VARIANTS:
            raise self.fail(f"unknown variant {variant!r}")
        assert isinstance(variant, str)
        self.variant = variant
        self.classic = variant == "classic"
        self.pro = variant.startswith("pro")
        self.luck = variant.endswith("+luck")
        if not _is_int(replay.get("seed")):
            self.note(f"seed is {replay.get('seed')!r}, expected an integer")
        players = replay.get("players")
        if not isinstance(players, list):
            raise self.fail("players is not a list")
        for seat, player in enumerate(players):
            if not isinstance(player, dict) or "name" not in player:
                self.note(f"players[{seat}] has no name")
        self.n = len(players)
        low, high = (2, 10) if self.classic else (2, 6)
        if not low <= self.n <= high:
            raise self.fail(f"{self.n} players; {variant} is for {low}-{high} players")

        expected_layout: list[str] = []
        if not self.classic:
            expected_layout = list(PRO_LAYOUT if self.pro else BASIC_LAYOUT)
        if replay.get("layout") != expected_layout:
            self.note(f"layout is {replay.get('layout')!r}, expected {expected_layout!r}")
        self.layout = tuple(expected_layout)

        setup = replay.get("setup")
        if not isinstance(setup, dict):
            raise self.fail("setup is missing")
        fatal = False
        rows = setup.get("rows")
        n_rows = START_ROWS if self.classic else len(self.layout)
        if not (
            isinstance(rows, list)
            and len(rows) == n_rows
            and all(isinstance(row, list) and all(_is_int(t) for t in row) for row in rows)
        ):
            raise self.fail(f"setup.rows must be {n_rows} lists of tiles, got {rows!r}")
        for index, row in enumerate(rows):
            want = 1 if index < START_ROWS else 0
            if len(row) != want:
                self.note(f"setup.rows[{index}] holds {len(row)} tiles, expected {want}")
                fatal = True
        hands = setup.get("hands")
        if not (
            isinstance(hands, list)
            and len(hands) == self.n
            and all(isinstance(h, list) and all(_is_int(t) for t in h) for h in hands)
        ):
            raise self.fail(f"setup.hands must be {self.n} lists of tiles, got {hands!r}")
        hand_size = CLASSIC_HAND if self.classic else BOARD_HAND
        for seat, hand in enumerate(hands):
            if len(hand) != hand_size:
                self.note(f"setup.hands[{seat}] holds {len(hand)} tiles, expected {hand_size}")
                fatal = True
        supply = setup.get("supply")
        if not (isinstance(supply, list) and all(_is_int(t) for t in supply)):
            raise self.fail(f"setup.supply must be a list of tiles, got {supply!r}")
        top = CLASSIC_CARDS if self.classic else BOARD_TILES
        seen: Counter[int] = Counter()
        for row in rows:
            seen.update(row)
        for hand in hands:
            seen.update(hand)
        seen.update(supply)
        missing = sorted(set(range(1, top + 1)) - set(seen))
        twice = sorted(t for t, count in seen.items() if count > 1)
        foreign = sorted(t for t in seen if not 1 <= t <= top)
        if missing or twice or foreign:
            fatal = True
            self.note(
                f"tiles must be 1..{top} exactly once across rows, hands and supply "
                f"(missing {missing}, more than once {twice}, out of range {foreign})"
            )

        luck_deck = setup.get("luck_deck")
        if not (isinstance(luck_deck, list) and all(isinstance(c, str) for c in luck_deck)):
            raise self.fail(f"setup.luck_deck must be a list of strings, got {luck_deck!r}")
        want_luck = LUCK_DECK if self.luck else Counter()
        if Counter(luck_deck) != want_luck:
            self.note(
                f"setup.luck_deck holds {dict(Counter(luck_deck))}, expected {dict(want_luck)}"
            )
        action_deck = setup.get("action_deck")
        if not (isinstance(action_deck, list) and all(isinstance(c, str) for c in action_deck)):
            raise self.fail(f"setup.action_deck must be a list of strings, got {action_deck!r}")
        want_action = ACTION_DECK if self.pro else Counter()
        if Counter(action_deck) != want_action:
            self.note(
                f"setup.action_deck holds {dict(Counter(action_deck))}, expected "
                f"{dict(want_action)}"
            )
        if fatal:
            raise _Fatal("setup")

        self.hands = [set(hand) for hand in hands]
        self.supply = list(supply)
        self.luck_deck = list(luck_deck)
        self.action_deck = list(action_deck)
        self.held = [Counter() for _ in range(self.n)]
        self.scores = [0] * self.n
        if self.classic:
            self.classic_rows = [list(row) for row in rows]
        else:
            self.rows = [_Row(spaces) for spaces in self.layout]
            for index, row in enumerate(rows):
                if row:
                    self.rows[index].tiles[0] = row[0]

    # ----------------------------------------------------------------- turns

    def play_turns(self) -> int | None:
        """Re-simulate every turn; return how many turns the game lasted (None: unfinished)."""
        turns = self.replay.get("turns")
        if not isinstance(turns, list):
            raise self.fail("turns is not a list")
        compare_scores = True
        for index, turn in enumerate(turns):
            self.where = _turn_name(index)
            if not isinstance(turn, dict):
                raise self.fail("turn is not an object")
            self.play_one_turn(turn)
            recorded = turn.get("scores")
            if compare_scores:
                if not _int_list(recorded, self.n):
                    self.note(f"scores {recorded!r} are not {self.n} integers")
                    compare_scores = False
                else:
                    wrong = [seat for seat in range(self.n) if recorded[seat] != self.scores[seat]]
                    for seat in wrong:
                        self.note(
                            f"seat {seat} score {self.scores[seat]}, replay says {recorded[seat]}"
                        )
                    if wrong:
                        compare_scores = False
                        self.note("scores of later turns are not compared")
            if self.game_over(index + 1):
                if index + 1 < len(turns):
                    self.where = ""
                    self.note(
                        f"replay has {len(turns)} turns, but the game ends after turn {index + 1}"
                    )
                return index + 1
        self.where = ""
        self.note(f"{UNFINISHED}: replay stops after {len(turns)} turns")
        return None

    def play_one_turn(self, turn: dict[str, Any]) -> None:
        plays = turn.get("plays")
        choices = turn.get("choices")
        if not isinstance(plays, list) or len(plays) != self.n:
            raise self.fail(f"plays {plays!r} is not a list of {self.n} entries")
        if not isinstance(choices, list):
            raise self.fail(f"choices {choices!r} is not a list")
        self.choices = choices
        self.next_choice = 0
        revealed: list[tuple[int, int]] = []
        for seat, tile in enumerate(plays):
            hand = self.hands[seat]
            if tile is None:
                if hand:
                    raise self.fail(f"seat {seat} plays nothing but holds {sorted(hand)}")
                continue
            if not _is_int(tile) or tile not in hand:
                raise self.fail(
                    f"seat {seat} plays tile {tile!r}, which is not in its hand {sorted(hand)}"
                )
            hand.remove(tile)
            revealed.append((tile, seat))
        for tile, seat in sorted(revealed):
            if self.classic:
                self.place_classic(seat, tile)
            else:
                self.place_revealed(seat, tile, allow_action=True)
        if self.next_choice < len(self.choices):
            raise self.fail(
                f"unexpected choice {self.choices[self.next_choice]!r} "
                f"(choices[{self.next_choice}])"
            )
        for row in self.rows:
            row.stopped = False  # Stop markers last until the end of the turn

    def game_over(self, turns_done: int) -> bool:
        """End-of-turn check (RULES.md 4, 5, 7); performs second-set draws."""
        if self.classic:
            return turns_done >= CLASSIC_TURNS
        if not self.pro:
            if self.n <= 3 and turns_done == BASIC_SET_TURNS and not self.refilled:
                self.refill()
                return False
            return turns_done >= (2 * BASIC_SET_TURNS if self.n <= 3 else BASIC_SET_TURNS)
        if any(not hand for hand in self.hands):
            if self.n <= 3 and not self.refilled and len(self.supply) >= REFILL * self.n:
                self.refill()
                return False
            return True
        return turns_done >= PRO_TURN_CAP

    def refill(self) -> None:
        self.refilled = True
        for seat in range(self.n):
            self.hands[seat].update(self.supply[:REFILL])
            del self.supply[:REFILL]

    # ----------------------------------------------------------------- choices

    def peek(self) -> Any:
        if self.next_choice < len(self.choices):
            return self.choices[self.next_choice]
        return None

    def take(self) -> dict[str, Any]:
        choice = self.choices[self.next_choice]
        self.next_choice += 1
        assert isinstance(choice, dict)
        return choice

    def row_arg(self, choice: dict[str, Any], rows: int) -> int:
        row = choice.get("row")
        if not _is_int(row) or not 0 <= row < rows:
            raise self.fail(f"choice {choice!r} has no valid row")
        return row

    # ----------------------------------------------------------------- classic

    def place_classic(self, seat: int, card: int) -> None:
        rows = self.classic_rows
        lower = [i for i, row in enumerate(rows) if row[-1] < card]
        if not lower:
            choice = self.peek()
            if not (
                isinstance(choice, dict)
                and choice.get("kind") == "take_row"
                and _is(choice.get("seat"), seat)
            ):
                raise self.fail(
                    f"card {card} of seat {seat} is lower than every row: expected a "
                    f"take_row choice of seat {seat}, found {choice!r}"
                )
            self.take()
            index = self.row_arg(choice, len(rows))
            self.scores[seat] += sum(self.heads(c) for c in rows[index])
            rows[index] = [card]
            return
        index = max(lower, key=lambda i: rows[i][-1])
        if len(rows[index]) >= CLASSIC_ROW_LIMIT:
            self.scores[seat] += sum(self.heads(c) for c in rows[index])
            rows[index] = [card]
        else:
            rows[index].append(card)

    # ----------------------------------------------------------------- board game

    def normal_row(self, tile: int) -> int:
        """RULES.md 3.2, over active rows only."""
        active = [i for i, row in enumerate(self.rows) if row.active()]
        if not active:
            raise self.fail(f"no active row for tile {tile}")
        lower = [i for i in active if self.rows[i].last_tile() < tile]
        pool = lower or active
        return max(pool, key=lambda i: self.rows[i].last_tile())

    def new_tile_arg(self, choice: dict[str, Any], seat: int) -> int:
        new = choice.get("new_tile")
        if not _is_int(new) or new not in self.hands[seat]:
            raise self.fail(
                f"{choice.get('card')} choice {choice!r}: new_tile {new!r} is not in "
                f"seat {seat}'s hand {sorted(self.hands[seat])}"
            )
        assert isinstance(new, int)
        return new

    def place_revealed(self, seat: int, tile: int, allow_action: bool) -> None:
        """Place a tile of ``seat``: optional action card, placement, luck card."""
        choice = self.peek()
        if not (
            self.pro
            and allow_action
            and isinstance(choice, dict)
            and choice.get("kind") == "action"
            and _is(choice.get("seat"), seat)
            and _is(choice.get("tile"), tile)
        ):
            self.place_normal(seat, tile, bonus=0)
            return
        self.take()
        card = choice.get("card")
        if card not in ACTION_CARDS:
            raise self.fail(f"unknown action card in {choice!r}")
        assert isinstance(card, str)
        if self.held[seat][card] <= 0:
            held = sorted(self.held[seat].elements())
            raise self.fail(
                f"seat {seat} plays action card {card!r} on tile {tile} but holds {held}"
            )
        self.held[seat][card] -= 1
        if card == "stop":
            stop = self.row_arg(choice, len(self.rows))
            if not self.rows[stop].active():
                raise self.fail(f"stop on row {stop}, which is not active")
            if self.reading == READING_1 and stop == self.normal_row(tile):
                raise self.fail(f"stop on row {stop}, the row tile {tile} goes to")
            if sum(1 for row in self.rows if row.active()) < 2:
                raise self.fail(f"stop on row {stop}, the only active row")
            self.rows[stop].stopped = True
            self.place_normal(seat, tile, bonus=0)
        elif card == "swap":
            new = self.new_tile_arg(choice, seat)
            self.hands[seat].remove(new)
            self.hands[seat].add(tile)
            self.place_normal(seat, new, bonus=0)
        elif card == "another":
            new = self.new_tile_arg(choice, seat)
            self.hands[seat].remove(new)
            if self.reading == READING_1:  # this tile, then the new one
                self.place_normal(seat, tile, bonus=0)
                self.place_revealed(seat, new, allow_action=True)
            else:
                self.place_own_tiles(seat, tile, new)
        elif card == "plus5":
            self.place_normal(seat, tile, bonus=5)
        elif card == "skip":
            index = self.normal_row(tile)
            row = self.rows[index]
            empty = row.next_empty()
            if empty + 1 > row.final:
                raise self.fail(f"skip on tile {tile}: row {index} has no second empty space")
            row.skipped.add(empty)
            self.land(seat, index, empty + 1, tile, bonus=0)
        elif card == "front":
            index = self.row_arg(choice, len(self.rows))
            row = self.rows[index]
            first = row.first_tile()
            if not (
                row.active()
                and first is not None
                and first > tile
                and not row.skipped
                and len(row.tiles) - row.tile_count() >= 2
            ):
                raise self.fail(f"front: tile {tile} cannot go in front of row {index} {row.tiles}")
            row.tiles = [tile, *row.tiles[:-1]]  # at least two empty spaces: the last is empty
        elif card in ("ascending", "anywhere"):
            index = self.row_arg(choice, len(self.rows))
            row = self.rows[index]
            if not row.active():
                raise self.fail(f"{card}: row {index} is not active")
            if card == "ascending" and row.last_tile() >= tile:
                raise self.fail(
                    f"ascending: row {index} ends in {row.last_tile()}, not lower than {tile}"
                )
            self.land(seat, index, row.next_empty(), tile, bonus=0)

    def place_own_tiles(self, seat: int, carded: int, new: int) -> None:
        """Reading 2, Another: the seat's revealed tiles are placed one after the other, lowest
        first, before anybody else's; the new one may get an action card of its own, the one
        the card was played on may not. An Another card played on a tile of this group adds
        its new tile to the group (every revealed tile of the seat goes lowest first)."""
        if self.own_tiles is not None:  # inside a group already: join it
            self.own_tiles += [(carded, True), (new, False)]
            return
        self.own_tiles = [(carded, True), (new, False)]
        try:
            while self.own_tiles:
                lowest = min(self.own_tiles)
                self.own_tiles.remove(lowest)
                tile, had_card = lowest
                if had_card:
                    self.place_normal(seat, tile, bonus=0)
                else:
                    self.place_revealed(seat, tile, allow_action=True)
        finally:
            self.own_tiles = None

    def place_normal(self, seat: int, tile: int, bonus: int) -> None:
        index = self.normal_row(tile)
        self.land(seat, index, self.rows[index].next_empty(), tile, bonus)

    def land(self, seat: int, index: int, space: int, tile: int, bonus: int) -> None:
        """Put ``tile`` on a space, apply its effect, resolve a final space, then luck."""
        row = self.rows[index]
        row.tiles[space] = tile
        delta = bonus
        marker = row.markers.get(space)
        if space == row.final:  # a Plus five card's 5 come on top (both readings)
            others = [t for t in row.tiles if t is not None and t != tile]
            if row.layout[space] == "C":
                self.hands[seat].update(others)
            else:
                delta -= sum(self.heads(t) for t in others)
            if marker == "final10":
                delta += 10
            row.clear()
            empty = [
                i for i, other in enumerate(self.rows) if i != index and not other.holds_tile()
            ]
            if not empty:
                raise self.fail(f"no empty row for tile {tile} after completing row {index}")
            self.rows[empty[0]].tiles[0] = tile
        elif bonus and self.reading == READING_2:
            pass  # Plus five, reading 2: the space counts as +5 instead of its effect or marker
        elif marker == "plus5":
            delta += 5
        else:
            kind = row.layout[space]
            if kind == "+":
                delta += self.heads(tile)
            elif kind == "-":
                delta -= self.heads(tile)
            elif kind == "D":
                if self.supply:
                    self.hands[seat].add(self.supply.pop(0))
            elif kind == "A" and self.action_deck:
                self.held[seat][self.action_deck.pop(0)] += 1
        self.scores[seat] += delta
        if self.luck and delta < 0:
            self.draw_luck(seat, tile, delta)

    def luck_spaces(self, card: str) -> list[tuple[int, int]]:
        spaces: list[tuple[int, int]] = []
        for index, row in enumerate(self.rows):
            if card == "final10":
                if row.final not in row.markers:
                    spaces.append((index, row.final))
                continue
            for space in range(1, row.final):
                if (
                    row.tiles[space] is None
                    and space not in row.markers
                    and space not in row.skipped
                ):
                    spaces.append((index, space))
        return spaces

    def draw_luck(self, seat: int, tile: int, delta: int) -> None:
        if not self.luck_deck:
            return
        card = self.luck_deck[0]
        if card not in LUCK_CARDS:
            raise self.fail(f"luck deck top {card!r} is not a luck card")
        legal = self.luck_spaces(card)
        if not legal:
            return
        choice = self.peek()
        if not (
            isinstance(choice, dict)
            and choice.get("kind") == "luck"
            and _is(choice.get("seat"), seat)
        ):
            raise self.fail(
                f"seat {seat} scored {delta} with tile {tile} and must place luck "
                f"card {card!r}; found {choice!r}"
            )
        self.take()
        if choice.get("card") != card:
            raise self.fail(f"luck choice {choice!r}: the top luck card is {card!r}")
        place = (choice.get("row"), choice.get("space"))
        if not (_is_int(place[0]) and _is_int(place[1]) and place in legal):
            raise self.fail(
                f"luck choice {choice!r}: {card} cannot go on row {place[0]!r} space {place[1]!r}"
            )
        self.luck_deck.pop(0)
        row_index, space = place
        assert isinstance(row_index, int) and isinstance(space, int)
        self.rows[row_index].markers[space] = card

    # ----------------------------------------------------------------- result

    def check_result(self) -> None:
        final = list(self.scores)
        if not self.classic:
            for seat in range(self.n):
                final[seat] -= sum(self.heads(t) for t in self.hands[seat])
        result = self.replay.get("result")
        if not isinstance(result, dict):
            raise self.fail("result is missing")
        faults = result.get("faults")
        faulted: set[int] = set()
        if not isinstance(faults, list):
            self.note(f"faults {faults!r} is not a list")
            faults = []
        for fault in faults:
            who = fault.get("seat") if isinstance(fault, dict) else None
            if not (_is_int(who) and 0 <= who < self.n):
                self.note(f"fault {fault!r} has no valid seat")
                continue
            assert isinstance(fault, dict)
            faulted.add(who)
            if fault.get("kind") not in FAULT_KINDS:
                self.note(f"fault {fault!r} has an unknown kind")
        scores = result.get("scores")
        basis: list[int] = final
        if not (_int_list(scores, self.n) and scores == final):
            self.note(f"scores are {scores!r}, expected {final}")
        if _int_list(scores, self.n):
            basis = list(scores)  # the ranks must follow the recorded scores
        ranks = competition_ranks(basis, faulted, lower_is_better=self.classic)
        if not (_int_list(result.get("ranks"), self.n) and result.get("ranks") == ranks):
            self.note(
                f"ranks are {result.get('ranks')!r}, expected {ranks} for scores {basis}"
                + (f" and faulted seats {sorted(faulted)}" if faulted else "")
            )


def check_replay(replay: dict[str, Any]) -> list[str]:
    """Re-simulate ``replay`` under RULES.md; return the mismatches found (empty: it agrees)."""
    game = _Game(replay)
    try:
        game.run()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        game.note(f"malformed replay ({type(error).__name__}: {error})")
    return game.problems


def load_replay(path: Path) -> Any:
    """Read a replay from ``.json`` or gzip-compressed ``.json.gz``."""
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data.decode("utf-8"))


def main(argv: Sequence[str]) -> int:
    if not argv:
        print("usage: python tests/independent_referee.py FILE...", file=sys.stderr)
        return 2
    status = 0
    for name in argv:
        try:
            replay = load_replay(Path(name))
        except (OSError, ValueError) as error:
            print(f"{name}: cannot read ({error})")
            status = 1
            continue
        problems = check_replay(replay)
        if not problems:
            print(f"{name}: OK")
            continue
        status = 1
        print(f"{name}: {len(problems)} mismatch(es)")
        for problem in problems:
            print(f"  - {problem}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
