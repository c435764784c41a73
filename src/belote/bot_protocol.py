"""The line protocol of outside bots: any program that reads views on its standard input and writes
actions on its standard output plays belote (docs/bot-protocol.md), as UCI lets any chess engine
play in any chess program.

The *host* runs the game (the arena, ``belote bot check``, a table client); the *bot* is a program.
Every line is UTF-8 text ending in a newline. The host writes a word, a space and a JSON value:

- ``belote 1``: the handshake; the bot answers ``belote 1 NAME`` (the version it speaks, its name);
- ``match {"seed", "seat", "rules", "options"}``: a match begins (``seed`` for a bot that draws at
  random: the arena gives the same seed to its in-process bots);
- ``view {...}``: the bot's turn, with ``PlayerView.to_json()``; the bot answers one line, an action
  (``JH``, ``pass``, ``take``, ``H``, ``110H``, ``coinche``);
- ``refused {"code", "message", "args"}``: the answer was refused (a code of
  ``belote.actions.REFUSALS``); the same ``view`` follows;
- ``deal {...}``: a deal is over: the seat's view of it, with its result;
- ``end {"score", "winner"}``: the match is over;
- ``quit``: the bot exits (the end of its input means the same).

A bot ignores a line whose word it does not know: a later version of the host may say more.

This module holds both ends: ``serve`` runs a ``Bot`` of this package behind the protocol
(``belote bot serve NAME``), ``Program`` runs a program and speaks to it, and ``ExecBot`` is a
``Bot`` made of a program (``make_bot("exec:python mybot.py")``), so that the arena seats it like
any other. A program that breaks the protocol raises ``ProgramError`` with one of ``PROBLEMS``.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import IO, Any, TextIO

from belote.actions import Action, IllegalAction, Refusal, action_str, parse_action
from belote.game import SEATS, Match, PlayerView

#: The version of the protocol this module speaks.
VERSION = 1
#: The longest line a bot may write, in bytes (an action is a few characters; a name at most 40).
MAX_LINE = 256
#: Times the host sends a refused answer's view again before it gives up.
ATTEMPTS = 3
#: Seconds the host waits for the handshake's answer (a program may load a model first).
HANDSHAKE_TIMEOUT = 30.0
#: The longest name a bot may give.
MAX_NAME = 40

#: What a program can do wrong, besides an action the rules refuse (whose code is the refusal's,
#: one of ``belote.actions.REFUSALS``): the codes ``bot check`` reports and ``ProgramError`` carries.
PROBLEMS: dict[str, str] = {
    "no_program": "the program could not be started",
    "bad_handshake": "the answer to the handshake is not 'belote 1 NAME'",
    "timeout": "no answer within the time allowed",
    "crashed": "the program ended (or closed its output) in the middle of the game",
    "bad_line": "a line that is not UTF-8 text, is empty or longer than 256 bytes",
    "refused_too_often": "three answers in a row refused for one decision",
}


class ProgramError(Exception):
    """A program that broke the protocol: ``code`` (one of ``PROBLEMS``) and words for people.

    Built from its args alone, so that it comes back whole from an arena's worker process.
    """

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message, code)
        self.code = code

    def __str__(self) -> str:
        return str(self.args[0])


def line(word: str, value: Any = None) -> str:
    """A host's line: ``view {...}``, or the word alone."""
    return word if value is None else f"{word} {json.dumps(value, ensure_ascii=False, separators=(',', ':'))}"


def split(text: str) -> tuple[str, Any]:
    """A host's line read back: its word and its JSON value (None when it has none).

    >>> split('match {"seed": 3}'), split("quit")
    (('match', {'seed': 3}), ('quit', None))
    """
    word, _, rest = text.strip().partition(" ")
    return word, json.loads(rest) if rest.strip() else None


def finished_view(match: Match, index: int, seat: int) -> PlayerView:
    """The view ``seat`` has of deal ``index`` of ``match`` once it is over: its result, and the
    match's score after it (what a ``deal`` line carries)."""
    deal = match.deals[index]
    last = index == len(match.deals) - 1
    score = match.score if last else match.scores_before[index + 1]
    return replace(
        deal.view(seat),
        score=tuple(score),
        deal_number=index + 1,
        match_over=match.over and last,
        match_winner=match.winner if last else None,
    )


def end_value(match: Match) -> dict[str, Any]:
    """What an ``end`` line carries: the final score and the winner (None: no winner)."""
    names = match.rules.team_names
    return {
        "score": dict(zip(names, match.score, strict=True)),
        "winner": None if match.winner is None else names[match.winner],
    }


