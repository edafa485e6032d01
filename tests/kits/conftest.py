"""The starters of every language, found and made ready to run once per test session.

Every ``bots/starter-<language>/`` with a manifest is a starter. One whose manifest has a
``build`` is built the way the runner builds it (in the sandbox, cached by the folder's content:
a starter that did not change is not compiled again).
"""

import shutil
from pathlib import Path

import pytest

from arena.runner.build import BuildFailed, ready
from arena.runner.manifest import MANIFEST, BotProgram, load

ROOT = Path(__file__).resolve().parents[2]
STARTERS = sorted(p for p in (ROOT / "bots").glob("starter-*") if (p / MANIFEST).is_file())
REFERENCE = "python"

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed"
)


def language(folder: Path) -> str:
    return folder.name.removeprefix("starter-")


LANGUAGES = [language(folder) for folder in STARTERS]
#: The kits that play on the arena's framed socket when it offers one (``NIMMT_FRAMES``).
FRAMED = [name for name in ("python", "cpp", "go", "java", "javascript") if name in LANGUAGES]
_ready: dict[str, BotProgram] = {}


def starter(name: str) -> BotProgram:
    """The starter of language ``name``, built if it has a build (once per session)."""
    if name not in _ready:
        program = load(ROOT / "bots" / f"starter-{name}")
        try:
            _ready[name] = ready(program)
        except BuildFailed as exc:
            pytest.fail(f"{exc}\n" + "\n".join(exc.build.log_tail()))
    return _ready[name]


@pytest.fixture(autouse=True)
def own_uid_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sandbox uids of a range of our own (as tests/protocol does, another range), so that a
    uid released here and leased at once by another run is not mistaken for ours."""
    monkeypatch.setenv("NIMMT_SANDBOX_UID_BASE", "64400")
    monkeypatch.setenv("NIMMT_SANDBOX_UID_COUNT", "100")
