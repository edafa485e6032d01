"""The bot kit on its own: KitBot's dispatch and defaults, and the command line of a bot."""

import random

import pytest

from arena.botkit import ArenaError, KitBot, main, token_from_env
from arena.bots.base import GameInfo
from arena.engine import Game, PlaceLuck, PlayAction
from arena.engine.decisions import DecisionKind
from arena.engine.observation import observe
from arena.table.defaults import default_decision


def pending_views(variant, players=4, games=6):
    """A view for every kind of decision the variant asks (random play)."""
    rng = random.Random(1)
    found = {}
    for seed in range(games):
        game = Game.new(variant, players=players, seed=seed)
        while game.pending is not None:
            seat = game.pending.seats[0]
            found.setdefault(game.pending.kind, observe(game, seat))
            game.apply(seat, rng.choice(game.legal(seat)))
    return found


@pytest.mark.parametrize("variant", ["basic", "pro+luck", "classic"])
def test_it_plays_the_arena_defaults_unless_told_otherwise(variant):
    bot = KitBot()
    for view in pending_views(variant).values():
        decision = bot.decide(view)
        assert decision == default_decision(view)
        assert decision in view.legal


def test_it_dispatches_each_decision_to_its_method():
    calls = []

    class Custom(KitBot):
        def choose_tile(self, view):
            calls.append("tile")
            return max(view.hand)

        def place_luck(self, view, card):
            calls.append(f"luck {card}")
            last = view.legal[-1]
            return last.row, last.space

        def play_action(self, view, tile):
            calls.append(f"action {tile}")
            return view.legal[-1]

    bot = Custom()
    views = pending_views("pro+luck")
    tile = bot.decide(views[DecisionKind.TILE])
    assert tile.tile == max(views[DecisionKind.TILE].hand)
    assert isinstance(bot.decide(views[DecisionKind.LUCK]), PlaceLuck)
    action = bot.decide(views[DecisionKind.ACTION])
    assert isinstance(action, PlayAction) and action == views[DecisionKind.ACTION].legal[-1]
    assert [c.split()[0] for c in calls] == ["tile", "luck", "action"]


def test_it_seeds_the_bots_generator_from_the_game():
    bot = KitBot()
    bot.start_game(GameInfo("basic", 4, 2, seed=99))
    first = bot.rng.random()
    bot.start_game(GameInfo("basic", 4, 2, seed=99))
    assert bot.rng.random() == first and bot.info.seat == 2


def test_it_asks_for_an_address_when_there_is_none(monkeypatch, capsys):
    monkeypatch.delenv("NIMMT_ENGINE", raising=False)
    with pytest.raises(SystemExit) as exit_:
        main(KitBot(), [])
    assert exit_.value.code == 2
    assert "NIMMT_ENGINE" in capsys.readouterr().err


def test_it_exits_1_when_the_arena_is_unreachable(tmp_path):
    code = main(
        KitBot(), ["--connect", f"unix://{tmp_path}/x.sock", "--connect-timeout", "0.2", "--quiet"]
    )
    assert code == 1


def test_it_reads_the_token_from_the_file_the_arena_names(monkeypatch, tmp_path):
    (tmp_path / "token").write_text("from-file")
    monkeypatch.setenv("NIMMT_TOKEN_FILE", str(tmp_path / "token"))
    monkeypatch.setenv("NIMMT_TOKEN", "from-env")
    assert token_from_env() == "from-file"


def test_it_falls_back_to_the_token_variable_for_a_bot_started_by_hand(monkeypatch):
    monkeypatch.delenv("NIMMT_TOKEN_FILE", raising=False)
    monkeypatch.setenv("NIMMT_TOKEN", "from-env")
    assert token_from_env() == "from-env"
    monkeypatch.delenv("NIMMT_TOKEN")
    assert token_from_env() == ""


def test_it_says_which_token_file_it_cannot_read(monkeypatch, tmp_path):
    monkeypatch.setenv("NIMMT_TOKEN_FILE", str(tmp_path / "missing"))
    with pytest.raises(ArenaError, match=r"NIMMT_TOKEN_FILE=.*missing"):
        token_from_env()
    code = main(KitBot(), ["--connect", f"unix://{tmp_path}/x.sock", "--quiet"])
    assert code == 1


