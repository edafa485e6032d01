"""A bot program's manifest, ``nimmt-bot.toml`` in the bot's folder, and the house bot programs.

::

    name = "lowball"                 # required: letters, digits, - _ . (at most 40)
    command = ["python3", "bot.py"]  # required: run in the bot's folder; python3 is the arena's
    language = "python"              # optional, informational
    description = "plays its lowest tile"   # optional
    build = ["sh", "build.sh"]       # optional: run once in a copy of the folder, before `command`

A bot with a ``build`` is built before it plays: the command runs in the bot's folder in the
sandbox (no network, time and memory limits; :mod:`arena.runner.build`) and what it leaves
in the folder is the bot that plays (``command = ["./bot"]`` after ``go build -o bot``). The
files its ``command`` names need only exist after the build, where they are checked
(:func:`check_command`).

This is the one reader of manifests: the runner reads a bot folder with :func:`load`, and the
site calls it on every upload once unpacked, so both refuse the same things with the same words.
Every problem is a :class:`ManifestError`; its :attr:`~ManifestError.problem` says what to fix
without naming any path of this machine, and ``str(error)`` puts the file in front.

The command must run something of the bot's own: its first word is a file of the bot
(``["./run.sh"]``), or a later word names a file or folder of the bot (``["python3", "bot.py"]``,
``["java", "-jar", "bot.jar"]``, ``["python3", "-m", "mybot"]``); every word that looks like a
source file must be one of the bot's. No word may leave the bot's folder: no ``..``, no absolute
paths, no link to a file outside it.

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
...     print(exc.problem)  # doctest: +ELLIPSIS
unknown key 'comand' (did you mean 'command'?); the keys are name, command, language, ...

A built bot's command names a file the build makes; it is checked after the build:

>>> built = 'name = "x"\\ncommand = ["./bot"]\\nbuild = ["go", "build", "-o", "bot", "."]\\n'
>>> _ = (folder / "nimmt-bot.toml").write_text(built)
>>> load(folder).build
('go', 'build', '-o', 'bot', '.')
"""

import difflib
import itertools
import os
import re
import stat
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import arena

MANIFEST = "nimmt-bot.toml"
#: A manifest is a few lines; a larger file is refused before it is parsed.
MAX_MANIFEST_BYTES = 64 * 1024
#: The house bots that ship as programs in the project's ``bots/`` folder.
HOUSE_BOTS = ("random", "heuristic", "mcs", "search")
MAX_LANGUAGE_CHARS = 40
MAX_DESCRIPTION_CHARS = 1000
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,39}\Z")
_KEYS = ("name", "command", "language", "description", "build")
_EXAMPLE = '["python3", "bot.py"]'
_BUILD_EXAMPLE = '["sh", "build.sh"]'
# Arguments that look like source files must exist in the bot's folder (a typo caught early).
_SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".jar", ".rb", ".pl", ".sh", ".lua", ".php")
# Control characters (C0, DEL, C1) and the bidirectional overrides that make text read other
# than it is; newlines and tabs are allowed in a description only.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROL_BUT_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_TOML_TYPES = {
    bool: "a boolean",
    int: "an integer",
    float: "a float",
    str: "a string",
    list: "an array",
    dict: "a table",
}


class ManifestError(ValueError):
    """A bot folder whose manifest is missing or wrong; the message says what to fix.

    ``problem`` is the message alone, safe to show to whoever uploaded the bot; ``where`` is
    the file or folder it is about (``None`` if none), which ``str(error)`` puts in front.

    >>> error = ManifestError("'name' must not be empty.", "bots/x/nimmt-bot.toml")
    >>> str(error), error.problem
    ("bots/x/nimmt-bot.toml: 'name' must not be empty.", "'name' must not be empty.")
    """

    def __init__(self, problem: str, where: str | os.PathLike[str] | None = None) -> None:
        super().__init__(f"{os.fspath(where)}: {problem}" if where is not None else problem)
        self.problem = problem
        self.where = where


@dataclass(frozen=True)
class BotProgram:
    """A bot that runs as a program: its folder and what its manifest says.

    ``build`` is empty for a bot that runs as it is (and for a built one: the artefact's
    manifest has no ``build`` left, see :mod:`arena.runner.build`).
    """

    name: str
    command: tuple[str, ...]
    directory: Path
    language: str = ""
    description: str = ""
    build: tuple[str, ...] = ()


