"""Who plays whom: the games of round robin, duplicate and Swiss tournaments (pure functions).

Entrants are numbered ``0..n-1``. A :class:`PlannedGame` is one game: the entrants in seat
order and its *deal*, a number that fixes the cards dealt (games with the same deal number get
the same deal). A game of ``players`` bots is a *table*.

- **Round robin**: every table of ``players`` entrants (every combination) plays ``games``
  games; seats rotate from one game to the next, each game has its own deal.
- **Duplicate**: every table plays ``games`` deals, each deal once per seat rotation, so that
  every entrant of the table sits once in every seat of every deal; the luck of the deal then
  cancels out of the comparison between them.
- **Swiss**: round by round, entrants of similar standing meet; nobody meets the same opponent
  again while someone else is available; when the count does not divide into tables, the lowest
  placed entrants that had the fewest byes sit the round out (:func:`swiss_round`).

>>> [g.seats for g in round_robin(3, players=2, games=2)]
[(0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1)]
>>> [(g.seats, g.deal) for g in duplicate(2, players=2, deals=2)]
[((0, 1), 0), ((1, 0), 0), ((0, 1), 1), ((1, 0), 1)]
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "PlannedGame",
    "duplicate",
    "pair_key",
    "planned_game_count",
    "rotate",
    "round_robin",
    "swiss_round",
]


@dataclass(frozen=True)
class PlannedGame:
    seats: tuple[int, ...]  # entrant numbers in seat order
    deal: int


def rotate(table: Sequence[int], by: int) -> tuple[int, ...]:
    """The table with every entrant moved ``by`` seats to the left.

    >>> rotate((4, 5, 6), 1)
    (5, 6, 4)
    """
    by %= len(table)
    return tuple(table[by:]) + tuple(table[:by])


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _check(n: int, players: int, games: int) -> None:
    if players < 2:
        raise ValueError(f"a game needs at least 2 players, not {players}")
    if n < players:
        raise ValueError(f"{n} entrants cannot fill a table of {players}")
    if games < 1:
        raise ValueError(f"games per table must be at least 1, not {games}")


def round_robin(n: int, *, players: int, games: int, first_deal: int = 0) -> list[PlannedGame]:
    """Every combination of ``players`` entrants plays ``games`` games, seats rotating.

    Games are listed a cycle at a time (every table's first game, then every table's second),
    so that a tournament cut short has played every table about equally.
    """
    _check(n, players, games)
    tables = list(itertools.combinations(range(n), players))
    planned = []
    deal = first_deal
    for g in range(games):
        for table in tables:
            planned.append(PlannedGame(rotate(table, g), deal))
            deal += 1
    return planned


def duplicate(n: int, *, players: int, deals: int, first_deal: int = 0) -> list[PlannedGame]:
    """Every combination of ``players`` entrants plays ``deals`` deals in every seat rotation.

    >>> games = duplicate(3, players=3, deals=1)
    >>> [g.seats for g in games], {g.deal for g in games}
    ([(0, 1, 2), (1, 2, 0), (2, 0, 1)], {0})
    """
    _check(n, players, deals)
    planned: list[PlannedGame] = []
    deal = first_deal
    for _ in range(deals):
        for table in itertools.combinations(range(n), players):
            planned.extend(PlannedGame(rotate(table, r), deal) for r in range(players))
            deal += 1
    return planned


def swiss_round(
    standing: Sequence[int],
    *,
    players: int,
    games: int,
    met: Counter[tuple[int, int]],
    byes: Counter[int],
    first_deal: int = 0,
) -> tuple[list[PlannedGame], list[int]]:
    """One Swiss round: its games, and the entrants who sit it out (a bye).

    ``standing`` lists the entrants best first; ``met`` counts the games each pair played so
    far, ``byes`` the byes each entrant had. Tables are filled from the top: the best unseated
    entrant, then whoever of the rest met the table least, the best placed among equals.

    >>> games, out = swiss_round([0, 1, 2, 3, 4], players=2, games=1, met=Counter(),
    ...                          byes=Counter())
    >>> [g.seats for g in games], out
    ([(0, 1), (2, 3)], [4])
    >>> games, out = swiss_round([0, 1, 2, 3], players=2, games=1,
    ...                          met=Counter({(0, 1): 1, (2, 3): 1}), byes=Counter())
    >>> [g.seats for g in games], out
    ([(0, 2), (1, 3)], [])
    """
    _check(len(standing), players, games)
    sitting_out = len(standing) % players
    # The lowest placed of those with the fewest byes sit out (stable: standing order kept).
    by_byes = sorted(reversed(standing), key=lambda e: byes[e])
    out = sorted(by_byes[:sitting_out], key=list(standing).index)
    rest = [e for e in standing if e not in out]
    tables = _seat_tables(rest, players, met)
    planned = []
    deal = first_deal
    for g in range(games):
        for lineup in tables:
            planned.append(PlannedGame(rotate(lineup, g), deal))
            deal += 1
    return planned, out


#: How many partial seatings :func:`_seat_tables` looks at before it keeps the best so far.
SEARCH_BUDGET = 20_000
#: Candidates for the other seats of a table: the best placed of those who met it least.
CANDIDATES = 10


def _seat_tables(
    rest: list[int], players: int, met: Counter[tuple[int, int]]
) -> list[tuple[int, ...]]:
    """Split ``rest`` (best first) into tables with as few repeated meetings as possible.

    A depth-first search that fills tables from the top: the best unseated entrant, with the
    candidates that met it least, best placed first. The first seating it completes is the
    greedy one; it keeps looking (within :data:`SEARCH_BUDGET`) only while some pair meets
    again, so a greedy choice early on cannot force a rematch at the bottom.

    >>> _seat_tables([0, 1, 2, 3], 2, Counter({(0, 1): 1, (2, 3): 1, (0, 2): 1}))
    [(0, 3), (1, 2)]
    """

    def repeats(table: tuple[int, ...]) -> int:
        return sum(met[pair_key(a, b)] for a, b in itertools.combinations(table, 2))

    best: list[tuple[int, ...]] = []
    best_cost = math.inf
    nodes = 0

    def search(left: list[int], seated: list[tuple[int, ...]], cost: int) -> None:
        nonlocal best, best_cost, nodes
        if cost >= best_cost or nodes > SEARCH_BUDGET:
            return
        if not left:
            best, best_cost = list(seated), cost
            return
        nodes += 1
        first, others = left[0], left[1:]
        order = sorted(range(len(others)), key=lambda i: (met[pair_key(first, others[i])], i))
        options = []
        for combo in itertools.combinations(order[:CANDIDATES], players - 1):
            picked = sorted(combo)
            table = (first, *(others[i] for i in picked))
            options.append((repeats(table), picked, table))
        options.sort()
        for extra, picked, table in options:
            remaining = [e for i, e in enumerate(others) if i not in picked]
            search(remaining, [*seated, table], cost + extra)
            if best_cost == 0:
                return

    search(rest, [], 0)
    return best


def planned_game_count(fmt: str, n: int, *, players: int, games: int, rounds: int) -> int:
    """How many games a tournament will play (Swiss: all rounds).

    >>> planned_game_count("round_robin", 6, players=3, games=2, rounds=1)
    40
    >>> planned_game_count("duplicate", 4, players=2, games=3, rounds=1)
    36
    >>> planned_game_count("swiss", 9, players=2, games=2, rounds=4)
    32
    """
    tables = math.comb(n, players)
    if fmt == "round_robin":
        return tables * games
    if fmt == "duplicate":
        return tables * games * players
    if fmt == "swiss":
        return rounds * (n // players) * games
    raise ValueError(f"unknown format {fmt!r}")
