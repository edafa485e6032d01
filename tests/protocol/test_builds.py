"""Bots with a ``build`` (arena/runner/build.py): the manifest key, builds in the sandbox, their
cache, what a failed build tells its author, and the Go starter built and played."""

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.bots.random import RandomBot
from arena.cli import main
from arena.engine.record import GameRecord
from arena.runner import build as builds
from arena.runner.check import check_bot
from arena.runner.lineup import Entrant
from arena.runner.manifest import ManifestError, load
from arena.runner.match import MatchConfig, MatchError, run_match

from .conftest import needs_bwrap

ROOT = Path(__file__).resolve().parents[2]
GO_STARTER = ROOT / "bots" / "starter-go"
PYTHON_STARTER = ROOT / "bots" / "starter-python"
needs_go = pytest.mark.skipif(
    shutil.which("go") is None or not Path("/usr/share/gocode/src/google.golang.org/grpc").is_dir(),
    reason="Go and Debian's Go gRPC are not installed (./dev installs them)",
)


def bot_folder(tmp_path: Path, manifest: str, files: dict[str, str] | None = None) -> Path:
    folder = tmp_path / "bot"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (files or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    (folder / "nimmt-bot.toml").write_text(manifest)
    return folder


def public_scratch() -> Path:
    """A folder the bots' uids can reach (pytest's own are 0700, and reset so by every session)."""
    path = Path(tempfile.mkdtemp(prefix="nimmt-build-test-"))
    path.chmod(0o711)
    return path


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    path = public_scratch()
    yield path
    shutil.rmtree(path, ignore_errors=True)


#: A bot made by its build: a shell script that plays the lowest tile is overkill; the Python
#: starter copied in is a real bot whose build writes its program.
SH_BUILD = 'name = "made"\ncommand = ["python3", "made.py"]\nbuild = ["sh", "build.sh"]\n'


def made_bot(tmp_path: Path, script: str = "cp starter.py made.py\necho built it\n") -> Path:
    starter = (PYTHON_STARTER / "bot.py").read_text()
    return bot_folder(tmp_path, SH_BUILD, {"build.sh": script, "starter.py": starter})


# -- the manifest


def test_a_manifest_may_name_a_build_whose_command_runs_what_the_build_makes(tmp_path):
    folder = bot_folder(tmp_path, 'name = "x"\ncommand = ["./bot"]\nbuild = ["sh", "build.sh"]\n')
    (folder / "build.sh").write_text("")
    program = load(folder)
    assert program.build == ("sh", "build.sh")
    assert program.command == ("./bot",)  # ./bot does not exist yet: checked after the build


@pytest.mark.parametrize(
    ("build", "words"),
    [
        ('"make"', '\'build\' must be a list of strings like ["sh", "build.sh"], not a single'),
        ("[]", "'build' must not be empty"),
        ('["sh", "missing.sh"]', "'build' runs 'missing.sh', but the bot has no such file"),
        ('["/usr/bin/make"]', "'build' item 1 ('/usr/bin/make') is an absolute path"),
        ('["sh", "../x/build.sh"]', "'build' item 2 ('../x/build.sh') leaves the bot's folder"),
        ('["go", 1]', "'build' item 2 must be a string, not an integer"),
    ],
)
def test_a_wrong_build_is_explained(tmp_path, build, words):
    folder = bot_folder(tmp_path, f'name = "x"\ncommand = ["./bot"]\nbuild = {build}\n')
    with pytest.raises(ManifestError) as caught:
        load(folder)
    assert words in caught.value.problem


# -- builds


@needs_bwrap
def test_a_build_makes_a_plain_bot_folder_once_per_content(tmp_path):
    folder = made_bot(tmp_path)
    program = load(folder)
    first = builds.build(program, root=tmp_path / "builds")
    assert first.ok, first.problem
    built = first.program
    assert built is not None and built.build == ()
    assert (built.directory / "made.py").is_file()
    assert not (folder / "made.py").exists(), "the build runs in a copy of the folder"
    assert "built it" in first.log
    # The built folder is a bot folder like any other: its manifest has no build left.
    assert load(built.directory).build == ()
    assert load(built.directory).command == ("python3", "made.py")
    again = builds.build(program, root=tmp_path / "builds")
    assert again.cached and again.program == built
    (folder / "build.sh").write_text("cp starter.py made.py\necho built it again\n")
    changed = builds.build(load(folder), root=tmp_path / "builds")
    assert not changed.cached and "again" in changed.log


@needs_bwrap
def test_a_build_whose_command_is_still_missing_fails_with_the_manifest_problem(tmp_path):
    folder = made_bot(tmp_path, script="echo forgot to make it\n")
    done = builds.build(load(folder), root=tmp_path / "builds")
    assert not done.ok
    assert done.problem.startswith("after the build, 'command' runs 'made.py', but the bot has no")


@needs_bwrap
@needs_go
def test_a_broken_build_shows_the_compilers_output(tmp_path):
    folder = bot_folder(
        tmp_path,
        'name = "broken"\ncommand = ["./bot"]\nbuild = ["go", "build", "-o", "bot", "main.go"]\n',
        {"main.go": "package main\n\nfunc main() {\n\tundefinedThing()\n}\n"},
    )
    report = check_bot(folder, out=tmp_path / "out", build_root=tmp_path / "builds")
    assert not report.passed
    text = "\n".join(report.lines())
    assert "FAIL build: `go build -o bot main.go` failed: it exited with status" in text
    assert "the build's output" in text
    assert "main.go:4:2: undefined: undefinedThing" in text
    assert report.build is not None and "undefined: undefinedThing" in report.build.log


@needs_bwrap
@needs_go
def test_a_build_that_reaches_for_the_network_says_it_has_none(tmp_path):
    folder = bot_folder(
        tmp_path,
        'name = "online"\ncommand = ["./bot"]\nbuild = ["go", "build", "-o", "bot", "."]\n',
        {
            "go.mod": "module online\n\ngo 1.19\n\nrequire github.com/pkg/errors v0.9.1\n",
            "go.sum": "github.com/pkg/errors v0.9.1 "
            "h1:FEBLx1zS214owpjy7qsBeixbURkuhQAwrK5UwLGTwt4=\n"
            "github.com/pkg/errors v0.9.1/go.mod "
            "h1:bwawxfHBFNV+L2hUp1rHADufV3IMtnDRdf1r5NINEl0=\n",
            "main.go": 'package main\n\nimport "github.com/pkg/errors"\n\n'
            'func main() { _ = errors.New("x") }\n',
        },
    )
    done = builds.build(load(folder), root=tmp_path / "builds")
    assert not done.ok
    assert "the build has no network: vendor your dependencies" in done.problem
    assert "proxy.golang.org" in done.log  # Go's own words stay in the log


@needs_bwrap
def test_a_build_that_takes_too_long_is_stopped(tmp_path):
    folder = made_bot(tmp_path, script="echo thinking; sleep 60\n")
    limits = builds.BuildLimits(seconds=2)
    done = builds.build(load(folder), root=tmp_path / "builds", limits=limits)
    assert not done.ok
    assert done.problem == "it ran out of time: stopped after 2 s"
    assert done.seconds < 10
    assert "thinking" in done.log


@needs_bwrap
def test_a_build_that_takes_too_much_memory_is_stopped(tmp_path):
    hog = "python3 -c \"chunks = []\nwhile True: chunks.append(b'x' * 2**24)\"\n"
    folder = made_bot(tmp_path, script=hog)
    limits = builds.BuildLimits(memory_mb=128)
    done = builds.build(load(folder), root=tmp_path / "builds", limits=limits)
    assert not done.ok
    assert done.problem == "it ran out of memory (the limit is 128 MB)"


@needs_bwrap
def test_a_build_that_fills_the_disk_is_stopped(tmp_path):
    folder = made_bot(tmp_path, script="while true; do head -c 4000000 /dev/zero >> big; done\n")
    limits = builds.BuildLimits(output_mb=20)
    done = builds.build(load(folder), root=tmp_path / "builds", limits=limits)
    assert not done.ok
    assert "grew beyond 20 MB" in done.problem or "larger than 20 MB" in done.problem
    assert not list((tmp_path / "builds").glob(".*.building")), "a failed build leaves nothing"


@needs_bwrap
def test_a_match_builds_its_bots_first_and_a_failed_build_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("NIMMT_BUILD_DIR", str(tmp_path / "builds"))
    good = made_bot(tmp_path / "good")
    config = MatchConfig(variant="basic", games=1, seed=3, out=tmp_path / "match")
    result = run_match(config, [Entrant("made", program=load(good)), _random()])
    assert result.bots[0].answers > 0 and not result.bots[0].faults
    bad = made_bot(tmp_path / "bad", script="echo 'error: no such thing' >&2; exit 4\n")
    with pytest.raises(MatchError) as caught:
        run_match(config, [Entrant("made", program=load(bad)), _random()])
    assert "it exited with status 4" in str(caught.value)
    assert "error: no such thing" in str(caught.value)


def _random() -> Entrant:
    return Entrant("random", in_process=RandomBot)


# -- the Go starter


@pytest.fixture(scope="module")
def go_builds() -> Iterator[Path]:
    path = public_scratch()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.slow
@needs_bwrap
@needs_go
def test_the_go_starter_passes_the_check(go_builds, tmp_path):
    report = check_bot(GO_STARTER, out=tmp_path, build_root=go_builds)
    assert report.passed, "\n".join(report.lines())
    assert report.build is not None and report.build.program is not None
    # It started from the machine's prebuilt Go cache, which it leaves out of what it made.
    cache = builds.go_cache()
    assert cache is not None and any(cache.iterdir())
    assert not (report.build.program.directory / builds.CACHES).exists()


@pytest.mark.slow
@needs_bwrap
@needs_go
def test_the_go_starter_plays_the_python_starters_games(go_builds, tmp_path):
    go = builds.ready(load(GO_STARTER), root=go_builds)
    replays = {}
    for variant in ("basic", "pro+luck", "classic"):
        for name, program in (("go", go), ("python", load(PYTHON_STARTER))):
            config = MatchConfig(variant=variant, games=2, seed=11, out=tmp_path / name / variant)
            result = run_match(config, [Entrant("starter", program=program), _random()])
            assert not result.bots[0].faults, result.bots[0].faults
            replays[name, variant] = [_comparable(replay) for replay in result.replays]
        assert replays["go", variant] == replays["python", variant], variant


def _comparable(replay: GameRecord) -> str:
    return json.dumps({k: v for k, v in replay.to_json().items() if k not in ("started", "match")})


@pytest.mark.slow
@needs_go
def test_the_go_kits_own_tests_pass(tmp_path):
    folder = tmp_path / "starter-go"
    shutil.copytree(GO_STARTER, folder, ignore=shutil.ignore_patterns("bot"))
    # Go's own cache of this user (content-addressed): only the first run compiles gRPC.
    done = subprocess.run(["sh", "build.sh", "test"], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@needs_bwrap
def test_nimmt_match_and_check_print_a_failed_builds_output(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NIMMT_BUILD_DIR", str(tmp_path / "builds"))
    bad = made_bot(tmp_path, script="echo 'build.sh: line 1: gcc: not found' >&2; exit 127\n")
    assert main(["match", str(bad), "random", "--games", "1", "--out", str(tmp_path / "m")]) == 1
    err = capsys.readouterr().err
    assert "building made: sh build.sh ..." in err
    assert "made: build: `sh build.sh` failed: it exited with status 127" in err
    assert "  | build.sh: line 1: gcc: not found" in err
    assert main(["bot", "check", str(bad), "--out", str(tmp_path / "c")]) == 1
    out = capsys.readouterr().out
    assert "building the bot in the sandbox first" in out
    assert "FAIL build: `sh build.sh` failed: it exited with status 127" in out
    assert "     | build.sh: line 1: gcc: not found" in out


@pytest.mark.slow
@needs_bwrap
@needs_go
def test_a_go_bot_builds_its_vendored_packages_first(go_builds, tmp_path):
    folder = tmp_path / "vendoring"
    shutil.copytree(GO_STARTER, folder, ignore=shutil.ignore_patterns("bot"))
    cmp = folder / "vendor" / "github.com" / "google" / "go-cmp"
    shutil.copytree("/usr/share/gocode/src/github.com/google/go-cmp", cmp)
    (cmp / "cmp" / "vendored.go").write_text("package cmp\n\nconst Vendored = true\n")
    main = (folder / "main.go").read_text()
    main = main.replace(
        'import "nimmt-arena/bot/nimmt"',
        'import (\n\t"github.com/google/go-cmp/cmp"\n\t"nimmt-arena/bot/nimmt"\n)\n\n'
        "var _ = cmp.Vendored // only the vendored copy has it",
    )
    (folder / "main.go").write_text(main)
    done = builds.build(load(folder), root=go_builds)
    assert done.ok, done.log


@needs_bwrap
def test_a_build_that_makes_countless_empty_files_is_stopped(tmp_path):
    script = "mkdir many; cd many; i=0; while true; do i=$((i+1)); : > f$i; done\n"
    folder = made_bot(tmp_path, script=script)
    limits = builds.BuildLimits(output_mb=8, seconds=120)
    done = builds.build(load(folder), root=tmp_path / "builds", limits=limits)
    assert done.problem == "its folder grew beyond 8 MB: stopped"


# -- builds under attack: each fails with its reason, and nothing it made outlives it

DEEP_TREE = (
    "i=0; while [ $i -lt 1100 ]; do mkdir d; cd d; i=$((i+1)); done\n"
    "cp /usr/bin/id id; chmod 6755 id; echo x > open; chmod 666 open\n"
)


def set_id_files(root: Path) -> list[str]:
    found = subprocess.run(
        ["find", str(root), "-perm", "/6000"], capture_output=True, text=True, check=False
    )
    return found.stdout.split()


@pytest.fixture
def leases(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every uid lease the builds take (to see that each was given back)."""
    from arena.sandbox import process, uids

    taken: list[uids.UidLease] = []
    acquire_uid = uids.acquire_uid

    def acquire() -> uids.UidLease:
        lease = acquire_uid()
        release = lease.release

        def checked_release(clean: bool = False) -> None:
            # Looked at while the uid is still the build's: once given back, another test
            # process may take it and start its own bot under it at once.
            if lease.held:
                lease.left_at_release = uids.processes_of(lease.uid)  # type: ignore[attr-defined]
            release(clean)

        lease.release = checked_release  # type: ignore[method-assign]
        taken.append(lease)
        return lease

    monkeypatch.setattr(process.uids, "acquire_uid", acquire)
    return taken


def assert_all_given_back(leases: list[Any]) -> None:
    """Every uid the build took was given back, and none of its processes was left then."""
    assert leases, "the build ran as a uid of its own"
    for lease in leases:
        assert not lease.held, lease
        assert lease.left_at_release == [], lease


@needs_bwrap
def test_a_build_that_leaves_a_1100_deep_tree_with_a_setuid_program_fails_and_leaves_nothing(
    tmp_path, leases
):
    root = tmp_path / "builds"
    done = builds.build(load(made_bot(tmp_path / "deep", script=DEEP_TREE)), root=root)
    assert not done.ok
    assert done.problem.startswith("its folder is deeper than 64 levels")  # stopped, or after
    assert set_id_files(root) == []
    assert [p.name for p in root.iterdir() if not p.name.endswith(".lock")] == []
    assert_all_given_back(leases)
    # The same process builds another bot at once.
    other = builds.build(load(made_bot(tmp_path / "other")), root=root)
    assert other.ok, other.problem


@needs_bwrap
def test_nimmt_bot_check_prints_a_failed_build_of_a_deep_tree_and_then_checks_another_bot(
    tmp_path, monkeypatch, capsys
):
    root = tmp_path / "builds"
    monkeypatch.setenv("NIMMT_BUILD_DIR", str(root))
    deep = made_bot(tmp_path / "deep", script=DEEP_TREE)
    assert main(["bot", "check", str(deep), "--out", str(tmp_path / "c1")]) == 1
    captured = capsys.readouterr()
    assert "FAIL build: `sh build.sh` failed: its folder is deeper than 64 levels" in captured.out
    assert "Traceback" not in captured.out + captured.err
    assert set_id_files(root) == []
    good = made_bot(tmp_path / "good")
    assert main(["bot", "check", str(good), "--out", str(tmp_path / "c2")]) == 0
    assert "PASS made is ready for the arena" in capsys.readouterr().out


@needs_bwrap
def test_a_build_that_leaves_a_setuid_program_is_refused_and_the_bits_are_gone(tmp_path, leases):
    root = tmp_path / "builds"
    script = "cp starter.py made.py; cp /usr/bin/id id; chmod 6755 id; mkdir -m 2777 shared\n"
    done = builds.build(load(made_bot(tmp_path, script=script)), root=root)
    assert not done.ok
    assert done.problem == "its folder holds id with setuid or setgid bits: refused"
    assert set_id_files(root) == []
    assert_all_given_back(leases)


@needs_bwrap
def test_a_build_that_leaves_a_fifo_is_refused(tmp_path):
    done = builds.build(
        load(made_bot(tmp_path, script="cp starter.py made.py; mkfifo pipe\n")),
        root=tmp_path / "builds",
    )
    assert not done.ok
    assert done.problem.startswith("its folder holds pipe, which is neither a file, a folder")


@needs_bwrap
def test_a_build_whose_sparse_files_are_larger_than_the_cap_fails_at_their_apparent_size(
    tmp_path,
):
    script = "cp starter.py made.py; for i in 1 2 3 4 5; do truncate -s 10M sparse$i; done\n"
    limits = builds.BuildLimits(output_mb=20)
    done = builds.build(
        load(made_bot(tmp_path, script=script)), root=tmp_path / "builds", limits=limits
    )
    assert not done.ok
    assert done.problem.startswith("its folder grew beyond 20 MB")


@needs_bwrap
def test_a_build_that_makes_too_many_entries_fails_saying_so(tmp_path):
    script = "cp starter.py made.py; mkdir many; cd many; seq 1 100001 | xargs touch\n"
    limits = builds.BuildLimits(output_mb=4096, seconds=120)
    done = builds.build(
        load(made_bot(tmp_path, script=script)), root=tmp_path / "builds", limits=limits
    )
    assert not done.ok
    assert "more than 100000 files and folders" in done.problem


@needs_bwrap
def test_a_fork_bomb_build_is_held_to_its_process_limit_and_one_cpu(tmp_path):
    limits = builds.BuildLimits()
    assert (limits.cpus, limits.processes) == (1.0, 128)
    assert limits.sandbox_limits().processes == 128 and limits.sandbox_limits().cpus == 1.0
    script = "i=0; while [ $i -lt 300 ]; do sleep 30 & i=$((i+1)); done; wait\n"
    done = builds.build(load(made_bot(tmp_path, script=script)), root=tmp_path / "builds")
    assert not done.ok
    assert "fork" in done.log.lower(), done.log
    assert done.seconds < 60


@needs_bwrap
def test_a_bot_folder_deeper_than_the_limit_is_not_built(tmp_path):
    folder = made_bot(tmp_path)
    (folder / "/".join(["d"] * 70)).mkdir(parents=True)
    done = builds.build(load(folder), root=tmp_path / "builds")
    assert done.problem == "the bot's folder cannot be built: it is deeper than 64 levels"


def test_folders_that_split_the_same_bytes_differently_have_different_keys(tmp_path):
    script = {"build.sh": "true\n"}
    # Hashed as name, mode and content one after the other, these two were the same bytes.
    one = bot_folder(tmp_path / "one", SH_BUILD, {**script, "a": "x = 1", "b": "y = 2\n"})
    two = bot_folder(tmp_path / "two", SH_BUILD, {**script, "a": "x = 1\x00Fb\x000\x00y = 2\n"})
    limits = builds.BuildLimits()
    assert builds.build_key(load(one), limits) != builds.build_key(load(two), limits)
    # An empty folder is part of what is built.
    empty = bot_folder(tmp_path / "empty", SH_BUILD, {**script, "a": "x = 1", "b": "y = 2\n"})
    (empty / "nothing").mkdir()
    assert builds.build_key(load(empty), limits) != builds.build_key(load(one), limits)
    assert builds.RECIPE_VERSION >= 2


# -- a full disk: not the bot's fault, and nothing left behind


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 24 MiB tmpfs of this test's own, mounted and unmounted by it (as root)."""
    import os

    if os.geteuid() != 0:
        pytest.skip("mounting a small disk needs root")
    disk = tmp_path / "disk"
    disk.mkdir(mode=0o711)
    options = "size=24m,mode=0711,nosuid,nodev"
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "nimmt-test", str(disk)], check=True)
    try:
        yield disk
    finally:
        subprocess.run(["umount", "--lazy", str(disk)], check=False)


@needs_bwrap
def test_a_build_that_fills_the_disk_fails_as_disk_full_leaves_nothing_and_the_next_builds(
    tmp_path, small_disk
):
    root = small_disk / "builds"
    limits = builds.BuildLimits(reserve_mb=8)
    script = "cp starter.py made.py; while true; do head -c 1000000 /dev/zero >> big; done\n"
    done = builds.build(
        load(made_bot(tmp_path / "filler", script=script)), root=root, limits=limits
    )
    assert not done.ok and done.disk_full
    assert done.problem.startswith("the build disk is full: not enough free space (")
    assert "8 MB kept in reserve" in done.problem
    assert [p.name for p in root.iterdir() if not p.name.endswith(".lock")] == []
    assert builds.free_bytes(root) > 20 * 1024 * 1024
    honest = builds.build(load(made_bot(tmp_path / "honest")), root=root, limits=limits)
    assert honest.ok, honest.problem
    assert not honest.disk_full


@needs_bwrap
def test_a_build_on_a_disk_with_less_free_than_the_reserve_is_not_started(tmp_path, small_disk):
    limits = builds.BuildLimits(reserve_mb=64)
    program = load(made_bot(tmp_path))
    done = builds.build(program, root=small_disk / "builds", limits=limits)
    assert done.disk_full and not done.ok and done.log == ""
    with pytest.raises(builds.BuildDiskFull) as caught:
        builds.ready(program, root=small_disk / "builds", limits=limits)
    assert isinstance(caught.value, builds.BuildFailed)  # caught wherever a failed build is
    assert caught.value.build.disk_full


def test_a_bots_own_failure_is_not_a_full_disk(tmp_path):
    done = builds.Build(load(made_bot(tmp_path)), None, "", problem="it exited with status 1")
    assert not done.disk_full


@needs_bwrap
@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ("cp /usr/bin/id id; chmod 6755 id\n", "holds id with setuid or setgid bits: refused"),
        ("mkfifo pipe\n", "holds pipe, which is neither a file, a folder nor a link"),
        ("for i in $(seq 1 200); do truncate -s 1000M s$i; done\n", "grew beyond 1024 MB"),
        ("mkdir m; cd m; seq 1 100001 | xargs touch\n", "more than 100000 files and folders"),
        ("i=0; while [ $i -lt 300 ]; do sleep 30 & i=$((i+1)); done; wait\n", "fork"),
    ],
    ids=["setuid", "fifo", "sparse", "entries", "fork-bomb"],
)
def test_nimmt_bot_check_names_each_hostile_builds_reason_without_a_traceback(
    tmp_path, monkeypatch, capsys, leases, script, reason
):
    root = tmp_path / "builds"
    monkeypatch.setenv("NIMMT_BUILD_DIR", str(root))
    folder = made_bot(tmp_path, script="cp starter.py made.py\n" + script)
    assert main(["bot", "check", str(folder), "--out", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert "FAIL build: `sh build.sh` failed:" in captured.out
    assert reason in captured.out.lower() if reason == "fork" else reason in captured.out
    assert "Traceback" not in captured.out + captured.err
    assert set_id_files(root) == []
    assert_all_given_back(leases)
