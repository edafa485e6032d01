"""Types of the compiled playout core (``_playout_core.c``), which the lean path calls."""

from collections.abc import Sequence
from random import Random

def usable() -> bool: ...
def basic_board(
    fast_kind: Sequence[int], inc: Sequence[int], bh: Sequence[int], stride: int, shift: int, /
) -> object: ...
def tile_playouts(
    rng: Random,
    board: object,
    ends: Sequence[int],
    state: Sequence[int],
    rows: Sequence[int],
    empty: int,
    scores: Sequence[int],
    hands: Sequence[Sequence[int]],
    chosen: Sequence[int | None],
    second: Sequence[Sequence[int]] | None,
    seat: int,
    tiles: Sequence[int] | None,
    turns: int,
    left: int,
    repeat: int,
    /,
) -> list[list[int]]: ...
def row_playouts(
    rng: Random,
    ends: Sequence[int],
    state: Sequence[int],
    rows: Sequence[int],
    scores: Sequence[int],
    head: Sequence[int],
    hands: Sequence[Sequence[int]],
    turns: int,
    left: int,
    picks: Sequence[int] | None,
    repeat: int,
    /,
) -> list[list[int]]: ...
def rule_playouts(
    rng: Random,
    rows: Sequence[Sequence[int]],
    hands: Sequence[Sequence[int]],
    chosen: Sequence[int | None],
    scores: Sequence[int],
    seat: int,
    tiles: Sequence[int],
    explore: float,
    /,
) -> list[list[int]]: ...
def general_board(
    kinds: Sequence[Sequence[int]], claim: Sequence[int], middle: Sequence[int], /
) -> object: ...
def general_playouts(
    rng: Random,
    board: object,
    state: tuple[object, ...],
    seat: int,
    decisions: Sequence[tuple[int, int, int, int]] | None,
    turns: int,
    repeat: int,
    rule: float = -1.0,
    /,
) -> list[list[float]]: ...
def deal_plan(
    hidden: Sequence[int],
    gone: Sequence[int],
    box_known: Sequence[int],
    box_size: int,
    supply_size: int,
    seat: int,
    need: Sequence[int],
    returned: Sequence[Sequence[int]],
    chose: Sequence[int],
    hand: Sequence[int],
    chosen: int | None,
    own_cards: Sequence[str],
    luck_pool: list[str],
    luck_size: int,
    action_pool: list[str],
    action_counts: Sequence[int],
    deck_size: int,
    /,
) -> object: ...
def deal(
    rng: Random, plan: object, /
) -> tuple[
    list[list[int]],
    list[int | None],
    list[list[str]],
    list[int],
    list[str],
    list[str],
    list[int],
]: ...
def draw_by_weight(
    rng: Random,
    hands: list[list[int]],
    chosen: list[int | None],
    seats: Sequence[int],
    weight: list[float],
    /,
) -> None: ...
