"""``nimmt dataset``: download a site's dataset of every public game into a folder.

Reads the site's list of files (``/api/v1/dataset/``, ``nimmt-dataset/1``), downloads each file
the folder does not hold yet (by name and SHA-256: a second run fetches only the new exports),
checks every file's hash before it takes its place, and writes the list as ``manifest.json``.
:mod:`arena.dataset` then reads the folder.
"""

import argparse
import hashlib
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from arena.dataset import MANIFEST_FORMAT

from .common import Failure, Subcommands, UsageError

API_PATH = "/api/v1/dataset/"

#: Fetches a URL's body (a test passes its own).
Fetch = Callable[[str], bytes]


def add(commands: Subcommands) -> None:
    p = commands.add_parser(
        "dataset",
        help="download a site's dataset of every public game",
        description=(
            "Download the dataset of every public game of a Nimmt Arena site (Parquet files "
            "and the replays as JSON lines, docs/DATASET.md) into a folder; files it holds "
            "already are kept, so a second run downloads only what is new. Load it with "
            "arena.dataset (games, decisions)."
        ),
    )
    p.add_argument("--site", required=True, help="the site's address, e.g. https://nimmt.example")
    p.add_argument("--out", default="nimmt-dataset", help="the folder (default: nimmt-dataset)")
    p.set_defaults(handler=run, parser=p)


def run(args: argparse.Namespace) -> int:
    site = str(args.site)
    if urllib.parse.urlsplit(site).scheme not in ("http", "https"):
        raise UsageError(f"--site {site!r} is not an http(s) address")
    fetched, kept = download(site, Path(args.out), fetch_url)
    print(f"{args.out}: {fetched} files downloaded, {kept} already there")
    return 0


def fetch_url(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            body: bytes = answer.read()
            return body
    except (urllib.error.URLError, OSError) as exc:
        raise Failure(f"could not download {url}: {exc}") from None


def download(site: str, out: Path, fetch: Fetch) -> tuple[int, int]:
    """Bring ``out`` up to date with ``site``'s dataset; (files downloaded, files kept)."""
    base = site.rstrip("/")
    listing = fetch(base + API_PATH)
    try:
        manifest = json.loads(listing)
    except ValueError:
        raise Failure(f"{base}{API_PATH} did not answer with JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise Failure(f"{base}{API_PATH} is not a {MANIFEST_FORMAT} list")
    out.mkdir(parents=True, exist_ok=True)
    fetched = kept = 0
    for item in manifest.get("files", []):
        target = out / _relative(item)
        sha256 = str(item.get("sha256", ""))
        if target.is_file() and _digest(target.read_bytes()) == sha256:
            kept += 1
            continue
        url = urllib.parse.urljoin(base + "/", str(item.get("url", "")))
        body = fetch(url)
        if _digest(body) != sha256:
            raise Failure(f"{url}: the download does not match its SHA-256; try again")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".part")
        partial.write_bytes(body)
        os.replace(partial, target)  # a file is there whole or not at all
        fetched += 1
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return fetched, kept


def _relative(item: Any) -> Path:
    """The file's place in the folder: its path, refused if it would leave the folder."""
    path = str(item.get("path", "")) if isinstance(item, dict) else ""
    parts = PurePosixPath(path).parts
    if not parts or path.startswith("/") or any(p in ("..", ".", "") for p in parts):
        raise Failure(f"the site lists a file outside the dataset's folder: {path!r}")
    if "\\" in path or "\x00" in path:
        raise Failure(f"the site lists a file outside the dataset's folder: {path!r}")
    return Path(*parts)


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()
