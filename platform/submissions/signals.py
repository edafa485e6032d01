"""What the submissions tell the apps above them, and let them refuse.

:data:`version_change` is sent before a bot takes a new version or changes its active one
(``bot``, ``None`` for a bot about to be made with its first version; ``what``: ``"upload"``
or ``"activate"``); a receiver refuses it by raising
:class:`ChangeRefused` with the reason (the seasons: a frozen ladder's bots).
"""

from django.dispatch import Signal

version_change = Signal()


class ChangeRefused(Exception):
    """A new or newly active version refused, with the reason for the owner."""


def check_version_change(bot: object, what: str) -> None:
    """Raise :class:`ChangeRefused` if a receiver of :data:`version_change` refuses it."""
    version_change.send(sender=type(bot), bot=bot, what=what)
