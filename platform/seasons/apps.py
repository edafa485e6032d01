from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = "Seasons"

    def ready(self) -> None:
        # Connects the receiver that refuses uploads to a frozen ladder's bots (in every
        # process), which imports the models and so cannot come at the top.
        from seasons import services  # noqa: F401
