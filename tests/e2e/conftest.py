"""Browser tests: a real uvicorn server in a background thread, and Debian's Chromium through Playwright.

``make_app(store)`` builds the app under test: the main one, since the pages build their forms from
its ``GET /api/games``. Another app must serve that, the score sheet's routes, the page at ``/scores``
and ``src/belote/web`` at ``/static``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

from belote.server.app import create_app
from belote.server.store import SQLiteStore

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_fixtures import ARTIFACTS, BY_HAND, CHROMIUM, CHROMIUM_ARGS

from netplay import serve_in_thread


def make_app(store: SQLiteStore) -> Starlette:
    """The app the browser talks to: the whole server (``/api/games``, the sheet's routes, the pages)."""
    return create_app(store)


@pytest.fixture(scope="session")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path_factory.mktemp("e2e") / "e2e.sqlite3")
    yield s
    s.close()


@pytest.fixture(scope="session")
def base_url(store: SQLiteStore) -> Iterator[str]:
    """The server's address (uvicorn in a thread of this process)."""
    with serve_in_thread(make_app(store)) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's package chromium (./scripts/test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@dataclass
class Tab:
    """A page and what its console said: ``errors`` holds console errors and uncaught exceptions."""

    page: Any
    errors: list[str] = field(default_factory=list)

    def unexpected_errors(self, *allowed: str) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in allowed)]


@pytest.fixture
def open_tab(browser: Any) -> Iterator[Callable[..., Tab]]:
    """``open_tab(**context_options)``: a fresh browser context (no shared storage) and its page; the
    player's preferences by hand (``table_fixtures.BY_HAND``) unless ``flowing=True``."""
    contexts: list[Any] = []

    def open_(flowing: bool = False, **options: Any) -> Tab:
        context = browser.new_context(**options)
        if not flowing:
            context.add_init_script(BY_HAND)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        tab = Tab(page)
        page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: tab.errors.append(f"uncaught: {e}"))
        return tab

    yield open_
    for context in contexts:
        context.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
