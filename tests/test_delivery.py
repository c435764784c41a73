"""How the server delivers the page (server/assets.py, docs/operations.md "The page's files"): compressed
answers, the page's files under the build's address and kept a year, the pages revalidated, the old
addresses still answering, the web-app manifest and its icons, and the service worker's script."""

from __future__ import annotations

import json
import re
import shutil
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urljoin

import pytest
from starlette.testclient import TestClient

from belote.server.assets import WEB, Assets

PAGES = [
    "/",
    "/scores",
    "/review",
    "/problems",
    "/tournaments",
    "/tournaments/daily-classic-20261204",
    "/rules?lang=en",
    "/rules?lang=fr",
]
YEAR = "public, max-age=31536000, immutable"
GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def build_of(client: TestClient) -> str:
    """The build the table page names (its stylesheet's address)."""
    found = re.search(r'href="/static/([0-9a-f]{12})/style\.css"', client.get("/").text)
    assert found is not None
    return found.group(1)


def static_refs(html: str) -> list[str]:
    """Every /static/ address a page names in an attribute."""
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def png_facts(data: bytes) -> tuple[int, int, int, tuple[int, ...]]:
    """A PNG's width, height, colour type, and its first pixel (from its unfiltered first row)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert depth == 8
    idat = b"".join(body for kind, body in _chunks(data) if kind == b"IDAT")
    raw = zlib.decompress(idat)
    assert raw[0] == 0, "the first row is unfiltered"
    channels = {2: 3, 6: 4}[colour]
    return width, height, colour, tuple(raw[1 : 1 + channels])


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    at, out = 8, []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        out.append((data[at + 4 : at + 8], data[at + 8 : at + 8 + length]))
        at += 12 + length
    return out


def test_the_pages_name_their_files_by_the_build(client: TestClient) -> None:
    build = Assets(WEB).build().hash
    assert re.fullmatch(r"[0-9a-f]{12}", build)
    assert build_of(client) == build
    for path in PAGES:
        refs = static_refs(client.get(path).text)
        assert refs, path
        for ref in refs:
            assert ref.startswith(f"/static/{build}/"), (path, ref)
            r = client.get(ref)
            assert r.status_code == 200, ref
            assert r.headers["cache-control"] == YEAR, ref


def compressed(client: TestClient, path: str) -> None:
    packed, plain = client.get(path, headers=GZIP), client.get(path, headers=PLAIN)
    assert packed.status_code == plain.status_code == 200, path
    assert packed.headers.get("content-encoding") == "gzip", path
    assert "accept-encoding" in packed.headers["vary"].lower(), path
    assert "content-encoding" not in plain.headers, path
    assert packed.content == plain.content, path  # the same bytes, once unpacked
    assert int(packed.headers["content-length"]) < len(plain.content) / 2, path


def test_every_page_script_style_json_and_markdown_is_compressed(client: TestClient) -> None:
    for path in [*PAGES, "/api/games", "/api/openapi.json", "/api/problems", "/static/i18n.js", "/static/rules.fr.md"]:
        compressed(client, path)
    build = build_of(client)
    for path in [
        f"/static/{build}/app.js",
        f"/static/{build}/style.css",
        f"/static/{build}/rules.fr.md",
        f"/static/{build}/manifest.webmanifest",
        "/sw.js",
    ]:
        compressed(client, path)
    # A PNG is sent as it is: gzip would not make it smaller.
    icon = client.get(f"/static/{build}/icons/icon-512.png", headers=GZIP)
    assert "content-encoding" not in icon.headers and icon.headers["content-type"] == "image/png"


def test_the_websocket_is_not_touched(client: TestClient) -> None:
    with client.websocket_connect("/ws", headers=GZIP) as ws:
        ws.send_json({"type": "join", "table": "nope", "token": "x"})
        assert ws.receive_json()["code"] == "no_such_table"


def test_the_build_files_are_kept_a_year_and_the_pages_revalidated(client: TestClient) -> None:
    for path in PAGES:
        r = client.get(path)
        assert r.headers.get("cache-control") == "no-cache", path
        assert r.headers["content-type"] == "text/html; charset=utf-8", path
    first = client.get("/")
    again = client.get("/", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["cache-control"] == "no-cache"
    build = build_of(client)
    for path in [f"/static/{build}/app.js", f"/static/{build}/style.css", f"/static/{build}/icons/icon-192.png"]:
        r = client.get(path)
        assert r.headers["cache-control"] == YEAR, path
        assert client.get(path, headers={"If-None-Match": r.headers["etag"]}).status_code == 304, path


def test_the_table_page_preloads_every_module_it_imports(client: TestClient) -> None:
    page = client.get("/").text
    build = build_of(client)
    prefix = f"/static/{build}/"
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', page))
    entries = set(re.findall(r'<script type="module" src="([^"]+)">', page))
    assert entries == {prefix + "app.js", prefix + "offline.js"}
    deep = ("view.js", "state.js", "i18n.js", "cards.js", "gamefacts.js", "piles.js")
    assert {prefix + name for name in deep} <= preloaded
    # Closed under import: whatever a module names is preloaded too, so no module waits for its importer.
    for module in preloaded | entries:
        source = client.get(module).text
        for name in re.findall(r'from "\./([\w-]+\.js)"', source):
            assert prefix + name in preloaded | entries, (module, name)
    assert len(preloaded) == page.count('rel="modulepreload"'), "each module once"


def test_old_addresses_keep_answering_with_the_current_files(client: TestClient) -> None:
    old = client.get("/static/app.js")  # the address before builds
    assert old.status_code == 200
    assert old.headers.get("cache-control") == "no-cache"  # its bytes change with the build
    build = build_of(client)
    current = client.get(f"/static/{build}/app.js")
    for path in ["/static/app.js", "/static/0123456789ab/app.js"]:  # and another build's
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.content == current.content, path
        assert r.headers["cache-control"] == "no-cache", path
        assert r.headers["content-type"] == "text/javascript; charset=utf-8"
    assert client.head("/static/style.css").status_code == 200
    for path in [f"/static/{build}/nope.js", "/static/nope.js", "/static/../server/app.py", "/static/%2e%2e/cli.py"]:
        assert client.get(path).status_code == 404, path


def test_the_manifest_and_its_icons(client: TestClient) -> None:
    page = client.get("/").text
    link = re.search(r'<link rel="manifest" href="([^"]+)">', page)
    assert link is not None
    url = urljoin("http://testserver/", link.group(1))
    r = client.get(url)
    assert r.headers["content-type"] == "application/manifest+json"
    manifest = json.loads(r.text)
    assert {k: manifest[k] for k in ("id", "name", "short_name", "start_url", "scope", "display", "lang")} == {
        "id": "/",
        "name": "Belote",
        "short_name": "Belote",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "lang": "en",
    }
    theme = re.search(r'<meta name="theme-color" content="([^"]+)">', page)
    assert theme is not None and manifest["theme_color"] == theme.group(1) == "#0f4d2e"
    assert manifest["background_color"] == "#0d4a29"  # the felt's dark edge (style.css --felt-dark)
    assert manifest["translations"]["fr"]["name"] == "Belote"
    assert manifest["translations"]["fr"]["description"].startswith("Le jeu de cartes de la belote")
    sizes: dict[str, set[str]] = {}
    for icon in manifest["icons"]:
        answer = client.get(urljoin(url, icon["src"]))
        assert answer.status_code == 200, icon
        assert answer.headers["content-type"] == icon["type"], icon
        sizes.setdefault(icon["purpose"], set()).add(icon["sizes"])
        if icon["type"] == "image/png":
            width, height, colour, corner = png_facts(answer.content)
            assert f"{width}x{height}" == icon["sizes"], icon
            if icon["purpose"] == "maskable":  # the felt to the edges: every launcher's mask keeps the middle
                assert (colour, corner) == (2, (0x17, 0x70, 0x3F)), icon
            else:  # a rounded square: its corners are clear
                assert colour == 6 and corner[3] == 0, icon
        else:
            assert answer.text.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert sizes == {"any": {"any", "192x192", "512x512"}, "maskable": {"192x192", "512x512"}}
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert touch is not None
    assert png_facts(client.get(touch.group(1)).content)[:3] == (180, 180, 2)


def test_every_page_links_the_manifest_and_the_icon(client: TestClient) -> None:
    build = build_of(client)
    for path in PAGES:
        page = client.get(path).text
        assert f'<link rel="manifest" href="/static/{build}/manifest.webmanifest">' in page, path
        assert f'<link rel="icon" href="/static/{build}/icons/icon.svg" type="image/svg+xml">' in page, path
        assert f'<link rel="apple-touch-icon" href="/static/{build}/icons/apple-touch-icon.png">' in page, path


def test_the_icons_are_what_the_script_draws() -> None:
    # The PNGs' bytes hang on zlib's version; the SVG, which the PNGs are drawn from, does not.
    import importlib.util

    spec = importlib.util.spec_from_file_location("icons", Path(__file__).resolve().parents[1] / "scripts" / "icons.py")
    assert spec is not None and spec.loader is not None
    icons = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(icons)
    assert (WEB / "icons" / "icon.svg").read_text() == icons.svg()
    assert set(icons.ICONS) | {"icon.svg"} == {p.name for p in (WEB / "icons").iterdir()}


def test_the_service_worker_script(client: TestClient) -> None:
    build = build_of(client)
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/javascript; charset=utf-8"
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["service-worker-allowed"] == "/"
    head = re.match(r'const BUILD = "([0-9a-f]{12})";\nconst FILES = (\[.*?\]);\n', r.text, re.DOTALL)
    assert head is not None
    assert head.group(1) == build
    files = json.loads(head.group(2))
    page = client.get("/").text
    named = [ref for ref in static_refs(page) if not ref.endswith((".png", ".webmanifest"))]
    assert files[0] == "/" and set(files[1:]) == set(named)
    assert all(f.startswith(f"/static/{build}/") for f in files[1:])
    assert not any("/api" in f for f in files)
    assert 'self.addEventListener("fetch"' in r.text


@pytest.mark.parametrize("changed", ["style.css", "icons/icon.svg"])
def test_a_changed_file_is_a_new_build_and_a_new_worker(
    app_client: Callable[..., TestClient], tmp_path: Path, changed: str
) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    with app_client() as client:
        client.app.state.assets = Assets(web)  # type: ignore[attr-defined]
        old = build_of(client)
        worker = client.get("/sw.js").text
        (web / changed).write_bytes((web / changed).read_bytes() + b"\n")
        new = build_of(client)
        assert new != old
        assert client.get("/sw.js").text != worker
        assert f'const BUILD = "{new}";' in client.get("/sw.js").text
        r = client.get(f"/static/{new}/{changed}")
        assert r.headers["cache-control"] == YEAR and r.content.endswith(b"\n")
        stale = client.get(f"/static/{old}/{changed}")  # an open page of the old build: today's bytes
        assert stale.content == r.content and stale.headers["cache-control"] == "no-cache"
