"""The bot check: a bot folder tried the way the arena will run it, explained in plain words.

One check for everyone: ``nimmt bot check`` prints it, and the site validates every upload with
it. It reads the manifest (:func:`arena.runner.manifest.load`), builds the bot if the manifest
has a ``build`` (:mod:`arena.runner.build`; a failed build fails the check with the build's
log), then plays one short match in the sandbox per entry of the plan, the bot against house
bots (``random``, in process): every variant family at every player count a ladder plays
(:data:`CHECK_PLAN`), so a bot that fails only with four players, or only on the luck cards,
fails the check. The bot passes when it played every game without a single fault.

>>> [f"{game.variant}/{game.players}" for game in CHECK_PLAN][:3]
['basic/2', 'basic/4', 'basic/6']
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.bots.random import RandomBot
from arena.engine.variants import VARIANT_NAMES
from arena.engine.variants import variant as get_variant
from arena.sandbox import SandboxUnavailable
from arena.table.faults import FaultKind
from arena.table.quote import quote

from .build import Build, BuildLimits, build
from .lineup import Entrant, MatchError
from .manifest import BotProgram, ManifestError, load
from .match import run_match
from .results import BotReport, MatchResult, SandboxReport
from .rules import BANK_MS, DECISION_MS, MAX_FAULTS, START_MS, MatchConfig

#: Player counts the check plays: both ends of the board game's range and the ladders' four;
#: the card game also at its largest table.
CHECK_PLAYERS = {"classic": (2, 4, 10)}
DEFAULT_PLAYERS = (2, 4, 6)
#: Lines of the bot's log quoted when the check fails.
LOG_LINES = 15


@dataclass(frozen=True)
class CheckGame:
    """One entry of the plan: a short match of ``games`` games of ``variant`` at a table of
    ``players`` (the bot and ``players - 1`` house bots)."""

    variant: str
    players: int
    games: int = 1

    def __post_init__(self) -> None:
        get_variant(self.variant).check_players(self.players)

    def describe(self) -> str:
        return f"{self.variant}, {self.players} players, {self.games} game(s)"


#: The plan: every variant at every player count in :data:`CHECK_PLAYERS`.
CHECK_PLAN: tuple[CheckGame, ...] = tuple(
    CheckGame(name, players)
    for name in VARIANT_NAMES
    for players in CHECK_PLAYERS.get(name, DEFAULT_PLAYERS)
)


def plan_for(formats: Iterable[tuple[str, int]]) -> tuple[CheckGame, ...]:
    """:data:`CHECK_PLAN`, plus one game at each ``(variant, players)`` of ``formats`` it does
    not cover yet (the site passes its ladders' formats: a bot meets every one of them).

    >>> len(plan_for([("basic", 4), ("pro", 3)])) - len(CHECK_PLAN)
    1
    """
    extra = {
        (variant, players)
        for variant, players in formats
        if not covers(variant, players, CHECK_PLAN)
    }
    return CHECK_PLAN + tuple(CheckGame(v, p) for v, p in sorted(extra))


def covers(variant: str, players: int, plan: Sequence[CheckGame] = CHECK_PLAN) -> bool:
    """Whether the check plays ``variant`` at ``players`` (a ladder's format must be covered)."""
    return any(game.variant == variant and game.players == players for game in plan)


@dataclass(frozen=True)
class CheckStep:
    """One line of the check's verdict: ``ok`` or not, what was checked, and the problems."""

    ok: bool
    title: str
    problems: tuple[str, ...] = ()
    log: tuple[str, ...] = ()  # the bot's last log lines (quoted), when it failed
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckReport:
    """The verdict: every step, whether the bot passed, and where its replays and logs are.
    ``build`` is the bot's build if its manifest has one (``build.program`` is what played)."""

    program: BotProgram | None
    steps: tuple[CheckStep, ...]
    sandbox: SandboxReport = field(default_factory=SandboxReport)
    out: Path | None = None
    build: Build | None = None

    @property
    def passed(self) -> bool:
        return bool(self.steps) and all(step.ok for step in self.steps)

    def lines(self) -> list[str]:
        """The verdict as text, one line each (``ok``/``FAIL``/``note`` in front)."""
        lines: list[str] = []
        for step in self.steps:
            lines.append(f"{'ok  ' if step.ok else 'FAIL'} {step.title}")
            lines.extend(f"     {problem}" for problem in step.problems)
            if step.log and step.title.startswith("build:"):
                lines.append(f"     the build's output (its last {len(step.log)} lines):")
                lines.extend(f"     | {line}" for line in step.log)
            elif step.log:
                lines.append(f"     its last {len(step.log)} log lines:")
                lines.extend(f"     | {line}" for line in step.log)
            lines.extend(f"note {note}" for note in step.notes)
        if self.passed and self.program is not None:
            if self.sandbox.enabled:
                lines.append(f"ok   ran in the sandbox ({', '.join(self.sandbox.active)})")
            else:
                lines.append(f"note ran WITHOUT the sandbox: {self.sandbox.note}")
            where = f" (replays and logs in {self.out})" if self.out is not None else ""
            lines.append(f"PASS {self.program.name} is ready for the arena{where}")
        return lines


def check_bot(
    bot_dir: Path,
    *,
    out: Path | None = None,
    plan: Sequence[CheckGame] = CHECK_PLAN,
    seed: int = 1,
    decision_ms: int = DECISION_MS,
    bank_ms: int = BANK_MS,
    start_ms: int = START_MS,
    unsafe_no_sandbox: bool = False,
    build_root: Path | None = None,
    build_limits: BuildLimits | None = None,
) -> CheckReport:
    """Check the bot folder ``bot_dir``: its manifest, its build (into ``build_root``, see
    :func:`arena.runner.build.build`), then one match per entry of ``plan``; replays and logs
    go to ``out`` (a temporary folder if ``None``). Stops at the first failing step. Raises
    :class:`MatchError` only when the arena itself cannot play (no sandbox for an untrusted
    bot): that is not the bot's fault."""
    try:
        program = load(bot_dir)
    except ManifestError as exc:
        return CheckReport(None, (CheckStep(False, f"manifest: {exc}"),))
    steps = [
        CheckStep(True, f"manifest: {program.name!r} runs `{' '.join(program.command)}`"),
    ]
    built: Build | None = None
    if program.build:
        try:
            built = build(
                program, root=build_root, limits=build_limits, sandboxed=not unsafe_no_sandbox
            )
        except SandboxUnavailable as exc:
            raise MatchError(f"cannot build the bot in the sandbox: {exc}") from None
        if built.program is None:
            log = tuple(quote(line) for line in built.log_tail()) or ("(it printed nothing)",)
            steps.append(CheckStep(False, built.summary(), log=log))
            return CheckReport(program, tuple(steps), build=built)
        steps.append(CheckStep(True, built.summary()))
        program = built.program
    root = out or Path(tempfile.mkdtemp(prefix="nimmt-check-"))
    sandbox = SandboxReport()
    for number, game in enumerate(plan, start=1):
        entrants = [Entrant(program.name, program=program)] + [
            Entrant(f"random#{i}" if i > 1 else "random", in_process=RandomBot)
            for i in range(1, game.players)
        ]
        folder = root / f"{number:02d}-{game.variant.replace('+', '-')}-{game.players}p"
        config = MatchConfig(
            variant=game.variant,
            games=game.games,
            seed=seed,
            out=folder,
            decision_ms=decision_ms,
            bank_ms=bank_ms,
            max_faults=MAX_FAULTS,
            start_ms=start_ms,
            unsafe_no_sandbox=unsafe_no_sandbox,
        )
        result = run_match(config, entrants)
        sandbox = result.sandbox
        step = _step(game, result.bots[0], result, folder, decision_ms)
        steps.append(step)
        if not step.ok:
            break
    return CheckReport(program, tuple(steps), sandbox, root, built)


def _step(
    game: CheckGame, bot: BotReport, result: MatchResult, folder: Path, decision_ms: int
) -> CheckStep:
    problems = explain(bot)
    if problems:
        log: tuple[str, ...] = ()
        if bot.program is not None and bot.program.log is not None:
            path = folder / bot.program.log
            problems.append(f"the bot's log: {path}")
            text = path.read_text("utf-8", errors="replace") if path.is_file() else ""
            log = tuple(quote(line) for line in text.splitlines()[-LOG_LINES:])
        return CheckStep(False, f"{game.describe()}:", tuple(problems), log)
    mean = bot.think_mean_ms or 0.0
    start = bot.program.start_ms if bot.program is not None else None
    notes = []
    if bot.think_max_ms > decision_ms / 2:
        notes.append(
            f"the slowest answer took {bot.think_max_ms:.0f} ms of the {decision_ms} ms "
            "allowance: on a busy machine that may be a timeout"
        )
    return CheckStep(
        True,
        f"{game.describe()}: {bot.answers} answers, {mean:.1f} ms on average, slowest "
        f"{bot.think_max_ms:.0f} ms; started in {start or 0:.0f} ms",
        notes=tuple(notes),
    )


def explain(bot: BotReport) -> list[str]:
    """The bot's problems in a match, in plain words (empty if none)."""
    dropped = bot.dropped
    if dropped is not None and bot.answers == 0 and dropped.kind is FaultKind.CRASH:
        detail = dropped.detail
        if "before saying hello" in detail:
            return [f"crashed at start: it {detail}"]
        if "never said hello" in detail:
            return [
                f"it {detail}. A bot must connect to the address in $NIMMT_ENGINE and send "
                "Hello with the token in the file named by $NIMMT_TOKEN_FILE (the bot kit's "
                "run(bot) does this)"
            ]
        return [f"crashed before its first answer: {detail}"]
    problems = []
    for kind in FaultKind:
        found = [
            f for f in bot.faults if f.kind is kind and not f.detail.startswith("dropped from")
        ]
        if found:
            first = found[0]
            problems.append(
                f"{len(found)} {kind.words}; the first in game {first.game}, turn "
                f"{first.turn + 1}: {first.detail}"
            )
    if dropped is not None and dropped.kind is not FaultKind.CRASH:  # a crash is above
        problems.append(f"dropped from the match in game {dropped.game}: {dropped.detail}")
    return problems


__all__ = [
    "CHECK_PLAN",
    "CheckGame",
    "CheckReport",
    "CheckStep",
    "MatchError",
    "check_bot",
    "covers",
    "explain",
    "plan_for",
]
