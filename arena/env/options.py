"""The learning bots' option inputs for many card-game seats at once, read from their vectors.

:func:`read_options` computes what :func:`arena.bots.options.option_inputs` computes, number for
number, for a batch of seats: from each seat's observation vector (:mod:`arena.env.features`)
and action mask, as :class:`~arena.env.SeatVectorEnv` and :class:`~arena.env.VectorEnv` give
them, the 78 inputs of every legal option. The vector holds all they need (the hand, the tiles
revealed and still to place, the rows, the scores), so a learner trains on the inputs its bot
will compute from its view, in numpy, without a view per decision. The bot itself keeps the
plain-Python function (the arena's sandbox has no numpy).

The card game only (``classic``, any table size): its decisions are a tile of the hand or a row
to take. A batch's options come in the order of their actions (a hand's tiles from the lowest,
rows from the topmost), padded to :data:`MAX_OPTIONS`.

>>> from arena.bots.options import Table, option_inputs
>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> from arena.env.encoding import action_mask, encode
>>> view = observe(Game.new("classic", players=4, seed=1), seat=0)
>>> options = read_options(encode(view)[None], action_mask(view.legal)[None])
>>> options.inputs.shape, int(options.counts[0]), options.actions[0, :3].tolist()
((1, 10, 78), 10, [5, 6, 20])
>>> table = Table(view)
>>> all(options.inputs[0, k].tolist() == option_inputs(table, d) for k, d in enumerate(view.legal))
True
"""

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from arena.bots.options import INPUT_SIZE, OPTION_SIZE, completion_chances
from arena.engine.readings import CURRENT
from arena.engine.variants import CLASSIC_ROW_LENGTH, VARIANT_NAMES, variant

from .actions import ACTION_COUNT, CLASSIC_ROWS, ROWS, SPACES, TILES, WAIT
from .actions import BLOCKS as ACTION_BLOCKS
from .features import BLOCKS, OBSERVATION_SIZE, SCORE_SCALE, SEATS, SPACE_KINDS

__all__ = ["MAX_OPTIONS", "Options", "read_options"]

_CLASSIC = variant("classic")
_CLASSIC_INDEX = VARIANT_NAMES.index("classic")
#: The most legal options a card-game decision has (a full hand, or every row).
MAX_OPTIONS = max(_CLASSIC.hand_size, CLASSIC_ROWS)

_BULLHEADS = np.array(CURRENT.bullheads(_CLASSIC), np.int64)  # by tile; 0 for no tile
_TILE = ACTION_BLOCKS["tile"]
_TAKE_ROW = ACTION_BLOCKS["take_row"]
_SPACE_FEATURES = len(BLOCKS["spaces"]) // (ROWS * SPACES)
_SEAT_FEATURES = len(BLOCKS["seats"]) // SEATS
#: The decision block's entries: nothing, tile, luck, action, take_row.
_ASKED_TILE, _ASKED_ROW = 1, 4
#: A row takes this many tiles; the next one is its last space.
_LENGTH = CLASSIC_ROW_LENGTH + 1
# where the parts of an option's inputs start (arena.bots.options.option_inputs): the state,
# then the option's kind, its action card, the tile and its landing, a second landing, extras
_STATE = INPUT_SIZE - OPTION_SIZE
_EXTRA = INPUT_SIZE - 6
_MAIN = _EXTRA - 19 - 24
_SPACE_KIND = {kind: i for i, kind in enumerate(SPACE_KINDS)}


@dataclass(frozen=True)
class Options:
    """The legal options of ``n`` seats' decisions: their inputs ``(n, MAX_OPTIONS,
    INPUT_SIZE)`` (float64, 0 past a seat's count), their actions ``(n, MAX_OPTIONS)`` (-1
    past the count), how many each seat has ``(n,)`` (0: nothing asked of it), and each seat's
    margin ``(n,)``: its penalty points less the mean of the others' (``Table.margin``)."""

    inputs: npt.NDArray[np.float64]
    actions: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]
    margin: npt.NDArray[np.float64]


