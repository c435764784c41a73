"""``belote scores``: the score sheet in a terminal, for a match played with real cards.

Each deal is asked for in turn, scored by the engine through ``belote.sheet.Sheet``, printed with
the running total, and saved to the store at once, so ``--sheet ID`` picks the match up where it was
left. At any prompt ``u`` undoes the last deal and ``q`` quits. What is asked depends on the game
(``--rules``): who took, the takers' card points, declarations, belote, capot (classic and two-handed);
the contract, who bid it, coinche or surcoinche, then the same (Coinche); who dealt, who took, each
player's card points, declarations, belote, capot (three-handed).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from belote.cli_rules import add_rules_arguments, rules_from_args
from belote.contracts import GENERALE, MODE_LETTERS, contract_of, is_contract, parse_contract
from belote.ids import new_id
from belote.play import MODE_NAMES
from belote.rules import OPTION_SPECS, RulesError
from belote.scoring import DEAL_POINTS
from belote.server.store import SQLiteStore, default_path
from belote.sheet import (
    MAX_DECLARATIONS,
    WORDS,
    AnyEntry,
    ContractEntry,
    Entry,
    Sheet,
    SheetError,
    ThreeEntry,
)

NONE_WORDS = ("", "-", "n", "no", "none", "nobody", "0")
YES_WORDS = ("y", "yes", "o", "oui")
NO_WORDS = ("", "n", "no", "non")


def _start_score(text: str) -> tuple[int, ...]:
    parts = text.split("-")
    if len(parts) < 2 or not all(p.strip().isdigit() for p in parts):
        raise argparse.ArgumentTypeError(
            f"a starting score is NS-EW, e.g. 210-176 (N-E-S at three hands), not {text!r}"
        )
    return tuple(int(p) for p in parts)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """The ``scores`` subcommand, with ``main`` as its ``func``."""
    p = subparsers.add_parser(
        "scores",
        help="keep the score of a match played with real cards",
        description="A score sheet for a match played with real cards: enter each deal, the engine scores it, "
        "and the sheet keeps the running total up to the line. Type u at any prompt to undo the last deal, "
        "q to quit; the sheet is saved after every deal.",
    )
    goal = p.add_mutually_exclusive_group()
    goal.add_argument("--target", type=int, default=None, help="the line to play to (default 501)")
    goal.add_argument("--deals", type=int, default=None, metavar="N", help="play N deals instead of to a line")
    p.add_argument(
        "--start",
        type=_start_score,
        default=None,
        metavar="NS-EW",
        help="a starting score, e.g. 210-176 (at three hands N-E-S, e.g. 120-80-95)",
    )
    p.add_argument(
        "--names",
        nargs="+",
        default=None,
        metavar="NAME",
        help="the teams' names, NS then EW (the players' at three and two hands: N E S, or N E)",
    )
    add_rules_arguments(p)
    p.add_argument(
        "--db",
        type=Path,
        default=None,
        help=f"the SQLite store (default: {default_path()}, from $BELOTE_DB or the user's data folder)",
    )
    p.add_argument("--sheet", default=None, metavar="ID", help="continue the sheet with this id")
    p.set_defaults(func=main)
    return p


class _Quit(Exception):
    """The player typed q, or the input ended."""


class _Undo(Exception):
    """The player typed u."""


class Session:
    """The terminal loop over one sheet. ``ask`` reads a line after a prompt; ``say`` prints one."""

    def __init__(
        self,
        sheet: Sheet,
        save: Callable[[], None],
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
    ) -> None:
        self.sheet, self.save, self._ask_raw, self.say = sheet, save, ask, say

    def run(self) -> int:
        """Deals until the line; then one last chance to undo. Returns the exit status."""
        for i in range(len(self.sheet.entries)):
            self.say(self.describe(i))
        self.say(self.score_line())
        while True:
            try:
                if self.sheet.over:
                    self.say(self.ending())
                    self._ask("u undoes the last deal; Enter leaves: ")
                    return 0
                self.play_deal()
            except _Undo:
                self.undo()
            except (_Quit, KeyboardInterrupt):
                return 0

    def play_deal(self) -> None:
        try:
            entry = self.read_entry()
            self.sheet.add(entry)
        except SheetError as e:
            self.say(f"  {e}; enter the deal again.")
            return
        self.save()
        self.say(self.describe(len(self.sheet.entries) - 1))
        self.say(self.score_line())

    def undo(self) -> None:
        try:
            entry = self.sheet.undo()
        except SheetError as e:
            self.say(f"  {e}.")
            return
        self.save()
        n = len(self.sheet.entries) + 1
        self.say(f"Undone: deal {n} ({self.summary(entry)}).")
        self.say(self.score_line())

    def summary(self, entry: AnyEntry) -> str:
        """An entry in a few words: ``EW took, 74 card points``, ``NS bid 110H``."""
        names = self.sheet.names
        if isinstance(entry, ContractEntry):
            return f"{names[entry.bidder]} bid {entry.name}"
        if isinstance(entry, ThreeEntry):
            return f"{names[entry.taker]} took"
        return f"{names[entry.takers]} took, {entry.cards} card points"

    # ------------------------------------------------------------------ questions
    def _ask(self, prompt: str) -> str:
        try:
            text = self._ask_raw(prompt).strip()
        except EOFError:
            raise _Quit from None
        word = text.casefold()
        if word in ("q", "quit"):
            raise _Quit
        if word in ("u", "undo"):
            raise _Undo
        return text

    def _side(self, text: str) -> int | None:
        """A side (or player) by its seat letters, its number from 1, or its name."""
        word = text.casefold()
        for side, (team, name) in enumerate(zip(self.sheet.teams, self.sheet.names, strict=True)):
            if word in (team.casefold(), str(side + 1), name.casefold()):
                return side
        return None

    def ask_side(self, prompt: str, allow_none: bool, default: int | None = None) -> int | None:
        names = self.sheet.names
        while True:
            text = self._ask(prompt)
            if text == "" and default is not None:
                return default
            if allow_none and text.casefold() in NONE_WORDS:
                return None
            side = self._side(text)
            if side is not None:
                return side
            self.say(f"  say {_or_words(names)}{' (or Enter for none)' if allow_none else ''}.")

    def ask_number(self, prompt: str, low: int, high: int, step: int = 1, default: int | None = None) -> int:
        while True:
            text = self._ask(prompt)
            if text == "" and default is not None:
                return default
            if text.isdigit() and low <= int(text) <= high and int(text) % step == 0:
                return int(text)
            rule = f"a multiple of {step} from {low} to {high}" if step > 1 else f"a number from {low} to {high}"
            self.say(f"  {rule}, please.")

    def ask_yes(self, prompt: str) -> bool:
        while True:
            word = self._ask(prompt).casefold()
            if word in YES_WORDS:
                return True
            if word in NO_WORDS:
                return False
            self.say("  y or n, please.")

    def ask_contract(self, prompt: str) -> tuple[int, int]:
        """A contract such as ``110H``, ``90NT``, ``capotS``: (level, mode)."""
        while True:
            text = self._ask(prompt)
            action = parse_contract(text) if text else None
            if action is not None and is_contract(action):
                return contract_of(action)
            self.say("  a contract such as 80S, 110H, 90NT, 160AT or capotD, please.")

    def ask_choice(self, prompt: str, choices: tuple[str, ...], default: str) -> str:
        while True:
            word = self._ask(prompt).casefold() or default
            if word in choices:
                return word
            self.say(f"  {' or '.join(choices)}, please.")

    def ask_declarations(self, who: list[int], taker: int | None = None) -> list[int]:
        """The declarations that count, asked of ``who`` in turn. Only one side's count (at three
        hands one camp's: the taker's, or the two defenders'), so the rivals of a side that has
        some are not asked."""
        sheet, names = self.sheet, self.sheet.names
        declarations = [0] * len(sheet.teams)
        if not sheet.rules.declarations or not sheet.rules.game.has_declarations:
            return declarations
        for side in who:
            if taker is None:
                rivals = [1 - side]
            else:
                rivals = [taker] if side != taker else [s for s in range(3) if s != taker]
            if any(declarations[s] for s in rivals):
                continue
            declarations[side] = self.ask_number(
                f"  Declarations that count for {names[side]} [0]: ", 0, MAX_DECLARATIONS, 10, default=0
            )
        return declarations

    def read_entry(self) -> AnyEntry:
        """The questions of the sheet's entry: a contract's (Coinche), three players' or two sides'."""
        readers: dict[type, Callable[[], AnyEntry]] = {
            Entry: self.read_classic,
            ContractEntry: self.read_contract,
            ThreeEntry: self.read_three,
        }
        return readers[self.sheet.entry_type]()

    def read_classic(self) -> Entry:
        sheet, names = self.sheet, self.sheet.names
        n = len(sheet.entries) + 1
        takers = self.ask_side(f"Deal {n}. Who took? ({names[0]} / {names[1]}): ", allow_none=False)
        assert takers is not None
        defenders = 1 - takers
        cards = self.ask_number(
            f"  Card points of {names[takers]}, last trick included ({names[defenders]} have the rest of 162): ",
            0,
            DEAL_POINTS,
        )
        declarations = self.ask_declarations([0, 1])
        belote = self.ask_side(f"  Belote? (none / {names[0]} / {names[1]}) [none]: ", allow_none=True)
        capot = None
        # A capot is every trick, so every card point: only 162 or 0 can be one.
        if cards in (0, DEAL_POINTS):
            side = takers if cards == DEAL_POINTS else defenders
            tricks = WORDS[sheet.rules.tricks]
            if self.ask_yes(f"  Capot, all {tricks} tricks to {names[side]}? (y / n) [n]: "):
                capot = side
        return Entry(takers, cards, (declarations[0], declarations[1]), belote, capot, sheet.teams)

    def read_contract(self) -> ContractEntry:
        sheet, names = self.sheet, self.sheet.names
        n = len(sheet.entries) + 1
        level, mode = self.ask_contract(f"Deal {n}. Contract? (such as 110H, 90NT, capotS): ")
        bidder = self.ask_side(f"  Bid by? ({names[0]} / {names[1]}): ", allow_none=False)
        assert bidder is not None
        defenders = 1 - bidder
        coinche = self.ask_choice(
            "  Coinche? (none / coinche / surcoinche) [none]: ", ("none", "coinche", "surcoinche"), "none"
        )
        cards = self.ask_number(
            f"  Card points of {names[bidder]}, last trick included ({names[defenders]} have the rest of 162): ",
            0,
            DEAL_POINTS,
        )
        declarations = self.ask_declarations([0, 1])
        belote = None
        if mode < 4:  # no belote at no-trumps or all-trumps
            belote = self.ask_side(f"  Belote? (none / {names[0]} / {names[1]}) [none]: ", allow_none=True)
        capot = None
        alone = False
        if cards in (0, DEAL_POINTS):
            side = bidder if cards == DEAL_POINTS else defenders
            if self.ask_yes(f"  Capot, all {WORDS[sheet.rules.tricks]} tricks to {names[side]}? (y / n) [n]: "):
                capot = side
                if level == GENERALE and side == bidder:
                    alone = self.ask_yes("  Did the bidder take every trick alone (the générale)? (y / n) [n]: ")
        return ContractEntry(
            bidder,
            level,
            mode,
            cards,
            None if coinche == "none" else coinche,
            (declarations[0], declarations[1]),
            belote,
            capot,
            alone,
            sheet.teams,
        )

    def read_three(self) -> ThreeEntry:
        sheet, names = self.sheet, self.sheet.names
        n = len(sheet.entries) + 1
        choices = " / ".join(names)
        guess = sheet.next_dealer()
        default = sheet.teams.index(guess) if guess is not None else 0
        dealer = self.ask_side(f"Deal {n}. Who dealt? ({choices}) [{names[default]}]: ", False, default)
        taker = self.ask_side(f"  Who took? ({choices}): ", allow_none=False)
        assert dealer is not None and taker is not None
        cards = [
            self.ask_number(f"  Card points of {names[s]}, last trick included: ", 0, DEAL_POINTS) for s in range(3)
        ]
        order = [taker, *(s for s in range(3) if s != taker)]
        declarations = self.ask_declarations(order, taker)
        belote = self.ask_side(f"  Belote? (none / {choices}) [none]: ", allow_none=True)
        capot = None
        defenders = [s for s in range(3) if s != taker]
        if not any(cards[s] for s in defenders) and self.ask_yes(
            f"  Capot, every trick to {names[taker]}? (y / n) [n]: "
        ):
            capot = "taker"
        elif not cards[taker] and self.ask_yes(f"  Capot against {names[taker]}, no trick? (y / n) [n]: "):
            capot = "defenders"
        return ThreeEntry(
            taker,
            dealer,
            (cards[0], cards[1], cards[2]),
            (declarations[0], declarations[1], declarations[2]),
            belote,
            capot,
            sheet.teams,
        )

    # ------------------------------------------------------------------ what is printed
    def describe(self, i: int) -> str:
        """One deal in words: ``Deal 1: NS took; 108 to 54, belote NS: made. NS +128, EW +54.``"""
        sheet, names = self.sheet, self.sheet.names
        entry, result = sheet.entries[i], sheet.results[i]
        details = []
        if isinstance(entry, ThreeEntry):
            head = f"{names[entry.taker]} took ({names[entry.dealer]} dealt)"
            details.append(", ".join(f"{names[s]} {entry.cards[s]}" for s in range(3)))
        elif isinstance(entry, ContractEntry):
            mode = MODE_LETTERS[entry.mode]
            what = f"{entry.name[: -len(mode)]} {MODE_NAMES[entry.mode]}"
            coinched = {"coinche": ", coinched", "surcoinche": ", surcoinched"}.get(entry.coinche or "", "")
            head = f"{names[entry.bidder]} bid {what}{coinched}"
            details.append(f"{entry.cards} to {DEAL_POINTS - entry.cards}")
        else:
            head = f"{names[entry.takers]} took"
            details.append(f"{entry.cards} to {DEAL_POINTS - entry.cards}")
        for side, declared in enumerate(entry.declarations):
            if declared:
                details.append(f"declarations {names[side]} {declared}")
        if entry.belote is not None:
            details.append(f"belote {names[entry.belote]}")
        if result.outcome == "capot":
            assert result.capot is not None
            outcome = f"capot by {names[result.capot]}"
        elif result.outcome == "dedans":
            if isinstance(entry, ThreeEntry):
                share = " and ".join(names[s] for s in range(3) if s != entry.taker)
                outcome = f"dedans, {share} share the deal"
            elif isinstance(entry, ContractEntry):
                outcome = f"failed, {names[1 - entry.bidder]} score the deal"
            else:
                outcome = f"dedans, {names[1 - entry.takers]} score the deal"
        elif result.outcome == "litige":
            outcome = f"litige, {result.pending} points wait for the winner of the next deal"
        elif isinstance(entry, ContractEntry) and result.capot == entry.bidder:
            outcome = f"made, capot by {names[entry.bidder]}"
        else:
            outcome = result.outcome
        points = ", ".join(f"{names[s]} +{p}" for s, p in enumerate(result.points))
        return f"Deal {i + 1}: {head}; {', '.join(details)}: {outcome}. {points}."

    def score_line(self) -> str:
        sheet, names = self.sheet, self.sheet.names
        if sheet.rules.deals is not None:
            goal = f"{len(sheet.entries)} of {sheet.rules.deals} deals played"
        else:
            goal = f"to {sheet.rules.target}"
        waiting = f", {sheet.pending} points waiting" if sheet.pending else ""
        scores = ", ".join(f"{n} {p}" for n, p in zip(names, sheet.score, strict=True))
        return f"Score: {scores} ({goal}{waiting})."

    def ending(self) -> str:
        score = self.sheet.score
        winner = self.sheet.winner
        if winner is None:
            return f"Match over: a tie at {max(score)}."
        shown = " to ".join(map(str, sorted(score, reverse=True)))
        return f"Match over: {self.sheet.names[winner]} win {shown}."


def _or_words(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1]


def _new_sheet(args: argparse.Namespace) -> Sheet:
    rules = rules_from_args(args, target=args.target, deals=args.deals)
    return Sheet(rules, args.names, args.start)


def main(args: argparse.Namespace) -> int:
    """``belote scores``: a new sheet, or ``--sheet ID`` to go on with one."""
    db = args.db or default_path()
    new_only = ("target", "deals", "start", "names")
    if args.sheet is not None and (any(getattr(args, k) is not None for k in new_only) or args.option):
        print(
            "belote scores: --target, --deals, --start, --names and --option are for a new sheet, not --sheet",
            file=sys.stderr,
        )
        return 2
    store = SQLiteStore(db)
    try:
        if args.sheet is not None:
            sheet_id = args.sheet
            data = store.load_sheet(sheet_id)
            if data is None:
                print(f"belote scores: no score sheet {sheet_id!r} in {db}", file=sys.stderr)
                return 2
            sheet = Sheet.from_dict(data)
        else:
            try:
                sheet = _new_sheet(args)
            except (SheetError, RulesError) as e:
                print(f"belote scores: {e}", file=sys.stderr)
                return 2
            sheet_id = new_id()
            store.save_sheet(sheet_id, sheet.to_dict())

        names = sheet.names
        goal = f"{sheet.rules.deals} deals" if sheet.rules.deals is not None else f"to {sheet.rules.target}"
        # The default game goes without saying.
        game = "" if sheet.variant == OPTION_SPECS["variant"].default else f" ({sheet.variant})"
        who = " against ".join(names) if len(names) == 2 else f"{', '.join(names[:-1])} and {names[-1]}"
        print(f"Score sheet {sheet_id} ({db}): {who}, {goal}{game}.")
        print("Type u at any prompt to undo the last deal, q to quit. The sheet is saved after every deal.")
        code = Session(sheet, lambda: store.save_sheet(sheet_id, sheet.to_dict())).run()
        if not sheet.over:
            again = f" --db {db}" if args.db is not None else ""
            print(f"\nSaved. To go on: belote scores --sheet {sheet_id}{again}")
        return code
    finally:
        store.close()
