from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_TILE: _ClassVar[DecisionKind]
    DECISION_KIND_LUCK: _ClassVar[DecisionKind]
    DECISION_KIND_ACTION: _ClassVar[DecisionKind]
    DECISION_KIND_TAKE_ROW: _ClassVar[DecisionKind]

class LuckCard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LUCK_CARD_NONE: _ClassVar[LuckCard]
    LUCK_CARD_PLUS5: _ClassVar[LuckCard]
    LUCK_CARD_FINAL10: _ClassVar[LuckCard]

class ActionCard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_CARD_NONE: _ClassVar[ActionCard]
    ACTION_CARD_STOP: _ClassVar[ActionCard]
    ACTION_CARD_SWAP: _ClassVar[ActionCard]
    ACTION_CARD_SKIP: _ClassVar[ActionCard]
    ACTION_CARD_FRONT: _ClassVar[ActionCard]
    ACTION_CARD_ASCENDING: _ClassVar[ActionCard]
    ACTION_CARD_ANYWHERE: _ClassVar[ActionCard]
    ACTION_CARD_ANOTHER: _ClassVar[ActionCard]
    ACTION_CARD_PLUS5: _ClassVar[ActionCard]

class FaultKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FAULT_KIND_UNSPECIFIED: _ClassVar[FaultKind]
    FAULT_KIND_TIMEOUT: _ClassVar[FaultKind]
    FAULT_KIND_CRASH: _ClassVar[FaultKind]
    FAULT_KIND_ILLEGAL: _ClassVar[FaultKind]
    FAULT_KIND_PROTOCOL: _ClassVar[FaultKind]

class NoticeKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NOTICE_KIND_UNSPECIFIED: _ClassVar[NoticeKind]
    NOTICE_KIND_TIMEOUT: _ClassVar[NoticeKind]
    NOTICE_KIND_ILLEGAL: _ClassVar[NoticeKind]
    NOTICE_KIND_PROTOCOL: _ClassVar[NoticeKind]
    NOTICE_KIND_LATE: _ClassVar[NoticeKind]
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_TILE: DecisionKind
DECISION_KIND_LUCK: DecisionKind
DECISION_KIND_ACTION: DecisionKind
DECISION_KIND_TAKE_ROW: DecisionKind
LUCK_CARD_NONE: LuckCard
LUCK_CARD_PLUS5: LuckCard
LUCK_CARD_FINAL10: LuckCard
ACTION_CARD_NONE: ActionCard
ACTION_CARD_STOP: ActionCard
ACTION_CARD_SWAP: ActionCard
ACTION_CARD_SKIP: ActionCard
ACTION_CARD_FRONT: ActionCard
ACTION_CARD_ASCENDING: ActionCard
ACTION_CARD_ANYWHERE: ActionCard
ACTION_CARD_ANOTHER: ActionCard
ACTION_CARD_PLUS5: ActionCard
FAULT_KIND_UNSPECIFIED: FaultKind
FAULT_KIND_TIMEOUT: FaultKind
FAULT_KIND_CRASH: FaultKind
FAULT_KIND_ILLEGAL: FaultKind
FAULT_KIND_PROTOCOL: FaultKind
NOTICE_KIND_UNSPECIFIED: NoticeKind
NOTICE_KIND_TIMEOUT: NoticeKind
NOTICE_KIND_ILLEGAL: NoticeKind
NOTICE_KIND_PROTOCOL: NoticeKind
NOTICE_KIND_LATE: NoticeKind

class BotMessage(_message.Message):
    __slots__ = ("hello", "answer")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    answer: Answer
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("protocol_version", "bot_name", "token", "kit", "stays")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    KIT_FIELD_NUMBER: _ClassVar[int]
    STAYS_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    bot_name: str
    token: str
    kit: str
    stays: bool
    def __init__(self, protocol_version: _Optional[int] = ..., bot_name: _Optional[str] = ..., token: _Optional[str] = ..., kit: _Optional[str] = ..., stays: _Optional[bool] = ...) -> None: ...

class Answer(_message.Message):
    __slots__ = ("request_id", "decision", "note", "option_values")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    OPTION_VALUES_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    decision: Decision
    note: str
    option_values: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, request_id: _Optional[int] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., note: _Optional[str] = ..., option_values: _Optional[_Iterable[float]] = ...) -> None: ...

class EngineMessage(_message.Message):
    __slots__ = ("welcome", "game_start", "request", "game_end", "notice", "match_end")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    GAME_START_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    GAME_END_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    MATCH_END_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    game_start: GameStart
    request: DecisionRequest
    game_end: GameEnd
    notice: Notice
    match_end: MatchEnd
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., game_start: _Optional[_Union[GameStart, _Mapping]] = ..., request: _Optional[_Union[DecisionRequest, _Mapping]] = ..., game_end: _Optional[_Union[GameEnd, _Mapping]] = ..., notice: _Optional[_Union[Notice, _Mapping]] = ..., match_end: _Optional[_Union[MatchEnd, _Mapping]] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("protocol_version", "match_id", "bot_name", "games", "decision_ms", "bank_ms", "max_faults")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_FAULTS_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    match_id: str
    bot_name: str
    games: int
    decision_ms: int
    bank_ms: int
    max_faults: int
    def __init__(self, protocol_version: _Optional[int] = ..., match_id: _Optional[str] = ..., bot_name: _Optional[str] = ..., games: _Optional[int] = ..., decision_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., max_faults: _Optional[int] = ...) -> None: ...

