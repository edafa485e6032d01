"""Running tournaments: create (draft), start, advance round by round, cancel; read results.

Matches are queued through the ordinary match pipeline (``matches.tasks.run_match``), one game
each, so a match row is one game of the table. When a match of a tournament is done (finished
or given up) the pipeline says so (``matches.signals.match_ended``) and
:mod:`tournaments.tasks` sends the task ``advance_tournament``, which calls :func:`advance`;
beat calls it too for every running tournament, in case a message was lost. :func:`advance`
locks the tournament row, so two calls never schedule a round twice.
"""

import hashlib
import itertools
import math
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from accounts.models import User
from core.celery import enqueue
from core.stats import Comparison, compare_paired
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from matches.models import Match, Seat
from matches.tasks import run_match
from submissions.models import BotVersion

from arena.engine.errors import PlayerCountError
from arena.engine.variants import variant as get_variant
from tournaments import pairing
from tournaments.models import Entrant, Tournament
from tournaments.standings import Cell, GameRecord, Standing, crosstable, standings

ORGANISE_PERMISSION = "tournaments.organise_tournaments"
ORGANISERS_GROUP = "organisers"


class TournamentError(Exception):
    """Something an organiser asked that cannot be done; the message says why."""


def can_organise(user: User | AnonymousUser) -> bool:
    """Staff, or a user with the organiser permission (the ``organisers`` group has it)."""
    if not user.is_authenticated or not user.is_active:
        return False
    return bool(user.is_staff or user.has_perm(ORGANISE_PERMISSION))


def deal_seed(tournament_seed: int, round_number: int, deal: int) -> int:
    """The seed of deal ``deal`` of round ``round_number`` (a hash: rounds share no deals).

    >>> deal_seed(1, 1, 0) == deal_seed(1, 1, 0), deal_seed(1, 1, 0) == deal_seed(1, 2, 0)
    (True, False)
    """
    text = f"nimmt-tournament:{tournament_seed}:{round_number}:{deal}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big") >> 1  # 0 .. 2**31 - 1


def planned_games(tournament: Tournament, entrants: int) -> int:
    return pairing.planned_game_count(
        tournament.format,
        entrants,
        players=tournament.players,
        games=tournament.games_per_pairing,
        rounds=tournament.rounds,
    )


@transaction.atomic
def create(
    organiser: User,
    *,
    name: str,
    variant: str,
    players: int,
    format: str,
    games_per_pairing: int,
    rounds: int,
    versions: Sequence[BotVersion],
    seed: int | None = None,
) -> Tournament:
    """A draft tournament of ``versions`` (in seeding order); checks everything first."""
    if not can_organise(organiser):
        raise TournamentError("Only organisers create tournaments.")
    try:
        get_variant(variant).check_players(players)
    except PlayerCountError as error:
        raise TournamentError(str(error)) from None
    if format not in dict(Tournament.FORMATS):
        raise TournamentError(f"Unknown format {format!r}.")
    if len({v.pk for v in versions}) != len(versions):
        raise TournamentError("A version can enter only once.")
    if len(versions) < players:
        raise TournamentError(
            f"{len(versions)} entrant(s) cannot fill a table of {players}; choose more."
        )
    failing = [str(v) for v in versions if not v.passed]
    if failing:
        raise TournamentError(f"Only versions that passed validation may enter: {failing}.")
    remote = [str(v) for v in versions if v.is_remote]
    if format == Tournament.DUPLICATE and remote:
        raise TournamentError(
            f"A duplicate tournament plays each deal in every seat rotation, which a bot on its "
            f"owner's machine could remember from one game to the next: {remote} cannot enter "
            "it. Choose round robin or Swiss, or versions whose code the site runs."
        )
    if games_per_pairing < 1 or rounds < 1:
        raise TournamentError("Games per pairing and rounds must be at least 1.")
    if format != Tournament.SWISS:
        rounds = 1
    tournament = Tournament(
        name=name.strip() or "Tournament",
        organiser=organiser,
        variant=variant,
        players=players,
        format=format,
        games_per_pairing=games_per_pairing,
        rounds=rounds,
        seed=seed if seed is not None else secrets.randbits(31),
    )
    total = planned_games(tournament, len(versions))
    if total > settings.TOURNAMENT_MAX_GAMES:
        raise TournamentError(
            f"This tournament would play {total} games; the limit is "
            f"{settings.TOURNAMENT_MAX_GAMES}. Choose fewer entrants, games or rounds."
        )
    tournament.save()
    Entrant.objects.bulk_create(
        Entrant(tournament=tournament, version=v, bot_id=v.bot_id, number=n)
        for n, v in enumerate(versions, start=1)
    )
    return tournament


