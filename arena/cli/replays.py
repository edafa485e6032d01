"""``nimmt replay verify``, ``show`` and ``view``: re-simulate replay files and report every
disagreement, print a game turn by turn, or serve the site's viewer for one on 127.0.0.1
(:mod:`.local_viewer`); ``nimmt replay decisions`` is :mod:`.decisions`.

Any other file of this project in a folder (a ``summary.json`` of ``nimmt play``, the
``match.json`` of ``nimmt match``: JSON with a ``format`` that is not the replay's) is skipped,
not reported as an unreadable replay.
"""

import argparse
import json
from pathlib import Path

from arena.engine import ReplayError
from arena.engine import replay as replays
from arena.engine.record import FORMAT, GameRecord

from . import decisions
from .common import Failure, Subcommands, UsageError, at_least
from .local_viewer import LocalViewer, ViewerServer, ViewerUnavailable, read_notes


def add(commands: Subcommands) -> None:
    p = commands.add_parser("replay", help="verify or show replay files (nimmt-replay/1)")
    sub = p.add_subparsers(dest="replay_command", metavar="ACTION", required=True)

    v = sub.add_parser(
        "verify",
        help="re-simulate replays and report every disagreement",
        description=(
            "Re-simulate each replay with the rules engine, under the reading of the rules it "
            "names (its 'rules' key; none: nimmt-rules/1), which each OK line shows. A folder "
            "means every *.json and *.json.gz below it (other files of the project, such as "
            "summary.json or match.json, are skipped). "
            "Exit status 1 if any replay disagrees or cannot be read."
        ),
    )
    v.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    v.set_defaults(handler=run_verify, parser=v)

    s = sub.add_parser("show", help="print a game turn by turn")
    s.add_argument("path", metavar="FILE")
    s.set_defaults(handler=run_show, parser=s)

    w = sub.add_parser(
        "view",
        help="serve the site's replay viewer for a replay file on 127.0.0.1",
        description=(
            "Serve the site's replay viewer for FILE on 127.0.0.1 and print its address; "
            "stop with Ctrl-C. With --seat, the viewer opens on that seat's view (its own "
            "hand and cards only); the page's 'Seen by' chooses another. Runs from a checkout "
            "of the project with the site's packages (pip install -e '.[site]')."
        ),
    )
    w.add_argument("path", metavar="FILE")
    w.add_argument("--seat", type=at_least(0), metavar="S", help="open seat S's view (0-based)")
    w.add_argument(
        "--port", type=at_least(0), default=0, metavar="P", help="port (default: any free one)"
    )
    w.set_defaults(handler=run_view, parser=w)

    decisions.add(sub)


def run_verify(args: argparse.Namespace) -> int:
    ok = mismatched = unreadable = skipped = 0
    for target in map(Path, args.paths):
        if not target.exists():
            print(f"UNREADABLE {target}: no such file or folder")
            unreadable += 1
            continue
        files = list(replays.iter_files(target))
        if not files:
            print(f"UNREADABLE {target}: no replay files (*.json, *.json.gz) in this folder")
            unreadable += 1
            continue
        for path in files:
            try:
                data = replays.read(path)
            except ReplayError as exc:
                if target.is_dir() and _other_nimmt_format(path):
                    skipped += 1
                    continue
                print(f"UNREADABLE {path}: {_strip_path(str(exc), path)}")
                unreadable += 1
                continue
            problems = _check(data)
            if problems:
                print(f"MISMATCH {path}")
                for problem in problems:
                    print(f"  {problem}")
                mismatched += 1
            else:
                print(f"OK {path} ({data.reading.name})")
                ok += 1
    total = ok + mismatched + unreadable
    line = f"{total} replays: {ok} ok, {mismatched} mismatched, {unreadable} unreadable"
    print(line + (f" ({skipped} other files skipped)" if skipped else ""))
    return 1 if mismatched or unreadable else 0


def _check(data: GameRecord) -> list[str]:
    """The verification problems of one replay; a replay that cannot even be re-simulated
    (its setup is inconsistent, a value has the wrong type...) is one problem, not a crash."""
    try:
        return replays.verify(data)
    except Exception as exc:  # one broken file must not stop the check of the others
        return [f"cannot re-simulate: {exc} ({type(exc).__name__})"]


def _other_nimmt_format(path: Path) -> bool:
    """True for a JSON file of this project that says it is not a replay (its ``format`` is
    another one: ``nimmt-summary/1``, ``nimmt-match/2``...)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    fmt = data.get("format") if isinstance(data, dict) else None
    return isinstance(fmt, str) and fmt.startswith("nimmt-") and fmt != FORMAT


def _strip_path(message: str, path: Path) -> str:
    prefix = f"{path}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


def run_show(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.is_dir():
        raise UsageError(f"{path} is a folder; show takes one replay file")
    try:
        data = replays.read(path)
        lines = list(replays.render(data))
    except ReplayError as exc:
        raise Failure(str(exc)) from None
    except Exception as exc:  # a replay too broken to re-play
        raise Failure(f"{path}: cannot show this replay: {exc} ({type(exc).__name__})") from None
    for line in lines:
        print(line)
    return 0


def run_view(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.is_dir():
        raise UsageError(f"{path} is a folder; view takes one replay file")
    try:
        data = replays.read(path)
        viewer = LocalViewer(data, path.name, read_notes(path))
    except ReplayError as exc:
        raise Failure(_strip_path(str(exc), path)) from None
    except ViewerUnavailable as exc:
        raise Failure(str(exc)) from None
    if args.seat is not None and args.seat >= viewer.players:
        raise UsageError(f"--seat {args.seat}: this game has seats 0 to {viewer.players - 1}")
    try:
        server = ViewerServer(viewer, args.port)
    except OSError as exc:
        raise Failure(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror}") from None
    url = server.url + ("" if args.seat is None else f"#seat={args.seat}&turn=0")
    print(f"the replay viewer of {path} is at {url} (Ctrl-C stops it)", flush=True)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("stopped")
    return 0
