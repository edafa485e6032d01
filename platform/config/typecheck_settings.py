"""Settings for tools that load the settings outside any deployment (mypy's Django plugin).

The demo defaults, so that no ``NIMMT_*`` variable is needed; never used to serve.
"""

import os

os.environ.setdefault("NIMMT_DEBUG", "true")

from config.settings import *  # noqa: F403
