"""Ladders (one per variant and player count), each bot's rating on them, and its history.

A :class:`Rating` holds a bot's current Elo (provisional for its first 20 games), OpenSkill
``mu``/``sigma`` and Margin ``mu``/``sigma`` on one ladder; a :class:`RatingChange` records one
match's effect on it, so the full history can be shown and re-computed (``manage.py
recompute_ratings``). The numbers come from :mod:`ladders.rating`.

A ladder's matches are *duplicate* by default (:meth:`Ladder.match_format`): each deal is
played once per seat rotation, so the luck of the deal cancels between the bots; a line-up with
a remote bot, which could remember a deal from one rotation to the next, plays single games.
"""

import uuid

from core.urls import url_with_uuid
from django.db import models
from django.utils import timezone

from arena.engine.variants import VARIANT_NAMES
from ladders.rating import (
    EloCalculator,
    EloRating,
    MarginCalculator,
    MarginRating,
    SkillCalculator,
    SkillRating,
)

ELO = EloCalculator()
SKILL = SkillCalculator()
MARGIN = MarginCalculator()

#: The rating a ladder's table is ordered by: the one ``benchmarks/ratings.py`` shows to find
#: the true order in the fewest games.
STANDINGS_RATING = "margin"
#: The column that ordering reads (``Rating.margin`` is Margin's ``mu - 2·sigma``).
STANDINGS_COLUMNS = {"margin": "margin", "elo": "elo"}

#: The longest duplicate match a ladder plays: a table of ``players`` bots needs ``players``
#: games per deal, one per seat rotation.
DUPLICATE_MAX_GAMES = 10

#: How many of a bot's last games a trend line draws (the ladder tables and the home page).
TREND_GAMES = 20


class Ladder(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=20, choices=[(v, v) for v in VARIANT_NAMES])
    players = models.PositiveSmallIntegerField()
    is_active = models.BooleanField(default=True, help_text="The scheduler plays matches here.")
    duplicate = models.BooleanField(
        default=True,
        help_text="Play each deal once per seat rotation, so that the luck of the deal cancels "
        f"(when a match of the table's size fits in {DUPLICATE_MAX_GAMES} games).",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # When the ratings last started afresh (a season's end that resets them): they count the
    # matches finished since then only, live and recomputed alike; empty: every match.
    ratings_since = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ("variant", "players")
        constraints = (
            models.UniqueConstraint(fields=["variant", "players"], name="one_ladder_per_format"),
        )

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return url_with_uuid("ladder", self.uuid)

    def match_format(self, games_per_match: int, *, remote: bool = False) -> tuple[int, bool]:
        """``(games, duplicate)`` of this ladder's next match, ``games_per_match`` being the
        site's setting: a duplicate match plays ``games_per_match // players`` deals (at least
        one) in every seat rotation, if that fits in :data:`DUPLICATE_MAX_GAMES` games. A
        line-up with a ``remote`` bot (on its owner's machine, which could remember a deal
        from one rotation to the next) plays single games.

        >>> Ladder(players=4).match_format(1), Ladder(players=4).match_format(9)
        ((4, True), (8, True))
        >>> Ladder(players=4, duplicate=False).match_format(1)
        (1, False)
        >>> Ladder(players=4).match_format(1, remote=True)
        (1, False)
        """
        games = self.players * max(1, games_per_match // self.players)
        if self.duplicate and not remote and games <= DUPLICATE_MAX_GAMES:
            return games, True
        return games_per_match, False


def ladder_map() -> dict[int, Ladder]:
    """Every ladder by id (a handful: one per variant and player count)."""
    return Ladder.objects.in_bulk()


class Rating(models.Model):
    ladder = models.ForeignKey(Ladder, models.CASCADE, related_name="ratings")
    bot = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="ratings")
    elo = models.FloatField(default=ELO.initial)
    mu = models.FloatField(default=SKILL.mu)
    sigma = models.FloatField(default=SKILL.sigma)
    margin_mu = models.FloatField(default=MARGIN.rating("new").mu)
    margin_sigma = models.FloatField(default=MARGIN.sigma)
    # Margin's ``mu - 2·sigma``, stored because the table is ordered by it (an index).
    margin = models.FloatField(default=MARGIN.rating("new").value)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)
    # The trend lines: Margin's mu and Elo over the last TREND_GAMES games, oldest first (the
    # value before the first of them too), written as each match is rated, so that a table
    # draws its trends from its own rows and never reads the history.
    margin_trend = models.JSONField(default=list, blank=True)
    elo_trend = models.JSONField(default=list, blank=True)
    # The bot page's charts: ``[games, value, ±]`` points, oldest first, thinned as they grow
    # (ladders.services.extend_chart), so that the page never reads the history.
    margin_chart = models.JSONField(default=list, blank=True)
    elo_chart = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["ladder", "bot"], name="one_rating_per_bot_and_ladder"),
        )
        indexes = (
            # Standings by Elo: WHERE ladder_id = %s ORDER BY elo DESC
            models.Index(fields=["ladder", "-elo"], name="rating_standings"),
            # Standings by Margin (the default): WHERE ladder_id = %s ORDER BY margin DESC
            models.Index(fields=["ladder", "-margin"], name="rating_standings_margin"),
        )

    def __str__(self) -> str:
        return f"{self.bot} on {self.ladder}: {self.elo:.0f}"

    @property
    def provisional(self) -> bool:
        return ELO.is_provisional(self.games)

    @property
    def uncertainty(self) -> float:
        return ELO.uncertainty(self.elo_record())

    @property
    def ordinal(self) -> float:
        return self.skill_record().ordinal

    def elo_record(self) -> EloRating:
        return EloRating(str(self.bot_id), self.elo, self.games, self.provisional)

    def skill_record(self) -> SkillRating:
        return SkillRating(str(self.bot_id), self.mu, self.sigma, self.games)

    def margin_record(self) -> MarginRating:
        return MarginRating(str(self.bot_id), self.margin_mu, self.margin_sigma, self.games)


