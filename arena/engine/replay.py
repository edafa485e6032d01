"""Replays in the ``nimmt-replay/1`` format (``docs/REPLAY.md``): write, read, verify, show.

A replay holds the deal and every decision, so anyone can re-play a game without our random
generator. :func:`verify` re-simulates one with the engine and lists every disagreement, under
the reading of the rules the replay names (``rules``; absent: ``nimmt-rules/1``), so that a
published replay keeps its verdict (:mod:`arena.engine.readings`).

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
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .decisions import Decision, DecisionKind, PlaceLuck, PlayAction, PlayTile, TakeRow
from .errors import NimmtError, ReplayError
from .game import Game, competition_ranks
from .readings import READINGS, of_replay
from .variants import VARIANT_NAMES

FORMAT = "nimmt-replay/1"


def to_replay(
    game: Game,
    players: Sequence[str | dict[str, Any]],
    faults: Sequence[dict[str, Any]] = (),
    **extra: Any,
) -> dict[str, Any]:
    """The replay of a finished ``game``; ``players`` are names or dicts with at least ``name``.

    ``faults`` are the arena's records (``{"seat", "kind", "turn", "detail"}``); a faulted seat
    ranks below every seat without a fault. ``rules`` names the game's reading of the rules.
    ``extra`` keys are added at the top level.
    """
    if not game.is_over():
        raise ReplayError("only a finished game has a replay")
    if len(players) != game.players:
        raise ReplayError(f"{game.players} seats but {len(players)} player entries")
    result = game.result()
    faulted = frozenset(f["seat"] for f in faults)
    return {
        "format": FORMAT,
        "variant": game.variant.name,
        "seed": game.seed if game.seed is not None else 0,
        "players": [p if isinstance(p, dict) else {"name": p} for p in players],
        "layout": list(game.layout),
        "setup": json.loads(json.dumps(game.setup)),
        "turns": [
            {
                "plays": list(t.plays),
                "choices": [dict(c) for c in t.choices],
                "scores": list(t.scores),
            }
            for t in game.turns
        ],
        "result": {
            "scores": list(result.scores),
            "ranks": list(competition_ranks(result.scores, game.variant.higher_is_better, faulted)),
            "faults": [dict(f) for f in faults],
        },
        "rules": game.rules.name,
        **extra,
    }


def write(path: str | Path, replay: dict[str, Any]) -> None:
    """Write ``replay`` as JSON; gzip-compressed if the name ends in ``.gz``."""
    path = Path(path)
    text = json.dumps(replay, separators=(",", ":"))
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")


def read(path: str | Path) -> dict[str, Any]:
    """Read a replay file (``.json`` or ``.json.gz``) and check its shape."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ReplayError(f"{path}: not a readable replay: {exc}") from exc
    return parse(raw, str(path))


def parse(raw: bytes, source: str) -> dict[str, Any]:
    """A replay from its file's bytes (JSON, or gzip-compressed JSON), its shape checked;
    ``source`` names it in errors."""
    try:
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, EOFError, zlib.error, RecursionError) as exc:
        raise ReplayError(f"{source}: not a readable replay: {exc}") from exc
    check_shape(data)
    replay: dict[str, Any] = data
    return replay


def iter_files(target: str | Path) -> Iterator[Path]:
    """The replay files at ``target``: the file itself, or every ``*.json[.gz]`` below a folder."""
    target = Path(target)
    if target.is_dir():
        yield from sorted(p for p in target.rglob("*") if p.name.endswith((".json", ".json.gz")))
    else:
        yield target


_SHAPE: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "variant": str,
    "seed": int,
    "players": list,
    "layout": list,
    "setup": dict,
    "turns": list,
    "result": dict,
}


