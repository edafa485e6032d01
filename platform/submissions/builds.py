"""What a version's build made, kept with the version, and the log its owner reads.

A version whose manifest has a ``build`` is built once, in its validation
(:func:`matches.bridge.check_bot`); :func:`keep_build` keeps the build's log and, if it
built, the built folder beside the version's archive in the data folder. Matches run
:func:`run_dir`: the built folder, or the version's own folder if it has no build (or its
artefact is not on this machine: then the runner builds it again, once per content). These few
functions are all the site knows of where builds are kept.
"""

import shutil
import uuid
from pathlib import Path

from core.files import public_dir
from django.conf import settings

from arena.runner.build import Build
from submissions.models import BotVersion


def artefact_dir(version: BotVersion) -> Path:
    """The folder of ``version``'s build: ``bot/`` (what it made) and ``build.log``."""
    return Path(settings.DATA_DIR) / "bots" / str(version.bot.uuid) / f"{version.uuid}.build"


def keep_build(version: BotVersion, build: Build) -> None:
    """Keep ``build``'s log and, if it built, its folder, as ``version``'s (replacing any)."""
    final = artefact_dir(version)
    staging = final.with_name(f".{final.name}.{uuid.uuid4().hex}")
    public_dir(final.parent)
    staging.mkdir(mode=0o755)
    try:
        (staging / "build.log").write_text(build.log, encoding="utf-8")
        if build.program is not None:
            shutil.copytree(build.program.directory, staging / "bot", symlinks=True)
        shutil.rmtree(final, ignore_errors=True)
        staging.rename(final)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def build_log(version: BotVersion) -> str | None:
    """The log of ``version``'s build (``None`` if it was never built)."""
    try:
        return (artefact_dir(version) / "build.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def run_dir(version: BotVersion) -> Path:
    """The folder a match runs ``version`` from: the built one if it has a build."""
    built = artefact_dir(version) / "bot"
    if version.manifest.get("build") and built.is_dir():
        return built
    return version.code_path()


def forget_build(version: BotVersion) -> None:
    """Remove what ``version``'s build made, keeping its log (a version that failed)."""
    shutil.rmtree(artefact_dir(version) / "bot", ignore_errors=True)