class GameStart(_message.Message):
    __slots__ = ("game_id", "game_index", "variant", "players", "seat", "seed", "player_names", "layout", "bank_ms")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_INDEX_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAMES_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    game_index: int
    variant: str
    players: int
    seat: int
    seed: int
    player_names: _containers.RepeatedScalarFieldContainer[str]
    layout: _containers.RepeatedScalarFieldContainer[str]
    bank_ms: int
    def __init__(self, game_id: _Optional[str] = ..., game_index: _Optional[int] = ..., variant: _Optional[str] = ..., players: _Optional[int] = ..., seat: _Optional[int] = ..., seed: _Optional[int] = ..., player_names: _Optional[_Iterable[str]] = ..., layout: _Optional[_Iterable[str]] = ..., bank_ms: _Optional[int] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("request_id", "game_id", "seat", "kind", "view", "deadline_ms", "bank_ms", "allowance_ms")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    ALLOWANCE_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    game_id: str
    seat: int
    kind: DecisionKind
    view: Observation
    deadline_ms: int
    bank_ms: int
    allowance_ms: int
    def __init__(self, request_id: _Optional[int] = ..., game_id: _Optional[str] = ..., seat: _Optional[int] = ..., kind: _Optional[_Union[DecisionKind, str]] = ..., view: _Optional[_Union[Observation, _Mapping]] = ..., deadline_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., allowance_ms: _Optional[int] = ...) -> None: ...

class GameEnd(_message.Message):
    __slots__ = ("game_id", "view", "scores", "ranks", "faults")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    view: Observation
    scores: _containers.RepeatedScalarFieldContainer[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    faults: _containers.RepeatedCompositeFieldContainer[Fault]
    def __init__(self, game_id: _Optional[str] = ..., view: _Optional[_Union[Observation, _Mapping]] = ..., scores: _Optional[_Iterable[int]] = ..., ranks: _Optional[_Iterable[int]] = ..., faults: _Optional[_Iterable[_Union[Fault, _Mapping]]] = ...) -> None: ...

class Fault(_message.Message):
    __slots__ = ("seat", "kind", "turn", "detail")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: FaultKind
    turn: int
    detail: str
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[FaultKind, str]] = ..., turn: _Optional[int] = ..., detail: _Optional[str] = ...) -> None: ...

class Notice(_message.Message):
    __slots__ = ("kind", "request_id", "game_id", "message", "played", "fault")
    KIND_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    FAULT_FIELD_NUMBER: _ClassVar[int]
    kind: NoticeKind
    request_id: int
    game_id: str
    message: str
    played: Decision
    fault: bool
    def __init__(self, kind: _Optional[_Union[NoticeKind, str]] = ..., request_id: _Optional[int] = ..., game_id: _Optional[str] = ..., message: _Optional[str] = ..., played: _Optional[_Union[Decision, _Mapping]] = ..., fault: _Optional[bool] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("games", "faults", "stay")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    STAY_FIELD_NUMBER: _ClassVar[int]
    games: int
    faults: int
    stay: bool
    def __init__(self, games: _Optional[int] = ..., faults: _Optional[int] = ..., stay: _Optional[bool] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("variant", "seat", "players", "turn", "set_number", "layout", "spaces", "markers", "stops", "hand", "action_cards", "chosen", "scores", "hand_sizes", "action_counts", "history", "choices", "to_place", "supply_size", "luck_deck_size", "action_deck_size", "pending", "legal")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    SET_NUMBER_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    SPACES_FIELD_NUMBER: _ClassVar[int]
    MARKERS_FIELD_NUMBER: _ClassVar[int]
    STOPS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    ACTION_CARDS_FIELD_NUMBER: _ClassVar[int]
    CHOSEN_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    ACTION_COUNTS_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    TO_PLACE_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_SIZE_FIELD_NUMBER: _ClassVar[int]
    LUCK_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    ACTION_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    variant: str
    seat: int
    players: int
    turn: int
    set_number: int
    layout: _containers.RepeatedScalarFieldContainer[str]
    spaces: _containers.RepeatedCompositeFieldContainer[Row]
    markers: _containers.RepeatedCompositeFieldContainer[Marker]
    stops: _containers.RepeatedScalarFieldContainer[int]
    hand: _containers.RepeatedScalarFieldContainer[int]
    action_cards: _containers.RepeatedScalarFieldContainer[ActionCard]
    chosen: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    action_counts: _containers.RepeatedScalarFieldContainer[int]
    history: _containers.RepeatedCompositeFieldContainer[TurnPlays]
    choices: _containers.RepeatedCompositeFieldContainer[Choice]
    to_place: _containers.RepeatedCompositeFieldContainer[Placement]
    supply_size: int
    luck_deck_size: int
    action_deck_size: int
    pending: Pending
    legal: _containers.RepeatedCompositeFieldContainer[Decision]
    def __init__(self, variant: _Optional[str] = ..., seat: _Optional[int] = ..., players: _Optional[int] = ..., turn: _Optional[int] = ..., set_number: _Optional[int] = ..., layout: _Optional[_Iterable[str]] = ..., spaces: _Optional[_Iterable[_Union[Row, _Mapping]]] = ..., markers: _Optional[_Iterable[_Union[Marker, _Mapping]]] = ..., stops: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[int]] = ..., action_cards: _Optional[_Iterable[_Union[ActionCard, str]]] = ..., chosen: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., action_counts: _Optional[_Iterable[int]] = ..., history: _Optional[_Iterable[_Union[TurnPlays, _Mapping]]] = ..., choices: _Optional[_Iterable[_Union[Choice, _Mapping]]] = ..., to_place: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ..., supply_size: _Optional[int] = ..., luck_deck_size: _Optional[int] = ..., action_deck_size: _Optional[int] = ..., pending: _Optional[_Union[Pending, _Mapping]] = ..., legal: _Optional[_Iterable[_Union[Decision, _Mapping]]] = ...) -> None: ...

class Row(_message.Message):
    __slots__ = ("tiles",)
    TILES_FIELD_NUMBER: _ClassVar[int]
    tiles: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, tiles: _Optional[_Iterable[int]] = ...) -> None: ...

