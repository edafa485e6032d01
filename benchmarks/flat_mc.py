"""The baseline the house bots are measured against: a plain flat Monte Carlo sampler.

For each decision it deals the tiles and cards it cannot see at random
(:class:`~arena.engine.sampling.Sampler`), plays every legal option once in that sample to the
end of the game with uniformly random decisions for every seat (the lean path,
:meth:`Position.playouts <arena.engine.playout.Position.playouts>`, which gives every option the
same randomness), and repeats until the time is up; the option with the best mean *own* score
wins (card game: the fewest penalty points). No horizon, no pruning, no allocation: every
option gets every sample. This is the strongest published approach to the card game, and the
one issue 16 measured ``mcs`` against.

Options: ``ms=N`` (default 30) milliseconds per decision on clock ``clock=wall|cpu``
(:mod:`arena.bots.timing`), or ``samples=N`` to fix the work (reproducible).

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> from arena.bots.base import GameInfo
>>> view = observe(Game.new("classic", players=4, seed=3), 0)
>>> bot = FlatMonteCarloBot("samples=5")
>>> bot.start_game(GameInfo("classic", players=4, seat=0, seed=1))
>>> bot.decide(view) in view.legal
True
"""

from random import Random

from arena.bots.base import Bot, GameInfo
from arena.bots.timing import Deadline, clock_named
from arena.engine.decisions import Decision
from arena.engine.observation import Observation
from arena.engine.sampling import Sampler
from arena.engine.variants import variant


class FlatMonteCarloBot(Bot):
    """Uniform flat Monte Carlo over every legal option (module docstring)."""

    name = "flat"

    def __init__(self, options: str = "") -> None:
        self.ms = 30.0
        self.clock = "wall"
        self.samples: int | None = None
        for part in filter(None, (p.strip() for p in options.replace(";", ",").split(","))):
            key, _, value = part.partition("=")
            if key not in ("ms", "clock", "samples"):
                raise ValueError(f"bot 'flat': unknown option {key!r}; options: ms, clock, samples")
            try:
                if key == "clock":
                    clock_named(value)
                    self.clock = value
                elif key == "ms":
                    self.ms = float(value)
                    if not self.ms > 0:
                        raise ValueError(value)
                else:
                    self.samples = int(value)
                    if self.samples <= 0:
                        raise ValueError(value)
            except ValueError:
                raise ValueError(f"bot 'flat': bad value {value!r} for {key!r}") from None
        self._rng = Random(0)

    def start_game(self, info: GameInfo) -> None:
        self._rng = Random(info.seed)

    def decide(self, view: Observation) -> Decision:
        legal = list(view.legal)
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to decide")
        if len(legal) == 1:
            return legal[0]
        deadline = Deadline(self.ms, self.clock)
        sampler = Sampler(view)
        seat, rng = view.seat, self._rng
        totals = [0.0] * len(legal)
        done = 0
        while True:
            results = sampler.position(rng).playouts(rng, seat, legal)
            for i, scores in enumerate(results):
                totals[i] += scores[seat]
            done += 1
            if done == self.samples or (self.samples is None and deadline.expired()):
                break
        sign = -1.0 if variant(view.variant).classic else 1.0
        best = max(range(len(legal)), key=lambda i: (sign * totals[i], -i))
        return legal[best]
