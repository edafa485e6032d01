"""A bot, owned by one user, and its versions: every upload is a new numbered version.

A version is checked by the ``validation`` worker (unpacked and manifest read at upload time; a
smoke match against a house bot in the sandbox later). Only a version that ``passed`` can be
the bot's active version, and only a bot with one, neither retired nor paused, plays in ladders.
"""

import uuid
from pathlib import Path

from core.leases import Claimable
from core.urls import url_with_uuid
from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

BOT_NAME_RULE = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,39}\Z",
    "A bot name has 2 to 40 letters, digits, '.', '_' or '-', and starts with a letter or digit.",
)


class BotQuerySet(models.QuerySet["Bot"]):
    def playing(self) -> "BotQuerySet":
        """Bots the scheduler may put in a match."""
        return self.filter(
            retired_at__isnull=True,
            paused_at__isnull=True,
            owner__is_active=True,
            active_version__status="passed",
        )


class Bot(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="bots")
    name = models.CharField(max_length=40, validators=[BOT_NAME_RULE])
    is_house = models.BooleanField(default=False, help_text="One of the arena's own bots.")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    active_version = models.ForeignKey(
        "BotVersion", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    retired_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    pause_reason = models.TextField(blank=True)
    # The owner lets people choose this bot as an opponent at a table (tables app).
    plays_people = models.BooleanField(
        default=False, help_text="People may choose this bot to play against."
    )

    objects = BotQuerySet.as_manager()

    class Meta:
        ordering = ("name",)
        constraints = (
            models.UniqueConstraint(Lower("name"), name="bot_name_unique_ignoring_case"),
        )
        indexes = (
            # The notifications' poll (notifications.services.paused_bots):
            # WHERE paused_at > %s AND owner_id IN (...)
            models.Index(
                fields=["paused_at"], name="bot_paused_at", condition=Q(paused_at__isnull=False)
            ),
        )

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return url_with_uuid("bot", self.uuid)

    @property
    def is_retired(self) -> bool:
        return self.retired_at is not None

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None

    @property
    def state(self) -> str:
        """One word for lists: retired, paused, playing or waiting (no passing active version)."""
        if self.is_retired:
            return "retired"
        if self.is_paused:
            return "paused"
        if self.active_version_id and self.active_version and self.active_version.passed:
            return "playing"
        return "waiting"


class BotVersion(Claimable):
    WAITING = "waiting"  # its owner has other versions being checked: it waits its turn
    PENDING = "pending"
    VALIDATING = "validating"
    PASSED = "passed"
    FAILED = "failed"
    STATUSES = (
        (WAITING, "waiting its turn"),
        (PENDING, "pending"),
        (VALIDATING, "validating"),
        (PASSED, "passed"),
        (FAILED, "failed"),
    )
    # What ``code_dir`` names: an upload's archive in the arena's storage (core.storage), whose
    # SHA-256 is ``code_sha256``, or a folder in the house bots' folder; or nothing: the bot
    # plays from its owner's machine through the gateway (the remote app).
    DATA = "data"
    HOUSE = "house"
    REMOTE = "remote"

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    bot = models.ForeignKey(Bot, models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=12, choices=STATUSES, default=PENDING)
    validation_log = models.TextField(blank=True)
    upload_name = models.CharField(max_length=200, blank=True)
    upload_size = models.PositiveBigIntegerField(default=0)
    upload_sha256 = models.CharField(max_length=64, blank=True)
    code_root = models.CharField(
        max_length=8,
        choices=[(DATA, "data folder"), (HOUSE, "house bots"), (REMOTE, "remote")],
        default=DATA,
    )
    code_dir = models.CharField(max_length=300, blank=True)
    code_sha256 = models.CharField(max_length=64, blank=True)
    # The folder in the arena's storage of the validation attempt whose build was kept (its
    # log, and the built folder's archive whose SHA-256 is ``build_sha256``, see
    # submissions.builds); empty if the version was never built, no hash if it did not build.
    build_dir = models.CharField(max_length=300, blank=True)
    build_sha256 = models.CharField(max_length=64, blank=True)
    manifest = models.JSONField(default=dict, blank=True)
    activate_when_passed = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    validated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("bot", "-number")
        constraints = (
            models.UniqueConstraint(fields=["bot", "number"], name="version_number_per_bot"),
        )
        indexes = (
            # The sweeper: WHERE status IN ('pending', 'validating') AND queued_at < ...
            models.Index(fields=["status", "queued_at"], name="version_status_queued"),
            # The notifications' poll (notifications.services.checked_versions):
            # WHERE validated_at > %s AND status IN ('passed', 'failed')
            models.Index(
                fields=["validated_at"],
                name="version_validated_at",
                condition=Q(validated_at__isnull=False),
            ),
        )

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    def get_absolute_url(self) -> str:
        return reverse("bot-version", args=[self.bot.uuid, self.uuid])

    @property
    def passed(self) -> bool:
        return self.status == self.PASSED

    @property
    def is_remote(self) -> bool:
        """Whether the bot plays this version from its owner's machine (no code here)."""
        return self.code_root == self.REMOTE

    @property
    def is_final(self) -> bool:
        return self.status in (self.PASSED, self.FAILED)

    def code_path(self) -> Path:
        """The bot's folder on this machine (the one that holds ``nimmt-bot.toml``): a house
        bot's in the house bots' folder, an upload's unpacked from its archive into this
        machine's cache (:func:`core.storage.local_tree`, which raises
        :class:`~core.storage.StorageError` if the storage fails or the archive changed)."""
        if self.code_root == self.HOUSE:
            return Path(settings.HOUSE_BOTS_DIR) / self.code_dir
        from core.storage import local_tree  # boto3 is loaded only where files are fetched

        return local_tree(self.code_dir, self.code_sha256)
