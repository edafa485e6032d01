"""The viewer's frames (arena/engine/frames.py) against the engine itself.

The engine's states come from the public Game API, driven through the replay independently of
the frames: after each turn (the replay's first k turns re-simulated), at every decision the
engine asks for inside a turn, and at the end. Frames between those points are checked by what
they must show: each revealed tile lands once, rows complete where a final space is filled,
scores add up step by step.
"""

import json
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.engine import (
    VARIANT_NAMES,
    DecisionKind,
    Game,
    PlaceLuck,
    PlayAction,
    PlayTile,
    ReplayError,
    TakeRow,
    bullheads,
)
from arena.engine.frames import (
    FORMAT,
    Frame,
    Frames,
    UnverifiedReplayError,
    _Recorder,
    frames,
)
from arena.engine.replay import read, simulate, to_replay

GOLDEN = Path(__file__).parent / "golden"
CASES = [("basic", 2), ("basic", 5), ("basic+luck", 4), ("pro", 3), ("pro", 6), ("pro+luck", 2)]
CASES += [("pro+luck", 4), ("classic", 2), ("classic", 10)]


def random_replay(variant: str, players: int, seed: int, choices: int = 0) -> dict[str, Any]:
    game = Game.new(variant, players, seed)
    rng = random.Random(choices)
    while not game.is_over():
        for seat in game.pending.seats if game.pending else ():
            game.apply(seat, rng.choice(game.legal(seat)))
    return to_replay(game, [f"p{s}" for s in range(players)])


@dataclass(frozen=True)
class EngineState:
    """What the engine holds at a point of the game, as the frames name it."""

    spaces: tuple[tuple[int, ...], ...]
    markers: tuple[tuple[str | None, ...], ...]
    stops: tuple[int, ...]
    scores: tuple[int, ...]
    hands: tuple[int, ...]
    held: tuple[tuple[str, ...], ...]
    supply: int
    luck_deck: int
    action_deck: int
    tray: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, game: Game) -> "EngineState":
        current = (game.current,) if game.current is not None else ()
        return cls(
            spaces=tuple(map(tuple, game.spaces)),
            markers=tuple(map(tuple, game.markers)),
            stops=tuple(sorted(game.stops)),
            scores=tuple(game.scores),
            hands=tuple(len(h) for h in game.hands),
            held=tuple(map(tuple, game.held)),
            supply=len(game.supply),
            luck_deck=len(game.luck_deck),
            action_deck=len(game.action_deck),
            tray=(*current, *game.to_place()),
        )

    @classmethod
    def shown(cls, frame: Frame) -> "EngineState":
        return cls(
            frame.spaces,
            frame.markers,
            frame.stops,
            frame.scores,
            frame.hands,
            frame.held,
            frame.supply,
            frame.luck_deck,
            frame.action_deck,
            frame.tray,
        )


def engine_after(replay: dict[str, Any], turns: int) -> Game:
    game, _problems = simulate({**replay, "turns": replay["turns"][:turns]})
    return game


def decision_states(replay: dict[str, Any]) -> list[tuple[str, int, EngineState]]:
    """The engine's position at every decision it asks for inside a turn, in order: the
    replay driven decision by decision through Game.apply."""
    setup = replay["setup"]
    game = Game.from_setup(
        replay["variant"],
        setup["rows"],
        setup["hands"],
        setup["supply"],
        setup["luck_deck"],
        setup["action_deck"],
    )
    found = []
    for turn in replay["turns"]:
        for seat, tile in enumerate(turn["plays"]):
            if tile is not None:
                game.apply(seat, PlayTile(tile))
        choices = list(turn["choices"])
        while game.in_turn():
            pending = game.pending
            assert pending is not None
            seat = pending.seats[0]
            found.append((pending.kind.value, seat, EngineState.of(game)))
            nxt = choices[0] if choices else {}
            if pending.kind is DecisionKind.ACTION:
                if nxt.get("kind") == "action" and nxt.get("tile") == pending.tile:
                    choices.pop(0)
                    game.apply(seat, PlayAction(nxt["card"], nxt.get("row"), nxt.get("new_tile")))
                else:
                    game.apply(seat, PlayAction(None))
            elif pending.kind is DecisionKind.LUCK:
                choices.pop(0)
                game.apply(seat, PlaceLuck(nxt["row"], nxt["space"]))
            else:
                choices.pop(0)
                game.apply(seat, TakeRow(nxt["row"]))
    return found


