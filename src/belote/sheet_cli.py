"""``belote scores``: the score sheet in a terminal, for a match played with real cards.

Each deal is asked for in turn (who took, the takers' card points, declarations, belote, capot),
scored by the engine through ``belote.sheet.Sheet``, printed with the running total, and saved to
the store at once, so ``--sheet ID`` picks the match up where it was left. At any prompt ``u``
undoes the last deal and ``q`` quits.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Callable
from pathlib import Path

from belote.rules import PRESETS, Rules, RulesError, find_rules
from belote.scoring import DEAL_POINTS
from belote.server.store import SQLiteStore, default_path
from belote.sheet import MAX_DECLARATIONS, Entry, Sheet, SheetError

NONE_WORDS = ("", "-", "n", "no", "none", "nobody", "0")
YES_WORDS = ("y", "yes", "o", "oui")
NO_WORDS = ("", "n", "no", "non")


def _start_score(text: str) -> tuple[int, int]:
    ns, sep, ew = text.partition("-")
    if not sep or not ns.strip().isdigit() or not ew.strip().isdigit():
        raise argparse.ArgumentTypeError(f"a starting score is NS-EW, e.g. 210-176, not {text!r}")
    return int(ns), int(ew)


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
    p.add_argument("--start", type=_start_score, default=None, metavar="NS-EW", help="a starting score, e.g. 210-176")
    p.add_argument("--names", nargs=2, default=None, metavar=("NS", "EW"), help="the two teams' names")
    p.add_argument(
        "--rules", default="classic", choices=sorted(PRESETS), help="a rules preset (default: classic, seed 000)"
    )
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
        self.say(f"Undone: deal {n} ({self.sheet.names[entry.takers]} took, {entry.cards} card points).")
        self.say(self.score_line())

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
        word = text.casefold()
        for side, name in enumerate(self.sheet.names):
            if word in (("ns", "1"), ("ew", "2"))[side] or word == name.casefold():
                return side
        return None

    def ask_side(self, prompt: str, allow_none: bool) -> int | None:
        names = self.sheet.names
        while True:
            text = self._ask(prompt)
            if allow_none and text.casefold() in NONE_WORDS:
                return None
            side = self._side(text)
            if side is not None:
                return side
            self.say(f"  say {names[0]} or {names[1]}{' (or Enter for none)' if allow_none else ''}.")

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

    def read_entry(self) -> Entry:
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
        declarations = [0, 0]
        if sheet.rules.declarations:
            for side in (0, 1):
                # Only the side with the best declaration scores: once one side has some, the other has none.
                if side == 1 and declarations[0]:
                    break
                declarations[side] = self.ask_number(
                    f"  Declarations that count for {names[side]} [0]: ", 0, MAX_DECLARATIONS, 10, default=0
                )
        belote = self.ask_side(f"  Belote? (none / {names[0]} / {names[1]}) [none]: ", allow_none=True)
        capot = None
        # A capot is every trick, so every card point: only 162 or 0 can be one.
        if cards in (0, DEAL_POINTS):
            side = takers if cards == DEAL_POINTS else defenders
            if self.ask_yes(f"  Capot, all eight tricks to {names[side]}? (y / n) [n]: "):
                capot = side
        return Entry(takers, cards, (declarations[0], declarations[1]), belote, capot)

    # ------------------------------------------------------------------ what is printed
    def describe(self, i: int) -> str:
        """One deal in words: ``Deal 1: NS took; 108 to 54, belote NS: made. NS +128, EW +54.``"""
        sheet, names = self.sheet, self.sheet.names
        entry, result = sheet.entries[i], sheet.results[i]
        defenders = 1 - entry.takers
        details = [f"{entry.cards} to {DEAL_POINTS - entry.cards}"]
        for side in (0, 1):
            if entry.declarations[side]:
                details.append(f"declarations {names[side]} {entry.declarations[side]}")
        if entry.belote is not None:
            details.append(f"belote {names[entry.belote]}")
        if result.outcome == "capot":
            assert result.capot is not None
            outcome = f"capot by {names[result.capot]}"
        elif result.outcome == "dedans":
            outcome = f"dedans, {names[defenders]} score the deal"
        elif result.outcome == "litige":
            outcome = f"litige, {result.pending} points wait for the winner of the next deal"
        else:
            outcome = result.outcome
        points = ", ".join(f"{names[s]} +{result.points[s]}" for s in (0, 1))
        return f"Deal {i + 1}: {names[entry.takers]} took; {', '.join(details)}: {outcome}. {points}."

    def score_line(self) -> str:
        sheet, names = self.sheet, self.sheet.names
        ns, ew = sheet.score
        if sheet.rules.deals is not None:
            goal = f"{len(sheet.entries)} of {sheet.rules.deals} deals played"
        else:
            goal = f"to {sheet.rules.target}"
        waiting = f", {sheet.pending} points waiting" if sheet.pending else ""
        return f"Score: {names[0]} {ns}, {names[1]} {ew} ({goal}{waiting})."

    def ending(self) -> str:
        ns, ew = self.sheet.score
        winner = self.sheet.winner
        if winner is None:
            return f"Match over: a tie at {ns}."
        return f"Match over: {self.sheet.names[winner]} win {max(ns, ew)} to {min(ns, ew)}."


def _new_sheet(args: argparse.Namespace) -> Sheet:
    rules = find_rules(args.rules)
    changes = {k: v for k, v in (("target", args.target), ("deals", args.deals)) if v is not None}
    if changes:
        rules = Rules.from_dict(changes, base=rules)
    return Sheet(rules, args.names or ("NS", "EW"), args.start or (0, 0))


def main(args: argparse.Namespace) -> int:
    """``belote scores``: a new sheet, or ``--sheet ID`` to go on with one."""
    db = args.db or default_path()
    if args.sheet is not None and any(getattr(args, k) is not None for k in ("target", "deals", "start", "names")):
        print("belote scores: --target, --deals, --start and --names are for a new sheet, not --sheet", file=sys.stderr)
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
            sheet_id = secrets.token_urlsafe(16)
            store.save_sheet(sheet_id, sheet.to_dict())

        names = sheet.names
        goal = f"{sheet.rules.deals} deals" if sheet.rules.deals is not None else f"to {sheet.rules.target}"
        print(f"Score sheet {sheet_id} ({db}): {names[0]} against {names[1]}, {goal}.")
        print("Type u at any prompt to undo the last deal, q to quit. The sheet is saved after every deal.")
        code = Session(sheet, lambda: store.save_sheet(sheet_id, sheet.to_dict())).run()
        if not sheet.over:
            again = f" --db {db}" if args.db is not None else ""
            print(f"\nSaved. To go on: belote scores --sheet {sheet_id}{again}")
        return code
    finally:
        store.close()
