"""Safe unpacking of an uploaded bot into a folder of its own.

An upload is a ``.zip``, a ``.tar.gz`` / ``.tgz`` (or plain ``.tar``), or any other single file
(``bot.py``, ``bot.js``, ...), which becomes the only file of the folder. An archive must carry a
manifest, ``nimmt-bot.toml``, at its top level or inside a single top-level folder (that folder
is then stripped)::

    name = "my-bot"
    command = ["python3", "bot.py"]     # run from the bot's folder
    language = "python"                 # optional
    description = "Takes the lowest row." # optional

The manifest is read by the runner's own reader (:mod:`arena.runner.manifest`, through
:func:`check_manifest`) in the unpacked folder, before it is moved into place: what the site
accepts is what the runner will run, and a refusal names ``nimmt-bot.toml``, never a path of
this machine. A single-file upload has no manifest; :attr:`UnpackedBot.manifest` is then
``None`` and the caller writes one and checks it with :func:`check_manifest`.

Nothing in the upload is trusted: every member name is checked (no absolute paths, no ``..``,
no NUL, backslash or control characters, no duplicates, bounded depth), only regular files and
folders are accepted (no symbolic or hard links, devices, FIFOs, encrypted zip members), the
declared sizes are checked against the limits *and* the bytes actually written are counted
while extracting, so a lying header cannot get past them. Extraction goes into a fresh
temporary folder beside the destination, which is moved into place only when everything
passed: on failure nothing is left behind. A refusal is an :class:`UnpackError` whose
``reason`` is a stable code and whose message names the offending member.

>>> import io, tempfile, zipfile
>>> upload = io.BytesIO()
>>> with zipfile.ZipFile(upload, "w") as z:
...     z.writestr("my-bot/nimmt-bot.toml", 'name = "my-bot"\\ncommand = ["python3", "bot.py"]\\n')
...     z.writestr("my-bot/bot.py", "print('hello')\\n")
>>> target = Path(tempfile.mkdtemp()) / "bot"
>>> bot = unpack(upload, target, filename="my-bot.zip")
>>> bot.files, bot.manifest.command, bot.stripped_folder
(('bot.py', 'nimmt-bot.toml'), ('python3', 'bot.py'), 'my-bot')
>>> (target / "bot.py").read_text()
"print('hello')\\n"
>>> shutil.rmtree(target.parent)
"""

from __future__ import annotations

import dataclasses
import gzip
import lzma
import os
import re
import shutil
import stat
import tarfile
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import IO, BinaryIO, Literal, Protocol, cast

from arena.runner import manifest as manifests
from arena.runner.manifest import BotProgram

__all__ = [
    "MANIFEST_NAME",
    "Limits",
    "Reason",
    "UnpackError",
    "UnpackedBot",
    "check_manifest",
    "unpack",
]

MANIFEST_NAME = manifests.MANIFEST
MAX_COMPONENT_BYTES = 255  # NAME_MAX of Linux file systems
MAX_PATH_BYTES = 1024
_CHUNK = 64 * 1024
_KiB = 1024
_MiB = 1024 * 1024
# Folders and files that macOS adds to archives; skipped (after every check) so that a zip made
# by Finder still has a single top-level folder.
_MACOS_FOLDER = "__MACOSX"
_MACOS_FILE = ".DS_Store"


class Reason(StrEnum):
    """Why an upload was refused: stable codes for the site (messages may change)."""

    UPLOAD_TOO_LARGE = "upload_too_large"
    UNPACKED_TOO_LARGE = "unpacked_too_large"
    FILE_TOO_LARGE = "file_too_large"
    TOO_MANY_FILES = "too_many_files"
    TOO_DEEP = "too_deep"
    ABSOLUTE_PATH = "absolute_path"
    PARENT_REFERENCE = "parent_reference"
    BAD_NAME = "bad_name"
    DUPLICATE_NAME = "duplicate_name"
    LINK = "link"
    SPECIAL_FILE = "special_file"
    ENCRYPTED = "encrypted"
    CORRUPT = "corrupt"
    EMPTY = "empty"
    NO_MANIFEST = "no_manifest"
    BAD_MANIFEST = "bad_manifest"