def placed_tiles(replay: dict[str, Any]) -> Counter[int]:
    """Every tile put on the board in the game, by the replay: the plays, the tiles an
    Another card adds, a Swap card's tile instead of the one it takes back (a claimed tile
    can be played again: counts)."""
    tiles: Counter[int] = Counter()
    for turn in replay["turns"]:
        tiles.update(t for t in turn["plays"] if t is not None)
        for c in turn["choices"]:
            if c["kind"] == "action" and c["card"] in ("another", "swap"):
                tiles[c["new_tile"]] += 1
            if c["kind"] == "action" and c["card"] == "swap":
                tiles[c["tile"]] -= 1
    return +tiles


def check_against_the_engine(replay: dict[str, Any], film: Frames) -> None:
    turns = len(replay["turns"])
    assert film.turns == turns
    assert film.turn_ends[0] == 0 and film.frames[0].step.kind == "setup"
    # After every turn: the engine re-simulated to that turn.
    for k, index in enumerate(film.turn_ends):
        frame, game = film.frames[index], engine_after(replay, k)
        assert frame.turn == k
        assert frame.step.kind == ("setup" if k == 0 else "end")
        assert EngineState.shown(frame) == EngineState.of(game), f"after turn {k}"
    # At every decision inside a turn, in order.
    asked = [(f.asks.kind, f.asks.seat, EngineState.shown(f)) for f in film.frames if f.asks]
    assert asked == decision_states(replay)
    # At the end.
    final, problems = simulate(replay)
    assert problems == []
    assert film.frames[-1].step.over
    assert film.result.scores == final.result().scores
    assert list(film.result.ranks) == replay["result"]["ranks"]


def check_the_steps(replay: dict[str, Any], film: Frames) -> None:
    """What every frame between the engine's own states must show."""
    landed: Counter[int] = Counter()
    scores = [0] * len(film.players)
    for i, frame in enumerate(film.frames):
        step = frame.step
        board = [t for row in frame.spaces for t in row if t > 0]
        tray = [t for t, _seat in frame.tray]
        assert len(set(board + tray)) == len(board) + len(tray), f"frame {i}: a tile twice"
        scores = [s + d for s, d in zip(scores, frame.deltas, strict=True)]
        assert scores == list(frame.scores), f"frame {i}: deltas do not add up"
        if step.kind in ("land", "take"):
            assert step.tile is not None and step.row is not None and step.space is not None
            assert frame.spaces[step.row][step.space] == step.tile, f"frame {i}"
            assert step.tile not in tray
            if step.kind == "land" or step.chosen:
                landed[step.tile] += 1
        if film.layout and step.kind == "land" and step.row is not None:
            final = step.space == film.row_lengths[step.row] - 1
            assert final == (film.frames[i + 1].step.kind == "complete"), f"frame {i}"
        if step.kind == "complete":
            assert step.tile is not None and step.to_row is not None and step.row is not None
            assert frame.spaces[step.to_row][0] == step.tile
            assert all(t not in board for t in step.tiles)
            assert step.heads == sum(bullheads(t) for t in step.tiles)
            assert all(t <= 0 for t in frame.spaces[step.row])  # cleared
        if step.kind == "sixth":
            assert step.tile not in board and film.frames[i + 1].step.kind == "take"
            landed[step.tile or 0] += 1
        if step.kind == "end":
            assert frame.tray == () and frame.stops == ()
        assert frame.turn == (0 if i == 0 else film.frames[i - 1].turn + (step.kind == "reveal"))
    assert landed == placed_tiles(replay)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_the_frames_are_the_engines_positions_at_every_turn_and_decision(
    variant: str, players: int
) -> None:
    for seed in range(3):
        replay = random_replay(variant, players, seed, choices=seed + 100)
        film = frames(replay)
        check_against_the_engine(replay, film)
        check_the_steps(replay, film)


