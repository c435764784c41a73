"""Helpers of the online browser tests: the full app in a background thread, and the steps of a page.

The app is ``belote.server.app.create_app`` with a short queue wait and bots that act at once, so a
test waits for people (the pages) and not for the bots' pauses. Each page reports what it shows
through ``window.__belote`` (src/belote/web/app.js).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from belote.server.app import create_app
from belote.server.store import SQLiteStore
from belote.server.tables import ServerConfig
from netplay import serve_in_thread

QUEUE_WAIT = 2.0  # seconds before bots fill an online table
TURN_TIMER = 90  # long enough that no bot takes over a slow test's seat


@contextmanager
def app_server(db: Path, **config: Any) -> Iterator[str]:
    """The whole app (pages, HTTP routes, websocket) on a free port; yields its address."""
    store = SQLiteStore(db)
    app = create_app(store, config=ServerConfig(**{"queue_wait": QUEUE_WAIT, "turn_timer": TURN_TIMER, **config}))
    try:
        with serve_in_thread(app) as url:
            yield url
    finally:
        store.close()


# ---------------------------------------------------------------------- what a page shows
STATE_JS = """() => { const b = window.__belote;
  return b ? {seat: b.seat, kind: b.kind, status: b.status, host: b.host, table: b.table, last: b.last,
              view: b.view, waiting: b.waiting, players: b.players, joined: b.joined,
              spectator: b.spectator} : null; }"""


def state(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(STATE_JS)
    return found


def wait_js(page: Any, js: str, arg: Any = None, timeout: float = 15_000) -> None:
    page.wait_for_function(js, arg=arg, timeout=timeout)


def hand(page: Any) -> list[str]:
    return list(page.eval_on_selector_all('[data-testid="hand-card"]', "els => els.map(e => e.dataset.card)"))


RECORD_JS = """([id, inner]) => {
  const el = document.querySelector(`[data-testid="${id}"]`);
  const seen = (window.__seen = window.__seen || {});
  const texts = (seen[id + (inner || "")] = []);
  const note = () => { const t = inner ? el.querySelector(inner) : el; if (t) texts.push(t.textContent); };
  note();
  new MutationObserver(note).observe(el, {childList: true, characterData: true, subtree: true});
}"""


def record_texts(page: Any, test_id: str, inner: str | None = None) -> None:
    """From now on, keep every text the element ``test_id`` (or the ``inner`` element in it) shows,
    for ``recorded_texts``: a text shown only for a while (the queue's wait, a turn's clock) is then
    checked however late the test looks, not only if it looks in time."""
    page.evaluate(RECORD_JS, [test_id, inner])


def recorded_texts(page: Any, test_id: str, inner: str | None = None) -> list[str]:
    texts: list[str] = page.evaluate("([id, inner]) => window.__seen[id + (inner || '')]", [test_id, inner])
    return texts


def chat_lines(page: Any) -> list[str]:
    return list(page.eval_on_selector_all('[data-testid="chat-line"]', "els => els.map(e => e.textContent)"))


# ---------------------------------------------------------------------- steps
def create_table(page: Any, url: str, name: str, variant: str | None = None) -> dict[str, str]:
    """From the home screen: Create a table (of ``variant``, else the game the form shows); the page
    shows the lobby. Returns its two links."""
    page.goto(url)
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("mode-create").click()
    page.get_by_test_id("create-name").fill(name)
    if variant is not None:
        page.get_by_test_id(f"create-variant-{variant}").click()
    page.get_by_test_id("create-go").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    invite = page.get_by_test_id("invite-link")
    expect(invite).not_to_have_value("")
    return {"invite": invite.input_value(), "watch": page.get_by_test_id("watch-link").input_value()}


def sit(page: Any, invite: str, name: str, seat: str = "") -> str:
    """Opens an invite link, gives a name (and a seat), sits: the page shows the lobby. Returns the seat."""
    page.goto(invite)
    dialog = page.get_by_test_id("sit-dialog")
    expect(dialog).to_be_visible()
    page.get_by_test_id("sit-name").fill(name)
    if seat:
        page.get_by_test_id("sit-seat").select_option(seat)
    page.get_by_test_id("sit-submit").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    wait_js(page, "() => window.__belote.seat !== null")
    seat_taken: str = page.evaluate("() => window.__belote.seat")
    return seat_taken


class QueueClock:
    """The matchmaker's clock of the wall (``time.time``), stopped until the test moves it: the queue's
    wait ends when the test says, not when a loaded machine happens to be slow. Its monotonic clock
    (how often the queue is told) is the real one. A test sets it in place of the module ``time`` of
    ``belote.server.matchmaking`` (``monkeypatch.setattr``)."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return time.monotonic()


def my_turn(page: Any) -> bool:
    return bool(
        page.evaluate(
            """() => { const b = window.__belote; const v = b.view;
               return !!v && b.connected && !v.match_over && !b.waiting && v.to_move === b.seat; }"""
        )
    )


def next_to_move(tabs: dict[str, Any], timeout: float = 20.0) -> str | None:
    """The seat whose page may act now; None once every page shows the deal's score."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for seat, tab in tabs.items():
            if my_turn(tab.page):
                return seat
        if all(tab.page.get_by_test_id("score-panel").is_visible() for tab in tabs.values()):
            return None
        time.sleep(0.05)
    raise AssertionError("nobody's turn came")
