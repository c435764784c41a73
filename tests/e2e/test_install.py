"""The table page as an installed app, in Debian's Chromium: the manifest Chromium reads without an error,
the service worker that keeps the page's files (and nothing else), the page opened without the network
with its notice, a new build's worker taking over, and the hidden tab told that the reader's turn came.

A tab here is never hidden (headless Chromium keeps every tab visible), so the tests that need one hide
it as the browser does: ``document.hidden`` and ``document.visibilityState`` say so and a
``visibilitychange`` event is sent (``HIDDEN``, before the page's scripts); the page reads nothing else.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import assert_no_serious
from playwright.sync_api import expect
from table_fixtures import DESKTOP, PHONE

from belote.server.assets import WEB, Assets
from belote.server.store import SQLiteStore
from netplay import serve_in_thread

Tab = Any  # ``open_tab`` (tests/e2e/conftest.py): ``.page`` and ``.errors``
SHOTS = Path("/work/shots/delivery")

# Before the page's scripts: the tab can be hidden and shown again as a browser does it.
HIDDEN = """
(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "hidden", { get: () => hidden, configurable: true });
  const state = () => (hidden ? "hidden" : "visible");
  Object.defineProperty(Document.prototype, "visibilityState", { get: state, configurable: true });
  window.__hide = (h) => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
  window.__asked = 0;  // how many times the page asked the browser for notifications
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.__asked += 1; return ask(...args); };
})();
"""
CONTROLLED = "() => !!navigator.serviceWorker.controller"


def quick_bots(page: Any) -> None:
    """Easy and fast bots on the home screen (the reader's turn comes soon)."""
    page.get_by_test_id("settings-more").locator("summary").click()
    page.get_by_test_id("settings-strength").select_option("easy")
    page.get_by_test_id("settings-speed").select_option("fast")


CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    out[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname).sort();
  }
  return out;
}"""
NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications({ tag: "belote-turn" })).map((n) => [n.title, n.body]);
}"""
# Keeps what an asynchronous question of the page answers in window.__answer (asked every 50 ms), so that
# a test waits for the answer it needs (wait_for_function takes no promise).
WATCH = """(ask) => {
  const f = eval(ask);
  setInterval(async () => { window.__answer = JSON.stringify(await f()); }, 50);
}"""
# What the network's loss may leave in the console: the requests that found no network.
OFFLINE_ERRORS = ("net::ERR_INTERNET_DISCONNECTED", "Failed to fetch")


def build_of(page: Any) -> str:
    found = re.search(r'href="/static/([0-9a-f]{12})/style\.css"', page.content())
    assert found is not None
    return found.group(1)


def worker_files(page: Any) -> list[str]:
    """The files the service worker keeps: its FILES, as the server wrote them in its first lines."""
    text = page.evaluate("fetch('/sw.js').then((r) => r.text())")
    found = re.search(r"const FILES = (\[.*?\]);", text, re.DOTALL)
    assert found is not None
    return sorted(json.loads(found.group(1)))


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_the_page_links_a_manifest_chromium_reads_and_can_be_installed(
    open_tab: Callable[..., Tab], base_url: str
) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    page.goto(base_url + "/")
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{base_url}/static/{build_of(page)}/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed = json.loads(manifest["data"])
    assert (parsed["display"], parsed["start_url"], parsed["theme_color"]) == ("standalone", "/", "#0f4d2e")
    page.wait_for_function(CONTROLLED)  # the service worker installed and took the page
    # All that keeps it from the home screen here is the private profile of a test's browser context.
    assert cdp.send("Page.getInstallabilityErrors") == {
        "installabilityErrors": [{"errorId": "in-incognito", "errorArguments": []}]
    }
    assert tab.errors == []


OFFLINE_WORDS = {
    "en": "No network The table needs the network to play: it opens again by itself as soon as the connection is back.",
    "fr": "Pas de réseau La table a besoin du réseau pour jouer : elle se rouvre d'elle-même dès que la connexion "
    "est rétablie.",
}


@pytest.mark.parametrize(("lang", "view"), [("en", DESKTOP), ("fr", PHONE)])
def test_without_the_network_the_page_opens_and_says_the_table_needs_it(
    open_tab: Callable[..., Tab], base_url: str, lang: str, view: dict[str, Any]
) -> None:
    tab = open_tab(**view)
    page = tab.page
    page.goto(base_url + "/")
    page.get_by_test_id("settings-lang").select_option(lang)
    quick_bots(page)
    page.get_by_test_id("settings-start").click()  # a solo table: API requests, a websocket, a seat token
    page.wait_for_function("() => window.__belote.joined && window.__belote.view !== null")
    page.wait_for_function(CONTROLLED)
    build = build_of(page)
    files = worker_files(page)
    assert files[0] == "/" and all(f.startswith(f"/static/{build}/") for f in files[1:])
    # The worker keeps its build's files and nothing else: no answer of the API, nothing of the table.
    assert page.evaluate(CACHED) == {f"belote-{build}": files}

    page.context.set_offline(True)
    page.reload()
    note = page.get_by_test_id("offline")
    expect(note).to_be_visible()
    assert " ".join(note.inner_text().split()) == OFFLINE_WORDS[lang]
    assert page.evaluate("document.documentElement.hasAttribute('data-offline')")  # the worker's copy
    expect(page.locator("header.bar")).to_be_visible()  # the page, not the browser's error page
    assert page.title() == "Belote"
    assert page.evaluate("document.documentElement.lang") == lang
    assert_no_serious(page, f"the page without the network ({lang})")
    shoot(page, f"offline-{lang}-{view['viewport']['width']}")

    page.context.set_offline(False)  # the page goes back to its table by itself
    page.wait_for_function("() => window.__belote.joined && window.__belote.view !== null")
    expect(note).to_be_hidden()
    assert page.evaluate(CACHED) == {f"belote-{build}": files}
    assert tab.unexpected_errors(*OFFLINE_ERRORS) == []


