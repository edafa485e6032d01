"""The house bots ``random`` and ``heuristic``: legal in every variant, reproducible, and the
heuristic clearly stronger than random."""

import random
from collections.abc import Callable

import pytest

from arena.bots.base import Bot, GameInfo
from arena.bots.heuristic import HeuristicBot, Weights, _Board, _Context, _place
from arena.bots.random import RandomBot
from arena.bots.registry import make_bot
from arena.engine import (
    VARIANT_NAMES,
    DecisionKind,
    Game,
    PlaceLuck,
    PlayAction,
    PlayTile,
    TakeRow,
    variant,
)
from arena.engine.observation import observe
from arena.engine.readings import READING_1, READING_2, Reading
from arena.engine.record import Turn
from arena.local import play_game, series_game
from arena.stats import SeatedGame, summarize_series

KINDS = {
    "basic": {DecisionKind.TILE},
    "basic+luck": {DecisionKind.TILE, DecisionKind.LUCK},
    "pro": {DecisionKind.TILE, DecisionKind.ACTION},
    "pro+luck": {DecisionKind.TILE, DecisionKind.LUCK, DecisionKind.ACTION},
    "classic": {DecisionKind.TILE, DecisionKind.TAKE_ROW},
}

BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def _rest(*exclude: list[int], tiles: int = 100) -> list[int]:
    used = {t for part in exclude for t in part}
    return [t for t in range(1, tiles + 1) if t not in used]


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_each_bot_answers_every_decision_kind_legally(name: str) -> None:
    """Many games per player count; at every decision both bots are asked and must be legal."""
    seen: set[DecisionKind] = set()
    rng = random.Random(name)
    for players in variant(name).players:
        for game_no in range(3 if players <= 6 else 1):
            game = Game.new(name, players, seed=rng.randrange(10**6))
            bots = {label: [make() for _ in range(players)] for label, make in BOTS.items()}
            for seated in bots.values():
                for seat, bot in enumerate(seated):
                    bot.start_game(GameInfo(name, players, seat, seed=seat + 10 * game_no))
            while (pending := game.pending) is not None:
                seen.add(pending.kind)
                seat = pending.seats[0]
                view = observe(game, seat)
                answers = {label: bots[label][seat].decide(view) for label in BOTS}
                for label, decision in answers.items():
                    assert decision in view.legal, (label, pending, decision)
                game.apply(seat, answers["heuristic" if seat % 2 == game_no % 2 else "random"])
    assert seen == KINDS[name]


@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_it_plays_the_same_game_with_the_same_seeds(spec: str) -> None:
    def replay(bot_seeds: list[int]) -> tuple[Turn, ...]:
        bots = [make_bot(spec) for _ in range(3)]
        return play_game("pro+luck", bots, 9, bot_seeds, "abc").turns

    assert replay([1, 2, 3]) == replay([1, 2, 3])
    if spec == "random":
        assert replay([1, 2, 3]) != replay([4, 5, 6])


def _series(name: str, specs: list[str], games: int) -> list[float]:
    seated = []
    for i in range(games):
        game = series_game(7, i, len(specs))
        bots = [make_bot(specs[entry]) for entry in game.seats]
        names = [specs[entry] for entry in game.seats]
        result = play_game(name, bots, game.deal_seed, game.bot_seeds(7), names).result
        seated.append(SeatedGame(game.seats, result.scores, result.ranks))
    return [row.mean_score for row in summarize_series(specs, seated)]


def test_heuristic_beats_random_in_basic_over_200_games() -> None:
    heuristic, *randoms = _series("basic", ["heuristic", "random", "random", "random"], 200)
    assert all(heuristic > r + 8 for r in randoms), (heuristic, randoms)


@pytest.mark.parametrize("name", ["basic+luck", "pro", "pro+luck", "classic"])
def test_heuristic_beats_random_in_every_variant(name: str) -> None:
    means = _series(name, ["heuristic", "random", "heuristic", "random"], 40)
    heuristic, rand = means[0] + means[2], means[1] + means[3]
    better = heuristic > rand if variant(name).higher_is_better else heuristic < rand
    assert better, means


