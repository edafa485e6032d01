"""The one place where the site calls the match runner (``arena.runner``).

Everything the site needs from the runner goes through two functions, so a change of the
runner's interface is a change of this file only:

* :func:`play_match` plays a match between bot folders in the sandbox and returns, per bot,
  what the site stores (score, points per deal, rank, faults, log file) and which replay files
  were written, as the runner's :class:`~arena.runner.results.MatchResult` reports them. A
  *duplicate* match plays each deal once per seat rotation (the runner's duplicate seating,
  :func:`arena.local.series_game`);
* :func:`check_bot` is the validation of an upload: the arena's bot check
  (:func:`arena.runner.check.check_bot`, the one ``nimmt bot check`` prints), which passes when
  the bot played every variant at every table size of the plan without a single fault. A bot
  whose manifest has a ``build`` is built first (:mod:`arena.runner.build`, within the
  ``BUILD_*`` settings); the build, with its log, is part of the verdict, and the site keeps
  what it made with the version (:mod:`submissions.builds`). A match is given the built folder;
  a bot still to build is built by :func:`play_match` (once per content on each machine).

The runner writes ``game-00001.json``... (``nimmt-replay/1``), ``logs/<bot>.log`` and
``match.json`` into the folder it is given. Problems of the arena itself (no sandbox on this
machine, a broken runtime) raise :class:`ArenaError`; a bot's misbehaviour is never an error,
it is a fault in the result.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from ladders.models import Ladder

from arena.local import series_game
from arena.runner import build as builds
from arena.runner import check
from arena.runner import manifest as manifests
from arena.runner.lineup import Entrant as RunnerEntrant
from arena.runner.lineup import Join, MatchError
from arena.runner.match import Watch, run_match
from arena.runner.pool import WarmPool
from arena.runner.results import MatchResult
from arena.runner.rules import MatchConfig
from arena.sandbox import SandboxUnavailable


class ArenaError(Exception):
    """The arena could not play the match (not the bots' fault); the message says why."""


@dataclass(frozen=True)
class Entrant:
    """A bot in a match: a unique name (shown in replays) and its folder.

    ``trusted`` (the house bots) may run with whatever sandbox layers the machine has.
    """

    name: str
    code_dir: Path
    trusted: bool = False
    #: The bot version's identity (its primary key): a warm process plays only for it.
    version: str = ""


@dataclass(frozen=True)
class SeatedEntrant:
    """Someone who plays through a seat of the site's own (a person at a table,
    :class:`tables.seat.PersonSeat`): ``join`` hands the runner that seat."""

    name: str
    join: Join


@dataclass(frozen=True)
class SeatOutcome:
    """One entrant's match: summed score, rank among the entrants, faults (as the site stores
    them: the replay's record plus the game number), log file."""

    score: int
    rank: int
    faults: list[dict[str, Any]] = field(default_factory=list)
    log_file: str = ""  # relative to the match's folder; "" if none
    # The entrant's points on each deal of the match, in deal order (a duplicate deal: its
    # total over the deal's rotations); they sum to ``score``.
    deal_scores: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class MatchOutcome:
    """The site's view of a played match, entrants in the order given."""

    seats: list[SeatOutcome]
    replays: list[str]  # file names in the match's folder, one per game
    result: MatchResult  # the runner's


@dataclass(frozen=True)
class BotCheck:
    """The verdict of :func:`check_bot` and the log shown to the bot's owner; ``build`` the
    bot's build if its manifest has one (its ``program`` is the built folder, if it built)."""

    passed: bool
    log: str
    build: builds.Build | None = None


def _programs(entrants: list[Entrant | SeatedEntrant]) -> list[RunnerEntrant]:
    programs = []
    for entrant in entrants:
        if isinstance(entrant, SeatedEntrant):
            programs.append(RunnerEntrant(entrant.name, joined=entrant.join))
            continue
        try:
            program = builds.ready(
                manifests.load(entrant.code_dir), root=build_cache(), limits=build_limits()
            )
        except manifests.ManifestError as error:
            raise ArenaError(f"bot {entrant.name}: {error.problem}") from None
        except (builds.BuildFailed, SandboxUnavailable) as error:
            raise ArenaError(f"bot {entrant.name}: {error}") from None
        programs.append(
            RunnerEntrant(
                entrant.name, program=program, trusted=entrant.trusted, version=entrant.version
            )
        )
    return programs


_warm: list[WarmPool] = []  # this worker process's pool, made at its first match


def warm_pool() -> WarmPool | None:
    """The pool of warm bot processes this worker process keeps between its matches
    (``NIMMT_WARM_BOTS`` processes at most; none when it is 0)."""
    if settings.WARM_BOTS == 0:
        return None
    if not _warm:
        _warm.append(WarmPool(size=settings.WARM_BOTS, idle_s=settings.WARM_IDLE_SECONDS))
    return _warm[0]


def play_match(
    *,
    variant: str,
    seed: int,
    games: int,
    entrants: list[Entrant] | list[Entrant | SeatedEntrant],
    out_dir: Path,
    duplicate: bool = False,
    watch: Watch | None = None,
    decision_ms: int | None = None,
    bank_ms: int | None = None,
    alive: Callable[[], None] | None = None,
) -> MatchOutcome:
    """Play ``games`` games between ``entrants`` in the sandbox; files go to ``out_dir``;
    ``watch`` follows each game as it is played (the runner's, e.g. :class:`matches.live.
    LiveFeed`). The time control is the site's (``DECISION_MS``, ``BANK_MS``) unless given
    (a person's table has its own). ``alive`` is called from the match's loop every half second
    while it runs (:class:`core.leases.Pulse`'s ``beat``).

    ``duplicate``: the ``games`` are ``games / len(entrants)`` deals, each played once per seat
    rotation (``games`` must be a multiple of the number of entrants), in one runner match that
    starts the bots afresh for each rotation (no process is dealt a deal twice); a
    :class:`SeatedEntrant` (a person, a remote bot) is refused a duplicate match.
    """
    players = len(entrants)
    if duplicate and games % players:
        raise ArenaError(f"a duplicate match of {players} bots needs a multiple of {players} games")
    config = MatchConfig(
        variant=variant,
        games=games,
        seed=seed,
        out=out_dir,
        decision_ms=settings.DECISION_MS if decision_ms is None else decision_ms,
        bank_ms=settings.BANK_MS if bank_ms is None else bank_ms,
        duplicate=duplicate,
    )
    try:
        result = run_match(
            config, _programs(list(entrants)), watch=watch, alive=alive, pool=warm_pool()
        )
    except (MatchError, SandboxUnavailable) as error:
        raise ArenaError(str(error)) from None
    deals = games // players if duplicate else games
    deal_scores = [[0] * deals for _ in entrants]
    for index, replay in enumerate(result.replays):
        series = series_game(seed, index, players, duplicate=duplicate)
        for seat, entry in enumerate(series.seats):
            deal_scores[entry][series.deal] += replay.result.scores[seat]
    return MatchOutcome(
        seats=[
            SeatOutcome(
                bot.score,
                bot.rank,
                [fault.to_dict() for fault in bot.faults],
                (bot.program.log if bot.program is not None else None) or "",
                deal_scores[entry],
            )
            for entry, bot in enumerate(result.bots)
        ],
        replays=result.replay_files,
        result=result,
    )


def build_limits() -> builds.BuildLimits:
    """The limits of a bot's build (the settings ``BUILD_*``)."""
    return builds.BuildLimits(
        seconds=settings.BUILD_SECONDS,
        memory_mb=settings.BUILD_MEMORY_MB,
        cpus=settings.BUILD_CPUS,
        processes=settings.BUILD_PROCESSES,
        reserve_mb=settings.BUILD_RESERVE_MB,
    )


def build_cache() -> Path:
    """Where this machine builds bots (by content; the kept artefacts are the versions')."""
    return Path(settings.CACHE_DIR) / "builds"


def check_bot(code_dir: Path, out_dir: Path) -> BotCheck:
    """The arena's bot check of an uploaded bot, in the sandbox, at every format of the check's
    plan and of the site's ladders; its verdict as text with host paths taken out (the owner
    sees "the upload", not where the site keeps it)."""
    formats = Ladder.objects.values_list("variant", "players")
    try:
        report = check.check_bot(
            code_dir,
            out=out_dir,
            plan=check.plan_for(formats),
            decision_ms=settings.DECISION_MS,
            bank_ms=settings.BANK_MS,
            build_root=build_cache(),
            build_limits=build_limits(),
        )
    except (MatchError, SandboxUnavailable) as error:
        raise ArenaError(f"the bot check could not be played: {error}") from None
    lines = report.lines()
    if report.passed:
        lines.append("PASSED: the bot played every game of the check without a fault.")
    else:
        lines.append("FAILED: fix what is listed above and upload a new version.")
    text = "\n".join(lines)
    for folder, words in ((out_dir, "the check's folder"), (code_dir, "the upload")):
        text = text.replace(str(folder) + "/", "").replace(str(folder), words)
    return BotCheck(report.passed, text, report.build)
