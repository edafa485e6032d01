"""Whose upload is checked next: a fair share of the validation workers for every owner.

An owner has at most ``VALIDATION_PER_OWNER`` versions pending or validating at once; more
uploads wait their turn (status ``waiting``, not sent to the workers) and are let in, oldest
first, as the owner's earlier ones get their verdicts. A version let in joins the back of the
validation queue, behind the other owners' versions already there: the queue takes the owners
in turn (round robin), so one owner's many uploads (or endless builds) delay another's verdict
by at most ``VALIDATION_PER_OWNER`` slots, never by the length of their own backlog.

Counting and letting in happen under a lock on the owner's row, so two uploads at once cannot
both take the last place. The functions here decide; the caller sends (``enqueue``) the
versions they return, in the transaction that changed them.
"""

from accounts.models import User
from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from submissions.models import BotVersion

#: The statuses that hold one of an owner's places.
IN_TURN = (BotVersion.PENDING, BotVersion.VALIDATING)


def hold_owner(owner_id: int) -> None:
    """Until the current transaction ends, be the only one deciding ``owner_id``'s turns. Take
    it first in the transaction: a row inserted beforehand that refers to the owner (a new bot)
    holds a share lock on it, and two such transactions would each wait for the other."""
    list(User.objects.select_for_update().filter(pk=owner_id).values_list("pk", flat=True))


def _mine(owner_id: int) -> "QuerySet[BotVersion]":
    return BotVersion.objects.filter(bot__owner_id=owner_id)


def first_status(owner_id: int) -> str:
    """The status of an upload of ``owner_id``'s just made: ``pending`` while the owner has a
    place, else ``waiting``. Call it in the transaction that saves the version."""
    hold_owner(owner_id)
    busy = _mine(owner_id).filter(status__in=IN_TURN).count()
    waiting = _mine(owner_id).filter(status=BotVersion.WAITING).exists()
    if busy < settings.VALIDATION_PER_OWNER and not waiting:
        return BotVersion.PENDING
    return BotVersion.WAITING


def let_in(owner_id: int) -> list[int]:
    """Let ``owner_id``'s oldest waiting versions take the places free now; their keys, for the
    caller to send. Call it in a transaction (after a verdict, and from the sweeper)."""
    hold_owner(owner_id)
    free = settings.VALIDATION_PER_OWNER - _mine(owner_id).filter(status__in=IN_TURN).count()
    if free <= 0:
        return []
    chosen = list(
        _mine(owner_id)
        .filter(status=BotVersion.WAITING)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:free]
    )
    BotVersion.objects.filter(pk__in=chosen, status=BotVersion.WAITING).update(
        status=BotVersion.PENDING, queued_at=timezone.now()
    )
    return chosen


def owners_waiting() -> list[int]:
    """The owners with versions waiting their turn (for the sweeper, which lets them in if a
    verdict's own letting-in was lost)."""
    return list(
        BotVersion.objects.filter(status=BotVersion.WAITING)
        .values_list("bot__owner_id", flat=True)
        .distinct()
    )


def ahead(version: BotVersion) -> int:
    """How many of its owner's versions are checked before ``version`` (0 unless waiting)."""
    if version.status != BotVersion.WAITING:
        return 0
    mine = _mine(version.bot.owner_id)
    earlier = Q(created_at__lt=version.created_at) | Q(
        created_at=version.created_at, pk__lt=version.pk
    )
    return int(
        mine.filter(earlier, status=BotVersion.WAITING).count()
        + mine.filter(status__in=IN_TURN).count()
    )
