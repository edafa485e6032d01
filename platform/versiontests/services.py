"""Running a version test: asking for one, its opponents, its pairs of matches, its verdict.

A test plays *pairs* of duplicate matches on the test's ladder format (each deal once per seat
rotation), the candidate in seat 0 of one and the baseline in seat 0 of the other, with the
same opponents in the same seats and the same seed: both versions play exactly the same deals
from exactly the same seats. Deal ``d`` of the pair gives the paired edge

    edge[d] = candidate's points per game on d - baseline's points per game on d

(higher = better: the card game's penalty points are negated, as the Margin rating does,
:func:`ladders.rating.match_deals`). The deal's own effect on the points, which Margin's model
cancels between the seats of a deal, cancels here between the two matches.

The opponents are the ladder's *typical opponents* of the bot: the ``players - 1`` playing bots
nearest to it in the ladder's standings rating (ties by the oldest bot), fixed when the test
starts, so that a test is not measured against a moving field.

**Not starving the ladder.** A test has one pair (two matches) in flight at a time, and at most
``VERSION_TESTS_AT_ONCE`` tests run on the whole site; later ones wait for a slot. Test matches
go to the same ``matches`` queue as ladder matches (whose scheduler keeps
``SCHEDULE_IN_FLIGHT`` per ladder), so a worker is never given more than
``2 · VERSION_TESTS_AT_ONCE`` test matches in a row, whatever the number of owners asking.

Nothing here sends a task: :func:`advance` says which matches to send, and which test may now
take the slot it freed; :mod:`versiontests.tasks` sends them.
"""

import secrets
from dataclasses import dataclass

from accounts.models import User
from core.locks import hold_count
from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from ladders.models import DUPLICATE_MAX_GAMES, STANDINGS_COLUMNS, STANDINGS_RATING, Ladder, Rating
from ladders.rating import match_deals
from matches.models import Match, Seat
from submissions.models import Bot, BotVersion

from arena.engine.variants import variant as get_variant
from arena.sprt import Evidence, SprtSettings, Verdict, decide, log_likelihood_ratio
from versiontests.models import PairedMatch, VersionTest

#: A pair whose match the arena could not play teaches nothing; this many and the test stops.
MAX_FAILED_PAIRS = 3
#: Tests one owner may have waiting or running at once: the site's slots go first come, first
#: served, and one owner's queue of versions must not keep everyone else's tests waiting.
MAX_OPEN_PER_OWNER = 2


class TestRefused(Exception):
    """A test that cannot be asked for, with a message for the owner."""


