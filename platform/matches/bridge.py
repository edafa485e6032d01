"""The one place where the site calls the match runner (``arena.runner``).

Everything the site needs from the runner goes through two functions, so a change of the
runner's interface is a change of this file only:

* :func:`play_match` plays a match between bot folders in the sandbox and returns, per bot,
  what the site stores (score, points per deal, rank, faults, log file) and which replay files
  were written, as the runner's :class:`~arena.runner.results.MatchResult` reports them. A
  *duplicate* match plays each deal once per seat rotation (:func:`duplicate_seating`); the
  runner deals game ``i`` of a match from ``seed + i`` and rotates the seats itself, so such a
  match is one runner match per rotation of the lineup, all with the match's seed, whose
  files are then put together as those of one match;
* :func:`check_bot` is the validation of an upload: the arena's bot check
  (:func:`arena.runner.check.check_bot`, the one ``nimmt bot check`` prints), which passes when
  the bot played every variant at every table size of the plan without a single fault.

The runner writes ``game-00001.json``... (``nimmt-replay/1``), ``logs/<bot>.log`` and
``match.json`` into the folder it is given. Problems of the arena itself (no sandbox on this
machine, a broken runtime) raise :class:`ArenaError`; a bot's misbehaviour is never an error,
it is a fault in the result.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from ladders.models import Ladder

from arena.local import series_game
from arena.runner import check
from arena.runner import manifest as manifests
from arena.runner.lineup import Entrant as RunnerEntrant
from arena.runner.lineup import MatchError
from arena.runner.match import run_match
from arena.runner.results import MatchResult, match_ranks, replay_file
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
    result: MatchResult  # the runner's (a duplicate match: of its first rotation)
    results: tuple[MatchResult, ...] = ()  # a duplicate match: one per rotation


@dataclass(frozen=True)
class BotCheck:
    """The verdict of :func:`check_bot` and the log shown to the bot's owner."""

    passed: bool
    log: str


def _programs(entrants: list[Entrant]) -> list[RunnerEntrant]:
    programs = []
    for entrant in entrants:
        try:
            program = manifests.load(entrant.code_dir)
        except manifests.ManifestError as error:
            raise ArenaError(f"bot {entrant.name}: {error.problem}") from None
        programs.append(RunnerEntrant(entrant.name, program=program, trusted=entrant.trusted))
    return programs


def duplicate_seating(players: int, deals: int) -> list[tuple[tuple[int, ...], int]]:
    """The games of a duplicate match in the order they are played: per game, the lineup
    entry at each seat and the deal (0-based; dealt from ``seed + deal``).

    Rotation ``r`` is one runner match of the lineup rotated by ``r``, so its game ``i`` seats
    entry ``(k + r) mod players`` where the runner seats its ``k``-th entrant
    (:func:`arena.local.series_game`); over the rotations every entrant holds every seat of
    every deal exactly once.

    >>> duplicate_seating(2, deals=2)
    [((0, 1), 0), ((1, 0), 1), ((1, 0), 0), ((0, 1), 1)]
    >>> sorted(seats[0] for seats, deal in duplicate_seating(3, deals=1))
    [0, 1, 2]
    """
    return [
        (tuple((k + r) % players for k in series_game(0, i, players).seats), i)
        for r in range(players)
        for i in range(deals)
    ]


