"""The match pages: the list (filters, pages by key), a match, a game's replay viewer, the
replay downloads, the viewer's frames, and each bot's log (for that bot's owner only).

What is private: a bot's log, the details of its faults (which can quote its output) and its
notes on its decisions (:mod:`matches.notes`) are shown to the bot's owner only. Everything else
of a match is public; the frames carry no fault detail at all, so they are the same for
everyone.
"""

import datetime as dt
import gzip
import hashlib
import json
import os
import tempfile
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from core import storage
from django import forms
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.files.base import File
from django.db.models import QuerySet
from django.db.models.functions import Lower
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from ladders.models import Ladder, ladder_map
from remote import reports as remote_reports
from submissions.models import Bot
from tournaments.models import Tournament

from arena.engine.errors import ReplayError
from arena.engine.frames import frames as engine_frames
from arena.engine.readings import CURRENT
from arena.engine.record import Extra, GameRecord
from arena.engine.replay import parse as parse_replay
from matches.listing import Listing
from matches.models import PRIVATE_DETAIL, Match, Seat
from matches.notes import owned_notes, replay_owners

LIST_PAGE_SIZE = 50


@dataclass(frozen=True, slots=True)
class LineupSeat:
    """A seat as list pages show it: the bot's name and id, and its rank."""

    name: str
    uuid: uuid.UUID
    rank: int | None


def with_lineups(
    matches: QuerySet[Match] | list[Match], ladders: dict[int, Ladder] | None = None
) -> list[Match]:
    """The matches, each with ``lineup`` (its seats in order, :class:`LineupSeat`) and its
    ladder or tournament, in a few small queries whatever the number of matches.

    Lists show 50 matches and 200 seats; plain tuples instead of model rows for the seats
    and one object per ladder or tournament instead of one per row keep that cheap.
    ``ladders`` (every ladder by id, :func:`ladders.models.ladder_map`) saves a query when
    the page has them already.
    """
    found = list(matches)
    lineups: dict[int, list[LineupSeat]] = {}
    seats = (
        Seat.objects.filter(match_id__in=[m.pk for m in found])
        .order_by("match_id", "seat")
        .values_list("match_id", "bot__name", "bot__uuid", "rank")
    )
    for match_id, name, bot_uuid, rank in seats:
        lineups.setdefault(match_id, []).append(LineupSeat(name, bot_uuid, rank))
    if ladders is None:
        ladders = Ladder.objects.in_bulk({m.ladder_id for m in found if m.ladder_id})
    tournament_ids = {m.tournament_id for m in found if m.tournament_id}
    tournaments = Tournament.objects.in_bulk(tournament_ids) if tournament_ids else {}
    for match in found:
        setattr(match, "lineup", lineups.get(match.pk, []))  # noqa: B010 (not a model field)
        if match.ladder_id is not None:
            match.ladder = ladders[match.ladder_id]
        if match.tournament_id is not None:
            match.tournament = tournaments[match.tournament_id]
    return found


def _viewer_is_owner(request: HttpRequest, seat: Seat) -> bool:
    """Whether the requester (by session, or by API token) owns the seat's bot."""
    user = getattr(request, "api_user", None) or request.user
    return bool(user.is_authenticated and seat.bot.owner_id == user.pk)


# ---------------------------------------------------------------------------- the list


class MatchFilter(forms.Form):
    ladder = forms.ModelChoiceField(
        Ladder.objects.all(), to_field_name="uuid", required=False, empty_label="every ladder"
    )
    bot = forms.CharField(max_length=40, required=False, label="Bot name")
    day = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    status = forms.ChoiceField(choices=[("", "any status"), *Match.STATUSES], required=False)

    def clean_bot(self) -> Bot | None:
        name = self.cleaned_data["bot"].strip()
        if not name:
            return None
        # Lower(name) is the unique index bot_name_unique_ignoring_case.
        bot = Bot.objects.annotate(lname=Lower("name")).filter(lname=name.lower()).first()
        if bot is None:
            raise forms.ValidationError(f"No bot is called {name!r}.")
        return bot


