"""Tests of ``submissions.unpack``: good uploads are stored; every malformed upload is refused with
a reason code and a message naming the culprit, and leaves nothing behind."""

from __future__ import annotations

import io
import os
import stat
import tarfile
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from submissions.unpack import (
    Limits,
    Reason,
    UnpackError,
    check_manifest,
    unpack,
)

MiB = 1024 * 1024
MANIFEST = 'name = "lowrow"\ncommand = ["python3", "bot.py"]\nlanguage = "python"\n'
BOT = b"print('hello')\n"
GOOD = [("nimmt-bot.toml", MANIFEST.encode()), ("bot.py", BOT)]

# --- archive builders -----------------------------------------------------------------------


def zip_bytes(*members: tuple[str | zipfile.ZipInfo, bytes | str]) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are made on purpose
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in members:
                archive.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def stored_zip(*members: tuple[str, bytes]) -> bytes:
    """A zip whose data is stored as is, so that a test can alter it in place."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buf.getvalue()


def zip_info(name: str, mode: int) -> zipfile.ZipInfo:
    """A zip member carrying Unix mode bits (as Info-ZIP writes them)."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


def tar_bytes(*members: tuple[str, bytes] | tarfile.TarInfo, gz: bool = True) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz" if gz else "w", format=tarfile.PAX_FORMAT) as t:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                t.addfile(member)
            else:
                name, data = member
                info = tarfile.TarInfo(name)
                info.size, info.mode = len(data), 0o644
                t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def tar_info(name: str, kind: bytes, **attrs: object) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    for key, value in attrs.items():
        setattr(info, key, value)
    return info


def set_zip_flag(data: bytes, bit: int) -> bytes:
    """Set a general-purpose flag bit in every local and central header of a zip."""
    out = bytearray(data)
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = out.find(signature)
        while at >= 0:
            flags = int.from_bytes(out[at + offset : at + offset + 2], "little") | bit
            out[at + offset : at + offset + 2] = flags.to_bytes(2, "little")
            at = out.find(signature, at + 4)
    return bytes(out)


# --- fixtures and helpers -------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """The folder the site keeps bots in; each test unpacks into ``store / "bot"``."""
    folder = tmp_path / "store"
    folder.mkdir()
    return folder


def assert_nothing_left(store: Path) -> None:
    assert list(store.iterdir()) == [], "a refused upload left files behind"


def refuse(store: Path, data: bytes, filename: str, limits: Limits | None = None) -> UnpackError:
    with pytest.raises(UnpackError) as caught:
        unpack(io.BytesIO(data), store / "bot", limits, filename=filename)
    assert_nothing_left(store)
    return caught.value


# --- good uploads ---------------------------------------------------------------------------


def test_it_unpacks_a_zip_with_the_manifest_at_the_top(store: Path) -> None:
    bot = unpack(io.BytesIO(zip_bytes(*GOOD, ("lib/util.py", b"X = 1\n"))), store / "bot",
                 filename="lowrow.zip")  # fmt: skip
    assert bot.kind == "zip"
    assert bot.path == store / "bot"
    assert bot.files == ("bot.py", "lib/util.py", "nimmt-bot.toml")
    assert bot.stripped_folder is None
    assert bot.manifest is not None
    assert bot.manifest.name == "lowrow"
    assert bot.manifest.command == ("python3", "bot.py")
    assert bot.manifest.language == "python"
    assert bot.manifest.description == ""
    assert (store / "bot" / "bot.py").read_bytes() == BOT
    assert (store / "bot" / "lib" / "util.py").read_bytes() == b"X = 1\n"
    assert [p.name for p in store.iterdir()] == ["bot"]  # no temporary folder left over


def test_it_strips_a_single_top_level_folder(store: Path) -> None:
    data = zip_bytes(("lowrow/", b""), *((f"lowrow/{n}", d) for n, d in GOOD))
    bot = unpack(io.BytesIO(data), store / "bot", filename="lowrow.zip")
    assert bot.stripped_folder == "lowrow"
    assert bot.files == ("bot.py", "nimmt-bot.toml")
    assert sorted(p.name for p in (store / "bot").iterdir()) == ["bot.py", "nimmt-bot.toml"]


