"""One game as a typed value: :class:`GameRecord`, the ``nimmt-replay/1`` format (docs/REPLAY.md).

A record is frozen and made of small typed values (its setup, turns and their choices, the
result and its faults, the rules reading and the series), in the way python-chess's
``pgn.Game`` is the typed form of a PGN file. :meth:`GameRecord.from_json` reads a replay's
JSON object and checks every field's type; :meth:`GameRecord.to_json` gives the object back
exactly, keys in the order the format lists them, so that ``from_json(d).to_json() == d`` for
every replay the arena writes. Keys a producer added that the format does not name are kept
(``extra``, at every level, a read-only :class:`Extra`) and written back after the known ones; a
missing ``rules`` key stays missing (it means ``nimmt-rules/1``, :attr:`GameRecord.reading`).
A record and each of its parts pickle, so that one crosses to another process as it is.

>>> from arena.engine import Game
>>> from arena.engine.replay import to_replay
>>> game = Game.new("classic", players=2, seed=5)
>>> while not game.is_over():
...     for seat in game.pending.seats:
...         game.apply(seat, game.legal(seat)[0])
>>> data = to_replay(game, ["a", "b"], series={"seed": 5, "game": 1})
>>> record = GameRecord.from_json(data)
>>> record.variant, len(record.turns), record.reading.name, record.series
('classic', 10, 'nimmt-rules/2', Series(seed=5, game=1, deal=None))
>>> record.to_json() == data, GameRecord.from_json(record.to_json()) == record
(True, True)
>>> GameRecord.from_json({**data, "seed": "5"})
Traceback (most recent call last):
...
arena.engine.errors.ReplayError: seed: expected an integer, got '5'
"""

import json
from collections.abc import Callable, Iterator, KeysView, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeVar

from .errors import NimmtError, ReplayError
from .readings import UNNAMED, Reading, reading
from .variants import VARIANT_NAMES

FORMAT = "nimmt-replay/1"

_T = TypeVar("_T")
_FAULT_KINDS = ("timeout", "crash", "illegal", "protocol")


class Extra(Mapping[str, Any]):
    """The keys of a part that the format does not name, in their order: a read-only mapping
    that compares equal to a mapping with the same items and pickles as its items (where a
    ``MappingProxyType`` view, which does not pickle, would keep a record in its process).

    >>> extra = Extra({"notes": [1]})
    >>> extra["notes"], dict(extra) == {"notes": [1]}, extra == Extra({"notes": [1]})
    ([1], True, True)
    >>> extra["notes"] = [2]
    Traceback (most recent call last):
    ...
    TypeError: 'Extra' object does not support item assignment
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Any] | None = None) -> None:
        self._items: dict[str, Any] = dict(items or {})

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def keys(self) -> KeysView[str]:  # the dict's view: keeps every to_json's `{**extra}` quick
        return self._items.keys()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Extra):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other)
        return NotImplemented

    def __reduce__(self) -> tuple[type["Extra"], tuple[dict[str, Any]]]:
        return (Extra, (self._items,))

    def __repr__(self) -> str:
        return f"Extra({self._items!r})"


_NO_EXTRA = Extra()


# ----------------------------------------------------------------- reading typed fields


def _int(value: Any, where: str) -> int:
    if type(value) is not int:  # bool is an int to Python, never to the format
        raise ReplayError(f"{where}: expected an integer, got {value!r}")
    return value


def _opt_int(value: Any, where: str) -> int | None:
    return None if value is None else _int(value, where)


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ReplayError(f"{where}: expected a string, got {value!r}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ReplayError(f"{where}: expected a list, got {_short(value)}")
    return value


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ReplayError(f"{where}: expected an object, got {_short(value)}")
    return value


def _ints(value: Any, where: str) -> tuple[int, ...]:
    return tuple(_int(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where)))


def _strs(value: Any, where: str) -> tuple[str, ...]:
    return tuple(_str(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where)))


def _each(value: Any, where: str, read: Callable[[Any, str], _T]) -> tuple[_T, ...]:
    return tuple(read(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where)))


def _need(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise ReplayError(f"{where}: key {key!r} is missing")
    return data[key]


def _extra(data: dict[str, Any], known: Sequence[str]) -> Extra:
    """The keys of ``data`` the format does not name, in their order (a deep copy)."""
    rest = {k: v for k, v in data.items() if k not in known}
    return Extra(json.loads(json.dumps(rest))) if rest else _NO_EXTRA


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _extra_field() -> Any:
    """The ``extra`` keys of a part: compared, never hashed (their values may be lists)."""
    return field(default_factory=lambda: _NO_EXTRA, hash=False, repr=False)


# ----------------------------------------------------------------- the record's parts


@dataclass(frozen=True)
class Player:
    """One seat's player: ``name``; ``entry``, its place in the match's or series' lineup."""

    name: str
    entry: int | None = None
    extra: Mapping[str, Any] = _extra_field()

    _KEYS: ClassVar = ("name", "entry")

    @classmethod
    def from_json(cls, data: Any, where: str = "player") -> "Player":
        data = _obj(data, where)
        entry = _opt_int(data["entry"], f"{where}.entry") if "entry" in data else None
        name = _str(_need(data, "name", where), f"{where}.name")
        return cls(name, entry, _extra(data, cls._KEYS))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.entry is not None:
            out["entry"] = self.entry
        return {**out, **self.extra}


