from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo league (``manage.py load_demo``): an app of its own, above every app whose data
    it loads, so that none of them, ``core`` least of all, imports the others for it."""

    name = "demo"
    verbose_name = "Demo data"
