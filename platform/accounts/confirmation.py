"""Email confirmation of new accounts (when ``EMAIL_CONFIRMATION`` is on).

A new account is made inactive and its owner is mailed a link carrying the account's id and a
token from Django's signed-token generator (the one password resets use, with a salt of its
own). The token covers ``is_active``, so a link confirms once; it expires after
``PASSWORD_RESET_TIMEOUT`` (3 days). Django's own generator rather than a library: the flow is
three small functions, and django-allauth would replace every account page.
"""

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.http import HttpRequest
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from accounts.models import User


class ConfirmationTokens(PasswordResetTokenGenerator):
    key_salt = "accounts.confirmation.ConfirmationTokens"

    def _make_hash_value(self, user: User, timestamp: int) -> str:
        return f"{user.pk}{user.is_active}{user.email}{timestamp}"


tokens = ConfirmationTokens()


def confirmation_url(request: HttpRequest, user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return request.build_absolute_uri(reverse("confirm-email", args=[uid, tokens.make_token(user)]))


def send_confirmation(request: HttpRequest, user: User) -> None:
    """Mail ``user`` the link that opens their account."""
    send_mail(
        f"Confirm your {settings.SITE_NAME} account",
        f"Hello {user.username},\n\n"
        f"follow this link to confirm your email address and open your account:\n\n"
        f"{confirmation_url(request, user)}\n\n"
        "The link works once, for 3 days. If you did not sign up, ignore this mail.\n",
        None,  # DEFAULT_FROM_EMAIL
        [user.email],
    )


def confirm(uidb64: str, token: str) -> User | None:
    """Open the account the link names; ``None`` for a bad, used or expired link."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    user = User.objects.filter(pk=pk, is_active=False).first()
    if user is None or not tokens.check_token(user, token):
        return None
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user
