"""The pure platform modules are imported as the Django site will import its apps: with the
Django project folder ``platform/`` on ``sys.path`` (it is not a package: ``import platform`` is
the standard library's)."""

import sys
from pathlib import Path

PLATFORM_DIR = Path(__file__).resolve().parents[2] / "platform"
if str(PLATFORM_DIR) not in sys.path:
    sys.path.append(str(PLATFORM_DIR))
