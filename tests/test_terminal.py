"""Terminal play: a person as South against three bots, through the same state machine."""

from __future__ import annotations

import subprocess
import sys

from belote.rules import Rules
from belote.terminal import TerminalGame


class Player:
    """Answers the prompts: takes in the first round, passes in the second, tries cards 1..8 in turn."""

    def __init__(self) -> None:
        self.next_card = 0
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("take"):
            return "take"
        if prompt.startswith("name"):
            return "pass"
        self.next_card = self.next_card % 8 + 1
        return str(self.next_card)


def test_a_whole_match_in_the_terminal() -> None:
    out: list[str] = []
    player = Player()
    game = TerminalGame(Rules(target=301), seed=4, bot="random", delay=0, read=player, write=out.append)
    assert game.run() == 0
    text = "\n".join(out)
    assert "The match is over" in text
    assert game.match.over and max(game.match.score) >= 301
    assert "Your hand:" in text and "[1]" in text  # legal cards are marked
    assert "Refused: you must" in text  # illegal choices are refused with the rule
    assert "Deal over:" in text and "Match: NS" in text


def test_illegal_input_is_refused_and_the_game_goes_on() -> None:
    answers = iter(["hello", "ZZ", "9", "take"] + ["1", "2", "3", "4", "5", "6", "7", "8"] * 200)
    out: list[str] = []
    game = TerminalGame(Rules(deals=1), seed=1, bot="random", delay=0, read=lambda _p: next(answers), write=out.append)
    game.run()
    text = "\n".join(out)
    assert "Refused: 'hello' is not an action" in text
    assert "Refused: 'ZZ' is not an action" in text


def test_quit_leaves_cleanly() -> None:
    out: list[str] = []
    game = TerminalGame(Rules(), seed=2, bot="random", delay=0, read=lambda _p: "q", write=out.append)
    assert game.run() == 1
    assert out[-1] == "Bye."


def test_belote_play_command_runs_to_the_end_of_a_match() -> None:
    # "pass" answers every bidding prompt; the numbers find a legal card (the others are refused).
    script = "\n".join(["pass", "1", "2", "3", "4", "5", "6", "7", "8"] * 400) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "belote.cli", "play", "--bot", "random", "--seed", "3", "--deals", "2", "--delay", "0"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "The match is over" in proc.stdout, proc.stderr[-2000:]
    assert proc.returncode == 0
