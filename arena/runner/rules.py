"""The arena's rules for bots, as numbers (documented in ``protos/nimmt/v1/arena.proto`` and
the starter kit's README), and :class:`MatchConfig`, the settings of one match. A module of its
own so that the command line reads them without loading gRPC.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from arena.engine.variants import variant as get_variant

if TYPE_CHECKING:  # the sandbox is loaded only by a match that runs programs
    from arena.sandbox import Limits

#: Per-decision allowance (ms): time within it does not touch the bank.
DECISION_MS = 1000
#: Time bank per seat and game (ms), drawn on beyond the allowance.
BANK_MS = 10_000
#: Faults in a match after which a bot is dropped (a crash or disconnect drops it at once).
MAX_FAULTS = 3
#: How long a bot has from its start to say Hello (ms).
START_MS = 10_000
#: How long the runner waits for an external bot (one started by hand) to connect (ms).
EXTERNAL_WAIT_MS = 300_000


@dataclass(frozen=True)
class MatchConfig:
    """What to play and under which rules (defaults: the documented ones above).

    ``limits`` are the sandbox's :class:`arena.sandbox.Limits` of each bot program (``None``:
    its defaults); ``out`` the folder for replays, ``logs/`` and ``match.json`` (``None``:
    nothing is written). ``duplicate``: each deal is played once per seat rotation
    (:func:`arena.local.series_game`), so ``games`` must be a multiple of the number of bots.
    """

    variant: str
    games: int
    seed: int
    out: Path | None = None
    decision_ms: int = DECISION_MS
    bank_ms: int = BANK_MS
    max_faults: int = MAX_FAULTS
    start_ms: int = START_MS
    unsafe_no_sandbox: bool = False
    limits: Limits | None = None
    duplicate: bool = False

    def __post_init__(self) -> None:
        get_variant(self.variant)
        for name in ("games", "decision_ms", "max_faults", "start_ms"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not isinstance(self.bank_ms, int) or self.bank_ms < 0:
            raise ValueError(f"bank_ms must be a non-negative integer, got {self.bank_ms!r}")
