"""The one place where the site calls the match runner (``arena.runner``).

Everything the site needs from the runner goes through two functions, so a change of the
runner's interface is a change of this file only:

* :func:`play_match` plays a match between bot folders in the sandbox and sums up, per bot,
  what the site stores (score, rank, faults, log file) and which replay files were written;
* :func:`check_bot` is the validation of an upload: read its manifest and play a smoke match
  against house bots; it passes when the bot played without a single fault.

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

from arena.runner import manifest as manifests
from arena.runner.match import Entrant as RunnerEntrant
from arena.runner.match import MatchConfig, MatchError, MatchResult, run_match
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
    """One entrant's match: summed score, rank among the entrants, faults, log file."""

    score: int
    rank: int
    faults: list[dict[str, Any]] = field(default_factory=list)
    log_file: str = ""  # relative to the match's folder; "" if none


@dataclass(frozen=True)
class MatchOutcome:
    """The site's view of a played match, entrants in the order given."""

    seats: list[SeatOutcome]
    replays: list[str]  # file names in the match's folder, one per game
    summary: dict[str, Any]


@dataclass(frozen=True)
class BotCheck:
    """The verdict of :func:`check_bot` and the log shown to the bot's owner."""

    passed: bool
    log: str


def _config(variant: str, seed: int, games: int, out_dir: Path) -> MatchConfig:
    return MatchConfig(
        variant=variant,
        games=games,
        seed=seed,
        out=out_dir,
        decision_ms=settings.DECISION_MS,
        bank_ms=settings.BANK_MS,
    )


def _programs(entrants: list[Entrant]) -> list[RunnerEntrant]:
    programs = []
    for entrant in entrants:
        try:
            program = manifests.load(entrant.code_dir)
        except manifests.ManifestError as error:
            raise ArenaError(f"bot {entrant.name}: {error}") from None
        programs.append(RunnerEntrant(entrant.name, program=program, trusted=entrant.trusted))
    return programs


def _run(config: MatchConfig, programs: list[RunnerEntrant]) -> MatchResult:
    try:
        return run_match(config, programs)
    except (MatchError, SandboxUnavailable) as error:
        raise ArenaError(str(error)) from None


def play_match(
    *, variant: str, seed: int, games: int, entrants: list[Entrant], out_dir: Path
) -> MatchOutcome:
    """Play ``games`` games between ``entrants`` in the sandbox; files go to ``out_dir``."""
    result = _run(_config(variant, seed, games, out_dir), _programs(entrants))
    return _outcome(entrants, result, variant)


def _outcome(entrants: list[Entrant], result: MatchResult, variant: str) -> MatchOutcome:
    index = {entrant.name: k for k, entrant in enumerate(entrants)}
    scores = [0] * len(entrants)
    game_ranks: list[list[int]] = [[] for _ in entrants]
    faults: list[list[dict[str, Any]]] = [[] for _ in entrants]
    for number, replay in enumerate(result.replays, start=1):
        # The runner names a seat after its entrant up to any "#" (as `nimmt play` does) and
        # records the entrant's place in the lineup as "entry"; names alone can repeat.
        seat_entry = [
            player["entry"] if isinstance(player.get("entry"), int) else index[player["name"]]
            for player in replay["players"]
        ]
        for seat, entry in enumerate(seat_entry):
            scores[entry] += replay["result"]["scores"][seat]
            game_ranks[entry].append(replay["result"]["ranks"][seat])
        for fault in replay["result"]["faults"]:
            faults[seat_entry[fault["seat"]]].append({**fault, "game": number})
    if len(result.replays) == 1:
        ranks = [ranks[0] for ranks in game_ranks]
    else:  # a longer match: the better mean rank wins (faults already rank a seat last)
        means = [sum(r) / len(r) for r in game_ranks]
        ranks = [1 + sum(other < mine for other in means) for mine in means]
    logs = {bot["name"]: bot.get("log") or "" for bot in result.summary.get("bots", [])}
    return MatchOutcome(
        seats=[
            SeatOutcome(scores[k], ranks[k], faults[k], logs.get(entrant.name, ""))
            for k, entrant in enumerate(entrants)
        ],
        replays=list(result.summary.get("replays", [])),
        summary=result.summary,
    )


def manifest_problem(code_dir: Path) -> str:
    """What is wrong with the bot folder's manifest as the runner reads it ("" if nothing)."""
    try:
        manifests.load(code_dir)
    except manifests.ManifestError as error:
        return str(error).replace(str(code_dir) + "/", "").replace(str(code_dir), "the upload")
    return ""


def check_bot(code_dir: Path, out_dir: Path) -> BotCheck:
    """Read the bot's manifest and play one smoke game against house bots, in the sandbox."""
    lines: list[str] = []
    try:
        program = manifests.load(code_dir)
    except manifests.ManifestError as error:
        return BotCheck(False, f"FAILED: the manifest is wrong.\n{error}")
    lines.append(f"Manifest: name {program.name!r}, command {' '.join(program.command)!r}.")
    house = Path(settings.HOUSE_BOTS_DIR) / settings.SMOKE_OPPONENT
    candidate = Entrant("candidate", code_dir)
    opponents = [
        Entrant(f"house-{settings.SMOKE_OPPONENT}-{n}", house, trusted=True)
        for n in range(1, settings.SMOKE_PLAYERS)
    ]
    entrants = [candidate, *opponents]
    lines.append(
        f"Smoke match: one game of {settings.SMOKE_VARIANT} against "
        f"{len(opponents)} house bot(s) {settings.SMOKE_OPPONENT!r}, in the sandbox."
    )
    try:
        outcome = play_match(
            variant=settings.SMOKE_VARIANT, seed=1, games=1, entrants=entrants, out_dir=out_dir
        )
    except ArenaError as error:
        raise ArenaError(f"the smoke match could not be played: {error}") from None
    mine = outcome.seats[0]
    if mine.faults:
        lines.append(f"FAILED: the bot broke the arena's rules {len(mine.faults)} time(s):")
        for fault in mine.faults[:10]:
            lines.append(
                f"  - {fault['kind']} at turn {fault['turn'] + 1}: {str(fault['detail'])[:500]}"
            )
    else:
        lines.append(
            f"PASSED: the bot played the whole game; score {mine.score}, rank {mine.rank}."
        )
    if mine.log_file and (out_dir / mine.log_file).is_file():
        text = (out_dir / mine.log_file).read_text("utf-8", errors="replace")
        lines.append("")
        lines.append(f"The bot's output (last {LOG_TAIL_CHARS} characters at most):")
        lines.append(text[-LOG_TAIL_CHARS:] if text.strip() else "(nothing)")
    return BotCheck(not mine.faults, "\n".join(lines))


LOG_TAIL_CHARS = 4000


def read_summary(match_dir: Path) -> dict[str, Any]:
    """The runner's ``match.json`` of a stored match (empty if missing)."""
    try:
        data: dict[str, Any] = json.loads((match_dir / "match.json").read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data
