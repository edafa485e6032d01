"""Forms of the accounts pages."""

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignupForm(UserCreationForm[User]):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, initial="script", help_text="What the token is for.")
