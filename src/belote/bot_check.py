"""``belote bot check CMD``: a few deals against a program, and what it got wrong.

The program plays one seat of each deal (the seats in turn), seeded random bots the others. Every
decision is checked: an answer the rules refuse (with the refusal's code), a line that is no action,
a timeout, a crash, a bad handshake, a program that does not end on ``quit``. Nothing it does stops
the check: after a refused answer it is told why and asked again (three times), after a timeout or
a crash it is started again for the next deal, and a random bot plays its seat meanwhile so that
the deal goes on. A program that cannot be started or greeted ends the check at once.
"""

from __future__ import annotations

import contextlib
import tempfile
from dataclasses import dataclass, field
from typing import IO, Any

from belote.actions import IllegalAction
from belote.bot_protocol import (
    ATTEMPTS,
    HANDSHAKE_TIMEOUT,
    PROBLEMS,
    Program,
    ProgramError,
    end_value,
    finished_view,
    line,
)
from belote.bots import RandomBot
from belote.game import SEATS, Match
from belote.rules import Rules

#: Seconds a program has to end after ``quit``.
QUIT_WAIT = 2.0
#: The problem of a program still running after ``quit``.
PROBLEMS_OF_CHECK = {"did_not_quit": f"the program did not end within {QUIT_WAIT:g} s of quit"}


@dataclass(frozen=True)
class Problem:
    """One thing the program got wrong: a code (of ``PROBLEMS``, ``PROBLEMS_OF_CHECK`` or a refusal's
    of ``belote.actions.REFUSALS``), where, and in words."""

    code: str
    deal: int | None
    seat: str | None
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "deal": self.deal, "seat": self.seat, "detail": self.detail}

    def __str__(self) -> str:
        where = "" if self.deal is None else f"deal {self.deal}, {self.seat}: "
        return f"{self.code}: {where}{self.detail}"


@dataclass
class CheckReport:
    command: str
    name: str | None = None
    deals: int = 0
    decisions: int = 0
    legal: int = 0  # decisions answered with a legal action at the first try
    problems: list[Problem] = field(default_factory=list)
    stderr: str = ""  # the end of what the program wrote on its standard error

    @property
    def ok(self) -> bool:
        return not self.problems

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.problems:
            out[p.code] = out.get(p.code, 0) + 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "name": self.name,
            "ok": self.ok,
            "deals": self.deals,
            "decisions": self.decisions,
            "legal": self.legal,
            "problems": self.counts(),
            "details": [p.to_json() for p in self.problems],
            "stderr": self.stderr,
        }

    def text(self, limit: int = 20) -> str:
        lines = [
            f"program: {self.command}",
            f"name: {self.name or '(no handshake)'}",
            f"deals: {self.deals}; decisions: {self.decisions}, answered legally at once: {self.legal}",
        ]
        if self.ok:
            lines.append("no problem found")
        else:
            counts = ", ".join(f"{code} {n}" for code, n in sorted(self.counts().items()))
            lines.append(f"problems: {len(self.problems)} ({counts})")
            lines.extend(f"  {p}" for p in self.problems[:limit])
            if len(self.problems) > limit:
                lines.append(f"  ... and {len(self.problems) - limit} more")
        if self.stderr:
            lines.append("its standard error ended with:")
            lines.extend(f"  | {t}" for t in self.stderr.splitlines())
        return "\n".join(lines)