def start(tournament: Tournament, user: User) -> None:
    """Queue the first round (round robin and duplicate: every game)."""
    if not can_organise(user):
        raise TournamentError("Only organisers start tournaments.")
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.DRAFT:
            raise TournamentError(f"The tournament is {locked.status}; only a draft starts.")
        locked.status = Tournament.RUNNING
        locked.started_at = timezone.now()
        locked.current_round = 1
        locked.save(update_fields=["status", "started_at", "current_round"])
        _queue_round(locked, 1)
    tournament.refresh_from_db()


def cancel(tournament: Tournament, user: User) -> None:
    """Stop: games not started are given up; games under way finish and count."""
    if not can_organise(user):
        raise TournamentError("Only organisers cancel tournaments.")
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status not in (Tournament.DRAFT, Tournament.RUNNING):
            raise TournamentError(f"The tournament is already {locked.status}.")
        Match.objects.filter(tournament=locked, status=Match.QUEUED).update(
            status=Match.FAILED, error="The tournament was cancelled.", finished_at=timezone.now()
        )
        locked.status = Tournament.CANCELLED
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "finished_at"])
    tournament.refresh_from_db()


def advance(tournament_pk: int) -> str:
    """Move a running tournament on once its round is done: next Swiss round, or finish.

    Returns what happened (``"waiting"``, ``"round N"``, ``"finished"``, ``"idle"``).
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_pk).first()
        if tournament is None or tournament.status != Tournament.RUNNING:
            return "idle"
        busy = Match.objects.filter(
            tournament=tournament,
            round=tournament.current_round,
            status__in=[Match.QUEUED, Match.RUNNING],
        )
        if busy.exists():
            return "waiting"
        if tournament.format == Tournament.SWISS and tournament.current_round < tournament.rounds:
            tournament.current_round += 1
            tournament.save(update_fields=["current_round"])
            _queue_round(tournament, tournament.current_round)
            return f"round {tournament.current_round}"
        tournament.status = Tournament.FINISHED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        return "finished"


def _queue_round(tournament: Tournament, round_number: int) -> None:
    """Create and queue the games of ``round_number`` (inside the caller's transaction)."""
    entrants = list(tournament.entrants.order_by("number"))
    n = len(entrants)
    games_per = tournament.games_per_pairing
    if tournament.format == Tournament.ROUND_ROBIN:
        planned = pairing.round_robin(n, players=tournament.players, games=games_per)
    elif tournament.format == Tournament.DUPLICATE:
        planned = pairing.duplicate(n, players=tournament.players, deals=games_per)
    else:
        report = build_report(tournament)
        index = {e.pk: i for i, e in enumerate(entrants)}
        order = [index[row.entrant] for row in report.standings]
        met: Counter[tuple[int, int]] = Counter()
        for (a, b), cell in report.cells.items():
            if a < b:
                met[pairing.pair_key(index[a], index[b])] = cell.games
        byes = Counter({index[e]: count for e, count in report.byes.items()})
        planned, _ = pairing.swiss_round(
            order, players=tournament.players, games=games_per, met=met, byes=byes
        )
    for game in planned:
        match = Match.objects.create(
            tournament=tournament,
            round=round_number,
            variant=tournament.variant,
            players=tournament.players,
            games=1,
            seed=deal_seed(tournament.seed, round_number, game.deal),
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                match_created_at=match.created_at,
                seat=number,
                bot_id=entrants[e].bot_id,
                version_id=entrants[e].version_id,
            )
            for number, e in enumerate(game.seats)
        )
        enqueue(run_match, match_pk=match.pk)


