"""The arena's kept files (bot archives, replays, logs) through Django's storage API.

:func:`arena_storage` is the storage ``"arena"`` of ``settings.STORAGES``: the data folder
(:class:`DataFolderStorage`) by default, an S3-compatible object store
(:class:`WriteOnceS3Storage`, django-storages with boto3) when ``NIMMT_S3_BUCKET`` is set. So
the site and any number of worker machines share the files through that storage only.

* Everything is written once: :func:`save_new` refuses a name that exists (the object store
  checks it on the server, with a conditional ``PUT``), and callers choose names that another
  attempt at the same work cannot choose (a match's files carry its claim's token).
* A folder (a bot's code, a build) is kept as one archive packed the same way every time
  (:func:`pack`), so its SHA-256 is a name for its content. :func:`local_tree` gives the folder
  on this machine: unpacked once into the local cache (``settings.CACHE_DIR``) under that hash,
  checked against it, and shared by every match that needs it.

Problems of the storage itself (unreachable, refused, a file that does not match its hash)
raise :class:`StorageError`; a missing file raises :class:`FileNotFoundError`.
"""

import gzip
import hashlib
import io
import logging
import os
import shutil
import stat
import tarfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import timedelta
from pathlib import Path, PurePosixPath
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings
from django.core.files.base import ContentFile, File
from django.core.files.storage import FileSystemStorage, Storage, storages
from storages.backends.s3 import S3Storage  # type: ignore[import-untyped]
from storages.utils import clean_name  # type: ignore[import-untyped]

from arena.sandbox import trees
from core.files import public_dir

log = logging.getLogger(__name__)

ARCHIVE_SUFFIX = ".tar.gz"
MIB = 1024 * 1024
#: The most content a kept folder may hold (a build's output is capped at 1 GB).
MAX_TREE_BYTES = 1024 * MIB
CACHE_UNUSED_LIMIT = timedelta(days=2)  # an unpacked archive no match used for this long goes


class StorageError(Exception):
    """The arena's storage failed (not the bots' fault); the message says what and where."""


class DataFolderStorage(FileSystemStorage):
    """The data folder, ``settings.DATA_DIR``, read when used (a test may point it elsewhere)."""

    @property
    def base_location(self) -> str:
        return str(settings.DATA_DIR)

    @property
    def location(self) -> str:
        return os.path.abspath(self.base_location)