def open_match(request: HttpRequest, found: QuerySet[Match], **lookup: Any) -> Match:
    """The match of ``found`` that ``lookup`` names, if ``request``'s user (the API's: the
    token's) may open it (else 404): the matches of a version test are its owner's alone
    (:mod:`versiontests`). The user (and so the session) is read for those only, so that every
    other match's answer stays public."""
    match = get_object_or_404(found.select_related("version_test__test__candidate__bot"), **lookup)
    paired = match.version_test if hasattr(match, "version_test") else None
    if paired is not None:
        viewer = getattr(request, "api_user", None) or request.user  # the API's token first
        if paired.test.candidate.bot.owner_id != viewer.pk:
            raise Http404("No such match.")
    return match


def _filtered(form: MatchFilter) -> Listing:
    found = Match.objects.listed()
    data = form.cleaned_data
    if data.get("ladder"):
        found = found.filter(ladder=data["ladder"])
    if data.get("day"):
        start = dt.datetime.combine(data["day"], dt.time.min, tzinfo=dt.UTC)
        found = found.filter(created_at__gte=start, created_at__lt=start + dt.timedelta(days=1))
    if data.get("status"):
        found = found.filter(status=data["status"])
    return Listing(found, bot_id=data["bot"].pk if data.get("bot") else None)


def _anchor(value: str | None) -> tuple[dt.datetime, int] | None:
    if not value:
        return None
    try:
        key = uuid.UUID(value)
    except ValueError:
        return None
    return Match.objects.filter(uuid=key).values_list("created_at", "id").first()


def match_list(request: HttpRequest) -> HttpResponse:
    """Newest first, ``LIST_PAGE_SIZE`` a page; ``before``/``after`` (a match's id) page by
    key, so that a page deep in the list costs what the first one does."""
    form = MatchFilter(request.GET)
    listing = _filtered(form) if form.is_valid() else Listing(Match.objects.none())
    before = _anchor(request.GET.get("before"))
    after = None if before else _anchor(request.GET.get("after"))
    if before is not None:
        found = listing.before(*before, LIST_PAGE_SIZE)
    elif after is not None:
        found = listing.after(*after, LIST_PAGE_SIZE)
    else:
        found = listing.first(LIST_PAGE_SIZE)
    ladders = ladder_map()
    page = with_lineups(found.matches, ladders)
    params = request.GET.copy()
    for key in ("before", "after"):
        params.pop(key, None)
    base = params.urlencode()
    context: dict[str, Any] = {
        "form": form,
        # The filters are written out in the template: rendering the form's widgets took a
        # third of the page's time.
        "ladders": sorted(ladders.values(), key=lambda ladder: (ladder.variant, ladder.players)),
        "statuses": Match.STATUSES,
        "chosen": {key: request.GET.get(key, "") for key in ("ladder", "bot", "day", "status")},
        "matches": page,
        "older": f"?{base}&before={page[-1].uuid}" if page and found.has_older else None,
        "newer": f"?{base}&after={page[0].uuid}" if page and found.has_newer else None,
        "first": f"?{base}" if found.has_newer else None,
        "filtered": bool(base),
    }
    return render(request, "matches/match_list.html", context)


# ---------------------------------------------------------------------------- one match


def match(request: HttpRequest, match_uuid: str) -> HttpResponse:
    match = open_match(
        request, Match.objects.select_related("ladder", "tournament"), uuid=match_uuid
    )
    seats = list(match.seats.select_related("bot", "bot__owner", "version").order_by("seat"))
    changes = {c.rating.bot_id: c for c in match.rating_changes.select_related("rating").all()}
    seats.sort(key=lambda seat: (seat.rank is None, seat.rank or 0, seat.seat))  # best first
    network = remote_reports.for_match(match)  # remote seats: their round trip
    rows = [
        {
            "seat": seat,
            "is_owner": _viewer_is_owner(request, seat),
            "change": changes.get(seat.bot_id),
            "network": network.get(seat.seat),
        }
        for seat in seats
    ]
    games = [
        {
            "number": n,
            "viewer": reverse("match-game", args=[match.uuid, n]),
            "download": reverse("match-replay", args=[match.uuid, n]),
        }
        for n in range(1, len(match.replays) + 1)
    ]
    return render(
        request,
        "matches/match.html",
        {
            "match": match,
            "rows": rows,
            "games": games,
            "owns_a_seat": any(r["is_owner"] for r in rows),
        },
    )