@pytest.mark.parametrize("folder", sorted(p.name for p in GOLDEN.iterdir() if p.is_dir()))
def test_the_golden_replays_of_real_matches_have_frames_that_agree_with_the_engine(
    folder: str,
) -> None:
    for path in sorted((GOLDEN / folder).glob("game-*.json")):
        replay = read(path)
        film = frames(replay)
        check_against_the_engine(replay, film)
        check_the_steps(replay, film)
        data = json.loads(json.dumps(film.to_json()))
        assert data["format"] == FORMAT and len(data["frames"]) == len(film.frames)
        assert all(set(f) == {"seat", "kind", "turn"} for f in data["result"]["faults"])
        for frame, shown in zip(film.frames, data["frames"], strict=True):
            step = frame.step
            assert shown["step"] == {
                key: list(value) if isinstance(value, tuple) else value
                for key, value in step.__dict__.items()
                if value is not None and value is not False and value != ()
            }
            assert shown["spaces"] == [list(row) for row in frame.spaces]
            grid: list[list[str | None]] = [[None] * len(row) for row in frame.spaces]
            for r, s, card in shown["markers"]:
                grid[r][s] = card
            assert grid == [list(row) for row in frame.markers]
        assert len(data["result"]["faults"]) == len(replay["result"]["faults"])


EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@EXAMPLES
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**64 - 1),
    choices=st.integers(0, 2**32),
)
def test_any_game_of_any_variant_has_frames_that_agree_with_the_engine(
    variant: str, players: int, seed: int, choices: int
) -> None:
    replay = random_replay(variant, players, seed, choices)
    film = frames(replay)
    check_against_the_engine(replay, film)
    check_the_steps(replay, film)


def test_every_action_card_is_a_step_before_the_placement_it_changes() -> None:
    seen: set[str] = set()
    for seed in range(60):
        film = frames(random_replay("pro+luck", 4, seed, choices=seed))
        for i, frame in enumerate(film.frames):
            step = frame.step
            if step.kind != "action":
                continue
            assert step.card is not None and step.seat is not None
            seen.add(step.card)
            assert frame.tray[0] == (step.tile, step.seat)  # the tile it is played on, in play
            placed = next(f.step for f in film.frames[i + 1 :] if f.step.kind == "land")
            assert placed.seat == step.seat
            assert placed.tile == (step.new_tile if step.card == "swap" else step.tile)
            after = film.frames[i + 1]
            if step.card == "stop":
                assert step.row in after.stops
            if step.card == "front":
                assert (placed.row, placed.space) == (step.row, 0)
            if step.card in ("ascending", "anywhere"):
                assert placed.row == step.row
            if step.card == "skip":
                assert placed.row is not None and placed.space is not None
                assert frame.spaces[placed.row][placed.space - 1] == 0
                assert after.spaces[placed.row][placed.space - 1] == -1
        if len(seen) == 8:
            break
    assert seen == {"stop", "swap", "skip", "front", "ascending", "anywhere", "another", "plus5"}


