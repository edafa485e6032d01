"""The ``heuristic`` house bot: a one-move rule for every decision of every variant.

It reads only the :class:`~arena.engine.observation.Observation` and judges each option by what
it is worth to itself in points (board game: points gained; card game: penalty avoided).

**Choosing a tile.** The other tiles of this turn are unknown. For each tile in hand the bot
finds the row it would go to on the current board and counts the *unseen* tiles (not in its
hand, on the board or in the history) that would go to the same row before it. Each opponent
plays one tile, so the number ``k`` of tiles that land there first is taken as
``Binomial(opponents, unseen_in_between / unseen)``. For each ``k`` the tile lands ``k`` spaces
further on and is valued by the space's effect (``+``/``-`` bullheads, a Plus five marker,
``D``/``A`` spaces), by the loss of completing the row (its bullheads, less a +10 marker; a
``C`` space counts only part of it), or as 0 when somebody else's tile completes the row first.
Leaving a row one space from completion costs a share of that row's bullheads (the next tile
there takes them, and it may be ours). Card game: the sixth card takes the row, a card lower
than every row takes the cheapest row. Professional: unplayed tiles cost their bullheads at the
end, so as hands run low, getting rid of bullheads counts too. The best expected value wins.

**Placing a luck card.** Each free space is tried: the revealed tiles still to be placed this
turn are placed (they are public), then the bot's best tile choice for the next turn is valued
on the resulting board. Markers that help nobody now go to a row the bot's hand aims at, as far
from being filled as possible, so that opponents are less likely to collect them first.

**Playing an action card.** The bot's tile is about to be placed, so every option is evaluated
exactly: the tile's own landing, then the rest of the turn's revealed tiles (opponents' gains
count against it). A card is played only when it gains more than it is worth to keep; Plus five
is kept for a landing that loses points, or spent on the last tiles so it is not wasted.

**Card game, taking a row:** the row with the fewest bullheads.

**Readings.** The bot's model of the rules follows the reading the game is played under
(``view.rules``, RULES.md 10): its bullhead table, the order of an Another card's two tiles and
what a Plus five card is worth; the rows a Stop card may close come with the legal options.

Options (``heuristic:near=0.5,keep=2``) override the :class:`Weights`.

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> game = Game.new("basic", players=4, seed=3)
>>> view = observe(game, 0)
>>> HeuristicBot().decide(view) in view.legal
True
"""

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from math import comb

from arena.engine.decisions import (
    Decision,
    DecisionKind,
    PlaceLuck,
    PlayAction,
    PlayTile,
    TakeRow,
)
from arena.engine.game import SKIPPED, landing_row, next_space, put_first, target_row
from arena.engine.observation import Observation
from arena.engine.readings import CURRENT, Reading, reading
from arena.engine.variants import variant as get_variant

from .base import Bot, GameInfo


@dataclass(frozen=True)
class Weights:
    """The few numbers behind the rule (points, or fractions of points)."""

    near: float = 0.5  # leaving a row one space from completion: this share of its bullheads,
    #                    divided by the number of players (the next tile there may be anyone's)
    luck: float = 0.5  # a loss draws a luck card (luck variants): what placing one is worth
    draw: float = -0.5  # a D space: one more tile to play or to pay for at the end
    action: float = 2.0  # an A space: one action card
    claim: float = 0.5  # a C space: this share of the claimed tiles' bullheads counts as a loss
    keep: float = 1.0  # an action card kept for later (not counted once hands run out)
    opponents: float = 0.25  # opponents' points, spread over them, against ours

    @classmethod
    def parse(cls, options: str) -> "Weights":
        """``"near=0.5,keep=2"`` -> weights; unknown names or bad numbers raise ValueError.

        >>> Weights.parse("near=0.5").near
        0.5
        """
        weights = cls()
        known = {f.name for f in fields(cls)}
        for item in filter(None, (part.strip() for part in options.split(","))):
            key, sep, value = item.partition("=")
            if not sep or key not in known:
                raise ValueError(
                    f"bad heuristic option {item!r}; expected NAME=NUMBER with NAME one of "
                    f"{', '.join(sorted(known))}"
                )
            try:
                weights = replace(weights, **{key: float(value)})
            except ValueError:
                raise ValueError(f"heuristic option {key} needs a number, got {value!r}") from None
        return weights


