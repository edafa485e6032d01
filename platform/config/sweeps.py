"""The beat's one sweep: every safety net of the site, in one task, one after another.

The sweeps (re-send lost or orphaned work, move tournaments, version tests and seasons on)
used to be five beat entries due at the same moment. A maintenance worker slower than their
interval (a loaded machine, a long sweep) skips the messages that expired while it worked and
takes the oldest one still fresh: always the first one sent at a tick, so the entries after it
never ran (a season that did not freeze). One task per interval runs every sweep each time it
runs, and forks one pool child where five were forked. A sweep that fails is logged and the
rest still run; the next interval tries it again.

This module lives in the project, not in an app: it calls the tasks of several apps, and
``core`` imports none of them.
"""

import logging
from collections.abc import Callable

from core.celery import house_task
from matches.tasks import requeue_stale_work
from seasons.tasks import advance_seasons
from submissions.tasks import requeue_stale_versions
from tournaments.tasks import advance_running_tournaments
from versiontests.tasks import advance_open_version_tests

log = logging.getLogger(__name__)

#: The sweeps, in the order they run: work sent again first (a lost match may be what a
#: tournament, a version test or a season's final is waiting for).
SWEEPS: tuple[Callable[[], None], ...] = (
    requeue_stale_work,
    requeue_stale_versions,
    advance_running_tournaments,
    advance_open_version_tests,
    advance_seasons,
)


@house_task(queue="maintenance")
def sweep() -> list[str]:
    """Run every sweep; the names of those that failed (each logged with its traceback)."""
    failed = []
    for each in SWEEPS:
        name = getattr(each, "name", each.__qualname__)
        try:
            each()
        except Exception:
            log.exception("sweep %s failed (tried again at the next sweep)", name)
            failed.append(name)
    return failed
