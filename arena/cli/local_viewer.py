"""The site's replay viewer for a local replay file, served on 127.0.0.1 (``nimmt replay view``).

A small HTTP server of the standard library serves the site's own viewer: its markup
(``platform/matches/templates/matches/includes/viewer.html``, rendered with Django's template
engine on its own, no settings or database), its script (``matches/viewer.js``) and the site's
stylesheet, straight from the project's ``platform/`` folder, so the viewer is the site's and
never a copy; and the engine's frames of the replay (:func:`arena.engine.frames.frames`), the
public ones at ``/frames.json`` and seat S's view at ``/frames.json?seat=S``, as the site's
frames URL serves them. The bots' notes on their decisions, when a notes file lies beside the
replay (``notes/game-00001.json``, :mod:`arena.table.notes`), are given to the viewer's notes
panel (``matches/notes.js``) as the site gives an owner theirs: whoever runs the match sees
every seat's. Nothing else is served; it listens on 127.0.0.1 only, and answers only
requests addressed to it by that name (or ``localhost``), so that a web page elsewhere cannot
read the replay by pointing a name of its own at 127.0.0.1 (DNS rebinding).

It needs a checkout of the project (``platform/`` beside ``arena/``) and the site's Python
packages (``pip install -e '.[site]'``) for the template engine.
"""

import json
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from arena.engine.frames import frames
from arena.engine.record import GameRecord
from arena.table.notes import NOTES_FORMAT, notes_name

#: The project's site folder, beside the ``arena`` package in a checkout.
PLATFORM = Path(__file__).resolve().parents[2] / "platform"
TEMPLATES = PLATFORM / "matches" / "templates"
STATIC = {
    "/static/matches/viewer.js": (
        PLATFORM / "matches" / "static" / "matches" / "viewer.js",
        "text/javascript; charset=utf-8",
    ),
    "/static/matches/notes.js": (
        PLATFORM / "matches" / "static" / "matches" / "notes.js",
        "text/javascript; charset=utf-8",
    ),
    "/static/core/site.css": (
        PLATFORM / "core" / "static" / "core" / "site.css",
        "text/css; charset=utf-8",
    ),
    "/static/core/favicon.svg": (
        PLATFORM / "core" / "static" / "core" / "favicon.svg",
        "image/svg+xml",
    ),
}

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} · Nimmt Arena replay</title>
  <link rel="icon" href="/static/core/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/core/site.css">
</head>
<body>
<main>
<div class="section-head"><h1>Replay: {title}</h1></div>
<p class="meta"><span>{variant}</span><span>{players} players</span>
<span><a href="/replay.json">replay JSON</a></span></p>
{viewer}
{notes}
</main>
<script src="/static/matches/viewer.js" defer></script>{notes_script}
</body>
</html>
"""


class ViewerUnavailable(RuntimeError):
    """The site's viewer cannot be served from here (no checkout, no template engine)."""


def viewer_markup(variant: str) -> str:
    """The site's viewer markup for a game of ``variant``, its frames at ``/frames.json``."""
    if not TEMPLATES.is_dir() or not all(path.is_file() for path, _ in STATIC.values()):
        raise ViewerUnavailable(
            f"the site's viewer is not here ({PLATFORM}): nimmt replay view runs from a "
            "checkout of the project"
        )
    try:
        from django.template import Context, Engine
    except ImportError:
        raise ViewerUnavailable(
            "nimmt replay view renders the site's viewer with Django's template engine: "
            "pip install -e '.[site]'"
        ) from None
    template = Engine(dirs=[str(TEMPLATES)]).get_template("matches/includes/viewer.html")
    context = {"frames_url": "/frames.json", "replay_url": "/replay.json"}
    return template.render(Context({**context, "match": {"variant": variant}}))


@dataclass
class LocalViewer:
    """What the server serves for one replay: the page, the replay, the frames per seat."""

    replay: GameRecord
    title: str
    notes: dict[str, Any] | None = None  # the game's nimmt-notes/1 file, if there is one
    page: bytes = b""
    _frames: dict[int | None, bytes] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        variant = self.replay.variant
        self.page = PAGE.format(
            title=_escape(self.title),
            variant=_escape(variant),
            players=len(self.replay.players),
            viewer=viewer_markup(variant),
            notes=notes_markup(self.notes),
            notes_script=(
                '\n<script src="/static/matches/notes.js" defer></script>' if self.notes else ""
            ),
        ).encode("utf-8")
        self.frames(None)  # an unverifiable replay fails here, before the server starts

    @property
    def players(self) -> int:
        return len(self.replay.players)

    def frames(self, seat: int | None) -> bytes:
        """The engine's frames as JSON (seat's view with ``seat``), computed once each."""
        with self._lock:
            if seat not in self._frames:
                film = frames(self.replay, seat=seat).to_json()
                self._frames[seat] = json.dumps(film, separators=(",", ":")).encode("utf-8")
            return self._frames[seat]


def notes_markup(notes: dict[str, Any] | None) -> str:
    """The notes for the viewer's notes panel, as the site's game page embeds them ("" for
    none)."""
    if not notes:
        return ""
    from django.utils.html import json_script

    return str(json_script(notes, "viewer-notes"))


def read_notes(replay_path: Path) -> dict[str, Any] | None:
    """The notes file beside a replay file (``notes/game-00001.json``), or ``None`` if there is
    none or it is not a ``nimmt-notes/1`` file with notes."""
    path = replay_path.parent / notes_name(replay_path.name.removesuffix(".gz"))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != NOTES_FORMAT or not data.get("notes"):
        return None
    return data


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


class _Handler(BaseHTTPRequestHandler):
    server: "ViewerServer"

    def do_GET(self) -> None:
        viewer = self.server.viewer
        url = urlsplit(self.path)
        port = self.server.server_address[1]
        if self.headers.get("Host") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            self._send(HTTPStatus.FORBIDDEN, "text/plain; charset=utf-8", b"not this host\n")
        elif url.path == "/":
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", viewer.page)
        elif url.path == "/replay.json":
            body = json.dumps(viewer.replay.to_json()).encode("utf-8")
            self._send(HTTPStatus.OK, "application/json", body)
        elif url.path == "/frames.json":
            seats = parse_qs(url.query).get("seat")
            if seats is None:
                self._send(HTTPStatus.OK, "application/json", viewer.frames(None))
                return
            text = seats[0]
            if not (text.isascii() and text.isdigit() and len(text) < 4) or int(text) >= (
                viewer.players
            ):
                message = f"seat must be a seat number from 0 to {viewer.players - 1}"
                body = json.dumps({"error": message}).encode("utf-8")
                self._send(HTTPStatus.BAD_REQUEST, "application/json", body)
                return
            self._send(HTTPStatus.OK, "application/json", viewer.frames(int(text)))
        elif url.path in STATIC:
            path, kind = STATIC[url.path]
            self._send(HTTPStatus.OK, kind, path.read_bytes())
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"not found\n")

    def _send(self, status: HTTPStatus, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return None  # quiet: the command prints its URL and nothing per request


class ViewerServer(ThreadingHTTPServer):
    """The local viewer's server on 127.0.0.1 (``port`` 0: any free port)."""

    daemon_threads = True

    def __init__(self, viewer: LocalViewer, port: int = 0) -> None:
        self.viewer = viewer
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"
