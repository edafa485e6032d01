"""The ``search`` house bot: determinized search at the root with an opponent model for the
simultaneous turn, sequential halving of the samples, and a time budget.

**What the literature offers, and why this.** Information-set MCTS (Cowling, Powley and
Whitehouse 2012) grows a tree over information sets from determinized samples; with
simultaneous moves each seat's choices of a turn are separate nodes chosen from that seat's
own information. In this game the tree below the root is hopelessly sparse at a few hundred to
a few thousand playouts per decision: after one turn every sample reveals different tiles, so
the next decision node is a new information set in almost every iteration and ISMCTS falls back
to flat Monte Carlo at the root ("Perfect Information Monte Carlo", PIMC, the strongest published
approach to the card game). What ISMCTS does keep at this budget is the current turn's
simultaneous move: the other seats' tiles of *this* turn are chosen by a policy rather than at
random. Uniform random opponents overstate the danger of the safe tiles and understate that of
the rows everybody avoids; real opponents do not throw the sixth card on a row when they hold a
quiet one. So the bot is PIMC with these additions:

- **Opponent model for the current turn** (the simultaneous move that ISMCTS would search).
  In each sample the other seats' tiles of this turn are drawn from a softmax over what each
  tile is worth to its player if it landed alone on the current board (``temperature=T``
  points; ``temperature=0`` is uniform).
- **Rollout policy.** The rest of the game is played out to the end. In the card game
  (``rollout=rule``) every seat then plays by a cheap rule that avoids the sixth card
  (:mod:`arena.bots.rollouts`): random play takes rows all the time, and the penalties nobody
  competent would collect drown the differences between options. Elsewhere the core's
  uniformly random decisions (:mod:`arena.engine.playout`); in the professional version
  without action cards (``actions=none``: random Swap, Stop or Another cards turn the board
  over at random and only add noise; the card asked about now is kept). In the board game
  ``rollout=rule`` plays :class:`arena.bots.rollouts.Rule` instead (:meth:`Position.playouts
  <arena.engine.playout.Position.playouts>`: each seat's tile that costs least landing alone
  on the board, a random one with probability ``explore``, default 0.1), the default in the
  professional version with and without luck cards. Paired against random rollouts (30 ms
  CPU, two seats against two, points per game): pro + luck +3.54 ± 2.91 (40 deals) and
  +1.36 ± 2.85 (40 other deals), together +2.45 ± 2.04; pro +0.81 ± 2.33 and +1.89 ± 3.04,
  together +1.35 ± 1.92, not clear of noise at 80 deals (the 300 below are); basic +0.07 ±
  2.54, basic + luck -3.59 ± 3.12 (25 deals); ``explore=0.5``: pro +2.26 ± 2.64, pro + luck
  -1.94 ± 3.12 (40 deals), basic -1.07 ± 3.75 (15). Its playouts cost two to five times as
  much, and the search is short of samples: six times the work per decision gained +4.17 ±
  4.12 points in basic (20 deals).
- **Sequential halving** (Karnin, Koren and Somekh 2013) of the budget across the options:
  ``ceil(log2 options)`` rounds, the worse half dropped after each, so the close contenders get
  most of the playouts. Every option of a round meets the same samples and the same random
  future (common random numbers).
- **The heuristic as a prior** (progressive widening's idea, that a cheap policy orders the
  options before search has seen them). Luck spaces and action cards with targets can give
  dozens of options; they are cut to a shortlist (:func:`arena.bots.mcs.shortlist`) that always
  keeps the ``heuristic`` bot's own pick. With ``prior=z`` the search keeps the heuristic's
  pick unless its best option beats it by ``z`` standard errors of the paired difference: in
  the professional version a few hundred random playouts per decision are too few to overrule
  a good rule on noise (measured, 25 paired deals at 30 ms against ``heuristic``: without the
  prior -2.3 ± 3.2 points, with ``prior=1`` -2.3 ± 4.1; hence ``prior=2``, kept in pro +
  luck). In pro the rule's rollouts need less of it: 300 deals against ``heuristic`` (the
  same deals), random rollouts and ``prior=2`` +0.54 ± 0.93, level; the rule and ``prior=1``
  +1.28 ± 0.97, the rule and ``prior=0`` +1.10 ± 0.96, both better; hence the rule and
  ``prior=1`` there.

The defaults of ``prior``, ``actions`` and ``rollout`` depend on the variant
(:data:`VARIANT_DEFAULTS`). Every decision kind of every variant goes through the same
search: tiles, luck-card spaces, action cards with their targets, the card game's row to take.

**Budget.** ``ms=N`` (default 30) milliseconds per decision on clock ``clock=wall|cpu``
(:mod:`arena.bots.timing`); the clock is read before each sample, and the search stops when
the next sample, costing what the last one did, would end past the budget
(``benchmarks/strength.py`` prints p95 times). ``playouts=N`` fixes the work instead, which
makes games reproducible from :attr:`GameInfo.seed <arena.bots.base.GameInfo.seed>`.

**Outcome.** ``objective=score`` (default): own score (card game: fewer points);
``margin``: own score less the others' mean.

**Measured** (``benchmarks/strength.py``, the round robin kept in
``benchmarks/results/strength-30ms-cpu/``: 30 ms CPU per decision, 4 players, two seats
against two, 300 paired deals per pair, points per game; in the card game penalty points, so
less is better), search less ``mcs`` / ``heuristic`` / the flat sampler: basic +3.54 ± 1.01 /
+4.83 ± 1.05 / +2.04 ± 1.04; basic + luck +1.22 ± 0.96 / +3.42 ± 0.97 / +2.30 ± 0.95; pro
+4.25 ± 0.96 / +2.54 ± 0.93 / +3.97 ± 0.87; pro + luck +4.52 ± 0.96 / +1.62 ± 0.97 / +4.52 ±
1.02; card game -1.87 ± 0.63 / -4.98 ± 0.71 / -1.68 ± 0.64. CPU time per decision p95 30.2
ms in every variant.
Tried against the defaults and not taken (none clear of noise): ``objective=margin`` basic
+2.60 ± 4.26 (15 deals) and -1.34 ± 4.20 (20 more), pro + luck +0.42 ± 2.72 (15);
``temperature=1`` basic -0.25 ± 3.20, pro + luck +2.38 ± 3.61, ``temperature=8`` +0.80 ±
3.30 and -0.65 ± 2.50 (30 deals); 32 playouts a sample instead of 8 (:data:`PER_SAMPLE`)
basic -0.31 ± 4.23, pro + luck -0.24 ± 3.89 (20 deals): repeats of one sample share its
opponents' tiles of this turn, and it is the samples that count. Time per sample, the
decision's own work included (600 playouts, 400 decisions of random 4-player games, one
process, loaded machine, median of three runs): basic 60 us, basic + luck 102, pro 93, pro +
luck 184, card game 62, where before the compiled deal they were 80, 130, 142, 206 and 90
(alternating runs); the playouts of twelve options take about 15 in basic, the
compiled deal 7, the rest is Python (the search's bookkeeping, the decision's own work). At
30 ms CPU that is 1.4 to 1.6 times the samples per decision (mean over the same decisions,
two runs): basic 669 instead of 415, basic + luck 383 (248), pro 360 (237), pro + luck 250
(167), card game 550 (394).

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> game = Game.new("pro+luck", players=4, seed=3)
>>> bot = SearchBot("playouts=60")
>>> bot.start_game(GameInfo("pro+luck", players=4, seat=0, seed=1))
>>> view = observe(game, 0)
>>> bot.decide(view) in view.legal
True
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import reduce
from itertools import repeat
from operator import add, itemgetter, sub
from random import Random
from typing import Any

from arena.engine.decisions import Decision, DecisionKind
from arena.engine.game import next_space, target_row
from arena.engine.observation import Observation
from arena.engine.playout import Position
from arena.engine.readings import reading
from arena.engine.sampling import Sampler, draw_by_weight
from arena.engine.variants import variant
from arena.table.notes import Note

from .base import Bot, GameInfo
from .heuristic import HeuristicBot
from .mcs import search_note, shortlist
from .rollouts import EXPLORE, Rule, classic_playouts
from .timing import Deadline, clock_named

Playouts = Callable[[Position, Random, int, list[Decision]], Sequence[Sequence[float]]]
#: What is done to a sample before it is played out (the opponent model, the quiet actions);
#: it may change the sample, a position of its own
#: (:meth:`arena.engine.sampling.Sampler.position`).
Model = Callable[[Position, Random], Position]
#: Every sample is played out at least this many times (all options, repeated if few).
PER_SAMPLE = 8
#: The playout results of a round are added up whenever this many have come in (in their
#: order, so the sums are the same as adding them up at the round's end).
FOLD = 512
OBJECTIVES = ("score", "margin")


@dataclass(frozen=True)
class Settings:
    """The bot's options, parsed from ``name=value`` pairs (``,`` or ``;`` between them)."""

    ms: float = 30.0
    clock: str = "wall"
    playouts: int | None = None  # fixed work instead of a time budget
    objective: str = "score"
    temperature: float = 3.0  # of the opponent model, in points; 0: uniform
    # None: the variant's default (VARIANT_DEFAULTS).
    prior: float | None = None  # standard errors by which to beat the heuristic's pick
    actions: str | None = None  # action cards in the rollouts: "random", or "none"
    rollout: str | None = None  # tile choices in the rollouts: "random", or "rule"
    explore: float = EXPLORE  # the rule's share of random tiles

    def for_variant(self, name: str) -> "Settings":
        """These settings with the variant's defaults filled in.

        >>> Settings().for_variant("classic").rollout
        'rule'
        """
        defaults = VARIANT_DEFAULTS[name]
        return replace(
            self,
            prior=defaults.prior if self.prior is None else self.prior,
            actions=defaults.actions if self.actions is None else self.actions,
            rollout=defaults.rollout if self.rollout is None else self.rollout,
        )

    @classmethod
    def parse(cls, options: str) -> "Settings":
        """``"ms=50,clock=cpu"`` -> settings; bad names or values raise ValueError.

        >>> settings = Settings.parse("ms=50;temperature=0")
        >>> settings.ms, settings.temperature, settings.clock
        (50.0, 0.0, 'wall')
        >>> Settings.parse("depth=3")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: bot 'search': unknown option 'depth'; options: ms, clock, playouts, ...
        """
        settings = cls()
        for part in filter(None, (p.strip() for p in options.replace(";", ",").split(","))):
            name, _, text = part.partition("=")
            name, text = name.strip(), text.strip()
            if name not in _PARSERS:
                raise ValueError(
                    f"bot 'search': unknown option {name!r}; options: {', '.join(_PARSERS)}"
                )
            try:
                settings = replace(settings, **{name: _PARSERS[name](text)})
            except ValueError:
                raise ValueError(
                    f"bot 'search': bad value {text!r} for {name!r} (ms: a positive number; "
                    "playouts: a positive integer; temperature, prior: 0 or more; explore: 0 to "
                    f"1; clock: wall, cpu; objective: {', '.join(OBJECTIVES)}; actions: random, "
                    "none; rollout: random, rule)"
                ) from None
        return settings


