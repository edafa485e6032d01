"""Engine values <-> protocol messages: views, decisions, pending requests, faults.

The protocol carries exactly the engine's :class:`~arena.engine.observation.Observation`, so
every function here has an inverse and ``from_proto(to_proto(x)) == x``:

>>> from arena.engine import Game, PlayAction
>>> from arena.engine.observation import observe
>>> view = observe(Game.new("pro+luck", players=3, seed=4), seat=1)
>>> observation_from_proto(observation_to_proto(view)) == view
True
>>> decision_from_proto(decision_to_proto(PlayAction("swap", new_tile=12)))
PlayAction(card='swap', row=None, new_tile=12)

Reading what a bot sent can fail: :class:`ProtocolError` says why, in words for the bot author.

Every bot kit's Python imports this module, so it loads only the engine's values and the
generated messages: the runner's types (faults, seat messages) are named for the type checker
only, and its enumerations are read by their values (a ``StrEnum`` member is its value).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from arena.engine.decisions import (
    Choice,
    Decision,
    DecisionKind,
    Pending,
    PlaceLuck,
    PlayAction,
    PlayTile,
    TakeRow,
)
from arena.engine.observation import Observation
from arena.engine.readings import CURRENT

from . import arena_pb2 as pb

if TYPE_CHECKING:
    from arena.engine.record import Fault as RecordedFault
    from arena.table.faults import Fault
    from arena.table.messages import GameEnd, GameStart, Notice, Request

#: The protocol version this code speaks (``Hello.protocol_version``).
PROTOCOL_VERSION = 1


class ProtocolError(ValueError):
    """A message from a bot that cannot be read as what the protocol asks for."""


KIND_TO_PROTO: Mapping[DecisionKind, pb.DecisionKind] = {
    DecisionKind.TILE: pb.DECISION_KIND_TILE,
    DecisionKind.LUCK: pb.DECISION_KIND_LUCK,
    DecisionKind.ACTION: pb.DECISION_KIND_ACTION,
    DecisionKind.TAKE_ROW: pb.DECISION_KIND_TAKE_ROW,
}
KIND_FROM_PROTO: Mapping[pb.DecisionKind, DecisionKind] = {v: k for k, v in KIND_TO_PROTO.items()}

LUCK_TO_PROTO: Mapping[str, pb.LuckCard] = {
    "plus5": pb.LUCK_CARD_PLUS5,
    "final10": pb.LUCK_CARD_FINAL10,
}
LUCK_FROM_PROTO: Mapping[pb.LuckCard, str] = {v: k for k, v in LUCK_TO_PROTO.items()}

ACTION_TO_PROTO: Mapping[str, pb.ActionCard] = {
    "stop": pb.ACTION_CARD_STOP,
    "swap": pb.ACTION_CARD_SWAP,
    "skip": pb.ACTION_CARD_SKIP,
    "front": pb.ACTION_CARD_FRONT,
    "ascending": pb.ACTION_CARD_ASCENDING,
    "anywhere": pb.ACTION_CARD_ANYWHERE,
    "another": pb.ACTION_CARD_ANOTHER,
    "plus5": pb.ACTION_CARD_PLUS5,
}
ACTION_FROM_PROTO: Mapping[pb.ActionCard, str] = {v: k for k, v in ACTION_TO_PROTO.items()}

#: By :class:`arena.table.faults.FaultKind` value.
FAULT_TO_PROTO: Mapping[str, pb.FaultKind] = {
    "timeout": pb.FAULT_KIND_TIMEOUT,
    "crash": pb.FAULT_KIND_CRASH,
    "illegal": pb.FAULT_KIND_ILLEGAL,
    "protocol": pb.FAULT_KIND_PROTOCOL,
}
FAULT_FROM_PROTO: Mapping[pb.FaultKind, str] = {v: k for k, v in FAULT_TO_PROTO.items()}


# ----------------------------------------------------------------------------- decisions
#
# The ``put_*`` functions fill a message in place (``add()`` and attribute stores): with the upb
# runtime that is several times faster than nested constructors, and the arena builds one view
# per decision.


def put_decision(message: pb.Decision, decision: Decision) -> None:
    """Fill an empty ``message`` with ``decision``."""
    if isinstance(decision, PlayTile):
        message.tile.tile = decision.tile
    elif isinstance(decision, PlaceLuck):
        message.luck.row = decision.row
        message.luck.space = decision.space
    elif isinstance(decision, PlayAction):
        action = message.action
        action.card = (
            pb.ACTION_CARD_NONE if decision.card is None else ACTION_TO_PROTO[decision.card]
        )
        if decision.row is not None:
            action.row = decision.row
        if decision.new_tile is not None:
            action.new_tile = decision.new_tile
    else:
        message.take_row.row = decision.row


def decision_to_proto(decision: Decision) -> pb.Decision:
    """The protocol message of an engine decision."""
    message = pb.Decision()
    put_decision(message, decision)
    return message


def decision_from_proto(message: pb.Decision) -> Decision:
    """The engine decision a protocol message holds; :class:`ProtocolError` if it holds none.

    >>> decision_from_proto(pb.Decision())
    Traceback (most recent call last):
    ...
    arena.protocol.convert.ProtocolError: the answer holds no decision: set one of tile, luck, action, take_row
    """  # noqa: E501
    which = message.WhichOneof("decision")
    if which == "tile":
        return PlayTile(message.tile.tile)
    if which == "luck":
        return PlaceLuck(message.luck.row, message.luck.space)
    if which == "take_row":
        return TakeRow(message.take_row.row)
    if which == "action":
        action = message.action
        row = action.row if action.HasField("row") else None
        new_tile = action.new_tile if action.HasField("new_tile") else None
        if action.card == pb.ACTION_CARD_NONE:
            return PlayAction(None, row, new_tile)
        card = ACTION_FROM_PROTO.get(action.card)
        if card is None:
            raise ProtocolError(f"unknown action card number {action.card} in the answer")
        return PlayAction(card, row, new_tile)
    raise ProtocolError("the answer holds no decision: set one of tile, luck, action, take_row")


# ----------------------------------------------------------------------------- views


def put_pending(message: pb.Pending, pending: Pending) -> None:
    """Fill an empty ``message`` with the decision a game waits for."""
    message.kind = KIND_TO_PROTO[pending.kind]
    message.seats.extend(pending.seats)
    if pending.tile is not None:
        message.tile = pending.tile
    if pending.card is not None:
        message.card = LUCK_TO_PROTO[pending.card]


def pending_from_proto(message: pb.Pending) -> Pending:
    """The engine's :class:`Pending` from its protocol message."""
    return Pending(
        kind=KIND_FROM_PROTO[message.kind],
        seats=tuple(message.seats),
        tile=message.tile if message.HasField("tile") else None,
        card=LUCK_FROM_PROTO.get(message.card),
    )


