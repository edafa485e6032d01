"""Sign-up (rate-limited, with email confirmation when it is on), log-in (Django's view with
django-axes' lockout), and personal API tokens."""

import contextlib
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts import confirmation, throttle
from accounts.forms import LoginForm, SignupForm, TokenForm
from accounts.models import ApiToken, User


class LoginView(auth_views.LoginView):
    """Django's log-in with the site's form; its page is titled with the site's name (Django's
    view would put the host's name, as the sites framework sees it, in ``site_name``)."""

    form_class = LoginForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "site_name": settings.SITE_NAME}


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("my-bots")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        try:
            refused = throttle.signup_refused(request)
        except throttle.Unavailable:
            refused = "Sign-up is unavailable for a moment; try again in a minute."
        if refused:
            form.add_error(None, refused)
            return render(request, "accounts/signup.html", {"form": form}, status=429)
        if form.is_valid():
            return _open_account(request, form)
    return render(request, "accounts/signup.html", {"form": form})


def _open_account(request: HttpRequest, form: SignupForm) -> HttpResponse:
    user = form.save(commit=False)
    user.is_active = not settings.EMAIL_CONFIRMATION
    user.save()
    with contextlib.suppress(throttle.Unavailable):  # the attempt was counted; the account is made
        throttle.count_signup(request)
    if settings.EMAIL_CONFIRMATION:
        confirmation.send_confirmation(request, user)
        return render(request, "accounts/confirm_sent.html", {"new_user": user})
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Welcome, {user.username}! Upload your first bot.")
    return redirect("new-bot")


def confirm_email(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    user = confirmation.confirm(uidb64, token)
    if user is None:
        return render(request, "accounts/confirm_failed.html", status=400)
    messages.success(request, f"Your email address is confirmed, {user.username}. Log in.")
    return redirect("login")


def locked_out(request: HttpRequest, response: Any, credentials: Any) -> HttpResponse:
    """django-axes' answer to a locked-out log-in: the log-in page in the site's layout."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {"failures": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    return render(request, "accounts/locked_out.html", context, status=429)


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    form = TokenForm(request.POST or None)
    context: dict[str, object] = {"form": form}
    if request.method == "POST" and form.is_valid():
        row, token = ApiToken.issue(request.user, form.cleaned_data["name"])
        # Rendered, not redirected: the token exists only in this response.
        context.update(new_row=row, new_token=token, form=TokenForm())
    context["tokens"] = ApiToken.objects.filter(user=request.user)
    response = render(request, "accounts/tokens.html", context)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_uuid: str) -> HttpResponse:
    token = get_object_or_404(ApiToken, uuid=token_uuid, user=request.user)
    token.revoke()
    messages.success(request, f"Token {token.name} revoked.")
    return redirect("tokens")
