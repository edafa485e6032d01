"""The house bots' rollout rule, compiled (``_policies.c``): a policy the compiled core plays."""

from typing import Any

#: The rule's ``NimmtPolicy`` capsule (``arena/engine/_playout_core.h``).
RULE: object

def classic_policy(
    tables: Any, kind: str, near: float, gen: Any, take_row: int, out: Any, /
) -> None:
    """The house policy ``kind`` ("heuristic" or "random") for every asked seat of every
    card-game table of the environments (``arena.env.core``) into ``out``."""
