"""The starter bots as downloads: each ``bots/starter-<language>/`` folder of the repository,
kit included, as a zip a bot author unpacks, builds, checks and uploads.

A kit's zip holds the folder's own files only: what its ``.gitignore`` names (what its build
makes) and caches (``node_modules``, ``__pycache__``) are left out. It is made once per version
of the folder (the newest modification time of its files)."""

import fnmatch
import functools
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings


@dataclass(frozen=True)
class Kit:
    """A language's starter: its folder under ``bots/`` and a line on what it needs."""

    language: str
    title: str
    folder: str
    needs: str


KITS = {
    kit.language: kit
    for kit in (
        Kit("python", "Python", "starter-python", "Python 3.11+ and the project's bot kit"),
        Kit("javascript", "JavaScript", "starter-javascript", "Node.js 18+ and npm"),
        Kit("go", "Go", "starter-go", "Go 1.19+ and Debian's Go gRPC packages"),
        Kit("cpp", "C++", "starter-cpp", "g++, Debian's libgrpc++-dev and protobuf"),
        Kit("java", "Java", "starter-java", "Java 17 and Debian's grpc-java jars"),
    )
}
#: Never in a kit's zip, whatever its .gitignore says.
ALWAYS_LEFT_OUT = ("node_modules", "__pycache__", ".nimmt-build")


class UnknownKit(LookupError):
    pass


def folder_of(kit: Kit) -> Path:
    """The kit's folder: in the repository's ``bots/``, as the documents are in its ``docs/``."""
    return Path(settings.REPO_DIR) / "bots" / kit.folder


def available() -> list[Kit]:
    """The kits whose folder this installation has."""
    return [kit for kit in KITS.values() if (folder_of(kit) / "nimmt-bot.toml").is_file()]


def _ignored(folder: Path) -> list[str]:
    patterns = list(ALWAYS_LEFT_OUT)
    ignore = folder / ".gitignore"
    if ignore.is_file():
        for line in ignore.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith(("#", "!")):
                patterns.append(line.strip("/"))
    return patterns


def files_of(kit: Kit) -> list[Path]:
    """The kit's files, relative to its folder, in a stable order."""
    folder = folder_of(kit)
    patterns = _ignored(folder)
    found = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        parts = relative.parts
        left_out = any(
            fnmatch.fnmatch(part, pattern) or fnmatch.fnmatch(relative.as_posix(), pattern)
            for pattern in patterns
            for part in parts
        )
        if path.is_file() and not path.is_symlink() and not left_out:
            found.append(relative)
    return found


def zip_of(language: str) -> tuple[Kit, bytes]:
    """The kit of ``language`` as a zip (its files under ``<folder>/``); :class:`UnknownKit`
    if there is no such kit here."""
    kit = KITS.get(language)
    if kit is None or kit not in available():
        raise UnknownKit(language)
    files = tuple(files_of(kit))
    folder = folder_of(kit)
    newest = max(((folder / f).stat().st_mtime_ns for f in files), default=0)
    return kit, _zipped(kit, files, newest)


@functools.lru_cache(maxsize=8)
def _zipped(kit: Kit, files: tuple[Path, ...], _newest: int) -> bytes:
    folder = folder_of(kit)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for relative in files:
            source = folder / relative
            info = zipfile.ZipInfo(f"{kit.folder}/{relative.as_posix()}", (2026, 1, 1, 0, 0, 0))
            info.external_attr = (source.stat().st_mode & 0o777 | 0o100000) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, source.read_bytes())
    return buffer.getvalue()
