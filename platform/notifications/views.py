"""The account's notifications page: which events go by mail and which to the webhook, the
webhook's address and secret, "send a test", and the delivery log."""

from accounts.models import User
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from notifications import services, webhooks
from notifications.models import EVENTS, Channel, Delivery, new_secret
from notifications.tasks import send_test

#: Deliveries the log shows (newest first).
LOG_SIZE = 30


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    channel, _ = Channel.objects.get_or_create(user=user)
    status = 200
    if request.method == "POST":
        url = request.POST.get("webhook_url", "").strip()
        problem = ""
        if url:
            try:
                webhooks.check_url(url)
            except webhooks.WebhookRefused as refused:
                problem = str(refused)
        if len(url) > 500:
            problem = "The webhook's address is longer than 500 characters."
        if problem:
            messages.error(request, f"Not saved: {problem}")
            status = 400
        else:
            channel.webhook_url = url
            channel.save(update_fields=["webhook_url"])
            services.set_choices(
                channel,
                {
                    kind: {
                        "email": request.POST.get(f"{kind}:email") == "on",
                        "webhook": request.POST.get(f"{kind}:webhook") == "on",
                    }
                    for kind, _ in EVENTS
                },
            )
            messages.success(request, "Saved.")
            return redirect("notifications")
    deliveries = (
        Delivery.objects.filter(event__user=user)
        .select_related("event")
        .prefetch_related("log")[:LOG_SIZE]
    )
    rows = [
        {
            "kind": kind,
            "label": label,
            "email": channel.wants(kind, "email"),
            "webhook": channel.wants(kind, "webhook"),
        }
        for kind, label in EVENTS
        if kind != "test"
    ]
    return render(
        request,
        "notifications/notifications.html",
        {
            "channel": channel,
            "rows": rows,
            "deliveries": deliveries,
            "section": "notifications",
        },
        status=status,
    )


@login_required
@require_POST
def test(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    sent = send_test(user.pk)
    if sent:
        messages.success(request, "A test is on its way; the log below shows it.")
    else:
        messages.error(
            request, "Nowhere to send it: give your account an e-mail address or a webhook."
        )
    return redirect("notifications")


@login_required
@require_POST
def new_webhook_secret(request: HttpRequest) -> HttpResponse:
    channel, _ = Channel.objects.get_or_create(user=_user(request))
    channel.webhook_secret = new_secret()
    channel.save(update_fields=["webhook_secret"])
    messages.success(request, "A new secret: deliveries are signed with it from now on.")
    return redirect("notifications")