def _positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = kind(text)
        if not value > 0 or math.isinf(value):
            raise ValueError(text)
        return value

    return parse


def _non_negative(text: str) -> float:
    value = float(text)
    if not 0 <= value < math.inf:
        raise ValueError(text)
    return value


def _probability(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise ValueError(text)
    return value


def _choice(allowed: Sequence[str], check: Callable[[str], Any] = lambda _: None) -> Any:
    def parse(text: str) -> str:
        check(text)
        if allowed and text not in allowed:
            raise ValueError(text)
        return text

    return parse


_PARSERS: dict[str, Callable[[str], Any]] = {
    "ms": _positive(float),
    "clock": _choice((), clock_named),
    "playouts": _positive(int),
    "objective": _choice(OBJECTIVES),
    "temperature": _non_negative,
    "prior": _non_negative,
    "actions": _choice(("random", "none")),
    "rollout": _choice(("random", "rule")),
    "explore": _probability,
}


@dataclass(frozen=True)
class VariantDefaults:
    prior: float
    actions: str
    rollout: str


#: The options that depend on the variant, as measured (module docstring).
VARIANT_DEFAULTS = {
    "basic": VariantDefaults(prior=0.0, actions="random", rollout="random"),
    "basic+luck": VariantDefaults(prior=0.0, actions="random", rollout="random"),
    "pro": VariantDefaults(prior=1.0, actions="none", rollout="rule"),
    "pro+luck": VariantDefaults(prior=2.0, actions="none", rollout="rule"),
    "classic": VariantDefaults(prior=0.0, actions="random", rollout="rule"),
}


class SearchBot(Bot):
    """Determinized root search with an opponent model (module docstring)."""

    name = "search"

    def __init__(self, options: str = "") -> None:
        self.settings = Settings.parse(options)
        self._rng = Random(0)
        self._prior = HeuristicBot()
        self._note: Note | None = None

    def start_game(self, info: GameInfo) -> None:
        self._rng = Random(info.seed)
        self._prior.start_game(info)

    def decide(self, view: Observation) -> Decision:
        if not view.legal or view.pending is None:
            raise ValueError(f"seat {view.seat} has nothing to decide")
        self._note = None
        if len(view.legal) == 1:
            return view.legal[0]
        settings = self.settings.for_variant(view.variant)
        deadline = None if settings.playouts else Deadline(settings.ms, settings.clock)
        pick = self._prior.decide(view)
        options = self.candidates(view, pick)
        if len(options) == 1:
            return options[0]
        return self._search(view, settings, options, deadline, options.index(pick))

    def note(self) -> Note | None:
        """The search's mean playout value of each option searched
        (:func:`arena.bots.mcs.search_note`)."""
        return self._note

    def candidates(self, view: Observation, pick: Decision) -> list[Decision]:
        """The options searched: every legal one, or a shortlist that keeps the heuristic's
        ``pick`` (module docstring)."""
        options = shortlist(view, self._rng)
        if pick not in options:
            options[-1] = pick
        return options

    def rollout(self, view: Observation) -> tuple[Model | None, Playouts]:
        """How this bot evaluates a sample of ``view`` (for tools that estimate the options as
        it does, such as :mod:`arena.analysis`): what is done to each sample before it is
        played out (``None``: nothing), and how the sample is played out for each option."""
        settings = self.settings.for_variant(view.variant)
        return self._opponent_model(view, settings), self._playouts(view, settings)

    # -------------------------------------------------------------- search

    def _search(
        self,
        view: Observation,
        settings: Settings,
        options: list[Decision],
        deadline: Deadline | None,
        prior: int,
    ) -> Decision:
        rng, seat = self._rng, view.seat
        # With the action cards out of the rollouts the sampler deals none.
        sampler = Sampler(view, actions=not _quiet(view, settings))
        value = _value_function(view, settings.objective)
        model = self._opponent_model(view, settings)
        playouts = self._playouts(view, settings)
        rule = self._rule(view, settings)
        rounds = max(1, math.ceil(math.log2(len(options))))
        alive = list(range(len(options)))
        totals = [0.0] * len(options)
        counts = [0] * len(options)
        # Paired differences from the prior's playout in the same sample and random future.
        gain = [0.0] * len(options)
        gain_sq = [0.0] * len(options)
        budget = settings.playouts or 0
        then = cost = 0.0  # clock readings: the last sample's start, and what it took
        for r in range(rounds):
            reps = -(-PER_SAMPLE // len(alive))
            chosen = [options[i] for i in alive]
            # The round's playouts one after the other, each sample's ``reps`` rounds of the
            # options in order: option j's results are every len(chosen)-th from j.
            results: list[Sequence[float]] = []
            samples = max(1, budget // (rounds * len(alive) * reps)) if budget else 1 << 30
            round_end = deadline.at((r + 1) / rounds) if deadline else math.inf
            for k in range(samples):
                if deadline:
                    # Stop when the next sample, costing what the last one did, would end past
                    # the round's end; the search's first sample is always taken.
                    now = deadline.now()
                    if k:
                        cost = now - then
                    if (r or k) and now + cost >= round_end:
                        break
                    then = now
                pos = sampler.position(rng)
                if model is not None:
                    pos = model(pos, rng)
                if playouts is Position.playouts or rule is not None:
                    # the rounds in one call (the compiled core)
                    results += pos.playouts(rng, seat, chosen, repeat=reps, rule=rule)
                else:
                    for _ in range(reps):
                        results += playouts(pos, rng, seat, chosen)
                if len(results) >= FOLD:
                    # Added up as they come, so that the clock sees this work too: at the
                    # budget's end thousands of cheap playouts took milliseconds to add up.
                    _add_up(list(map(value, results)), alive, prior, totals, counts, gain, gain_sq)
                    results = []
            _add_up(list(map(value, results)), alive, prior, totals, counts, gain, gain_sq)
            if r + 1 < rounds:
                alive.sort(key=lambda i: -totals[i] / counts[i])  # stable: ties keep order
                alive = sorted(alive[: (len(alive) + 1) // 2])
        best = max(alive, key=lambda i: (totals[i] / counts[i], -i))
        self._note = search_note(view, options, totals, counts, best)
        z = settings.prior or 0.0
        if best != prior and prior in alive and z > 0:
            # Keep the prior's pick unless the best is better by ``prior`` standard errors of
            # the paired difference (both stayed alive, so ``counts`` are their shared samples).
            n = counts[best]
            mean = gain[best] / n
            variance = max(0.0, gain_sq[best] / n - mean * mean) / max(1, n - 1)
            if mean <= z * math.sqrt(variance):
                return options[prior]
        return options[best]

    def _playouts(self, view: Observation, settings: Settings) -> Playouts:
        """How a sample is played out for each option: the core's random playouts, or
        with ``rollout=rule`` tiles chosen by a rule: in the card game's tile choice the rule
        of :mod:`arena.bots.rollouts`, in the board game its :class:`~.rollouts.Rule`."""
        pending = view.pending
        assert pending is not None
        rule, explore = self._rule(view, settings), settings.explore
        if rule is not None:
            return lambda pos, rng, seat, ds: pos.playouts(rng, seat, ds, rule=rule)
        if settings.rollout == "rule" and pending.kind is DecisionKind.TILE:  # the card game
            return lambda pos, rng, seat, ds: classic_playouts(pos, rng, seat, ds, explore)
        return Position.playouts

    @staticmethod
    def _rule(view: Observation, settings: Settings) -> Rule | None:
        """The rule for the board game's rollouts (:class:`~arena.bots.rollouts.Rule`, the
        ``rule`` of :meth:`Position.playouts <arena.engine.playout.Position.playouts>`), or
        ``None``."""
        if settings.rollout == "rule" and not variant(view.variant).classic:
            return Rule(settings.explore)
        return None

    def _opponent_model(self, view: Observation, settings: Settings) -> Model | None:
        """What is done to each sample before it is played out (``None``: nothing): for a tile
        choice the other seats' tiles of this turn are drawn from the softmax of
        :func:`landing_values`; with ``actions=none`` the action cards leave the rollouts."""
        pending = view.pending
        assert pending is not None
        temperature = settings.temperature
        waiting: list[int] = []
        if pending.kind is DecisionKind.TILE and temperature:
            waiting = [s for s in pending.seats if s != view.seat]
        quiet = _quiet(view, settings)
        if not waiting and not quiet:
            return None
        weight = [math.exp(v / temperature) for v in landing_values(view)] if waiting else []
        # An action card asked for now must stay in the hand that plays it.
        own = list(view.action_cards) if pending.kind is DecisionKind.ACTION else []
        held: list[list[str]] = [own if s == view.seat else [] for s in range(view.players)]

        def model(pos: Position, rng: Random) -> Position:
            # The sample is the sampler's own (Sampler.position): changed in place, not
            # copied again. Its tables (``_fast``) stay right: a tile moves from a hand to the
            # chosen ones.
            chosen = pos.chosen
            if waiting:
                draw_by_weight(rng, pos.hands, chosen, waiting, weight)
            if quiet:
                pos.held = held
                pos.action_deck = []
            pos.to_choose = tuple(s for s in pos.to_choose if chosen[s] is None)
            return pos

        return model


def _quiet(view: Observation, settings: Settings) -> bool:
    """Whether the action cards leave the rollouts (``actions=none`` in a variant with them)."""
    return settings.actions == "none" and variant(view.variant).actions


def _add_up(
    values: list[float],
    alive: list[int],
    prior: int,
    totals: list[float],
    counts: list[int],
    gain: list[float],
    gain_sq: list[float],
) -> None:
    """Add a round's playout ``values`` (options ``alive`` in turn, over and over) to the
    options' sums, and the paired differences from ``prior``'s (0 if it is out) to ``gain``
    and ``gain_sq``: each sum in the order of the playouts, as one playout at a time."""
    width = len(alive)
    base = values[alive.index(prior) :: width] if prior in alive else [0.0] * (len(values) // width)
    for j, i in enumerate(alive):
        mine = values[j::width]
        diff = list(map(sub, mine, base))
        totals[i] = reduce(add, mine, totals[i])
        counts[i] += len(mine)
        gain[i] = reduce(add, diff, gain[i])
        gain_sq[i] = reduce(add, map(pow, diff, repeat(2)), gain_sq[i])


def landing_values(view: Observation) -> list[float]:
    """Per tile number, what it is worth to its player to land alone on the current board
    (points; the card game counts penalty points as negative): the space's effect, the row's
    bullheads for completing it, the cheapest row for a card game card below every row.

    >>> from arena.engine import Game
    >>> from arena.engine.observation import observe
    >>> values = landing_values(observe(Game.new("classic", players=4, seed=1), 0))
    >>> len(values), max(values)
    (105, 0.0)
    """
    v = variant(view.variant)
    bh = reading(view.rules).bullheads(v)  # the game's reading: tile 55 carries 5 or 7
    spaces = view.spaces
    fill = [next_space(row) for row in spaces]
    stops = set(view.stops)
    rsum = [sum(bh[t] for t in row if t > 0) for row in spaces]
    values = [0.0] * (v.tiles + 1)
    for t in range(1, v.tiles + 1):
        row = target_row(t, spaces, fill, stops, v.classic)
        if row is None:  # card game, below every row: its player takes the cheapest
            values[t] = -float(min(rsum))
            continue
        f = fill[row]
        if v.classic:
            values[t] = -float(rsum[row]) if f == len(spaces[row]) else 0.0
            continue
        layout, markers = view.layout[row], view.markers[row]
        if f >= len(layout) - 1:  # the final space: completing the row
            bonus = 10.0 if markers[-1] == "final10" else 0.0
            taken = float(rsum[row])
            values[t] = bonus - (taken / 2 if layout[-1] == "C" else taken)
        elif markers[f] == "plus5":
            values[t] = 5.0
        else:
            values[t] = {"+": bh[t], "-": -bh[t], "D": -0.5, "A": 1.0}.get(layout[f], 0.0)
    return values


def _value_function(view: Observation, objective: str) -> Callable[[Sequence[float]], float]:
    seat = view.seat
    sign = -1.0 if variant(view.variant).classic else 1.0  # the card game counts penalties
    others = view.players - 1

    def score(scores: Sequence[float]) -> float:
        return sign * scores[seat]

    def margin(scores: Sequence[float]) -> float:
        own = scores[seat]
        return sign * (own - (sum(scores) - own) / others)

    if objective == "score" and sign > 0:
        # the seat's own score as it is: integer scores sum as their floats would
        return itemgetter(seat)
    return score if objective == "score" else margin
