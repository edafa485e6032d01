from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    name = "submissions"
    verbose_name = "Bots"

    def ready(self) -> None:
        from core import metrics

        from submissions.models import BotVersion

        metrics.count_waiting(
            "nimmt_versions",
            "Uploaded versions waiting for validation or in it.",
            BotVersion,
            (BotVersion.PENDING, BotVersion.VALIDATING),
        )
