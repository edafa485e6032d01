"""The bot's token reaches the bot through a file only it can read, never through a command line
or an environment, which any local process can read in ``/proc``."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import pytest

from arena.sandbox import launch

from .conftest import MakeBot
from .support import run_to_end, wait_for


def _processes_showing(secret: bytes) -> list[str]:
    """Every ``/proc/<pid>/cmdline`` or ``environ`` on the machine that contains ``secret``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        for name in ("cmdline", "environ"):
            try:
                if secret in (entry / name).read_bytes():
                    found.append(f"{entry}/{name}")
            except OSError:  # gone meanwhile
                pass
    return found


@pytest.mark.parametrize("sandbox", [True, False], ids=["sandboxed", "unsandboxed"])
def test_a_running_bot_has_its_token_but_no_process_list_shows_it(
    make_bot: MakeBot, sandbox: bool
) -> None:
    token = secrets.token_urlsafe(24)
    bot = launch(make_bot("token_holder", token=token, sandbox=sandbox))
    try:
        assert wait_for(lambda: "token: " in bot.log_text()), bot.log_text()

        assert f"token: {token}" in bot.log_text()
        assert _processes_showing(token.encode()) == []
    finally:
        bot.kill()


def test_a_token_given_in_the_environment_is_handed_over_as_a_file(make_bot: MakeBot) -> None:
    token = secrets.token_urlsafe(24)
    bot = launch(make_bot("token_holder", env={"NIMMT_TOKEN": token}))
    try:
        assert wait_for(lambda: "token: " in bot.log_text()), bot.log_text()

        assert f"token: {token}" in bot.log_text()
        assert _processes_showing(token.encode()) == []
    finally:
        bot.kill()


def test_the_token_file_is_the_bots_alone_and_read_only(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("whoami", token="s3cret"))

    report = json.loads(done.log)
    assert report["token"] == "s3cret"
    assert report["token_mode"] == "0o400"
    assert report["token_owner"] == done.uid
    assert os.path.exists("/run/nimmt/token") is False  # inside the sandbox only