class WriteOnceS3Storage(S3Storage):  # type: ignore[misc]
    """S3Storage whose writes never replace an object: a ``PUT`` with ``If-None-Match: *``,
    which the server refuses (412) when the key exists, even when two writers race."""

    def get_available_name(self, name: str, max_length: int | None = None) -> str:
        return str(clean_name(name))  # the conditional PUT is the check; no HEAD before it

    def _save(self, name: str, content: File[bytes]) -> str:
        key = self._normalize_name(clean_name(name))
        if hasattr(content, "seek"):
            content.seek(0)
        body = content.read()
        params: dict[str, Any] = {"ContentType": "application/octet-stream"}
        params.update(self.get_object_parameters(key))
        try:
            self.connection.meta.client.put_object(
                Bucket=self.bucket_name, Key=key, Body=body, IfNoneMatch="*", **params
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("PreconditionFailed", "412"):
                raise FileExistsError(f"{name} exists already") from None
            raise
        return str(clean_name(name))


def arena_storage() -> Storage:
    return storages["arena"]


def safe_name(name: str) -> bool:
    """Whether ``name`` is a relative name that stays inside its folder (no ``..``, no
    leading ``/``, no empty or backslash parts).

    >>> [safe_name(n) for n in ("logs/a#v2.log", "../x", "/etc/passwd", "a//b", "a\\\\b", "")]
    [True, False, False, False, False, False]
    """
    if not name or name.startswith("/") or "\\" in name or "\x00" in name:
        return False
    parts = name.split("/")
    return all(part not in ("", ".", "..") for part in parts)


@contextmanager
def _storage_errors(what: str) -> Iterator[None]:
    """Turn the storage's own errors into :class:`StorageError` (a missing file stays a
    :class:`FileNotFoundError`, an existing one a :class:`FileExistsError`)."""
    try:
        yield
    except (FileNotFoundError, FileExistsError):
        raise
    except ClientError as error:
        if error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") == 404:
            raise FileNotFoundError(what) from None
        raise StorageError(f"{what}: {error}") from None
    except (BotoCoreError, OSError) as error:
        raise StorageError(f"{what}: {error}") from None


def save_new(name: str, content: bytes) -> None:
    """Write ``content`` as ``name``; :class:`FileExistsError` if ``name`` is taken."""
    storage = arena_storage()
    with _storage_errors(f"could not write {name}"):
        saved = storage.save(name, ContentFile(content))
        if saved != name:  # the filesystem storage chose another name: ``name`` was taken
            storage.delete(saved)
            raise FileExistsError(f"{name} exists already")


def read_bytes(name: str) -> bytes:
    with _storage_errors(f"could not read {name}"), arena_storage().open(name, "rb") as file:
        data: bytes = file.read()
        return data


def open_file(name: str) -> File[bytes]:
    """``name`` opened for reading (the caller closes it, e.g. a ``FileResponse``)."""
    with _storage_errors(f"could not read {name}"):
        file: File[bytes] = arena_storage().open(name, "rb")
        file.size  # noqa: B018 (a missing object is found now, not while streaming it)
        return file


def delete_all(names: list[str]) -> None:
    """Delete ``names`` (those that exist); errors are logged, never raised: this is
    cleaning up after something that already went wrong, or a file nobody needs."""
    storage = arena_storage()
    for name in names:
        try:
            storage.delete(name)
        except Exception as error:
            log.warning("could not delete %s from the arena's storage: %s", name, error)


def save_folder(folder: Path, prefix: str) -> list[str]:
    """Write every file under ``folder`` as ``prefix/<its path in folder>``; the names
    written. Either all are written or none is left (a failure deletes the ones before).

    One after the other, on this thread's connection: writing them side by side from new
    threads cost each thread a new boto3 client, more than the round trips it saved
    (benchmarks/match_pipeline.py: 5.4 s instead of 0.34 s per match).
    """
    written: list[str] = []
    try:
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
            name = f"{prefix}/{path.relative_to(folder).as_posix()}"
            save_new(name, path.read_bytes())
            written.append(name)
    except BaseException:
        delete_all(written)
        raise
    return written


def files_in(name: str) -> list[tuple[str, int]]:
    """The files directly in the folder ``name``, with their sizes (none if no such folder)."""
    storage = arena_storage()
    with _storage_errors(f"could not list {name}"):
        try:
            _, files = storage.listdir(name)
        except FileNotFoundError:
            return []
        return [(file, storage.size(f"{name}/{file}")) for file in sorted(files)]


def delete_folder(name: str) -> int:
    """Delete every file under the folder ``name`` (and its folders); the number deleted.
    Nothing if there is no such folder."""
    storage = arena_storage()
    with _storage_errors(f"could not list {name}"):
        try:
            folders, files = storage.listdir(name)
        except FileNotFoundError:
            return 0
    deleted = sum(delete_folder(f"{name}/{folder}") for folder in folders)
    for file in files:
        with _storage_errors(f"could not delete {name}/{file}"):
            storage.delete(f"{name}/{file}")
        deleted += 1
    if isinstance(storage, FileSystemStorage):  # the object store has no empty folders
        with suppress(OSError):
            os.rmdir(storage.path(name))
    return deleted


def remove_other_attempts(parent: str, stem: str, keep: str) -> list[str]:
    """Delete the folders ``parent/<stem><attempt>`` of every attempt at one piece of work but
    the one named ``keep`` (``""``: no attempt is kept); the folders deleted.

    Attempts name their folders ``<stem><claim token>`` (see :mod:`matches.results`), so an
    attempt that wrote its files and then died, or lost its claim, leaves a folder only
    this finds again."""
    if not stem or "/" in stem or not safe_name(parent):
        raise ValueError(f"not a folder and a stem: {parent!r}, {stem!r}")
    with _storage_errors(f"could not list {parent}"):
        try:
            folders, _ = arena_storage().listdir(parent)
        except FileNotFoundError:
            return []
    removed = []
    for folder in sorted(folders):
        name = f"{parent}/{folder}"
        if folder.startswith(stem) and name != keep:
            delete_folder(name)
            removed.append(name)
    return removed


# ---------------------------------------------------------------------------- folders as archives


def pack(folder: Path, most_bytes: int = MAX_TREE_BYTES) -> bytes:
    """``folder`` as a gzip-compressed tar, the same bytes for the same files every time
    (sorted names, no times, owners or other mode bits than a file's executable one).

    Only folders and regular files are packed (uploads never keep links: see
    :mod:`submissions.unpack`), at most :data:`~arena.sandbox.trees.MAX_DEPTH` levels deep,
    :data:`~arena.sandbox.trees.MAX_ENTRIES` entries and ``most_bytes`` of content, each file
    at its apparent size (a file with holes is packed whole): :class:`StorageError` before a
    byte is read otherwise.
    """
    found = _tree_entries(folder, most_bytes)
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, compresslevel=6) as compressed,
        tarfile.open(fileobj=compressed, mode="w", format=tarfile.PAX_FORMAT) as archive,
    ):
        for name, status in found:
            info = tarfile.TarInfo(name)
            info.mtime = 0
            if stat.S_ISDIR(status.st_mode):
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                archive.addfile(info)
                continue
            info.mode = 0o755 if status.st_mode & 0o100 else 0o644
            info.size = status.st_size
            with (folder / name).open("rb") as data:
                archive.addfile(info, data)
    return buffer.getvalue()