class UnpackError(ValueError):
    """An upload that cannot be accepted; ``str(error)`` is a message a bot author can act on.

    >>> error = UnpackError(Reason.LINK, "Archive member 'x' is a symbolic link.", member="x")
    >>> error.reason, error.member, str(error)
    (<Reason.LINK: 'link'>, 'x', "Archive member 'x' is a symbolic link.")
    """

    def __init__(self, reason: Reason, message: str, member: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.member = member


@dataclass(frozen=True)
class Limits:
    """What an upload may be (all sizes in bytes); the defaults suit the arena's bots.

    - ``max_upload_bytes`` (10 MiB): the uploaded file itself.
    - ``max_total_bytes`` (50 MiB): all files unpacked, added up.
    - ``max_files`` (500): entries in an archive, files and folders alike.
    - ``max_file_bytes`` (20 MiB): one unpacked file.
    - ``max_depth`` (16): components of a member's path (``a/b/c.py`` has 3).

    >>> Limits(max_files=0)
    Traceback (most recent call last):
    ...
    ValueError: Limits: max_files must be a positive int, not 0.
    """

    max_upload_bytes: int = 10 * _MiB
    max_total_bytes: int = 50 * _MiB
    max_files: int = 500
    max_file_bytes: int = 20 * _MiB
    max_depth: int = 16

    def __post_init__(self) -> None:
        for name in ("max_upload_bytes", "max_total_bytes", "max_files", "max_file_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Limits: {name} must be a positive int, not {value!r}.")
        if isinstance(self.max_depth, bool) or not isinstance(self.max_depth, int):
            raise ValueError(f"Limits: max_depth must be an int, not {self.max_depth!r}.")
        if self.max_depth < 2:  # a single top-level folder plus a file
            raise ValueError(f"Limits: max_depth must be >= 2, not {self.max_depth}.")


@dataclass(frozen=True)
class UnpackedBot:
    """What :func:`unpack` stored.

    ``files`` are the regular files, as sorted ``/``-separated paths relative to ``path``;
    ``kind`` is how the upload came (``"file"`` for a single file, which is then ``files[0]``);
    ``stripped_folder`` is the single top-level folder removed from an archive, if any.
    """

    path: Path
    kind: Literal["zip", "tar", "file"]
    files: tuple[str, ...]
    manifest: BotProgram | None
    stripped_folder: str | None = None


# --------------------------------------------------------------------------------------------
# The manifest
# --------------------------------------------------------------------------------------------


def check_manifest(folder: Path) -> BotProgram:
    """Read ``folder``'s manifest with the runner's own reader (:mod:`arena.runner.manifest`).

    A wrong manifest is an :class:`UnpackError` (``BAD_MANIFEST``) whose message names the
    manifest but never the folder, which is a path of this machine.
    """
    try:
        return manifests.load(folder)
    except manifests.ManifestError as error:
        raise UnpackError(
            Reason.BAD_MANIFEST, f"{MANIFEST_NAME}: {error.problem}", member=MANIFEST_NAME
        ) from None


# --------------------------------------------------------------------------------------------
# Extraction
# --------------------------------------------------------------------------------------------


def _size(n: int) -> str:
    """A byte count for people: '10 MiB', '1.5 KiB', '300 bytes'."""
    for unit, scale in (("MiB", _MiB), ("KiB", _KiB)):
        if n >= scale:
            return f"{n / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{n} bytes"


class _Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


class _BoundedReader:
    """Passes ``read`` through and raises once more than ``limit`` bytes came out.

    It sits between the gzip decompressor and the tar reader, so that what the tar reader sees
    (headers included, which it may hold in memory) is bounded whatever the archive claims.
    """

    def __init__(self, raw: _Readable, limit: int, message: str) -> None:
        self.raw = raw
        self.limit = limit
        self.message = message
        self.count = 0

    def read(self, size: int = -1) -> bytes:
        room = self.limit - self.count + 1  # one byte more than allowed: enough to detect it
        data = self.raw.read(room if size is None or size < 0 else min(size, room))
        self.count += len(data)
        if self.count > self.limit:
            raise UnpackError(Reason.UNPACKED_TOO_LARGE, self.message)
        return data


@dataclass
class _Tree:
    """The folder being filled, the names seen so far and the byte and entry budgets."""

    root: Path
    limits: Limits
    entries: int = 0
    total_bytes: int = 0  # written
    declared_bytes: int = 0  # announced by the headers of the files seen so far
    # path parts -> True for a folder, False for a file
    kinds: dict[tuple[str, ...], bool] = field(default_factory=dict)

    def count_entry(self, raw: str) -> None:
        self.entries += 1
        if self.entries > self.limits.max_files:
            raise UnpackError(
                Reason.TOO_MANY_FILES,
                f"The archive has more than {self.limits.max_files} entries (files and folders "
                f"count alike); archive member {raw!r} is one too many.",
                raw,
            )

    def parts(self, raw: str, what: str = "Archive member") -> tuple[str, ...]:
        """The checked components of a member name; ``()`` for the archive's root (``./``)."""

        def refuse(reason: Reason, why: str) -> UnpackError:
            return UnpackError(reason, f"{what} {raw!r} {why}", raw)

        if "\x00" in raw:
            raise refuse(Reason.BAD_NAME, "contains a NUL byte.")
        if "\\" in raw:
            raise refuse(Reason.BAD_NAME, "contains a backslash; paths must use '/'.")
        if any(ord(c) < 32 or ord(c) == 127 for c in raw):
            raise refuse(Reason.BAD_NAME, "contains a control character.")
        try:
            encoded = raw.encode("utf-8")
        except UnicodeEncodeError:
            raise refuse(Reason.BAD_NAME, "is not valid UTF-8.") from None
        if len(encoded) > MAX_PATH_BYTES:
            raise refuse(Reason.BAD_NAME, f"is longer than {MAX_PATH_BYTES} bytes.")
        if raw.startswith("/") or re.match(r"[A-Za-z]:/", raw):
            raise refuse(
                Reason.ABSOLUTE_PATH, "is an absolute path; paths must be relative to the bot."
            )
        # '' (from 'a//b' or a trailing '/') and '.' components mean nothing; drop them.
        parts = tuple(p for p in raw.split("/") if p not in ("", "."))
        if ".." in parts:
            raise refuse(
                Reason.PARENT_REFERENCE,
                "has a '..' component; paths must stay inside the bot's folder.",
            )
        if len(parts) > self.limits.max_depth:
            raise refuse(
                Reason.TOO_DEEP,
                f"is {len(parts)} levels deep; the limit is {self.limits.max_depth}.",
            )
        for part in parts:
            if len(part.encode("utf-8")) > MAX_COMPONENT_BYTES:
                raise refuse(
                    Reason.BAD_NAME, f"has a component longer than {MAX_COMPONENT_BYTES} bytes."
                )
        return parts

    @staticmethod
    def is_macos_clutter(parts: tuple[str, ...]) -> bool:
        return bool(parts) and (parts[0] == _MACOS_FOLDER or parts[-1] == _MACOS_FILE)

    def register(self, parts: tuple[str, ...], raw: str, is_folder: bool) -> None:
        """Record a name, refusing a second file of the same name or a file/folder clash."""
        for depth in range(1, len(parts)):
            if self.kinds.get(parts[:depth]) is False:
                prefix = "/".join(parts[:depth])
                raise UnpackError(
                    Reason.DUPLICATE_NAME,
                    f"Archive member {raw!r} is inside {prefix!r}, which is also a file.",
                    raw,
                )
            self.kinds[parts[:depth]] = True
        seen = self.kinds.get(parts)
        if seen is not None and not (seen and is_folder):  # a folder listed twice is harmless
            what = "a file" if not seen else "a folder"
            raise UnpackError(
                Reason.DUPLICATE_NAME,
                f"Archive member {raw!r} appears twice (it is already {what}).",
                raw,
            )
        self.kinds[parts] = is_folder

    def declare_file(self, raw: str, declared: int) -> None:
        """Refuse a file from its header alone, before reading any of it: too large itself, or
        bringing the files declared so far over the total."""
        if declared > self.limits.max_file_bytes:
            raise UnpackError(
                Reason.FILE_TOO_LARGE,
                f"Archive member {raw!r} declares {_size(declared)}; the limit per file is "
                f"{_size(self.limits.max_file_bytes)}.",
                raw,
            )
        self.declared_bytes += declared
        if self.declared_bytes > self.limits.max_total_bytes:
            raise UnpackError(
                Reason.UNPACKED_TOO_LARGE,
                f"The archive declares more than {_size(self.limits.max_total_bytes)} of files "
                f"(reached at {raw!r}).",
                raw,
            )

    def make_folder(self, parts: tuple[str, ...]) -> None:
        self.root.joinpath(*parts).mkdir(parents=True, exist_ok=True)

    def write_file(
        self, parts: tuple[str, ...], raw: str, source: _Readable, declared: int, executable: bool
    ) -> int:
        """Copy ``source`` into the tree, counting the bytes (never trusting ``declared``)."""
        path = self.root.joinpath(*parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        written = 0
        with os.fdopen(os.open(path, flags, 0o600), "wb") as out:
            while chunk := _read(source, raw):
                written += len(chunk)
                self.total_bytes += len(chunk)
                if written > self.limits.max_file_bytes:
                    raise UnpackError(
                        Reason.FILE_TOO_LARGE,
                        f"Archive member {raw!r} unpacks to more than "
                        f"{_size(self.limits.max_file_bytes)}, the limit per file.",
                        raw,
                    )
                if self.total_bytes > self.limits.max_total_bytes:
                    raise UnpackError(
                        Reason.UNPACKED_TOO_LARGE,
                        f"The archive unpacks to more than {_size(self.limits.max_total_bytes)} "
                        f"(reached while unpacking {raw!r}).",
                        raw,
                    )
                if written > declared:
                    raise UnpackError(
                        Reason.CORRUPT,
                        f"Archive member {raw!r} unpacks to more than the {declared} bytes its "
                        f"header declares.",
                        raw,
                    )
                out.write(chunk)
            os.fchmod(out.fileno(), 0o755 if executable else 0o644)
        return written

    def files(self, prefix: tuple[str, ...] = ()) -> list[str]:
        """The files under ``prefix``, as paths relative to it."""
        n = len(prefix)
        return sorted(
            "/".join(parts[n:])
            for parts, is_folder in self.kinds.items()
            if not is_folder and parts[:n] == prefix
        )


# Errors by which the zip, tar and gzip readers say "this is not a valid archive" (bz2, which
# zip members may use, raises a plain OSError). Only reads are wrapped in them, so that a
# failure to write (a full disk) is not blamed on the upload.
_ARCHIVE_ERRORS = (
    zipfile.BadZipFile,
    tarfile.TarError,
    zlib.error,
    lzma.LZMAError,
    EOFError,
    NotImplementedError,
    OSError,
)


def _read(source: _Readable, raw: str) -> bytes:
    """The next chunk of a member, with the reader's errors as an :class:`UnpackError`."""
    try:
        return source.read(_CHUNK)
    except _ARCHIVE_ERRORS as error:
        raise UnpackError(Reason.CORRUPT, f"Cannot read {raw!r} ({error}).", raw) from None


def unpack(
    upload: str | os.PathLike[str] | BinaryIO,
    destination: str | os.PathLike[str],
    limits: Limits | None = None,
    *,
    filename: str | None = None,
) -> UnpackedBot:
    """Check ``upload`` and store its files in ``destination``, a folder that must not exist.

    ``upload`` is a path or a seekable binary file (read from its start, e.g. a Django
    ``UploadedFile``); ``filename`` is the name the author gave it (default: the path's or
    file object's name), whose ending chooses zip, tar or single file. The parent of
    ``destination`` is created if needed. Raises :class:`UnpackError` for a refused upload
    (nothing is stored), :class:`FileExistsError` if ``destination`` exists.
    """
    if isinstance(upload, str | os.PathLike):
        with open(upload, "rb") as stream:
            name = filename if filename is not None else Path(upload).name
            return _unpack(stream, name, Path(destination), limits or Limits())
    if filename is None:
        filename = getattr(upload, "name", None)
        if not isinstance(filename, str):
            raise TypeError("unpack() needs filename= for a file object without a name.")
        filename = Path(filename).name
    return _unpack(upload, filename, Path(destination), limits or Limits())


def _unpack(stream: BinaryIO, filename: str, destination: Path, limits: Limits) -> UnpackedBot:
    if os.path.lexists(destination):
        raise FileExistsError(f"The destination {str(destination)!r} exists already.")
    stream.seek(0, os.SEEK_END)
    size = stream.tell()
    stream.seek(0)
    if size > limits.max_upload_bytes:
        raise UnpackError(
            Reason.UPLOAD_TOO_LARGE,
            f"The upload is {_size(size)}; the limit is {_size(limits.max_upload_bytes)}.",
        )
    lower = filename.lower()
    kind: Literal["zip", "tar", "file"]
    if lower.endswith(".zip"):
        kind = "zip"
    elif lower.endswith((".tar.gz", ".tgz", ".tar")):
        kind = "tar"
    else:
        kind = "file"

    destination.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".unpack-", dir=destination.parent))
    try:
        tree = _Tree(work / "bot", limits)
        tree.root.mkdir()
        if kind == "zip":
            _extract_zip(stream, tree)
        elif kind == "tar":
            _extract_tar(stream, tree)
        else:
            _store_single_file(stream, filename, size, tree)

        prefix: tuple[str, ...] = ()
        if kind != "file":
            prefix = _manifest_folder(tree)
        bot_root = tree.root.joinpath(*prefix)
        manifest = check_manifest(bot_root) if kind != "file" else None
        bot_root.chmod(0o755)
        if os.path.lexists(destination):  # appeared while we were unpacking
            raise FileExistsError(f"The destination {str(destination)!r} exists already.")
        os.rename(bot_root, destination)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if manifest is not None:
        manifest = dataclasses.replace(manifest, directory=destination.resolve())
    return UnpackedBot(
        path=destination,
        kind=kind,
        files=tuple(tree.files(prefix)),
        manifest=manifest,
        stripped_folder=prefix[0] if prefix else None,
    )


