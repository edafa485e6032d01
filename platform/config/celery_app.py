"""The Celery app, configured from Django settings under the ``CELERY_`` namespace.

Run from ``platform/``::

    celery -A config worker -Q challenges,matches,maintenance   # match runner
    celery -A config worker -Q validation            # upload checks
    celery -A config beat                            # scheduler and sweeper
"""

import os
import sys
from pathlib import Path

from celery import Celery

# The site's apps are top-level modules of platform/, and the arena package lives beside it;
# `celery -A config` finds this module from platform/ but leaves neither on sys.path.
_PLATFORM = Path(__file__).resolve().parent.parent
for _path in (str(_PLATFORM.parent), str(_PLATFORM)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("nimmt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
