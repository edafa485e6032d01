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
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, example, given, settings
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
)
from arena.engine.frames import (
    FORMAT,
    Frame,
    Frames,
    UnverifiedReplayError,
    frames,
)
from arena.engine.game import (
    SKIPPED,
    ActionPlayed,
    Asked,
    Event,
    GameOver,
    Landed,
    LuckPlaced,
    Revealed,
    RowCompleted,
    RowTaken,
    SixthCard,
    TurnEnded,
)
from arena.engine.replay import read, simulate, start, to_replay

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
    game = start(replay)
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
            assert step.heads == sum(film.bullheads[t] for t in step.tiles)
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
        replay = read(path).to_json()
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
# Another's new tile asked about at once (reading 2): the position it is asked in is a step.
@example(variant="pro+luck", players=3, seed=0, choices=4_294_967_295)
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
            placed = next(f.step for f in film.frames[i + 1 :] if f.step.kind in ("land", "action"))
            if placed.kind == "action":  # Another's new tile went first, with a card of its own
                assert step.card == "another" and placed.tile == step.new_tile
                continue
            assert placed.seat == step.seat
            if step.card == "swap":
                assert placed.tile == step.new_tile
            elif step.card == "another":  # both tiles go now, lowest first (reading 2)
                assert step.new_tile is not None and step.tile is not None
                assert placed.tile == min(step.tile, step.new_tile)
            else:
                assert placed.tile == step.tile
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
    with pytest.raises(ReplayError, match="replay: expected an object"):
        frames([])  # type: ignore[arg-type]
    with pytest.raises(ReplayError, match="setup"):
        replay = random_replay("basic", 2, seed=1)
        replay["setup"]["hands"][0][0] = replay["setup"]["hands"][1][0]  # a tile twice
        frames(replay)
    with pytest.raises(ReplayError, match="finished"):
        frames(Game.new("basic", 2, seed=1))


# ---------------------------------------------------------------- the step events frames draw


def fill(spaces: list[int]) -> int:
    """The next empty space: after the last tile (a skipped space counts as filled)."""
    return max((i + 1 for i, t in enumerate(spaces) if t != 0), default=0)


class Ledger:
    """The game as its step events tell it: the deal, then each event applied in order to
    plain lists as the rules say (RULES.md 3, 5, 7), checked against the game after each one.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.spaces = [list(row) for row in game.spaces]
        self.markers: list[list[str | None]] = [list(row) for row in game.markers]
        self.stops: set[int] = set()
        self.hands = [list(hand) for hand in game.hands]
        self.held: list[list[str]] = [[] for _ in game.hands]
        self.scores = [0] * game.players
        self.supply = list(game.supply)
        self.luck_deck = list(game.luck_deck)
        self.action_deck = list(game.action_deck)
        self.box: list[int] = []
        self.tray: list[tuple[int, int]] = []  # revealed (tile, seat) not yet on the board
        self.played: ActionPlayed | None = None  # its effect comes with the next step
        self.effect: str | None = None  # a Skip or Front card, for the landing it changes
        self.final: tuple[int, ...] | None = None
        self.events: list[Event] = []

    def row(self, row: int) -> list[int]:
        return [t for t in self.spaces[row] if t > 0]

    def apply(self, event: Event) -> None:
        """Apply ``event``, then check that the position is the game's (the listener)."""
        self.events.append(event)
        if self.played is not None:
            self.settle(self.played)
            self.played = None
        match event:
            case Revealed(turn, plays):
                assert turn == len(self.game.turns) and list(plays) == sorted(plays)
                for tile, seat in plays:
                    self.hands[seat].remove(tile)
                self.tray = list(plays)
                assert self.tray == self.game.to_place()
            case ActionPlayed(seat, _tile, card):
                assert card in self.held[seat]
                self.played = event
            case Landed(seat, tile, row, space, delta):
                self.tray.remove((tile, seat))
                tiles, end = self.spaces[row], fill(self.spaces[row])
                if self.effect == "front":
                    assert space == 0 and end + 1 < len(tiles)
                    tiles[1 : end + 1] = tiles[:end]
                elif self.effect == "skip":
                    assert space == end + 1
                    tiles[end] = SKIPPED
                else:
                    assert space == end
                self.effect = None
                tiles[space] = tile
                self.scores[seat] += delta
                if event.drew_tile is not None:
                    assert self.supply.pop(0) == event.drew_tile
                    self.hands[seat].append(event.drew_tile)
                if event.drew_card is not None:
                    assert self.action_deck.pop(0) == event.drew_card
                    self.held[seat].append(event.drew_card)
                self.draw_luck(delta, event.drew_luck)
            case RowCompleted(seat, tile, row, tiles, claimed, to_row, delta):
                assert self.spaces[row][-1] == tile and tuple(self.row(row)[:-1]) == tiles
                (self.hands[seat] if claimed else self.box).extend(tiles)
                self.spaces[row] = [0] * len(self.spaces[row])
                self.markers[row] = [None] * len(self.spaces[row])
                self.stops.discard(row)
                assert not any(self.spaces[to_row])
                self.spaces[to_row][0] = tile
                self.scores[seat] += delta
                self.draw_luck(delta, event.drew_luck)
            case SixthCard(seat, tile, row):
                assert len(self.row(row)) == 5 and (tile, seat) in self.tray
            case RowTaken(seat, tile, row, tiles, delta, chosen):
                self.tray.remove((tile, seat))
                assert tuple(self.row(row)) == tiles
                assert chosen == (self.events[-2:-1] != [SixthCard(seat, tile, row)])
                self.box.extend(tiles)
                self.spaces[row] = [tile] + [0] * (len(self.spaces[row]) - 1)
                self.scores[seat] += delta
            case LuckPlaced(_seat, card, row, space):
                assert self.spaces[row][space] == 0 and self.markers[row][space] is None
                self.markers[row][space] = card
            case TurnEnded(turn, scores, second_set):
                assert turn == len(self.game.turns) and not self.tray
                assert list(scores) == self.scores == self.game.turns[-1].scores
                self.stops.clear()
                if second_set:
                    size = self.game.variant.hand_size
                    for hand in self.hands:
                        hand.extend(self.supply[:size])
                        del self.supply[:size]
            case GameOver(scores):
                self.final = scores
            case Asked(pending):
                if pending.kind is DecisionKind.LUCK:
                    landing = self.events[-2]  # the step that drew it
                    assert isinstance(landing, Landed | RowCompleted)
                    assert landing.drew_luck == pending.card
        self.check()

    def draw_luck(self, delta: int, card: str | None) -> None:
        """A seat that lost points draws the next luck card (if it fits somewhere)."""
        if card is not None:
            assert delta < 0 and self.luck_deck.pop(0) == card

    def settle(self, played: ActionPlayed) -> None:
        """The effect of an action card, which the step after it shows."""
        seat, tile, card = played.seat, played.tile, played.card
        self.held[seat].remove(card)
        if card == "stop":
            assert played.row is not None
            self.stops.add(played.row)
        elif card == "swap":
            assert played.new_tile is not None
            self.hands[seat].remove(played.new_tile)
            self.hands[seat].append(tile)
            self.tray[self.tray.index((tile, seat))] = (played.new_tile, seat)
        elif card == "another":
            assert played.new_tile is not None
            self.hands[seat].remove(played.new_tile)
            self.tray.append((played.new_tile, seat))
        elif card in ("skip", "front"):
            self.effect = card

    def check(self) -> None:
        """The position is the game's, and every tile is in exactly one place."""
        game, last = self.game, self.events[-1]
        assert self.scores == game.scores, last
        assert self.spaces == game.spaces, last
        assert self.markers == game.markers and self.stops == game.stops, last
        assert [sorted(h) for h in self.hands] == game.hands and self.held == game.held, last
        assert self.supply == game.supply and self.box == game.box, last
        assert self.luck_deck == game.luck_deck and self.action_deck == game.action_deck
        every = [t for row in self.spaces for t in row if t > 0]
        every += [t for hand in self.hands for t in hand] + [t for t, _seat in self.tray]
        assert sorted(every + self.supply + self.box) == list(range(1, game.variant.tiles + 1))


