"""The match runner: bot programs in sandboxes, talking to the engine over the bot protocol.

:func:`arena.runner.match.run_match` plays a match and writes its replays, logs and summary;
:mod:`arena.runner.manifest` reads a bot folder's ``nimmt-bot.toml``;
:mod:`arena.runner.defaults` is the decision the arena plays for a faulty seat;
:mod:`arena.runner.commands` holds ``nimmt match`` and ``nimmt bot check``.

This package imports nothing heavy at import time: the bot kit (inside every sandbox) uses
:mod:`arena.runner.defaults`.
"""
