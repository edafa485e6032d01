"""Folders under the data folder that sandboxed bots must be able to reach."""

from pathlib import Path


def public_dir(path: Path) -> Path:
    """Create ``path`` and its missing parents as folders others may enter (0755).

    Bots run as uids of their own, and the sandbox refuses a bot folder such a uid could not
    reach; a restrictive umask must not make the site's own folders unreachable.
    """
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for folder in reversed(missing):
        folder.mkdir(exist_ok=True)
        folder.chmod(0o755)
    return path
