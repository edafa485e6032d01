from django.urls import path

from seasons import views

urlpatterns = [
    path("", views.season_list, name="season-list"),
    path("new/", views.new_season, name="new-season"),
    path("<uuid:season_uuid>/", views.season, name="season"),
]