@pytest.mark.parametrize("name", ["basic", "pro", "classic"])
def test_heuristic_finds_the_row_the_engine_uses(name: str) -> None:
    rng = random.Random(3)
    for _ in range(5):
        game = Game.new(name, 4, seed=rng.randrange(1000))
        while not game.is_over():
            board = _Board.of(observe(game, 0))
            on_board = {t for row in game.spaces for t in row}
            for tile in range(1, game.variant.tiles + 1):
                if tile not in on_board:
                    assert board.target(tile) == game.target_row(tile)
            for seat in game.pending.seats if game.pending else ():
                game.apply(seat, rng.choice(game.legal(seat)))


@pytest.mark.parametrize("rules", [READING_1, READING_2], ids=lambda r: r.name)
def test_heuristic_models_the_points_of_a_basic_turn_exactly(rules: Reading) -> None:
    """Placing the revealed tiles in order, the bot's board model gives the engine's points
    (under the game's reading: tile 55 carries 7 under reading 1, 5 under reading 2)."""
    rng = random.Random(5)
    ctx = _Context(Weights(), players=4, luck_left=False, actions_left=False, end_weight=0.0)
    for _ in range(20):
        game = Game.new("basic", 4, seed=rng.randrange(10**6), rules=rules)
        while not game.is_over():
            board = _Board.of(observe(game, 0))
            before = list(game.scores)
            plays = {seat: rng.choice(game.hands[seat]) for seat in range(4)}
            expected = [0.0] * 4
            for tile, seat in sorted((t, s) for s, t in plays.items()):
                expected[seat] += _place(board, ctx, tile)
            for seat, tile in plays.items():
                game.apply(seat, PlayTile(tile))
            assert [a - b for a, b in zip(game.scores, before, strict=True)] == expected


@pytest.mark.parametrize("rules", [READING_1, READING_2], ids=lambda r: r.name)
def test_heuristic_models_the_points_of_every_action_card_exactly(rules: Reading) -> None:
    """With the weights of draws, cards and claims at 0, the bot's outcome of an action card
    (its own placement and the rest of the turn) is the engine's points, under either reading:
    the Stop card's rows, the Another card's order, what Plus five is worth."""
    bot = HeuristicBot("draw=0,action=0,claim=0,luck=0")
    ctx = _Context(bot.weights, players=3, luck_left=False, actions_left=True, end_weight=0.0)
    rng = random.Random(8)
    cards: set[str] = set()
    for _ in range(25):
        game = Game.new("pro", 3, seed=rng.randrange(10**6), rules=rules)
        while not game.is_over():
            pending = game.pending
            assert pending is not None
            seat = pending.seats[0]
            if pending.kind is DecisionKind.ACTION:
                assert pending.tile is not None
                view = observe(game, seat)
                for option in view.legal:
                    assert isinstance(option, PlayAction)
                    ours, theirs = bot._action_outcome(
                        view, _Board.of(view), ctx, pending.tile, option
                    )
                    trial = game.clone()
                    before = list(trial.scores)
                    trial.apply(seat, option)
                    while trial.in_turn():  # the rest of the turn, every other card declined
                        asked = trial.pending
                        assert asked is not None and asked.kind is DecisionKind.ACTION
                        trial.apply(asked.seats[0], PlayAction(None))
                    gained = [a - b for a, b in zip(trial.turns[-1].scores, before, strict=True)]
                    assert ours == gained[seat], (option, rules.name)
                    assert theirs == sum(gained) - gained[seat], (option, rules.name)
                    cards.add(str(option.card))
            game.apply(seat, rng.choice(game.legal(seat)))
    assert cards >= {"stop", "another", "plus5", "None"}


def _decide(game: Game, seat: int) -> object:
    bot = HeuristicBot()
    bot.start_game(GameInfo(game.variant.name, game.players, seat, seed=0))
    return bot.decide(observe(game, seat))


