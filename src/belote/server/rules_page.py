"""``GET /rules``: the rules for players, in English or French, rendered on the server from markdown.

The pages are ``web/rules.en.md`` and ``web/rules.fr.md`` (shipped with the package, as the rest of
``web/``). Their markdown is the small subset this module renders: headings with an anchor
(``## The deal {#deal}``; both languages use the same anchors), paragraphs, lists (``-`` and ``1.``,
one level of nesting), tables (``|--:|`` aligns right), ``**strong**``, ``*emphasis*``, ``code``
spans, fenced code blocks and ``[links](url)``. Every piece of text is HTML-escaped.

>>> print(render("## The deal {#deal}\\n\\nThree **then** two.").html)
<h2 id="deal"><a href="#deal">The deal</a></h2>
<p>Three <strong>then</strong> two.</p>
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from belote.server import assets

WEB = Path(__file__).resolve().parent.parent / "web"
LANGS = ("en", "fr")

# The page's own words, around the rendered markdown.
WORDS = {
    "en": {"contents": "Contents", "back": "Back to the table", "other": "fr", "name": "English"},
    "fr": {"contents": "Sommaire", "back": "Retour à la table", "other": "en", "name": "Français"},
}


@dataclass(frozen=True)
class Heading:
    level: int
    anchor: str
    html: str  # the heading's text, rendered


@dataclass(frozen=True)
class Document:
    title: str  # the first level-1 heading, as plain text
    headings: tuple[Heading, ...]  # every heading below the title
    html: str


HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{#([A-Za-z][\w-]*)\})?\s*$")
ITEM = re.compile(r"^( *)([-*]|\d+\.)\s+(.*)$")
FENCE = re.compile(r"^```")
CODE_SPAN = re.compile(r"`([^`]+)`")
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
EMPHASIS = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")
RED_SUITS = re.compile("([♥♦])")
SAFE_URL = re.compile(r"^(https?://|mailto:|/|#|\.\.?/|[\w.-]+(?:[/?#]|$))")
APOSTROPHE = re.compile(r"(?<=\w)'")  # dealer's, takers', l'atout: a typographic apostrophe
# French typography: a thin no-break space before : ; ! ? » and after «, a no-break space between
# the groups of a number (1 080), so that none is left alone at the start of a line.
FRENCH_SPACES = [
    (re.compile(r" ([:;!?»])"), "\u202f\\1"),
    (re.compile(r"« "), "«\u202f"),
    (re.compile(r"(?<=\d) (?=\d{3}\b)"), "\u00a0"),
]


def inline(text: str, french: bool = False) -> str:
    """One line's text as HTML: code spans, links, strong and emphasis; everything else escaped.

    >>> inline('A <b> & `x < y` **7♥**, [see](#deal)')
    'A &lt;b&gt; &amp; <code>x &lt; y</code> <strong>7<span class="red">♥</span></strong>, <a href="#deal">see</a>'
    """
    codes: list[str] = []

    def keep(m: re.Match[str]) -> str:
        codes.append(f"<code>{html.escape(m.group(1), quote=False)}</code>")
        return f"\0{len(codes) - 1}\0"

    text = CODE_SPAN.sub(keep, text)
    text = APOSTROPHE.sub("’", text)
    if french:
        for pattern, replacement in FRENCH_SPACES:
            text = pattern.sub(replacement, text)
    out = html.escape(text, quote=False)
    out = LINK.sub(_link, out)
    out = STRONG.sub(r"<strong>\1</strong>", out)
    out = EMPHASIS.sub(r"<em>\1</em>", out)
    out = RED_SUITS.sub(r'<span class="red">\1</span>', out)
    return re.sub("\0(\\d+)\0", lambda m: codes[int(m.group(1))], out)


def _link(m: re.Match[str]) -> str:
    url = html.unescape(m.group(2))
    if not SAFE_URL.match(url) or url.lower().startswith(("javascript:", "data:")):
        return m.group(1)  # a link the page would not follow is shown as its text
    return f'<a href="{html.escape(url)}">{m.group(1)}</a>'


def _interrupts(line: str) -> re.Match[str] | None:
    """The item that starts on ``line`` in the middle of a paragraph or an item's text: any ``-``
    item, but a numbered one only from 1 (so that a line may begin with "162. The score")."""
    m = ITEM.match(line)
    return m if m and m.group(2) in ("-", "*", "1.") else None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _cells(row: str) -> list[str]:
    row = row.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]


def _align(spec: str) -> str:
    spec = spec.strip()
    if spec.startswith(":") and spec.endswith(":"):
        return ' class="center"'
    return ' class="num"' if spec.endswith(":") else ""


class _Renderer:
    def __init__(self, markdown: str, french: bool) -> None:
        self.lines = markdown.replace("\r\n", "\n").split("\n")
        self.i = 0
        self.french = french
        self.out: list[str] = []
        self.headings: list[Heading] = []
        self.title = ""
        self.anchors = {"toc-title"}  # the page's own

    def inline(self, text: str) -> str:
        return inline(text, self.french)

    def run(self) -> Document:
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if not line.strip():
                self.i += 1
            elif HEADING.match(line):
                self.heading(line)
            elif FENCE.match(line):
                self.fence()
            elif line.lstrip().startswith("|") and self._is_table():
                self.table()
            elif item := ITEM.match(line):
                self.out.append(self.list(len(item.group(1))))
            else:
                self.paragraph()
        return Document(self.title, tuple(self.headings), "\n".join(self.out) + "\n")

    def _starts_block(self, line: str) -> bool:
        return bool(HEADING.match(line) or FENCE.match(line) or _interrupts(line) or line.lstrip().startswith("|"))

    def heading(self, line: str) -> None:
        m = HEADING.match(line)
        assert m is not None
        level, text = len(m.group(1)), m.group(2)
        anchor = m.group(3) or _slug(text)
        base, n = anchor, 2
        while anchor in self.anchors:
            anchor, n = f"{base}-{n}", n + 1
        self.anchors.add(anchor)
        rendered = self.inline(text)
        if level == 1 and not self.title:
            self.title = html.unescape(re.sub(r"<[^>]+>", "", rendered))
            self.out.append(f'<h1 id="{anchor}">{rendered}</h1>')
        else:
            self.headings.append(Heading(level, anchor, rendered))
            self.out.append(f'<h{level} id="{anchor}"><a href="#{anchor}">{rendered}</a></h{level}>')
        self.i += 1

    def fence(self) -> None:
        self.i += 1
        body: list[str] = []
        while self.i < len(self.lines) and not FENCE.match(self.lines[self.i]):
            body.append(self.lines[self.i])
            self.i += 1
        self.i += 1
        self.out.append(f"<pre><code>{html.escape(chr(10).join(body), quote=False)}</code></pre>")

    def _is_table(self) -> bool:
        nxt = self.lines[self.i + 1] if self.i + 1 < len(self.lines) else ""
        return bool(re.fullmatch(r"\s*\|?(\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?\s*", nxt))

    def table(self) -> None:
        head = _cells(self.lines[self.i])
        aligns = [_align(s) for s in _cells(self.lines[self.i + 1])]
        self.i += 2
        rows: list[list[str]] = []
        while self.i < len(self.lines) and self.lines[self.i].lstrip().startswith("|"):
            rows.append(_cells(self.lines[self.i]))
            self.i += 1

        def row(cells: list[str], tag: str) -> str:
            cells = (cells + [""] * len(aligns))[: len(aligns)]  # as many cells as the header has
            tds = "".join(f"<{tag}{a}>{self.inline(c)}</{tag}>" for c, a in zip(cells, aligns, strict=True))
            return f"<tr>{tds}</tr>"

        body = "\n".join(row(r, "td") for r in rows)
        table = f"<table>\n<thead>{row(head, 'th')}</thead>\n<tbody>\n{body}\n</tbody>\n</table>"
        self.out.append(f'<div class="table-wrap">{table}</div>')

    def list(self, indent: int) -> str:
        """The list whose items start at ``indent`` spaces, with their continuation lines and sublists."""
        first = ITEM.match(self.lines[self.i])
        assert first is not None
        tag = "ol" if first.group(2)[0].isdigit() else "ul"
        items: list[str] = []
        while self.i < len(self.lines):
            m = ITEM.match(self.lines[self.i])
            if m is None or len(m.group(1)) != indent or (m.group(2)[0].isdigit()) != (tag == "ol"):
                break
            text, inner = [m.group(3)], ""
            self.i += 1
            while self.i < len(self.lines):
                line = self.lines[self.i]
                sub = _interrupts(line)
                if sub and len(sub.group(1)) > indent:
                    inner += "\n" + self.list(len(sub.group(1)))
                elif line.strip() and line.startswith(" " * (indent + 1)) and not sub:
                    text.append(line.strip())
                    self.i += 1
                else:
                    break
            items.append(f"<li>{self.inline(' '.join(text))}{inner}</li>")
            # A blank line between two items of the same list keeps them in one list.
            if self.i + 1 < len(self.lines) and not self.lines[self.i].strip():
                nxt = ITEM.match(self.lines[self.i + 1])
                if nxt and len(nxt.group(1)) == indent:
                    self.i += 1
        return f"<{tag}>\n" + "\n".join(items) + f"\n</{tag}>"

    def paragraph(self) -> None:
        text: list[str] = []
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if not line.strip() or (text and self._starts_block(line)):
                break
            text.append(line.strip())
            self.i += 1
        self.out.append(f"<p>{self.inline(' '.join(text))}</p>")


def render(markdown: str, french: bool = False) -> Document:
    """The markdown as HTML, with its title and headings (for a table of contents).

    ``french``: French typography (no-break spaces before ``:`` ``;`` ``!`` ``?``, inside « », in 1 000).
    """
    return _Renderer(markdown, french).run()


@cache
def document(lang: str) -> Document:
    """The rules page in ``lang`` (``en`` or ``fr``), read and rendered once."""
    return render((WEB / f"rules.{lang}.md").read_text(encoding="utf-8"), french=lang == "fr")


def choose_lang(asked: str | None, accept_language: str) -> str:
    """The page's language: ``?lang=`` when it is one of ours, else the browser's first choice
    among them (French for any ``fr-*``), else English.

    >>> choose_lang(None, "de-DE,de;q=0.9,fr-CA;q=0.8,en;q=0.5"), choose_lang("en", "fr-FR"), choose_lang(None, "")
    ('fr', 'en', 'en')
    """
    if asked in LANGS:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for n, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        m = re.search(r"q\s*=\s*([0-9.]+)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                q = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGS and q > 0:
            ranked.append((-q, n, primary))
    return min(ranked)[2] if ranked else "en"


def contents(doc: Document) -> str:
    """The table of contents: the level-2 headings, each with its level-3 ones under it."""
    groups: list[tuple[Heading, list[Heading]]] = []
    for h in doc.headings:
        if h.level == 2:
            groups.append((h, []))
        elif h.level == 3 and groups:
            groups[-1][1].append(h)

    def link(h: Heading) -> str:
        return f'<a href="#{h.anchor}">{h.html}</a>'

    items = [
        f"<li>{link(h)}" + (f"<ol>{''.join(f'<li>{link(s)}</li>' for s in subs)}</ol>" if subs else "") + "</li>"
        for h, subs in groups
    ]
    return "<ol>\n" + "\n".join(items) + "\n</ol>"


def page(lang: str) -> str:
    """The whole HTML page of the rules in ``lang``."""
    doc, words = document(lang), WORDS[lang]
    other = words["other"]
    switch = (
        f'<a class="btn ghost" href="/rules?lang={other}" lang="{other}" hreflang="{other}" data-testid="lang">'
        f"{WORDS[other]['name']}</a>"
    )
    # The title and the lines before the first section come before the contents on a phone.
    cut = doc.html.find("<h2 ")
    intro, body = (doc.html[:cut], doc.html[cut:]) if cut >= 0 else (doc.html, "")
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#0f4d2e">
<title>{html.escape(doc.title)}</title>
<link rel="icon" href="/static/icons/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">
<link rel="manifest" href="/static/manifest.webmanifest">
<link rel="alternate" hreflang="{other}" href="/rules?lang={other}">
<link rel="stylesheet" href="/static/rules.css">
</head>
<body>
<header class="bar">
  <a class="brand" href="/">Belote</a>
  <nav class="bar-actions">
    {switch}
    <a class="btn primary" href="/" data-testid="back">{html.escape(words["back"])}</a>
  </nav>
</header>
<main class="page">
<div class="sheet intro">
{intro}</div>
<nav class="toc" aria-labelledby="toc-title" data-testid="toc">
<h2 id="toc-title">{html.escape(words["contents"])}</h2>
{contents(doc)}
</nav>
<article class="sheet body" data-testid="rules">
{body}</article>
</main>
</body>
</html>
"""


async def rules_page(request: Request) -> Response:
    """``GET /rules?lang=fr``: the rules page, in the language asked for or the browser's."""
    lang = choose_lang(request.query_params.get("lang"), request.headers.get("accept-language", ""))
    headers = {"Content-Language": lang, "Vary": "Accept-Language", "Cache-Control": assets.REVALIDATE}
    return HTMLResponse(assets.html(request, page(lang)), headers=headers)
