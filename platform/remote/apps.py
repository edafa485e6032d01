from django.apps import AppConfig


class RemoteConfig(AppConfig):
    name = "remote"
    verbose_name = "Remote bots"
