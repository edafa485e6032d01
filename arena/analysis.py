"""Decision analysis: what each option of a seat's decisions was worth, by sampling and playouts.

For one seat of a finished game (a ``nimmt-replay/1`` replay), every decision that seat took
with more than one legal option is looked at from the seat's own view at that moment
(:func:`arena.engine.observation.observe`): the hidden information (the other hands, the
supply, the decks) is dealt at random consistently with that view
(:class:`arena.engine.sampling.Sampler`), each option is taken in the sample, and the rest of
the game is played out on the engine's lean path (:mod:`arena.engine.playout`). An option's
estimate is the mean of **the seat's own final score** over the samples (the variant's
scoring: points in the board game, penalty points in the card game, where less is better).

**Policy of the playouts.** An estimate says what an option is worth *if the game goes on as
the playouts play it*, not against the bots that really sat at the table:

- ``house`` (default): the ``search`` house bot's evaluation
  (:meth:`arena.bots.search.SearchBot.rollout`): for a tile choice the other seats' tiles of
  the current turn come from its opponent model (a softmax over what each tile is worth on
  the current board); after that every seat plays by the card game's rule that avoids the
  sixth card (:mod:`arena.bots.rollouts`), or uniformly at random in the board game, with the
  professional version's action cards left out of the playouts (the card asked about now is
  kept);
- ``random``: every later decision uniformly at random (:meth:`Position.playouts
  <arena.engine.playout.Position.playouts>`). Its expected values can be worked out exactly on
  small positions, and the tests check the estimates against that enumeration.

**Statistics.** Every option meets the same samples and the same random future (common
random numbers), so the *cost* of a decision, the best option's mean less the chosen one's
(in the variant's direction: never negative), is a mean of paired differences with a much
narrower interval than the means themselves. Intervals are 95% normal intervals
(:func:`arena.stats.confidence95`). The best option is picked by the same samples, so a cost
is slightly overstated when options are close (the winner's curse); a cost whose interval
reaches 0 says "no clear mistake".

**Budget.** ``samples`` deals per decision (every option played out once in each), so an
analysis is reproducible from its ``seed``; ``seconds`` stops before the next decision once
that much wall time has passed, and the result then says it is incomplete. Decisions with more
than :data:`arena.bots.mcs.MAX_OPTIONS` options (luck spaces, action cards with tile targets)
are cut to the ``mcs`` bot's shortlist, always keeping the option taken.

>>> from arena.engine import Game
>>> from arena.engine.replay import to_replay
>>> game = Game.new("classic", players=3, seed=5)
>>> while not game.is_over():
...     for seat in game.pending.seats:
...         game.apply(seat, game.legal(seat)[0])
>>> result = analyse(to_replay(game, ["a", "b", "c"]), seat=1, samples=8, seed=1)
>>> len(result.decisions), result.decisions[0].kind, result.complete
(10, 'tile', True)
>>> first = result.decisions[0]
>>> first.chosen in [o.decision for o in first.options], first.cost >= 0
(True, True)
"""

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from arena.bots.mcs import shortlist
from arena.bots.search import Model, Playouts, SearchBot
from arena.engine.decisions import (
    Decision,
    DecisionKind,
    PlaceLuck,
    PlayAction,
    PlayTile,
    TakeRow,
)
from arena.engine.frames import Film, UnverifiedReplayError
from arena.engine.game import Asked, Event
from arena.engine.observation import Observation, observe
from arena.engine.playout import Position
from arena.engine.record import GameRecord
from arena.engine.replay import as_record, replay_turn, simulate, start
from arena.engine.sampling import Sampler
from arena.engine.variants import variant
from arena.stats import confidence95, mean

__all__ = [
    "FORMAT",
    "POLICIES",
    "VERSION",
    "Analysis",
    "DecisionAnalysis",
    "DecisionPoint",
    "OptionEstimate",
    "analyse",
    "decision_points",
    "estimate",
]

FORMAT = "nimmt-analysis/1"
#: Raised whenever a change makes earlier results different (the site caches by it).
VERSION = 1
POLICIES = ("house", "random")
DEFAULT_SAMPLES = 200


@dataclass(frozen=True)
class DecisionPoint:
    """One decision of the seat, as the replay recorded it: ``view`` is what the seat saw when
    asked, ``frame`` the index of the viewer's frame (:mod:`arena.engine.frames`) after which
    the engine asked, ``chosen`` what the seat took."""

    turn: int
    frame: int
    view: Observation
    chosen: Decision


