"""The tables' URLs (under ``play/``)."""

from django.urls import path

from tables import views

urlpatterns = [
    path("", views.play, name="play"),
    path("guest/", views.play_as_guest, name="play-guest"),
    path("ladders/<str:variant>/", views.people_ladder, name="people-ladder"),
    path("bots/<uuid:bot_uuid>/", views.bot_plays_people, name="bot-plays-people"),
    path("<uuid:table_uuid>/", views.table, name="table"),
    path("<uuid:table_uuid>/state/", views.table_state, name="table-state"),
    path("<uuid:table_uuid>/answer/", views.table_answer, name="table-answer"),
    path("<uuid:table_uuid>/resign/", views.table_resign, name="table-resign"),
]
