"""Text a bot wrote, made safe to quote: control characters shown as escapes, length capped.

A bot's bytes reach fault details, ``match.json``, replays, notices and the command line (its
log's last lines, its ``Hello.bot_name``, the text of what it sent). Quoted raw, an escape
sequence would set a terminal's title, clear the screen or draw fake lines, and a newline would
forge a line of the report. Everything the arena quotes from a bot goes through :func:`quote`.

>>> quote("ok\\x1b]0;pwned\\x07 \\x1b[2J done")
'ok\\\\x1b]0;pwned\\\\x07 \\\\x1b[2J done'
>>> quote("two\\nlines\\ttab")
'two\\\\nlines\\\\ttab'
>>> quote("bidi \\u202e override, zero width \\u200b")
'bidi \\\\u202e override, zero width \\\\u200b'
>>> quote("x" * 10, limit=4)
'xxxx…'
"""

import re

#: Characters escaped: C0 and C1 controls and DEL; Unicode format characters that reorder or hide
#: text (soft hyphen, bidirectional marks and overrides, zero-width characters, the byte-order
#: mark, interlinear annotations, tag characters); line and paragraph separators.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def quote(text: str, limit: int | None = None) -> str:
    """``text`` with every control or format character written as an escape (``\\x1b``,
    ``\\n``, ``\\u202e``); cut to ``limit`` characters (before escaping) with an ellipsis."""
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    return _UNSAFE.sub(_escape, text)


def quote_bytes(data: bytes, limit: int | None = None) -> str:
    """Bytes from a bot (its log), decoded as UTF-8 with invalid bytes replaced, then quoted."""
    return quote(data.decode("utf-8", errors="replace"), limit)
