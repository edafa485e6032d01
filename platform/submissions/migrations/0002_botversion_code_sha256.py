# ruff: noqa: RUF012  (a migration's lists, as makemigrations writes them)
"""Uploads are kept as archives in the arena's storage: each version's folder in the data
folder is packed into ``<its folder>.tar.gz`` there (the same storage when no object store is
set) and its SHA-256 recorded; the folder is removed once its archive is kept."""

import shutil
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import migrations, models


def pack_folders(apps: Any, schema_editor: Any) -> None:
    from core.storage import keep_folder

    versions = apps.get_model("submissions", "BotVersion")
    for version in versions.objects.filter(code_root="data", code_sha256="").exclude(code_dir=""):
        folder = Path(settings.DATA_DIR) / version.code_dir
        if not folder.is_dir():
            continue  # a failed version's files, removed when it failed
        name = f"{version.code_dir}.tar.gz"
        version.code_sha256 = keep_folder(folder, name)
        version.code_dir = name
        version.save(update_fields=["code_dir", "code_sha256"])
        shutil.rmtree(folder)


class Migration(migrations.Migration):
    dependencies = [("submissions", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="botversion",
            name="code_sha256",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.RunPython(pack_folders, migrations.RunPython.noop, elidable=True),
    ]
