"""Play games between bots in this process: one game (:func:`play_game`) and the seeding rules of
a series (:func:`series_game`), shared by ``nimmt play`` and anything else that runs house bots.

A series of ``n`` games with seed ``S`` between the lineup ``bots[0..k-1]`` is fixed by three
rules, so that a game can be re-run alone and ``--jobs`` changes nothing:

- game ``i`` (0-based) is dealt from seed ``S + i``;
- seats rotate: lineup entry ``k`` sits at seat ``(k + i) mod players``;
- the bot at ``seat`` gets the seed :func:`bot_seed` ``(S, i, seat)`` for its own choices.

A *duplicate* series (``duplicate=True``, the ladders' matches) plays each deal once per seat
rotation, one rotation after the other, so that the luck of the deal cancels out: game ``i`` is
deal ``d = i // players``, dealt from ``S + d``, with the seats rotated by ``i mod players``.

>>> from arena.bots.random import RandomBot
>>> record = play_game("basic", [RandomBot(), RandomBot()], seed=4,
...                    bot_seeds=[1, 2], names=["a", "b"])
>>> record.names, len(record.turns), record.result.ranks, record.to_json()["format"]
(('a', 'b'), 24, (2, 1), 'nimmt-replay/1')
>>> series_game(seed=10, index=2, players=3)
SeriesGame(index=2, deal_seed=12, seats=(1, 2, 0), deal=2)
>>> [(g.deal_seed, g.seats) for g in (series_game(10, i, 2, duplicate=True) for i in range(4))]
[(10, (0, 1)), (10, (1, 0)), (11, (0, 1)), (11, (1, 0))]
"""

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.bots.base import Bot, GameInfo
from arena.engine.game import Game
from arena.engine.observation import observe
from arena.engine.record import GameRecord, Series
from arena.engine.replay import to_record


def play_game(
    variant: str,
    bots: Sequence[Bot],
    seed: int,
    bot_seeds: Sequence[int],
    names: Sequence[str | dict[str, Any]],
    game_id: str = "",
    series: Series | None = None,
) -> GameRecord:
    """Play one game, ``bots[seat]`` in each seat; return its record (the ``nimmt-replay/1``
    replay as a typed value: :meth:`~arena.engine.record.GameRecord.to_json` gives the JSON),
    ``series`` its place in a match or series.

    Every seat choosing a tile is shown the position before anybody's choice is applied, so
    the choice is simultaneous. A decision that is not legal raises
    :class:`~arena.engine.errors.IllegalDecisionError`: house bots are trusted; untrusted bots
    are run by the match runner, which wraps them in the arena's fault policy.
    """
    if not len(bots) == len(bot_seeds) == len(names):
        raise ValueError(
            f"{len(bots)} bots, {len(bot_seeds)} bot seeds and {len(names)} names: "
            "one of each per seat"
        )
    game = Game.new(variant, players=len(bots), seed=seed)
    for seat, bot in enumerate(bots):
        bot.start_game(GameInfo(variant, len(bots), seat, bot_seeds[seat], game_id))
    while (pending := game.pending) is not None:
        views = [observe(game, seat) for seat in pending.seats]
        decisions = [bots[view.seat].decide(view) for view in views]
        for view, decision in zip(views, decisions, strict=True):
            game.apply(view.seat, decision)
    result = game.result()
    for seat, bot in enumerate(bots):
        bot.end_game(observe(game, seat), result.scores, result.ranks)
    return to_record(game, list(names), series=series)


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in game ``index`` of the series with ``seed``.

    A hash, so that neighbouring series (seed 1 and seed 2) share no bot seeds.

    >>> bot_seed(1, 0, 0) == bot_seed(1, 0, 0), bot_seed(1, 0, 0) == bot_seed(1, 0, 1)
    (True, False)
    """
    digest = hashlib.sha256(f"nimmt-bot-seed:{seed}:{index}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class SeriesGame:
    """Game ``index`` of a series: its deal seed, per seat the lineup entry sitting there, and
    the 0-based number of its deal (the game's own index, but in a duplicate series)."""

    index: int
    deal_seed: int
    seats: tuple[int, ...]
    deal: int

    def bot_seeds(self, seed: int) -> list[int]:
        return [bot_seed(seed, self.index, seat) for seat in range(len(self.seats))]


def series_game(seed: int, index: int, players: int, *, duplicate: bool = False) -> SeriesGame:
    """Deal seed and seating of game ``index`` (0-based) of the series with ``seed``;
    ``duplicate``: of a duplicate series (every deal once per seat rotation, see above)."""
    deal, rotation = divmod(index, players) if duplicate else (index, index)
    seats = [0] * players
    for entry in range(players):
        seats[(entry + rotation) % players] = entry
    return SeriesGame(index, seed + deal, tuple(seats), deal)
