"""An upload kept for its uploader while they fix the rest of the form (a name that is taken,
say): a browser cannot fill a file field in again, so the form says which file it kept and
uses it when it comes back without one.

One held upload per user, in the arena's storage as ``held/<user uuid>/<token>/<file>`` (so
any web machine finds it), replaced by the next one and removed once used; a token names it in
the form, and only its uploader can use it.
"""

import logging
import re
import secrets
from dataclasses import dataclass

from accounts.models import User
from core import storage
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile

from submissions.services import safe_filename

log = logging.getLogger(__name__)
_TOKEN = re.compile(r"[0-9a-f]{32}")


@dataclass(frozen=True)
class HeldUpload:
    token: str
    filename: str
    size: int


def _folder(user: User) -> str:
    return f"held/{user.uuid.hex}"


def hold(user: User, upload: UploadedFile[bytes]) -> HeldUpload | None:
    """Keep ``upload`` for ``user`` (none when it is over the upload limit: it cannot be used,
    or the storage cannot keep it now: the form then asks for the file again)."""
    if upload.size is None or upload.size > settings.MAX_UPLOAD_BYTES:
        return None
    token = secrets.token_hex(16)
    name = safe_filename(upload.name or "upload")
    data = b"".join(upload.chunks())
    try:
        storage.delete_folder(_folder(user))
        storage.save_new(f"{_folder(user)}/{token}/{name}", data)
    except storage.StorageError as error:
        log.warning("could not hold an upload of %s: %s", user, error)
        return None
    return HeldUpload(token, name, len(data))


def find(user: User, token: str) -> HeldUpload | None:
    """The upload ``user`` holds under ``token``, if any."""
    if not _TOKEN.fullmatch(token):
        return None
    try:
        files = storage.files_in(f"{_folder(user)}/{token}")
    except (FileNotFoundError, storage.StorageError):
        return None  # gone meanwhile, or the storage cannot tell now
    if len(files) != 1:
        return None
    return HeldUpload(token, *files[0])


def take(user: User, token: str) -> SimpleUploadedFile | None:
    """The held upload as an uploaded file, no longer held."""
    held = find(user, token)
    if held is None:
        return None
    try:
        data = storage.read_bytes(f"{_folder(user)}/{token}/{held.filename}")
        storage.delete_folder(_folder(user))
    except (FileNotFoundError, storage.StorageError):
        return None
    return SimpleUploadedFile(held.filename, data)
