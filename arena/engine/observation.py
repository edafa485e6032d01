"""One seat's view of a game: exactly what RULES.md 6 lists, nothing hidden.

A bot never sees the :class:`~arena.engine.game.Game`; it sees an :class:`Observation`, and the
bot protocol carries the same fields. Hidden are: the other hands and their action cards, the
order of the supply and the decks, and the tiles other seats have chosen but not yet revealed.

>>> from arena.engine import Game
>>> view = observe(Game.new("basic", players=3, seed=1), seat=2)
>>> len(view.hand), view.hand_sizes, view.supply_size, view.pending.kind.value
(12, (12, 12, 12), 60, 'tile')
"""

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from .decisions import Choice, Decision, Pending
from .errors import UnexpectedDecisionError
from .readings import CURRENT

if TYPE_CHECKING:  # a bot kit loads views without the rules themselves
    from .game import Game


@dataclass(frozen=True)
class Observation:
    """What ``seat`` knows.

    ``spaces``: per row, per space, the tile on it, 0 if empty, -1 if skipped (Skip card).
    ``hand_sizes`` count a chosen tile that is not revealed yet.
    ``markers``: per row, per space, the luck card on it or ``None``. ``history``: the tiles
    revealed in each turn so far, per seat (``None``: no tile revealed yet or none held);
    the current turn's entry fills in when the tiles are revealed. ``pending`` is the
    decision under way, ``legal`` this seat's options (empty if nothing is asked of it).
    ``rules``: the reading of the rules the game is played under (:mod:`arena.engine.readings`;
    a bot's model of the rules follows it). A view holds only immutable values: it is
    hashable, and equal views hash alike.
    """

    variant: str
    seat: int
    players: int
    turn: int
    set_number: int
    layout: tuple[str, ...]
    spaces: tuple[tuple[int, ...], ...]
    markers: tuple[tuple[str | None, ...], ...]
    stops: tuple[int, ...]
    hand: tuple[int, ...]
    action_cards: tuple[str, ...]
    chosen: int | None  # the tile this seat has chosen this turn, before the reveal
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    action_counts: tuple[int, ...]
    history: tuple[tuple[int | None, ...], ...]
    choices: tuple[Choice, ...]  # this turn's other decisions so far (all public)
    to_place: tuple[tuple[int, int], ...]  # revealed (tile, seat) not yet placed, in order
    supply_size: int
    luck_deck_size: int
    action_deck_size: int
    pending: Pending | None
    legal: tuple[Decision, ...]
    rules: str = CURRENT.name

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (decisions as their text form)."""
        data = asdict(self)
        data["pending"] = (
            None
            if self.pending is None
            else {**asdict(self.pending), "kind": self.pending.kind.value}
        )
        data["choices"] = tuple(c.to_dict() for c in self.choices)
        data["legal"] = [str(d) for d in self.legal]
        return data


def observe(game: "Game", seat: int) -> Observation:
    """The view of ``seat`` (0-based) of ``game``."""
    if not 0 <= seat < game.players:
        raise UnexpectedDecisionError(f"there is no seat {seat} (seats 0..{game.players - 1})")
    return Observation(
        variant=game.variant.name,
        seat=seat,
        players=game.players,
        turn=game.turn,
        set_number=game.set_number,
        layout=game.layout,
        spaces=tuple(tuple(row) for row in game.spaces),
        markers=tuple(tuple(row) for row in game.markers),
        stops=tuple(sorted(game.stops)),
        hand=tuple(game.hands[seat]),
        action_cards=tuple(game.held[seat]),
        chosen=game.chosen(seat),
        scores=tuple(game.scores),
        hand_sizes=tuple(len(h) + (game.chosen(s) is not None) for s, h in enumerate(game.hands)),
        action_counts=tuple(len(h) for h in game.held),
        history=tuple(tuple(t.plays) for t in game.turns),
        choices=tuple(map(Choice.from_dict, game.turns[-1].choices)) if game.in_turn() else (),
        to_place=tuple(game.to_place()),
        supply_size=len(game.supply),
        luck_deck_size=len(game.luck_deck),
        action_deck_size=len(game.action_deck),
        pending=game.pending,
        legal=tuple(game.legal(seat)),
        rules=game.rules.name,
    )
