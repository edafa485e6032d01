"""What two bots did together: every match they shared, and their totals per kind of game.

A pair is kept once, from the side of the bot with the lower id (``bot``); the page of the
other order turns the signs. A pair's games fall into *kinds*: variant, table size, and rated
(a ladder match) or not (a challenge, a tournament, a table with people). Within a kind the
shared matches are numbered in the order they were recorded (``seq``), and each
:class:`PairGame` keeps the kind's running totals after it, so that

* the page's breakdown reads one :class:`Matchup` row per kind (its totals), and
* the history chart of a kind reads the ≤ 49 :class:`PairGame` rows at the numbers
  :func:`ladders.services.chart_games` picks, by index,

and neither depends on how many games the pair or the league has played.

The *edge* is ``bot``'s points per game minus ``opponent``'s on the same deal, deal by deal (a
duplicate deal's points over its seat rotations, divided by them), with the card game's penalty
points negated so that higher is better; its totals are the sums of the per-deal edges and of
their squares (:func:`core.stats.compare_sums`).
"""

from django.db import models


class Matchup(models.Model):
    """A pair's totals over one kind of game (variant, table size, rated or not)."""

    bot = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="+", db_index=False)
    opponent = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="+")
    variant = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    rated = models.BooleanField()
    games = models.PositiveIntegerField(default=0)  # shared matches (the last seq)
    deals = models.PositiveIntegerField(default=0)
    total = models.FloatField(default=0.0)  # Σ edge per deal
    squares = models.FloatField(default=0.0)  # Σ edge² per deal
    wins = models.PositiveIntegerField(default=0)  # matches ``bot`` finished above
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = (
            # Also the page's read: WHERE bot_id = %s AND opponent_id = %s
            models.UniqueConstraint(
                fields=["bot", "opponent", "variant", "players", "rated"], name="matchup_kind"
            ),
        )


class PairGame(models.Model):
    """One match two bots shared, and their kind's running totals after it."""

    bot = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="+", db_index=False)
    opponent = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="+")
    match = models.ForeignKey("matches.Match", models.CASCADE, related_name="+", db_index=False)
    match_created_at = models.DateTimeField()
    variant = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    rated = models.BooleanField()
    bot_score = models.IntegerField()
    opponent_score = models.IntegerField()
    bot_rank = models.PositiveSmallIntegerField()
    opponent_rank = models.PositiveSmallIntegerField()
    deals = models.PositiveIntegerField()
    edge = models.FloatField()  # Σ edge per deal in this match
    # The kind's running totals after this match (Matchup's fields as they were then).
    seq = models.PositiveIntegerField()
    sum_deals = models.PositiveIntegerField()
    sum_total = models.FloatField()
    sum_squares = models.FloatField()

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["match", "bot", "opponent"], name="pair_game_once"),
            # The history chart: WHERE bot_id = %s AND opponent_id = %s AND variant = %s
            # AND players = %s AND rated = %s AND seq IN (...)
            models.UniqueConstraint(
                fields=["bot", "opponent", "variant", "players", "rated", "seq"],
                name="pair_game_seq",
            ),
        )
        indexes = (
            # The shared games, newest first, paged by key: WHERE bot_id = %s AND
            # opponent_id = %s [AND (match_created_at, match_id) < (%s, %s)]
            # ORDER BY match_created_at DESC, match_id DESC LIMIT 51
            models.Index(
                fields=["bot", "opponent", "-match_created_at", "-match"], name="pair_game_list"
            ),
        )


class RecordedMatch(models.Model):
    """A match whose pairs were recorded (none, for a match of one bot or a version test's):
    recording is done once, and the sweeper finds what is missing."""

    match = models.OneToOneField(
        "matches.Match", models.CASCADE, primary_key=True, related_name="+"
    )
