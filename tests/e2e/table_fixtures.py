"""Helpers of the table page's browser tests: a real ``belote serve`` process and Debian's Chromium.

The server runs as a subprocess (``python -m belote.cli serve``) on a SQLite file, so that a test can
kill it and start it again on the same file, as a restart would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from belote.game import Match, action_str, parse_action
from belote.server.room import rules_of
from belote.server.store import SQLiteStore
from netplay import Server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


class ServerProcess(Server):
    """``belote serve`` on a free port and a SQLite file (``netplay.Server``): ``kill`` it as a crash
    would (SIGKILL) and ``start`` it again on the same file; ``url`` is the page's address."""

    @property
    def url(self) -> str:
        return self.base

    def replay(self, table_id: str) -> tuple[dict[str, Any], Match]:
        """The table as the store has it: its settings, and its match replayed through the engine."""
        store = SQLiteStore(self.db)
        try:
            loaded = store.load_table(table_id)
        finally:
            store.close()
        assert loaded is not None, f"table {table_id} is not in the store"
        meta, actions = loaded
        match = Match(rules_of(meta["settings"]), seed=int(meta["seed"]), first_dealer=int(meta["seed"]) % 4)
        for a in actions:
            match.apply(parse_action(a))
        return meta, match


def legal_strings(match: Match) -> set[str]:
    return {action_str(a) for a in match.legal_actions()}


@dataclass
class Tab:
    """A page, and the errors its console reported (console errors and uncaught exceptions)."""

    page: Any
    context: Any
    errors: list[str] = field(default_factory=list)

    def unexpected_errors(self, *allowed: str) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in allowed)]


#: The player's preferences in the browser tests (web/flow.js), unless a test keeps the page's own
#: (``flowing=True``): the next deal waits for Continue and every card is played by a click, as each
#: test drives the table itself. Set on a first visit only: a test may change them as a person would.
BY_HAND = (
    "try { if (!localStorage.getItem('belote.prefs'))"
    " localStorage.setItem('belote.prefs', JSON.stringify({autoNext: 0, autoPlay: false})); }"
    " catch (e) { /* a document without storage (about:blank): no page of ours */ }"
)


def open_tab(browser: Any, flowing: bool = False, **options: Any) -> Tab:
    context = browser.new_context(**options)
    if not flowing:
        context.add_init_script(BY_HAND)
    page = context.new_page()
    page.set_default_timeout(15_000)
    tab = Tab(page, context)
    page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: tab.errors.append(f"uncaught: {e}"))
    return tab


def open_solo(page: Any, url: str, lang: str = "en", tap: bool = False, **choices: str) -> None:
    """A first visit: the home screen, the rules opened (one click away), easy and fast bots, any
    other ``choices`` (a setting's test id's end and its value), the language, and deal."""
    page.goto(url)
    dialog = page.get_by_test_id("settings-dialog")
    expect(dialog).to_be_visible()
    page.get_by_test_id("settings-more").locator("summary").click()
    page.get_by_test_id("settings-strength").select_option("easy")
    page.get_by_test_id("settings-speed").select_option("fast")
    for name, value in choices.items():
        field = page.get_by_test_id(f"settings-{name}")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.get_by_test_id("settings-lang").select_option(lang)
    start = page.get_by_test_id("settings-start")
    start.tap() if tap else start.click()
    expect(dialog).to_be_hidden()
    page.wait_for_function("() => window.__belote.joined && window.__belote.view !== null")


# WCAG's contrast of two colours written "#rrggbb" (the ratio of their relative luminances).
def luminance(color: str) -> float:
    def channel(hex2: str) -> float:
        c = int(hex2, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(color[i : i + 2]) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
