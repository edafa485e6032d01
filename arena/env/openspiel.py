"""The five variants as the OpenSpiel game ``python_nimmt`` (``import arena.env.openspiel``).

Importing this module registers the game with OpenSpiel (``pip install 'nimmt-arena[openspiel]'``)::

    import pyspiel
    import arena.env.openspiel  # noqa: F401 (registers python_nimmt)
    game = pyspiel.load_game("python_nimmt", {"variant": "classic", "players": 4})

The game states its facts as OpenSpiel asks (docs/ENVIRONMENT.md, "OpenSpiel"):

* parameters ``variant`` (``basic``, ``basic+luck``, ``pro``, ``pro+luck``, ``classic``;
  default ``classic``) and ``players`` (default 4, within the variant's range);
* **chance deals**: one chance node per tile, in the order of the shuffled deck (outcome
  ``t - 1`` is tile ``t``; RULES.md 2 lays them out as rows, hands and supply), then one per
  luck card and one per action card (outcome: the card's index in ``LUCK_CARDS`` or
  ``ACTION_CARDS``), each uniform over what is left;
* **simultaneous moves**: every seat chooses its tile at once (a seat holding none, or asked
  nothing, plays :data:`~arena.env.actions.WAIT`); the decisions that follow within a turn
  (a luck card's space, an action card, a row to take) are asked of one seat at a time and are
  ordinary player nodes;
* actions are the environments' one flat space (:mod:`arena.env.actions`, 432 integers);
* **imperfect information**: the observation tensor is the environments' encoding of the seat's
  view (:func:`arena.env.encoding.encode`); the information state adds the seat's first hand
  as its own block (the tensor) and, as a string, everything the seat has seen since the deal:
  its hands, every revealed tile and public decision, every turn's scores (perfect recall);
* returns at the end only: the board game's scores, the card game's penalty negated (so every
  player maximises); no rewards on the way.

Rules and views come from the readable engine (:class:`arena.engine.Game`,
:func:`arena.engine.observation.observe`) through its public API; nothing here re-states them.

:func:`resample_classic` draws a card-game world consistent with one seat's information (the
other hands from the cards it has not seen), for OpenSpiel's information-set MCTS through the
turn-based transform (``pyspiel.convert_to_turn_based``): see :func:`ismcts_bot`.
"""

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel

from arena.bots.base import Bot
from arena.engine import Game
from arena.engine.game import deal
from arena.engine.observation import Observation, observe
from arena.engine.tiles import CARD_BULLHEADS
from arena.engine.variants import (
    ACTION_CARDS,
    LUCK_CARDS,
    PRO_TURN_CAP,
    VARIANT_NAMES,
    Variant,
    variant,
)

from .actions import ACTION_COUNT, WAIT, action_of, decision_of
from .encoding import OBSERVATION_SIZE, encode

__all__ = [
    "GAME_TYPE",
    "NimmtGame",
    "NimmtState",
    "bot_decider",
    "deal_actions",
    "ismcts_bot",
    "ismcts_decider",
    "play_turn_based",
    "resample_classic",
]