# ----------------------------------------------------------------------------- the bot's end
def serve(bot_name: str, options: dict[str, Any], read: TextIO, write: TextIO) -> int:
    """Play the built-in bot ``bot_name`` behind the protocol, from ``read`` to ``write``, until
    ``quit`` or the end of the input; the exit status.

    A new bot is made at each ``match``, with the match's seed: the same bot, drawing the same
    numbers, as the arena makes in process.
    """
    from belote.bots import make_bot

    bot = None

    def say(text: str) -> None:
        write.write(text + "\n")
        write.flush()

    for text in read:
        word = text.strip().partition(" ")[0]
        if word not in ("belote", "match", "view", "quit"):
            continue  # another host's line, a later version's: nothing to answer
        value = split(text)[1]
        if word == "belote":
            say(f"belote {VERSION} {bot_name}")
        elif word == "match":
            extra = value.get("options") or {}
            bot = make_bot(bot_name, seed=value.get("seed"), **{**options, **extra})
        elif word == "view":
            if bot is None:  # a host that sent no ``match``: a bot of no seed
                bot = make_bot(bot_name, **options)
            say(action_str(bot.act(PlayerView.from_json(value))))
        elif word == "quit":
            return 0
    return 0


# ----------------------------------------------------------------------------- the host's end
class Program:
    """A bot program running, spoken to line by line: ``send`` a line, ``answer`` the next line
    within a time. Its standard error goes to ``stderr`` (the host's by default); a reader thread
    brings its lines so that a silent program is noticed (``timeout``) rather than waited for."""

    def __init__(self, command: str | Sequence[str], stderr: IO[bytes] | int | None = None) -> None:
        self.command = command
        args = shlex.split(command) if isinstance(command, str) else list(command)
        try:
            self.proc = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                bufsize=0,
            )
        except (OSError, ValueError) as e:
            raise ProgramError(f"cannot start {command!r}: {e}", "no_program") from None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.name = ""
        self.recent: deque[str] = deque(maxlen=6)  # the last lines exchanged, for a report
        threading.Thread(target=self._read, daemon=True, name="bot-reader").start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        try:
            while True:
                data = out.readline(MAX_LINE + 1)
                if not data:
                    break
                self.lines.put(data)
        except (OSError, ValueError):
            pass
        finally:
            # Closed here, by the only thread that reads it, once the program's end of the pipe is
            # closed: closed from another thread, its descriptor could be reused by the next
            # program's pipe while this read goes on, and take that program's first bytes.
            out.close()
        self.lines.put(None)

    def send(self, text: str) -> None:
        self.recent.append("> " + text[:120])
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(text.encode() + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._crashed() from None

    def answer(self, timeout: float | None) -> str:
        """The next line the program writes, without its newline."""
        try:
            data = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise ProgramError(f"no answer within {timeout:g} s", "timeout") from None
        if data is None:
            raise self._crashed()
        if len(data) > MAX_LINE or not data.endswith(b"\n"):
            raise ProgramError(f"a line longer than {MAX_LINE} bytes: {data[:40]!r}...", "bad_line")
        try:
            text = data.decode().rstrip("\r\n")
        except UnicodeDecodeError:
            raise ProgramError(f"a line that is not UTF-8: {data[:40]!r}", "bad_line") from None
        self.recent.append("< " + text[:120])
        if not text.strip():
            raise ProgramError("an empty line", "bad_line")
        return text

    def _crashed(self) -> ProgramError:
        try:
            status = self.proc.wait(timeout=1.0)
            how = f"exit status {status}"
        except subprocess.TimeoutExpired:
            how = "its output closed"
        return ProgramError(f"the program ended ({how})", "crashed")

    def handshake(self, timeout: float = HANDSHAKE_TIMEOUT) -> str:
        """``belote 1`` and its answer ``belote 1 NAME``; the name."""
        self.send(line("belote", VERSION))
        text = self.answer(timeout)
        word, _, rest = text.partition(" ")
        version, _, name = rest.partition(" ")
        name = name.strip()
        if word != "belote" or version != str(VERSION) or not name or len(name) > MAX_NAME:
            raise ProgramError(f"the handshake's answer is {text[:60]!r}, not 'belote {VERSION} NAME'", "bad_handshake")
        self.name = name
        return name

    def decide(self, view: PlayerView, timeout: float | None) -> tuple[str, Action]:
        """Send ``view`` and read the answer: its text and the action it names (``IllegalAction``
        with the code ``not_an_action`` for words that name none)."""
        self.send(line("view", view.to_json()))
        text = self.answer(timeout)
        return text, parse_action(text)

    def refused(self, e: Refusal) -> None:
        self.send(line("refused", e.to_json()))

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, wait: float = 2.0) -> None:
        """``quit``, then the end of its input; killed if it has not ended after ``wait`` seconds."""
        if self.alive:
            try:
                self.send("quit")
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            except (ProgramError, OSError):
                pass
            try:
                self.proc.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                self.kill()
        self._release()

    def kill(self) -> None:
        if self.alive:
            self.proc.kill()
            self.proc.wait()
        self._release()

    def _release(self) -> None:
        """The program's input closed (its output is closed by the reader thread)."""
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()


