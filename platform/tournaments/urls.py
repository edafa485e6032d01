from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.tournament_list, name="tournament-list"),
    path("new/", views.new_tournament, name="tournament-new"),
    path("<uuid:tournament_uuid>/", views.tournament, name="tournament"),
    path("<uuid:tournament_uuid>/live/", views.live, name="tournament-live"),
    path("<uuid:tournament_uuid>/start/", views.start, name="tournament-start"),
    path("<uuid:tournament_uuid>/cancel/", views.cancel, name="tournament-cancel"),
]