def check_shape(data: Any) -> None:
    """Raise :class:`ReplayError` naming the first required key that is missing or mistyped."""
    if not isinstance(data, dict):
        raise ReplayError("a replay is a JSON object")
    for key, kind in _SHAPE.items():
        if not isinstance(data.get(key), kind):
            raise ReplayError(f"replay key {key!r} is missing or not a {_name(kind)}")
    if data["format"] != FORMAT:
        raise ReplayError(f"format is {data['format']!r}, expected {FORMAT!r}")
    if data["variant"] not in VARIANT_NAMES:
        raise ReplayError(f"unknown variant {data['variant']!r}")
    if "rules" in data and data["rules"] not in READINGS:
        raise ReplayError(
            f"unknown rules reading {data['rules']!r}; this engine plays {', '.join(READINGS)}"
        )
    for key in ("rows", "hands", "supply", "luck_deck", "action_deck"):
        if not isinstance(data["setup"].get(key), list):
            raise ReplayError(f"replay key 'setup.{key}' is missing or not a list")
    for i, turn in enumerate(data["turns"]):
        if not isinstance(turn, dict) or not all(
            isinstance(turn.get(k), list) for k in ("plays", "choices", "scores")
        ):
            raise ReplayError(f"turns[{i}] needs lists 'plays', 'choices' and 'scores'")
        if not all(isinstance(c, dict) for c in turn["choices"]):
            raise ReplayError(f"turns[{i}].choices must be a list of objects")
    for key in ("scores", "ranks", "faults"):
        if not isinstance(data["result"].get(key), list):
            raise ReplayError(f"replay key 'result.{key}' is missing or not a list")
    if not all(isinstance(f, dict) for f in data["result"]["faults"]):
        raise ReplayError("result.faults must be a list of objects")


def _name(kind: type | tuple[type, ...]) -> str:
    return kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)


def start(replay: dict[str, Any]) -> Game:
    """The game as ``replay``'s deal sets it up, before the first turn, under the reading the
    replay names (unchecked: see :func:`simulate` for a replay that may be broken)."""
    setup = replay["setup"]
    return Game.from_setup(
        replay["variant"],
        setup["rows"],
        setup["hands"],
        setup["supply"],
        setup["luck_deck"],
        setup["action_deck"],
        rules=of_replay(replay),
    )


def simulate(replay: dict[str, Any]) -> tuple[Game, list[str]]:
    """Re-play ``replay`` with the engine; the game and every disagreement found.

    Declined action cards have no entry in a replay, so where the engine asks for an action
    card and the next recorded choice is not that seat's action, the seat declined.
    """
    check_shape(replay)
    problems: list[str] = []
    try:
        game = start(replay)
    except (NimmtError, TypeError) as exc:  # TypeError: tiles that are not integers
        raise ReplayError(f"setup: {exc}") from exc
    if len(replay["players"]) != game.players:
        problems.append(f"{len(replay['players'])} players listed, {game.players} hands dealt")
    if list(game.layout) != replay["layout"]:
        problems.append(f"layout {replay['layout']} is not the {game.variant.name} board")
    for i, turn in enumerate(replay["turns"]):
        where = f"turn {i + 1}"
        try:
            replay_turn(game, turn)
        except (NimmtError, LookupError, TypeError) as exc:
            problems.append(f"{where}: {exc}")
            return game, problems
        if game.turns[-1].scores != turn["scores"]:
            problems.append(
                f"{where}: scores after the turn are {game.turns[-1].scores}, "
                f"replay says {turn['scores']}"
            )
    if not game.is_over():
        problems.append(f"the game is not over after {len(replay['turns'])} turns")
        return game, problems
    result = game.result()
    if list(result.scores) != replay["result"]["scores"]:
        problems.append(
            f"final scores are {list(result.scores)}, replay says {replay['result']['scores']}"
        )
    faulted = frozenset(f.get("seat") for f in replay["result"]["faults"])
    ranks = list(competition_ranks(result.scores, game.variant.higher_is_better, faulted))
    if ranks != replay["result"]["ranks"]:
        problems.append(f"ranks are {ranks}, replay says {replay['result']['ranks']}")
    return game, problems


def verify(replay: dict[str, Any]) -> list[str]:
    """Every disagreement between ``replay`` and a re-simulation (empty: it verifies)."""
    return simulate(replay)[1]


