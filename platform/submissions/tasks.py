"""Validation of an uploaded version, on the ``validation`` queue.

The upload was unpacked and its manifest read when it arrived; here the worker reads the
manifest again from the stored folder and plays a smoke match against a house bot in the
sandbox. A version that passes may become the bot's active version; one that fails keeps its log
(what went wrong, for its owner) and loses its archive. ``requeue_stale_versions`` (beat) sends
again a version whose message was lost or whose worker died. A verdict lets in the owner's next
upload waiting its turn (:mod:`submissions.turns`).
"""

import logging
import tempfile
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from core import disks, leases, metrics, storage
from core.celery import enqueue, house_task, look_again_when_lease_ends, resend_stale, send
from core.files import public_dir
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone
from matches import bridge

from submissions import builds, signals, turns
from submissions.models import Bot, BotVersion

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 3


@house_task(queue="validation", time_limit=15 * 60)
def validate_version(*, version_pk: int) -> None:
    claim = leases.claim(
        BotVersion,
        version_pk,
        waiting=BotVersion.PENDING,
        working=BotVersion.VALIDATING,
        lease_seconds=settings.VALIDATION_LEASE_SECONDS,
    )
    if claim is None:  # already validated, gone, or being validated by a live worker
        look_again_when_lease_ends(
            validate_version,
            BotVersion,
            version_pk,
            working=BotVersion.VALIDATING,
            key="version_pk",
        )
        return
    version = BotVersion.objects.select_related("bot").get(pk=version_pk)
    if version.attempts > MAX_ATTEMPTS:
        # Its worker died each time (killed, or past the task's time limit): the attempts that
        # raised or failed are counted below, these only here.
        finish_validation(
            claim,
            passed=False,
            log_text=f"The arena gave up checking this version after {MAX_ATTEMPTS} attempts "
            "(its checks kept stopping the worker); upload it again.",
        )
        return
    scratch = public_dir(Path(settings.DATA_DIR) / "tmp")
    try:
        with leases.heartbeat(claim), tempfile.TemporaryDirectory(dir=scratch) as out:
            check = bridge.check_bot(version.code_path(), Path(out))
            kept = None  # kept before the verdict: a passed version has its build
            if check.build is not None and check.build.disk_full:  # not the bot's fault
                log.warning("%s waits for build disk space: %s", version, check.build.problem)
                wait_for_space(claim)
                return
            if check.build is not None:
                check, kept = keep_checked_build(version, check, claim)
    except Exception as error:
        if disks.is_disk_full(error):  # a pause: not counted, tried again later
            log.warning("%s waits for disk space: %s", version, error)
            wait_for_space(claim)
            return
        if not isinstance(error, (bridge.ArenaError, storage.StorageError)):
            raise
        log.warning("could not validate %s: %s", version, error)
        if version.attempts >= MAX_ATTEMPTS:
            finish_validation(
                claim,
                passed=False,
                log_text=f"The arena could not check this version ({error}); upload it again.",
            )
        else:  # the sweeper sends it again
            leases.holds(claim).update(
                status=BotVersion.PENDING, claim_token=None, lease_expires_at=None
            )
        return
    finish_validation(claim, passed=check.passed, log_text=check.log, build=kept)


def wait_for_space(claim: leases.Claim) -> None:
    """The check found a disk of the arena's full: the version waits (:mod:`core.disks`), this
    attempt not counted, its log saying so, and is sent again after
    ``DISK_FULL_RETRY_SECONDS``."""
    waits = leases.holds(claim).update(
        status=BotVersion.PENDING,
        claim_token=None,
        lease_expires_at=None,
        attempts=Greatest(F("attempts") - 1, 0),
        validation_log=disks.REASON,
        queued_at=timezone.now(),
    )
    if waits:
        send(
            validate_version,
            countdown=settings.DISK_FULL_RETRY_SECONDS,
            version_pk=claim.pk,
        )


def keep_checked_build(
    version: BotVersion, check: bridge.BotCheck, claim: leases.Claim
) -> tuple[bridge.BotCheck, builds.KeptBuild]:
    """Keep ``check``'s build for the attempt ``claim``. A build the arena cannot keep fails
    the check, its log saying why, and keeps only the build's log."""
    assert check.build is not None
    try:
        return check, builds.keep_build(version, check.build, claim)
    except builds.UnkeepableBuild as problem:
        failed = replace(check, passed=False, log=f"{check.log.rstrip()}\nFAIL {problem}\n")
        return failed, builds.keep_build(version, replace(check.build, program=None), claim)