def game(request: HttpRequest, match_uuid: str, game: int) -> HttpResponse:
    """The replay viewer of one game; the page's script draws it from the replay download. The
    page names the reading of the rules the game was played under (RULES.md 10)."""
    match = open_match(
        request,
        Match.objects.select_related("ladder", "tournament"),
        uuid=match_uuid,
        status=Match.FINISHED,
    )
    if not 1 <= game <= len(match.replays):
        raise Http404("No such game in this match.")
    data = _replay_data(match_file(match, match.replays[game - 1]))
    reading = None if data is None else data.reading
    notes = None if data is None else _owned_notes(request, match, game, data)
    response = render(
        request,
        "matches/game.html",
        {
            "match": match,
            "game": game,
            "games": range(1, len(match.replays) + 1),
            "replay_url": reverse("match-replay", args=[match.uuid, game]),
            "frames_url": reverse("match-frames", args=[match.uuid, game]),
            "reading": reading,
            "earlier_reading": reading is not None and reading is not CURRENT,
            # The requester's own bots' notes on their decisions (None for everyone else).
            "notes": notes,
        },
    )
    if notes is not None:
        response["Cache-Control"] = "private, no-store"  # the page holds the owner's notes
    return response


def _owned_notes(
    request: HttpRequest, match: Match, game: int, replay: GameRecord
) -> dict[str, Any] | None:
    """The notes of the game's seats whose bot the requester owns (:mod:`matches.notes`)."""
    user = getattr(request, "api_user", None) or request.user
    if not user.is_authenticated:
        return None
    seats = list(match.seats.select_related("bot", "version").order_by("seat"))
    if not any(seat.bot.owner_id == user.pk for seat in seats):
        return None
    owners = replay_owners(replay, seats, lambda seat: _viewer_is_owner(request, seat))
    return owned_notes(match, game, owners)


def _replay_data(name: str) -> GameRecord | None:
    """A stored replay, or ``None`` for a file the engine cannot read as a replay (the viewer's
    frames then say why). Its reading of the rules (:attr:`GameRecord.reading`) is its
    ``rules`` key; none: ``nimmt-rules/1``."""
    try:
        return parse_replay(_read(name), "the replay")
    except ReplayError:
        return None


def match_file(match: Match, name: str) -> str:
    """The name in the arena's storage of a file of a finished match; 404 unless ``name`` is
    a plain name inside the match's folder."""
    if not match.result_dir or not storage.safe_name(name):
        raise Http404("No such file.")
    return f"{match.result_dir}/{name}"


def _open(name: str) -> File[bytes]:
    try:
        return storage.open_file(name)
    except FileNotFoundError:
        raise Http404("No such file.") from None


def _read(name: str) -> bytes:
    try:
        return storage.read_bytes(name)
    except FileNotFoundError:
        raise Http404("No such file.") from None