# --------------------------------------------------------------------------------------------
# The three kinds of upload
# --------------------------------------------------------------------------------------------


def _extract_zip(stream: BinaryIO, tree: _Tree) -> None:
    try:
        archive = zipfile.ZipFile(stream)
    except _ARCHIVE_ERRORS as error:
        raise UnpackError(
            Reason.CORRUPT, f"The upload is not a valid zip file ({error})."
        ) from None
    with archive:
        members = archive.infolist()
        # Every check that the headers allow comes first, before anything is written.
        plan: list[tuple[zipfile.ZipInfo, tuple[str, ...], bool]] = []
        for info in members:
            raw = info.orig_filename  # zipfile cuts .filename at a NUL byte; this is whole
            tree.count_entry(raw)
            parts = tree.parts(raw)
            mode = info.external_attr >> 16  # Unix mode bits, where the zip tool set them
            if stat.S_ISLNK(mode):
                raise UnpackError(
                    Reason.LINK,
                    f"Archive member {raw!r} is a symbolic link; links are not allowed.",
                    raw,
                )
            is_folder = info.is_dir() or stat.S_ISDIR(mode)
            if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise UnpackError(
                    Reason.SPECIAL_FILE,
                    f"Archive member {raw!r} is not a regular file or folder (mode {mode:o}).",
                    raw,
                )
            if info.flag_bits & 0x1:
                raise UnpackError(
                    Reason.ENCRYPTED,
                    f"Archive member {raw!r} is encrypted; upload it without a password.",
                    raw,
                )
            if not is_folder:
                tree.declare_file(raw, info.file_size)
            if not parts or tree.is_macos_clutter(parts):
                continue
            tree.register(parts, raw, is_folder)
            plan.append((info, parts, is_folder))

        for info, parts, is_folder in plan:
            if is_folder:
                tree.make_folder(parts)
                continue
            raw = info.orig_filename
            executable = info.create_system == 3 and bool((info.external_attr >> 16) & 0o111)
            try:
                source = archive.open(info)
            except _ARCHIVE_ERRORS as error:
                raise UnpackError(Reason.CORRUPT, f"Cannot read {raw!r} ({error}).", raw) from None
            with source:
                tree.write_file(parts, raw, source, info.file_size, executable)