@dataclass(frozen=True)
class Setup:
    """The position before turn 1: rows, first hands, the undealt supply and both decks."""

    rows: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    luck_deck: tuple[str, ...] = ()
    action_deck: tuple[str, ...] = ()
    extra: Mapping[str, Any] = _extra_field()

    _KEYS: ClassVar = ("rows", "hands", "supply", "luck_deck", "action_deck")

    @classmethod
    def from_json(cls, data: Any, where: str = "setup") -> "Setup":
        data = _obj(data, where)
        return cls(
            rows=_each(_need(data, "rows", where), f"{where}.rows", _ints),
            hands=_each(_need(data, "hands", where), f"{where}.hands", _ints),
            supply=_ints(_need(data, "supply", where), f"{where}.supply"),
            luck_deck=_strs(_need(data, "luck_deck", where), f"{where}.luck_deck"),
            action_deck=_strs(_need(data, "action_deck", where), f"{where}.action_deck"),
            extra=_extra(data, cls._KEYS),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": [list(r) for r in self.rows],
            "hands": [list(h) for h in self.hands],
            "supply": list(self.supply),
            "luck_deck": list(self.luck_deck),
            "action_deck": list(self.action_deck),
            **self.extra,
        }


@dataclass(frozen=True)
class LuckChoice:
    """``seat`` put the luck ``card`` it drew on ``row``, ``space``."""

    seat: int
    card: str
    row: int
    space: int
    extra: Mapping[str, Any] = _extra_field()

    kind: ClassVar = "luck"

    def to_json(self) -> dict[str, Any]:
        base = {"seat": self.seat, "kind": self.kind, "card": self.card}
        return {**base, "row": self.row, "space": self.space, **self.extra}


@dataclass(frozen=True)
class ActionChoice:
    """``seat`` played the action ``card`` on its revealed ``tile``; ``row`` for stop, front,
    ascending and anywhere, ``new_tile`` (from its hand) for swap and another."""

    seat: int
    card: str
    tile: int
    row: int | None = None
    new_tile: int | None = None
    extra: Mapping[str, Any] = _extra_field()

    kind: ClassVar = "action"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "card": self.card}
        out["tile"] = self.tile
        if self.row is not None:
            out["row"] = self.row
        if self.new_tile is not None:
            out["new_tile"] = self.new_tile
        return {**out, **self.extra}


@dataclass(frozen=True)
class TakeRowChoice:
    """Card game: ``seat``'s card was lower than every row's end, and it took ``row``."""

    seat: int
    row: int
    extra: Mapping[str, Any] = _extra_field()

    kind: ClassVar = "take_row"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "row": self.row, **self.extra}


RecordedChoice = LuckChoice | ActionChoice | TakeRowChoice


def choice_from_json(data: Any, where: str = "choice") -> RecordedChoice:
    """One recorded choice of a turn (``{"seat", "kind", ...}``), typed by its ``kind``."""
    data = _obj(data, where)
    seat = _int(_need(data, "seat", where), f"{where}.seat")
    kind = _need(data, "kind", where)
    if kind == "luck":
        return LuckChoice(
            seat,
            _str(_need(data, "card", where), f"{where}.card"),
            _int(_need(data, "row", where), f"{where}.row"),
            _int(_need(data, "space", where), f"{where}.space"),
            _extra(data, ("seat", "kind", "card", "row", "space")),
        )
    if kind == "action":
        return ActionChoice(
            seat,
            _str(_need(data, "card", where), f"{where}.card"),
            _int(_need(data, "tile", where), f"{where}.tile"),
            _opt_int(data.get("row"), f"{where}.row"),
            _opt_int(data.get("new_tile"), f"{where}.new_tile"),
            _extra(data, ("seat", "kind", "card", "tile", "row", "new_tile")),
        )
    if kind == "take_row":
        row = _int(_need(data, "row", where), f"{where}.row")
        return TakeRowChoice(seat, row, _extra(data, ("seat", "kind", "row")))
    raise ReplayError(f"{where}.kind: {kind!r} is not 'luck', 'action' or 'take_row'")