def replay(request: HttpRequest, match_uuid: str, game: int) -> HttpResponseBase:
    """A game's ``nimmt-replay/1`` file. Fault details of seats the requester does not own
    are replaced (a crash's detail quotes the bot's log); everything else is as stored. The
    owner of a seat's bot gets the bot's notes on its decisions too (key ``notes``, see
    :mod:`matches.notes`), in a copy no cache keeps."""
    match = open_match(request, Match.objects.all(), uuid=match_uuid, status=Match.FINISHED)
    if not 1 <= game <= len(match.replays):
        raise Http404("No such game in this match.")
    name = match_file(match, match.replays[game - 1])
    filename = f"nimmt-{match.uuid}-game-{game}.json"
    user = getattr(request, "api_user", None) or request.user
    owner = user.is_authenticated and match.seats.filter(bot__owner_id=user.pk).exists()
    if not owner and not any(f for f in match.seats.values_list("faults", flat=True)):
        download = FileResponse(
            _open(name), as_attachment=True, filename=filename, content_type="application/json"
        )
        download["Cache-Control"] = "public, max-age=86400"  # a finished game never changes
        return download
    data = parse_replay(_read(name), filename)
    seats = list(match.seats.select_related("bot", "version").order_by("seat"))
    # Per replay seat: does the requester own its bot?
    owners = replay_owners(data, seats, lambda seat: _viewer_is_owner(request, seat))
    faults = tuple(
        fault
        if 0 <= fault.seat < len(owners) and owners[fault.seat]
        else replace(fault, detail=PRIVATE_DETAIL)
        for fault in data.result.faults
    )
    data = replace(data, result=replace(data.result, faults=faults))
    notes = owned_notes(match, game, owners) if owner else None
    if notes is not None:  # the owner's own copy: their bots' notes (docs/REPLAY.md)
        data = replace(data, extra=Extra({**data.extra, "notes": notes}))
    response = HttpResponse(data.to_text(), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def frames_file(replay: bytes, seat: int | None = None) -> Path:
    """The viewer's frames of a replay file (``nimmt-frames/1`` JSON, gzip-compressed: the
    60 KB of a professional game are 3 KB), computed by the engine once per replay content: kept
    in this machine's data folder (``DATA_DIR/frames/``) by the replay's SHA-256, so an edited
    replay gets new frames. With ``seat``, the game as that seat saw it (its own hand and cards
    only, :func:`arena.engine.frames.frames`), kept beside them. Raises :class:`ReplayError` if
    the replay does not verify or has no such seat.
    """
    digest = hashlib.sha256(replay).hexdigest()
    folder = Path(settings.DATA_DIR) / "frames" / digest[:2]
    path = folder / (f"{digest}.json.gz" if seat is None else f"{digest}-seat-{seat}.json.gz")
    if path.is_file():
        return path
    text = json.dumps(
        engine_frames(parse_replay(replay, "the replay"), seat=seat).to_json(),
        separators=(",", ":"),
    )
    folder.mkdir(parents=True, exist_ok=True)
    # Written aside and renamed: a reader never sees half a file, two writers one whole one.
    handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(gzip.compress(text.encode("utf-8"), mtime=0))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def frames(request: HttpRequest, match_uuid: str, game: int) -> HttpResponseBase:
    """A game's frames for the viewer: the board after every step, as the engine plays the
    replay (:mod:`arena.engine.frames`). Public: no fault detail is in them.

    ``?seat=S`` (0-based): the game as seat S saw it, S's hand at every step and no other
    seat's action cards. Computed here rather than hidden by the page's script, so that a
    browser showing a seat's view is never sent what that seat did not know."""
    match = open_match(request, Match.objects.all(), uuid=match_uuid, status=Match.FINISHED)
    if not 1 <= game <= len(match.replays):
        raise Http404("No such game in this match.")
    seat: int | None = None
    if "seat" in request.GET:
        text = request.GET["seat"]
        if not (text.isascii() and text.isdigit() and len(text) < 4 and int(text) < match.players):
            return JsonResponse(
                {"error": f"seat must be a seat number from 0 to {match.players - 1}"},
                status=400,
            )
        seat = int(text)
    try:
        path = frames_file(_read(match_file(match, match.replays[game - 1])), seat)
    except ReplayError as problem:
        return JsonResponse({"error": f"This replay has no frames: {problem}"}, status=422)
    response: HttpResponseBase
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = FileResponse(path.open("rb"), content_type="application/json")
        response["Content-Encoding"] = "gzip"
        del response["Content-Disposition"]  # FileResponse names the file; this is no download
    else:
        response = HttpResponse(gzip.decompress(path.read_bytes()), content_type="application/json")
    response["Vary"] = "Accept-Encoding"
    response["Cache-Control"] = "public, max-age=86400"  # a finished game never changes
    return response


def bot_log(request: HttpRequest, match_uuid: str, seat: int) -> FileResponse:
    """A bot's output in a match: for the bot's owner only (it may hold their secrets)."""
    match = open_match(request, Match.objects.all(), uuid=match_uuid, status=Match.FINISHED)
    row = get_object_or_404(match.seats.select_related("bot"), seat=seat)
    if not _viewer_is_owner(request, row):
        raise PermissionDenied("A bot's log is for its owner.")
    response = FileResponse(
        _open(match_file(match, row.log_file)), content_type="text/plain; charset=utf-8"
    )
    response["Cache-Control"] = "private, no-store"
    return response
