"""Walking, judging, taking back and removing folder trees a bot wrote, without recursion.

A build's folder is the bot's to shape: it may be thousands of levels deep, hold a million
entries, files with holes, set-id programs or FIFOs. Python's own tree walks (``os.walk``,
``shutil.rmtree``, ``Path.rglob`` on 3.11) recurse once per level and die with a
:class:`RecursionError` past about a thousand; walks by path fail with ``ENAMETOOLONG`` past
4096 bytes. So:

* :func:`walk` keeps a stack of directory file descriptors (names resolved relative to their
  folder, links never followed) and goes no deeper than ``max_depth`` + 1 levels: a deeper
  tree is seen (its entries at level ``max_depth + 1``) but not entered.
* :func:`survey` measures a tree: entries, bytes at their *apparent* size (a file with holes
  counts at its length, whatever few blocks it takes: packing or unpacking it writes every
  byte), depth, set-id files and what is neither file, folder nor link. It stops as soon as a
  limit is passed.
* :func:`take_back` hands a tree back to the runner after a build (owner, modes, no set-id
  bits, no FIFOs or devices) and cuts off what lies deeper than :data:`MAX_DEPTH`.
* :func:`remove` removes any tree, however deep (coreutils ``rm -rf``, which walks with file
  descriptors), and never raises: it is clean-up.

The documented limits of a build's folder are :data:`MAX_DEPTH` levels and
:data:`MAX_ENTRIES` entries (files, folders and links together).
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: The deepest a bot's folder or its build's may go: ``a/b/c`` is 3 levels.
MAX_DEPTH = 64
#: The most entries (files, folders, links) a bot's folder or its build's may hold.
MAX_ENTRIES = 100_000
#: Set-id bits: never left on anything the runner takes back.
SET_ID = stat.S_ISUID | stat.S_ISGID
#: Names of the offending entries kept in a :class:`Survey` or :class:`TakenBack`.
NAMED = 5

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Entry:
    """One entry of a tree during :func:`walk`: its ``path`` in the tree (``a/b``), its
    ``name``, its ``depth`` (1 for the tree's own entries), its ``lstat`` and ``parent_fd``, an
    open descriptor of its folder (valid until the walk goes on)."""

    path: str
    name: str
    depth: int
    info: os.stat_result
    parent_fd: int

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.info.st_mode)


def walk(folder: Path | str, max_depth: int = MAX_DEPTH) -> Iterator[Entry]:
    """Every entry under ``folder`` (not ``folder`` itself), each folder's in name order, a
    folder before its content; entries at level ``max_depth + 1`` are given but not entered.

    The caller may change an entry (its owner, its mode, remove it) when it is given; entries
    that vanish meanwhile are skipped. :class:`OSError` if ``folder`` is not a folder.
    """
    root = os.open(folder, _DIR_FLAGS)
    stack: list[tuple[int, str, Iterator[str]]] = []
    try:
        stack.append((root, "", iter(sorted(os.listdir(root)))))
    except BaseException:
        os.close(root)
        raise
    try:
        while stack:
            fd, prefix, names = stack[-1]
            name = next(names, None)
            if name is None:
                stack.pop()
                os.close(fd)
                continue
            try:
                info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                continue
            depth = len(stack)
            path = prefix + name
            yield Entry(path, name, depth, info, fd)
            if depth > max_depth or not stat.S_ISDIR(info.st_mode):
                continue
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError:  # gone, or replaced by something that is not a folder
                continue
            try:
                listed = sorted(os.listdir(child))
            except OSError:
                os.close(child)
                continue
            stack.append((child, path + "/", iter(listed)))
    finally:
        for fd, _, _ in stack:
            os.close(fd)


def apparent_bytes(info: os.stat_result) -> int:
    """What a file weighs: its length (holes count), or the blocks it holds if more (space
    set aside with ``fallocate``)."""
    return max(info.st_size, info.st_blocks * 512)


@dataclass
class Survey:
    """What :func:`survey` found (up to where it stopped)."""

    entries: int = 0
    bytes: int = 0
    depth: int = 0
    set_id: list[str] = field(default_factory=list)
    special: list[str] = field(default_factory=list)
    stopped: bool = False  # a limit was passed: the figures are at least these
    unreadable: bool = False  # the folder itself could not be opened

    def problem(self, *, max_depth: int, max_entries: int, most_bytes: int) -> str:
        """What is wrong with the tree as a sentence, or ``""``: the first limit passed."""
        if self.unreadable:
            return "it cannot be read (its permissions were taken away)"
        if self.depth > max_depth:
            return f"it is deeper than {max_depth} levels"
        if self.entries > max_entries:
            return f"it holds more than {max_entries} files and folders"
        if self.bytes > most_bytes:
            return f"it is larger than {most_bytes // (1024 * 1024)} MB"
        if self.special:
            return (
                f"it holds {self.special[0]}, which is neither a file, a folder nor a link "
                "(a FIFO, socket or device)"
            )
        if self.set_id:
            return f"it holds {self.set_id[0]} with setuid or setgid bits: refused"
        return ""


def survey(
    folder: Path | str,
    *,
    max_depth: int = MAX_DEPTH,
    max_entries: int = MAX_ENTRIES,
    most_bytes: int | None = None,
    entry_bytes: int = 0,
) -> Survey:
    """Measure the tree under ``folder``: its entries, bytes (each file at its
    :func:`apparent_bytes`; every entry at least ``entry_bytes``), depth, set-id files and
    special files; stops once ``max_depth``, ``max_entries`` or ``most_bytes`` is passed.
    Entries that change meanwhile (a build still running) are counted as they were seen."""
    found = Survey()
    for entry in walk(folder, max_depth):
        mode = entry.info.st_mode
        found.entries += 1
        found.depth = max(found.depth, entry.depth)
        size = apparent_bytes(entry.info) if stat.S_ISREG(mode) else entry.info.st_size
        found.bytes += max(size, entry_bytes)
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            if len(found.special) < NAMED:
                found.special.append(entry.path)
        elif stat.S_ISREG(mode) and mode & SET_ID and len(found.set_id) < NAMED:
            found.set_id.append(entry.path)
        over_bytes = most_bytes is not None and found.bytes > most_bytes
        if found.depth > max_depth or found.entries > max_entries or over_bytes:
            found.stopped = True
            break
    return found


@dataclass
class TakenBack:
    """What :func:`take_back` found and changed: set-id files made plain, special files
    removed, and whether a part deeper than its ``max_depth`` was cut off."""

    set_id: list[str] = field(default_factory=list)
    special: list[str] = field(default_factory=list)
    cut: bool = False


def take_back(folder: Path | str, max_depth: int = MAX_DEPTH) -> TakenBack:
    """Take ``folder`` back from the uid it was lent to: the runner's again, nobody else may
    write to it, no set-id bits, every file and folder readable (the built bot runs as other
    uids). Links are not followed; what is neither a file, a folder nor a link (a FIFO, a
    socket, a device) is removed, and so is all that lies deeper than ``max_depth``.

    Call it once no process of that uid is left: it changes entries by name.
    """
    owner = (os.geteuid(), os.getegid())
    done = TakenBack()
    _take(folder, None, os.lstat(folder), owner)
    for entry in walk(folder, max_depth):
        fd, name, info = entry.parent_fd, entry.name, entry.info
        if entry.depth > max_depth:
            done.cut = True
            _remove_at(fd, name, entry.is_dir)
            continue
        if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
            if not stat.S_ISLNK(info.st_mode):
                os.unlink(name, dir_fd=fd)
                if len(done.special) < NAMED:
                    done.special.append(entry.path)
            elif (info.st_uid, info.st_gid) != owner:
                os.chown(name, *owner, dir_fd=fd, follow_symlinks=False)
            continue
        if stat.S_ISREG(info.st_mode) and info.st_mode & SET_ID and len(done.set_id) < NAMED:
            done.set_id.append(entry.path)
        _take(name, fd, info, owner)
    return done


def _take(
    name: Path | str, dir_fd: int | None, info: os.stat_result, owner: tuple[int, int]
) -> None:
    """Give one file or folder to ``owner``, plain modes (see :func:`take_back`)."""
    if (info.st_uid, info.st_gid) != owner:
        os.chown(name, *owner, dir_fd=dir_fd, follow_symlinks=False)
    mode = stat.S_IMODE(info.st_mode) & ~(0o7022)
    os.chmod(name, mode | (0o755 if stat.S_ISDIR(info.st_mode) else 0o644), dir_fd=dir_fd)


def _remove_at(dir_fd: int, name: str, is_dir: bool) -> None:
    if not is_dir:
        os.unlink(name, dir_fd=dir_fd)
        return
    # ``rm`` walks with descriptors of its own, however deep; it reaches the folder through
    # ours (the path from the top may be longer than any path the kernel takes).
    subprocess.run(
        ["rm", "-rf", "--one-file-system", "--", f"/proc/self/fd/{dir_fd}/{name}"],
        pass_fds=(dir_fd,),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )


def remove(path: Path | str) -> bool:
    """Remove ``path`` and all under it, however deep, without following links; whether it is
    gone. Never raises (clean-up after something that may already have gone wrong)."""
    path = os.fspath(path)
    for attempt in range(2):
        try:
            os.lstat(path)
        except FileNotFoundError:
            return True
        except OSError:
            return False
        if attempt:  # not root: a folder the build made unreadable stops rm
            _run(["chmod", "-R", "u+rwX", "--", path])
        _run(["rm", "-rf", "--one-file-system", "--", path])
    return not os.path.lexists(path)


def _run(argv: list[str]) -> None:
    with contextlib.suppress(OSError):
        subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
