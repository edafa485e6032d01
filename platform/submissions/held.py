"""An upload kept for its uploader while they fix the rest of the form (a name that is taken,
say): a browser cannot fill a file field in again, so the form says which file it kept and
uses it when it comes back without one.

One held upload per user, in ``DATA_DIR/held/<user uuid>/<token>/``, replaced by the next one
and removed once used; a token names it in the form, and only its uploader can use it.
"""

import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from accounts.models import User
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile

from submissions.services import safe_filename

_TOKEN = re.compile(r"[0-9a-f]{32}")


@dataclass(frozen=True)
class HeldUpload:
    token: str
    filename: str
    size: int


def _folder(user: User) -> Path:
    return Path(settings.DATA_DIR) / "held" / user.uuid.hex


def hold(user: User, upload: UploadedFile[bytes]) -> HeldUpload | None:
    """Keep ``upload`` for ``user`` (none when it is over the upload limit: it cannot be used)."""
    if upload.size is None or upload.size > settings.MAX_UPLOAD_BYTES:
        return None
    folder = _folder(user)
    shutil.rmtree(folder, ignore_errors=True)
    token = secrets.token_hex(16)
    path = folder / token / safe_filename(upload.name or "upload")
    path.parent.mkdir(parents=True)
    with path.open("wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)
    return HeldUpload(token, path.name, path.stat().st_size)


def find(user: User, token: str) -> HeldUpload | None:
    """The upload ``user`` holds under ``token``, if any."""
    if not _TOKEN.fullmatch(token):
        return None
    files = list((_folder(user) / token).glob("*"))
    if len(files) != 1:
        return None
    return HeldUpload(token, files[0].name, files[0].stat().st_size)


def take(user: User, token: str) -> SimpleUploadedFile | None:
    """The held upload as an uploaded file, no longer held."""
    held = find(user, token)
    if held is None:
        return None
    path = _folder(user) / token / held.filename
    upload = SimpleUploadedFile(held.filename, path.read_bytes())
    shutil.rmtree(_folder(user), ignore_errors=True)
    return upload