class _Board:
    """A mutable copy of the board in an observation, with the placement rule (RULES.md 3)
    under the game's reading of the rules (``rules``; ``bh``: its bullhead table)."""

    def __init__(
        self,
        layout: tuple[str, ...],
        spaces: Iterable[Iterable[int]],
        markers: Iterable[Iterable[str | None]],
        stops: Iterable[int],
        rules: Reading = CURRENT,
        bh: tuple[int, ...] | None = None,
    ) -> None:
        self.layout = layout
        self.spaces = [list(row) for row in spaces]
        self.markers = [list(row) for row in markers]
        self.stops = set(stops)
        self.rules = rules
        self.bh = rules.board_bullheads if bh is None else bh

    @classmethod
    def of(cls, view: Observation) -> "_Board":
        rules = reading(view.rules)
        bh = rules.bullheads(get_variant(view.variant))
        return cls(view.layout, view.spaces, view.markers, view.stops, rules, bh)

    def copy(self) -> "_Board":
        return _Board(self.layout, self.spaces, self.markers, self.stops, self.rules, self.bh)

    @property
    def classic(self) -> bool:
        return not self.layout

    def fill(self, row: int) -> int:
        """Index of the row's next empty space (a skipped space counts as filled)."""
        return next_space(self.spaces[row])

    def last(self, row: int) -> int:
        f = self.fill(row)
        return self.spaces[row][f - 1] if f else 0

    def bullheads(self, row: int) -> int:
        return sum(self.bh[t] for t in self.spaces[row] if t > 0)

    def target(self, tile: int) -> int | None:
        """The row ``tile`` goes to; ``None`` in the card game when it is below every row."""
        return self.targets([tile])[tile]

    def targets(self, tiles: Iterable[int]) -> dict[int, int | None]:
        """:meth:`target` of each tile (the engine's rule), reading the row ends once."""
        spaces, stops, classic = self.spaces, self.stops, self.classic
        fill = [self.fill(r) for r in range(len(spaces))]
        return {tile: target_row(tile, spaces, fill, stops, classic) for tile in tiles}


@dataclass(frozen=True)
class _Context:
    """What the values depend on besides the board, fixed for one decision."""

    weights: Weights
    players: int
    luck_left: bool  # a loss still draws a luck card
    actions_left: bool  # an A space still draws an action card
    end_weight: float  # professional: how much a tile's bullheads in hand are feared


def _space_value(board: _Board, ctx: _Context, row: int, space: int, tile: int) -> float:
    """What landing ``tile`` on a non-final space is worth to its player."""
    if board.markers[row][space] == "plus5":
        return 5.0
    kind = board.layout[row][space]
    if kind == "+":
        return float(board.bh[tile])
    if kind == "-":
        return -float(board.bh[tile]) + (ctx.weights.luck if ctx.luck_left else 0.0)
    if kind == "D":
        return ctx.weights.draw
    if kind == "A":
        return ctx.weights.action if ctx.actions_left else 0.0
    return 0.0


def _completion_value(board: _Board, ctx: _Context, row: int, taken: float) -> float:
    """What filling the final space of ``row`` is worth when the other tiles carry ``taken``."""
    bonus = 10.0 if board.markers[row][-1] == "final10" else 0.0
    if board.layout[row][-1] == "C":
        return bonus - ctx.weights.claim * taken
    value = bonus - taken
    return value + (ctx.weights.luck if value < 0 and ctx.luck_left else 0.0)


def _land(board: _Board, ctx: _Context, tile: int, row: int, space: int) -> float:
    """Put ``tile`` on ``space`` of ``row`` (clearing a completed row), return its value."""
    spaces = board.spaces[row]
    if space < len(spaces) - 1:
        spaces[space] = tile
        return _space_value(board, ctx, row, space, tile)
    value = _completion_value(board, ctx, row, board.bullheads(row))
    board.spaces[row] = [0] * len(spaces)
    board.markers[row] = [None] * len(spaces)
    board.stops.discard(row)
    dest = landing_row([board.fill(r) for r in range(len(board.spaces))], row)
    board.spaces[dest][0] = tile
    return value


def _place(board: _Board, ctx: _Context, tile: int) -> float:
    """Place ``tile`` by the normal rule (board game), return its value to its player."""
    row = board.target(tile)
    assert row is not None
    return _land(board, ctx, tile, row, board.fill(row))


