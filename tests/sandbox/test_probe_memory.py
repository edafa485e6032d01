"""The sandbox probe remembered between processes: a probe that found every protection is kept
until the machine restarts and believed only for the same machine, bubblewrap and sandbox
recipe, and only where nobody but root could have written it; any other probe is done again."""

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.sandbox import bubblewrap, probe
from arena.sandbox.probe import LAYERS, Probe, layers

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="only root's runners remember the probe"),
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed"),
]

ALL = dict.fromkeys(LAYERS, True)


class Memory:
    """The probe's memory in a folder of the test's own, and the probes really made."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.probes = 0

    def files(self) -> list[Path]:
        return sorted(self.folder.glob("*.json"))

    def next_process(self) -> dict[str, bool]:
        """What a new process finds (the per-process memory forgotten)."""
        probe._probe.cache_clear()
        return layers()


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Memory]:
    kept = Memory(tmp_path / "probe")
    really = probe._probe_now

    def counted() -> Probe:
        kept.probes += 1
        return really()

    monkeypatch.setattr(probe, "_memory_folder", lambda: kept.folder)
    monkeypatch.setattr(probe, "_probe_now", counted)
    probe._probe.cache_clear()
    yield kept
    monkeypatch.undo()
    bubblewrap.find_bwrap.cache_clear()
    probe._probe.cache_clear()


def test_a_probe_that_found_every_protection_is_remembered_for_the_next_process(memory):
    assert memory.next_process() == ALL and memory.probes == 1
    (remembered,) = memory.files()
    assert stat.S_IMODE(remembered.stat().st_mode) == 0o600
    assert stat.S_IMODE(memory.folder.stat().st_mode) == 0o700
    assert json.loads(remembered.read_text()) == {"layers": ALL}
    assert memory.next_process() == ALL and memory.next_process() == ALL
    assert memory.probes == 1, "the later processes believed the first one's probe"


def test_another_bubblewrap_or_sandbox_recipe_is_probed_again(memory, monkeypatch):
    assert memory.next_process() == ALL and memory.probes == 1
    with tempfile.TemporaryDirectory(prefix="nimmt-bwrap-") as folder:
        os.chmod(folder, 0o755)  # the bots' uids run it
        other = Path(folder) / "bwrap"  # the same program, another file: an upgrade
        shutil.copy2(shutil.which("bwrap") or "", other)
        monkeypatch.setenv("NIMMT_BWRAP", str(other))
        bubblewrap.find_bwrap.cache_clear()
        assert memory.next_process() == ALL and memory.probes == 2
        monkeypatch.delenv("NIMMT_BWRAP")
        bubblewrap.find_bwrap.cache_clear()
    assert memory.next_process() == ALL and memory.probes == 2  # the first key still holds
    monkeypatch.setattr(probe, "RECIPE", (*probe.RECIPE, "__init__.py"))
    assert memory.next_process() == ALL and memory.probes == 3
    assert len(memory.files()) == 3  # each key its own; the newest few are kept
    assert memory.next_process() == ALL and memory.probes == 3


def test_only_the_newest_few_keys_are_kept(memory, monkeypatch):
    names = ["probe.py", "bubblewrap.py", "seccomp.py", "cgroups.py", "uids.py", "spec.py"]
    for count in range(1, probe.REMEMBERED_KEYS + 4):  # as many recipes, each another key
        monkeypatch.setattr(probe, "RECIPE", tuple(names[: 1 + count % len(names)]) * count)
        assert memory.next_process() == ALL
    assert len(memory.files()) == probe.REMEMBERED_KEYS
    assert not list(memory.folder.glob(".*")), "no partial file is left behind"


def test_a_probe_that_found_something_missing_is_never_remembered(memory, monkeypatch):
    def without_sandbox(found: Probe) -> None:
        found.problem = "bubblewrap does not start a sandbox here"

    monkeypatch.setattr(probe, "_run_probe_sandbox", without_sandbox)
    assert memory.next_process()["bubblewrap"] is False
    assert memory.next_process()["bubblewrap"] is False
    assert memory.probes == 2 and memory.files() == []


@pytest.mark.parametrize(
    "tamper",
    [
        lambda file: file.chmod(0o666),
        lambda file: os.chown(file, 65534, 65534),
        lambda file: file.parent.chmod(0o777),
        lambda file: file.write_text("{not json"),
        lambda file: file.write_text(json.dumps({"layers": {**ALL, "seccomp": False}})),
        lambda file: file.write_text(json.dumps({"layers": ALL}) + " " * 5000),
    ],
    ids=["writable-by-all", "not-root-s", "folder-writable-by-all", "garbled", "less", "huge"],
)
def test_a_remembered_probe_that_is_not_root_s_own_and_whole_is_not_believed(memory, tamper):
    assert memory.next_process() == ALL and memory.probes == 1
    (remembered,) = memory.files()
    tamper(remembered)
    assert memory.next_process() == ALL and memory.probes == 2, "probed again"


def test_a_link_in_place_of_the_remembered_probe_is_not_followed(memory, tmp_path):
    assert memory.next_process() == ALL
    (remembered,) = memory.files()
    elsewhere = tmp_path / "elsewhere.json"
    remembered.rename(elsewhere)
    remembered.symlink_to(elsewhere)
    assert memory.next_process() == ALL and memory.probes == 2


def test_a_state_folder_that_cannot_be_written_costs_a_probe_per_process_not_an_error(
    memory, tmp_path
):
    (tmp_path / "a-file").write_text("")
    memory.folder = tmp_path / "a-file" / "probe"  # cannot be made: not a directory
    assert memory.next_process() == ALL and memory.next_process() == ALL
    assert memory.probes == 2