@pytest.fixture
def copy_served(store: SQLiteStore, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The server, on a copy of the page's files that a test may change (a new version of the page)."""
    from conftest import make_app

    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    app = make_app(store)
    app.state.assets = Assets(web)
    with serve_in_thread(app) as url:
        yield url, web


def test_a_new_build_takes_over_and_the_old_cache_goes(
    open_tab: Callable[..., Tab], copy_served: tuple[str, Path]
) -> None:
    url, web = copy_served
    tab = open_tab(**DESKTOP)
    page = tab.page
    page.goto(url + "/")
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.wait_for_function(CONTROLLED)
    old = build_of(page)
    assert list(page.evaluate(CACHED)) == [f"belote-{old}"]

    (web / "style.css").write_text((web / "style.css").read_text() + "\n/* the next version */\n")
    page.reload()
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    new = build_of(page)
    assert new != old
    # The new worker installs, takes the page over and deletes the old build's files.
    page.evaluate(WATCH, "async () => (await caches.keys()).join()")
    page.wait_for_function("n => window.__answer === JSON.stringify(n)", arg=f"belote-{new}")
    page.wait_for_function(CONTROLLED)
    print("DBG", old, new, list(page.evaluate(CACHED)), worker_files(page)[:2])
    assert page.evaluate(CACHED) == {f"belote-{new}": worker_files(page)}
    assert page.evaluate("getComputedStyle(document.body).display") == "block"

    page.context.set_offline(True)  # and it is the new version that opens without the network
    page.reload()
    expect(page.get_by_test_id("offline")).to_be_visible()
    assert build_of(page) == new
    assert tab.unexpected_errors(*OFFLINE_ERRORS) == []


@pytest.mark.parametrize(("lang", "title"), [("en", "★ Your turn — Belote"), ("fr", "★ À vous — Belote")])
def test_a_hidden_tab_says_the_turn_came(open_tab: Callable[..., Tab], base_url: str, lang: str, title: str) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    page.add_init_script(HIDDEN)
    page.goto(base_url + "/")
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("settings-lang").select_option(lang)
    quick_bots(page)
    page.evaluate("window.__hide(true)")  # the person goes to another tab, then the game starts
    page.get_by_test_id("settings-start").click()
    page.wait_for_function("t => document.title === t", arg=title)
    assert page.evaluate("window.__belote.view.to_move === window.__belote.seat")
    page.evaluate("window.__hide(false)")  # back on the tab: its title again
    page.wait_for_function("() => document.title === 'Belote'")
    assert page.evaluate("window.__belote.view.to_move === window.__belote.seat")  # still the reader's turn
    assert tab.errors == []


def test_the_turn_is_notified_when_the_person_asked(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    page.add_init_script(HIDDEN)
    page.goto(base_url + "/")
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.wait_for_function(CONTROLLED)
    page.get_by_test_id("prefs").locator("summary").click()  # How the table plays for you
    box = page.get_by_test_id("notify-turn")
    # Off until the person turns it on; the browser is asked then, never on load.
    expect(box).not_to_be_checked()
    assert page.evaluate("[window.__asked, Notification.permission]") == [0, "default"]
    box.click()  # the browser refuses (a test's browser says no to every prompt): the page says so
    expect(page.get_by_test_id("notify-refused")).to_be_visible()
    assert page.evaluate("[window.__asked, Notification.permission]") == [1, "denied"]
    expect(box).not_to_be_checked()
    assert_no_serious(page, "the home screen, notifications refused", '[data-testid="settings-dialog"]')
    shoot(page, "notify-refused-en")
    page.context.grant_permissions(["notifications"])  # the person allows them in the browser's settings
    box.click()
    expect(box).to_be_checked()
    expect(page.get_by_test_id("notify-refused")).to_be_hidden()
    assert page.evaluate("window.__asked") == 1

    quick_bots(page)
    page.evaluate("window.__hide(true)")
    page.get_by_test_id("settings-start").click()
    page.wait_for_function("() => document.title === '★ Your turn — Belote'")
    page.evaluate(WATCH, NOTIFICATIONS)
    page.wait_for_function(
        "n => window.__answer === JSON.stringify(n)", arg=[["Belote: your turn", "The table is waiting for you."]]
    )

    page.evaluate("window.__hide(false)")  # back on the tab: the notification is done with
    page.wait_for_function("() => window.__answer === '[]'")
    assert tab.errors == []
