"""Site-wide counts taken one transaction at a time.

A cap on the whole site (tables open at once, analyses waiting) is a count followed by an
insert. Each request locks only its own user's row, so two users' requests could each count
the other's uncommitted row as absent and together pass the cap. :func:`hold_count` takes a
PostgreSQL advisory lock named after the cap for the rest of the transaction, so such counts
queue up behind one another. SQLite (the demo) writes one transaction at a time anyway.
"""

import zlib

from django.db import connection


def hold_count(name: str) -> None:
    """Until the current transaction ends, be the only one counting ``name``.

    >>> lock_key("analyses waiting") == lock_key("analyses waiting") != lock_key("tables open")
    True
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_key(name)])


def lock_key(name: str) -> int:
    """The advisory lock's key for ``name`` (a 32-bit checksum, the same in every process)."""
    return zlib.crc32(f"nimmt:{name}".encode())
