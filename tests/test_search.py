"""The ``search`` bot: legal decisions of every kind in every variant, a budget it keeps (counted
on a mocked clock and in playouts, never timed), an opponent model that plays consistent games,
reproducible from its seed."""

import random
from collections.abc import Callable

import pytest

import arena.bots.rollouts as rollouts
import arena.bots.search as search
from arena.bots.base import GameInfo
from arena.bots.heuristic import HeuristicBot
from arena.bots.random import RandomBot
from arena.bots.registry import make_bot
from arena.bots.rollouts import Rule
from arena.bots.search import SearchBot, Settings, landing_values
from arena.bots.timing import Deadline
from arena.engine import VARIANT_NAMES, Game
from arena.engine.decisions import Decision, DecisionKind, PlayTile
from arena.engine.observation import observe
from arena.engine.playout import Position
from arena.engine.sampling import Sampler
from arena.engine.tiles import BULLHEADS
from arena.runner.manifest import HOUSE_BOTS, house_program


def play(
    variant: str, players: int, seed: int, seats: dict[int, SearchBot]
) -> tuple[Game, list[tuple[DecisionKind, Decision]]]:
    """One game, the given seats played by search bots and the rest at random."""
    game = Game.new(variant, players, seed)
    bots = {s: seats.get(s) or RandomBot() for s in range(players)}
    for seat, bot in bots.items():
        bot.start_game(GameInfo(variant, players, seat, seed * 31 + seat))
    taken: list[tuple[DecisionKind, Decision]] = []
    while (pending := game.pending) is not None:
        views = [observe(game, s) for s in pending.seats]
        for view in views:
            decision = bots[view.seat].decide(view)
            assert decision in view.legal
            if view.seat in seats:
                taken.append((pending.kind, decision))
            game.apply(view.seat, decision)
    return game, taken


def kinds_of(variant: str) -> set[DecisionKind]:
    want = {DecisionKind.TILE}
    if "luck" in variant:
        want.add(DecisionKind.LUCK)
    if variant.startswith("pro"):
        want.add(DecisionKind.ACTION)
    if variant == "classic":
        want.add(DecisionKind.TAKE_ROW)
    return want


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_it_takes_legal_decisions_of_every_kind_in_every_variant(variant: str) -> None:
    want, seed = kinds_of(variant), 0
    seen: set[DecisionKind] = set()
    while not want <= seen:
        _, taken = play(variant, 3, seed, {s: SearchBot("playouts=12") for s in range(3)})
        seen |= {kind for kind, _ in taken}
        seed += 1
        assert seed < 20, f"no {want - seen} decision in 20 games"


@pytest.mark.parametrize("players", [2, 6])
def test_it_plays_at_the_smallest_and_largest_tables(players: int) -> None:
    game, taken = play("pro+luck", players, 4, {0: SearchBot("playouts=12")})
    assert game.is_over() and taken


def test_the_same_seed_gives_the_same_decisions() -> None:
    first = play("pro+luck", 3, 5, {0: SearchBot("playouts=40")})[1]
    again = play("pro+luck", 3, 5, {0: SearchBot("playouts=40")})[1]
    assert first == again


