#!/usr/bin/env python3
"""Django's command-line utility for the Nimmt Arena site.

This folder is the Django project: its apps (``config``, ``core``, ``accounts``, ``submissions``,
``matches``, ``ladders``, ``api``) are top-level modules here, never a package named ``platform``
(that would shadow the standard library). Running this file puts the folder on ``sys.path``.
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def main() -> None:
    for path in (str(REPO), str(HERE)):  # the arena package, then the site's apps
        if path not in sys.path:
            sys.path.insert(0, path)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
