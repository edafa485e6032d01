from django.apps import AppConfig


class VersionTestsConfig(AppConfig):
    name = "versiontests"
    verbose_name = "Version tests"

    def ready(self) -> None:
        # Connects the receiver of the match pipeline's match_ended (in every process: site,
        # workers, tests), which imports the models and so cannot come at the top.
        from versiontests import tasks  # noqa: F401