def _place_plus5(board: _Board, ctx: _Context, tile: int) -> float:
    """Place ``tile`` with a Plus five card (RULES.md 5): reading 2, the landing space is worth
    5 instead of what it does, a final space still completes its row; reading 1, 5 on top."""
    row = board.target(tile)
    assert row is not None
    space = board.fill(row)
    if board.rules.plus5_replaces and space < len(board.spaces[row]) - 1:
        board.spaces[row][space] = tile
        return 5.0
    return _land(board, ctx, tile, row, space) + 5.0


def _binomial(n: int, p: float) -> list[float]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _expected_value(
    board: _Board,
    ctx: _Context,
    tile: int,
    row: int | None,
    before: list[int],
    unseen: int,
    opponents: int,
) -> float:
    """The expected value of choosing ``tile`` now, the other tiles of the turn being unknown.

    ``row``: where the tile goes on the current board; ``before``: the unseen tiles that would
    go there before it, out of ``unseen`` unseen tiles; ``opponents``: tiles still to come.
    """
    w = ctx.weights
    if row is None:  # card game, lower than every row: take the cheapest
        return -float(min(board.bullheads(r) for r in range(len(board.spaces))))
    bh = board.bh
    p = len(before) / unseen if unseen else 0.0
    per_tile = sum(bh[u] for u in before) / len(before) if before else 0.0
    fill, size, held = board.fill(row), len(board.spaces[row]), board.bullheads(row)
    near_share = w.near / ctx.players
    total = 0.0
    for k, pk in enumerate(_binomial(opponents, p)):
        if pk == 0.0:
            continue
        taken = held + k * per_tile
        if board.classic:
            cards_before = fill + k
            if cards_before == size:  # the sixth card takes the row
                value = -taken
            elif cards_before == size - 1:
                value = -near_share * (taken + bh[tile])
            else:  # fewer cards, or somebody else took the row first
                value = 0.0
        else:
            space = fill + k
            if space < size - 1:
                value = _space_value(board, ctx, row, space, tile)
                if space == size - 2:
                    value -= near_share * (taken + bh[tile])
            elif space == size - 1:
                value = _completion_value(board, ctx, row, taken)
            else:  # another tile completed the row; ours starts again on a plain space
                value = 0.0
        total += pk * value
    return total + ctx.end_weight * bh[tile]