@dataclass(frozen=True)
class OptionEstimate:
    """One option's estimated final score of the seat: ``mean`` ± ``half`` (95% interval;
    ``nan`` below two samples) over ``samples`` playouts."""

    decision: Decision
    mean: float
    half: float
    samples: int


@dataclass(frozen=True)
class DecisionAnalysis:
    """One decision: the options estimated (``legal`` of them were legal), the one taken, the
    best by its mean, and the cost of the choice with its 95% half-width (paired)."""

    turn: int
    frame: int
    kind: str
    legal: int
    options: tuple[OptionEstimate, ...]
    chosen: Decision
    best: Decision
    cost: float
    cost_half: float

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "frame": self.frame,
            "kind": self.kind,
            "legal": self.legal,
            "chosen": str(self.chosen),
            "best": str(self.best),
            "cost": _number(self.cost),
            "cost_half": _number(self.cost_half),
            "options": [
                {
                    "decision": str(o.decision),
                    "mean": _number(o.mean),
                    "half": _number(o.half),
                    "samples": o.samples,
                }
                for o in self.options
            ],
        }


@dataclass(frozen=True)
class Analysis:
    """The analysis of one seat of one game (module docstring); :meth:`to_json` is what the
    site stores and the viewer draws."""

    variant: str
    seat: int
    policy: str
    samples: int
    seed: int
    higher_is_better: bool
    decisions: tuple[DecisionAnalysis, ...]
    complete: bool  # False: the time budget ran out before the last decision
    seconds: float  # wall time taken

    def costliest(self, n: int = 10) -> list[DecisionAnalysis]:
        """The ``n`` decisions whose choice cost the most, costliest first."""
        return sorted(self.decisions, key=lambda d: (-d.cost, d.frame))[:n]

    def to_json(self) -> dict[str, Any]:
        """``{"format": "nimmt-analysis/1", "version", "variant", "seat", "policy",
        "samples", "seed", "higher_is_better", "complete", "seconds", "decisions": [...],
        "costliest": [indices into decisions]}``; numbers that are not defined are null."""
        index = {id(d): i for i, d in enumerate(self.decisions)}
        return {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.variant,
            "seat": self.seat,
            "policy": self.policy,
            "samples": self.samples,
            "seed": self.seed,
            "higher_is_better": self.higher_is_better,
            "complete": self.complete,
            "seconds": round(self.seconds, 3),
            "decisions": [d.to_json() for d in self.decisions],
            "costliest": [index[id(d)] for d in self.costliest()],
        }


