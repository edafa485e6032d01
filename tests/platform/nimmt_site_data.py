"""A lived-in site for the browser tests (``tests/browser``) and their screenshots: ladders
with a history of real games (played here by the engine's house bots), a few owners, faults, a
finished tournament, and replays of every variant whose games use every kind of space, marker
and action card."""

import datetime as dt
import random
from collections import Counter
from dataclasses import dataclass, field

from accounts.models import User
from django.utils import timezone
from ladders.models import Ladder
from matches.models import Match, Seat
from nimmt_site_testing import engine_match, make_user, organiser, play_in_process, program_bot
from submissions.models import Bot, BotVersion
from tournaments import services
from tournaments.models import Tournament

from arena.bots.base import Bot as EngineBot
from arena.bots.heuristic import HeuristicBot
from arena.bots.random import RandomBot
from arena.engine.record import GameRecord, TakeRowChoice
from arena.local import play_game

PASSWORD = "a-long-test-password"

# One game of each variant for the viewer: (variant, players).
VIEWER_GAMES = [
    ("basic", 2),
    ("basic+luck", 4),
    ("pro", 4),
    ("pro+luck", 3),
    ("classic", 5),
]


def features(record: GameRecord) -> Counter[str]:
    """What happens in a game: action cards played, luck markers placed, rows taken."""
    seen: Counter[str] = Counter()
    for turn in record.turns:
        for choice in turn.choices:
            card = "" if isinstance(choice, TakeRowChoice) else choice.card
            seen[f"{choice.kind}:{card}"] += 1
    return seen


def richest_seed(variant: str, players: int, tries: int = 40) -> int:
    """The deal (of ``tries``) whose game, played by random bots, shows the most features."""

    def richness(seed: int) -> tuple[int, int]:
        record = play_game(
            variant,
            [RandomBot() for _ in range(players)],
            seed=seed,
            bot_seeds=[seed * 10 + k for k in range(players)],
            names=[f"p{k}" for k in range(players)],
        )
        seen = features(record)
        return (len(seen), sum(seen.values()))

    return max(range(1, tries + 1), key=richness)


@dataclass
class SiteData:
    alice: User
    bob: User
    olga: User
    bots: dict[str, Bot]
    ladders: dict[str, Ladder]
    viewer_matches: dict[str, Match] = field(default_factory=dict)
    showcase: Match | None = None
    tournament: Tournament | None = None


def engines(names: list[str]) -> list[EngineBot]:
    return [
        HeuristicBot() if "heur" in name or name == "alice-bot" else RandomBot() for name in names
    ]


def build(viewer_only: bool = False) -> SiteData:
    """The site. With ``viewer_only`` just the users, bots and one game per variant."""
    alice, bob = make_user("alice", PASSWORD), make_user("bob", PASSWORD)
    olga = organiser("olga", PASSWORD)
    bots = {
        "alice-bot": program_bot("alice-bot", owner=alice),
        "bob-bot": program_bot("bob-bot", owner=bob),
        "heuristic": program_bot("heuristic"),
        "random-1": program_bot("random-1"),
        "random-2": program_bot("random-2"),
        "random-3": program_bot("random-3"),
    }
    BotVersion.objects.filter(bot=bots["alice-bot"]).update(
        validation_log="Manifest: name 'alice-bot'.\nPASSED: the bot played the whole game."
    )
    ladders = {
        "basic": Ladder.objects.create(
            slug="basic-4", name="Basic · 4", variant="basic", players=4
        ),
        "pro+luck": Ladder.objects.create(
            slug="pro-luck-3", name="Pro + luck · 3", variant="pro+luck", players=3
        ),
        "classic": Ladder.objects.create(
            slug="classic-5", name="Card game · 5", variant="classic", players=5
        ),
    }
    data = SiteData(alice, bob, olga, bots, ladders)
    for variant, players in VIEWER_GAMES:
        lineup = list(bots.values())[:players]
        seed = richest_seed(variant, players)
        data.viewer_matches[variant] = engine_match(
            lineup, variant=variant, seed=seed, players=[RandomBot() for _ in lineup]
        )
    if viewer_only:
        return data
    names = list(bots)
    start = timezone.now() - dt.timedelta(hours=30)
    n = 0
    for key, count in (("basic", 48), ("pro+luck", 24), ("classic", 24)):
        ladder = ladders[key]
        for game in range(count):
            lineup_names = random.Random(n).sample(names, ladder.players)
            lineup = [bots[name] for name in lineup_names]
            faults = {}
            if key == "basic" and "bob-bot" in lineup_names and game % 9 == 4:
                at = lineup_names.index("bob-bot")
                faults[at] = [
                    {
                        "seat": at,
                        "kind": "timeout",
                        "turn": 6,
                        "game": 1,
                        "detail": "no answer within 1000 ms (bank empty)",
                    }
                ]
            match = engine_match(
                lineup,
                ladder=ladder,
                seed=1000 + n,
                players=engines(lineup_names),
                created_at=start + dt.timedelta(minutes=17 * n),
                faults=faults,
            )
            n += 1
            if key == "pro+luck":
                data.showcase = match
    data.tournament = finished_tournament(olga, bots)
    running = Match.objects.create(
        ladder=ladders["basic"],
        variant="basic",
        players=4,
        seed=77,
        status=Match.RUNNING,
        started_at=timezone.now(),
    )
    for number, name in enumerate(("heuristic", "bob-bot", "random-1", "alice-bot")):
        version = bots[name].active_version
        assert version is not None
        Seat.objects.create(match=running, seat=number, bot=bots[name], version=version)
    return data


def finished_tournament(olga: User, bots: dict[str, Bot]) -> Tournament:
    """A duplicate tournament of four bots, played here by the engine's house bots."""
    entrants = [
        bots[name].active_version for name in ("heuristic", "alice-bot", "bob-bot", "random-1")
    ]
    tournament = services.create(
        olga,
        name="Autumn duplicate",
        variant="basic",
        players=2,
        format=Tournament.DUPLICATE,
        games_per_pairing=6,
        rounds=1,
        versions=[v for v in entrants if v is not None],
        seed=11,
    )
    services.start(tournament, olga)
    for match in Match.objects.filter(tournament=tournament).order_by("id"):
        names = list(match.seats.order_by("seat").values_list("bot__name", flat=True))
        play_in_process(match, engines(names))
    services.advance(tournament.pk)
    tournament.refresh_from_db()
    return tournament