def replay_turn(
    game: Game,
    turn: dict[str, Any],
    before: Callable[[Game, int, Decision], None] | None = None,
) -> None:
    """Play one recorded turn of a replay (``{"plays", "choices", ...}``) on ``game``.

    Each seat's tile, then every recorded choice in the order the game asks for it; where the
    game asks for an action card the record does not hold, the seat declines. ``before(game,
    seat, decision)`` is called before each decision is applied (the seat's view is then the
    one it decided in). Raises
    :class:`ReplayError` where the record and the game disagree (and any
    :class:`~arena.engine.errors.NimmtError` the game raises for an illegal decision).

    >>> from arena.engine import Game
    >>> game = Game.new("basic", players=2, seed=1)
    >>> replay_turn(game, {"plays": [game.hands[0][0], game.hands[1][-1]], "choices": []})
    >>> len(game.turns), game.turns[0].scores == game.scores
    (1, True)
    """
    if game.is_over():
        raise ReplayError("the game is already over")
    start = len(game.turns)

    def apply(seat: int, decision: Decision) -> None:
        if before is not None:
            before(game, seat, decision)
        game.apply(seat, decision)

    for seat, tile in enumerate(turn["plays"]):
        if tile is not None:
            apply(seat, PlayTile(tile))
    choices = list(turn["choices"])
    while len(game.turns) == start + 1 and game.in_turn():
        pending = game.pending
        assert pending is not None
        seat = pending.seats[0]
        nxt = choices[0] if choices else None
        if pending.kind is DecisionKind.ACTION and not (
            nxt
            and nxt.get("kind") == "action"
            and nxt.get("seat") == seat
            and nxt.get("tile") == pending.tile
        ):
            apply(seat, PlayAction(None))
            continue
        if nxt is None:
            raise ReplayError(f"seat {seat} owes a {pending.kind.value} decision; none recorded")
        choices.pop(0)
        if nxt.get("seat") != seat or nxt.get("kind") != pending.kind.value:
            raise ReplayError(
                f"recorded {nxt.get('kind')} by seat {nxt.get('seat')}, but the game asks "
                f"seat {seat} for {pending.kind.value}"
            )
        if pending.kind is DecisionKind.LUCK:
            if nxt.get("card") != pending.card:
                raise ReplayError(f"luck card {nxt.get('card')!r} recorded, {pending.card!r} drawn")
            apply(seat, PlaceLuck(nxt["row"], nxt["space"]))
        elif pending.kind is DecisionKind.TAKE_ROW:
            apply(seat, TakeRow(nxt["row"]))
        else:
            apply(seat, PlayAction(nxt["card"], nxt.get("row"), nxt.get("new_tile")))
    if len(game.turns) != start + 1:
        raise ReplayError("the recorded plays do not complete the tile choice")
    if choices:
        raise ReplayError(f"choices left over after the turn: {choices}")


def render(replay: dict[str, Any]) -> Iterator[str]:
    """The game turn by turn as text lines: plays, decisions, board and scores."""
    _game, problems = simulate(replay)
    names = [p.get("name", f"seat {i}") for i, p in enumerate(replay["players"])]
    yield (
        f"{replay['variant']} · {len(names)} players · seed {replay['seed']} · "
        f"rules {of_replay(replay).name} · " + ", ".join(f"{i}:{n}" for i, n in enumerate(names))
    )
    fresh = start(replay)
    yield from _board_lines(fresh)
    for i, turn in enumerate(replay["turns"]):
        plays = ", ".join(f"{names[s]} {t}" for s, t in enumerate(turn["plays"]) if t is not None)
        yield ""
        yield f"Turn {i + 1}: {plays}"
        for c in turn["choices"]:
            detail = " ".join(f"{k}={v}" for k, v in c.items() if k not in ("seat", "kind"))
            yield f"  {names[c['seat']]}: {c['kind']} {detail}"
        try:
            replay_turn(fresh, turn)
        except (NimmtError, LookupError, TypeError) as exc:
            yield f"  cannot re-play this turn: {exc}"
            break
        yield from _board_lines(fresh)
        yield "  scores: " + "  ".join(f"{names[s]} {v}" for s, v in enumerate(turn["scores"]))
    res = replay["result"]
    yield ""
    yield "Result: " + "  ".join(
        f"#{r} {names[s]} {v}"
        for s, (v, r) in enumerate(zip(res["scores"], res["ranks"], strict=False))
    )
    for f in res["faults"]:
        turn_no = f["turn"] + 1
        yield f"Fault: {names[f['seat']]} {f['kind']} in turn {turn_no}: {f.get('detail', '')}"
    for p in problems:
        yield f"MISMATCH: {p}"


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