@house_task(queue="maintenance")
def requeue_stale_versions() -> None:
    """Send again every version whose message was lost or whose worker died (at most once every
    ``REQUEUE_AFTER_SECONDS``, :func:`core.celery.resend_stale`), and remove the builds that
    dead validation attempts left in the arena's storage."""
    resend_stale(
        BotVersion,
        validate_version,
        waiting=BotVersion.PENDING,
        working=BotVersion.VALIDATING,
        key="version_pk",
        after_seconds=settings.REQUEUE_AFTER_SECONDS,
    )
    for owner in turns.owners_waiting():  # in case a verdict's own letting-in was lost
        with transaction.atomic():
            for pk in turns.let_in(owner):
                enqueue(validate_version, version_pk=pk)
    remove_orphaned_builds()


#: How long after its verdict a version's folder is looked through for other attempts' builds.
ORPHANS_WINDOW = timedelta(days=1)


def remove_orphaned_builds(
    window: timedelta = ORPHANS_WINDOW, grace: timedelta | None = None
) -> list[str]:
    """Delete the builds of validation attempts whose verdict was never stored (their worker
    died after writing them); the folders deleted. As for matches
    (:func:`matches.results.remove_orphaned_attempts`): only a version validated more than
    once, once it has its verdict (more than ``grace``, at most ``window`` ago), each version
    once; the build its verdict kept (``build_dir``) is never touched."""
    grace = timedelta(seconds=settings.REQUEUE_AFTER_SECONDS) if grace is None else grace
    now = timezone.now()
    judged = BotVersion.objects.filter(
        status__in=(BotVersion.PASSED, BotVersion.FAILED),
        attempts__gt=1,
        validated_at__gte=now - window,
        validated_at__lt=now - grace,
    ).select_related("bot")
    removed: list[str] = []
    for version in judged:
        key = f"nimmt:orphans-swept:{version.uuid}"
        if not cache.add(key, 1, timeout=window.total_seconds()):
            continue
        parent = f"bots/{version.bot.uuid}"
        try:
            removed += storage.remove_other_attempts(
                parent, builds.attempt_stem(version), version.build_dir
            )
        except storage.StorageError as error:
            cache.delete(key)
            log.warning("could not remove other attempts' builds of %s: %s", version, error)
    return removed


def _may_activate(bot: Bot) -> bool:
    """Whether a version that passed may become active now (not while a season freezes it)."""
    try:
        signals.check_version_change(bot, "activate")
    except signals.ChangeRefused as refused:
        log.info("%s keeps its active version: %s", bot, refused)
        return False
    return True


def finish_validation(
    claim: leases.Claim, *, passed: bool, log_text: str, build: builds.KeptBuild | None = None
) -> bool:
    """Store the verdict if ``claim`` still holds the version; ``False`` if it was lost (the
    attempt's ``build`` is then deleted). A failed version keeps its build's log only."""
    with transaction.atomic():
        version = (
            leases.holds(claim)
            .filter(status=BotVersion.VALIDATING)
            .select_related("bot")
            .select_for_update()
            .first()
        )
        if version is None:
            if build is not None:
                storage.delete_all(build.written)
            return False
        version.status = BotVersion.PASSED if passed else BotVersion.FAILED
        version.validation_log = log_text
        version.validated_at = timezone.now()
        version.claim_token = None
        if build is not None:
            version.build_dir = build.folder
            version.build_sha256 = build.sha256 if passed else ""
            if not passed and build.sha256:
                unused = [n for n in build.written if not n.endswith(f"/{builds.LOG}")]
                transaction.on_commit(lambda: storage.delete_all(unused))
        version.save(
            update_fields=[
                "status",
                "validation_log",
                "validated_at",
                "claim_token",
                "build_dir",
                "build_sha256",
            ]
        )
        metrics.validation_done(passed=passed)
        for pk in turns.let_in(version.bot.owner_id):  # the owner's next upload, if waiting
            enqueue(validate_version, version_pk=pk)
        if passed and version.activate_when_passed and _may_activate(version.bot):
            Bot.objects.filter(pk=version.bot_id, retired_at__isnull=True).update(
                active_version=version, paused_at=None, pause_reason=""
            )
        if not passed and version.code_root == BotVersion.DATA:
            archive = [version.code_dir]
            transaction.on_commit(lambda: storage.delete_all(archive))
    log.info("validated %s: %s", version, version.status)
    return True