def _tree_entries(folder: Path, most_bytes: int) -> list[tuple[str, os.stat_result]]:
    """The entries of ``folder`` to pack, by name, within the caps of :func:`pack`."""
    found: list[tuple[str, os.stat_result]] = []
    total = 0
    for entry in trees.walk(folder):
        if entry.depth > trees.MAX_DEPTH:
            raise StorageError(f"{folder.name} is deeper than {trees.MAX_DEPTH} levels")
        if not (entry.is_dir or stat.S_ISREG(entry.info.st_mode)):
            raise StorageError(f"{entry.path} is neither a file nor a folder")
        found.append((entry.path, entry.info))
        total += entry.info.st_size if not entry.is_dir else 0
        if len(found) > trees.MAX_ENTRIES:
            raise StorageError(f"{folder.name} holds more than {trees.MAX_ENTRIES} entries")
        if total > most_bytes:
            raise StorageError(f"{folder.name} is larger than {most_bytes // MIB} MB")
    return sorted(found, key=lambda item: item[0])


def keep_folder(folder: Path, name: str) -> str:
    """Keep ``folder`` as the archive ``name`` (write-once); its SHA-256, which
    :func:`local_tree` needs to find it again."""
    if not name.endswith(ARCHIVE_SUFFIX):
        raise ValueError(f"an archive's name ends with {ARCHIVE_SUFFIX}: {name!r}")
    data = pack(folder)
    save_new(name, data)
    return hashlib.sha256(data).hexdigest()


def cache_root() -> Path:
    """This machine's cache of unpacked archives (searchable by the bots' uids: 0755)."""
    return public_dir(Path(settings.CACHE_DIR) / "trees")


def local_tree(name: str, sha256: str) -> Path:
    """The folder packed as the archive ``name`` whose SHA-256 is ``sha256``, on this machine.

    Unpacked once per content into the cache and used from there; the download is checked
    against ``sha256`` first (:class:`StorageError` if it differs: a changed or broken
    object is never run). Safe to call from many processes at once: each unpacks aside and
    renames, and the first rename wins.
    """
    if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
        raise StorageError(f"{name}: {sha256!r} is not a SHA-256")
    root = cache_root()
    folder = root / sha256
    if folder.is_dir():
        _touch(folder)
        return folder
    try:
        data = read_bytes(name)
    except FileNotFoundError:
        raise StorageError(f"{name} is missing from the arena's storage") from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise StorageError(f"{name} does not match its SHA-256 {sha256}: refusing it")
    aside = root / f".unpacking-{uuid.uuid4().hex}"
    try:
        aside.mkdir(mode=0o755)
        aside.chmod(0o755)
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            _check_members(name, archive)
            archive.extractall(aside, filter="data")
        for entry in trees.walk(aside):  # the data filter keeps the modes; make them plain
            plain = 0o755 if entry.is_dir or entry.info.st_mode & 0o100 else 0o644
            os.chmod(entry.name, plain, dir_fd=entry.parent_fd)
        try:
            aside.rename(folder)
        except OSError:
            if not folder.is_dir():
                raise
            # Another process unpacked the same content first; use its copy.
        else:
            prune_cache()
    except (OSError, tarfile.TarError) as error:
        raise StorageError(f"could not unpack {name}: {error}") from None
    finally:
        shutil.rmtree(aside, ignore_errors=True)
    return folder


def _check_members(name: str, archive: tarfile.TarFile, most_bytes: int = MAX_TREE_BYTES) -> None:
    """Refuse an archive that would unpack to more than :func:`pack` packs (the sizes its
    headers announce, which is what extracting it writes), or to anything but plain files and
    folders inside the target."""
    total = 0
    for entries, member in enumerate(archive, 1):
        if not (member.isfile() or member.isdir()) or not safe_name(member.name):
            raise StorageError(f"{name}: {member.name!r} is not a plain file or folder")
        total += member.size
        if member.name.count("/") >= trees.MAX_DEPTH or entries > trees.MAX_ENTRIES:
            raise StorageError(f"{name}: it unpacks deeper or into more entries than allowed")
        if total > most_bytes:
            raise StorageError(f"{name}: it unpacks to more than {most_bytes // MIB} MB")


def _touch(folder: Path) -> None:
    """Mark a cache entry as used now (its modification time is when it was last used)."""
    with suppress(OSError):
        os.utime(folder)


def prune_cache(unused_for: timedelta = CACHE_UNUSED_LIMIT) -> int:
    """Remove the cache entries no match used for ``unused_for`` (far longer than a task
    may run, so none is in use); the number removed. Every machine prunes its own cache
    whenever it adds an entry."""
    limit = time.time() - unused_for.total_seconds()
    removed = 0
    for entry in cache_root().iterdir():
        with suppress(FileNotFoundError):
            if entry.lstat().st_mtime < limit:
                shutil.rmtree(entry, ignore_errors=True)
                removed += 1
    return removed


def tree_name(prefix: str, *parts: str) -> str:
    """An archive's name under ``prefix``: ``prefix/part/.../last.tar.gz``.

    >>> tree_name("bots", "b1", "v1")
    'bots/b1/v1.tar.gz'
    """
    return str(PurePosixPath(prefix, *parts)) + ARCHIVE_SUFFIX
