"""What a bot's owner can do, shared by the web pages and the JSON API.

An upload is checked before anything is kept: it is unpacked into a staging folder by
:mod:`submissions.unpack` (which refuses paths out of the folder, links, bombs and a missing or
bad ``nimmt-bot.toml``, read by the runner's own manifest reader; a single file gets a manifest
written here and read by the same reader), and only then are the rows created and the folder
kept as an archive in the arena's storage (:mod:`core.storage`), in one transaction. A refused
upload leaves no row and no file behind; the uploader gets :class:`SubmissionError` with a
message saying why. The smoke match runs later, in the ``validation`` queue
(:mod:`submissions.tasks`).
"""

import hashlib
import json
import logging
import re
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

from accounts.models import User
from core import storage
from core.celery import enqueue
from core.files import public_dir
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from arena.runner.manifest import BotProgram
from submissions import signals, turns
from submissions import unpack as unpacking
from submissions.models import BOT_NAME_RULE, Bot, BotVersion
from submissions.tasks import validate_version

log = logging.getLogger(__name__)


class SubmissionError(Exception):
    """An upload or an owner's action the site refuses; the message is for the uploader."""


def check_version_change(bot: Bot | None, what: str) -> None:
    """Raise :class:`SubmissionError` if an app refuses the change
    (:data:`submissions.signals.version_change`: a season's freeze); ``bot`` ``None``: a new
    bot's first version."""
    try:
        signals.check_version_change(bot, what)
    except signals.ChangeRefused as refused:
        raise SubmissionError(str(refused)) from None


class NameRefused(SubmissionError):
    """The bot's name is refused (its form, or taken): the upload itself may be fine."""


@dataclass(frozen=True)
class StagedUpload:
    """An upload that unpacked cleanly, waiting in a staging folder to be kept."""

    code_dir: Path
    manifest: dict[str, Any]
    name: str
    size: int
    sha256: str


def staging_root() -> Path:
    """Where uploads are unpacked before they are kept (a folder of this machine's)."""
    return public_dir(Path(settings.DATA_DIR) / "tmp")


def safe_filename(name: str) -> str:
    """The upload's base name with only harmless characters (the suffix tells its format)."""
    base = Path(name.replace("\\", "/")).name
    # No leading '.' (a hidden file) or '-' (read as an option in the command written for it).
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "_", base).lstrip(".-")
    return cleaned[-100:] or "upload"


# A single uploaded file becomes a bot with this command (the file is the last word).
SINGLE_FILE_COMMANDS = {".py": ["python3"], ".js": ["node"], ".mjs": ["node"]}


@contextmanager
def staged(upload: UploadedFile[bytes], name: str = "") -> Iterator[StagedUpload]:
    """Unpack ``upload`` in a staging folder that is removed when the block ends.

    ``name`` is the bot's name, written into the manifest of a single-file upload.
    """
    filename = safe_filename(upload.name or "upload")
    if upload.size is not None and upload.size > settings.MAX_UPLOAD_BYTES:
        raise SubmissionError(
            f"The upload is {upload.size} bytes; the limit is {settings.MAX_UPLOAD_BYTES} bytes."
        )
    digest = hashlib.sha256()
    size = 0
    for chunk in upload.chunks():
        digest.update(chunk)
        size += len(chunk)
    if size == 0:
        raise SubmissionError("The upload is empty.")
    folder = staging_root() / f"upload-{uuid.uuid4().hex}"
    folder.mkdir()
    try:
        code_dir = folder / "code"
        limits = unpacking.Limits(
            max_upload_bytes=settings.MAX_UPLOAD_BYTES,
            max_total_bytes=settings.UNPACK_MAX_BYTES,
            max_files=settings.UNPACK_MAX_FILES,
            max_file_bytes=settings.UNPACK_MAX_BYTES,
        )
        try:
            unpacked = unpacking.unpack(cast(BinaryIO, upload), code_dir, limits, filename=filename)
            manifest = unpacked.manifest
            if manifest is None:
                _write_single_file_manifest(code_dir, unpacked.files[0], name)
                manifest = unpacking.check_manifest(code_dir)
        except unpacking.UnpackError as error:
            raise SubmissionError(str(error)) from None
        yield StagedUpload(code_dir, manifest_data(manifest), filename, size, digest.hexdigest())
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def manifest_data(program: BotProgram) -> dict[str, Any]:
    """The manifest as the version row keeps it (JSON; empty optional keys left out).

    >>> manifest_data(BotProgram("b", ("python3", "bot.py"), Path("."), language="python"))
    {'name': 'b', 'command': ['python3', 'bot.py'], 'language': 'python'}
    """
    data: dict[str, Any] = {"name": program.name, "command": list(program.command)}
    if program.language:
        data["language"] = program.language
    if program.description:
        data["description"] = program.description
    if program.build:
        data["build"] = list(program.build)
    return data