# ---------------------------------------------------------------------------- reading results


@dataclass(frozen=True)
class Progress:
    total: int  # games created so far (Swiss: rounds so far)
    finished: int
    failed: int
    running: int
    planned: int  # games the whole tournament will play

    @property
    def done(self) -> int:
        return self.finished + self.failed

    @property
    def percent(self) -> int:
        return math.floor(100 * self.done / self.planned) if self.planned else 0


@dataclass(frozen=True)
class Gap:
    """Two neighbours of the table: is the upper one really better?"""

    upper: Entrant
    lower: Entrant
    comparison: Comparison


@dataclass(frozen=True)
class Report:
    tournament: Tournament
    entrants: list[Entrant]  # seeding order
    labels: dict[int, str]  # entrant pk -> "name" or "name v2" when a bot entered twice
    standings: list[Standing]  # entrant pk in Standing.entrant
    cells: dict[tuple[int, int], Cell]  # entrant pks
    byes: dict[int, int]
    gaps: list[Gap]
    progress: Progress


def _labels(entrants: list[Entrant]) -> dict[int, str]:
    per_bot = Counter(e.bot_id for e in entrants)
    return {
        e.pk: e.bot.name if per_bot[e.bot_id] == 1 else f"{e.bot.name} v{e.version.number}"
        for e in entrants
    }


def build_report(tournament: Tournament) -> Report:
    """Standings, crosstable, significance of neighbours and progress, in three queries."""
    entrants = list(tournament.entrants.select_related("bot", "version").order_by("number"))
    by_version = {e.version_id: e for e in entrants}
    games: dict[int, list[tuple[int, int, int]]] = {}
    rounds: dict[int, int] = {}
    counts: Counter[str] = Counter()
    seated: dict[int, set[int]] = {}  # round -> entrant pks with a game in it
    for match_id, round_number, status in Match.objects.filter(tournament=tournament).values_list(
        "id", "round", "status"
    ):
        counts[status] += 1
        rounds[match_id] = round_number
    for match_id, version_id, score, rank in (
        Seat.objects.filter(match__tournament=tournament)
        .values_list("match_id", "version_id", "score", "rank")
        .order_by("match_id", "seat")
    ):
        entrant = by_version[version_id].pk
        seated.setdefault(rounds[match_id], set()).add(entrant)
        if score is not None and rank is not None:
            games.setdefault(match_id, []).append((entrant, score, rank))
    records = [
        GameRecord(tuple(seats), rounds[match_id])
        for match_id, seats in games.items()
        if len(seats) == tournament.players
    ]
    byes: dict[int, int] = {}
    if tournament.format == Tournament.SWISS:
        for present in seated.values():
            for e in entrants:
                if e.pk not in present:
                    byes[e.pk] = byes.get(e.pk, 0) + tournament.games_per_pairing
    hib = tournament.higher_is_better
    table = standings(
        [e.pk for e in entrants],
        records,
        higher_is_better=hib,
        byes=byes,
        bye_value=(tournament.players - 1) / 2,
    )
    cells = crosstable(records, higher_is_better=hib)
    by_pk = {e.pk: e for e in entrants}
    gaps = [
        Gap(
            by_pk[upper.entrant],
            by_pk[lower.entrant],
            cells[upper.entrant, lower.entrant].comparison
            if (upper.entrant, lower.entrant) in cells
            else compare_paired([]),
        )
        for upper, lower in itertools.pairwise(table)
    ]
    progress = Progress(
        total=sum(counts.values()),
        finished=counts[Match.FINISHED],
        failed=counts[Match.FAILED],
        running=counts[Match.RUNNING],
        planned=planned_games(tournament, len(entrants)),
    )
    return Report(tournament, entrants, _labels(entrants), table, cells, byes, gaps, progress)