class Marker(_message.Message):
    __slots__ = ("row", "space", "card")
    ROW_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    row: int
    space: int
    card: LuckCard
    def __init__(self, row: _Optional[int] = ..., space: _Optional[int] = ..., card: _Optional[_Union[LuckCard, str]] = ...) -> None: ...

class TurnPlays(_message.Message):
    __slots__ = ("tiles",)
    TILES_FIELD_NUMBER: _ClassVar[int]
    tiles: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, tiles: _Optional[_Iterable[int]] = ...) -> None: ...

class Placement(_message.Message):
    __slots__ = ("tile", "seat")
    TILE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    tile: int
    seat: int
    def __init__(self, tile: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class Choice(_message.Message):
    __slots__ = ("seat", "kind", "luck_card", "action_card", "tile", "row", "space", "new_tile")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LUCK_CARD_FIELD_NUMBER: _ClassVar[int]
    ACTION_CARD_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    NEW_TILE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: DecisionKind
    luck_card: LuckCard
    action_card: ActionCard
    tile: int
    row: int
    space: int
    new_tile: int
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[DecisionKind, str]] = ..., luck_card: _Optional[_Union[LuckCard, str]] = ..., action_card: _Optional[_Union[ActionCard, str]] = ..., tile: _Optional[int] = ..., row: _Optional[int] = ..., space: _Optional[int] = ..., new_tile: _Optional[int] = ...) -> None: ...

class Pending(_message.Message):
    __slots__ = ("kind", "seats", "tile", "card")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    kind: DecisionKind
    seats: _containers.RepeatedScalarFieldContainer[int]
    tile: int
    card: LuckCard
    def __init__(self, kind: _Optional[_Union[DecisionKind, str]] = ..., seats: _Optional[_Iterable[int]] = ..., tile: _Optional[int] = ..., card: _Optional[_Union[LuckCard, str]] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("tile", "luck", "action", "take_row")
    TILE_FIELD_NUMBER: _ClassVar[int]
    LUCK_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    TAKE_ROW_FIELD_NUMBER: _ClassVar[int]
    tile: PlayTile
    luck: PlaceLuck
    action: PlayAction
    take_row: TakeRow
    def __init__(self, tile: _Optional[_Union[PlayTile, _Mapping]] = ..., luck: _Optional[_Union[PlaceLuck, _Mapping]] = ..., action: _Optional[_Union[PlayAction, _Mapping]] = ..., take_row: _Optional[_Union[TakeRow, _Mapping]] = ...) -> None: ...

class PlayTile(_message.Message):
    __slots__ = ("tile",)
    TILE_FIELD_NUMBER: _ClassVar[int]
    tile: int
    def __init__(self, tile: _Optional[int] = ...) -> None: ...

class PlaceLuck(_message.Message):
    __slots__ = ("row", "space")
    ROW_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    row: int
    space: int
    def __init__(self, row: _Optional[int] = ..., space: _Optional[int] = ...) -> None: ...

class PlayAction(_message.Message):
    __slots__ = ("card", "row", "new_tile")
    CARD_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    NEW_TILE_FIELD_NUMBER: _ClassVar[int]
    card: ActionCard
    row: int
    new_tile: int
    def __init__(self, card: _Optional[_Union[ActionCard, str]] = ..., row: _Optional[int] = ..., new_tile: _Optional[int] = ...) -> None: ...

class TakeRow(_message.Message):
    __slots__ = ("row",)
    ROW_FIELD_NUMBER: _ClassVar[int]
    row: int
    def __init__(self, row: _Optional[int] = ...) -> None: ...