class RatingChange(models.Model):
    """One match's effect on one bot's rating (a row per bot per rated match)."""

    rating = models.ForeignKey(Rating, models.CASCADE, related_name="changes")
    match = models.ForeignKey("matches.Match", models.CASCADE, related_name="rating_changes")
    rank = models.PositiveSmallIntegerField()
    elo_before = models.FloatField()
    elo_after = models.FloatField()
    mu_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_before = models.FloatField()
    sigma_after = models.FloatField()
    # Null for changes recorded before the Margin rating existed (until a recompute).
    margin_mu_before = models.FloatField(null=True, blank=True)
    margin_mu_after = models.FloatField(null=True, blank=True)
    margin_sigma_before = models.FloatField(null=True, blank=True)
    margin_sigma_after = models.FloatField(null=True, blank=True)
    games_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("created_at", "pk")
        constraints = (
            # A match changes a rating at most once, whatever happens to the task that rates it.
            models.UniqueConstraint(fields=["rating", "match"], name="one_change_per_match"),
        )

    @property
    def elo_delta(self) -> float:
        return self.elo_after - self.elo_before


class Rival(models.Model):
    """A bot against one opponent on one ladder, over all the rated matches they played
    together: what the bot page's head-to-head table shows, added to as each match is rated
    (``ladders.services``), so that the table never reads the bot's matches."""

    bot = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="rivals")
    ladder = models.ForeignKey(Ladder, models.CASCADE, related_name="rivals")
    opponent = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)  # finished above the opponent
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    total = models.BigIntegerField(default=0)  # the bot's score minus the opponent's, summed
    squares = models.BigIntegerField(default=0)  # and the squares of those differences

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["bot", "ladder", "opponent"], name="one_rival_per_ladder"
            ),
        )
        indexes = (
            # The head-to-head table: WHERE bot_id = %s ORDER BY games DESC, opponent_id LIMIT n
            models.Index(fields=["bot", "-games", "opponent"], name="rival_most_games"),
        )

    def __str__(self) -> str:
        return f"{self.bot_id} against {self.opponent_id} on {self.ladder_id}: {self.games}"