def _extract_tar(stream: BinaryIO, tree: _Tree) -> None:
    # Decompress here rather than in tarfile so that the bytes coming out are counted:
    # headers cost 512 bytes each plus long-name/pax records, files round up to 512, and
    # the end of the archive pads to 10 KiB; beyond that allowance the stream is a bomb.
    compressed = stream.read(2) == b"\x1f\x8b"
    stream.seek(0)
    raw: _Readable = gzip.GzipFile(fileobj=stream, mode="rb") if compressed else stream
    allowance = tree.limits.max_total_bytes + tree.limits.max_files * 4 * _KiB + 64 * _KiB
    bounded = _BoundedReader(
        raw,
        allowance,
        f"The archive unpacks to more than {_size(tree.limits.max_total_bytes)}.",
    )

    def corrupt(error: Exception) -> UnpackError:
        return UnpackError(Reason.CORRUPT, f"The upload is not a valid tar archive ({error}).")

    try:
        # "r|": read the tar as a stream, one member after the other, never seeking. (Closed
        # by the ``with`` below; opening it is kept apart so that only reads are caught.)
        archive = tarfile.open(fileobj=cast(IO[bytes], bounded), mode="r|")  # noqa: SIM115
    except _ARCHIVE_ERRORS as error:
        raise corrupt(error) from None
    with archive:
        members = iter(archive)
        while True:
            try:
                member = next(members, None)
            except _ARCHIVE_ERRORS as error:
                raise corrupt(error) from None
            if member is None:
                break
            _extract_tar_member(archive, member, tree)


