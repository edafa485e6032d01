from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        from core import metrics

        from matches.models import Match

        metrics.count_waiting(
            "nimmt_matches",
            "Matches waiting for a worker or being played.",
            Match,
            (Match.QUEUED, Match.RUNNING),
        )