def load(directory: str | os.PathLike[str]) -> BotProgram:
    """Read and check ``directory/nimmt-bot.toml``; :class:`ManifestError` if anything is wrong."""
    folder = Path(directory)
    if not folder.is_dir():
        raise ManifestError(f"not a folder; a bot is a folder with a {MANIFEST}.", folder)
    path = folder / MANIFEST
    text = _read(path, folder)
    try:
        data = tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer of thousands of digits
        raise ManifestError(f"is not valid TOML: {exc}.", path) from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        raise ManifestError(
            "is not valid TOML: arrays or tables nested too deeply.", path
        ) from None
    return _program(data, folder.resolve(), path)


def _read(path: Path, folder: Path) -> str:
    """The manifest's text: a regular file of the folder (no link, FIFO or device), bounded."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise ManifestError(
            "no manifest; create it with at least\n"
            f'  name = "{_suggest_name(folder)}"\n'
            f"  command = {_EXAMPLE}",
            path,
        ) from None
    except OSError as exc:
        if path.is_symlink():
            raise ManifestError(
                "is a symbolic link; the manifest must be a file of the bot's own.", path
            ) from None
        raise ManifestError(f"cannot be read ({exc.strerror}).", path) from None
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise ManifestError("is not a regular file.", path)
        data = file.read(MAX_MANIFEST_BYTES + 1)
    if len(data) > MAX_MANIFEST_BYTES:
        raise ManifestError(f"is larger than {MAX_MANIFEST_BYTES // 1024} KiB.", path)
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a byte order mark is harmless
    except UnicodeDecodeError as exc:
        raise ManifestError(
            f"is not UTF-8 text ({exc.reason} at byte {exc.start}).", path
        ) from None


def _toml_type(value: object) -> str:
    return _TOML_TYPES.get(type(value), "a date or time")


def _shown(text: str, most: int = 50) -> str:
    """``repr(text)``, cut short: a message never echoes a whole hostile value."""
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


def _program(data: dict[str, object], folder: Path, path: Path) -> BotProgram:
    def wrong(problem: str) -> ManifestError:
        return ManifestError(problem, path)

    for key in data:
        if key not in _KEYS:
            close = difflib.get_close_matches(key, _KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise wrong(f"unknown key {_shown(key)}{hint}; the keys are {', '.join(_KEYS)}.")

    if "name" not in data:
        raise wrong("has no 'name': add a line like name = \"my-bot\".")
    name = data["name"]
    if not isinstance(name, str):
        raise wrong(f"'name' must be a string, not {_toml_type(name)}.")
    if not name.strip():
        raise wrong("'name' must not be empty.")
    if not _NAME.match(name):
        raise wrong(
            "'name' must be 1 to 40 letters, digits, '-', '_' or '.', starting with a letter "
            f"or digit; {_shown(name)} is not."
        )

    if "command" not in data:
        raise wrong(f"has no 'command': add a line like command = {_EXAMPLE}.")
    words = _words("command", data["command"], _EXAMPLE, wrong)
    build: list[str] = []
    if "build" in data:
        build = _words("build", data["build"], _BUILD_EXAMPLE, wrong)
        _check_files_exist("build", build, folder, wrong)
    else:  # a built bot's command is checked in the built folder
        _check_command_runs_the_bot(words, folder, wrong)

    extras: dict[str, str] = {}
    for key, most, control in (
        ("language", MAX_LANGUAGE_CHARS, _CONTROL),
        ("description", MAX_DESCRIPTION_CHARS, _CONTROL_BUT_LINES),
    ):
        value = data.get(key, "")
        if not isinstance(value, str):
            raise wrong(f"{key!r} must be a string, not {_toml_type(value)}.")
        if len(value) > most:
            raise wrong(f"{key!r} must be at most {most} characters long.")
        if control.search(value):
            raise wrong(f"{key!r} contains a control character.")
        extras[key] = value
    return BotProgram(
        name, tuple(words), folder, extras["language"], extras["description"], tuple(build)
    )


def _words(
    key: str, value: object, example: str, wrong: Callable[[str], ManifestError]
) -> list[str]:
    """The words of ``command`` or ``build``: a non-empty list of strings that stay inside the
    bot's folder."""
    if isinstance(value, str):
        raise wrong(
            f"{key!r} must be a list of strings like {example}, not a single string: "
            "split it into its words."
        )
    if not isinstance(value, list):
        raise wrong(f"{key!r} must be a list of strings like {example}, not {_toml_type(value)}.")
    if not value:
        raise wrong(f"{key!r} must not be empty; for example {example}.")
    words: list[str] = []
    for number, word in enumerate(value, start=1):
        if not isinstance(word, str):
            raise wrong(f"{key!r} item {number} must be a string, not {_toml_type(word)}.")
        if not word:
            raise wrong(f"{key!r} item {number} must not be empty.")
        if _CONTROL.search(word):
            raise wrong(f"{key!r} item {number} ({_shown(word)}) contains a control character.")
        if ".." in re.split(r"[/=:]", word):
            raise wrong(
                f"{key!r} item {number} ({_shown(word)}) leaves the bot's folder with '..'; "
                "name the bot's files by their path inside its folder."
            )
        if word.startswith("/"):
            raise wrong(
                f"{key!r} item {number} ({_shown(word)}) is an absolute path; name a program "
                "(python3, node, java, go) for the arena to find, and the bot's files by their "
                "path inside its folder."
            )
        words.append(word)
    return words


