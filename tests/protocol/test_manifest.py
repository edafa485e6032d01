"""Reading nimmt-bot.toml: every mistake is a ManifestError saying what to fix, in words that
name the file but no other path of the machine (the site shows them to whoever uploaded)."""

import json
import os

import pytest

from arena.runner.manifest import (
    HOUSE_BOTS,
    MAX_MANIFEST_BYTES,
    ManifestError,
    house_program,
    load,
)


def bot_folder(tmp_path, manifest, files=("bot.py", "lib/util.py")):
    folder = tmp_path / "my bot"
    folder.mkdir()
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("")
    if manifest is not None:
        path = folder / "nimmt-bot.toml"
        path.write_bytes(manifest if isinstance(manifest, bytes) else manifest.encode())
    return folder


def problem(folder):
    with pytest.raises(ManifestError) as caught:
        load(folder)
    error = caught.value
    assert str(folder) not in error.problem, "the problem alone must not name the folder"
    assert str(error) == f"{error.where}: {error.problem}"
    return error


def test_it_reads_a_manifest(tmp_path):
    folder = bot_folder(
        tmp_path,
        'name = "lowball"\ncommand = ["python3", "bot.py"]\nlanguage = "python"\n'
        'description = "plays low\\nand slow"\n',
    )
    program = load(folder)
    assert (program.name, program.command, program.language, program.description) == (
        "lowball",
        ("python3", "bot.py"),
        "python",
        "plays low\nand slow",
    )
    assert program.directory == folder.resolve()


@pytest.mark.parametrize(
    ("command", "files"),
    [
        ('["./run.sh"]', ["run.sh"]),
        ('["python3", "-u", "bot.py", "--depth", "3"]', ["bot.py"]),
        ('["python3", "-m", "lowrow.main"]', ["lowrow/__init__.py", "lowrow/main.py"]),
        ('["python3", "-m", "lowrow"]', ["lowrow/__init__.py", "lowrow/__main__.py"]),
        ('["java", "-jar", "build/bot.jar"]', ["build/bot.jar"]),
        ('["java", "-cp", "classes", "Bot"]', ["classes/Bot.class"]),
        ('["node", "./src/bot.js"]', ["src/bot.js"]),
    ],
)
def test_it_accepts_commands_that_run_the_bots_own_files(tmp_path, command, files):
    folder = bot_folder(tmp_path, f'name = "x"\ncommand = {command}\n', files)
    assert load(folder).command == tuple(json.loads(command))


@pytest.mark.parametrize(
    ("manifest", "words"),
    [
        (None, 'no manifest; create it with at least\n  name = "my-bot"'),
        ("name = ", "is not valid TOML: "),
        (b"name = '\xff'", "is not UTF-8 text (invalid start byte at byte 8)."),
        ('name = "x"\ncomand = ["a"]\n',
         "unknown key 'comand' (did you mean 'command'?); the keys are name, command, "),
        ('command = ["python3", "bot.py"]', "has no 'name': add a line like name = \"my-bot\"."),
        ('name = 3\ncommand = ["bot.py"]', "'name' must be a string, not an integer."),
        ('name = "  "\ncommand = ["bot.py"]', "'name' must not be empty."),
        ('name = "a b"\ncommand = ["python3", "bot.py"]', "'name' must be 1 to 40 letters"),
        ('name = "<b>x</b>"\ncommand = ["bot.py"]', "'<b>x</b>' is not."),
        ('name = "x\\u0007y"\ncommand = ["bot.py"]', "'x\\x07y' is not."),
        (f'name = "{"n" * 41}"\ncommand = ["bot.py"]', "'name' must be 1 to 40 letters"),
        ('name = "x"', 'has no \'command\': add a line like command = ["python3", "bot.py"].'),
        ('name = "x"\ncommand = "python3 bot.py"\n',
         "not a single string: split it into its words"),
        ('name = "x"\ncommand = {a = 1}', "'command' must be a list of strings like"),
        ('name = "x"\ncommand = []\n', "'command' must not be empty"),
        ('name = "x"\ncommand = ["python3", 3]',
         "'command' item 2 must be a string, not an integer"),
        ('name = "x"\ncommand = ["python3", ""]', "'command' item 2 must not be empty"),
        ('name = "x"\ncommand = ["python3", "bot\\u0000.py"]',
         "'command' item 2 ('bot\\x00.py') contains a control character."),
        ('name = "x"\ncommand = ["python3", "main.py"]\n',
         "'command' runs 'main.py', but the bot has no such file "
         "(its files: bot.py, lib/util.py)."),
        ('name = "x"\ncommand = ["python3", "bot.py", "helper.py"]\n', "runs 'helper.py', but"),
        ('name = "x"\ncommand = ["./run"]\n', "'command' runs './run', but the bot has no such"),
        ('name = "x"\ncommand = ["bin/run"]\n', "'command' runs 'bin/run', but"),
        ('name = "x"\ncommand = ["python3", "-m", "other"]', "'command' names 'other', but"),
        ('name = "x"\ncommand = ["java", "Main", "Other"]', "names 'Main', 'Other', but the bot "
         "has no such files"),
        ('name = "x"\ncommand = ["python3", "-u"]',
         "names no file of the bot; name the file to run"),
        ('name = "x"\ncommand = ["python3", "../other/bot.py"]',
         "'command' item 2 ('../other/bot.py') leaves the bot's folder with '..'"),
        ('name = "x"\ncommand = ["python3", "lib/../../bot.py"]', "leaves the bot's folder"),
        ('name = "x"\ncommand = ["python3", "--path=../x", "bot.py"]', "leaves the bot's folder"),
        ('name = "x"\ncommand = ["/usr/bin/python3", "bot.py"]',
         "'command' item 1 ('/usr/bin/python3') is an absolute path; name a program"),
        ('name = "x"\ncommand = ["python3", "/etc/passwd"]',
         "item 2 ('/etc/passwd') is an absolute"),
        ('name = "x"\ncommand = ["python3", "bot.py"]\nlanguage = 3\n',
         "'language' must be a string, not an integer."),
        ('name = "x"\ncommand = ["python3", "bot.py"]\nlanguage = "py\\u001b[31m"\n',
         "'language' contains a control character."),
        ('name = "x"\ncommand = ["python3", "bot.py"]\ndescription = "safe\\u202eexe.py"\n',
         "'description' contains a control character."),
        ('name = "x"\ncommand = ["python3", "bot\\u0085.py"]',
         "'command' item 2 ('bot\\x85.py') contains a control character."),
        (f'name = "x"\ncommand = ["python3", "bot.py"]\ndescription = "{"d" * 1001}"\n',
         "'description' must be at most 1000 characters long."),
        (" " * (MAX_MANIFEST_BYTES + 1), "is larger than 64 KiB."),
        ("name = " + "[" * 5000 + "]" * 5000, "arrays or tables nested too deeply."),
        ('name = "x"\ncommand = ["bot.py"]\nlanguage = {a = ' + "{b = " * 600 + "1" + "}" * 601,
         "arrays or tables nested too deeply."),
        ("name = " + "9" * 5000, "is not valid TOML: Exceeds the limit (4300 digits)"),
    ],
)  # fmt: skip
def test_it_explains_what_is_wrong(tmp_path, manifest, words):
    folder = bot_folder(tmp_path, manifest)
    error = problem(folder)
    assert words in error.problem
    assert str(folder) in str(error)  # the runner's own messages say where


