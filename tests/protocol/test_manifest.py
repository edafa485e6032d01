"""Reading nimmt-bot.toml: every mistake is a ManifestError saying what to fix."""

import pytest

from arena.runner.manifest import HOUSE_BOTS, ManifestError, house_program, load


def bot_folder(tmp_path, manifest, files=("bot.py",)):
    folder = tmp_path / "my bot"
    folder.mkdir()
    for name in files:
        (folder / name).write_text("")
    if manifest is not None:
        (folder / "nimmt-bot.toml").write_text(manifest)
    return folder


def test_it_reads_a_manifest(tmp_path):
    folder = bot_folder(
        tmp_path, 'name = "lowball"\ncommand = ["python3", "bot.py"]\nlanguage = "python"\n'
    )
    program = load(folder)
    assert (program.name, program.command, program.language) == (
        "lowball",
        ("python3", "bot.py"),
        "python",
    )
    assert program.directory == folder.resolve()


@pytest.mark.parametrize(
    ("manifest", "words"),
    [
        (None, 'no manifest; create it with at least\n  name = "my-bot"'),
        ("name = ", "not valid TOML"),
        ('name = "x"\ncomand = ["a"]\n', "unknown key 'comand' (did you mean 'command'?)"),
        ('name = "a b"\ncommand = ["python3", "bot.py"]\n', "'name' must be a string"),
        ('name = "x"\ncommand = "python3 bot.py"\n', "'command' must be a non-empty list"),
        ('name = "x"\ncommand = []\n', "'command' must be a non-empty list"),
        ('name = "x"\ncommand = ["python3", "main.py"]\n', "runs 'main.py', but"),
        ('name = "x"\ncommand = ["./run"]\n', "runs './run', but"),
        ('name = "x"\ncommand = ["python3", "bot.py"]\nlanguage = 3\n', "'language' must be"),
    ],
)
def test_it_explains_what_is_wrong(tmp_path, manifest, words):
    folder = bot_folder(tmp_path, manifest)
    with pytest.raises(ManifestError) as error:
        load(folder)
    assert words in str(error.value)
    assert str(folder) in str(error.value)


def test_it_says_when_the_folder_does_not_exist(tmp_path):
    with pytest.raises(ManifestError, match="not a folder"):
        load(tmp_path / "missing")


@pytest.mark.parametrize("name", HOUSE_BOTS)
def test_it_ships_every_house_bot_as_a_program(name):
    program = house_program(name)
    assert program.name == name
    assert program.command == ("python3", "bot.py")


def test_it_names_the_house_bots_when_asked_for_another():
    with pytest.raises(ManifestError, match="house bots: random, heuristic, mcs"):
        house_program("alphazero")