def _number(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


# ---------------------------------------------------------------------- the seat's decisions


def decision_points(replay: GameRecord | Mapping[str, Any], seat: int) -> list[DecisionPoint]:
    """Every decision ``seat`` of ``replay`` took with more than one legal option, in order.

    Raises :class:`~arena.engine.errors.ReplayError` for a replay that is not one and
    :class:`~arena.engine.frames.UnverifiedReplayError` for one that does not re-simulate.
    """
    record = as_record(replay)
    _final, problems = simulate(record)
    if problems:
        raise UnverifiedReplayError(problems)
    game = start(record)
    if not 0 <= seat < game.players:
        raise ValueError(f"there is no seat {seat} (seats 0..{game.players - 1})")
    film = Film(game)  # listens first, so its frame for a step is noted before the ask
    game.listen(film.step)
    # (turn, frame, view, choices recorded so far in the turn) per ask of the seat.
    asked: list[tuple[int, int, Observation, int]] = []

    def note(pending_seats: Sequence[int], kind: DecisionKind) -> None:
        if seat not in pending_seats:
            return
        view = observe(game, seat)
        if len(view.legal) < 2:
            return
        if kind is DecisionKind.TILE:
            asked.append((len(game.turns) + 1, len(film.notes) - 1, view, 0))
        else:
            turn = len(game.turns)
            asked.append((turn, len(film.notes) - 1, view, len(game.turns[-1].choices)))

    def listener(event: Event) -> None:
        if isinstance(event, Asked):
            note(event.pending.seats, event.pending.kind)

    assert game.pending is not None
    note(game.pending.seats, game.pending.kind)  # the first turn was asked before listening
    game.listen(listener)
    for played in record.turns:
        replay_turn(game, played)
    points = []
    for turn, frame, view, done in asked:
        pending = view.pending
        assert pending is not None
        if pending.kind is DecisionKind.TILE:
            tile = record.turns[turn - 1].plays[seat]
            assert tile is not None, "the seat was asked for a tile, so it played one"
            chosen: Decision = PlayTile(tile)
        else:
            recorded = game.turns[turn - 1].choices
            nxt = recorded[done] if done < len(recorded) else None
            chosen = _recorded(nxt, seat, pending.kind, pending.tile)
        points.append(DecisionPoint(turn, frame, view, chosen))
    return points


def _recorded(
    choice: dict[str, Any] | None, seat: int, kind: DecisionKind, tile: int | None
) -> Decision:
    """The decision a turn's recorded choice holds for an ask of ``seat``; an action card not
    recorded there was declined (replays keep no entry for it)."""
    ours = choice is not None and choice["seat"] == seat and choice["kind"] == kind.value
    if kind is DecisionKind.ACTION:
        if choice is None or not ours or choice.get("tile") != tile:
            return PlayAction(None)
        return PlayAction(choice["card"], choice.get("row"), choice.get("new_tile"))
    assert choice is not None and ours, "the replay verified, so the seat's choice is recorded"
    if kind is DecisionKind.LUCK:
        return PlaceLuck(choice["row"], choice["space"])
    return TakeRow(choice["row"])


# ---------------------------------------------------------------------------- estimates


def estimate(
    view: Observation,
    options: Sequence[Decision],
    rng: Random,
    samples: int,
    policy: str = "house",
) -> list[list[float]]:
    """Per option, the seat's final score in each of ``samples`` playouts: sample ``k`` of every
    option starts from the same deal and the same random state (module docstring)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; policies: {', '.join(POLICIES)}")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    seat = view.seat
    sampler = Sampler(view)
    model: Model | None = None
    playouts: Playouts = Position.playouts
    if policy == "house":
        model, playouts = SearchBot().rollout(view)
    chosen = list(options)
    values: list[list[float]] = [[] for _ in chosen]
    for _ in range(samples):
        pos = sampler.position(rng)
        if model is not None:
            pos = model(pos, rng)
        for row, scores in zip(values, playouts(pos, rng, seat, chosen), strict=True):
            row.append(float(scores[seat]))
    return values


def _analyse_point(
    point: DecisionPoint, rng: Random, samples: int, policy: str, sign: float
) -> DecisionAnalysis:
    view = point.view
    options = shortlist(view, rng)
    if point.chosen not in options:
        options[-1] = point.chosen
    values = estimate(view, options, rng, samples, policy)
    means = [mean(v) for v in values]
    best = max(range(len(options)), key=lambda i: (sign * means[i], -i))
    chosen = options.index(point.chosen)
    paired = [sign * (b - c) for b, c in zip(values[best], values[chosen], strict=True)]
    assert view.pending is not None
    return DecisionAnalysis(
        turn=point.turn,
        frame=point.frame,
        kind=view.pending.kind.value,
        legal=len(view.legal),
        options=tuple(
            OptionEstimate(d, m, confidence95(v), len(v))
            for d, m, v in zip(options, means, values, strict=True)
        ),
        chosen=point.chosen,
        best=options[best],
        cost=mean(paired),
        cost_half=confidence95(paired),
    )


def analyse(
    replay: GameRecord | Mapping[str, Any],
    seat: int,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    policy: str = "house",
    seconds: float | None = None,
) -> Analysis:
    """The analysis of ``seat`` (0-based, the replay's seat) of ``replay`` (module docstring).

    Each decision draws from its own generator, seeded by ``seed``, the seat and its index, so
    a result is the same whenever it is computed, and an incomplete one agrees with a complete
    one as far as it goes.
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; policies: {', '.join(POLICIES)}")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    began = time.monotonic()
    record = as_record(replay)
    points = decision_points(record, seat)
    v = variant(record.variant)
    sign = 1.0 if v.higher_is_better else -1.0
    done: list[DecisionAnalysis] = []
    complete = True
    for k, point in enumerate(points):
        if seconds is not None and time.monotonic() - began >= seconds:
            complete = False
            break
        rng = Random(f"nimmt-analysis:{seed}:{seat}:{k}")
        done.append(_analyse_point(point, rng, samples, policy, sign))
    return Analysis(
        variant=v.name,
        seat=seat,
        policy=policy,
        samples=samples,
        seed=seed,
        higher_is_better=v.higher_is_better,
        decisions=tuple(done),
        complete=complete,
        seconds=time.monotonic() - began,
    )
