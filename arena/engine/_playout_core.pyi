"""Types of the compiled core (``_playout_core.c``), which :mod:`arena.engine.playout` calls.

``rng``: an int seed, or a generator with ``getrandbits`` (one 64-bit draw seeds the call)."""

from collections.abc import Sequence
from random import Random
from typing import Any

Rng = Random | int
Record = list[dict[str, Any]] | None

def basic_board(
    fast_kind: Sequence[int], inc: Sequence[int], bh: Sequence[int], stride: int, shift: int, /
) -> object: ...
def tile_playouts(
    rng: Rng,
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
    record: Record = None,
    /,
) -> list[list[int]]: ...
def row_playouts(
    rng: Rng,
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
    record: Record = None,
    /,
) -> list[list[int]]: ...
def deal_orders(rng: Rng, sizes: Sequence[int], /) -> tuple[list[list[int]], int]: ...
def random_games(
    board: object,
    players: int,
    tiles: int,
    hand_size: int,
    second: bool,
    rng: Rng,
    count: int,
    record: Record = None,
    /,
) -> list[list[int]]: ...
def rule_playouts(
    rng: Rng,
    policy: object,
    rows: Sequence[Sequence[int]],
    hands: Sequence[Sequence[int]],
    chosen: Sequence[int | None],
    scores: Sequence[int],
    seat: int,
    tiles: Sequence[int],
    explore: float,
    record: Record = None,
    /,
) -> list[list[int]]: ...
def general_board(
    kinds: Sequence[Sequence[int]], claim: Sequence[int], middle: Sequence[int], /
) -> object: ...
def general_playouts(
    rng: Rng,
    board: object,
    state: tuple[object, ...],
    seat: int,
    decisions: Sequence[tuple[int, int, int, int]] | None,
    turns: int,
    repeat: int,
    policy: object = None,
    explore: float = 0.0,
    record: Record = None,
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
    rng: Rng, plan: object, /
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
    rng: Rng,
    hands: list[list[int]],
    chosen: list[int | None],
    seats: Sequence[int],
    weight: list[float],
    /,
) -> None: ...

# The card game's tables of the environments (arena/env/core.py): buffers of ClassicTable.
def classic_table_size() -> int: ...
def classic_deal(tables: Any, players: int, seeds: Any, which: Any, /) -> None: ...
def classic_step(
    tables: Any, actions: Any, rewards: Any, illegal: Any, take_row: int, strict: bool = False, /
) -> None: ...
def classic_observe(
    tables: Any,
    blocks: Sequence[int],
    template: Any,
    seat: int,
    obs: Any,
    mask: Any,
    which: Any = None,
    primed: bool = False,
    shown: Any = None,
    /,
) -> None: ...
def classic_status(tables: Any, phase: Any, asked: Any, scores: Any = None, /) -> None: ...
def classic_view(tables: Any, index: int, /) -> dict[str, Any]: ...
def classic_asked(tables: Any, index: int, /) -> tuple[int, ...]: ...

# The board game's tables of the environments (arena/env/core.py): buffers of BoardTable, stepped
# under the rules of a board_rules capsule.
def board_rules(
    board: object,
    bh: Sequence[int],
    luck: Sequence[int],
    actions: Sequence[int],
    numbers: Sequence[int],
    vector: Sequence[int],
    action_space: Sequence[int],
    /,
) -> object: ...
def board_table_size() -> int: ...
def board_deal(tables: Any, rules: object, players: int, seeds: Any, which: Any, /) -> None: ...
def board_step(
    tables: Any, rules: object, actions: Any, rewards: Any, illegal: Any, strict: bool = False, /
) -> None: ...
def board_observe(
    tables: Any,
    rules: object,
    template: Any,
    seat: int,
    obs: Any,
    mask: Any,
    which: Any = None,
    /,
) -> None: ...
def board_status(
    tables: Any, rules: object, phase: Any, asked: Any, scores: Any = None, /
) -> None: ...
def board_asked(tables: Any, rules: object, index: int, /) -> tuple[int, ...]: ...
def board_view(tables: Any, rules: object, index: int, /) -> dict[str, Any]: ...
