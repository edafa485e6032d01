from django.urls import path

from api import organising, views

urlpatterns = [
    path("", views.index, name="api-index"),
    path("openapi.json", views.openapi_document, name="api-openapi"),
    path("ladders/", views.ladders, name="api-ladders"),
    path("ladders/<uuid:ladder_uuid>/", views.ladder, name="api-ladder"),
    path("ladders/<uuid:ladder_uuid>/standings/", views.ladder_standings, name="api-standings"),
    path("bots/", views.bots, name="api-bots"),
    path("bots/<uuid:bot_uuid>/", views.bot, name="api-bot"),
    path("bots/<uuid:bot_uuid>/versions/", views.bot_versions, name="api-bot-versions"),
    path("bots/<uuid:bot_uuid>/activate/", views.bot_activate, name="api-bot-activate"),
    path("bots/<uuid:bot_uuid>/retire/", views.bot_retire, name="api-bot-retire"),
    path("bots/<uuid:bot_uuid>/resume/", views.bot_resume, name="api-bot-resume"),
    path("bots/<uuid:bot_uuid>/remote-token/", views.bot_remote_token, name="api-remote-token"),
    path("bots/<uuid:bot_uuid>/vs/<uuid:other_uuid>/", organising.matchup, name="api-matchup"),
    path("bots/<uuid:bot_uuid>/challenges/", organising.bot_challenges, name="api-bot-challenges"),
    path("versions/<uuid:version_uuid>/", views.version, name="api-version"),
    path("dataset/", views.dataset, name="api-dataset"),
    path("matches/", views.matches, name="api-matches"),
    path("matches/<uuid:match_uuid>/", views.match, name="api-match"),
    path(
        "matches/<uuid:match_uuid>/replays/<int:game>/",
        views.match_replay,
        name="api-match-replay",
    ),
    path(
        "matches/<uuid:match_uuid>/replays/<int:game>/frames/",
        views.match_frames,
        name="api-match-frames",
    ),
    path("notifications/", organising.notifications, name="api-notifications"),
    path("notifications/test/", organising.notifications_test, name="api-notifications-test"),
    path(
        "notifications/deliveries/",
        organising.notification_deliveries,
        name="api-notification-deliveries",
    ),
    path("seasons/", organising.seasons, name="api-seasons"),
    path("seasons/<uuid:season_uuid>/", organising.season, name="api-season"),
    path("challenges/", organising.challenges, name="api-challenges"),
    path("challenges/<uuid:challenge_uuid>/", organising.challenge, name="api-challenge"),
]