def _write_single_file_manifest(code_dir: Path, filename: str, name: str) -> None:
    """Write the manifest of a single uploaded file (the caller reads it back to check it)."""
    suffix = Path(filename).suffix.lower()
    if suffix not in SINGLE_FILE_COMMANDS:
        raise SubmissionError(
            f"A single file must be a Python (.py) or JavaScript (.js) program, not {filename!r}; "
            "for anything else upload a .zip or .tar.gz with a nimmt-bot.toml."
        )
    stem = re.sub(r"[^A-Za-z0-9_.-]", "-", Path(filename).stem)[:40].strip("-._")
    command = [*SINGLE_FILE_COMMANDS[suffix], filename]
    text = f"name = {json.dumps(name or stem or 'bot')}\ncommand = {json.dumps(command)}\n"
    (code_dir / unpacking.MANIFEST_NAME).write_text(text, encoding="utf-8")
    (code_dir / unpacking.MANIFEST_NAME).chmod(0o644)


def check_bot_name(name: str) -> str:
    name = name.strip()
    try:
        BOT_NAME_RULE(name)
    except ValidationError as error:
        raise NameRefused(" ".join(error.messages)) from None
    return name


def check_name_free(name: str) -> None:
    """Refuse a name another bot has (names are compared ignoring case)."""
    if Bot.objects.filter(name__iexact=name).exists():
        raise NameRefused(f"The name {name!r} is taken; choose another.")


def create_bot(
    owner: User, name: str, upload: UploadedFile[bytes], *, activate: bool = True
) -> BotVersion:
    """A new bot with ``upload`` as its version 1 (pending validation).

    ``name`` may be empty: the manifest's name is taken then.
    """
    name = name.strip()
    if name:
        name = check_bot_name(name)
    check_version_change(None, "upload")
    with staged(upload, name) as stage:
        if not name:
            try:
                name = check_bot_name(str(stage.manifest.get("name", "")))
                check_name_free(name)
            except NameRefused as refusal:
                raise NameRefused(f"{refusal} (from nimmt-bot.toml; give a name here)") from None
        check_name_free(name)

        def new_bot() -> Bot:
            return Bot.objects.create(owner=owner, name=name)

        try:
            return _keep(stage, owner.pk, new_bot, activate)
        except IntegrityError:  # somebody took the name in the meantime
            raise NameRefused(f"The name {name!r} is taken; choose another.") from None


def add_version(bot: Bot, upload: UploadedFile[bytes], *, activate: bool = True) -> BotVersion:
    """A new version of ``bot`` from ``upload`` (pending validation)."""
    if bot.is_retired:
        raise SubmissionError(f"{bot.name} is retired; it takes no new versions.")
    check_version_change(bot, "upload")

    def locked_bot() -> Bot:
        return Bot.objects.select_for_update().get(pk=bot.pk)  # numbers versions one at a time

    with staged(upload, bot.name) as stage:
        return _keep(stage, bot.owner_id, locked_bot, activate)


def _keep(
    stage: StagedUpload, owner_id: int, get_bot: Callable[[], Bot], activate: bool
) -> BotVersion:
    """Create the version row and keep its archive in the arena's storage, both or neither.

    Call it outside any transaction: the archive is deleted if this one does not commit.
    """
    kept: list[str] = []
    try:
        with transaction.atomic():
            turns.hold_owner(owner_id)  # first: the owner's uploads decide their turns in order
            bot = get_bot()
            number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
            version = BotVersion(
                bot=bot,
                number=number,
                manifest=stage.manifest,
                upload_name=stage.name,
                upload_size=stage.size,
                upload_sha256=stage.sha256,
                activate_when_passed=activate,
                code_root=BotVersion.DATA,
            )
            version.code_dir = f"bots/{bot.uuid}/{version.uuid}{storage.ARCHIVE_SUFFIX}"
            version.code_sha256 = storage.keep_folder(stage.code_dir, version.code_dir)
            kept.append(version.code_dir)
            version.status = turns.first_status(owner_id)  # a fair share of the checks
            version.save()
            if version.status == BotVersion.PENDING:
                enqueue(validate_version, version_pk=version.pk)
        return version
    except storage.StorageError as error:
        storage.delete_all(kept)
        log.error("could not keep an upload: %s", error)
        raise SubmissionError("The arena could not keep the upload just now; try again.") from None
    except BaseException:
        storage.delete_all(kept)
        raise


def set_active_version(bot: Bot, version: BotVersion) -> None:
    """Make ``version`` (which must have passed) the one that plays; lifts a pause."""
    if version.bot_id != bot.pk:
        raise SubmissionError("That version belongs to another bot.")
    if not version.passed:
        raise SubmissionError(f"Version {version.number} has not passed validation.")
    if bot.is_retired:
        raise SubmissionError(f"{bot.name} is retired.")
    check_version_change(bot, "activate")
    Bot.objects.filter(pk=bot.pk).update(active_version=version, paused_at=None, pause_reason="")


def retire(bot: Bot) -> None:
    """Stop ``bot`` for good: it plays no more matches and takes no new versions."""
    Bot.objects.filter(pk=bot.pk, retired_at__isnull=True).update(retired_at=timezone.now())


def resume(bot: Bot) -> None:
    """Lift a pause (the owner read the reason and fixed the bot, or wants to try again)."""
    Bot.objects.filter(pk=bot.pk).update(paused_at=None, pause_reason="")
