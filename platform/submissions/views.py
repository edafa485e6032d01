"""The bot pages: my bots, a new bot, a bot (public; its owner also manages it there), a version.

Changing a bot is for its owner only: everyone else gets 403, whatever the page.
"""

from accounts.models import User
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import resolve
from django.utils.datastructures import MultiValueDict
from django.views.decorators.http import require_POST
from ladders.models import ELO, Rating, ladder_map
from ladders.services import head_to_head, rating_histories
from matches.models import Seat
from matches.views import with_lineups
from remote import views as remote_views
from versiontests import services as version_tests
from versiontests.models import PairedMatch
from versiontests.tasks import ask_for_test

from submissions import services, turns
from submissions.forms import ActivateForm, NewBotForm, UploadForm
from submissions.models import Bot, BotVersion


def _owned_bot(request: HttpRequest, bot_uuid: str) -> Bot:
    bot = get_object_or_404(Bot, uuid=bot_uuid)
    if bot.owner_id != request.user.pk:
        raise PermissionDenied("Only the bot's owner can change it.")
    return bot


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    bots = Bot.objects.filter(owner_id=request.user.pk).select_related("active_version")
    return render(request, "submissions/my_bots.html", {"bots": bots})


@login_required
def new_bot(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    form = NewBotForm(request.user, request.POST or None, request.FILES or None)
    if request.method == "POST":
        if not form.is_valid():
            if "file" not in form.errors:
                form.keep_file()  # the name was refused, the file may be fine
        else:
            upload = form.upload()
            try:
                version = services.create_bot(request.user, form.cleaned_data["name"], upload)
            except services.NameRefused as error:
                form.add_error("name", str(error))
                form.keep_file(upload)
            except services.SubmissionError as error:
                form.add_error("file", str(error))
            else:
                messages.success(
                    request, "Uploaded. The arena is checking it; this page shows how."
                )
                return redirect(version.bot)
    return render(request, "submissions/new_bot.html", {"form": form}, status=_status(form))


def form_too_large(request: HttpRequest, message: str) -> HttpResponse:
    """An upload page again with ``message`` under the file field: its request's text fields
    were too large for Django to read (:mod:`config.errors` calls this; nothing was done)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    assert isinstance(request.user, User)
    match = resolve(request.path_info)
    form: NewBotForm | UploadForm
    if match.url_name == "new-bot":
        form = NewBotForm(request.user, {}, MultiValueDict())
        template, context = "submissions/new_bot.html", {}
    else:
        bot = _owned_bot(request, match.kwargs["bot_uuid"])
        form = UploadForm({}, MultiValueDict())
        template, context = "submissions/upload.html", {"bot": bot}
    form.full_clean()
    form.errors["file"] = form.error_class([message])
    return render(request, template, {**context, "form": form}, status=413)


def _status(form: NewBotForm | UploadForm) -> int:
    return 400 if form.is_bound and form.errors else 200


RECENT_GAMES = 20
RECENT_FAULTS = 10
_MATCH_COLUMNS = [
    f"match__{name}"
    for name in ("uuid", "created_at", "status", "ladder", "tournament", "round", "variant")
]


def bot(request: HttpRequest, bot_uuid: str) -> HttpResponse:
    """A bot's public page; its owner also sees every version's validation output, the pause
    reason, fault details and the logs of its matches, and manages the bot here."""
    bot = get_object_or_404(
        # The active version's manifest is read for its description; its log is not.
        Bot.objects.select_related("owner", "active_version").defer(
            "active_version__validation_log"
        ),
        uuid=bot_uuid,
    )
    is_owner = request.user.is_authenticated and bot.owner_id == request.user.pk
    ratings = list(Rating.objects.filter(bot=bot).select_related("ladder").order_by("ladder__name"))
    charts = rating_histories(ratings)  # Margin, the ladders' order
    elo_charts = rating_histories(ratings, "elo")
    histories = [
        {
            "rating": rating,
            "uncertainty": ELO.uncertainty(rating.elo_record()),
            "chart": charts[rating.pk],
            "elo_chart": elo_charts[rating.pk],
        }
        for rating in ratings
    ]
    # Only the columns the tables show: a match row carries its replay list and error text,
    # which this page does not need to read and decode 30 times.
    # Version tests' matches are unlisted. NOT EXISTS, not a LEFT JOIN: PostgreSQL then walks
    # the index seat_bot_recent newest first and stops at the page's rows; with the join it
    # read every seat of the bot and sorted them.
    unlisted = Exists(PairedMatch.objects.filter(match_id=OuterRef("match_id")))
    seats = list(
        Seat.objects.filter(~unlisted, bot=bot)
        .select_related("match")
        .only("seat", "score", "rank", "faults", "log_file", *_MATCH_COLUMNS)
        .order_by("-match_id")[:RECENT_GAMES]
    )
    ladders = ladder_map()
    with_lineups([seat.match for seat in seats], ladders)
    faults = list(
        Seat.objects.filter(~unlisted, bot=bot)
        .exclude(faults=[])  # the partial index seat_bot_faulted
        .select_related("match", "version")
        .only("seat", "faults", "match__uuid", "match__created_at", "version__number")
        .order_by("-match_id")[:RECENT_FAULTS]
    )
    if is_owner:
        versions = list(bot.versions.defer("manifest"))
    else:  # the validation output is the owner's
        versions = list(
            bot.versions.filter(status=BotVersion.PASSED).defer("validation_log", "manifest")
        )
    context = {
        "bot": bot,
        "is_owner": is_owner,
        "versions": versions,
        "histories": histories,
        "seats": seats,
        "faults": faults,
        "rivals": head_to_head(bot.pk, ladders=ladders),
        "upload_form": UploadForm(),
        "remote": remote_views.bot_panel(bot, is_owner),
    }
    response = render(request, "submissions/bot.html", context)
    if is_owner:
        response["Cache-Control"] = "private, no-store"
    return response


@login_required
def upload_version(request: HttpRequest, bot_uuid: str) -> HttpResponse:
    bot = _owned_bot(request, bot_uuid)
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        test = form.cleaned_data["test"]
        try:
            # A version under test is not made active: promotion stays the owner's choice.
            version = services.add_version(
                bot, form.cleaned_data["file"], activate=form.cleaned_data["activate"] and not test
            )
        except services.SubmissionError as error:
            form.add_error("file", str(error))
        else:
            messages.success(request, f"Version {version.number} uploaded; the arena checks it.")
            if test:
                _ask_for_test(request, version)
            return redirect(bot)
    return render(
        request, "submissions/upload.html", {"bot": bot, "form": form}, status=_status(form)
    )


def _ask_for_test(request: HttpRequest, version: BotVersion) -> None:
    """The test asked for at upload, with the default settings on the bot's main ladder."""
    assert isinstance(request.user, User)
    ladder = version_tests.default_ladder(version.bot)
    if ladder is None:
        messages.error(request, "No ladder is open: the version cannot be tested.")
        return
    try:
        ask_for_test(version, request.user, ladder)
    except version_tests.TestRefused as refused:
        messages.error(request, f"No test: {refused}")
    else:
        messages.success(request, "Its test against the active version starts once it passes.")


@login_required
@require_POST
def activate_version(request: HttpRequest, bot_uuid: str) -> HttpResponse:
    bot = _owned_bot(request, bot_uuid)
    form = ActivateForm(bot, request.POST)
    if not form.is_valid():
        messages.error(request, "Choose one of this bot's versions.")
        return redirect(bot)
    try:
        services.set_active_version(bot, form.cleaned_data["version"])
    except services.SubmissionError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Version {form.cleaned_data['version'].number} is active.")
    return redirect(bot)


@login_required
def retire_bot(request: HttpRequest, bot_uuid: str) -> HttpResponse:
    """Retire for good, once the owner said yes on the confirmation page (a GET shows it)."""
    bot = _owned_bot(request, bot_uuid)
    if bot.is_retired:
        return redirect(bot)
    if request.method != "POST" or request.POST.get("confirm") != "yes":
        context = {
            "title": f"Retire {bot.name}?",
            "question": f"Retire {bot.name} for good?",
            "consequence": "A retired bot plays no more matches and takes no new versions; "
            "its ratings and games stay listed.",
            "button": f"Yes, retire {bot.name}",
            "action": request.path,
            "back": bot.get_absolute_url(),
        }
        return render(request, "confirm.html", context)
    services.retire(bot)
    messages.success(request, f"{bot.name} is retired; it plays no more matches.")
    return redirect(bot)


@login_required
@require_POST
def resume_bot(request: HttpRequest, bot_uuid: str) -> HttpResponse:
    bot = _owned_bot(request, bot_uuid)
    services.resume(bot)
    messages.success(request, f"{bot.name} plays again.")
    return redirect(bot)


def version(request: HttpRequest, bot_uuid: str, version_uuid: str) -> HttpResponse:
    version = get_object_or_404(
        BotVersion.objects.select_related("bot", "bot__owner"),
        uuid=version_uuid,
        bot__uuid=bot_uuid,
    )
    is_owner = version.bot.owner_id == request.user.pk
    if not is_owner and not version.passed:
        raise PermissionDenied("Only the owner sees versions that did not pass.")
    return render(
        request,
        "submissions/version.html",
        {
            "version": version,
            "is_owner": is_owner,
            "ahead": turns.ahead(version),
            "per_owner": settings.VALIDATION_PER_OWNER,
        },
    )