def test_heuristic_does_not_complete_a_row_when_it_can_avoid_it() -> None:
    rows = [[10, 11, 12, 13, 14], [50], [70], [90]]  # row 0: the next tile fills its final space
    hands = [[15, 60], [30, 95]]
    game = Game.from_setup("basic", rows + [[]] * 6, hands, _rest(*rows, *hands))
    assert _decide(game, 0) == PlayTile(60)


def test_heuristic_does_not_take_the_sixth_card_when_it_can_avoid_it() -> None:
    rows = [[10, 11, 12, 13, 14], [50], [70], [90]]
    hands = [[15, 60], [30, 95]]
    game = Game.from_setup("classic", rows, hands, _rest(*rows, *hands, tiles=104))
    assert _decide(game, 0) == PlayTile(60)


def test_heuristic_takes_the_row_with_fewest_bullheads() -> None:
    rows = [[55, 60], [44], [20, 21, 22], [33, 90]]  # bullheads 10, 5, 5, 8
    hands = [[3, 70], [80, 81]]
    game = Game.from_setup("classic", rows, hands, _rest(*rows, *hands, tiles=104))
    game.apply(0, PlayTile(3))
    game.apply(1, PlayTile(80))
    assert game.pending is not None and game.pending.kind is DecisionKind.TAKE_ROW
    assert _decide(game, 0) == TakeRow(1)


def _pro_position(held: list[str], rows: list[list[int]], tile: int) -> Game:
    hands = [[tile, 40, 41, 42], [96, 97, 98, 99]]  # enough tiles left: not the endgame
    game = Game.from_setup("pro", rows + [[]] * 6, hands, _rest(*rows, *hands), held=[held, []])
    game.apply(0, PlayTile(tile))
    game.apply(1, PlayTile(99))
    assert game.pending is not None and game.pending.kind is DecisionKind.ACTION
    return game


def test_heuristic_plays_anywhere_to_avoid_completing_a_row() -> None:
    # Row 0 (...D-F) has five tiles: tile 15 would fill its final space and take 11 bullheads.
    game = _pro_position(["anywhere"], [[10, 11, 12, 13, 14], [50], [70], [90]], 15)
    decision = _decide(game, 0)
    assert isinstance(decision, PlayAction) and decision.card == "anywhere"
    assert decision.row != 0


def test_heuristic_keeps_plus_five_unless_the_landing_loses_points() -> None:
    losing = _pro_position(["plus5"], [[10, 11, 12, 13], [50], [70], [90]], 15)  # lands on -
    assert _decide(losing, 0) == PlayAction("plus5")
    plain = _pro_position(["plus5"], [[10], [50], [70], [90]], 15)  # lands on a plain space
    assert _decide(plain, 0) == PlayAction(None)


def test_heuristic_puts_plus_five_where_its_next_tile_lands() -> None:
    # Tile 24 lands on row 0's '-' space and draws the Plus five card; tile 41 goes next to
    # row 1 (40 ....+F), space 1, and no unseen tile can come between 40 and 41.
    rows = [[20, 21, 22, 23], [40], [80], [85]]
    hands = [[24, 41], [90, 91]]
    game = Game.from_setup(
        "basic+luck", rows + [[]] * 6, hands, _rest(*rows, *hands), luck_deck=["plus5"]
    )
    game.apply(0, PlayTile(24))
    game.apply(1, PlayTile(90))
    assert game.pending is not None and game.pending.kind is DecisionKind.LUCK
    assert _decide(game, 0) == PlaceLuck(1, 1)


def test_bots_reject_unknown_options() -> None:
    with pytest.raises(ValueError, match="takes no options"):
        make_bot("random:fast")
    with pytest.raises(ValueError, match="bad heuristic option"):
        make_bot("heuristic:depth=3")
    with pytest.raises(ValueError, match="needs a number"):
        make_bot("heuristic:near=lots")
    assert Weights.parse("near=0, keep=2") == Weights(near=0.0, keep=2.0)
