from django.urls import path

from api import views

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
]