# Programs between two matches, by command, ready for the next match in this process: a program
# that loads for seconds is started once per arena worker, not once per match.
_idle: dict[str, list[Program]] = {}
_idle_lock = threading.Lock()


def _forget_idle() -> None:
    """In a child made by fork (an arena's worker): the parent's programs are not this process's to
    speak to (their reader threads stayed in the parent)."""
    global _idle_lock
    _idle.clear()
    _idle_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_idle)


def _take(command: str, timeout: float) -> Program:
    with _idle_lock:
        waiting = _idle.get(command)
        while waiting:
            program = waiting.pop()
            if program.alive:
                return program
    program = Program(command)
    try:
        program.handshake(max(timeout, HANDSHAKE_TIMEOUT))
    except ProgramError:
        program.kill()
        raise
    return program


def _give_back(command: str, program: Program) -> None:
    with _idle_lock:
        _idle.setdefault(command, []).append(program)


@atexit.register
def close_idle() -> None:
    """Every idle program is told ``quit`` (an arena's worker process that ends without this closes
    their input, which means the same)."""
    with _idle_lock:
        programs = [p for waiting in _idle.values() for p in waiting]
        _idle.clear()
    for p in programs:
        p.close()


class ExecBot:
    """A ``Bot`` that is a program speaking the protocol (``exec:COMMAND`` in ``make_bot`` and in
    ``belote arena --ns``): one match of one seat. ``timeout`` is the seconds a decision may take;
    every other option goes to the program in the ``match`` line.

    The arena tells it the end of each deal and of the match (``deal_over``, ``match_over``); the
    program then goes back to this process's idle programs for the next match. ``close`` ends a
    program whose match did not end (an error elsewhere).
    """

    def __init__(self, command: str, seed: int | None = None, timeout: float = 30.0, **options: Any) -> None:
        self.command = command
        self.name = f"exec:{command}"
        self.seed = seed
        self.timeout = timeout
        self.options = options
        self.program: Program | None = None
        self.started = False

    def greet(self) -> str:
        """Start the program (or take an idle one) and give it back: its name; ``ProgramError`` if it
        cannot be started or does not answer the handshake."""
        program = self._program()
        self.program = None
        _give_back(self.command, program)
        return program.name

    def _program(self) -> Program:
        if self.program is None:
            self.program = _take(self.command, self.timeout)
        return self.program

    def _begin(self, view: PlayerView) -> Program:
        program = self._program()
        if not self.started:
            program.send(
                line(
                    "match",
                    {
                        "seed": self.seed,
                        "seat": None if view.seat is None else SEATS[view.seat],
                        "rules": view.rules.to_dict(),
                        "options": self.options,
                    },
                )
            )
            self.started = True
        return program

    def act(self, view: PlayerView) -> Action:
        program = self._begin(view)
        try:
            return program.decide(view, self.timeout)[1]
        except ProgramError:
            self._drop()
            raise

    def refused(self, e: IllegalAction) -> None:
        """The last answer was refused: the program is told why; the same view follows."""
        if self.program is not None:
            self.program.refused(e)

    def deal_over(self, view: PlayerView) -> None:
        if self.started and self.program is not None:
            self.program.send(line("deal", view.to_json()))

    def match_over(self, match: Match) -> None:
        program = self.program
        if self.started and program is not None:
            program.send(line("end", end_value(match)))
            self.program = None
            _give_back(self.command, program)

    def close(self) -> None:
        self._drop()

    def _drop(self) -> None:
        if self.program is not None:
            self.program.kill()
            self.program = None


def main_serve(bot_name: str, options: dict[str, Any]) -> int:
    """``belote bot serve``: the protocol on this process's standard input and output."""
    # The answers go out line by line even when the output is a pipe.
    out = os.fdopen(sys.stdout.fileno(), "w", encoding="utf-8", buffering=1, closefd=False)
    return serve(bot_name, options, sys.stdin, out)


__all__ = [
    "ATTEMPTS",
    "PROBLEMS",
    "VERSION",
    "ExecBot",
    "Program",
    "ProgramError",
    "end_value",
    "finished_view",
    "line",
    "serve",
    "split",
]
