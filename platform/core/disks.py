"""A full disk is a pause, not a loss: telling it apart from other failures.

Work that fails because a disk of the arena's is full (the data folder while a match writes
its replays or stores them, the build disk while a bot builds) is nobody's fault and passes
when space returns: it is put back to wait (:func:`matches.results.wait_for_space`), its
attempt not counted, never failed for it, tried again ``DISK_FULL_RETRY_SECONDS`` later, and its
page says :data:`REASON`.
"""

import errno

#: The reason shown on the page of work that waits for space.
REASON = "disk full: the arena waits for space to play it"
_FULL = (errno.ENOSPC, errno.EDQUOT)


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error``, or an error it was raised from or during, is a full disk: an
    ``OSError`` ``ENOSPC`` or ``EDQUOT``, or a bot's build that stopped for want of space
    (its ``build.disk_full``).

    >>> is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
    True
    >>> try:
    ...     try:
    ...         raise OSError(errno.ENOSPC, "No space left on device")
    ...     except OSError:
    ...         raise RuntimeError("could not store the match") from None
    ... except RuntimeError as wrapped:
    ...     is_disk_full(wrapped)
    True
    >>> is_disk_full(OSError(errno.EACCES, "Permission denied"))
    False
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in _FULL:
            return True
        if getattr(getattr(current, "build", None), "disk_full", False) is True:
            return True
        current = current.__cause__ or current.__context__
    return False
