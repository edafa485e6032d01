"""Sign-up and personal API tokens (log-in and log-out are Django's own views)."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.forms import SignupForm, TokenForm
from accounts.models import ApiToken, User


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("my-bots")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Upload your first bot.")
        return redirect("new-bot")
    return render(request, "accounts/signup.html", {"form": form})


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
