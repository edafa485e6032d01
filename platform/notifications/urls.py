from django.urls import path

from notifications import views

urlpatterns = [
    path("", views.notifications, name="notifications"),
    path("test/", views.test, name="notifications-test"),
    path("secret/", views.new_webhook_secret, name="notifications-secret"),
]
