"""WSGI entry point: ``gunicorn config.wsgi`` from ``platform/``."""

import os
import sys
from pathlib import Path

REPO = str(Path(__file__).resolve().parent.parent.parent)
if REPO not in sys.path:  # the arena package, when the project is not pip-installed
    sys.path.append(REPO)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
