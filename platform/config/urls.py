"""URLs of the site: pages, the JSON API under ``api/v1/``, the admin for organisers; the error
pages are :mod:`config.errors`."""

from django.contrib import admin
from django.urls import include, path
from guide import views as guide_views
from ladders import views as ladder_views
from matches import analysis_views, dataset_views
from matches import views as match_views
from matches import watch as match_watch
from matchups import views as matchup_views
from remote import views as remote_views
from submissions import views as bot_views

urlpatterns = [
    path("", ladder_views.home, name="home"),
    path("ladders/<uuid:ladder_uuid>/", ladder_views.ladder, name="ladder"),
    path("bots/", bot_views.my_bots, name="my-bots"),
    path("bots/new/", bot_views.new_bot, name="new-bot"),
    path("bots/<uuid:bot_uuid>/", bot_views.bot, name="bot"),
    path("bots/<uuid:bot_uuid>/vs/<uuid:other_uuid>/", matchup_views.matchup, name="matchup"),
    path("bots/<uuid:bot_uuid>/upload/", bot_views.upload_version, name="upload-version"),
    path("bots/<uuid:bot_uuid>/activate/", bot_views.activate_version, name="activate-version"),
    path("bots/<uuid:bot_uuid>/retire/", bot_views.retire_bot, name="retire-bot"),
    path("bots/<uuid:bot_uuid>/resume/", bot_views.resume_bot, name="resume-bot"),
    path("bots/<uuid:bot_uuid>/remote/token/", remote_views.issue_token, name="remote-issue-token"),
    path("remote/gateway.crt", remote_views.gateway_certificate, name="remote-gateway-certificate"),
    path(
        "bots/<uuid:bot_uuid>/remote/revoke/", remote_views.revoke_token, name="remote-revoke-token"
    ),
    path(
        "bots/<uuid:bot_uuid>/versions/<uuid:version_uuid>/",
        bot_views.version,
        name="bot-version",
    ),
    path("", include("versiontests.urls")),
    path("matches/", match_views.match_list, name="match-list"),
    path("dataset/", dataset_views.dataset_page, name="dataset"),
    path("dataset/files/<path:path>", dataset_views.dataset_file, name="dataset-file"),
    path("matches/<uuid:match_uuid>/", match_views.match, name="match"),
    path("matches/<uuid:match_uuid>/games/<int:game>/", match_views.game, name="match-game"),
    path("matches/<uuid:match_uuid>/live/", match_watch.live, name="match-live"),
    path(
        "matches/<uuid:match_uuid>/live/events/", match_watch.live_events, name="match-live-events"
    ),
    path("matches/<uuid:match_uuid>/replays/<int:game>/", match_views.replay, name="match-replay"),
    path(
        "matches/<uuid:match_uuid>/replays/<int:game>/frames/",
        match_views.frames,
        name="match-frames",
    ),
    path("matches/<uuid:match_uuid>/logs/<int:seat>/", match_views.bot_log, name="match-log"),
    path(
        "matches/<uuid:match_uuid>/games/<int:game>/analysis/",
        analysis_views.request_analysis,
        name="match-analysis-request",
    ),
    path(
        "matches/<uuid:match_uuid>/games/<int:game>/analysis/<int:seat>/",
        analysis_views.analysis,
        name="match-analysis",
    ),
    path("tournaments/", include("tournaments.urls")),
    path("challenges/", include("challenges.urls")),
    path("seasons/", include("seasons.urls")),
    path("play/", include("tables.urls")),
    path("accounts/notifications/", include("notifications.urls")),
    path("accounts/", include("accounts.urls")),
    path("write-a-bot/", guide_views.write_a_bot, name="guide"),
    path("write-a-bot/kits/<slug:language>.zip", guide_views.kit, name="guide-kit"),
    path("write-a-bot/<slug:slug>/", guide_views.document, name="guide-document"),
    path("api/v1/", include("api.urls")),
    path("admin/", admin.site.urls),
]

admin.site.site_header = "Nimmt Arena organisers"
admin.site.site_title = "Nimmt Arena admin"

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