def put_choice(message: pb.Choice, choice: Choice) -> None:
    """Fill an empty ``message`` with a choice taken this turn (``Observation.choices``)."""
    kind = choice.kind
    message.seat = choice.seat
    message.kind = KIND_TO_PROTO[kind]
    if kind is DecisionKind.LUCK:
        assert choice.card is not None, choice
        message.luck_card = LUCK_TO_PROTO[choice.card]
    elif kind is DecisionKind.ACTION:
        assert choice.card is not None, choice
        message.action_card = ACTION_TO_PROTO[choice.card]
    for key in ("tile", "row", "space", "new_tile"):
        value = getattr(choice, key)
        if value is not None:
            setattr(message, key, value)


def choice_from_proto(message: pb.Choice) -> Choice:
    """The :class:`Choice` a protocol message carries."""
    kind = KIND_FROM_PROTO[message.kind]
    card = None
    if kind is DecisionKind.LUCK:
        card = LUCK_FROM_PROTO[message.luck_card]
    elif kind is DecisionKind.ACTION:
        card = ACTION_FROM_PROTO[message.action_card]
    fields = {
        k: getattr(message, k) for k in ("tile", "row", "space", "new_tile") if message.HasField(k)
    }
    return Choice(message.seat, kind, card, **fields)


def put_public(message: pb.Observation, view: Observation) -> None:
    """Fill ``message`` with the part of ``view`` that every seat sees alike.

    Together with :func:`put_private` this is :func:`observation_to_proto`; the arena encodes
    the public part once when it asks several seats at the same moment.
    """
    message.variant = view.variant
    message.players = view.players
    message.turn = view.turn
    message.set_number = view.set_number
    message.layout.extend(view.layout)
    add_row = message.spaces.add
    for row in view.spaces:
        add_row().tiles.extend(row)
    for r, cards in enumerate(view.markers):
        for s, card in enumerate(cards):
            if card is not None:
                message.markers.add(row=r, space=s, card=LUCK_TO_PROTO[card])
    message.stops.extend(view.stops)
    message.scores.extend(view.scores)
    message.hand_sizes.extend(view.hand_sizes)
    message.action_counts.extend(view.action_counts)
    add_turn = message.history.add
    for plays in view.history:
        add_turn().tiles.extend([t or 0 for t in plays])
    for choice in view.choices:
        put_choice(message.choices.add(), choice)
    for tile, seat in view.to_place:
        message.to_place.add(tile=tile, seat=seat)
    message.supply_size = view.supply_size
    message.luck_deck_size = view.luck_deck_size
    message.action_deck_size = view.action_deck_size
    if view.pending is not None:
        put_pending(message.pending, view.pending)


