"""Replays in the ``nimmt-replay/1`` format (``docs/REPLAY.md``): write, read, verify, show.

A replay holds the deal and every decision, so anyone can re-play a game without our random
generator. It is read as a :class:`~arena.engine.record.GameRecord` (:func:`read`,
:func:`parse`, :func:`as_record`), never by key: a replay whose JSON lacks a field or has one of
the wrong type is a :class:`~arena.engine.errors.ReplayError` naming it. :func:`verify`
re-simulates one with the engine and lists every disagreement, under the reading of the rules
the replay names (``rules``; absent: ``nimmt-rules/1``), so that a published replay keeps its
verdict (:mod:`arena.engine.readings`).

>>> from arena.engine import Game
>>> game = Game.new("classic", players=3, seed=3)
>>> while not game.is_over():
...     for seat in game.pending.seats:
...         game.apply(seat, game.legal(seat)[0])
>>> data = to_replay(game, ["a", "b", "c"])
>>> data["format"], data["rules"], len(data["turns"]), verify(data)
('nimmt-replay/1', 'nimmt-rules/2', 10, [])
"""

import gzip
import json
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from .decisions import Decision, DecisionKind, PlaceLuck, PlayAction, PlayTile, TakeRow
from .errors import NimmtError, ReplayError
from .game import Game, competition_ranks
from .record import (
    ActionChoice,
    Fault,
    GameRecord,
    LuckChoice,
    Outcome,
    Player,
    Series,
    Setup,
    TakeRowChoice,
    Turn,
    choice_from_json,
)


def to_replay(
    game: Game,
    players: Sequence[str | dict[str, Any]],
    faults: Sequence[dict[str, Any]] = (),
    **extra: Any,
) -> dict[str, Any]:
    """The replay of a finished ``game``; ``players`` are names or dicts with at least ``name``.

    ``faults`` are the arena's records (``{"seat", "kind", "turn", "detail"}``); a faulted seat
    ranks below every seat without a fault. ``rules`` names the game's reading of the rules.
    ``extra`` keys are added at the top level (``series`` read as the record's series). The
    JSON of :func:`to_record`'s record: one way from a game to its replay.
    """
    series = extra.pop("series", None)
    record = to_record(game, players, faults, None if series is None else Series.from_json(series))
    return {**record.to_json(), **extra}


def to_record(
    game: Game,
    players: Sequence[str | dict[str, Any]],
    faults: Sequence[dict[str, Any]] = (),
    series: Series | None = None,
) -> GameRecord:
    """The record of a finished ``game`` (see :func:`to_replay`), in its match or series at
    ``series``: the record :meth:`GameRecord.from_json` reads from its replay, built from the
    game's own values (they need no checking, the player entries and faults aside).

    >>> from arena.engine import Game
    >>> game = Game.new("basic", players=2, seed=2)
    >>> while not game.is_over():
    ...     for seat in game.pending.seats:
    ...         game.apply(seat, game.legal(seat)[0])
    >>> record = to_record(game, ["a", "b"], series=Series(seed=2, game=1))
    >>> data = to_replay(game, ["a", "b"], series={"seed": 2, "game": 1})
    >>> record == GameRecord.from_json(data), record.to_json() == data
    (True, True)
    """
    _check_finished(game, players)
    setup = game.setup
    return GameRecord(
        variant=game.variant.name,
        seed=game.seed if game.seed is not None else 0,
        players=tuple(
            Player.from_json(p if isinstance(p, dict) else {"name": p}, f"players[{i}]")
            for i, p in enumerate(players)
        ),
        layout=tuple(game.layout),
        setup=Setup(
            rows=tuple(tuple(row) for row in setup["rows"]),
            hands=tuple(tuple(hand) for hand in setup["hands"]),
            supply=tuple(setup["supply"]),
            luck_deck=tuple(setup["luck_deck"]),
            action_deck=tuple(setup["action_deck"]),
        ),
        turns=tuple(
            Turn(tuple(t.plays), tuple(choice_from_json(c) for c in t.choices), tuple(t.scores))
            for t in game.turns
        ),
        result=Outcome(
            tuple(game.result().scores),
            _ranks(game, faults),
            tuple(Fault.from_json(f, f"faults[{i}]") for i, f in enumerate(faults)),
        ),
        rules=game.rules.name,
        series=series,
    )


def _check_finished(game: Game, players: Sequence[str | dict[str, Any]]) -> None:
    if not game.is_over():
        raise ReplayError("only a finished game has a replay")
    if len(players) != game.players:
        raise ReplayError(f"{game.players} seats but {len(players)} player entries")


def _ranks(game: Game, faults: Sequence[dict[str, Any]]) -> tuple[int, ...]:
    """The final ranks; a faulted seat ranks below every seat without a fault."""
    faulted = frozenset(f["seat"] for f in faults)
    return competition_ranks(game.result().scores, game.variant.higher_is_better, faulted)