def _extract_tar_member(archive: tarfile.TarFile, member: tarfile.TarInfo, tree: _Tree) -> None:
    raw = member.name
    tree.count_entry(raw)
    parts = tree.parts(raw)
    if member.issym() or member.islnk():
        kind = "symbolic" if member.issym() else "hard"
        raise UnpackError(
            Reason.LINK,
            f"Archive member {raw!r} is a {kind} link to {member.linkname!r}; "
            f"links are not allowed.",
            raw,
        )
    if member.isdir():
        if parts and not tree.is_macos_clutter(parts):
            tree.register(parts, raw, is_folder=True)
            tree.make_folder(parts)
        return
    if not member.isreg() or member.issparse():
        what = (
            "a character device" if member.ischr()
            else "a block device" if member.isblk()
            else "a FIFO" if member.isfifo()
            else "a sparse file" if member.issparse()
            else f"of type {member.type!r}"
        )  # fmt: skip
        raise UnpackError(
            Reason.SPECIAL_FILE,
            f"Archive member {raw!r} is {what}; only regular files and folders are allowed.",
            raw,
        )
    tree.declare_file(raw, member.size)
    if not parts or tree.is_macos_clutter(parts):
        return
    tree.register(parts, raw, is_folder=False)
    source = archive.extractfile(member)
    if source is None:  # only for links and special files, refused above
        raise UnpackError(Reason.CORRUPT, f"Archive member {raw!r} cannot be read.", raw)
    with source:
        tree.write_file(parts, raw, source, member.size, bool(member.mode & 0o111))


