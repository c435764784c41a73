"""The page's files draw no picture that needs an emoji or symbol font.

Where a system has no emoji font (many Linux desktops, some phones), an emoji or a symbol without a
text glyph in common fonts draws as an empty box: the match's trophy did. So the files under
``belote/web`` hold no character outside the Basic Multilingual Plane (every emoji of faces, hands,
trophies and cards is there), no emoji presentation selector (U+FE0F), and, from the blocks of
symbols and dingbats where emoji live, only what the page draws as text from its fonts: the four
suits, the star and the four-pointed star. A picture is inline SVG (``web/icons.js``, ``cards.js``).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "src" / "belote" / "web"
#: Miscellaneous Technical, Geometric Shapes, Miscellaneous Symbols, Dingbats, Symbols and Arrows.
SYMBOL_BLOCKS = [(0x2300, 0x23FF), (0x25A0, 0x25FF), (0x2600, 0x27BF), (0x2B00, 0x2BFF)]
#: Symbols of those blocks that have no emoji form and that every system's text fonts draw.
TEXT_SYMBOLS = set("♠♥♦♣★✦")


def needs_an_emoji_font(ch: str) -> bool:
    """
    >>> [needs_an_emoji_font(c) for c in "🏆🂠▶♥★é→"]
    [True, True, True, False, False, False, False]
    """
    code = ord(ch)
    if code > 0xFFFF or code == 0xFE0F:
        return True
    return ch not in TEXT_SYMBOLS and any(lo <= code <= hi for lo, hi in SYMBOL_BLOCKS)


def test_the_page_files_need_no_emoji_font() -> None:
    found = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix not in {".js", ".html", ".css", ".md"}:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for ch in line:
                if needs_an_emoji_font(ch):
                    found.append(f"{path.relative_to(WEB)}:{n}: {ch} ({unicodedata.name(ch, hex(ord(ch)))})")
    assert found == []