class HeuristicBot(Bot):
    """The one-move rule described in the module docstring; deterministic."""

    name = "heuristic"

    def __init__(self, options: str = "") -> None:
        self.weights = Weights.parse(options)
        self._seen: set[int] = set()  # tiles seen on the board in this game

    def start_game(self, info: GameInfo) -> None:
        self._seen = set()

    def decide(self, view: Observation) -> Decision:
        pending = view.pending
        if pending is None or not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to decide")
        board = _Board.of(view)
        self._seen.update(t for row in view.spaces for t in row if t > 0)
        ctx = self._context(view)
        if pending.kind is DecisionKind.TILE:
            return self._choose_tile(view, board, ctx)
        if pending.kind is DecisionKind.TAKE_ROW:
            return min(
                (d for d in view.legal if isinstance(d, TakeRow)),
                key=lambda d: (board.bullheads(d.row), d.row),
            )
        if pending.kind is DecisionKind.LUCK:
            return self._place_luck(view, board, ctx, pending.card or "")
        assert pending.tile is not None
        return self._play_action(view, board, ctx, pending.tile)

    # ------------------------------------------------------------------ parts of the rule

    def _context(self, view: Observation) -> _Context:
        end_weight = 0.0
        if get_variant(view.variant).actions:
            # Professional: the first empty hand ends the game and tiles left in hand cost.
            end_weight = 1.0 / max(1, min(view.hand_sizes))
        return _Context(
            weights=self.weights,
            players=view.players,
            luck_left=view.luck_deck_size > 0,
            actions_left=view.action_deck_size > 0,
            end_weight=end_weight,
        )

    def _unseen(self, view: Observation) -> list[int]:
        """Tiles that could be in an opponent's hand: not ours, not seen on board or played."""
        seen = self._seen | set(view.hand)
        seen.update(t for turn in view.history for t in turn if t is not None)
        seen.update(t for row in view.spaces for t in row if t > 0)
        return [t for t in range(1, get_variant(view.variant).tiles + 1) if t not in seen]

    def _tile_values(
        self, view: Observation, board: _Board, ctx: _Context, unseen: list[int]
    ) -> dict[int, float]:
        """The expected value of each tile in hand (see :func:`_expected_value`)."""
        hand = view.hand
        targets = board.targets([*unseen, *hand])
        by_row: dict[int | None, list[int]] = {}
        for u in unseen:  # ascending, so each row's list is sorted
            by_row.setdefault(targets[u], []).append(u)
        opponents = sum(1 for s, n in enumerate(view.hand_sizes) if s != view.seat and n > 0)
        values = {}
        for t in hand:
            row = targets[t]
            rivals = by_row.get(row, []) if row is not None else []
            before = rivals[: bisect_left(rivals, t)]
            values[t] = _expected_value(board, ctx, t, row, before, len(unseen), opponents)
        return values

    def _choose_tile(self, view: Observation, board: _Board, ctx: _Context) -> Decision:
        values = self._tile_values(view, board, ctx, self._unseen(view))
        best = max(view.hand, key=lambda t: (values[t], -t))
        return PlayTile(best)

    def _finish_turn(self, view: Observation, board: _Board, ctx: _Context) -> tuple[float, float]:
        """Place the revealed tiles still waiting; our value and the opponents' total."""
        ours = theirs = 0.0
        for tile, seat in view.to_place:
            value = _place(board, ctx, tile)
            if seat == view.seat:
                ours += value
            else:
                theirs += value
        return ours, theirs

    def _opponent_weight(self, view: Observation) -> float:
        return self.weights.opponents / max(1, view.players - 1)

    def _place_luck(self, view: Observation, board: _Board, ctx: _Context, card: str) -> Decision:
        hand_rows = {board.target(t) for t in view.hand}
        unseen = self._unseen(view)

        def score(d: PlaceLuck) -> tuple[float, bool, int, int, int]:
            trial = board.copy()
            trial.markers[d.row][d.space] = card
            ours, theirs = self._finish_turn(view, trial, ctx)
            values = self._tile_values(view, trial, ctx, unseen)
            prospects = max(values.values()) if values else 0.0
            value = ours + prospects - self._opponent_weight(view) * theirs
            distance = d.space - board.fill(d.row)
            return (round(value, 9), d.row in hand_rows, distance, -d.row, -d.space)

        return max((d for d in view.legal if isinstance(d, PlaceLuck)), key=score)

    def _play_action(self, view: Observation, board: _Board, ctx: _Context, tile: int) -> Decision:
        w = self.weights
        endgame = min(view.hand_sizes) <= 1
        declined = self._action_outcome(view, board, ctx, tile, PlayAction(None))
        best: Decision = PlayAction(None)
        best_score = declined[0] - self._opponent_weight(view) * declined[1]
        for option in view.legal:
            if not isinstance(option, PlayAction) or option.card is None:
                continue
            if option.card == "plus5" and declined[0] >= 0 and not endgame:
                continue  # kept for a landing that loses points
            ours, theirs = self._action_outcome(view, board, ctx, tile, option)
            keep = 0.0 if endgame or option.card == "plus5" else w.keep
            score = ours - self._opponent_weight(view) * theirs - keep
            if score > best_score + 1e-9:
                best, best_score = option, score
        return best

    def _action_outcome(
        self, view: Observation, board: _Board, ctx: _Context, tile: int, option: PlayAction
    ) -> tuple[float, float]:
        """Our value and the opponents' total for the rest of this turn after ``option``."""
        trial = board.copy()
        card, row = option.card, option.row
        ours = 0.0
        if card is None:
            ours = _place(trial, ctx, tile)
        elif card == "plus5":
            ours = _place_plus5(trial, ctx, tile)
        elif card == "stop":
            assert row is not None
            trial.stops.add(row)
            ours = _place(trial, ctx, tile)
        elif card == "swap":
            assert option.new_tile is not None
            ours = _place(trial, ctx, option.new_tile)
        elif card == "another":
            assert option.new_tile is not None
            first, second = tile, option.new_tile
            if trial.rules.another_lowest_first:
                first, second = sorted((first, second))
            ours = _place(trial, ctx, first) + _place(trial, ctx, second)
            ours += ctx.end_weight * trial.bh[option.new_tile]
        elif card == "skip":
            target = trial.target(tile)
            assert target is not None
            fill = trial.fill(target)
            trial.spaces[target][fill] = SKIPPED
            ours = _land(trial, ctx, tile, target, fill + 1)
        elif card == "front":
            assert row is not None
            put_first(trial.spaces[row], trial.fill(row), tile)
        else:  # ascending, anywhere
            assert row is not None
            ours = _land(trial, ctx, tile, row, trial.fill(row))
        rest_ours, theirs = self._finish_turn(view, trial, ctx)
        return ours + rest_ours, theirs