def fake_clock(step_ms: float) -> tuple[list[None], Callable[[], float]]:
    readings: list[None] = []

    def now() -> float:
        readings.append(None)
        return len(readings) * step_ms / 1000

    return readings, now


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_it_stops_when_the_clock_says_the_budget_is_spent(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock advances 1 ms per reading: a 30 ms budget ends after about 30 readings, one
    per sample, whatever the machine's speed."""
    readings, now = fake_clock(1.0)
    monkeypatch.setattr(search, "Deadline", lambda ms, clock: Deadline(ms, clock, now=now))
    view = observe(Game.new(variant, 4, 6), 2)
    bot = SearchBot("ms=30,clock=cpu")
    bot.start_game(GameInfo(variant, 4, 2, 1))
    assert bot.decide(view) in view.legal
    rounds = 4  # ceil(log2(12 tiles)), 10 cards in the card game
    assert 30 <= len(readings) <= 30 + rounds + 1


def test_a_spent_budget_still_gives_every_option_one_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A clock that is already past the deadline at the first reading: one sample, then stop."""
    calls: list[int] = []
    real = Position.playouts

    def counted(self: Position, *args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    _, now = fake_clock(1000.0)
    monkeypatch.setattr(search, "Deadline", lambda ms, clock: Deadline(ms, clock, now=now))
    monkeypatch.setattr(Position, "playouts", counted)
    view = observe(Game.new("basic", 4, 3), 0)
    bot = SearchBot("ms=30")
    assert bot.decide(view) in view.legal
    assert len(calls) == 1  # 12 options, PER_SAMPLE = 8: one playout of each


@pytest.mark.parametrize("rollout", ["random", "rule"])
def test_a_fixed_number_of_playouts_is_not_exceeded(
    rollout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[int] = []
    real = rollouts.classic_playouts
    position_playouts = Position.playouts

    def counted(
        pos: Position,
        rng: random.Random,
        seat: int,
        decisions: list[Decision],
        explore: float = 0.1,
        repeat: int = 1,
        rule: Rule | None = None,
    ) -> object:
        played.append(len(decisions) * repeat)
        if rollout == "random":
            return position_playouts(pos, rng, seat, decisions, repeat=repeat, rule=rule)
        return real(pos, rng, seat, decisions, explore)

    if rollout == "random":
        monkeypatch.setattr(Position, "playouts", counted)
    else:
        monkeypatch.setattr(search, "classic_playouts", counted)
    view = observe(Game.new("classic", 4, 8), 1)
    bot = SearchBot(f"playouts=400,rollout={rollout}")
    bot.start_game(GameInfo("classic", 4, 1, 3))
    assert bot.decide(view) in view.legal
    assert 200 <= sum(played) <= 400


@pytest.mark.parametrize(
    ("variant", "options", "rule"),
    [("basic", "", None), ("pro+luck", "", 0.1), ("pro", "rollout=rule,explore=0.3", 0.3)],
)
def test_board_game_rollouts_play_by_the_rule_by_default_in_pro_luck_or_when_asked(
    variant: str, options: str, rule: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules: list[object] = []
    real = Position.playouts

    def recorded(self: Position, *args: object, **kwargs: object) -> object:
        rules.append(kwargs.get("rule"))
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Position, "playouts", recorded)
    view = observe(Game.new(variant, 4, 5), 1)
    bot = SearchBot(f"playouts=200,{options}")
    bot.start_game(GameInfo(variant, 4, 1, 2))
    assert bot.decide(view) in view.legal
    assert rules and set(rules) == {None if rule is None else Rule(rule)}


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_opponent_model_plays_the_modeled_tiles_first_and_keeps_every_tile(
    variant: str,
) -> None:
    rng = random.Random(7)
    game = Game.new(variant, 4, 12)
    view = observe(game, 0)
    bot = SearchBot()
    model = bot._opponent_model(view, bot.settings.for_variant(variant))
    assert model is not None
    sample = Sampler(view).position(rng)
    dealt = [list(h) for h in sample.hands]  # the model changes the sample in place
    modeled = model(sample, rng)
    assert modeled.to_choose == (0,)
    for s in (1, 2, 3):
        tile = modeled.chosen[s]
        assert tile is not None and tile in dealt[s]
        assert sorted([*modeled.hands[s], tile]) == sorted(dealt[s])
    turns, scores = modeled.trace(rng, 0, PlayTile(view.hand[0]))
    assert turns[0]["plays"] == [view.hand[0], *modeled.chosen[1:]]
    assert len(scores) == 4
    # The modeled sample plays out like a game: every decision of seat 0 gives final scores.
    for result in modeled.playouts(rng, 0, list(view.legal)):
        assert len(result) == 4


def test_landing_values_count_the_sixth_card_and_the_lowest_card() -> None:
    rows = [[10, 11, 12, 13, 14], [30], [50], [70]]
    hands = [[1, 15, 31, 60, 80, 90, 91, 92, 93, 94], [2, 3, 4, 5, 6, 7, 8, 9, 16, 17]]
    used = {t for part in (*rows, *hands) for t in part}
    box = [t for t in range(1, 105) if t not in used]
    game = Game.from_setup("classic", rows=rows, hands=hands, supply=[], box=box)
    values = landing_values(observe(game, 0))
    assert values[15] == -sum(BULLHEADS[t] for t in (10, 11, 12, 13, 14))
    assert values[1] == -min(BULLHEADS[30], BULLHEADS[50], BULLHEADS[70])
    assert values[31] == values[80] == 0.0


def test_a_long_option_list_keeps_the_heuristic_pick() -> None:
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        game = Game.new("pro+luck", 2, seed)
        while (pending := game.pending) is not None and checked < 12:
            seat = pending.seats[0]
            view = observe(game, seat)
            if len(view.legal) > 24:
                bot = SearchBot()
                options = bot.candidates(view, HeuristicBot().decide(view))
                assert set(options) <= set(view.legal)
                assert HeuristicBot().decide(view) in options
                checked += 1
            game.apply(seat, rng.choice(game.legal(seat)))
    assert checked


def test_it_is_registered_with_options_and_ships_as_a_program() -> None:
    bot = make_bot("search:ms=50,clock=cpu,objective=margin")
    assert isinstance(bot, SearchBot)
    assert bot.settings == Settings(ms=50, clock="cpu", objective="margin")
    for bad in ("search:ms=0", "search:clock=sundial", "search:temperature=-1", "search:depth=3"):
        with pytest.raises(ValueError, match="bot 'search'"):
            make_bot(bad)
    assert "search" in HOUSE_BOTS
    assert house_program("search").name == "search"


def test_it_refuses_a_view_with_nothing_to_decide() -> None:
    game = Game.new("basic", 2, 1)
    game.apply(0, game.legal(0)[0])
    with pytest.raises(ValueError, match="nothing to decide"):
        SearchBot().decide(observe(game, 0))


def test_landing_values_count_bullheads_by_the_games_reading() -> None:
    """Board game: tile 55 landing on a + space gains 5 under nimmt-rules/2, 7 under /1."""
    from arena.engine.readings import READING_1, READING_2

    rows = [[10], [20], [30], [50, 52], *([[]] * 6)]  # row 3 is "..+F": 55 lands on its +
    hands = [list(range(60, 72)), list(range(72, 84))]
    used = {t for part in (*rows, *hands) for t in part}
    supply = [t for t in range(1, 101) if t not in used]
    for rules, gain in ((READING_2, 5.0), (READING_1, 7.0)):
        game = Game.from_setup("basic", rows, hands, supply, rules=rules)
        assert landing_values(observe(game, 0))[55] == gain