def write(path: str | Path, replay: GameRecord | Mapping[str, Any]) -> None:
    """Write ``replay`` as JSON; gzip-compressed if the name ends in ``.gz``."""
    path = Path(path)
    data = replay.to_json() if isinstance(replay, GameRecord) else replay
    text = json.dumps(data, separators=(",", ":"))
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")


def read(path: str | Path) -> GameRecord:
    """Read a replay file (``.json`` or ``.json.gz``) as a record."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ReplayError(f"{path}: not a readable replay: {exc}") from exc
    return parse(raw, str(path))


def parse(raw: bytes, source: str) -> GameRecord:
    """A replay from its file's bytes (JSON, or gzip-compressed JSON), as a record; ``source``
    names it in errors."""
    try:
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, EOFError, zlib.error, RecursionError) as exc:
        raise ReplayError(f"{source}: not a readable replay: {exc}") from exc
    try:
        return GameRecord.from_json(data)
    except ReplayError as exc:
        raise ReplayError(f"{source}: {exc}") from None


def as_record(replay: GameRecord | Mapping[str, Any]) -> GameRecord:
    """``replay`` as a record: a record as it is, a replay's JSON object read with
    :meth:`GameRecord.from_json` (a :class:`ReplayError` names what is missing or mistyped).

    >>> as_record({"format": "nimmt-replay/1", "variant": "basic"})
    Traceback (most recent call last):
    ...
    arena.engine.errors.ReplayError: replay: key 'seed' is missing
    """
    return replay if isinstance(replay, GameRecord) else GameRecord.from_json(replay)


def iter_files(target: str | Path) -> Iterator[Path]:
    """The replay files at ``target``: the file itself, or every ``*.json[.gz]`` below a folder."""
    target = Path(target)
    if target.is_dir():
        yield from sorted(p for p in target.rglob("*") if p.name.endswith((".json", ".json.gz")))
    else:
        yield target


def start(replay: GameRecord | Mapping[str, Any]) -> Game:
    """The game as ``replay``'s deal sets it up, before the first turn, under the reading the
    replay names (unchecked: see :func:`simulate` for a replay that may be broken)."""
    record = as_record(replay)
    setup = record.setup
    return Game.from_setup(
        record.variant,
        [list(row) for row in setup.rows],
        [list(hand) for hand in setup.hands],
        list(setup.supply),
        list(setup.luck_deck),
        list(setup.action_deck),
        rules=record.reading,
    )


def simulate(replay: GameRecord | Mapping[str, Any]) -> tuple[Game, list[str]]:
    """Re-play ``replay`` with the engine; the game and every disagreement found.

    Declined action cards have no entry in a replay, so where the engine asks for an action
    card and the next recorded choice is not that seat's action, the seat declined.
    """
    record = as_record(replay)
    problems: list[str] = []
    try:
        game = start(record)
    except (NimmtError, LookupError) as exc:  # LookupError: a hand for a seat beyond the board's
        raise ReplayError(f"setup: {exc}") from exc
    if len(record.players) != game.players:
        problems.append(f"{len(record.players)} players listed, {game.players} hands dealt")
    if tuple(game.layout) != record.layout:
        problems.append(f"layout {list(record.layout)} is not the {game.variant.name} board")
    for i, turn in enumerate(record.turns):
        where = f"turn {i + 1}"
        try:
            replay_turn(game, turn)
        except (NimmtError, LookupError) as exc:  # LookupError: a play for a seat that is not
            # there
            problems.append(f"{where}: {exc}")
            return game, problems
        if tuple(game.turns[-1].scores) != turn.scores:
            problems.append(
                f"{where}: scores after the turn are {game.turns[-1].scores}, "
                f"replay says {list(turn.scores)}"
            )
    if not game.is_over():
        problems.append(f"the game is not over after {len(record.turns)} turns")
        return game, problems
    result = game.result()
    if tuple(result.scores) != record.result.scores:
        problems.append(
            f"final scores are {list(result.scores)}, replay says {list(record.result.scores)}"
        )
    faulted = frozenset(f.seat for f in record.result.faults)
    ranks = competition_ranks(result.scores, game.variant.higher_is_better, faulted)
    if tuple(ranks) != record.result.ranks:
        problems.append(f"ranks are {list(ranks)}, replay says {list(record.result.ranks)}")
    return game, problems


def verify(replay: GameRecord | Mapping[str, Any]) -> list[str]:
    """Every disagreement between ``replay`` and a re-simulation (empty: it verifies)."""
    return simulate(replay)[1]


def replay_turn(
    game: Game,
    turn: Turn | Mapping[str, Any],
    before: Callable[[Game, int, Decision], None] | None = None,
) -> None:
    """Play one recorded turn of a replay (a :class:`~arena.engine.record.Turn`, or its JSON
    object, read as one) on ``game``.

    Each seat's tile, then every recorded choice in the order the game asks for it; where the
    game asks for an action card the record does not hold, the seat declines. ``before(game,
    seat, decision)`` is called before each decision is applied (the seat's view is then the
    one it decided in). Raises
    :class:`ReplayError` where the record and the game disagree (and any
    :class:`~arena.engine.errors.NimmtError` the game raises for an illegal decision).

    >>> from arena.engine import Game
    >>> game = Game.new("basic", players=2, seed=1)
    >>> replay_turn(game, {"plays": [game.hands[0][0], game.hands[1][-1]], "choices": [],
    ...                    "scores": [0, 0]})
    >>> len(game.turns), game.turns[0].scores == game.scores
    (1, True)
    """
    if not isinstance(turn, Turn):
        turn = Turn.from_json(turn)
    if game.is_over():
        raise ReplayError("the game is already over")
    start = len(game.turns)

    def apply(seat: int, decision: Decision) -> None:
        if before is not None:
            before(game, seat, decision)
        game.apply(seat, decision)

    for seat, tile in enumerate(turn.plays):
        if tile is not None:
            apply(seat, PlayTile(tile))
    choices = list(turn.choices)
    while len(game.turns) == start + 1 and game.in_turn():
        pending = game.pending
        assert pending is not None
        seat = pending.seats[0]
        nxt = choices[0] if choices else None
        if pending.kind is DecisionKind.ACTION and not (
            isinstance(nxt, ActionChoice) and nxt.seat == seat and nxt.tile == pending.tile
        ):
            apply(seat, PlayAction(None))
            continue
        if nxt is None:
            raise ReplayError(f"seat {seat} owes a {pending.kind.value} decision; none recorded")
        choices.pop(0)
        if nxt.seat != seat or nxt.kind != pending.kind.value:
            raise ReplayError(
                f"recorded {nxt.kind} by seat {nxt.seat}, but the game asks "
                f"seat {seat} for {pending.kind.value}"
            )
        if isinstance(nxt, LuckChoice):
            if nxt.card != pending.card:
                raise ReplayError(f"luck card {nxt.card!r} recorded, {pending.card!r} drawn")
            apply(seat, PlaceLuck(nxt.row, nxt.space))
        elif isinstance(nxt, TakeRowChoice):
            apply(seat, TakeRow(nxt.row))
        else:
            apply(seat, PlayAction(nxt.card, nxt.row, nxt.new_tile))
    if len(game.turns) != start + 1:
        raise ReplayError("the recorded plays do not complete the tile choice")
    if choices:
        left = [c.to_json() for c in choices]
        raise ReplayError(f"choices left over after the turn: {left}")


def render(replay: GameRecord | Mapping[str, Any]) -> Iterator[str]:
    """The game turn by turn as text lines: plays, decisions, board and scores."""
    record = as_record(replay)
    _game, problems = simulate(record)
    names = record.names
    yield (
        f"{record.variant} · {len(names)} players · seed {record.seed} · "
        f"rules {record.reading.name} · " + ", ".join(f"{i}:{n}" for i, n in enumerate(names))
    )
    fresh = start(record)
    yield from _board_lines(fresh)
    for i, turn in enumerate(record.turns):
        plays = ", ".join(
            f"{_name_of(names, s)} {t}" for s, t in enumerate(turn.plays) if t is not None
        )
        yield ""
        yield f"Turn {i + 1}: {plays}"
        for c in turn.choices:
            fields = c.to_json()
            detail = " ".join(f"{k}={v}" for k, v in fields.items() if k not in ("seat", "kind"))
            yield f"  {_name_of(names, c.seat)}: {c.kind} {detail}"
        try:
            replay_turn(fresh, turn)
        except (NimmtError, LookupError) as exc:
            yield f"  cannot re-play this turn: {exc}"
            break
        yield from _board_lines(fresh)
        yield "  scores: " + "  ".join(
            f"{_name_of(names, s)} {v}" for s, v in enumerate(turn.scores)
        )
    res = record.result
    yield ""
    yield "Result: " + "  ".join(
        f"#{r} {_name_of(names, s)} {v}"
        for s, (v, r) in enumerate(zip(res.scores, res.ranks, strict=False))
    )
    for f in res.faults:
        yield f"Fault: {_name_of(names, f.seat)} {f.kind} in turn {f.turn + 1}: {f.detail or ''}"
    for p in problems:
        yield f"MISMATCH: {p}"


def _name_of(names: Sequence[str], seat: int) -> str:
    """The seat's player's name (``seat N`` for a seat the replay lists no player for)."""
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _board_lines(game: Game) -> Iterator[str]:
    for r, spaces in enumerate(game.spaces):
        cells = []
        for s, tile in enumerate(spaces):
            kind = game.layout[r][s] if game.layout else "."
            mark = {"plus5": "*", "final10": "!"}.get(game.markers[r][s] or "", "")
            if tile > 0:
                cells.append(f"{tile:>3}{mark}".ljust(5))
            elif tile < 0:
                cells.append("  x  ")
            else:
                cells.append(f"  {kind}{mark}".ljust(5))
        stop = " STOP" if r in game.stops else ""
        yield f"  {r:>2} |" + "".join(cells) + stop