def test_luck_cards_and_claims_are_steps_of_their_own() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(20):
        film = frames(random_replay("pro+luck", 3, seed, choices=seed))
        for i, frame in enumerate(film.frames):
            step = frame.step
            if step.kind == "luck":
                assert step.row is not None and step.space is not None
                assert frame.markers[step.row][step.space] == step.card
                assert film.frames[i - 1].markers[step.row][step.space] is None
                kinds[f"luck:{step.card}"] += 1
            if step.kind == "complete" and step.to == "hand":
                assert step.seat is not None and step.tiles
                before = film.frames[i - 1].hands[step.seat]
                assert frame.hands[step.seat] == before + len(step.tiles)
                kinds["claim"] += 1
            if step.kind == "land" and "tile" in step.drew:
                assert step.seat is not None
                assert frame.supply == film.frames[i - 1].supply - 1
                kinds["draw"] += 1
    assert kinds["luck:plus5"] and kinds["luck:final10"] and kinds["claim"] and kinds["draw"]


def test_a_second_set_and_the_end_are_marked_on_the_turns_that_end_them() -> None:
    film = frames(random_replay("basic", 2, seed=3))
    ends = [film.frames[i].step for i in film.turn_ends[1:]]
    assert [s.second_set for s in ends].index(True) == 11  # after turn 12 of 24
    assert [s.over for s in ends] == [False] * 23 + [True]


def test_a_finished_game_gives_the_frames_of_its_replay() -> None:
    game = Game.new("classic", players=4, seed=9)
    rng = random.Random(9)
    while not game.is_over():
        for seat in game.pending.seats if game.pending else ():
            game.apply(seat, rng.choice(game.legal(seat)))
    film = frames(game)
    assert film.players == ("seat 0", "seat 1", "seat 2", "seat 3")
    assert film.frames[-1].spaces == tuple(map(tuple, game.spaces))
    assert film.to_json() == frames(to_replay(game, list(film.players))).to_json()


def test_a_replay_whose_scores_are_false_has_no_frames() -> None:
    replay = random_replay("basic", 3, seed=5)
    replay["turns"][4]["scores"][1] += 3
    with pytest.raises(UnverifiedReplayError) as caught:
        frames(replay)
    assert "turn 5: scores after the turn" in str(caught.value)
    assert isinstance(caught.value, ReplayError) and caught.value.problems


def test_a_replay_with_an_illegal_play_or_missing_turns_has_no_frames() -> None:
    replay = random_replay("pro", 3, seed=6)
    hand = replay["setup"]["hands"][0]
    replay["turns"][0]["plays"][0] = next(t for t in range(1, 101) if t not in hand)
    with pytest.raises(UnverifiedReplayError, match=r"turn 1: tile .* is not in seat 0's hand"):
        frames(replay)
    short = random_replay("classic", 3, seed=6)
    short["turns"] = short["turns"][:-1]
    with pytest.raises(UnverifiedReplayError, match="not over"):
        frames(short)


def test_what_is_not_a_replay_or_not_finished_is_refused_with_a_replay_error() -> None:
    with pytest.raises(ReplayError, match="format"):
        frames({**random_replay("basic", 2, seed=1), "format": "nimmt-replay/9"})
    with pytest.raises(ReplayError, match="JSON object"):
        frames([])  # type: ignore[arg-type]
    with pytest.raises(ReplayError, match="setup"):
        replay = random_replay("basic", 2, seed=1)
        replay["setup"]["hands"][0][0] = replay["setup"]["hands"][1][0]  # a tile twice
        frames(replay)
    with pytest.raises(ReplayError, match="finished"):
        frames(Game.new("basic", 2, seed=1))


def test_the_recorder_hooks_only_transitions_the_game_still_has() -> None:
    """frames.py notes its steps from the Game's own transitions; a renamed one would leave
    steps out silently, so this names it."""
    hooked = {name for name in vars(_Recorder) if name.startswith("_") and name[1] != "_"}
    hooked -= {"_where"}
    assert hooked == {"_run", "_land", "_place_classic", "_take_row", "_play_action"}
    missing = sorted(name for name in hooked if not callable(vars(Game).get(name)))
    assert missing == [], f"Game no longer has {missing}: update arena/engine/frames.py"