def check_command(program: BotProgram) -> None:
    """Check that ``program``'s command runs files of its folder, as :func:`load` does for a
    bot without a build (a built bot's files exist only in its built folder); raises
    :class:`ManifestError`."""
    path = program.directory / MANIFEST

    def wrong(problem: str) -> ManifestError:
        return ManifestError(problem, path)

    _check_command_runs_the_bot(list(program.command), program.directory, wrong)


def _check_files_exist(
    key: str, command: list[str], folder: Path, wrong: Callable[[str], ManifestError]
) -> None:
    """Every word that looks like a file must be one of the bot's (the first word counts as a
    file as soon as it has a '/'); options (words starting with '-') are not files."""
    for number, word in enumerate(command):
        if word.startswith("-"):
            continue
        looks_like_file = (
            word.endswith(_SOURCE_SUFFIXES)
            or word.startswith("./")
            or (number == 0 and "/" in word)
        )
        if looks_like_file and _kind(folder, word) != "file":
            raise _missing(folder, [word], wrong, verb="runs", key=key)


def _check_command_runs_the_bot(
    command: list[str], folder: Path, wrong: Callable[[str], ManifestError]
) -> None:
    _check_files_exist("command", command, folder, wrong)
    if _kind(folder, command[0]) == "file":
        return  # the bot's own program, like ["./run.sh"]
    # Otherwise the first word is a program of the system (python3, node, java): some later word
    # must name the bot's code. The word after '-m' names a Python module.
    named: list[str] = []
    for previous, word in itertools.pairwise(command):
        if word.startswith("-"):
            continue
        if previous == "-m":
            module = word.replace(".", "/")
            if _kind(folder, f"{module}.py") == "file" or _kind(folder, module) == "folder":
                return
        elif _kind(folder, word) in ("file", "folder"):
            return
        named.append(word)
    if named:
        raise _missing(folder, named, wrong, verb="names")
    raise wrong(
        f"'command' {_shown(str(command))} names no file of the bot; name the file to run, "
        f"like {_EXAMPLE}."
    )


def _missing(
    folder: Path,
    words: list[str],
    wrong: Callable[[str], ManifestError],
    verb: str,
    key: str = "command",
) -> ManifestError:
    outside = [word for word in words if _kind(folder, word) == "outside"]
    if outside:
        return wrong(
            f"{key!r} {verb} {_shown(outside[0])}, which is a link to outside the bot's "
            "folder; a bot runs only its own files."
        )
    shown = ", ".join(_shown(word) for word in words[:5])
    plural = "s" if len(words) > 1 else ""
    return wrong(f"{key!r} {verb} {shown}, but the bot has no such file{plural}{_listing(folder)}.")


def _kind(folder: Path, word: str) -> str | None:
    """``"file"`` or ``"folder"`` if ``word`` names one inside ``folder``, ``"outside"`` if it
    leads out of it through a link, ``None`` if there is nothing of that name."""
    relative = word
    while relative.startswith("./"):
        relative = relative[2:]
    relative = relative.rstrip("/")
    if not relative or relative.startswith("/") or ".." in relative.split("/"):
        return None
    try:
        resolved = (folder / relative).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not resolved.is_relative_to(folder.resolve()):
        return "outside"
    if resolved.is_file():
        return "file"
    return "folder" if resolved.is_dir() else None


def _listing(folder: Path, most: int = 10, looked_at: int = 1000) -> str:
    """`` (its files: a.py, b.py, ...)``: the first files by name (of at most ``looked_at``,
    the manifest left out)."""
    files: list[str] = []
    for root, folders, names in os.walk(folder):
        folders.sort()
        base = Path(root).relative_to(folder)
        files.extend((base / name).as_posix() for name in names)
        if base == Path("."):
            files = [name for name in files if name != MANIFEST]
        if len(files) >= looked_at:
            break
    shown = sorted(files)[:most]
    more = ", ..." if len(files) > most else ""
    return f" (its files: {', '.join(shown)}{more})" if shown else " (it has no files)"


def _suggest_name(folder: Path) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_.\-]", "-", folder.resolve().name).strip("-._")
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
