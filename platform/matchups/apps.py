from django.apps import AppConfig


class MatchupsConfig(AppConfig):
    name = "matchups"
    verbose_name = "Matchups"

    def ready(self) -> None:
        # Connects the receiver of the match pipeline's match_ended (in every process: site,
        # workers, tests), which imports the models and so cannot come at the top.
        from matchups import tasks  # noqa: F401
