"""No bot is dealt the same deal twice: a duplicate match plays each seat rotation with fresh
bot processes (and new house bot instances), so a bot that remembers deals learns nothing of
its opponents' hands from a deal it saw before; bots that could remember across processes (a
bot started by hand, a remote bot, a person) are refused a duplicate match."""

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import ClassVar

import pytest

from arena.bots.base import Bot, GameInfo
from arena.engine.decisions import Decision
from arena.engine.observation import Observation
from arena.protocol import arena_pb2 as pb
from arena.runner.lineup import MatchError
from arena.runner.manifest import load
from arena.runner.match import Entrant, MatchConfig, run_match
from arena.runner.seat import Seat

from .conftest import FAST, fixture_bot, needs_bwrap, play

#: The bot that logs every deal its process is dealt, and a repeat: the one the site's tests
#: seat too (its house bots folder).
REMEMBERS_DEALS = Path(__file__).parent.parent / "platform" / "bots" / "remembers_deals"

DEALT = re.compile(r"^DEALT (\w+) (\w+) (\w+)$", re.M)


def dealt(log: str) -> dict[str, list[str]]:
    """Per process of the bot (its random name), the boards it was dealt, in order."""
    boards: dict[str, list[str]] = defaultdict(list)
    for process, board, _hand in DEALT.findall(log):
        boards[process].append(board)
    return dict(boards)


@needs_bwrap
def test_no_process_of_a_bot_that_remembers_deals_sees_a_deal_twice(tmp_path: Path) -> None:
    entrants = [
        Entrant("ann", program=load(REMEMBERS_DEALS)),
        Entrant("ben", program=load(REMEMBERS_DEALS)),
        Entrant("cat", program=load(REMEMBERS_DEALS)),
    ]
    result = play(entrants, tmp_path, games=6, duplicate=True)
    for bot in result.bots:
        assert bot.faults == () and bot.dropped is None, bot
        assert bot.program is not None and bot.program.log == f"logs/{bot.name}.log"
        log = (tmp_path / bot.program.log).read_text("utf-8")
        assert "REPEAT" not in log, log
        per_process = dealt(log)
        # one process per seat rotation, each dealt both deals once
        assert len(per_process) == 3, log
        for boards in per_process.values():
            assert len(boards) == len(set(boards)) == 2, log
        # each deal reached the bot once per rotation, each time in another process
        assert sorted(Counter(b for bs in per_process.values() for b in bs).values()) == [3, 3]
        assert log.count("the arena started the bot afresh") == 2, log
    # The games are the duplicate series' (numbered and stored as before).
    assert [r.series.deal if r.series else None for r in result.replays] == [1, 1, 1, 2, 2, 2]
    assert [r.seed for r in result.replays] == [5, 5, 5, 6, 6, 6]
    match = json.loads((tmp_path / "match.json").read_text("utf-8"))
    assert match["duplicate"] is True and len(match["replays"]) == 6


class _Remembering(Bot):
    """A house bot that notes each board it is dealt, per instance."""

    instances: ClassVar[list["_Remembering"]] = []

    def __init__(self) -> None:
        self.boards: list[tuple[tuple[int, ...], ...]] = []
        self.fresh = False
        _Remembering.instances.append(self)

    def start_game(self, info: GameInfo) -> None:
        self.fresh = True

    def decide(self, view: Observation) -> Decision:
        if self.fresh:
            self.boards.append(view.spaces)
            self.fresh = False
        return view.legal[0]


def test_house_bots_in_process_are_new_instances_for_each_rotation() -> None:
    _Remembering.instances = []
    entrants = [Entrant(name, in_process=_Remembering) for name in ("a", "b", "c", "d")]
    config = MatchConfig("basic", 8, 3, duplicate=True)
    result = run_match(config, entrants)
    assert len(result.replays) == 8
    assert len(_Remembering.instances) == 16  # 4 entrants x 4 rotations
    for bot in _Remembering.instances:
        assert len(bot.boards) == len(set(bot.boards)) == 2  # both deals, once each


def test_a_single_match_keeps_one_instance_of_each_house_bot() -> None:
    _Remembering.instances = []
    entrants = [Entrant(name, in_process=_Remembering) for name in ("a", "b")]
    run_match(MatchConfig("basic", 4, 3), entrants)
    assert len(_Remembering.instances) == 2


def test_a_duplicate_match_refuses_a_bot_started_by_hand(tmp_path: Path) -> None:
    entrants = [Entrant("hand", external=True), Entrant("r", in_process=_Remembering)]
    config = MatchConfig("basic", 2, 1, out=tmp_path, duplicate=True, **FAST)
    with pytest.raises(MatchError, match="a duplicate match cannot seat hand: a bot started by"):
        run_match(config, entrants)


def test_a_duplicate_match_refuses_a_bot_with_a_seat_of_its_own() -> None:
    async def join(key: str, welcome: pb.Welcome, wait: float) -> Seat:
        raise AssertionError("never asked to join")

    entrants = [Entrant("remote", joined=join), Entrant("r", in_process=_Remembering)]
    with pytest.raises(MatchError, match=r"cannot seat remote: .* \(a remote bot, a person\)"):
        run_match(MatchConfig("basic", 2, 1, duplicate=True), entrants)


@needs_bwrap
def test_a_bot_dropped_in_one_rotation_is_not_started_again_in_the_next(tmp_path: Path) -> None:
    entrants = [
        fixture_bot("crash-at-start"),
        Entrant("r", in_process=_Remembering),
    ]
    result = play(entrants, tmp_path, games=4, duplicate=True)
    crashed = result.bots[0]
    assert crashed.dropped is not None and crashed.dropped.before_start
    # a fault in every game, listed by game although played rotation by rotation
    assert [f.game for f in crashed.faults] == [1, 2, 3, 4]
    assert crashed.program is not None and crashed.program.log is not None
    log = (tmp_path / crashed.program.log).read_text("utf-8")
    assert log.count("model.bin is missing") == 1, log  # started once, never again
    assert "started the bot afresh" not in log