def play_match(
    *,
    variant: str,
    seed: int,
    games: int,
    entrants: list[Entrant],
    out_dir: Path,
    duplicate: bool = False,
) -> MatchOutcome:
    """Play ``games`` games between ``entrants`` in the sandbox; files go to ``out_dir``.

    ``duplicate``: the ``games`` are ``games / len(entrants)`` deals, each played once per seat
    rotation (``games`` must be a multiple of the number of entrants).
    """
    players = len(entrants)
    if not duplicate:
        result = _run(variant, seed, games, _programs(entrants), out_dir)
        deal_scores = [[0] * games for _ in entrants]
        for index, replay in enumerate(result.replays):
            seats = series_game(seed, index, players).seats
            for seat, entry in enumerate(seats):
                deal_scores[entry][index] += replay["result"]["scores"][seat]
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
    if games % players:
        raise ArenaError(f"a duplicate match of {players} bots needs a multiple of {players} games")
    deals = games // players
    programs = _programs(entrants)
    results: list[MatchResult] = []
    for r in range(players):
        lineup = programs[r:] + programs[:r]  # runner entrant k is lineup entry (k + r) mod n
        results.append(_run(variant, seed, deals, lineup, out_dir / f"rotation-{r + 1}"))
    return _put_together(results, entrants, deals, out_dir)


def _run(
    variant: str, seed: int, games: int, programs: list[RunnerEntrant], out_dir: Path
) -> MatchResult:
    config = MatchConfig(
        variant=variant,
        games=games,
        seed=seed,
        out=out_dir,
        decision_ms=settings.DECISION_MS,
        bank_ms=settings.BANK_MS,
    )
    try:
        return run_match(config, programs)
    except (MatchError, SandboxUnavailable) as error:
        raise ArenaError(str(error)) from None


def _put_together(
    results: list[MatchResult], entrants: list[Entrant], deals: int, out_dir: Path
) -> MatchOutcome:
    """One duplicate match from its rotations' runner matches: the replays numbered in playing
    order in ``out_dir``, each bot's logs in one file, scores, ranks and faults per entrant."""
    players = len(entrants)
    score = [0] * players
    deal_scores = [[0] * deals for _ in entrants]
    game_ranks: list[list[int]] = [[] for _ in entrants]
    faults: list[list[dict[str, Any]]] = [[] for _ in entrants]
    logs: list[list[str]] = [[] for _ in entrants]
    replays: list[str] = []
    for r, result in enumerate(results):
        folder = out_dir / f"rotation-{r + 1}"
        for index, replay in enumerate(result.replays):
            seats = series_game(result.settings.seed, index, players).seats
            for seat, k in enumerate(seats):
                entry = (k + r) % players
                score[entry] += replay["result"]["scores"][seat]
                deal_scores[entry][index] += replay["result"]["scores"][seat]
                game_ranks[entry].append(replay["result"]["ranks"][seat])
            name = replay_file(len(replays))
            source = folder / replay_file(index)
            if source.is_file():
                source.rename(out_dir / name)
            replays.append(name)
        for k, bot in enumerate(result.bots):
            entry = (k + r) % players
            # Game numbers count from the match's first game, not the rotation's.
            faults[entry] += [
                {**fault.to_dict(), "game": fault.game + r * deals} for fault in bot.faults
            ]
            log = bot.program.log if bot.program is not None else None
            if log and (folder / log).is_file():
                logs[entry].append(f"=== rotation {r + 1} ===\n")
                logs[entry].append((folder / log).read_text(encoding="utf-8", errors="replace"))
                (folder / log).unlink()  # kept once, in the match's own log of the bot
    log_files = []
    for entry, entrant in enumerate(entrants):
        if not logs[entry]:
            log_files.append("")
            continue
        relative = f"logs/{entrant.name}.log"
        (out_dir / "logs").mkdir(parents=True, exist_ok=True)
        (out_dir / relative).write_text("".join(logs[entry]), encoding="utf-8")
        log_files.append(relative)
    (out_dir / "match.json").write_text(
        json.dumps({"duplicate": True, "rotations": [f"rotation-{r + 1}/match.json"
                                                       for r in range(players)]}),
        encoding="utf-8",
    )  # fmt: skip
    ranks = match_ranks(game_ranks)
    return MatchOutcome(
        seats=[
            SeatOutcome(score[e], ranks[e], faults[e], log_files[e], deal_scores[e])
            for e in range(players)
        ],
        replays=replays,
        result=results[0],
        results=tuple(results),
    )


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
    return BotCheck(report.passed, text)
