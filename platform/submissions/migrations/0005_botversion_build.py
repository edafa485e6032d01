# ruff: noqa: RUF012  (a migration's lists, as makemigrations writes them)
"""A version's build is kept in the arena's storage, like its code: each build kept in the
data folder (``bots/<bot>/<version>.build/``: ``build.log`` and the built ``bot/``) is written
to ``bots/<bot>/<version>.build-migrated/`` there (the log, and the built folder as one
archive whose SHA-256 is recorded); the folder is removed once it is kept."""

import shutil
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import migrations, models


def keep_builds(apps: Any, schema_editor: Any) -> None:
    from core.storage import StorageError, keep_folder, save_new

    versions = apps.get_model("submissions", "BotVersion")
    for version in versions.objects.filter(build_dir="").select_related("bot"):
        local = Path(settings.DATA_DIR) / "bots" / str(version.bot.uuid) / f"{version.uuid}.build"
        if not (local / "build.log").is_file():
            continue
        folder = f"bots/{version.bot.uuid}/{version.uuid}.build-migrated"
        save_new(f"{folder}/build.log", (local / "build.log").read_bytes())
        if (local / "bot").is_dir() and version.status == "passed":
            try:
                version.build_sha256 = keep_folder(local / "bot", f"{folder}/bot.tar.gz")
            except StorageError:  # a link in what it built: the runner builds it again
                version.build_sha256 = ""
        version.build_dir = folder
        version.save(update_fields=["build_dir", "build_sha256"])
        shutil.rmtree(local)


class Migration(migrations.Migration):
    dependencies = [("submissions", "0004_alter_botversion_code_root")]

    operations = [
        migrations.AddField(
            model_name="botversion",
            name="build_dir",
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AddField(
            model_name="botversion",
            name="build_sha256",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.RunPython(keep_builds, migrations.RunPython.noop, elidable=True),
    ]
