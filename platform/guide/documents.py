"""The project's own documents (``docs/*.md``) as pages of the site: the rules, the protocol
reference, the replay format, the research environment.

They are rendered from the repository's Markdown with markdown-it-py (CommonMark plus tables;
raw HTML in a document is shown as text, never passed through), each heading gets an anchor,
and a link from one document to another (``RULES.md#3-...``) becomes a link to that page. A
page is rendered once per version of its file (the file's modification time and size)."""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin


@dataclass(frozen=True)
class Document:
    """One document: its page's slug, its file under ``docs/`` and what it is about."""

    slug: str
    file: str
    title: str
    about: str


DOCUMENTS = {
    doc.slug: doc
    for doc in (
        Document("rules", "RULES.md", "The rules", "the game as the arena plays it"),
        Document(
            "protocol", "PROTOCOL.md", "The bot protocol", "every message a bot sends and gets"
        ),
        Document("replays", "REPLAY.md", "Replays and results", "replays, match.json and frames"),
        Document(
            "environment",
            "ENVIRONMENT.md",
            "The research environment",
            "PettingZoo and Gymnasium environments for training agents",
        ),
    )
}
_BY_FILE = {doc.file: doc for doc in DOCUMENTS.values()}
_LINK = re.compile(r'href="(?:\./|docs/)?([A-Z]+\.md)(#[^"]*)?"')


class UnknownDocument(LookupError):
    pass


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.use(anchors_plugin, min_level=1, max_level=4, permalink=True, permalinkSymbol="#")
    return md


def path_of(document: Document) -> Path:
    return Path(settings.REPO_DIR) / "docs" / document.file


def render(slug: str) -> tuple[Document, SafeString]:
    """The document ``slug`` as HTML; :class:`UnknownDocument` if there is none."""
    document = DOCUMENTS.get(slug)
    if document is None:
        raise UnknownDocument(slug)
    path = path_of(document)
    stat = path.stat()
    return document, _rendered(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _rendered(path: Path, _mtime: int, _size: int) -> SafeString:
    html = _markdown().render(path.read_text(encoding="utf-8"))

    def site_link(match: re.Match[str]) -> str:
        target = _BY_FILE.get(match.group(1))
        if target is None:  # a document the site does not serve: leave the link alone
            return match.group(0)
        return f'href="{reverse("guide-document", args=[target.slug])}{match.group(2) or ""}"'

    # markdown-it escaped the document's text; only its own tags are left.
    return mark_safe(_LINK.sub(site_link, html))
