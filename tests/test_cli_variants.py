"""The ``belote`` command with the games of ``--rules`` and options on top (``--option NAME=VALUE``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from games import GAMES, OTHER_GAMES


def belote(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "belote.cli", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("preset", OTHER_GAMES)  # the classic game: tests/test_arena.py
def test_arena_plays_each_game(preset: str) -> None:
    proc = belote(
        "arena", "--ns", "random", "--ew", "random", "--rules", preset, "--option", "rounding=true",
        "--deals", "3", "--jobs", "1", "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["rules"]["variant"] == preset and out["rules"]["rounding"] is True


def test_help_names_the_games() -> None:
    for sub in ("play", "deal", "arena", "scores"):
        proc = belote(sub, "--help")
        assert proc.returncode == 0 and "--option NAME=VALUE" in proc.stdout
        assert all(game in proc.stdout for game in GAMES), (sub, proc.stdout)