class _Checker:
    def __init__(self, command: str, rules: Rules, seed: int, timeout: float, handshake_timeout: float) -> None:
        self.command = command
        self.rules = Rules.from_dict({"deals": 1}, base=rules)
        self.seed = seed
        self.timeout = timeout
        self.handshake_timeout = handshake_timeout
        self.report = CheckReport(command)
        self.errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed at the end of run()
        self.program: Program | None = None

    def problem(self, code: str, deal: int | None, seat: int | None, detail: str) -> None:
        self.report.problems.append(Problem(code, deal, None if seat is None else SEATS[seat], detail))

    def start(self, deal: int | None) -> bool:
        """A program running and greeted; False (with the problem) if it could not be."""
        try:
            program = Program(self.command, stderr=self.errors)
        except ProgramError as e:
            self.problem(e.code, deal, None, str(e))
            return False
        try:
            name = program.handshake(self.handshake_timeout)
        except ProgramError as e:
            self.problem(e.code, deal, None, f"at the handshake: {e}")
            program.kill()
            return False
        self.report.name = self.report.name or name
        self.program = program
        return True

    def lost(self, e: ProgramError, deal: int, seat: int) -> None:
        """The program broke down (timeout, crash, unreadable line): noted, and it is ended."""
        self.problem(e.code, deal, seat, str(e))
        if self.program is not None:
            self.program.kill()
            self.program = None

    def run(self, deals: int) -> CheckReport:
        try:
            if not self.start(None):
                return self.report
            for k in range(1, deals + 1):
                if self.program is None and not self.start(k):
                    break
                self.deal(k)
                self.report.deals += 1
            if self.program is not None:
                self.quit()
        finally:
            if self.program is not None:
                self.program.kill()
            self.errors.seek(0)
            tail = self.errors.read()[-2000:].decode(errors="replace")
            self.report.stderr = "\n".join(tail.splitlines()[-12:])
            self.errors.close()
        return self.report

    def quit(self) -> None:
        program = self.program
        assert program is not None
        self.program = None
        with contextlib.suppress(ProgramError):
            program.send("quit")
        try:
            program.proc.wait(timeout=QUIT_WAIT)
        except Exception:
            self.problem("did_not_quit", None, None, PROBLEMS_OF_CHECK["did_not_quit"])
        program.kill()

    def send(self, text: str, deal: int, seat: int) -> None:
        if self.program is None:
            return
        try:
            self.program.send(text)
        except ProgramError as e:
            self.lost(e, deal, seat)

    def deal(self, k: int) -> None:
        rules = self.rules
        seat = (k - 1) % rules.players
        seed = self.seed * 1000 + k
        match = Match(rules, seed, (k - 1) % rules.players)
        others = RandomBot(seed=seed)
        self.send(line("match", {"seed": seed, "seat": SEATS[seat], "rules": rules.to_dict(), "options": {}}), k, seat)
        while not match.over:
            to_move = match.to_move
            assert to_move is not None
            view = match.view(to_move)
            deals = len(match.deals)
            if to_move != seat or self.program is None:
                match.apply(others.act(view), seat=to_move)
            else:
                self.report.decisions += 1
                action = self.decide(match, k, seat)
                match.apply(action if action is not None else others.act(view), seat=seat)
            if len(match.deals) != deals or match.over:  # a deal thrown in is followed by another
                self.send(line("deal", finished_view(match, deals - 1, seat).to_json()), k, seat)
        self.send(line("end", end_value(match)), k, seat)

    def decide(self, match: Match, k: int, seat: int) -> int | None:
        """The program's legal action, or None when it gave none (the problems noted)."""
        view = match.view(seat)
        for attempt in range(1, ATTEMPTS + 1):
            program = self.program
            if program is None:
                return None
            try:
                _, action = program.decide(view, self.timeout)
                trial = match.copy()
                trial.apply(action, seat=seat)
            except ProgramError as e:
                self.lost(e, k, seat)
                return None
            except IllegalAction as e:
                self.problem(e.code, k, seat, f"{view.phase}: answered {program.recent[-1][2:]!r}: {e}")
                if attempt == ATTEMPTS:
                    self.problem("refused_too_often", k, seat, PROBLEMS["refused_too_often"])
                    return None
                self.send(line("refused", e.to_json()), k, seat)
                continue
            if attempt == 1:
                self.report.legal += 1
            return action
        return None  # pragma: no cover - the loop returns


def check(
    command: str,
    rules: Rules | None = None,
    deals: int = 4,
    seed: int = 1,
    timeout: float = 5.0,
    handshake_timeout: float = HANDSHAKE_TIMEOUT,
) -> CheckReport:
    """Play ``deals`` deals of ``rules`` against the program ``command``; what it got wrong."""
    return _Checker(command, rules or Rules(), seed, timeout, handshake_timeout).run(deals)


__all__ = ["PROBLEMS_OF_CHECK", "CheckReport", "Problem", "check"]