def test_it_says_what_a_method_must_return():
    class Confused(KitBot):
        def choose_tile(self, view):
            return str(min(view.hand))

    view = pending_views("basic")[DecisionKind.TILE]
    with pytest.raises(TypeError, match=r"choose_tile\(\) must return a tile number"):
        Confused().decide(view)


def _request(view):
    from arena.protocol import arena_pb2 as pb
    from arena.protocol.convert import observation_to_proto

    message = pb.EngineMessage()
    message.request.request_id = 7
    message.request.deadline_ms = 5000
    message.request.view.CopyFrom(observation_to_proto(view))
    return message


def test_it_sends_the_note_a_bot_made_cut_to_the_limit_with_one_value_per_option():
    import math

    from arena.botkit import _Session

    class Noisy(KitBot):
        def choose_tile(self, view):
            self.annotate("é" * 900, {view.hand[0]: math.inf, view.hand[1]: 2.5, 999: 1.0})
            return view.hand[1]

    view = pending_views("basic")[DecisionKind.TILE]
    reply = _Session(Noisy()).handle(_request(view), 0.0)
    assert reply is not None
    answer = reply.answer
    assert answer.decision.tile.tile == view.hand[1]
    assert answer.note == "é" * 500  # 1000 bytes
    assert math.isnan(answer.option_values[0]) and list(answer.option_values[1:]) == [2.5]


def test_a_bot_without_a_note_sends_none_and_a_wrong_note_is_only_logged(caplog):
    from arena.botkit import _Session

    class Wrong(KitBot):
        def note(self):
            return "not a Note"

    view = pending_views("basic")[DecisionKind.TILE]
    plain = _Session(KitBot()).handle(_request(view), 0.0)
    assert plain is not None and plain.answer.note == "" and not plain.answer.option_values
    wrong = _Session(Wrong()).handle(_request(view), 0.0)
    assert wrong is not None and wrong.answer.note == ""
    assert "not a Note" in caplog.text


def test_the_kit_loads_neither_the_runner_nor_the_sandbox():
    """Every Python bot imports the kit at its start: it loads the engine's values and the
    protocol's messages, not the runner (match, seats, results), the sandbox, the rules
    themselves, or gRPC and asyncio (only the gRPC socket's client needs those)."""
    import subprocess
    import sys

    code = "import sys, arena.botkit; print(' '.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())  # fmt: skip
    heavy = {
        name
        for name in loaded
        if name.split(".")[:2] in (["arena", "runner"], ["arena", "sandbox"])
        or name == "arena.stats"
    }
    assert heavy == set()
    assert {"arena.protocol.convert", "arena.table.defaults", "arena.engine.observation"} <= loaded
    unused = {"arena.engine.game", "arena.engine.record", "arena.table.messages", "grpc"}
    assert loaded.isdisjoint(unused | {"asyncio", "ssl"}), loaded & (unused | {"asyncio", "ssl"})


def test_every_fault_and_notice_kind_has_its_message_value():
    from arena.protocol.convert import FAULT_TO_PROTO, NOTICE_TO_PROTO
    from arena.table.faults import FaultKind
    from arena.table.messages import NoticeKind

    assert {FAULT_TO_PROTO[kind] for kind in FaultKind} == set(FAULT_TO_PROTO.values())
    assert {NOTICE_TO_PROTO[kind] for kind in NoticeKind} == set(NOTICE_TO_PROTO.values())


BOT_WITH_CLEAN_UP = """
import atexit, sys
from arena.botkit import KitBot, run
atexit.register(lambda: print("cleaned up", flush=True))
sys.stdout.write("unflushed line")  # no newline, no flush: the kit's exit flushes it
run(KitBot())
"""


@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (["--connect", "unix:///nonexistent/x.sock", "--connect-timeout", "0.1"], 1, "cannot"),
        (["--no-such-option"], 2, "unrecognized arguments"),
        (["--help"], 0, "--connect ADDRESS"),
    ],
    ids=["unreachable", "usage", "help"],
)
def test_run_ends_the_process_with_mains_status_after_the_atexit_handlers_and_a_flush(
    tmp_path, args, status, said
):
    """``run`` skips the interpreter's teardown of its modules (a bot's start is the cost of a
    match), not what a program expects of its exit."""
    import subprocess
    import sys

    script = tmp_path / "bot.py"
    script.write_text(BOT_WITH_CLEAN_UP)
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == status, done.stderr
    assert done.stdout.startswith("unflushed line") and "cleaned up" in done.stdout
    assert said in done.stdout + done.stderr