def test_it_says_when_the_folder_does_not_exist(tmp_path):
    with pytest.raises(ManifestError, match="not a folder"):
        load(tmp_path / "missing")


def test_it_cuts_a_long_hostile_value_short_in_its_message(tmp_path):
    folder = bot_folder(tmp_path, f'name = "{"<" * 5000}"\ncommand = ["bot.py"]\n')
    error = problem(folder)
    assert len(error.problem) < 200
    assert "'<<<<<" in error.problem and "..." in error.problem


def test_a_manifest_that_is_a_link_is_refused_unread(tmp_path):
    folder = bot_folder(tmp_path, None)
    (folder / "nimmt-bot.toml").symlink_to("/dev/zero")  # would never end if read
    assert "is a symbolic link" in problem(folder).problem


def test_a_manifest_that_is_a_fifo_is_refused_without_blocking(tmp_path):
    folder = bot_folder(tmp_path, None)
    os.mkfifo(folder / "nimmt-bot.toml")
    assert problem(folder).problem == "is not a regular file."


def test_a_command_cannot_run_a_file_outside_the_folder_through_a_link(tmp_path):
    outside = tmp_path / "secret.py"
    outside.write_text("print('not yours')\n")
    folder = bot_folder(tmp_path, 'name = "x"\ncommand = ["python3", "bot.py"]\n', files=())
    (folder / "bot.py").symlink_to(outside)
    error = problem(folder)
    assert error.problem == (
        "'command' runs 'bot.py', which is a link to outside the bot's folder; "
        "a bot runs only its own files."
    )
    assert str(tmp_path) not in error.problem


def test_a_link_inside_the_folder_is_fine(tmp_path):
    folder = bot_folder(tmp_path, 'name = "x"\ncommand = ["python3", "main.py"]\n')
    (folder / "main.py").symlink_to("bot.py")
    assert load(folder).command == ("python3", "main.py")


def test_it_takes_a_byte_order_mark(tmp_path):
    folder = bot_folder(tmp_path, b'\xef\xbb\xbfname = "x"\ncommand = ["python3", "bot.py"]\n')
    assert load(folder).name == "x"


@pytest.mark.parametrize("name", HOUSE_BOTS)
def test_it_ships_every_house_bot_as_a_program(name):
    program = house_program(name)
    assert program.name == name
    assert program.command == ("python3", "bot.py")


def test_it_names_the_house_bots_when_asked_for_another():
    with pytest.raises(ManifestError, match="house bots: random, heuristic, mcs"):
        house_program("alphazero")
