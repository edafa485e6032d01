"""The ``mcs`` house bot: flat Monte Carlo search over determinized games.

For each decision the bot samples full games consistent with what it sees
(:mod:`arena.engine.sampling`), takes each legal option in every sample and plays the game out
with uniformly random decisions on the lean path (:mod:`arena.engine.playout`); the option with
the best mean outcome wins. Every option is tried on the same samples and with the same random
generator state (common random numbers): the other seats then play the same tiles in the same
order whatever the option, so the comparison is not drowned by the luck of the deal or of the
playout.

**Horizon.** A playout stops after ``turns=N`` turns, counting the current one, and scores the
game as it stands (professional version: less the hand penalty to expect); ``turns=0``, the
default, plays to the end. A horizon of 2-4 turns once measured well against the heuristic and
random bots at equal work, but at equal time it biases the evaluation: a plain flat sampler
with full-length playouts (``benchmarks/flat_mc.py``) beat it by 0.7 (30 ms) to 2.4 (100 ms)
penalty points per hand in the card game, and more time barely helped; played to the end the
two are level, and the halving below then makes the difference.

**Budget.** Options are narrowed by *sequential halving*: the budget is split over
``ceil(log2 options)`` rounds, every surviving option gets the same share of a round, and the
worse half is dropped after each round. By default the budget is ``budget=N`` milliseconds of
*estimated* work: the number of playouts is worked out from the position with a fixed cost model
of a playout on the reference machine, so it does not depend on the clock. The model is that of
the backend that plays (:data:`arena.engine.playout.BACKEND`, :data:`COMPILED_COSTS`,
:data:`GAME_COSTS`): on the compiled core the same budget buys a hundred times as
many playouts, and a game is reproducible on the same backend. ``playouts=N`` fixes the number
instead. Both make a game reproducible from :attr:`GameInfo.seed
<arena.bots.base.GameInfo.seed>`. ``ms=N`` stops on the clock instead and is
therefore not reproducible; ``clock=cpu`` makes that the processor time of this process rather
than the wall clock (:mod:`arena.bots.timing`), for fair comparisons on a busy machine.

**Outcome.** ``objective=margin`` (default): own score minus the opponents' mean;
``score``: own score; ``rank``: minus the competition rank. In the card game fewer points are
better, and the signs follow. Margin and score measured alike (basic and card game, 300 games
each against heuristic and random bots); margin also values what the others lose.

Options combine with commas or semicolons (the latter fit in a comma-separated lineup):
``mcs:playouts=400``, ``mcs:ms=80,objective=score``, ``mcs:playouts=400;objective=rank``.

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> from arena.bots.base import GameInfo
>>> game = Game.new("basic", players=4, seed=3)
>>> bot = MonteCarloBot("playouts=60")
>>> bot.start_game(GameInfo("basic", players=4, seat=0, seed=1))
>>> view = observe(game, 0)
>>> bot.decide(view) in view.legal
True
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from random import Random
from typing import Any

from arena.engine.decisions import Decision, DecisionKind, PlaceLuck, PlayAction
from arena.engine.observation import Observation
from arena.engine.playout import BACKEND
from arena.engine.sampling import Sampler
from arena.engine.variants import variant
from arena.table.notes import Note

from .base import Bot, GameInfo
from .timing import Deadline, clock_named

OBJECTIVES = ("margin", "score", "rank")
#: Default budget: estimated milliseconds of playouts per decision, chosen so that a decision
#: takes well under 100 ms on the reference machine (benchmarks/engine.py prints the figures).
DEFAULT_BUDGET_MS = 30.0
#: Estimated cost in microseconds of (a sample, a playout, a placement), measured on the
#: reference machine (2 cores, Python 3.11), per backend: the fast loops of basic and the card
#: game, then the general simulator of the luck and professional variants. The compiled
#: figures are whole decisions at a fixed count (processor time per playout, sampling and
#: bookkeeping included, fitted against the placements left). Without the core the playouts go
#: through the Game (GAME_COSTS: benchmarks/playout_core.py's 200-600 us a playout from
#: sampled positions, some 24 placements left, 100-240 times the core's).
GAME_COSTS = ((42.0, 20.0, 8.0), (60.0, 30.0, 18.0))
COMPILED_COSTS = ((15.0, 0.15, 0.02), (16.0, 0.3, 0.075))
FAST_COST, GENERAL_COST = COMPILED_COSTS if BACKEND == "compiled" else GAME_COSTS
#: Every sample is played out at least this many times (all options, repeated if few).
PER_SAMPLE = 8
#: Bounds on the number of playouts per decision.
MIN_PLAYOUTS, MAX_PLAYOUTS = 40, 60_000
#: Default horizon per variant, in turns; 0 plays to the end (see the module docstring).
DEFAULT_TURNS = {"basic": 0, "classic": 0, "basic+luck": 0, "pro": 0, "pro+luck": 0}
#: At most this many options are searched; luck spaces and action targets beyond it are cut.
MAX_OPTIONS = 24


@dataclass(frozen=True)
class Settings:
    """The bot's options, parsed from ``name=value`` pairs."""

    playouts: int | None = None
    budget: float = DEFAULT_BUDGET_MS
    ms: float | None = None
    clock: str = "wall"
    objective: str = "margin"
    turns: int | None = None  # None: DEFAULT_TURNS of the variant

    @classmethod
    def parse(cls, options: str) -> "Settings":
        """``"playouts=400,objective=score"`` (or ``;``) -> settings; bad names or values raise
        ValueError.

        >>> Settings.parse("ms=80").ms
        80.0
        >>> Settings.parse("speed=3")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: bot 'mcs': unknown option 'speed'; options: playouts, budget, ...
        """
        settings = cls()
        for part in filter(None, (p.strip() for p in options.replace(";", ",").split(","))):
            name, _, text = part.partition("=")
            name, text = name.strip(), text.strip()
            if name not in _PARSERS:
                raise ValueError(
                    f"bot 'mcs': unknown option {name!r}; options: {', '.join(_PARSERS)}"
                )
            try:
                settings = replace(settings, **{name: _PARSERS[name](text)})
            except ValueError:
                raise ValueError(
                    f"bot 'mcs': bad value {text!r} for {name!r} (playouts: a positive "
                    f"integer; budget, ms: positive numbers; turns: 0 or more; objective: "
                    f"{', '.join(OBJECTIVES)}; clock: wall, cpu)"
                ) from None
        return settings


