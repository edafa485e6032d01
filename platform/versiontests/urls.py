from django.urls import path

from versiontests import views

urlpatterns = [
    path(
        "bots/<uuid:bot_uuid>/versions/<uuid:version_uuid>/test/",
        views.start_test,
        name="version-test",
    ),
]
