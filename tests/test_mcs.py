"""The ``mcs`` bot: legal decisions of every kind in every variant, reproducible from its seed,
better than random play."""

import random
import statistics

import pytest

from arena.bots.base import GameInfo
from arena.bots.mcs import (
    COMPILED_COSTS,
    GAME_COSTS,
    MAX_PLAYOUTS,
    MIN_PLAYOUTS,
    MonteCarloBot,
    Settings,
    playouts_for,
    shortlist,
)
from arena.bots.random import RandomBot
from arena.bots.registry import make_bot
from arena.engine import VARIANT_NAMES, Game
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import observe
from arena.engine.playout import BACKEND


def play(
    variant: str, players: int, seed: int, mcs_seats: dict[int, MonteCarloBot]
) -> tuple[Game, list[tuple[DecisionKind, Decision]]]:
    """One game, the given seats played by mcs bots and the rest at random; mcs decisions."""
    game = Game.new(variant, players, seed)
    bots = {s: mcs_seats.get(s) or RandomBot() for s in range(players)}
    for seat, bot in bots.items():
        bot.start_game(GameInfo(variant, players, seat, seed * 31 + seat))
    taken: list[tuple[DecisionKind, Decision]] = []
    while (pending := game.pending) is not None:
        views = [observe(game, s) for s in pending.seats]
        for view in views:
            decision = bots[view.seat].decide(view)
            assert decision in view.legal
            if view.seat in mcs_seats:
                taken.append((pending.kind, decision))
            game.apply(view.seat, decision)
    return game, taken


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_it_takes_legal_decisions_of_every_kind(variant: str) -> None:
    kinds: set[DecisionKind] = set()
    seed = 0
    want = {DecisionKind.TILE}
    if "luck" in variant:
        want.add(DecisionKind.LUCK)
    if variant.startswith("pro"):
        want.add(DecisionKind.ACTION)
    if variant == "classic":
        want.add(DecisionKind.TAKE_ROW)
    while not want <= kinds:
        bots = {s: MonteCarloBot("playouts=8") for s in range(3)}
        _, taken = play(variant, 3, seed, bots)
        kinds |= {kind for kind, _ in taken}
        seed += 1
        assert seed < 20, f"no {want - kinds} decision in 20 games"


def test_the_same_seed_gives_the_same_decisions() -> None:
    first = play("pro+luck", 3, 5, {0: MonteCarloBot("playouts=40")})[1]
    again = play("pro+luck", 3, 5, {0: MonteCarloBot("playouts=40")})[1]
    assert first == again


def test_the_default_budget_is_reproducible_too() -> None:
    game = Game.new("basic", 4, 9)
    view = observe(game, 2)
    choices = []
    for _ in range(2):
        bot = MonteCarloBot()
        bot.start_game(GameInfo("basic", 4, 2, 77))
        choices.append(bot.decide(view))
    assert choices[0] == choices[1]
    assert MIN_PLAYOUTS <= playouts_for(view, Settings().budget, 4) <= MAX_PLAYOUTS


def test_the_budget_is_costed_for_the_backend_that_plays() -> None:
    """The compiled core's playouts are far cheaper, so the same budget buys more of them."""
    view = observe(Game.new("pro", 4, 3), 0)
    game = playouts_for(view, 30.0, costs=GAME_COSTS[1])
    compiled = playouts_for(view, 30.0, costs=COMPILED_COSTS[1])
    assert compiled > 10 * game
    expected = COMPILED_COSTS if BACKEND == "compiled" else GAME_COSTS
    assert playouts_for(view, 30.0) == playouts_for(view, 30.0, costs=expected[1])


@pytest.mark.parametrize("variant", ["basic", "classic"])
def test_it_beats_random_players(variant: str) -> None:
    mine, theirs = [], []
    for seed in range(16):
        seat = seed % 4
        game, _ = play(variant, 4, seed, {seat: MonteCarloBot("playouts=120")})
        scores = game.result().scores
        mine.append(scores[seat])
        theirs.append(statistics.mean(scores[s] for s in range(4) if s != seat))
    if variant == "classic":  # penalty points: fewer is better
        assert statistics.mean(mine) < statistics.mean(theirs)
    else:
        assert statistics.mean(mine) > statistics.mean(theirs)


def test_it_is_registered_with_options() -> None:
    bot = make_bot("mcs:playouts=50,objective=rank")
    assert isinstance(bot, MonteCarloBot)
    assert bot.settings == Settings(playouts=50, objective="rank")
    with pytest.raises(ValueError, match="unknown option"):
        make_bot("mcs:depth=3")
    with pytest.raises(ValueError, match="bad value"):
        make_bot("mcs:playouts=-1")


def test_a_time_budget_is_kept() -> None:
    import time

    game = Game.new("pro", 4, 1)
    view = observe(game, 0)
    bot = MonteCarloBot("ms=30")
    bot.start_game(GameInfo("pro", 4, 0, 1))
    start = time.perf_counter()
    assert bot.decide(view) in view.legal
    assert time.perf_counter() - start < 0.5  # generous: the machine may be busy


def test_long_option_lists_are_cut_to_a_shortlist() -> None:
    rng = random.Random(2)
    for seed in range(30):
        game = Game.new("pro+luck", 2, seed)
        while (pending := game.pending) is not None:
            seat = pending.seats[0]
            view = observe(game, seat)
            options = shortlist(view, rng)
            assert set(options) <= set(view.legal)
            assert len(options) == min(len(view.legal), 24) or pending.kind is DecisionKind.TILE
            game.apply(seat, rng.choice(game.legal(seat)))


def test_it_plays_to_the_end_of_the_game_by_default() -> None:
    from arena.bots.mcs import DEFAULT_TURNS

    assert Settings().turns is None
    assert set(DEFAULT_TURNS) == set(VARIANT_NAMES)
    assert all(turns == 0 for turns in DEFAULT_TURNS.values())


def test_a_time_budget_stops_on_the_named_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mocked processor clock that advances 1 ms per reading: the search stops after about
    ``ms`` readings, whatever the wall clock says."""
    import arena.bots.mcs as mcs
    from arena.bots.timing import Deadline

    readings: list[None] = []

    def fake_cpu() -> float:
        readings.append(None)
        return len(readings) / 1000

    monkeypatch.setattr(mcs, "Deadline", lambda ms, clock: Deadline(ms, clock, now=fake_cpu))
    view = observe(Game.new("classic", 4, 2), 1)
    bot = MonteCarloBot("ms=20,clock=cpu")
    bot.start_game(GameInfo("classic", 4, 1, 5))
    assert bot.decide(view) in view.legal
    assert 20 <= len(readings) <= 30


def test_a_bad_clock_is_refused() -> None:
    assert Settings.parse("ms=5,clock=cpu").clock == "cpu"
    with pytest.raises(ValueError, match="clock: wall, cpu"):
        Settings.parse("clock=sundial")