def put_private(message: pb.Observation, view: Observation) -> None:
    """Fill ``message`` with the part of ``view`` that only its seat sees (and its options)."""
    message.seat = view.seat
    message.hand.extend(view.hand)
    message.action_cards.extend([ACTION_TO_PROTO[c] for c in view.action_cards])
    if view.chosen is not None:
        message.chosen = view.chosen
    add = message.legal.add
    for decision in view.legal:
        put_decision(add(), decision)


def observation_to_proto(view: Observation) -> pb.Observation:
    """One seat's view as a protocol message (every field of :class:`Observation`)."""
    message = pb.Observation()
    put_public(message, view)
    put_private(message, view)
    return message


#: The tiles' options, made once: a :class:`PlayTile` is immutable, so every view can share them.
_TILES: dict[int, PlayTile] = {}


def _play_tile(tile: int) -> PlayTile:
    option = _TILES.get(tile)
    if option is None:
        option = PlayTile(tile)
        if 0 < tile <= 1000:  # the decks' tiles, not whatever a message holds
            _TILES[tile] = option
    return option


def _legal_from_proto(legal: Sequence[pb.Decision]) -> tuple[Decision, ...]:
    # Most options are tiles: read those without the general dispatch.
    if legal and legal[0].WhichOneof("decision") == "tile":
        return tuple([_play_tile(d.tile.tile) for d in legal])
    return tuple([decision_from_proto(d) for d in legal])


#: Pending decisions by their fields, made once (a game asks the same few again and again).
_PENDING: dict[tuple[int, tuple[int, ...], int | None, int], Pending] = {}


def _pending_from_proto(message: pb.Pending) -> Pending:
    key = (
        message.kind,
        tuple(message.seats),
        message.tile if message.HasField("tile") else None,
        message.card,
    )
    pending = _PENDING.get(key)
    if pending is None:
        pending = pending_from_proto(message)
        if len(_PENDING) < 4096:
            _PENDING[key] = pending
    return pending


_FIELDS = tuple(Observation.__dataclass_fields__)
_EMPTY_ROWS: dict[int, tuple[None, ...]] = {}


def observation_from_proto(message: pb.Observation) -> Observation:
    """The engine's :class:`Observation` from its protocol message."""
    spaces = tuple([tuple(row.tiles) for row in message.spaces])
    if message.markers:
        grid: list[list[str | None]] = [[None] * len(row) for row in spaces]
        for marker in message.markers:
            grid[marker.row][marker.space] = LUCK_FROM_PROTO[marker.card]
        markers = tuple([tuple(row) for row in grid])
    else:
        markers = tuple([_EMPTY_ROWS.get(len(row)) or _no_markers(len(row)) for row in spaces])
    values = (
        message.variant,
        message.seat,
        message.players,
        message.turn,
        message.set_number,
        tuple(message.layout),
        spaces,
        markers,
        tuple(message.stops),
        tuple(message.hand),
        tuple([ACTION_FROM_PROTO[c] for c in message.action_cards]),
        message.chosen if message.HasField("chosen") else None,
        tuple(message.scores),
        tuple(message.hand_sizes),
        tuple(message.action_counts),
        tuple([tuple([t or None for t in plays.tiles]) for plays in message.history]),
        tuple([choice_from_proto(c) for c in message.choices]) if message.choices else (),
        tuple([(p.tile, p.seat) for p in message.to_place]) if message.to_place else (),
        message.supply_size,
        message.luck_deck_size,
        message.action_deck_size,
        _pending_from_proto(message.pending) if message.HasField("pending") else None,
        _legal_from_proto(message.legal),
        CURRENT.name,
    )
    # The dataclass's __init__ stores its two dozen fields one frozen setattr at a time; a
    # view is built per decision, so its fields go into the instance's dict at once.
    view = object.__new__(Observation)
    view.__dict__.update(zip(_FIELDS, values, strict=True))
    return view