def test_it_skips_what_macos_adds_to_a_zip(store: Path) -> None:
    data = zip_bytes(
        *((f"lowrow/{n}", d) for n, d in GOOD),
        ("lowrow/.DS_Store", b"\0\0"),
        ("__MACOSX/lowrow/._bot.py", b"\0\0"),
    )
    bot = unpack(io.BytesIO(data), store / "bot", filename="lowrow.zip")
    assert (bot.stripped_folder, bot.files) == ("lowrow", ("bot.py", "nimmt-bot.toml"))


def test_it_unpacks_a_tar_gz_and_keeps_only_the_executable_bit(store: Path) -> None:
    manifest = b'name = "sh"\ncommand = ["./run.sh"]\n'
    run = tar_info("./sh-bot/run.sh", tarfile.REGTYPE, size=9, mode=0o4777)  # setuid dropped
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as t:
        t.addfile(tar_info("./", tarfile.DIRTYPE, mode=0o755))
        t.addfile(tar_info("./sh-bot", tarfile.DIRTYPE, mode=0o755))
        t.addfile(tar_info("./sh-bot/nimmt-bot.toml", tarfile.REGTYPE, size=len(manifest)),
                  io.BytesIO(manifest))  # fmt: skip
        t.addfile(run, io.BytesIO(b"echo hi\n\n"))
    bot = unpack(io.BytesIO(data.getvalue()), store / "bot", filename="sh-bot.tar.gz")
    assert (bot.kind, bot.stripped_folder) == ("tar", "sh-bot")
    assert bot.manifest is not None and bot.manifest.command == ("./run.sh",)
    assert stat.S_IMODE((store / "bot" / "run.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((store / "bot" / "nimmt-bot.toml").stat().st_mode) == 0o644


@pytest.mark.parametrize("filename", ["lowrow.tgz", "LOWROW.TAR.GZ", "lowrow.tar"])
def test_it_unpacks_tar_archives(store: Path, filename: str) -> None:
    data = tar_bytes(*GOOD, gz=not filename.endswith(".tar"))
    bot = unpack(io.BytesIO(data), store / "bot", filename=filename)
    assert (bot.kind, bot.files) == ("tar", ("bot.py", "nimmt-bot.toml"))


def test_it_stores_a_single_source_file_without_a_manifest(store: Path, tmp_path: Path) -> None:
    upload = tmp_path / "lowrow.py"
    upload.write_bytes(BOT)
    bot = unpack(upload, store / "bot")  # the file name comes from the path
    assert (bot.kind, bot.files, bot.manifest) == ("file", ("lowrow.py",), None)
    assert (store / "bot" / "lowrow.py").read_bytes() == BOT


def test_it_stores_any_other_single_file(store: Path) -> None:
    bot = unpack(io.BytesIO(b"console.log(1)\n"), store / "bot", filename="bot.js")
    assert (bot.kind, bot.files) == ("file", ("bot.js",))


def test_it_takes_the_name_of_a_named_file_object(store: Path, tmp_path: Path) -> None:
    (tmp_path / "upload.zip").write_bytes(zip_bytes(*GOOD))
    with (tmp_path / "upload.zip").open("rb") as f:
        assert unpack(f, store / "bot").kind == "zip"


def test_it_creates_the_parent_of_the_destination(tmp_path: Path) -> None:
    bot = unpack(io.BytesIO(zip_bytes(*GOOD)), tmp_path / "a" / "b" / "v1", filename="x.zip")
    assert (bot.path / "bot.py").is_file()


def test_it_refuses_an_existing_destination_and_leaves_it_alone(store: Path) -> None:
    (store / "bot").mkdir()
    (store / "bot" / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="exists already"):
        unpack(io.BytesIO(zip_bytes(*GOOD)), store / "bot", filename="x.zip")
    assert [p.name for p in store.iterdir()] == ["bot"]
    assert (store / "bot" / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize(
    ("command", "files"),
    [
        ('["./run.sh"]', {"run.sh": b"#!/bin/sh\n"}),
        ('["python3", "-u", "bot.py", "--depth", "3"]', {"bot.py": BOT}),
        ('["python3", "-m", "lowrow.main"]', {"lowrow/__init__.py": b"", "lowrow/main.py": BOT}),
        ('["java", "-jar", "build/bot.jar"]', {"build/bot.jar": b"PK"}),
        ('["java", "-cp", "classes", "Bot"]', {"classes/Bot.class": b"\xca\xfe"}),
    ],
)
def test_it_accepts_commands_that_run_the_bots_own_files(
    store: Path, command: str, files: dict[str, bytes]
) -> None:
    manifest = f'name = "x"\ncommand = {command}\n'.encode()
    data = zip_bytes(("nimmt-bot.toml", manifest), *files.items())
    assert unpack(io.BytesIO(data), store / "bot", filename="x.zip").manifest is not None


# --- malformed uploads ----------------------------------------------------------------------

# (id, upload bytes, file name, limits, reason, fragment of the message)
Case = tuple[str, Callable[[], bytes], str, Limits | None, Reason, str]
SMALL = Limits(max_total_bytes=1 * MiB, max_file_bytes=1 * MiB, max_files=10)

CASES: list[Case] = [
    # names
    ("zip-parent", lambda: zip_bytes(*GOOD, ("../evil.py", b"x")), "b.zip", None,
     Reason.PARENT_REFERENCE, "'../evil.py' has a '..' component"),
    ("zip-parent-inside", lambda: zip_bytes(*GOOD, ("lib/../../evil.py", b"x")), "b.zip", None,
     Reason.PARENT_REFERENCE, "'lib/../../evil.py'"),
    ("zip-absolute", lambda: zip_bytes(*GOOD, ("/etc/cron.d/evil", b"x")), "b.zip", None,
     Reason.ABSOLUTE_PATH, "'/etc/cron.d/evil' is an absolute path"),
    ("zip-drive", lambda: zip_bytes(*GOOD, ("C:/evil.py", b"x")), "b.zip", None,
     Reason.ABSOLUTE_PATH, "'C:/evil.py' is an absolute path"),
    ("zip-backslash", lambda: zip_bytes(*GOOD, ("lib\\evil.py", b"x")), "b.zip", None,
     Reason.BAD_NAME, "contains a backslash"),
    ("zip-nul", lambda: zip_bytes(*GOOD, ("evil#.py", b"x")).replace(b"evil#.py", b"evil\0.py"),
     "b.zip", None, Reason.BAD_NAME, "'evil\\x00.py' contains a NUL byte"),
    ("zip-control", lambda: zip_bytes(*GOOD, ("evil\n.py", b"x")), "b.zip", None,
     Reason.BAD_NAME, "contains a control character"),
    ("zip-duplicate", lambda: zip_bytes(*GOOD, ("bot.py", b"other")), "b.zip", None,
     Reason.DUPLICATE_NAME, "'bot.py' appears twice"),
    ("zip-file-and-folder", lambda: zip_bytes(*GOOD, ("lib", b"x"), ("lib/a.py", b"x")),
     "b.zip", None, Reason.DUPLICATE_NAME, "inside 'lib', which is also a file"),
    ("zip-too-deep", lambda: zip_bytes(*GOOD, ("/".join("d" * 17) + ".py", b"x")), "b.zip",
     None, Reason.TOO_DEEP, "is 17 levels deep; the limit is 16"),
    ("tar-parent", lambda: tar_bytes(*GOOD, ("../evil.py", b"x")), "b.tgz", None,
     Reason.PARENT_REFERENCE, "'../evil.py'"),
    ("tar-absolute", lambda: tar_bytes(*GOOD, ("/tmp/evil.py", b"x")), "b.tgz", None,
     Reason.ABSOLUTE_PATH, "'/tmp/evil.py'"),
    ("tar-duplicate", lambda: tar_bytes(*GOOD, ("./bot.py", b"x")), "b.tgz", None,
     Reason.DUPLICATE_NAME, "'./bot.py' appears twice"),
    # member types
    ("zip-symlink", lambda: zip_bytes(*GOOD, (zip_info("key", 0o120777), "/root/.ssh/id_rsa")),
     "b.zip", None, Reason.LINK, "'key' is a symbolic link"),
    ("zip-fifo", lambda: zip_bytes(*GOOD, (zip_info("pipe", 0o010644), b"")), "b.zip", None,
     Reason.SPECIAL_FILE, "'pipe' is not a regular file or folder"),
    ("zip-encrypted", lambda: set_zip_flag(zip_bytes(*GOOD), 0x1), "b.zip", None,
     Reason.ENCRYPTED, "'nimmt-bot.toml' is encrypted"),
    ("tar-symlink",
     lambda: tar_bytes(*GOOD, tar_info("key", tarfile.SYMTYPE, linkname="/etc/shadow")),
     "b.tgz", None, Reason.LINK, "'key' is a symbolic link to '/etc/shadow'"),
    ("tar-hardlink",
     lambda: tar_bytes(*GOOD, tar_info("copy.py", tarfile.LNKTYPE, linkname="bot.py")),
     "b.tgz", None, Reason.LINK, "'copy.py' is a hard link to 'bot.py'"),
    ("tar-device",
     lambda: tar_bytes(*GOOD, tar_info("null", tarfile.CHRTYPE, devmajor=1, devminor=3)),
     "b.tgz", None, Reason.SPECIAL_FILE, "'null' is a character device"),
    ("tar-block-device", lambda: tar_bytes(*GOOD, tar_info("sda", tarfile.BLKTYPE)), "b.tgz",
     None, Reason.SPECIAL_FILE, "'sda' is a block device"),
    ("tar-fifo", lambda: tar_bytes(*GOOD, tar_info("pipe", tarfile.FIFOTYPE)), "b.tgz", None,
     Reason.SPECIAL_FILE, "'pipe' is a FIFO"),
    # sizes and counts
    ("upload-too-large", lambda: zip_bytes(*GOOD, ("data.bin", os.urandom(4096))), "b.zip",
     Limits(max_upload_bytes=2048), Reason.UPLOAD_TOO_LARGE, "the limit is 2 KiB"),
    ("zip-bomb-one-file", lambda: zip_bytes(*GOOD, ("zeros.bin", bytes(21 * MiB))), "b.zip",
     None, Reason.FILE_TOO_LARGE, "'zeros.bin' declares 21 MiB; the limit per file is 20 MiB"),
    ("zip-bomb-many-files",
     lambda: zip_bytes(*GOOD, *((f"z{i}.bin", bytes(MiB // 2)) for i in range(3))), "b.zip",
     SMALL, Reason.UNPACKED_TOO_LARGE, "declares more than 1 MiB of files (reached at 'z1.bin')"),
    ("tar-bomb-one-file", lambda: tar_bytes(*GOOD, ("zeros.bin", bytes(2 * MiB))), "b.tgz",
     SMALL, Reason.FILE_TOO_LARGE, "'zeros.bin' declares 2 MiB; the limit per file is 1 MiB"),
    ("tar-bomb-many-files",
     lambda: tar_bytes(*GOOD, *((f"z{i}.bin", bytes(MiB // 2)) for i in range(3))), "b.tgz",
     SMALL, Reason.UNPACKED_TOO_LARGE, "declares more than 1 MiB of files (reached at 'z1.bin')"),
    ("tar-bomb-in-a-header",
     lambda: tar_bytes(tar_info("bot.py", tarfile.REGTYPE, pax_headers={"c": "x" * 2 * MiB})),
     "b.tgz", Limits(max_total_bytes=256 * 1024, max_files=10), Reason.UNPACKED_TOO_LARGE,
     "unpacks to more than 256 KiB"),
    ("zip-too-many-files", lambda: zip_bytes(*GOOD, *((f"f{i}.py", b"") for i in range(9))),
     "b.zip", SMALL, Reason.TOO_MANY_FILES, "more than 10 entries"),
    ("tar-too-many-files", lambda: tar_bytes(*GOOD, *((f"f{i}.py", b"") for i in range(9))),
     "b.tgz", SMALL, Reason.TOO_MANY_FILES, "archive member 'f8.py' is one too many"),
    # not archives at all
    ("zip-garbage", lambda: b"this is not a zip", "b.zip", None, Reason.CORRUPT,
     "not a valid zip file"),
    ("tar-truncated", lambda: tar_bytes(*GOOD)[:-40], "b.tgz", None, Reason.CORRUPT,
     "not a valid tar archive"),
    ("zip-bad-crc", lambda: stored_zip(*GOOD).replace(BOT, BOT.upper()), "b.zip", None,
     Reason.CORRUPT, "Cannot read 'bot.py' (Bad CRC-32"),
    # single files
    ("file-empty", lambda: b"", "bot.py", None, Reason.EMPTY, "'bot.py' is empty"),
    ("file-windows-path", lambda: BOT, "C:\\fakepath\\bot.py", None, Reason.BAD_NAME,
     "contains a backslash"),
    ("file-too-large", lambda: bytes(3000), "bot.bin", Limits(max_file_bytes=2000),
     Reason.FILE_TOO_LARGE, "The file 'bot.bin' is 2.9 KiB; the limit per file is 2 KiB"),
    # manifests
    ("no-manifest", lambda: zip_bytes(("bot.py", BOT)), "b.zip", None, Reason.NO_MANIFEST,
     "The archive has no nimmt-bot.toml. Add one"),
    ("empty-zip", lambda: zip_bytes(), "b.zip", None, Reason.NO_MANIFEST, "no nimmt-bot.toml"),
    ("manifest-too-deep", lambda: zip_bytes(*((f"a/b/{n}", d) for n, d in GOOD)), "b.zip", None,
     Reason.NO_MANIFEST, "found at 'a/b/nimmt-bot.toml'"),
    ("manifest-beside-another-folder",
     lambda: zip_bytes(*((f"a/{n}", d) for n, d in GOOD), ("docs/README", b"")), "b.zip", None,
     Reason.NO_MANIFEST, "single top-level folder"),
    ("manifest-not-toml", lambda: zip_bytes(("nimmt-bot.toml", "name = "), ("bot.py", BOT)),
     "b.zip", None, Reason.BAD_MANIFEST, "nimmt-bot.toml: is not valid TOML"),
    ("manifest-without-name",
     lambda: zip_bytes(("nimmt-bot.toml", 'command = ["python3", "bot.py"]'), ("bot.py", BOT)),
     "b.zip", None, Reason.BAD_MANIFEST, "has no 'name'"),
    ("manifest-without-command",
     lambda: zip_bytes(("nimmt-bot.toml", 'name = "x"'), ("bot.py", BOT)), "b.zip", None,
     Reason.BAD_MANIFEST, "has no 'command'"),
    ("manifest-command-missing-file",
     lambda: tar_bytes(("nimmt-bot.toml", b'name = "x"\ncommand = ["python3", "bot.py"]'),
                       ("main.py", BOT)),
     "b.tgz", None, Reason.BAD_MANIFEST,
     "nimmt-bot.toml: 'command' runs 'bot.py', but the bot has no such file (its files: main.py)."),
    ("manifest-too-large",
     lambda: zip_bytes(("nimmt-bot.toml", MANIFEST + "#" * 70_000), ("bot.py", BOT)), "b.zip",
     None, Reason.BAD_MANIFEST, "nimmt-bot.toml: is larger than 64 KiB."),
    ("manifest-not-utf8",
     lambda: zip_bytes(("nimmt-bot.toml", b'name = "caf\xe9"\ncommand = ["bot.py"]'),
                       ("bot.py", BOT)),
     "b.zip", None, Reason.BAD_MANIFEST, "nimmt-bot.toml: is not UTF-8 text"),
    ("manifest-command-parent",
     lambda: zip_bytes(("nimmt-bot.toml", 'name = "x"\ncommand = ["python3", "../x/bot.py"]'),
                       ("bot.py", BOT)),
     "b.zip", None, Reason.BAD_MANIFEST, "('../x/bot.py') leaves the bot's folder with '..'"),
    ("manifest-command-absolute",
     lambda: zip_bytes(("nimmt-bot.toml", 'name = "x"\ncommand = ["python3", "/srv/bot.py"]'),
                       ("bot.py", BOT)),
     "b.zip", None, Reason.BAD_MANIFEST, "('/srv/bot.py') is an absolute path"),
    ("manifest-name-html",
     lambda: zip_bytes(("nimmt-bot.toml", 'name = "<script>x"\ncommand = ["python3", "bot.py"]'),
                       ("bot.py", BOT)),
     "b.zip", None, Reason.BAD_MANIFEST, "'<script>x' is not."),
    ("manifest-name-control",
     lambda: zip_bytes(("nimmt-bot.toml", 'name = "x\\u001b[2J"\ncommand = ["python3", "bot.py"]'),
                       ("bot.py", BOT)),
     "b.zip", None, Reason.BAD_MANIFEST, "'x\\x1b[2J' is not."),
    ("manifest-is-a-link",
     lambda: zip_bytes((zip_info("nimmt-bot.toml", 0o120777), "/etc/passwd"), ("bot.py", BOT)),
     "b.zip", None, Reason.LINK, "'nimmt-bot.toml' is a symbolic link"),
    ("manifest-is-a-folder",
     lambda: zip_bytes(("nimmt-bot.toml/x", b""), ("bot.py", BOT)), "b.zip", None,
     Reason.NO_MANIFEST, "The archive has no nimmt-bot.toml."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("make", "filename", "limits", "reason", "fragment"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_it_refuses_malformed_uploads_and_leaves_nothing_behind(
    store: Path,
    make: Callable[[], bytes],
    filename: str,
    limits: Limits | None,
    reason: Reason,
    fragment: str,
) -> None:
    error = refuse(store, make(), filename, limits)
    assert error.reason == reason, str(error)
    assert fragment in str(error)


def test_it_names_the_offending_member(store: Path) -> None:
    error = refuse(store, zip_bytes(*GOOD, ("../evil.py", b"x")), "b.zip")
    assert error.member == "../evil.py"
    assert str(error) == (
        "Archive member '../evil.py' has a '..' component; paths must stay inside the bot's folder."
    )


def test_it_checks_every_zip_header_before_writing_anything(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The symlink comes last: nothing may have been opened for reading before it is seen.
    data = zip_bytes(*GOOD, (zip_info("key", 0o120777), "/x"))
    opened: list[str] = []
    real_open = zipfile.ZipFile.open

    def spy(self: zipfile.ZipFile, name: object, *args: object, **kwargs: object) -> object:
        opened.append(str(name))
        return real_open(self, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    error = refuse(store, data, "b.zip")
    assert error.reason == Reason.LINK
    assert opened == []


@pytest.mark.parametrize(
    ("members", "reason", "fragment"),
    [
        ([("big.bin", bytes(1000)), *GOOD], Reason.FILE_TOO_LARGE, "'big.bin' unpacks to more"),
        (GOOD, Reason.CORRUPT, "unpacks to more than the"),
    ],
    ids=["past-the-file-limit", "past-its-declared-size"],
)
def test_it_counts_the_bytes_instead_of_trusting_the_headers(
    store: Path,
    monkeypatch: pytest.MonkeyPatch,
    members: list[tuple[str, bytes]],
    reason: Reason,
    fragment: str,
) -> None:
    # A zip reader that, like a crafted archive, yields far more than the header declares.
    real_read = zipfile.ZipExtFile.read

    def inflating_read(self: zipfile.ZipExtFile, n: int | None = -1) -> bytes:
        return real_read(self, n) * 100

    monkeypatch.setattr(zipfile.ZipExtFile, "read", inflating_read)
    error = refuse(store, zip_bytes(*members), "b.zip", Limits(max_file_bytes=10_000))
    assert error.reason == reason, str(error)
    assert fragment in str(error)


# --- the manifest, read by the runner's reader -------------------------------------------


def test_a_manifest_problem_names_the_manifest_but_no_path_of_the_machine(store: Path) -> None:
    data = tar_bytes(("my-bot/nimmt-bot.toml", b'name = "x"\ncommand = ["python3", "bot.py"]'),
                     ("my-bot/main.py", BOT))  # fmt: skip
    error = refuse(store, data, "b.tgz")
    assert error.member == "nimmt-bot.toml"
    assert str(error) == (
        "nimmt-bot.toml: 'command' runs 'bot.py', but the bot has no such file "
        "(its files: main.py)."
    )


def test_the_manifest_of_an_upload_is_the_runners_program(store: Path) -> None:
    bot = unpack(io.BytesIO(zip_bytes(*GOOD)), store / "bot", filename="b.zip")
    assert bot.manifest == check_manifest(store / "bot")
    assert bot.manifest is not None and bot.manifest.directory == (store / "bot").resolve()


def test_check_manifest_reads_a_folder_written_by_the_site(store: Path) -> None:
    (store / "bot.py").write_bytes(BOT)
    (store / "nimmt-bot.toml").write_text('name = "x"\ncommand = ["python3", "bot.py"]\n')
    assert check_manifest(store).command == ("python3", "bot.py")
    (store / "nimmt-bot.toml").write_text('name = "x"\ncommand = ["python3", "-bot.py"]\n')
    with pytest.raises(UnpackError) as caught:
        check_manifest(store)
    assert caught.value.reason == Reason.BAD_MANIFEST
    assert str(store) not in str(caught.value)


def test_it_rejects_nonsense_limits() -> None:
    with pytest.raises(ValueError, match=r"^Limits: max_total_bytes must be a positive int"):
        Limits(max_total_bytes=0)
    with pytest.raises(ValueError, match=r"^Limits: max_depth must be >= 2, not 1\.$"):
        Limits(max_depth=1)
