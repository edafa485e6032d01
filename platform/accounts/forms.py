"""Forms of the accounts pages."""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from accounts.models import User


class SignupForm(UserCreationForm[User]):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if settings.EMAIL_CONFIRMATION:
            email = self.fields["email"]
            email.required = True
            email.help_text = "We mail you a link to confirm it: the account opens with it."


class LoginForm(AuthenticationForm):
    """Django's log-in form; an account whose email address is not confirmed yet is told so
    (only after the password was checked, and counted by the lockout, like any other try)."""

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except forms.ValidationError:
            username = self.cleaned_data.get("username")
            password = self.cleaned_data.get("password")
            user = User.objects.filter(username=username, is_active=False).first()
            if (
                user is not None
                and user.last_login is None
                and password
                and user.check_password(password)
            ):
                raise forms.ValidationError(
                    "This account's email address is not confirmed yet: follow the link we "
                    f"mailed to {user.email} when you signed up.",
                    code="unconfirmed",
                ) from None
            raise


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, initial="script", help_text="What the token is for.")
