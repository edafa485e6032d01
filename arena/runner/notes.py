"""The bot's note, under the name the starter kit's README once gave bot authors
(``arena.runner.notes.Note``): bot programs written against it keep working. The notes live in
:mod:`arena.table.notes`; the arena itself imports them from there.
"""

from arena.table.notes import Note

__all__ = ["Note"]