SHORT_NAME = "python_nimmt"
_DEFAULTS: dict[str, Any] = {"variant": "classic", "players": 4}
_TILES = max(variant(name).tiles for name in VARIANT_NAMES)
_MAX_PLAYERS = max(variant(name).players.stop - 1 for name in VARIANT_NAMES)
#: The information-state tensor: the observation, then the seat's first hand (one per tile).
INFO_STATE_SIZE = OBSERVATION_SIZE + _TILES
#: A bound on any board-game score (random play stays within -81..27 over 4,500 games).
_BOARD_BOUND = 400.0

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python 6 nimmt! Brettspiel (Nimmt Arena)",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class NimmtGame(pyspiel.Game):  # type: ignore[misc]
    """One variant at one table size; :meth:`new_initial_state` starts before the deal."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        name, players = params["variant"], params["players"]
        if name not in VARIANT_NAMES:
            raise ValueError(f"unknown variant {name!r}; one of {', '.join(VARIANT_NAMES)}")
        self.variant: Variant = variant(name)
        self.variant.check_players(players)
        self.players = int(players)
        v = self.variant
        decks = len(v.luck_deck) + len(v.action_deck)
        turns = v.hand_size if v.classic else PRO_TURN_CAP
        low, high = (
            (-float(sum(CARD_BULLHEADS)), 0.0) if v.classic else (-_BOARD_BOUND, _BOARD_BOUND)
        )
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=ACTION_COUNT,
                max_chance_outcomes=max(_TILES, len(LUCK_CARDS), len(ACTION_CARDS)),
                num_players=self.players,
                min_utility=low,
                max_utility=high,
                utility_sum=None,
                # the deal, then per turn one joint tile choice and a few decisions per seat
                max_game_length=v.tiles + decks + turns * (1 + 4 * self.players),
            ),
            {"variant": name, "players": self.players},
        )

    def new_initial_state(self) -> "NimmtState":
        return NimmtState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> "NimmtObserver":
        if params:
            raise ValueError(f"python_nimmt's observer takes no parameters, got {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return NimmtObserver(kind)


class NimmtState(pyspiel.State):  # type: ignore[misc]
    """A game of ``python_nimmt``: the deal so far, then the engine's :class:`Game`."""

    def __init__(self, game: NimmtGame) -> None:
        super().__init__(game)
        self._variant = game.variant
        self._players = game.players
        self._tiles: list[int] = []  # the deck's order, as dealt so far
        self._luck: list[str] = []
        self._actions: list[str] = []
        self._game: Game | None = None
        # Per seat, what it held after each step (its private knowledge, for perfect recall).
        self._private: list[list[str]] = [[] for _ in range(self._players)]

    # -------------------------------------------------------------- whose turn

    @property
    def engine_game(self) -> Game | None:
        """The engine's game once dealt (``None`` during the deal). Not a player's view."""
        return self._game

    def current_player(self) -> int:
        game = self._game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        pending = game.pending
        if pending is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if pending.kind.value == "tile":
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return pending.seats[0]

    def _legal_actions(self, player: int) -> list[int]:
        game = self._game
        if game is None or game.pending is None:
            return []
        pending = game.pending
        if player not in pending.seats:
            return [WAIT] if pending.kind.value == "tile" else []
        return sorted(action_of(d) for d in game.legal(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        v = self._variant
        if len(self._tiles) < v.tiles:
            left = sorted(set(range(1, v.tiles + 1)) - set(self._tiles))
            return [(t - 1, 1.0 / len(left)) for t in left]
        for dealt, deck, cards in (
            (self._luck, v.luck_deck, LUCK_CARDS),
            (self._actions, v.action_deck, ACTION_CARDS),
        ):
            if len(dealt) < len(deck):
                cards_left = Counter(deck) - Counter(dealt)
                total = sum(cards_left.values())
                return [(cards.index(c), n / total) for c, n in sorted(cards_left.items())]
        raise pyspiel.SpielError("the deal is over")

    # -------------------------------------------------------------- moves

    def _apply_action(self, action: int) -> None:
        if self._game is None:
            self._deal(action)
            return
        seat = self.current_player()
        if action not in self._legal_actions(seat):
            raise pyspiel.SpielError(
                f"seat {seat}: action {action} ({self._action_to_string(seat, action)}) "
                "is not legal"
            )
        decision = decision_of(action)
        assert decision is not None
        self._game.apply(seat, decision)
        self._remember()

    def _apply_actions(self, actions: Sequence[int]) -> None:
        game = self._game
        assert game is not None and game.pending is not None
        if len(actions) != self._players:
            raise pyspiel.SpielError(f"{len(actions)} actions for {self._players} seats")
        # Every seat's action checked before any is applied: a refused joint action changes
        # nothing.
        for seat, action in enumerate(actions):
            if action not in self._legal_actions(seat):
                asked = seat in game.pending.seats
                raise pyspiel.SpielError(
                    f"seat {seat}: action {action} ({self._action_to_string(seat, action)}) "
                    + ("is not legal" if asked else "given, but the seat is asked nothing: WAIT")
                )
        for seat in game.pending.seats:
            decision = decision_of(actions[seat])
            assert decision is not None
            game.apply(seat, decision)
        self._remember()

    def _deal(self, outcome: int) -> None:
        v = self._variant
        if len(self._tiles) < v.tiles:
            tile = outcome + 1
            if not 1 <= tile <= v.tiles or tile in self._tiles:
                raise pyspiel.SpielError(f"tile {tile} is not left to deal")
            self._tiles.append(tile)
        elif len(self._luck) < len(v.luck_deck):
            self._luck.append(LUCK_CARDS[outcome])
        else:
            self._actions.append(ACTION_CARDS[outcome])
        if (
            len(self._tiles) == v.tiles
            and len(self._luck) == len(v.luck_deck)
            and len(self._actions) == len(v.action_deck)
        ):
            rows, hands, supply = deal(v, self._players, self._tiles)
            self._game = Game.from_setup(v.name, rows, hands, supply, self._luck, self._actions)
            self._remember()

    def _remember(self) -> None:
        game = self._game
        assert game is not None
        for seat in range(self._players):
            self._private[seat].append(f"{game.hands[seat]}{game.held[seat]}")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            v = self._variant
            if len(self._tiles) < v.tiles:
                return f"deal tile {action + 1}"
            cards = LUCK_CARDS if len(self._luck) < len(v.luck_deck) else ACTION_CARDS
            return f"deal card {cards[action]}"
        decision = decision_of(action)
        return "wait" if decision is None else str(decision)

    # -------------------------------------------------------------- the end

    def is_terminal(self) -> bool:
        return self._game is not None and self._game.is_over()

    def returns(self) -> list[float]:
        game = self._game
        if game is None or not game.is_over():
            return [0.0] * self._players
        sign = -1.0 if self._variant.classic else 1.0
        return [sign * s for s in game.result().scores]

    def __str__(self) -> str:
        game = self._game
        if game is None:
            return f"dealing: {len(self._tiles)} tiles dealt"
        rows = " | ".join(" ".join(str(t) for t in row if t > 0) for row in game.spaces)
        return f"turn {game.turn}; rows {rows}; hands {game.hands}; scores {game.scores}"

    # -------------------------------------------------------------- a seat's knowledge

    def first_hand(self, seat: int) -> list[int]:
        """The tiles ``seat`` was dealt (empty before the deal is complete)."""
        if self._game is None:
            return []
        return sorted(self._game.setup["hands"][seat])

    def information_state(self, seat: int) -> str:
        """Everything ``seat`` has seen, in order (a string, equal for the histories the seat
        cannot tell apart)."""
        head = f"{self._variant.name} {self._players}p seat {seat}"
        game = self._game
        if game is None:
            return f"{head}; dealing {len(self._tiles)}"
        setup = game.setup
        lines = [head, f"rows {setup['rows']} hand {self.first_hand(seat)}"]
        for turn in game.turns:
            lines.append(f"{turn.plays} {turn.choices} {turn.scores}")
        lines.append(" ".join(self._private[seat]))
        lines.append(self.observation(seat))
        return "\n".join(lines)

    def observation(self, seat: int) -> str:
        """The seat's view now (the same fields a bot is sent), as a string."""
        if self._game is None:
            return f"{self._variant.name} {self._players}p seat {seat}; dealing"
        view = observe(self._game, seat).to_dict()
        view.pop("layout")  # fixed by the variant
        return str(view)


class NimmtObserver:
    """Builds one seat's observation or information state (OpenSpiel's PyObserver)."""

    def __init__(self, iig_obs_type: Any) -> None:
        if not iig_obs_type.public_info or (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "python_nimmt observes one seat's own view: public_info=True, "
                "private_info=SINGLE_PLAYER"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = INFO_STATE_SIZE if self.perfect_recall else OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: NimmtState, player: int) -> None:
        self.tensor.fill(0.0)
        game = state.engine_game
        if game is None:
            return
        self.tensor[:OBSERVATION_SIZE] = encode(observe(game, player))
        if self.perfect_recall:
            for tile in state.first_hand(player):
                self.tensor[OBSERVATION_SIZE + tile - 1] = 1.0

    def string_from(self, state: NimmtState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state(player)
        return state.observation(player)


pyspiel.register_game(GAME_TYPE, NimmtGame)


# ------------------------------------------------------------------ information-set search


def resample_classic(state: Any, player: int, rng: random.Random) -> Any:
    """A state of the turn-based card game (``pyspiel.convert_to_turn_based`` of
    ``python_nimmt`` with ``variant=classic``) that ``player`` cannot tell from ``state``.

    The other seats' hands are drawn from the cards ``player`` has not seen (a seat keeps the
    cards it revealed), the undealt cards shuffled, and the tiles chosen this turn by seats
    before ``player`` (hidden until the reveal) drawn from their sampled hands; everything
    public and everything ``player`` did stays. For OpenSpiel's ISMCTS bot (:func:`ismcts_bot`).
    """
    game = state.get_game()
    wrapped = game.get_parameters().get("game", {})
    if wrapped.get("name") != SHORT_NAME or wrapped.get("variant") != "classic":
        raise ValueError(f"resample_classic draws card-game worlds of {SHORT_NAME}, not {game}")
    players = game.num_players()
    v = variant("classic")
    history = list(state.history())
    # Re-play the history on the simultaneous game: the deal, then the turns.
    inner = NimmtGame({"variant": "classic", "players": players}).new_initial_state()
    dealt = 0
    while dealt < len(history) and inner.is_chance_node():
        inner._apply_action(history[dealt])
        dealt += 1
    if inner.engine_game is None:
        raise ValueError("a world is drawn once the deal is over")
    moves = history[dealt:]
    joint: list[int] = []
    for action in moves:
        if inner.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            joint.append(action)
            if len(joint) == players:
                inner._apply_actions(joint)
                joint = []
        else:
            inner._apply_action(action)
    played = inner.engine_game
    assert played is not None
    setup = played.setup
    revealed: list[list[int]] = [[] for _ in range(players)]
    for turn in played.turns:
        for seat, tile in enumerate(turn.plays):
            if tile is not None:
                revealed[seat].append(tile)
    known = set(setup["hands"][player]) | {t for row in setup["rows"] for t in row}
    known |= {t for tiles in revealed for t in tiles}
    unseen = [t for t in range(1, v.tiles + 1) if t not in known]
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for seat in range(players):
        if seat == player:
            hands.append(list(setup["hands"][seat]))
            continue
        need = v.hand_size - len(revealed[seat])
        hands.append(revealed[seat] + unseen[:need])
        unseen = unseen[need:]
    fresh = game.new_initial_state()
    for tile in [row[0] for row in setup["rows"]] + [t for h in hands for t in h] + unseen:
        fresh.apply_action(tile - 1)
    for action in moves[: len(moves) - len(joint)]:
        fresh.apply_action(action)
    for _ in joint:  # this round's hidden choices of the seats before ``player``
        fresh.apply_action(rng.choice(fresh.legal_actions()))
    return fresh


def deal_actions(variant_name: str, players: int, seed: int) -> list[int]:
    """The chance outcomes that deal the arena's game ``Game.new(variant, players, seed)``:
    the same seed gives the same deal here as in every other part of the arena."""
    setup = Game.new(variant_name, players, seed).setup
    v = variant(variant_name)
    order = [row[0] for row in setup["rows"][: v.start_rows]]
    order += [t for hand in setup["hands"] for t in hand] + list(setup["supply"])
    return (
        [t - 1 for t in order]
        + [LUCK_CARDS.index(c) for c in setup["luck_deck"]]
        + [ACTION_CARDS.index(c) for c in setup["action_deck"]]
    )


#: Chooses a seat's action in a turn-based state: ``(state, seat, view) -> action``.
Decider = Callable[[Any, int, Observation], int]


def play_turn_based(game: Any, seed: int, deciders: Sequence[Decider]) -> list[float]:
    """Play one game of the turn-based transform ``game`` of ``python_nimmt``, dealt as the
    arena deals ``seed``, each seat's action chosen by its decider (given the state and the
    seat's view as the arena's bots see it); the returns."""
    params = game.get_parameters().get("game", {})  # the transform's: the game it wraps
    name, players = str(params.get("variant")), game.num_players()
    if params.get("name") != SHORT_NAME:
        raise ValueError(f"{game} is not the turn-based transform of {SHORT_NAME}")
    state = game.new_initial_state()
    for outcome in deal_actions(name, players, seed):
        state.apply_action(outcome)
    # The same game on the simultaneous side, for the seats' views.
    mirror = NimmtGame({"variant": name, "players": players}).new_initial_state()
    for outcome in deal_actions(name, players, seed):
        mirror._apply_action(outcome)
    joint: list[int] = []
    while not state.is_terminal():
        seat = state.current_player()
        engine = mirror.engine_game
        assert engine is not None
        action = deciders[seat](state, seat, observe(engine, seat))
        state.apply_action(action)
        if mirror.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            joint.append(action)
            if len(joint) == players:
                mirror._apply_actions(joint)
                joint = []
        else:
            mirror._apply_action(action)
    returns: list[float] = state.returns()
    if returns != mirror.returns():
        raise AssertionError(f"the transform's returns {returns} differ from {mirror.returns()}")
    return returns


def bot_decider(bot: Bot) -> Decider:
    """A decider playing the arena's ``bot`` (a house bot such as ``make_bot("heuristic")``,
    told of the game by the caller) from the seat's view."""

    def decide(state: Any, seat: int, view: Observation) -> int:
        return action_of(bot.decide(view)) if view.legal else WAIT

    return decide


def ismcts_decider(bot: Any) -> Decider:
    """A decider asking OpenSpiel's bot ``bot`` (e.g. :func:`ismcts_bot`) for the state."""

    def decide(state: Any, seat: int, view: Observation) -> int:
        action: int = bot.step(state)
        return action

    return decide


def ismcts_bot(game: Any, simulations: int, seed: int, uct_c: float = 2.0) -> Any:
    """OpenSpiel's information-set MCTS bot (random rollouts) for the turn-based card game
    ``game`` (``pyspiel.convert_to_turn_based`` of ``python_nimmt``, ``variant=classic``),
    its worlds drawn by :func:`resample_classic`."""
    from open_spiel.python.algorithms import ismcts, mcts

    rng = random.Random(seed)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
        uct_c,
        simulations,
        random_state=np.random.RandomState(seed),
    )
    bot.set_resampler(lambda state, player: resample_classic(state, player, rng))
    return bot
