from django.urls import path

from challenges import views

urlpatterns = [
    path("", views.challenge_list, name="challenge-list"),
    path("new/", views.new_challenge, name="new-challenge"),
    path("<uuid:challenge_uuid>/", views.challenge, name="challenge"),
    path("bots/<uuid:bot_uuid>/", views.accept_challenges, name="bot-accepts-challenges"),
]