def _no_markers(length: int) -> tuple[None, ...]:
    row = _EMPTY_ROWS[length] = (None,) * length
    return row


# ----------------------------------------------------------------------------- faults


def fault_to_proto(fault: Fault) -> pb.Fault:
    """A fault as a protocol message."""
    return pb.Fault(
        seat=fault.seat, kind=FAULT_TO_PROTO[fault.kind], turn=fault.turn, detail=fault.detail
    )


def fault_from_proto(message: pb.Fault) -> RecordedFault:
    """The replay's record of a fault (:class:`arena.engine.record.Fault`) from a protocol
    message: what a bot learns of the faults in a game. A kind this code does not know is a
    :class:`ProtocolError`."""
    from arena.engine.record import Fault as RecordedFault  # loaded at a kit's first game end

    kind = FAULT_FROM_PROTO.get(message.kind)
    if kind is None:
        raise ProtocolError(f"unknown fault kind {message.kind}")
    return RecordedFault(message.seat, kind, message.turn, message.detail)


# ----------------------------------------------------------------------------- the arena's messages
#
# Every message the arena sends a bot is built here, from the runner's typed values.

#: By :class:`arena.table.messages.NoticeKind` value.
NOTICE_TO_PROTO: Mapping[str, pb.NoticeKind] = {
    "timeout": pb.NOTICE_KIND_TIMEOUT,
    "illegal": pb.NOTICE_KIND_ILLEGAL,
    "protocol": pb.NOTICE_KIND_PROTOCOL,
    "late": pb.NOTICE_KIND_LATE,
}


def welcome(
    *, match_id: str, bot_name: str, games: int, decision_ms: int, bank_ms: int, max_faults: int
) -> pb.Welcome:
    """The arena's answer to a bot's valid Hello: the match's rules."""
    return pb.Welcome(
        protocol_version=PROTOCOL_VERSION,
        match_id=match_id,
        bot_name=bot_name,
        games=games,
        decision_ms=decision_ms,
        bank_ms=bank_ms,
        max_faults=max_faults,
    )


def game_start_message(start: GameStart) -> pb.EngineMessage:
    message = pb.EngineMessage()
    s = message.game_start
    s.game_id = start.game_id
    s.game_index = start.index
    s.variant = start.variant
    s.players = start.players
    s.seat = start.seat
    s.seed = start.seed
    s.player_names.extend(start.names)
    s.layout.extend(start.layout)
    s.bank_ms = start.bank_ms
    return message


def public_view(view: Observation) -> bytes:
    """The public part of ``view``, serialized: the same for every seat asked at one moment,
    so :func:`request_message` can take it ready-made."""
    shared = pb.Observation()
    put_public(shared, view)
    return shared.SerializeToString()


def request_message(request: Request, public: bytes | None = None) -> pb.EngineMessage:
    """A decision request; ``public`` is :func:`public_view` of its view, if already made."""
    message = pb.EngineMessage()
    r = message.request
    r.request_id = request.request_id
    r.game_id = request.game_id
    r.seat = request.seat
    r.kind = KIND_TO_PROTO[request.kind]
    r.view.MergeFromString(public if public is not None else public_view(request.view))
    put_private(r.view, request.view)
    r.deadline_ms = request.deadline_ms
    r.bank_ms = request.bank_ms
    r.allowance_ms = request.allowance_ms
    return message


def notice_message(notice: Notice) -> pb.EngineMessage:
    message = pb.EngineMessage()
    n = message.notice
    n.kind = NOTICE_TO_PROTO[notice.kind]
    n.request_id = notice.request_id
    n.game_id = notice.game_id
    n.message = notice.message
    n.fault = notice.fault
    if notice.played is not None:
        put_decision(n.played, notice.played)
    return message


def game_end_message(end: GameEnd) -> pb.EngineMessage:
    message = pb.EngineMessage()
    e = message.game_end
    e.game_id = end.game_id
    put_public(e.view, end.view)
    put_private(e.view, end.view)
    e.scores.extend(end.scores)
    e.ranks.extend(end.ranks)
    e.faults.extend(fault_to_proto(f) for f in end.faults)
    return message


def match_end_message(games: int, faults: int, stay: bool = False) -> pb.EngineMessage:
    message = pb.EngineMessage()
    message.match_end.games = games
    message.match_end.faults = faults
    message.match_end.stay = stay
    return message