def watched_game(variant: str, players: int, seed: int, choices: int) -> tuple[Game, Ledger]:
    game = Game.new(variant, players, seed)
    ledger = Ledger(game)
    game.listen(ledger.apply)
    rng = random.Random(choices)
    while not game.is_over():
        for seat in game.pending.seats if game.pending else ():
            game.apply(seat, rng.choice(game.legal(seat)))
    return game, ledger


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**64 - 1), choices=st.integers(0, 2**32))
def test_the_step_events_applied_in_order_account_for_every_score_change_and_tile_placement(
    variant: str, players: int, seed: int, choices: int
) -> None:
    game, ledger = watched_game(variant, players, seed, choices)
    assert ledger.final == game.result().scores
    table = game.bullheads
    penalty = [sum(table[t] for t in hand) if game.variant.actions else 0 for hand in game.hands]
    assert list(ledger.final) == [s - p for s, p in zip(ledger.scores, penalty, strict=True)]
    kinds = Counter(type(event).__name__ for event in ledger.events)
    assert kinds["Revealed"] == kinds["TurnEnded"] == len(game.turns) and kinds["GameOver"] == 1


def test_every_kind_of_step_event_occurs_and_watching_changes_nothing_in_play() -> None:
    kinds: Counter[str] = Counter()
    for variant, players in [("pro+luck", 3), ("pro+luck", 5), ("basic", 2), ("classic", 6)]:
        for seed in range(4):
            game, ledger = watched_game(variant, players, seed, choices=seed)
            kinds.update(type(event).__name__ for event in ledger.events)
            plain = Game.new(variant, players, seed)
            rng = random.Random(seed)
            while not plain.is_over():
                for seat in plain.pending.seats if plain.pending else ():
                    plain.apply(seat, rng.choice(plain.legal(seat)))
            assert to_replay(plain, ["a"] * players) == to_replay(game, ["a"] * players)
    assert set(kinds) == {kind.__name__ for kind in get_args(Event)}


def test_a_copy_of_a_watched_game_is_not_watched_and_a_listener_can_stop() -> None:
    game = Game.new("basic", players=2, seed=5)
    seen: list[Event] = []
    game.listen(seen.append)
    copy = game.clone()
    for seat in (0, 1):
        copy.apply(seat, copy.legal(seat)[0])
    assert seen == []
    game.apply(0, game.legal(0)[0])
    game.unlisten(seen.append)
    game.apply(1, game.legal(1)[0])
    assert seen == []
    with pytest.raises(ValueError):
        game.unlisten(seen.append)
