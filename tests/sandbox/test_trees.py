"""Trees a bot shaped: walked, measured, taken back and removed without recursion, however deep,
with apparent sizes, and with nothing set-id, special or too deep left after taking back."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from arena.sandbox import trees


def deep_tree(top: Path, depth: int, uid: int = 61999) -> None:
    """``d/d/...`` ``depth`` levels under ``top``, a set-id program and a FIFO at the bottom,
    everything the bot's (made through descriptors: the path is longer than any the kernel
    takes)."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            os.chown("d", uid, uid, dir_fd=fd)
            child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
        program = os.open("id", os.O_WRONLY | os.O_CREAT, 0o755, dir_fd=fd)
        os.write(program, Path("/usr/bin/id").read_bytes())
        os.fchown(program, uid, uid)
        os.fchmod(program, 0o6755)
        os.close(program)
        os.mkfifo("pipe", dir_fd=fd)
    finally:
        os.close(fd)


def test_a_1100_deep_tree_is_measured_taken_back_and_removed(tmp_path: Path) -> None:
    top = tmp_path / "bot"
    top.mkdir()
    deep_tree(top, 1100)

    found = trees.survey(top)
    assert found.stopped and found.depth == trees.MAX_DEPTH + 1
    assert "deeper than 64 levels" in found.problem(max_depth=64, max_entries=10, most_bytes=1)

    taken = trees.take_back(top)
    assert taken.cut
    after = trees.survey(top)
    assert after.depth == trees.MAX_DEPTH and not after.set_id and not after.special
    for entry in trees.walk(top):
        assert (entry.info.st_uid, entry.info.st_gid) == (os.geteuid(), os.getegid())
        assert not entry.info.st_mode & (stat.S_ISUID | stat.S_ISGID | stat.S_IWOTH)

    again = tmp_path / "again"  # and removed whole
    again.mkdir()
    deep_tree(again, 1100)
    assert trees.remove(again) and trees.remove(top)
    assert not again.exists() and not top.exists()


def test_set_id_files_fifos_and_world_writable_modes_do_not_survive_taking_back(
    tmp_path: Path,
) -> None:
    top = tmp_path / "bot"
    top.mkdir()
    deep_tree(top, 3)
    (top / "open").write_text("x")
    (top / "open").chmod(0o666)
    found = trees.survey(top)
    assert found.set_id == ["d/d/d/id"] and found.special == ["d/d/d/pipe"]

    taken = trees.take_back(top)

    assert taken.set_id == ["d/d/d/id"] and taken.special == ["d/d/d/pipe"] and not taken.cut
    assert not (top / "d/d/d/pipe").exists()
    assert stat.S_IMODE((top / "d/d/d/id").stat().st_mode) == 0o755
    assert stat.S_IMODE((top / "open").stat().st_mode) == 0o644
    left = subprocess.run(["find", str(top), "-perm", "/6002"], capture_output=True, text=True)
    assert left.stdout == ""


def test_files_with_holes_weigh_their_length(tmp_path: Path) -> None:
    with (tmp_path / "sparse").open("wb") as file:
        file.truncate(10**9)
    found = trees.survey(tmp_path, most_bytes=10**8)
    assert found.stopped and found.bytes == 10**9
    assert os.stat(tmp_path / "sparse").st_blocks * 512 < 10**6
