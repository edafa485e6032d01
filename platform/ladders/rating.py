"""Ratings of bots from finished multi-player games: Elo, OpenSkill (Plackett–Luce) and Margin.

A pure calculator over immutable rating records: it takes the ratings of a game's seats and
their ranks (1 = best, ties allowed; the arena already ranks a faulted seat last) and returns new
records. Nothing here touches the database; the ladder stores what it returns.

- :class:`EloCalculator` scores a game of n seats as the n·(n-1)/2 pairwise results between them
  and shares the K factor over the n-1 opponents; new bots are *provisional* for their first
  20 games and move faster (K 40, then 20). :meth:`EloCalculator.uncertainty` gives the ± the
  site shows next to an Elo.
- :class:`SkillCalculator` is OpenSkill's Plackett–Luce model (``openskill`` package): a skill
  ``mu`` with its uncertainty ``sigma``; the ladder sorts by ``ordinal = mu - 3·sigma``.
- :class:`MarginCalculator` learns from the *points*, not the places: a Gaussian (Thurstone)
  model of each seat's score per deal, ``score = skill + deal effect + noise``, whose deal effect
  cancels between the seats of a deal. A skill ``mu`` in points per game above an average bot,
  with its uncertainty ``sigma``; a duplicate deal (played once per seat rotation) is a much
  sharper observation than a single game, and the model knows by how much.
- :func:`apply_games` replays games in order and returns one :class:`RatingChange` (before,
  after, delta) per bot and game, so the site can recompute a ladder and keep its full history.

>>> elo = EloCalculator()
>>> alice, bob, carol = elo.rating("alice"), elo.rating("bob"), elo.rating("carol")
>>> [round(r.elo, 2) for r in elo.rate([alice, bob, carol], ranks=[1, 2, 2])]
[1520.0, 1490.0, 1490.0]
>>> skill = SkillCalculator()
>>> [round(r.ordinal, 3) for r in skill.rate([skill.rating("alice"), skill.rating("bob")], [1, 2])]
[3.438, -1.833]
>>> margin = MarginCalculator(beta=10.0)
>>> deal = DealScores(scores=(30.0, 10.0), games=1)
>>> [round(r.mu, 3) for r in margin.rate([margin.rating("alice"), margin.rating("bob")], [deal])]
[5.0, -5.0]
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from openskill.models import PlackettLuce

__all__ = [
    "Calculator",
    "DealScores",
    "EloCalculator",
    "EloRating",
    "GameResult",
    "MarginCalculator",
    "MarginRating",
    "Rating",
    "RatingChange",
    "SkillCalculator",
    "SkillRating",
    "apply_games",
    "expected_score",
    "match_deals",
]


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EloRating:
    """One bot's Elo after some games.

    ``provisional`` is set by the calculator that made the record (true while the bot has played
    fewer than its ``provisional_games``); it is stored so that a record read back from the
    database can be shown without the calculator. The calculator itself decides from ``games``.

    >>> EloRating("alice")
    EloRating(bot_id='alice', elo=1500.0, games=0, provisional=True)
    >>> EloRating("alice", games=-1)
    Traceback (most recent call last):
    ...
    ValueError: EloRating 'alice': games must be >= 0, not -1.
    """

    bot_id: str
    elo: float = 1500.0
    games: int = 0
    provisional: bool = True

    def __post_init__(self) -> None:
        _check_record(type(self).__name__, self.bot_id, self.games)
        if not math.isfinite(self.elo):
            raise ValueError(f"EloRating {self.bot_id!r}: elo must be finite, not {self.elo}.")

    @property
    def value(self) -> float:
        """The number the ladder sorts by: the Elo itself."""
        return self.elo


@dataclass(frozen=True)
class SkillRating:
    """One bot's OpenSkill rating: skill ``mu`` and its uncertainty ``sigma`` (a Gaussian belief).

    >>> r = SkillRating("alice")
    >>> round(r.mu, 3), round(r.sigma, 3), round(r.ordinal, 3)
    (25.0, 8.333, 0.0)
    """

    bot_id: str
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    games: int = 0

    def __post_init__(self) -> None:
        _check_record(type(self).__name__, self.bot_id, self.games)
        if not math.isfinite(self.mu):
            raise ValueError(f"SkillRating {self.bot_id!r}: mu must be finite, not {self.mu}.")
        if not (math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(
                f"SkillRating {self.bot_id!r}: sigma must be finite and > 0, not {self.sigma}."
            )

    @property
    def ordinal(self) -> float:
        """``mu - 3·sigma``: a skill the bot has with about 99.9 % confidence (openskill's own)."""
        return self.mu - 3.0 * self.sigma

    @property
    def value(self) -> float:
        """The number the ladder sorts by: the ordinal, so that a lucky newcomer ranks low."""
        return self.ordinal


def _check_record(kind: str, bot_id: str, games: int) -> None:
    if not isinstance(bot_id, str) or not bot_id:
        raise ValueError(f"{kind}: bot_id must be a non-empty string, not {bot_id!r}.")
    if isinstance(games, bool) or not isinstance(games, int):
        raise TypeError(f"{kind} {bot_id!r}: games must be an int, not {type(games).__name__!r}.")
    if games < 0:
        raise ValueError(f"{kind} {bot_id!r}: games must be >= 0, not {games}.")


@dataclass(frozen=True)
class MarginRating:
    """One bot's Margin rating: skill ``mu`` in points per game above an average bot, and its
    uncertainty ``sigma`` (a Gaussian belief, as OpenSkill's, but on the points scale).

    >>> r = MarginRating("alice", mu=3.0, sigma=1.5)
    >>> r.value
    0.0
    >>> MarginRating("alice", sigma=0.0)
    Traceback (most recent call last):
    ...
    ValueError: MarginRating 'alice': sigma must be finite and > 0, not 0.0.
    """

    bot_id: str
    mu: float = 0.0
    sigma: float = 10.0
    games: int = 0

    def __post_init__(self) -> None:
        _check_record(type(self).__name__, self.bot_id, self.games)
        if not math.isfinite(self.mu):
            raise ValueError(f"MarginRating {self.bot_id!r}: mu must be finite, not {self.mu}.")
        if not (math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(
                f"MarginRating {self.bot_id!r}: sigma must be finite and > 0, not {self.sigma}."
            )

    @property
    def value(self) -> float:
        """The number the ladder sorts by: ``mu - 2·sigma``, a skill the bot has with about
        97.7 % confidence, so that a newcomer with two lucky deals ranks low."""
        return self.mu - 2.0 * self.sigma


class Rating(Protocol):
    """What every rating record has: the ladder code works with either kind."""

    @property
    def bot_id(self) -> str: ...

    @property
    def games(self) -> int: ...

    @property
    def value(self) -> float: ...


RatingT = TypeVar("RatingT", bound=Rating)


def _check_game(
    ratings: Sequence[object],
    ranks: Sequence[object],
    kind: type[EloRating] | type[SkillRating] | type[MarginRating],
) -> None:
    """Argument checks shared by both calculators, with messages that name the bad seat."""
    if not isinstance(ratings, Sequence) or isinstance(ratings, str):
        raise TypeError(
            f"Argument 'ratings' must be a list of {kind.__name__!r} objects, "
            f"not {type(ratings).__name__!r}."
        )
    if not isinstance(ranks, Sequence) or isinstance(ranks, str):
        raise TypeError(
            f"Argument 'ranks' must be a list of 'int' values, not {type(ranks).__name__!r}."
        )
    if len(ratings) < 2:
        raise ValueError(f"A game needs at least 2 seats, not {len(ratings)}.")
    if len(ranks) != len(ratings):
        raise ValueError(
            f"Argument 'ranks' must have the same number of elements as 'ratings' "
            f"({len(ratings)}), not {len(ranks)}."
        )
    seat_of: dict[str, int] = {}
    for seat, (rating, rank) in enumerate(zip(ratings, ranks, strict=True)):
        if not isinstance(rating, kind):
            raise TypeError(
                f"Argument 'ratings' must hold {kind.__name__!r} objects, "
                f"not {type(rating).__name__!r} (seat {seat})."
            )
        if isinstance(rank, bool) or not isinstance(rank, int):
            raise TypeError(
                f"Argument 'ranks' must hold 'int' values, not {type(rank).__name__!r} "
                f"(seat {seat})."
            )
        if rank < 1:
            raise ValueError(
                f"Argument 'ranks' must hold integers >= 1 (1 = best), not {rank} (seat {seat})."
            )
        bot_id = rating.bot_id
        if bot_id in seat_of:
            raise ValueError(
                f"Bot {bot_id!r} sits in seats {seat_of[bot_id]} and {seat}; "
                f"a bot can play only one seat per game."
            )
        seat_of[bot_id] = seat


# --------------------------------------------------------------------------------------------
# Elo
# --------------------------------------------------------------------------------------------


def expected_score(elo: float, opponent_elo: float, scale: float = 400.0) -> float:
    """Expected score of a player rated ``elo`` against one rated ``opponent_elo`` (Elo's logistic).

    ``E = 1 / (1 + 10 ** ((opponent_elo - elo) / scale))``: 0.5 between equals; on the usual
    400 scale a lead of 400 points means 10-to-1 odds (E = 10/11).

    >>> expected_score(1500, 1500)
    0.5
    >>> round(expected_score(1900, 1500), 4), round(10 / 11, 4)
    (0.9091, 0.9091)
    """
    return 1.0 / (1.0 + math.pow(10.0, (opponent_elo - elo) / scale))


# Standard error of a maximum-likelihood rating from one even game, in Elo points:
# the logistic's slope at E = 0.5 is ln(10)/400 · 1/4, so the Fisher information of one win/loss
# is (ln(10)/400)² / 4 and its inverse square root is 2 · 400/ln(10) ≈ 347.4.
_SE_ONE_GAME = 2.0 * 400.0 / math.log(10.0)


@dataclass(frozen=True)
class EloCalculator:
    """Elo for games of two or more seats, with a provisional period for new bots.

    Defaults (the ladder's configuration; change them only with a full recompute):

    - ``initial = 1500``: a new bot's Elo.
    - ``k_provisional = 40`` while the bot has played fewer than ``provisional_games = 20`` games,
      then ``k_established = 20`` (FIDE uses the same 40 → 20 step): a newcomer reaches its level
      in a few dozen games, an established rating then moves only on sustained evidence.
    - ``scale = 400``: the logistic scale (400 points = 10-to-1 odds).
    - ``max_uncertainty = 350``: the ± shown for a bot without games (Glicko's starting RD).

    A seat's K is chosen from its own games count *before* the game, so in a game between a
    provisional and an established bot the two changes differ (the game is not zero-sum then).

    >>> elo = EloCalculator()
    >>> a, b = elo.rate([EloRating("a", games=30), EloRating("b", games=30)], ranks=[1, 2])
    >>> a
    EloRating(bot_id='a', elo=1510.0, games=31, provisional=False)
    >>> b.elo
    1490.0
    """

    initial: float = 1500.0
    k_provisional: float = 40.0
    k_established: float = 20.0
    provisional_games: int = 20
    scale: float = 400.0
    max_uncertainty: float = 350.0

    def rating(self, bot_id: str) -> EloRating:
        """A new bot's rating: ``initial`` Elo, no games, provisional."""
        return EloRating(bot_id, self.initial, 0, self.is_provisional(0))

    def is_provisional(self, games: int) -> bool:
        """True while a bot with ``games`` games behind it is still provisional."""
        return games < self.provisional_games

    def k_factor(self, rating: EloRating) -> float:
        """The K used for this bot's next game."""
        return self.k_provisional if self.is_provisional(rating.games) else self.k_established

    def rate(self, ratings: Sequence[EloRating], ranks: Sequence[int]) -> list[EloRating]:
        """New ratings after one game, in the order of ``ratings``.

        ``ranks[i]`` is the finishing place of ``ratings[i]``: 1 = best; equal ranks are a tie.
        Only the order of ranks matters (1, 2, 2, 4 and 1, 2, 2, 3 rate the same).

        >>> elo = EloCalculator()
        >>> seats = [EloRating(bot, games=20) for bot in ("a", "b", "c", "d")]
        >>> [r.elo for r in elo.rate(seats, ranks=[1, 2, 2, 4])]
        [1510.0, 1500.0, 1500.0, 1490.0]
        >>> elo.rate(seats[:1], ranks=[1])
        Traceback (most recent call last):
        ...
        ValueError: A game needs at least 2 seats, not 1.
        """
        _check_game(ratings, ranks, EloRating)
        n = len(ratings)
        new: list[EloRating] = []
        for i, me in enumerate(ratings):
            # Step 1. The game counts as n-1 pairwise games against the other seats. Each pair's
            # result S is 1 for the better rank, 0.5 for equal ranks and 0 for the worse rank.
            actual = 0.0
            expected = 0.0
            for j, other in enumerate(ratings):
                if j == i:
                    continue
                if ranks[i] < ranks[j]:
                    actual += 1.0
                elif ranks[i] == ranks[j]:
                    actual += 0.5
                # Step 2. Each pair's expected score E from the rating difference (logistic).
                expected += expected_score(me.elo, other.elo, self.scale)
            # Step 3. K is shared over the opponents: each pair moves the rating by
            # K/(n-1) · (S - E), so a whole game moves it at most K, however many seats. Between
            # seats with the same K the pair terms cancel (S_ij + S_ji = E_ij + E_ji = 1): zero-sum.
            delta = self.k_factor(me) / (n - 1) * (actual - expected)
            games = me.games + 1
            new.append(EloRating(me.bot_id, me.elo + delta, games, self.is_provisional(games)))
        return new

    def uncertainty(self, rating: EloRating) -> float:
        """About one standard error of ``rating.elo``, in Elo points, for "1623 ± 42" displays.

        Elo carries no uncertainty of its own, so this is an estimate from the games count:

        1. *Too few games.* If the bot's N games were N independent even games against opponents
           of known strength, the best estimate of its rating would have a standard error of
           ``2 · 400/ln 10 / √N ≈ 347/√N``. A multi-player game is counted as one game: its
           pairwise results are correlated, so this errs on the large side.
        2. *K's own noise.* An Elo updated with step K never settles: around the true value it
           wanders with a standard deviation of about ``√(200·K/ln 10)`` (≈ 42 for K = 20,
           ≈ 59 for K = 40; from the linearised update between even players), so the ± never
           drops below that, however many games.

        The larger of the two is returned, capped at ``max_uncertainty`` (350 for a new bot).
        About two thirds of bots' true strengths lie within ± one such error.

        >>> elo = EloCalculator()
        >>> [round(elo.uncertainty(EloRating("a", games=g))) for g in (0, 1, 4, 20, 100, 5000)]
        [350, 347, 174, 78, 42, 42]
        """
        from_games = _SE_ONE_GAME / math.sqrt(rating.games) if rating.games else math.inf
        from_k = math.sqrt(200.0 * self.k_factor(rating) / math.log(10.0))
        return min(self.max_uncertainty, max(from_games, from_k))


# --------------------------------------------------------------------------------------------
# OpenSkill (Plackett–Luce)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SkillCalculator:
    """OpenSkill's Plackett–Luce model (Weng & Lin 2011, Algorithm 4) with every seat a team of one.

    The parameters are openskill's defaults: a new bot starts at ``mu = 25`` with
    ``sigma = 25/3``; ``beta = 25/6`` is the spread of one game's performance around the skill;
    ``tau = 25/300`` is added (in quadrature) to sigma before each game so that a rating can
    still move after many games; ``kappa`` keeps variances positive.

    >>> skill = SkillCalculator()
    >>> a, b = skill.rate([skill.rating("a"), skill.rating("b")], ranks=[1, 1])
    >>> round(a.mu, 3), round(b.mu, 3), round(a.sigma, 3), a.games
    (25.0, 25.0, 8.066, 1)
    """

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    kappa: float = 0.0001
    tau: float = 25.0 / 300.0

    def rating(self, bot_id: str) -> SkillRating:
        """A new bot's rating: the prior ``mu`` and ``sigma``, no games."""
        return SkillRating(bot_id, self.mu, self.sigma, 0)

    def rate(self, ratings: Sequence[SkillRating], ranks: Sequence[int]) -> list[SkillRating]:
        """New ratings after one game, in the order of ``ratings`` (``ranks``: 1 = best, ties ok).

        >>> skill = SkillCalculator()
        >>> out = skill.rate([skill.rating(b) for b in "abcd"], ranks=[1, 2, 2, 4])
        >>> [(round(r.mu, 3), round(r.sigma, 3)) for r in out]
        [(27.795, 8.264), (24.689, 8.18), (24.689, 8.18), (22.826, 8.18)]
        """
        _check_game(ratings, ranks, SkillRating)
        # A fresh model per call: openskill's model object keeps state (``limit_sigma``) that
        # ``rate`` may change, and building one is cheap.
        model = PlackettLuce(
            mu=self.mu, sigma=self.sigma, beta=self.beta, kappa=self.kappa, tau=self.tau
        )
        # Each seat is its own team; openskill sorts the teams by rank, adds tau to every sigma,
        # applies the Plackett–Luce update, and returns the teams in the order given.
        teams = [[model.rating(mu=r.mu, sigma=r.sigma, name=r.bot_id)] for r in ratings]
        rated = model.rate(teams, ranks=[float(rank) for rank in ranks])
        return [
            SkillRating(old.bot_id, team[0].mu, team[0].sigma, old.games + 1)
            for old, team in zip(ratings, rated, strict=True)
        ]


# --------------------------------------------------------------------------------------------
# Margin (a Gaussian model of the points scored on shared deals)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealScores:
    """One deal of a match: each seat's points on it (seat order; higher = better, so the
    caller negates the penalty points of the card game) and how often it was played.

    ``games = 1`` is an ordinary game; ``games = n`` (the number of seats) means the deal was
    played once per seat rotation (a duplicate deal), each seat's entry then being its *total*
    over the ``n`` games, every bot having held every hand of the deal once.
    """

    scores: tuple[float, ...]
    games: int = 1


@dataclass(frozen=True)
class MarginCalculator:
    """A margin-aware rating: a Thurstone model on per-deal points, updated online (Kalman).

    **The model.** Bot ``i``'s points per game on deal ``d`` are
    ``y[d,i] = s[i] + c[d] + e[d,i]``: its skill ``s[i]`` (points per game above an average
    bot), the deal's effect ``c[d]`` shared by every seat (a high-scoring deal), and noise
    ``e[d,i] ~ N(0, v[d])``. ``c[d]`` is unknown, so only the *differences* between the seats
    of a deal carry information: the rating learns from score edges on shared deals, and a
    rout counts for more than a narrow win, which ranks throw away.

    **The noise.** A single game's noise includes the luck of the hand dealt to the seat:
    ``v = beta²`` per game. A duplicate deal gives every bot every hand once, so the hands'
    luck cancels from the differences and only the bots' own variation is left,
    ``beta_duplicate²`` per game, averaged over the ``n`` rotations: ``v = beta_duplicate²/n``.
    The model therefore trusts a duplicate deal more, by as much as it is worth.

    **The update.** Skills have a Gaussian belief ``N(mu[i], sigma[i]²)``, independent between
    bots (as in TrueSkill and OpenSkill). One match is an exact Bayesian update of the seats'
    joint Gaussian by all its deals at once, after which only each bot's marginal is kept
    (the usual assumed-density filtering); the steps are commented in :meth:`rate`. Before each
    match ``tau²`` is added to each variance so that a rating keeps moving as a bot improves.

    **Robustness.** A deal's centred points are clipped to ``± clip·beta`` and centred again
    (a crashed bot's record penalty teaches as much as a very bad game, not more).

    Defaults are those measured for 4-player *basic* games (``benchmarks/ratings.py``):
    ``beta = 16`` points per game, ``beta_duplicate = 12``; ``sigma = 10`` is a prior skill
    spread of that order. The other variants' points spread alike (about 8 to 11 points per
    game between the same bots), so one set of parameters serves every ladder.

    >>> margin = MarginCalculator(beta=10.0, beta_duplicate=4.0)
    >>> a, b = margin.rating("a"), margin.rating("b")
    >>> single = margin.rate([a, b], [DealScores((30.0, 10.0))])
    >>> rotated = margin.rate([a, b], [DealScores((60.0, 20.0), games=2)])
    >>> [round(r.mu, 2) for r in single], [round(r.mu, 2) for r in rotated]
    ([5.0, -5.0], [9.26, -9.26])
    """

    beta: float = 16.0
    beta_duplicate: float = 12.0
    sigma: float = 10.0
    tau: float = 0.05
    clip: float = 3.0

    def __post_init__(self) -> None:
        for name in ("beta", "beta_duplicate", "sigma", "clip"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"MarginCalculator: {name} must be finite and > 0, not {value}.")
        if not (math.isfinite(self.tau) and self.tau >= 0):
            raise ValueError(f"MarginCalculator: tau must be finite and >= 0, not {self.tau}.")

    def rating(self, bot_id: str) -> MarginRating:
        """A new bot's rating: an average bot (``mu = 0``) with the prior ``sigma``, no games."""
        return MarginRating(bot_id, 0.0, self.sigma, 0)

    def deal_variance(self, deal: DealScores, seats: int) -> float:
        """``v[d]``: the noise variance of one seat's mean points per game on ``deal``."""
        if deal.games == 1:
            return self.beta**2
        return self.beta_duplicate**2 / deal.games

    def rate(
        self, ratings: Sequence[MarginRating], deals: Sequence[DealScores]
    ) -> list[MarginRating]:
        """New ratings after one match of ``deals``, in the order of ``ratings`` (seat order).

        >>> margin = MarginCalculator(beta=10.0, tau=0.0)
        >>> seats = [margin.rating(bot) for bot in "abc"]
        >>> out = margin.rate(seats, [DealScores((9.0, 3.0, 0.0)), DealScores((6.0, 0.0, 3.0))])
        >>> [(round(r.mu, 3), round(r.sigma, 3), r.games) for r in out]
        [(2.667, 7.454, 1), (-1.333, 7.454, 1), (-1.333, 7.454, 1)]
        >>> margin.rate(seats, [DealScores((1.0, 2.0))])
        Traceback (most recent call last):
        ...
        ValueError: Deal 0 has 2 scores for 3 seats.
        """
        # The seat checks are the other calculators' (every seat "ranked 1": ranks play no part).
        seats = len(ratings) if isinstance(ratings, Sequence) else 0
        _check_game(ratings, [1] * seats, MarginRating)
        n = len(ratings)
        if not isinstance(deals, Sequence) or not deals:
            raise ValueError("A match needs at least one deal.")
        for number, deal in enumerate(deals):
            if not isinstance(deal, DealScores):
                raise TypeError(
                    f"Argument 'deals' must hold 'DealScores', not {type(deal).__name__!r} "
                    f"(deal {number})."
                )
            if len(deal.scores) != n:
                raise ValueError(f"Deal {number} has {len(deal.scores)} scores for {n} seats.")
            if deal.games not in (1, n):
                raise ValueError(
                    f"Deal {number} was played {deal.games} times; a deal is played once, "
                    f"or once per seat rotation ({n})."
                )
            if not all(math.isfinite(score) for score in deal.scores):
                raise ValueError(f"Deal {number} has a score that is not finite: {deal.scores}.")
        mu = [r.mu for r in ratings]
        # Step 1. Prior precision of each skill, after the drift: d[i] = 1/(sigma[i]² + tau²).
        prior = [1.0 / (r.sigma**2 + self.tau**2) for r in ratings]
        # Step 2. The deals' evidence. Centring a deal's points (subtracting their mean) removes
        # the unknown deal effect c[d]; the centred points y - ȳ observe s - s̄ with the
        # projection C = I - 11ᵀ/n. Summed over the deals with weights 1/v[d], the likelihood
        # of the skills has precision w·C, w = Σ 1/v[d], and information vector z = Σ C·y/v[d].
        w = 0.0
        z = [0.0] * n
        limit = self.clip * self.beta
        for deal in deals:
            v = self.deal_variance(deal, n)
            per_game = [score / deal.games for score in deal.scores]
            mean = sum(per_game) / n
            # Clipped, then centred again so that the clipped points still sum to zero.
            clipped = [max(-limit, min(limit, y - mean)) for y in per_game]
            again = sum(clipped) / n
            w += 1.0 / v
            for i, y in enumerate(clipped):
                z[i] += (y - again) / v
        # Step 3. The posterior precision is P = D + w·C = A - (w/n)·11ᵀ with A = diag(d + w):
        # a diagonal minus a rank-one term, so Sherman–Morrison inverts it in O(n):
        # P⁻¹ = U + γ·u·uᵀ with u[i] = 1/(d[i] + w), U = diag(u), γ = (w/n)/(1 - (w/n)·Σu).
        # (Σu < n/w, since each w·u[i] < 1, so the denominator is positive.)
        u = [1.0 / (d + w) for d in prior]
        gamma = (w / n) / (1.0 - (w / n) * sum(u))
        # Step 4. Posterior mean m' = P⁻¹(D·m + z) = m + P⁻¹(z - w·C·m): the evidence minus
        # what the current means already predict (the Kalman innovation), through P⁻¹.
        mean_mu = sum(mu) / n
        g = [z[i] - w * (mu[i] - mean_mu) for i in range(n)]
        ug = sum(u[i] * g[i] for i in range(n))
        new = []
        for i, rating in enumerate(ratings):
            after_mu = mu[i] + u[i] * g[i] + gamma * u[i] * ug
            # Step 5. Keep each bot's marginal: sigma'[i]² = (P⁻¹)[i,i] = u[i] + γ·u[i]².
            after_sigma = math.sqrt(u[i] + gamma * u[i] ** 2)
            new.append(MarginRating(rating.bot_id, after_mu, after_sigma, rating.games + 1))
        return new


def match_deals(
    deal_scores: Sequence[Sequence[float]], *, rotations: int, higher_is_better: bool
) -> list[DealScores]:
    """A match's deals as :meth:`MarginCalculator.rate` takes them, from each seat's points per
    deal (``deal_scores[seat][deal]``, as the site stores them); ``rotations`` is 1 for games
    of their own and the number of seats for duplicate deals. The card game's penalty points
    are negated, so that higher is better.

    >>> match_deals([[3, 10], [7, 2]], rotations=1, higher_is_better=False)
    [DealScores(scores=(-3.0, -7.0), games=1), DealScores(scores=(-10.0, -2.0), games=1)]
    """
    if len({len(seat) for seat in deal_scores}) > 1:
        raise ValueError("Every seat must have one score per deal.")
    sign = 1.0 if higher_is_better else -1.0
    return [
        DealScores(tuple(sign * seat[deal] for seat in deal_scores), rotations)
        for deal in range(len(deal_scores[0]) if deal_scores else 0)
    ]


# --------------------------------------------------------------------------------------------
# Replaying a ladder
# --------------------------------------------------------------------------------------------


class Calculator(Protocol[RatingT]):
    """What :func:`apply_games` needs: :class:`EloCalculator` and :class:`SkillCalculator` fit."""

    def rating(self, bot_id: str) -> RatingT: ...

    def rate(self, ratings: Sequence[RatingT], ranks: Sequence[int]) -> list[RatingT]: ...


@dataclass(frozen=True)
class GameResult:
    """A finished game as the ladder rates it: its bots by seat and their ranks (1 = best)."""

    game_id: Hashable
    bot_ids: tuple[str, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class RatingChange(Generic[RatingT]):
    """One bot's rating before and after one game: a row of the ladder's history."""

    game_id: Hashable
    rank: int
    before: RatingT
    after: RatingT

    @property
    def bot_id(self) -> str:
        """The bot whose rating changed."""
        return self.after.bot_id

    @property
    def delta(self) -> float:
        """Change of the ladder value (Elo, or OpenSkill's ordinal) in this game."""
        return self.after.value - self.before.value


def apply_games(
    calculator: Calculator[RatingT],
    games: Iterable[GameResult],
    ratings: Mapping[str, RatingT] | None = None,
) -> tuple[dict[str, RatingT], list[RatingChange[RatingT]]]:
    """Rate ``games`` in the order given, starting from ``ratings`` (others start new).

    Returns the final rating of every bot seen (including the unchanged ones from ``ratings``)
    and the history: one :class:`RatingChange` per bot per game, games in order, seats in order.
    A bad game raises the calculator's error with the game's id prepended; nothing is returned.

    >>> elo = EloCalculator()
    >>> games = [GameResult(1, ("alice", "bob"), (1, 2)), GameResult(2, ("bob", "alice"), (1, 2))]
    >>> final, history = apply_games(elo, games)
    >>> [(c.game_id, c.bot_id, round(c.before.elo, 1), round(c.delta, 1)) for c in history]
    [(1, 'alice', 1500.0, 20.0), (1, 'bob', 1500.0, -20.0), (2, 'bob', 1480.0, 22.3), (2, 'alice', 1520.0, -22.3)]
    >>> round(final["alice"].elo, 4), final["alice"].games
    (1497.7075, 2)
    """  # noqa: E501
    current: dict[str, RatingT] = dict(ratings or {})
    history: list[RatingChange[RatingT]] = []
    for game in games:
        before = [current[b] if b in current else calculator.rating(b) for b in game.bot_ids]
        try:
            after = calculator.rate(before, list(game.ranks))
        except (TypeError, ValueError) as error:
            raise type(error)(f"Game {game.game_id!r}: {error}") from error
        for old, new, rank in zip(before, after, game.ranks, strict=True):
            current[new.bot_id] = new
            history.append(RatingChange(game.game_id, rank, old, new))
    return current, history
