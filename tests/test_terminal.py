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


# --------------------------------------------------------------------------- the other games
class Scripted:
    """Answers the bidding prompts from a list (then ``pass``), and tries card numbers 1..16 in turn."""

    def __init__(self, bids: list[str]) -> None:
        self.bids = list(bids)
        self.next_card = 0
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not prompt.startswith("your card"):
            return self.bids.pop(0) if self.bids else "pass"
        self.next_card = self.next_card % 16 + 1
        return str(self.next_card)


def play(
    preset: str, seed: int, bids: list[str], deals: int = 1, **options: object
) -> tuple[TerminalGame, str, Scripted]:
    from belote.rules import find_rules

    rules = Rules.from_dict({"deals": deals, **options}, base=find_rules(preset))
    out: list[str] = []
    player = Scripted(bids)
    game = TerminalGame(rules, seed=seed, bot="random", delay=0, read=player, write=out.append)
    assert game.run() == 0
    return game, "\n".join(out), player


def test_coinche_bidding_in_the_terminal() -> None:
    # E deals; you (S) speak first: "take" is refused with the rule, then 80H. W bids 110C, N (your partner)
    # capot at all trumps, E coinches; you answer "coinche" (refused) and then surcoinche.
    game, text, player = play("coinche", 1, ["take", "80H", "coinche", "surcoinche"], deals=2)
    assert "--- E deals eight cards each; no card is turned ---" in text
    assert player.prompts[0] == "your bid: a contract of 80 or more in S H D C NT AT (such as 80H), pass? "
    assert "Refused: in Coinche you bid a contract such as 80H, 100NT or capotS, or pass; no card is turned" in text
    assert "West: 110 clubs\nNorth (partner): capot all trumps\nEast: coinche" in text
    assert "Highest bid: capot all trumps by N, coinched" in text
    assert "Bids: S 80 hearts, W 110 clubs, N capot all trumps, E coinche" in text
    assert player.prompts[2] == "surcoinche or pass? "
    assert "Refused: capotAT is already coinched" in text
    assert "N plays capot all trumps by N, surcoinched (x4)" not in text
    assert "N plays capot all trumps, surcoinched (x4)" in text
    assert "Contract: capot all trumps by N, surcoinched (x4)" in text
    assert "trumps all trumps  taker N" in text
    # Failed, surcoinched: (160 + 250) x 4 to the defenders.
    assert "Deal over: dedans: the contract failed" in text
    assert "  EW: card points 108, declarations 0, belote 0, scores 1640" in text
    assert "  Match: NS 0 - EW 1640" in text
    assert "The match is over: NS " in text and game.match.over


def find_text(preset: str, words: str, bids: list[str], seeds: range = range(40)) -> str:
    for seed in seeds:
        _, text, _ = play(preset, seed, bids)
        if words in text:
            return text
    raise AssertionError(f"no seed shows {words!r}")


def test_coinche_no_trumps_are_shown() -> None:
    text = find_text("coinche", "trumps no trumps", ["pass"])
    assert "Contract: " in text and " no trumps by " in text


def test_surcoinche_is_offered_after_a_coinche() -> None:
    for seed in range(60):
        _, text, player = play("coinche", seed, ["80S", "surcoinche"])
        if "surcoinche or pass? " in player.prompts:
            assert ", surcoinched (x4)" in text
            return
    raise AssertionError("no seed where a bot coinched the player's contract")


def test_three_handed_in_the_terminal() -> None:
    game, text, _ = play("three-handed", 2, ["take"], deals=2)
    assert "eight cards stay face down, out of play" in text
    assert "score N 0 - E 0 - S 0" in text
    assert "points taken N " in text and " - S " in text
    assert "Match: N " in text and "The match is over: N " in text
    assert "West" not in text and "W plays" not in text
    assert len(game.match.score) == 3


def test_two_handed_in_the_terminal_plays_table_cards() -> None:
    game, text, _ = play("two-handed", 2, ["take"])
    assert "score N 0 - E 0" in text
    assert "Your table: " in text and "East's table: " in text
    assert "+1 = a card face down under it" in text
    assert "turns up " in text
    # The player only ever types numbers, and played all ten table cards: each was chosen by its number.
    deal = game.match.deals[0]
    assert deal.result is not None
    played_by_me = {c for c, s in zip(deal.plays, deal.play_seats(), strict=True) if s == 0}
    table = {c for c in range(32) if deal.table_cards[0] >> c & 1}
    assert len(table) == 10 and table <= played_by_me
    assert "The match is over: N " in text


def test_play_command_with_a_preset_and_options() -> None:
    script = "\n".join(["80H", "pass", "pass", *[str(n) for n in range(1, 9)] * 20]) + "\n"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "belote.cli",
            "play",
            "--bot",
            "random",
            "--seed",
            "4",
            "--deals",
            "1",
            "--delay",
            "0",
            "--rules",
            "coinche",
            "--option",
            "surcoinche=3",
            "--option",
            "no_trump_all_trump=false",
        ],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "The match is over" in proc.stdout
    assert "in S H D C (such as" in proc.stdout  # no NT or AT at this table
    bad = subprocess.run(
        [sys.executable, "-m", "belote.cli", "play", "--option", "colour=red"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "unknown rule option 'colour'" in bad.stderr and "Traceback" not in bad.stderr
