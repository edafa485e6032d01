"""Users and their personal API tokens.

A token is shown once, when it is made; the database keeps only its SHA-256 digest (a token is
32 random bytes, so a fast hash is enough: there is nothing to guess). A revoked token stays
listed, marked revoked, and no longer authenticates.
"""

import hashlib
import secrets
import uuid

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone

TOKEN_PREFIX = "nimmt_"


class User(AbstractUser):
    """A person: bot author, or organiser (``is_staff``) who uses the admin."""

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)


def digest(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def live(self) -> "ApiTokenQuerySet":
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(User, models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    # The first characters, shown in lists so that the owner can tell tokens apart.
    hint = models.CharField(max_length=16, editable=False)
    # Serves the lookup of every API request: WHERE digest = %s.
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"

    @classmethod
    def issue(cls, user: User, name: str) -> tuple["ApiToken", str]:
        """A new token for ``user``: the row, and the token itself (never stored)."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = cls.objects.create(
            user=user, name=name, hint=token[: len(TOKEN_PREFIX) + 6], digest=digest(token)
        )
        return row, token

    @classmethod
    def authenticate(cls, token: str) -> User | None:
        """The user whose live token this is, or ``None``."""
        if not token.startswith(TOKEN_PREFIX):
            return None
        row = cls.objects.live().select_related("user").filter(digest=digest(token)).first()
        if row is None or not row.user.is_active:
            return None
        cls.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
        return row.user

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])
