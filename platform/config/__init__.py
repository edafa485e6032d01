"""The Django project: settings, URLs, WSGI entry point and the Celery app.

Importing the package loads the Celery app, so that ``shared_task`` functions and
``transaction.on_commit`` enqueues in the web process use the configured broker.
"""

from .celery_app import app as celery_app

__all__ = ["celery_app"]
