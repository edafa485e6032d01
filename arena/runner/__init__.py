"""The match runner: bots at a table, each at a seat of its own kind, and a referee.

- :mod:`arena.runner.match`: :func:`~arena.runner.match.run_match` plays a match and writes its
  replays, logs and ``match.json``;
- :mod:`arena.runner.referee`: the arena's policy around one game (time, faults, drops,
  default decisions), speaking only to seats;
- :mod:`arena.runner.seat`: the :class:`~arena.runner.seat.Seat` interface, the house bot and
  the dropped seat; :mod:`arena.runner.connected`: seats over the bot protocol (a program, a
  bot started by hand);
- :mod:`arena.runner.lineup`: the sandbox check, launch, hellos and clean-up;
- :mod:`arena.runner.results`: per-bot reports, :class:`MatchResult`;
- :mod:`arena.runner.check`: the bot check (``nimmt bot check`` and the site's validation);
- :mod:`arena.runner.manifest` reads a bot folder's ``nimmt-bot.toml``;
  :mod:`arena.runner.rules` holds the arena's numbers and :class:`MatchConfig`.

What the runner shares with the protocol and the bots (the seat messages, faults, notes, default
decisions) is :mod:`arena.table`, below all three.
"""
