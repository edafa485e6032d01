"""The whole suite: the arena package is imported before any test module imports gRPC, so that
the tests run gRPC with the transport engine the arena chooses (``arena.GRPC_EXPERIMENTS``)."""

import arena  # noqa: F401