@dataclass(frozen=True)
class Turn:
    """One turn: the tile each seat revealed (``None``: it held none), every other decision
    in the order taken, and every seat's score after it."""

    plays: tuple[int | None, ...]
    choices: tuple[RecordedChoice, ...] = ()
    scores: tuple[int, ...] = ()
    extra: Mapping[str, Any] = _extra_field()

    _KEYS: ClassVar = ("plays", "choices", "scores")

    @classmethod
    def from_json(cls, data: Any, where: str = "turn") -> "Turn":
        data = _obj(data, where)
        plays = _need(data, "plays", where)
        return cls(
            plays=_each(plays, f"{where}.plays", _opt_int),
            choices=_each(_need(data, "choices", where), f"{where}.choices", choice_from_json),
            scores=_ints(_need(data, "scores", where), f"{where}.scores"),
            extra=_extra(data, cls._KEYS),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "plays": list(self.plays),
            "choices": [c.to_json() for c in self.choices],
            "scores": list(self.scores),
            **self.extra,
        }


@dataclass(frozen=True)
class Fault:
    """A seat's fault against the arena's rules (RULES.md 9) in turn index ``turn``."""

    seat: int
    kind: str
    turn: int
    detail: str | None = None  # absent in a record that carries none
    extra: Mapping[str, Any] = _extra_field()

    _KEYS: ClassVar = ("seat", "kind", "turn", "detail")

    @classmethod
    def from_json(cls, data: Any, where: str = "fault") -> "Fault":
        data = _obj(data, where)
        kind = _str(_need(data, "kind", where), f"{where}.kind")
        if kind not in _FAULT_KINDS:
            raise ReplayError(f"{where}.kind: {kind!r} is not one of {', '.join(_FAULT_KINDS)}")
        detail = _str(data["detail"], f"{where}.detail") if "detail" in data else None
        return cls(
            _int(_need(data, "seat", where), f"{where}.seat"),
            kind,
            _int(_need(data, "turn", where), f"{where}.turn"),
            detail,
            _extra(data, cls._KEYS),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "turn": self.turn}
        if self.detail is not None:
            out["detail"] = self.detail
        return {**out, **self.extra}