def _positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = kind(text)
        if value <= 0:
            raise ValueError(text)
        return value

    return parse


def _turns(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def _clock(text: str) -> str:
    clock_named(text)
    return text


def _objective(text: str) -> str:
    if text not in OBJECTIVES:
        raise ValueError(text)
    return text


_PARSERS: dict[str, Callable[[str], Any]] = {
    "playouts": _positive(int),
    "budget": _positive(float),
    "ms": _positive(float),
    "clock": _clock,
    "objective": _objective,
    "turns": _turns,
}


class MonteCarloBot(Bot):
    """Flat Monte Carlo with sequential halving (module docstring)."""

    name = "mcs"

    def __init__(self, options: str = "") -> None:
        self.settings = Settings.parse(options)
        self._rng = Random(0)
        self._note: Note | None = None

    def start_game(self, info: GameInfo) -> None:
        self._rng = Random(info.seed)

    def decide(self, view: Observation) -> Decision:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to decide")
        self._note = None
        options = shortlist(view, self._rng)
        if len(options) == 1:
            return options[0]
        return self._search(view, options)

    def note(self) -> Note | None:
        """The search's mean playout value of each option searched (module docstring)."""
        return self._note

    # -------------------------------------------------------------- search

    def _search(self, view: Observation, options: list[Decision]) -> Decision:
        rng = self._rng
        seat = view.seat
        sampler = Sampler(view)
        value = _value_function(view, self.settings.objective)
        settings = self.settings
        deadline = None if settings.ms is None else Deadline(settings.ms, settings.clock)
        turns = DEFAULT_TURNS[view.variant] if settings.turns is None else settings.turns
        budget = settings.playouts or playouts_for(view, settings.budget, turns)
        rounds = max(1, math.ceil(math.log2(len(options))))
        alive = list(range(len(options)))
        totals = [0.0] * len(options)
        counts = [0] * len(options)
        for r in range(rounds):
            # Each sample serves at least PER_SAMPLE playouts, so that rounds with few options
            # left do not spend their time dealing samples.
            reps = -(-PER_SAMPLE // len(alive))
            if deadline is None:
                samples = max(1, budget // (rounds * len(alive) * reps))
                round_end = math.inf
            else:
                samples = 1 << 30
                round_end = deadline.at((r + 1) / rounds)
            for k in range(samples):
                if deadline is not None and k and deadline.now() >= round_end:
                    break
                pos = sampler.position(rng)
                # Every option meets the same future (common random numbers, see above), in
                # each of ``reps`` rounds played in one call.
                chosen = [options[i] for i in alive]
                results = pos.playouts(rng, seat, chosen, turns, repeat=reps)
                for k, scores in enumerate(results):
                    i = alive[k % len(alive)]
                    totals[i] += value(scores)
                    counts[i] += 1
            if r + 1 < rounds:
                alive.sort(key=lambda i: -totals[i] / counts[i])  # stable: ties keep order
                alive = sorted(alive[: (len(alive) + 1) // 2])
        best = max(alive, key=lambda i: (totals[i] / counts[i], -i))
        self._note = search_note(view, options, totals, counts, best)
        return options[best]


def search_note(
    view: Observation,
    options: Sequence[Decision],
    totals: Sequence[float],
    counts: Sequence[int],
    best: int,
) -> Note | None:
    """A search's note for the bot's owner: per legal option its mean playout value (the
    objective's, higher is better; none for an option not searched), and a line saying how
    many playouts found which option best."""
    means = {option: totals[i] / counts[i] for i, option in enumerate(options) if counts[i]}
    values = [means.get(option) for option in view.legal]
    text = (
        f"{sum(counts)} playouts over {len(options)} options; "
        f"best {options[best]} ({means.get(options[best], 0.0):+.2f})"
    )
    return Note.bounded(text, values, len(view.legal))


def playouts_for(
    view: Observation,
    budget_ms: float,
    turns: int = 0,
    costs: tuple[float, float, float] | None = None,
) -> int:
    """The playouts that ``budget_ms`` of estimated work buys in this position (playouts cut
    after ``turns`` turns if ``turns``), at ``costs`` (a sample, a playout, a placement, in
    microseconds; default: the active backend's for this variant)."""
    left = remaining_placements(view)
    if turns:
        left = min(left, turns * view.players + len(view.to_place) + 1)
    if costs is None:
        costs = FAST_COST if view.variant in ("basic", "classic") else GENERAL_COST
    sample, fixed, placement = costs
    playouts = int(budget_ms * 1000 / (sample / PER_SAMPLE + fixed + placement * left))
    return max(MIN_PLAYOUTS, min(MAX_PLAYOUTS, playouts))


def remaining_placements(view: Observation) -> int:
    """About how many tiles are still to be placed (this set, and a second one if due)."""
    left = sum(view.hand_sizes) + len(view.to_place) + 1
    v = variant(view.variant)
    if not v.classic and view.players <= 3 and view.set_number == 1:
        left += min(view.supply_size, v.hand_size * view.players)
    return left


def _value_function(view: Observation, objective: str) -> Callable[[Sequence[float]], float]:
    seat = view.seat
    sign = -1 if variant(view.variant).classic else 1  # the card game counts penalty points
    others = view.players - 1

    def score(scores: Sequence[float]) -> float:
        return sign * scores[seat]

    def margin(scores: Sequence[float]) -> float:
        own = scores[seat]
        return sign * (own - (sum(scores) - own) / others)

    def rank(scores: Sequence[float]) -> float:
        own = sign * scores[seat]
        return -sum(1 for s in scores if sign * s > own)

    return {"score": score, "margin": margin, "rank": rank}[objective]


def shortlist(view: Observation, rng: Random) -> list[Decision]:
    """The options worth searching: all of them, unless there are more than
    :data:`MAX_OPTIONS` (luck spaces, action cards with many targets)."""
    legal = list(view.legal)
    if len(legal) <= MAX_OPTIONS or view.pending is None:
        return legal
    if view.pending.kind is DecisionKind.LUCK:
        return _luck_shortlist(view, legal)
    if view.pending.kind is DecisionKind.ACTION:
        return _action_shortlist(legal, rng)
    return legal


def _luck_shortlist(view: Observation, legal: list[Decision]) -> list[Decision]:
    """Plus five markers: the two free spaces nearest to each row's tiles (the spaces that
    will be reached soon), then the rest in order, up to :data:`MAX_OPTIONS`."""
    first: dict[int, int] = {}
    near: list[Decision] = []
    far: list[Decision] = []
    for d in legal:
        assert isinstance(d, PlaceLuck)
        seen = first.get(d.row, 0)
        first[d.row] = seen + 1
        (near if seen < 2 else far).append(d)
    return (near + far)[:MAX_OPTIONS]


def _action_shortlist(legal: list[Decision], rng: Random) -> list[Decision]:
    """Declining and every card aimed at a row; a random subset of the tile targets
    (Swap, Another) to fill up to :data:`MAX_OPTIONS`."""
    rows = [d for d in legal if not (isinstance(d, PlayAction) and d.new_tile is not None)]
    tiles = [d for d in legal if isinstance(d, PlayAction) and d.new_tile is not None]
    room = max(0, MAX_OPTIONS - len(rows))
    picked = sorted(rng.sample(range(len(tiles)), min(room, len(tiles))))
    return rows + [tiles[i] for i in picked]
