"""Bots with a build on the site: built once per version by a real worker, in the sandbox, the
build log on the owner's version page, matches run what the build made; a broken build shows
the compiler's output, a build that reaches for the network says it has none."""

import shutil
from pathlib import Path

import pytest
from core import storage
from django.test import Client
from django.urls import reverse
from matches.models import Match
from nimmt_site_testing import (
    CeleryProcess,
    basic_ladder,
    make_user,
    program_bot,
    wait_for,
    zip_upload,
)
from submissions import builds
from submissions.models import Bot, BotVersion

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        shutil.which("go") is None
        or not Path("/usr/share/gocode/src/google.golang.org/grpc").is_dir(),
        reason="Go and Debian's Go gRPC are not installed (./dev installs them)",
    ),
]

GO_STARTER = Path(__file__).resolve().parents[2] / "bots" / "starter-go"


def folder_files(folder: Path) -> dict[str, bytes]:
    """Every file of a bot folder, by its path inside it (without a local build's ``bot``)."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.relative_to(folder).as_posix() != "bot"
    }


def go_bot(main: str) -> dict[str, bytes]:
    manifest = 'name = "tiny"\ncommand = ["./bot"]\nbuild = ["go", "build", "-o", "bot", "."]\n'
    go_mod = b"module tiny\n\ngo 1.19\n"
    return {"nimmt-bot.toml": manifest.encode(), "main.go": main.encode(), "go.mod": go_mod}


def verdict(bot: Bot, timeout: float) -> BotVersion:
    return wait_for(
        f"the verdict on {bot.name}",
        lambda: BotVersion.objects.filter(bot=bot, status__in=["passed", "failed"]).first(),
        timeout=timeout,
    )


@pytest.mark.slow
def test_an_uploaded_go_starter_is_built_validated_and_plays(
    client: Client, celery_worker: CeleryProcess, celery_beat: CeleryProcess
) -> None:
    ladder = basic_ladder(players=2)
    program_bot("house-a")
    alice = make_user("alice")
    client.force_login(alice)
    upload = zip_upload(folder_files(GO_STARTER), "starter-go.zip")
    response = client.post(reverse("new-bot"), {"name": "gopher", "file": upload})
    assert response.status_code == 302, response.content
    bot = Bot.objects.get(name="gopher")

    version = verdict(bot, timeout=900)  # a cold Go build of gRPC takes minutes on a busy box
    assert version.status == "passed", version.validation_log
    assert "ok   build: `sh build.sh` built in" in version.validation_log
    assert version.manifest["build"] == ["sh", "build.sh"]
    built = builds.run_dir(version)
    assert built == storage.cache_root() / version.build_sha256  # the kept build, unpacked
    assert (built / "bot").is_file()
    assert "build" not in (built / "nimmt-bot.toml").read_text()

    page = client.get(version.get_absolute_url()).content.decode()
    assert "Build log" in page and "sh build.sh" in page
    bob = make_user("bob")
    client.force_login(bob)
    assert "Build log" not in client.get(version.get_absolute_url()).content.decode()

    match = wait_for(
        "gopher to finish a ladder match",
        lambda: Match.objects.filter(ladder=ladder, status=Match.FINISHED, seats__bot=bot).first(),
        timeout=300,
    )
    seat = match.seats.get(bot=bot)
    assert seat.faults == [], seat.faults


def test_a_broken_build_shows_its_owner_the_compilers_output(
    client: Client, celery_worker: CeleryProcess
) -> None:
    alice = make_user("alice")
    client.force_login(alice)
    upload = zip_upload(go_bot("package main\n\nfunc main() {\n\tnoSuchFunction()\n}\n"))
    assert client.post(reverse("new-bot"), {"name": "broken", "file": upload}).status_code == 302
    version = verdict(Bot.objects.get(name="broken"), timeout=300)
    assert version.status == "failed"
    assert "FAIL build: `go build -o bot .` failed: it exited with status 2" in (
        version.validation_log
    )
    assert "undefined: noSuchFunction" in version.validation_log
    page = client.get(version.get_absolute_url()).content.decode()
    assert "Build log" in page and "./main.go:4:2: undefined: noSuchFunction" in page
    assert version.build_dir and not version.build_sha256  # its log kept, nothing built


def test_a_build_that_reaches_for_the_network_says_it_has_none(
    client: Client, celery_worker: CeleryProcess
) -> None:
    alice = make_user("alice")
    client.force_login(alice)
    files = go_bot(
        'package main\n\nimport "github.com/pkg/errors"\n\nfunc main() { _ = errors.New("x") }\n'
    )
    files["go.mod"] = b"module tiny\n\ngo 1.19\n\nrequire github.com/pkg/errors v0.9.1\n"
    files["go.sum"] = (
        b"github.com/pkg/errors v0.9.1 h1:FEBLx1zS214owpjy7qsBeixbURkuhQAwrK5UwLGTwt4=\n"
        b"github.com/pkg/errors v0.9.1/go.mod h1:bwawxfHBFNV+L2hUp1rHADufV3IMtnDRdf1r5NINEl0=\n"
    )
    assert (
        client.post(reverse("new-bot"), {"name": "online", "file": zip_upload(files)}).status_code
        == 302
    )
    version = verdict(Bot.objects.get(name="online"), timeout=300)
    assert version.status == "failed"
    assert "the build has no network: vendor your dependencies" in version.validation_log
