"""Helpers of the table page's browser tests: a real ``belote serve`` process and Debian's Chromium.

The server runs as a subprocess (``python -m belote.cli serve``) on a SQLite file, so that a test can
kill it and start it again on the same file, as a restart would.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx

from belote.game import Match, action_str, parse_action
from belote.server.store import SQLiteStore
from belote.server.tables import rules_of

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``belote serve`` on a free port and a SQLite file; ``kill`` and ``start`` again on the same file."""

    def __init__(self, db: Path, log: Path) -> None:
        self.db = db
        self.log_path = log
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> None:
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "belote.cli", "serve", "--port", str(self.port), "--db", str(self.db)],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"belote serve exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1.0).json().get("ok"):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("belote serve did not answer /api/health")

    def kill(self) -> None:
        """Stop the process as a crash would (SIGKILL): nothing is flushed on the way out."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None

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


def open_tab(browser: Any, **options: Any) -> Tab:
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    tab = Tab(page, context)
    page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: tab.errors.append(f"uncaught: {e}"))
    return tab