@dataclass(frozen=True)
class Outcome:
    """The final scores (after any hand penalty), ranks (1 best) and the faults, in order."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    faults: tuple[Fault, ...] = ()
    extra: Mapping[str, Any] = _extra_field()

    _KEYS: ClassVar = ("scores", "ranks", "faults")

    @classmethod
    def from_json(cls, data: Any, where: str = "result") -> "Outcome":
        data = _obj(data, where)
        return cls(
            scores=_ints(_need(data, "scores", where), f"{where}.scores"),
            ranks=_ints(_need(data, "ranks", where), f"{where}.ranks"),
            faults=_each(_need(data, "faults", where), f"{where}.faults", Fault.from_json),
            extra=_extra(data, cls._KEYS),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "faults": [f.to_json() for f in self.faults],
            **self.extra,
        }


@dataclass(frozen=True)
class Series:
    """Where the game sits in its match or series: the series' ``seed``, the game's 1-based
    number, and in a duplicate series the 1-based number of its ``deal``."""

    seed: int
    game: int
    deal: int | None = None
    extra: Mapping[str, Any] = _extra_field()

    _KEYS: ClassVar = ("seed", "game", "deal")

    @classmethod
    def from_json(cls, data: Any, where: str = "series") -> "Series":
        data = _obj(data, where)
        return cls(
            _int(_need(data, "seed", where), f"{where}.seed"),
            _int(_need(data, "game", where), f"{where}.game"),
            _opt_int(data["deal"], f"{where}.deal") if "deal" in data else None,
            _extra(data, cls._KEYS),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seed": self.seed, "game": self.game}
        if self.deal is not None:
            out["deal"] = self.deal
        return {**out, **self.extra}


# ----------------------------------------------------------------- the record


@dataclass(frozen=True)
class GameRecord:
    """One game in the ``nimmt-replay/1`` format, as typed values (docs/REPLAY.md 1).

    ``rules`` is the replay's ``rules`` key as written (``None``: absent, which means
    ``nimmt-rules/1``; :attr:`reading` is the reading itself). ``extra`` holds top-level keys
    the format does not name (an owner's copy's ``notes``, for one), in their order.
    """

    variant: str
    seed: int
    players: tuple[Player, ...]
    layout: tuple[str, ...]
    setup: Setup
    turns: tuple[Turn, ...]
    result: Outcome
    rules: str | None = None
    series: Series | None = None
    extra: Mapping[str, Any] = _extra_field()

    _KEYS: ClassVar = (
        "format",
        "variant",
        "seed",
        "players",
        "layout",
        "setup",
        "turns",
        "result",
        "rules",
        "series",
    )

    @property
    def reading(self) -> Reading:
        """The reading of the rules the game was played under (RULES.md 10)."""
        return UNNAMED if self.rules is None else reading(self.rules)

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, by seat."""
        return tuple(p.name for p in self.players)

    @classmethod
    def from_json(cls, data: Any) -> "GameRecord":
        """The record of a replay's JSON object; :class:`ReplayError` names the first field
        that is missing or of the wrong type (the game itself is not re-played: see
        :func:`arena.engine.replay.verify`)."""
        data = _obj(data, "replay")
        if _need(data, "format", "replay") != FORMAT:
            raise ReplayError(f"format is {data['format']!r}, expected {FORMAT!r}")
        variant = _str(_need(data, "variant", "replay"), "variant")
        if variant not in VARIANT_NAMES:
            raise ReplayError(f"unknown variant {variant!r}")
        rules = _str(data["rules"], "rules") if "rules" in data else None
        if rules is not None:
            try:
                reading(rules)
            except NimmtError as exc:
                raise ReplayError(str(exc)) from None
        series = Series.from_json(data["series"]) if "series" in data else None
        return cls(
            variant=variant,
            seed=_int(_need(data, "seed", "replay"), "seed"),
            players=_each(_need(data, "players", "replay"), "players", Player.from_json),
            layout=_strs(_need(data, "layout", "replay"), "layout"),
            setup=Setup.from_json(_need(data, "setup", "replay")),
            turns=_each(_need(data, "turns", "replay"), "turns", Turn.from_json),
            result=Outcome.from_json(_need(data, "result", "replay")),
            rules=rules,
            series=series,
            extra=_extra(data, cls._KEYS),
        )

    @classmethod
    def from_text(cls, text: str | bytes) -> "GameRecord":
        """The record of a replay's JSON text (one line of a dataset's ``.jsonl``, a file)."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise ReplayError(f"not a readable replay: {exc}") from exc
        return cls.from_json(data)

    def to_json(self) -> dict[str, Any]:
        """The replay's JSON object, keys in the format's order (extra keys last)."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "variant": self.variant,
            "seed": self.seed,
            "players": [p.to_json() for p in self.players],
            "layout": list(self.layout),
            "setup": self.setup.to_json(),
            "turns": [t.to_json() for t in self.turns],
            "result": self.result.to_json(),
        }
        if self.rules is not None:
            out["rules"] = self.rules
        if self.series is not None:
            out["series"] = self.series.to_json()
        return {**out, **json.loads(json.dumps(dict(self.extra)))}

    def to_text(self) -> str:
        """The replay as compact JSON text, as the arena writes replay files."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    def plain(self) -> "GameRecord":
        """The record with only the keys the format names, at every level (no ``extra``)."""
        series = None if self.series is None else replace(self.series, extra=_NO_EXTRA)
        return replace(
            self,
            players=tuple(replace(p, extra=_NO_EXTRA) for p in self.players),
            setup=replace(self.setup, extra=_NO_EXTRA),
            turns=tuple(
                replace(
                    t,
                    choices=tuple(replace(c, extra=_NO_EXTRA) for c in t.choices),
                    extra=_NO_EXTRA,
                )
                for t in self.turns
            ),
            result=replace(
                self.result,
                faults=tuple(replace(f, extra=_NO_EXTRA) for f in self.result.faults),
                extra=_NO_EXTRA,
            ),
            series=series,
            extra=_NO_EXTRA,
        )

    def __hash__(self) -> int:
        return hash((self.variant, self.seed, self.setup, self.turns, self.result))