def duplicate_format(ladder: Ladder) -> tuple[int, int]:
    """``(games, deals)`` of one test match on ``ladder``: duplicate, whatever the ladder's own
    setting, ``GAMES_PER_MATCH // players`` deals (at least one) as long as they fit in
    :data:`~ladders.models.DUPLICATE_MAX_GAMES` games."""
    fit = max(1, DUPLICATE_MAX_GAMES // ladder.players)
    deals = min(fit, max(1, settings.GAMES_PER_MATCH // ladder.players))
    return deals * ladder.players, deals


def typical_opponents(ladder: Ladder, bot: Bot) -> list[BotVersion]:
    """The active versions of the ``players - 1`` playing bots nearest to ``bot`` in
    ``ladder``'s standings rating, nearest first (ties: the older bot)."""
    column = STANDINGS_COLUMNS[STANDINGS_RATING]
    start = getattr(Rating(), column)  # a bot without games
    rated = dict(Rating.objects.filter(ladder=ladder).values_list("bot_id", column))
    own = rated.get(bot.pk, start)
    # Not a remote bot: it would play the same deals in both matches of a pair, and in every
    # seat rotation of each, through connections of its own that may remember them.
    others = list(
        Bot.objects.playing()
        .exclude(pk=bot.pk)
        .exclude(active_version__code_root=BotVersion.REMOTE)
        .select_related("active_version")
        .order_by("pk")
    )
    others.sort(key=lambda b: abs(rated.get(b.pk, start) - own))
    chosen = others[: ladder.players - 1]
    if len(chosen) < ladder.players - 1:
        raise TestRefused(
            f"{ladder} needs {ladder.players - 1} other playing bots as opponents; "
            f"it has {len(chosen)}."
        )
    return [b.active_version for b in chosen if b.active_version is not None]


def request_test(
    candidate: BotVersion, user: User, ladder: Ladder, sprt: SprtSettings | None = None
) -> VersionTest:
    """A new test of ``candidate`` against its bot's active version (waiting for its start),
    asked for by ``user``, who must own the bot."""
    sprt = sprt or SprtSettings()
    with transaction.atomic():
        bot = Bot.objects.select_for_update().get(pk=candidate.bot_id)  # one request at a time
        if bot.owner_id != user.pk:
            raise TestRefused("Only the bot's owner can test its versions.")
        if bot.is_retired:
            raise TestRefused(f"{bot.name} is retired.")
        baseline = bot.active_version
        if baseline is None or not baseline.passed:
            raise TestRefused(f"{bot.name} has no active version to test against.")
        if baseline.pk == candidate.pk:
            raise TestRefused(f"v{candidate.number} is the active version already.")
        if candidate.status == BotVersion.FAILED:
            raise TestRefused(f"v{candidate.number} did not pass its checks.")
        for version in (candidate, baseline):
            if version.is_remote:
                raise TestRefused(
                    f"v{version.number} plays from its owner's machine: a test plays duplicate "
                    "deals (each deal in every seat rotation), which a remote bot could "
                    "remember from one rotation to the next."
                )
        if not ladder.is_active:
            raise TestRefused(f"{ladder} is closed.")
        open_tests = VersionTest.objects.filter(
            status__in=[VersionTest.WAITING, VersionTest.RUNNING]
        )
        if open_tests.filter(candidate=candidate).exists():
            raise TestRefused(f"v{candidate.number} has a test under way already.")
        if open_tests.filter(requested_by=user).count() >= MAX_OPEN_PER_OWNER:
            raise TestRefused(
                f"You have {MAX_OPEN_PER_OWNER} tests under way; ask again when one is over."
            )
        return VersionTest.objects.create(
            candidate=candidate,
            baseline=baseline,
            ladder=ladder,
            requested_by=user,
            e0=sprt.e0,
            e1=sprt.e1,
            alpha=sprt.alpha,
            beta=sprt.beta,
            cap=sprt.cap,
            seed=secrets.randbelow(2**31),
        )


def default_ladder(bot: Bot) -> Ladder | None:
    """The ladder a test asked for at upload plays on: the active one where ``bot`` has played
    most, else the first active one."""
    rated = (
        Rating.objects.filter(bot=bot, ladder__is_active=True)
        .select_related("ladder")
        .order_by("-games", "ladder_id")
        .first()
    )
    if rated is not None:
        return rated.ladder
    return Ladder.objects.filter(is_active=True).order_by("pk").first()


@dataclass(frozen=True)
class Step:
    """What :func:`advance` did: the matches to send now, and whether the test ended (so a
    waiting one may take its slot)."""

    matches: tuple[int, ...] = ()
    ended: bool = False


def advance(test_pk: int) -> Step:
    """Move test ``test_pk`` on: start it, count every pair whose two matches are over (each
    exactly once: the test row is locked and the pair marked counted in the same transaction),
    decide, and create the next pair if the test goes on. Safe to call any number of times."""
    with transaction.atomic():
        test = VersionTest.objects.select_for_update().filter(pk=test_pk).first()
        if test is None or test.is_over:
            return Step()
        if test.status == VersionTest.WAITING:
            return _start(test)
        ended = _count_pairs(test)
        if ended:
            return Step(ended=True)
        in_flight = test.matches.filter(counted=False).exists()
        if in_flight:
            return Step()
        if retired := _retired_in_lineup(test):
            return _stop(test, f"{retired} was retired during the test.")
        return Step(matches=_create_pair(test))


def _retired_in_lineup(test: VersionTest) -> str:
    """The name of a retired bot among the test's (its own or an opponent): a retired bot
    plays no more matches (:func:`submissions.services.retire`); "" when there is none."""
    versions = [test.candidate_id, *test.opponents]
    retired = Bot.objects.filter(versions__pk__in=versions, retired_at__isnull=False)
    return retired.values_list("name", flat=True).first() or ""


def _start(test: VersionTest) -> Step:
    candidate = BotVersion.objects.get(pk=test.candidate_id)
    if candidate.status == BotVersion.FAILED:
        return _stop(test, f"v{candidate.number} did not pass its checks.")
    if candidate.status != BotVersion.PASSED:
        return Step()  # still being checked
    hold_count(SLOTS)  # two tests starting together cannot both take the last slot
    running = VersionTest.objects.filter(status=VersionTest.RUNNING).count()
    if running >= settings.VERSION_TESTS_AT_ONCE:
        return Step()  # waits for a slot
    bot = Bot.objects.get(pk=candidate.bot_id)
    if bot.is_retired:
        return _stop(test, f"{bot.name} was retired before the test started.")
    try:
        opponents = typical_opponents(test.ladder, bot)
    except TestRefused as refused:
        return _stop(test, str(refused))
    test.opponents = [v.pk for v in opponents]
    test.status = VersionTest.RUNNING
    test.started_at = timezone.now()
    test.save(update_fields=["opponents", "status", "started_at"])
    return Step(matches=_create_pair(test))


#: The count a test takes its slot under (:func:`core.locks.hold_count`).
SLOTS = "version tests running"


def _stop(test: VersionTest, why: str) -> Step:
    test.status = VersionTest.STOPPED
    test.error = why
    test.finished_at = timezone.now()
    test.save(update_fields=["status", "error", "finished_at"])
    return Step(ended=True)


def _create_pair(test: VersionTest) -> tuple[int, ...]:
    """The next pair's two queued matches (the caller sends them once this commits)."""
    number = (test.matches.aggregate(last=Max("number"))["last"] or 0) + 1
    games, deals = duplicate_format(test.ladder)
    # Pair k plays deals seed + (k - 1)·deals ... : every pair new deals (deal i of a match
    # comes from seed + i, arena.local.series_game).
    seed = (test.seed + (number - 1) * deals) % 2**62
    by_pk = BotVersion.objects.in_bulk(test.opponents)
    lineup_rest = [by_pk[pk] for pk in test.opponents]
    created = []
    for side, version_pk in (
        (PairedMatch.CANDIDATE, test.candidate_id),
        (PairedMatch.BASELINE, test.baseline_id),
    ):
        version = BotVersion.objects.get(pk=version_pk)
        match = Match.objects.create(
            variant=test.ladder.variant,
            players=test.ladder.players,
            games=games,
            duplicate=True,
            seed=seed,
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                match_created_at=match.created_at,
                seat=number_,
                bot_id=v.bot_id,
                version=v,
            )
            for number_, v in enumerate([version, *lineup_rest])
        )
        PairedMatch.objects.create(test=test, number=number, side=side, match=match)
        created.append(match.pk)
    return tuple(created)


def pair_edges(candidate: Match, baseline: Match, variant: str) -> list[float]:
    """The paired per-deal edges of one pair: seat 0's points per game in ``candidate`` minus
    those in ``baseline``, deal by deal, higher = better."""
    higher = get_variant(variant).higher_is_better
    per_game = []
    for match in (candidate, baseline):
        seats = list(match.seats.order_by("seat"))
        deals = match_deals(
            [list(s.deal_scores) for s in seats], rotations=match.players, higher_is_better=higher
        )
        per_game.append([deal.scores[0] / deal.games for deal in deals])
    if len(per_game[0]) != len(per_game[1]) or not per_game[0]:
        raise ValueError("the two matches of a pair report different numbers of deals")
    return [c - b for c, b in zip(per_game[0], per_game[1], strict=True)]


def _count_pairs(test: VersionTest) -> bool:
    """Count the pairs that are over, decide; ``True`` if the test ended."""
    sides: dict[int, dict[str, PairedMatch]] = {}
    for side in test.matches.filter(counted=False).select_related("match"):
        sides.setdefault(side.number, {})[side.side] = side
    evidence = test.evidence
    sprt = test.settings
    counted_any = False
    for number in sorted(sides):
        pair = sides[number]
        if len(pair) != 2 or not all(s.match.is_done for s in pair.values()):
            continue
        candidate, baseline = pair[PairedMatch.CANDIDATE].match, pair[PairedMatch.BASELINE].match
        edges: list[float] = []
        if candidate.status == baseline.status == Match.FINISHED:
            try:
                edges = pair_edges(candidate, baseline, test.ladder.variant)
            except ValueError:
                edges = []
        if not edges:
            test.pairs_failed += 1
        for edge in edges:
            if evidence.deals >= sprt.cap:
                break
            evidence = evidence.add(edge)
        PairedMatch.objects.filter(pk__in=[s.pk for s in pair.values()]).update(counted=True)
        counted_any = True
        if edges:
            test.history = [*test.history, [evidence.deals, _finite(evidence, sprt)]]
    if not counted_any:
        return False
    test.deals, test.shift = evidence.deals, evidence.shift
    test.total, test.total_sq = evidence.total, evidence.total_sq
    test.llr = _finite(evidence, sprt)
    verdict = decide(evidence, sprt)
    fields = ["deals", "shift", "total", "total_sq", "llr", "history", "pairs_failed"]
    if verdict is not Verdict.CONTINUE:
        test.status, test.verdict, test.finished_at = (
            VersionTest.FINISHED,
            verdict.value,
            timezone.now(),
        )
        fields += ["status", "verdict", "finished_at"]
    elif test.pairs_failed >= MAX_FAILED_PAIRS:
        test.status, test.finished_at = VersionTest.STOPPED, timezone.now()
        test.error = f"{test.pairs_failed} pairs of matches could not be played."
        fields += ["status", "finished_at", "error"]
    test.save(update_fields=fields)
    return test.is_over


def _finite(evidence: Evidence, sprt: SprtSettings) -> float:
    """The LLR as stored and drawn: an infinite one (edges exactly on a hypothesis) is cut to
    ten times the crossed bound."""
    llr = log_likelihood_ratio(evidence, sprt)
    return max(10 * sprt.lower, min(10 * sprt.upper, llr))


def next_waiting() -> int | None:
    """The oldest waiting test (the one a freed slot goes to)."""
    return (
        VersionTest.objects.filter(status=VersionTest.WAITING)
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )


def open_tests() -> list[int]:
    """Every test not over (the beat's safety net advances them all)."""
    return list(
        VersionTest.objects.filter(status__in=[VersionTest.WAITING, VersionTest.RUNNING])
        .order_by("pk")
        .values_list("pk", flat=True)
    )
