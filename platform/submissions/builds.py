"""What a version's build made, kept with the version in the arena's storage, and its log.

A version whose manifest has a ``build`` is built once, in its validation
(:func:`matches.bridge.check_bot`). :func:`keep_build` writes the build's log and, if it built,
the built folder as one archive (:func:`core.storage.keep_folder`) into the arena's storage,
under a folder of that validation attempt's own (``bots/<bot>/<version>.build-<token>``), so a
retried attempt never writes over another's; the attempt whose verdict is stored records the
folder and the archive's SHA-256 on the version (:func:`submissions.tasks.finish_validation`).
Matches run :func:`run_dir`: the built folder, unpacked into the machine's cache by its hash
like the version's own archive, so a worker on any machine runs what the validation built; or
the version's own folder if it has no build kept (then the runner builds it, once per content).
These few functions are all the site knows of where builds are kept.
"""

from dataclasses import dataclass, field
from pathlib import Path

from core import leases, storage

from arena.runner.build import Build
from submissions.models import BotVersion

LOG = "build.log"
ARCHIVE = "bot.tar.gz"


class UnkeepableBuild(Exception):
    """The build made something the arena does not keep (a link, a device): the bot's fault,
    said to its owner."""


@dataclass(frozen=True)
class KeptBuild:
    """A build written to the arena's storage by one validation attempt: its ``folder``, the
    SHA-256 of its archive (``""`` if it did not build) and every name ``written``."""

    folder: str
    sha256: str
    written: list[str] = field(default_factory=list)


def build_folder(version: BotVersion, claim: leases.Claim) -> str:
    """The folder of the attempt ``claim`` at building ``version`` in the arena's storage."""
    return f"bots/{version.bot.uuid}/{attempt_stem(version)}{claim.token.hex[:12]}"


def attempt_stem(version: BotVersion) -> str:
    """What the names of all attempts at building ``version`` start with, in its bot's folder."""
    return f"{version.uuid}.build-"


def keep_build(version: BotVersion, build: Build, claim: leases.Claim) -> KeptBuild:
    """Write ``build``'s log and, if it built, its folder for the attempt ``claim``; all or
    nothing (:class:`~core.storage.StorageError` if the storage failed, :class:`UnkeepableBuild`
    before anything is written if the build made something but plain files and folders)."""
    folder = build_folder(version, claim)
    if build.program is not None:
        built = build.program.directory
        for path in sorted(built.rglob("*")):
            if path.is_symlink() or not (path.is_file() or path.is_dir()):
                raise UnkeepableBuild(
                    f"the build made {path.relative_to(built).as_posix()}, which is not a plain"
                    " file or folder: the arena keeps only those (copy it instead of linking)"
                )
    written: list[str] = []
    try:
        storage.save_new(f"{folder}/{LOG}", build.log.encode("utf-8", errors="replace"))
        written.append(f"{folder}/{LOG}")
        sha256 = ""
        if build.program is not None:
            sha256 = storage.keep_folder(build.program.directory, f"{folder}/{ARCHIVE}")
            written.append(f"{folder}/{ARCHIVE}")
    except BaseException:
        storage.delete_all(written)
        raise
    return KeptBuild(folder, sha256, written)


def build_log(version: BotVersion) -> str | None:
    """The log of ``version``'s build (``None`` if it was never built, or the storage cannot
    give it now)."""
    if not version.build_dir:
        return None
    try:
        return storage.read_bytes(f"{version.build_dir}/{LOG}").decode("utf-8", errors="replace")
    except (FileNotFoundError, storage.StorageError):
        return None


def run_dir(version: BotVersion) -> Path:
    """The folder a match runs ``version`` from on this machine: the built one if it has a
    build kept (:class:`~core.storage.StorageError` if the storage cannot give it)."""
    if version.manifest.get("build") and version.build_sha256:
        return storage.local_tree(f"{version.build_dir}/{ARCHIVE}", version.build_sha256)
    return version.code_path()
