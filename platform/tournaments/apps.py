from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Connects the receiver of the match pipeline's match_ended (in every process: site,
        # workers, tests), which imports the models and so cannot come at the top.
        from tournaments import tasks  # noqa: F401
