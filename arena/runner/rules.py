"""The arena's rules for bots, as numbers (documented in ``protos/nimmt/v1/arena.proto`` and
the starter kit's README). A module of its own so that the command line reads them without
loading gRPC.
"""

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