def _store_single_file(stream: BinaryIO, filename: str, size: int, tree: _Tree) -> None:
    parts = tree.parts(filename, what="The file name")
    if len(parts) != 1 or parts[0] != filename:
        raise UnpackError(
            Reason.BAD_NAME,
            f"The file name {filename!r} must be a plain name like 'bot.py', without folders.",
            filename,
        )
    if size > tree.limits.max_file_bytes:
        raise UnpackError(
            Reason.FILE_TOO_LARGE,
            f"The file {filename!r} is {_size(size)}; the limit per file is "
            f"{_size(tree.limits.max_file_bytes)}.",
            filename,
        )
    if size == 0:
        raise UnpackError(Reason.EMPTY, f"The uploaded file {filename!r} is empty.", filename)
    tree.register(parts, filename, is_folder=False)
    tree.write_file(parts, filename, stream, size, executable=False)


# --------------------------------------------------------------------------------------------
# Finding the manifest
# --------------------------------------------------------------------------------------------


def _manifest_folder(tree: _Tree) -> tuple[str, ...]:
    """``()`` if the manifest is at the top, ``(folder,)`` if in the single top folder."""
    if tree.kinds.get((MANIFEST_NAME,)) is False:
        return ()
    top = [parts for parts in tree.kinds if len(parts) == 1]
    if len(top) == 1 and tree.kinds[top[0]] and tree.kinds.get((*top[0], MANIFEST_NAME)) is False:
        return top[0]
    elsewhere = sorted(
        "/".join(parts)
        for parts, is_folder in tree.kinds.items()
        if not is_folder and parts[-1] == MANIFEST_NAME
    )
    hint = (
        f" It was found at {elsewhere[0]!r}, but it must be at the top level or in a "
        f"single top-level folder."
        if elsewhere
        else " Add one next to your code, with a name and a command, e.g. "
        'name = "my-bot" and command = ["python3", "bot.py"].'
    )
    raise UnpackError(Reason.NO_MANIFEST, f"The archive has no {MANIFEST_NAME}.{hint}")
