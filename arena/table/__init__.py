"""What is said at the table: the vocabulary the referee, its seats, the protocol and the bots
share, below all of them (it imports only the engine).

- :mod:`arena.table.messages`: the referee's messages to a seat and the seat's reply
  (:class:`~arena.table.messages.GameStart`, :class:`~arena.table.messages.Request`,
  :class:`~arena.table.messages.Reply`, :class:`~arena.table.messages.Notice`,
  :class:`~arena.table.messages.GameEnd`, :class:`~arena.table.messages.Problem`);
- :mod:`arena.table.faults`: :class:`~arena.table.faults.Fault` and
  :class:`~arena.table.faults.Drop`, why the arena played a seat's decision for it;
- :mod:`arena.table.notes`: a bot's :class:`~arena.table.notes.Note` on its own decisions;
- :mod:`arena.table.defaults`: the decision the arena plays for a seat at fault (the bot kit's
  defaults too);
- :mod:`arena.table.quote`: a bot's text made safe to print.

Light on purpose: the bot kit, inside every sandbox, loads it (never the runner).
"""
