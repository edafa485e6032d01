"""A bot program's manifest, ``nimmt-bot.toml`` in the bot's folder, and the house bot programs.

::

    name = "lowball"                 # required: letters, digits, - _ . (at most 40)
    command = ["python3", "bot.py"]  # required: run in the bot's folder; python3 is the arena's
    language = "python"              # optional, informational
    description = "plays its lowest tile"   # optional

Every problem is a :class:`ManifestError` whose message names the file and says what to fix.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "bot.py").write_text("")
>>> _ = (folder / "nimmt-bot.toml").write_text('name = "x"\\ncommand = ["python3", "bot.py"]\\n')
>>> load(folder).command
('python3', 'bot.py')
>>> _ = (folder / "nimmt-bot.toml").write_text('name = "x"\\ncomand = ["python3", "bot.py"]\\n')
>>> try:
...     load(folder)
... except ManifestError as exc:
...     print(str(exc).split(": ", 1)[1])
unknown key 'comand' (did you mean 'command'?); the keys are name, command, language, description
"""

import difflib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import arena

MANIFEST = "nimmt-bot.toml"
#: The house bots that ship as programs in the project's ``bots/`` folder.
HOUSE_BOTS = ("random", "heuristic", "mcs")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,39}\Z")
_KEYS = ("name", "command", "language", "description")
# Arguments that look like source files must exist in the bot's folder (a typo caught early).
_SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".jar", ".rb", ".pl", ".sh", ".lua", ".php")


class ManifestError(ValueError):
    """A bot folder whose manifest is missing or wrong; the message says what to fix."""


@dataclass(frozen=True)
class BotProgram:
    """A bot that runs as a program: its folder and what its manifest says."""

    name: str
    command: tuple[str, ...]
    directory: Path
    language: str = ""
    description: str = ""


def load(directory: str | Path) -> BotProgram:
    """Read and check ``directory/nimmt-bot.toml``."""
    folder = Path(directory)
    if not folder.is_dir():
        raise ManifestError(f"{folder}: not a folder; a bot is a folder with a {MANIFEST}")
    path = folder / MANIFEST
    if not path.is_file():
        raise ManifestError(
            f"{path}: no manifest; create it with at least\n"
            f'  name = "{_suggest_name(folder)}"\n'
            '  command = ["python3", "bot.py"]'
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ManifestError(f"{path}: not UTF-8 text ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: not valid TOML: {exc}") from None
    for key in data:
        if key not in _KEYS:
            close = difflib.get_close_matches(key, _KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ManifestError(
                f"{path}: unknown key {key!r}{hint}; the keys are {', '.join(_KEYS)}"
            )
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ManifestError(
            f"{path}: 'name' must be a string of 1 to 40 letters, digits, '-', '_' or '.' "
            f"starting with a letter or digit; got {name!r}"
        )
    command = data.get("command")
    if (
        not isinstance(command, list)
        or not command
        or not all(isinstance(part, str) and part for part in command)
    ):
        raise ManifestError(
            f"{path}: 'command' must be a non-empty list of non-empty strings, e.g. "
            f'["python3", "bot.py"]; got {command!r}'
        )
    for part in command:
        if part.startswith("-"):
            continue
        looks_like_file = part.endswith(_SOURCE_SUFFIXES) or part.startswith("./")
        if looks_like_file and not (folder / part).is_file():
            raise ManifestError(f"{path}: the command runs {part!r}, but {folder} has no such file")
    for key in ("language", "description"):
        if not isinstance(data.get(key, ""), str):
            raise ManifestError(f"{path}: {key!r} must be a string")
    return BotProgram(
        name=name,
        command=tuple(command),
        directory=folder.resolve(),
        language=data.get("language", ""),
        description=data.get("description", ""),
    )


def _suggest_name(folder: Path) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_.\-]", "-", folder.resolve().name).strip("-.")
    return cleaned[:40] or "my-bot"


def house_dir(name: str) -> Path:
    """The folder of house bot ``name`` (``bots/<name>/`` in the project)."""
    return Path(arena.__file__).resolve().parent.parent / "bots" / name


def house_program(name: str) -> BotProgram:
    """The program of house bot ``name``, read from its manifest."""
    if name not in HOUSE_BOTS:
        raise ManifestError(f"no house bot {name!r}; house bots: {', '.join(HOUSE_BOTS)}")
    folder = house_dir(name)
    if not folder.is_dir():
        raise ManifestError(
            f"house bot {name!r}: {folder} is missing (the house bot programs ship in the "
            "project's bots/ folder; run from a checkout)"
        )
    return load(folder)