@cache
def _chances(opponents: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """:func:`~arena.bots.options.completion_chances` for every ``(ahead, unseen, left)``."""
    mine = np.zeros((TILES + 1, TILES + 1, _LENGTH))
    other = np.zeros_like(mine)
    for unseen in range(TILES + 1):
        for ahead in range(unseen + 1):  # the tiles ahead are unseen ones
            for left in range(_LENGTH):
                mine[ahead, unseen, left], other[ahead, unseen, left] = completion_chances(
                    opponents, ahead, unseen, left
                )
    return mine, other


def _tiles(obs: npt.NDArray[np.float32], block: str) -> npt.NDArray[np.bool_]:
    """A tile block of the vectors as ``(n, TILES)`` flags (tile ``t`` at ``t - 1``)."""
    flags: npt.NDArray[np.bool_] = obs[:, BLOCKS[block]] > 0.5
    return flags


def _upto(flags: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """``(n, TILES + 1)``: how many of the flagged tiles are at most ``t`` (column ``t``)."""
    upto = np.zeros((len(flags), TILES + 1), np.int64)
    np.cumsum(flags, axis=1, out=upto[:, 1:])
    return upto


def _legal(masks: npt.NDArray[np.int8]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each mask's legal actions in order, padded with -1, and how many there are."""
    legal = masks != 0
    legal[:, WAIT] = False
    outside = legal.copy()
    outside[:, _TILE.start : _TILE.stop] = False
    outside[:, _TAKE_ROW.start : _TAKE_ROW.stop] = False
    if outside.any():
        raise ValueError("masks: only the card game's decisions (a tile, a row to take)")
    counts = legal.sum(axis=1).astype(np.int64)
    if len(counts) and counts.max() > MAX_OPTIONS:
        raise ValueError(f"masks: at most {MAX_OPTIONS} legal options, not {counts.max()}")
    which, action = np.nonzero(legal)
    first = np.repeat(np.cumsum(counts) - counts, counts)
    actions = np.full((len(masks), MAX_OPTIONS), -1, np.int64)
    actions[which, np.arange(len(action)) - first] = action
    return actions, counts


def read_options(observations: npt.ArrayLike, masks: npt.ArrayLike) -> Options:
    """The option inputs of ``n`` card-game seats from their vectors ``(n, OBSERVATION_SIZE)``
    and action masks ``(n, ACTION_COUNT)`` (see the module docstring); a ``ValueError`` for
    another variant's vector or a mask with other decisions."""
    obs = np.asarray(observations, np.float32)
    mask = np.asarray(masks)
    n = len(obs)
    if obs.shape != (n, OBSERVATION_SIZE) or mask.shape != (n, ACTION_COUNT):
        raise ValueError(
            f"observations (n, {OBSERVATION_SIZE}) and masks (n, {ACTION_COUNT}), "
            f"not {obs.shape} and {mask.shape}"
        )
    if not (obs[:, BLOCKS["variant"].start + _CLASSIC_INDEX] == 1).all():
        raise ValueError("observations: the card game's (classic) only")
    actions, counts = _legal(mask)
    valid = actions >= 0
    rows = np.arange(n)[:, None]

    # the rows: tiles, how many each has, the last one, the bullheads on it
    spaces = obs[:, BLOCKS["spaces"]].reshape(n, ROWS, SPACES, _SPACE_FEATURES)
    spaces = spaces[:, :CLASSIC_ROWS, :CLASSIC_ROW_LENGTH]
    filled = spaces[..., 2] > 0.5
    row_tiles = np.where(filled, np.rint(spaces[..., 1] * TILES).astype(np.int64), 0)
    fill = filled.sum(axis=2)  # a card-game row fills from its first space
    last = np.take_along_axis(row_tiles, np.maximum(fill - 1, 0)[..., None], 2)[..., 0]
    heads = _BULLHEADS[row_tiles].sum(axis=2)
    least = heads.min(axis=1)

    # the tiles: own hand, and those the seat has not seen (Table.unseen)
    hand = _tiles(obs, "hand")
    seen = hand | _tiles(obs, "revealed") | _tiles(obs, "to place")
    at, row, space = np.nonzero(row_tiles)
    seen[at, row_tiles[at, row, space] - 1] = True
    unseen_upto = _upto(~seen)
    unseen = unseen_upto[:, -1]
    hand_upto = _upto(hand)
    held = hand_upto[:, -1]

    # the seats (relative: the first is the seat itself)
    seats = obs[:, BLOCKS["seats"]].reshape(n, SEATS, _SEAT_FEATURES)
    present = seats[..., 0] > 0.5
    scores = np.where(present, np.rint(seats[..., 1] * SCORE_SCALE).astype(np.int64), 0)
    players = present.sum(axis=1)
    opponents = players - 1
    margin = scores[:, 0] - scores[:, 1:].sum(axis=1) / opponents
    sign = 1 if _CLASSIC.higher_is_better else -1

    decision = obs[:, BLOCKS["decision"]].astype(np.float64)
    counters = obs[:, BLOCKS["counters"]]
    state = np.concatenate(
        [
            obs[:, BLOCKS["variant"]].astype(np.float64),
            decision[:, _ASKED_TILE:],  # tile, luck, action, take_row
            np.stack(
                [
                    players / 10,
                    held / 12,
                    unseen / 100,
                    sign * margin / 30,
                    (counters[:, 1] == 1).astype(np.float64),  # the second set
                    least / 20,
                ],
                axis=1,
            ),
        ],
        axis=1,
    )
    inputs = np.zeros((n, MAX_OPTIONS, INPUT_SIZE))
    inputs[:, :, :_STATE] = np.where(valid[..., None], state[:, None, :], 0.0)
    is_tile = valid & (actions >= _TILE.start) & (actions < _TILE.stop)
    is_row = valid & (actions >= _TAKE_ROW.start) & (actions < _TAKE_ROW.stop)
    inputs[..., _STATE] = is_tile
    inputs[..., _STATE + 3] = is_row

    # a tile: itself, then where it lands by the normal rule (Table.tile, Table.landing)
    tile = np.where(is_tile, actions - _TILE.start + 1, 1)
    rank = hand_upto[rows, tile - 1]  # own tiles below it
    span = np.maximum(1, held - 1)[:, None]
    main = inputs[..., _MAIN : _MAIN + 24]
    main[..., 0] = tile / 100
    main[..., 1] = _BULLHEADS[tile] / 7
    main[..., 2] = rank / span
    main[..., 3] = rank == 0
    main[..., 4] = rank == held[:, None] - 1
    below = (fill[:, None, :] > 0) & (last[:, None, :] < tile[..., None])
    target = np.where(below, last[:, None, :], -1).argmax(axis=2)  # the highest end below
    lands = below.any(axis=2)
    end = last[rows, target]
    on = heads[rows, target]
    space_at = np.minimum(fill[rows, target], _LENGTH - 1)
    left = _LENGTH - 1 - space_at
    ahead = np.where(tile > end, unseen_upto[rows, tile - 1] - unseen_upto[rows, end], 0)
    crowd = ahead * opponents[:, None] / np.maximum(1, unseen)[:, None]
    mine = np.zeros(tile.shape)
    other = np.zeros(tile.shape)
    for count in np.unique(opponents):
        these = opponents == count
        mine_of, other_of = _chances(int(count))
        at_ahead, at_unseen = ahead[these], np.broadcast_to(unseen[these, None], ahead[these].shape)
        mine[these] = mine_of[at_ahead, at_unseen, left[these]]
        other[these] = other_of[at_ahead, at_unseen, left[these]]
    landing = np.zeros((*tile.shape, 19))
    landing[..., _SPACE_KIND["."]] = space_at < _LENGTH - 1
    landing[..., _SPACE_KIND["F"]] = space_at >= _LENGTH - 1
    # 7, 8: a luck marker (the board game's)
    landing[..., 9] = on / 20
    landing[..., 10] = left / 8
    landing[..., 11] = np.where(tile > end, (tile - end) / 100, 0.0)
    landing[..., 12] = ahead / 10
    landing[..., 13] = np.minimum(crowd, 3.0) / 3
    landing[..., 14] = crowd >= left
    landing[..., 15] = mine
    landing[..., 16] = other
    landing[..., 17] = mine * on / 20
    landing[~lands] = 0.0
    landing[..., 18] = ~lands  # lower than every row: the card game's row to take
    main[..., 5:] = landing
    main[~is_tile] = 0.0

    # a row to take (option_inputs' TakeRow)
    taken = np.where(is_row, actions - _TAKE_ROW.start, 0)
    row_heads = heads[rows, taken]
    extra = inputs[..., _EXTRA:]
    extra[..., 0] = row_heads / 20
    extra[..., 1] = (row_heads - least[:, None]) / 20
    extra[..., 2] = row_heads == least[:, None]
    extra[..., 3] = fill[rows, taken] / 5
    extra[..., 4] = last[rows, taken] / 100
    extra[~is_row] = 0.0
    return Options(inputs, actions, counts, margin)
