"""The page's files as the server sends them: read once, named by their bytes, compressed once.

Every file of ``web/`` is read into memory with its gzip and its ETag (a ``Build``). The build's
hash, twelve hex digits of a SHA-256 over every file's name and bytes, names the whole set: the
pages ask for ``/static/<build>/app.js``, which holds the same bytes for as long as that address
exists, so it is sent with ``Cache-Control: public, max-age=31536000, immutable`` and a browser
that has it never asks again. The pages themselves (``/``, ``/review``...) are revalidated on every
visit (``no-cache`` with an ETag): a new build is seen at once. Nothing is built beforehand: the
server rewrites the pages' ``/static/`` addresses when it reads them, and adds a
``<link rel="modulepreload">`` for each module that a page's module imports (found by reading the
``import`` lines), so that the browser asks for them all at once rather than one level at a time.
The modules import each other by relative paths, which resolve under the build's prefix as well.

The old addresses (``/static/app.js``, or another build's ``/static/<other>/app.js``, which an
open page of the previous version may still ask for) keep answering with the current bytes, to be
revalidated each time. ``/sw.js``, the service worker (``web/sw.js``), is sent with this build's
hash and the table page's files in its first lines: a new build is a new worker, which keeps the
new files and deletes the old (docs/operations.md, "The page's files").

The files are read again when one changes on disk (a size or a time of change), so that a page
reloaded during development has the new files.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

WEB = Path(__file__).resolve().parent.parent / "web"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"  # kept, but asked about again (an ETag) before each use
WORKER = "sw.js"  # the service worker's script, in web/, served at /sw.js with its first lines
TABLE_PAGE = "index.html"  # the page the service worker keeps for a visit without the network
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
# Sent as they are: compressing them again gains nothing.
PACKED = {".png"}
# The modules a module names: `import ... from "./x.js"`, `export ... from "./x.js"`, `import("./x.js")`.
IMPORT = re.compile(
    r"""(?:\bimport\s*(?:[\w$*{},\s]+?\s*from\s*)?|\bexport\s*[\w$*{},\s]+?\s*from\s*|\bimport\s*\(\s*)["'](\.{1,2}/[^"']+)["']"""
)
LINE_COMMENT = re.compile(r"^\s*//.*$", re.MULTILINE)
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
STATIC = '="/static/'


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (not with ``q=0``).

    >>> [accepts_gzip(h) for h in ("gzip, deflate, br", "br;q=1.0, gzip;q=0", "identity", "*")]
    [True, False, False, True]
    """
    for part in accept_encoding.lower().split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip() in ("gzip", "*"):
            q = params.strip().removeprefix("q=").strip()
            try:
                return not params.strip() or float(q) > 0
            except ValueError:
                return False
    return False


@dataclass(frozen=True)
class Asset:
    """One file as it is sent: its bytes, their gzip (None when it would not be smaller), its type and ETag."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str

    @staticmethod
    def of(name: str, body: bytes) -> Asset:
        suffix = PurePosixPath(name).suffix
        packed = None
        if suffix not in PACKED:
            packed = gzip.compress(body, 9, mtime=0)  # mtime 0: every process makes the same bytes
            packed = packed if len(packed) < len(body) else None
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        return Asset(body, packed, MEDIA_TYPES.get(suffix, "application/octet-stream"), etag)

    def response(self, request: Request, cache_control: str, extra: dict[str, str] | None = None) -> Response:
        """The file for this request: 304 when the browser has it (``If-None-Match``), gzip when it takes it."""
        headers = {"Cache-Control": cache_control, "ETag": self.etag, **(extra or {})}
        if self.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"
        if self.etag in _tags(request.headers):
            return Response(status_code=304, headers=headers)
        body = self.body
        if self.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", "")):
            body = self.gzipped
            headers["Content-Encoding"] = "gzip"
        return Response(body, media_type=self.media_type, headers=headers)


def _tags(headers: Headers) -> list[str]:
    return [tag.strip().removeprefix("W/") for tag in headers.get("if-none-match", "").split(",") if tag.strip()]


class _Refs(HTMLParser):
    """The files a page names under /static/: its stylesheets and icons, its scripts, its module scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.files: list[str] = []
        self.modules: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and (a.get("src") or "").startswith("/static/"):
            name = (a["src"] or "").removeprefix("/static/")
            (self.modules if a.get("type") == "module" else self.files).append(name)
        elif tag == "link" and set((a.get("rel") or "").split()) & {"stylesheet", "icon"}:
            href = a.get("href") or ""
            if href.startswith("/static/"):
                self.files.append(href.removeprefix("/static/"))


def imports(source: str) -> list[str]:
    """The relative paths a module imports (statically, re-exports and ``import()``), in order.

    >>> imports('import { a } from "./a.js";\\n// import { z } from "./z.js";\\nexport { b } from "../b.js";')
    ['./a.js', '../b.js']
    >>> imports('import * as sound from "./sound.js"; const c = await import("./c.js");')
    ['./sound.js', './c.js']
    """
    code = LINE_COMMENT.sub("", BLOCK_COMMENT.sub("", source))
    return IMPORT.findall(code)


class Build:
    """Every file of ``web/``, read once: the pages rewritten to the build's addresses, the module graphs,
    the service worker's script."""

    def __init__(self, files: dict[str, bytes]) -> None:
        digest = hashlib.sha256()
        for name in sorted(files):
            digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
        self.hash = digest.hexdigest()[:12]
        self.prefix = f"/static/{self.hash}/"
        self.sources = files
        self.files: dict[str, Asset] = {}
        for name, body in files.items():
            if name.endswith(".html"):
                body = self.rewrite(body.decode("utf-8")).encode("utf-8")
            self.files[name] = Asset.of(name, body)
        self.worker = Asset.of(WORKER, self._worker())

    def url(self, name: str) -> str:
        """The address of a file of this build.

        >>> Build({"a.js": b"x"}).url("a.js")
        '/static/231220f035d2/a.js'
        """
        return self.prefix + name

    def modules(self, entry: str) -> list[str]:
        """Every module ``entry`` needs (itself first, then breadth first): the files a page preloads."""
        seen = [entry]
        for name in seen:  # grows while it is walked
            source = self.sources.get(name)
            if source is None:
                continue
            for path in imports(source.decode("utf-8")):
                found = str(PurePosixPath(os.path.normpath(PurePosixPath(name).parent / path)))
                if found in self.sources and found not in seen:
                    seen.append(found)
        return seen

    def rewrite(self, html: str) -> str:
        """A page as sent: its ``/static/`` files under the build's prefix, its modules' imports preloaded."""
        refs = _Refs()
        refs.feed(html)
        out = html.replace(STATIC, '="' + self.prefix)
        loaded = set(refs.modules)  # each module once: an entry, or preloaded after the first entry that needs it
        for entry in refs.modules:
            tag = f'<script type="module" src="{self.url(entry)}"></script>'
            found = re.search(f"^([ \\t]*){re.escape(tag)}", out, re.MULTILINE)
            if found is None:
                continue
            needed = [m for m in self.modules(entry) if m not in loaded]
            loaded.update(needed)
            lines = "".join(f'\n{found.group(1)}<link rel="modulepreload" href="{self.url(m)}">' for m in needed)
            out = out[: found.end()] + lines + out[found.end() :]
        return out

    def page_files(self, page: str) -> list[str]:
        """The files a page needs to open: its stylesheets, icon and scripts, and all its modules."""
        refs = _Refs()
        refs.feed(self.sources[page].decode("utf-8"))
        names = list(refs.files)
        for entry in refs.modules:
            names.extend(m for m in self.modules(entry) if m not in names)
        return [self.url(name) for name in dict.fromkeys(names)]

    def _worker(self) -> bytes:
        """The service worker's script: this build's hash and the table page's files, then web/sw.js."""
        keep = ["/", *self.page_files(TABLE_PAGE)] if TABLE_PAGE in self.sources else ["/"]
        head = f"const BUILD = {json.dumps(self.hash)};\nconst FILES = {json.dumps(keep, indent=1)};\n"
        return head.encode("utf-8") + self.sources.get(WORKER, b"")


def _walk(root: Path) -> Iterator[os.DirEntry[str]]:
    with os.scandir(root) as entries:
        for entry in entries:
            if entry.is_dir():
                yield from _walk(Path(entry.path))
            elif entry.is_file() and not entry.name.startswith("."):
                yield entry


class Assets:
    """The current build of a folder of files (``web/``), read again when a file changes on disk."""

    def __init__(self, root: Path = WEB) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._seen: tuple[tuple[str, int, int], ...] | None = None
        self._build: Build | None = None

    def _signature(self) -> tuple[tuple[str, int, int], ...]:
        found = []
        for entry in _walk(self.root):
            st = entry.stat()
            found.append((os.path.relpath(entry.path, self.root).replace(os.sep, "/"), st.st_mtime_ns, st.st_size))
        return tuple(sorted(found))

    def build(self) -> Build:
        """The build of the files as they are now on disk."""
        seen = self._signature()
        with self._lock:
            if self._build is None or seen != self._seen:
                files = {name: (self.root / name).read_bytes() for name, _, _ in seen}
                self._build, self._seen = Build(files), seen
            return self._build

    def current(self) -> Build:
        """The last build read (or a first one): for the build's own addresses, whose bytes never change."""
        return self._build if self._build is not None else self.build()


def assets_of(request: Request) -> Assets:
    assets: Assets = request.app.state.assets
    return assets


def page(request: Request, name: str) -> Response:
    """One of the pages (``index.html``...), with the build's addresses: revalidated on each visit."""
    return assets_of(request).build().files[name].response(request, REVALIDATE)


def html(request: Request, text: str) -> str:
    """A page made by the server (the rules page), with the build's addresses."""
    return assets_of(request).build().rewrite(text)


async def static(request: Request) -> Response:
    """``GET /static/<build>/<file>``: a file of this build, kept for a year; ``/static/<file>`` and another
    build's address: the current file, revalidated each time."""
    path: str = request.path_params["path"]
    assets = assets_of(request)
    build = assets.current()
    first, _, rest = path.partition("/")
    if first == build.hash and rest in build.files:
        return build.files[rest].response(request, IMMUTABLE)
    build = assets.build()
    if first == build.hash and rest in build.files:
        return build.files[rest].response(request, IMMUTABLE)
    name = rest if re.fullmatch(r"[0-9a-f]{12}", first) and rest else path
    found = build.files.get(name)
    if found is None:
        return PlainTextResponse("Not Found", status_code=404)
    return found.response(request, REVALIDATE)


async def worker(request: Request) -> Response:
    """``GET /sw.js``: the service worker of this build (its scope: the whole site), revalidated each time."""
    return assets_of(request).build().worker.response(request, REVALIDATE, {"Service-Worker-Allowed": "/"})
