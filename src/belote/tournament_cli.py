"""``belote tournament``: a duplicate tournament in the terminal, ranked against the bots' field.

The boards are the server's (``belote.server.tournaments``, docs/tournaments.md): board ``k`` of a
tournament of seed ``S`` is the one deal of ``Match(rules, seed=board_seed(S, k),
first_dealer=board_seed(S, k) % players, one_deal=True)``, with the bots of the tournament's
strength at every other seat, seeded ``board_seed * 7 + seat``; the person sits South (North at two
hands) and plays it as ``belote play`` plays a deal (``belote.terminal``). After each board comes
its traveller: the person's result and the fill-in field of the server (``bot_field``: the board
played by bots alone, the person's seat by each bot of ``BOT_FIELD`` in turn; ``--field N``: the
first ``N`` of them, the tournament's own bot first), every line scored against all the others
(``Distribution``: matchpoints and difference). At the end, the ranking of the person and of each
fill-in bot as an entrant (``ranked``), by mean matchpoints over the boards.

No server runs and nothing is stored: the same seed and the same play of the person give the same
output, byte for byte (``--auto`` plays the person's seat by a bot, for scripts and tests). The
bots' results are worked out in ``--jobs`` processes while the person plays; none is shown before
the person has played its board.

Register it in ``belote`` with ``register(sub)``; ``main(argv)`` runs it alone.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import shlex
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from multiprocessing.pool import Pool as ProcessPool
from typing import TYPE_CHECKING, Any

from belote.bots import Bot, bot_names, make_bot
from belote.cards import SUIT_SYMBOLS
from belote.contracts import MODE_LETTERS
from belote.game import SEATS, Bid
from belote.play import MODE_NAMES
from belote.server.room import STRENGTHS, check_settings, new_match, person_seat, rules_of
from belote.server.tournaments import board_settings, bot_field, outcome, play_board
from belote.terminal import TerminalGame
from belote.tournament import FIELD, MAX_BOARDS, MIN_BOARDS, Distribution, Standing, board_seed, ranked
from belote.variants import DEFAULT_GAME, VARIANTS

if TYPE_CHECKING:
    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]

PROG = "belote tournament"
#: The person's entrant and name in the travellers and the ranking.
YOU, YOUR_NAME = "you", "You"
DEFAULT_BOARDS = 8
DEFAULT_DELAY = 0.6


# ----------------------------------------------------------------- the command line
def _boards(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of boards ({MIN_BOARDS} to {MAX_BOARDS})") from None
    if not MIN_BOARDS <= n <= MAX_BOARDS:
        raise argparse.ArgumentTypeError(f"a tournament has {MIN_BOARDS} to {MAX_BOARDS} boards, not {n}")
    return n


def _seed(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed (a whole number, 0 or more)") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, 0 or more, not {n}")
    return n


def _bot(text: str) -> str:
    if text not in bot_names():
        raise argparse.ArgumentTypeError(f"no bot named {text!r}; the bots are: {', '.join(bot_names())}")
    return text


def _field(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of bots (1 to {FIELD})") from None
    if not 1 <= n <= FIELD:
        raise argparse.ArgumentTypeError(f"a board's field has 1 to {FIELD} bots' results, not {n}")
    return n


def _delay(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= x <= 60:
        raise argparse.ArgumentTypeError(f"the delay is 0 to 60 seconds, not {text}")
    return x


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes") from None
    if not 0 <= n <= 64:
        raise argparse.ArgumentTypeError(f"0 (in this process) to 64 processes, not {n}")
    return n


DESCRIPTION = (
    "A duplicate tournament in the terminal: each board is one deal, the same for everyone who plays "
    "the tournament's seed, played with the tournament's bots (you sit South, North at two hands; type "
    "as in `belote play`: a card's number or name, take, pass, a suit letter, a Coinche contract; q "
    "quits). After each board, its traveller: your result and the bots' own results on the same cards "
    f"(your seat played in turn by up to {FIELD} bots, the tournament's own first, then the other "
    "strengths: --field), each scored in matchpoints against all the others. At the end, the ranking by "
    "mean matchpoints. The seed is printed: --seed plays the same boards again. Format and scoring: "
    "docs/tournaments.md."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``belote tournament``."""
    p.add_argument(
        "--game",
        choices=list(VARIANTS),
        default=DEFAULT_GAME,
        help=f"the game: {', '.join(VARIANTS)} (default {DEFAULT_GAME})",
    )
    p.add_argument(
        "--boards",
        type=_boards,
        default=DEFAULT_BOARDS,
        metavar="N",
        help=f"boards to play, {MIN_BOARDS} to {MAX_BOARDS} (default {DEFAULT_BOARDS})",
    )
    p.add_argument(
        "--seed",
        type=_seed,
        default=None,
        metavar="S",
        help="the tournament's seed (default: drawn at random, and printed at the end)",
    )
    p.add_argument(
        "--bots",
        choices=list(STRENGTHS),
        default="normal",
        help="the tournament's bots, at every other seat: easy, normal or strong (default normal)",
    )
    p.add_argument(
        "--field",
        type=_field,
        default=FIELD,
        metavar="N",
        help=f"how many bots' results make each board's field, 1 to {FIELD} (default {FIELD}): the first N of "
        "the server's fill-in bots, the tournament's own bot first; the search bots (normal, strong) take "
        "seconds a board, so --field 1 or 2 gives a quick game",
    )
    p.add_argument(
        "--auto",
        type=_bot,
        default=None,
        metavar="BOT",
        help=f"a bot plays your seat instead of you ({', '.join(bot_names())}), seeded as the seat's own "
        "bot: for scripts and tests",
    )
    p.add_argument(
        "--delay",
        type=_delay,
        default=None,
        metavar="SECONDS",
        help=f"seconds between the bots' cards (default {DEFAULT_DELAY:g}, 0 with --auto)",
    )
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="processes that work out the bots' results while you play (default: one per core; 0: in this "
        "process, after each board)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the per-board results and the ranking as one JSON object (the play goes to standard error, "
        "or nowhere with --auto)",
    )


def register(sub: Subcommands) -> argparse.ArgumentParser:
    """Adds ``tournament`` to ``belote``'s subcommands (its ``func`` runs it)."""
    p = sub.add_parser(
        "tournament",
        help="play a duplicate tournament in the terminal and see how you rank against the bots' field",
        description=DESCRIPTION,
    )
    add_arguments(p)
    p.set_defaults(func=run)
    return p


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION)
    add_arguments(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``belote tournament`` alone: 0 at the end of the tournament, 1 when the person quit, 2 for a
    bad option (argparse's message), 130 when interrupted."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:  # --help (0) or a bad option (2), already written
        return e.code if isinstance(e.code, int) else 2
    return run(args)


# ----------------------------------------------------------------- a tournament
@dataclass(frozen=True)
class Entrant:
    """One line of the ranking: the person, or a bot of the fill-in field in the person's seat."""

    id: str
    name: str
    strength: str | None = None
    draw: int | None = None


def field_bots(strength: str, field: int = FIELD) -> list[tuple[str, int]]:
    """The bots (strength, draw) whose results make a board's field: the first ``field`` of the
    server's ``bot_field``, the tournament's own bot first. Nothing is played."""
    if not 1 <= field <= FIELD:
        raise ValueError(f"a board's field has 1 to {FIELD} bots' results, not {field}")
    return bot_field({"settings": {"strength": strength}})[:field]


def entrants_of(strength: str, field: int = FIELD) -> list[Entrant]:
    """The person, then the fill-in bots as the server orders them (``field_bots``)."""
    out = [Entrant(YOU, YOUR_NAME)]
    for bot, draw in field_bots(strength, field):
        name = f"{bot} bot" + (f" #{draw + 1}" if draw else "")
        out.append(Entrant(f"bot:{bot}:{draw}", name, bot, draw))
    return out


def _quiet_worker() -> None:
    """A worker leaves Ctrl-C to the person's process, which ends it (no traceback of its own)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _field_result(args: tuple[dict[str, Any], int, int, str, int]) -> dict[str, Any]:
    """A fill-in result (``play_board``), in a worker process."""
    return play_board(*args)


class BoardGame(TerminalGame):
    """A board at the terminal: the server's match of the board (``new_match(one_deal=True)``) and
    bots (the tournament's strength, seeded ``seed * 7 + seat``); ``auto``: a bot in the person's seat."""

    def __init__(
        self,
        settings: dict[str, Any],
        seed: int,
        auto: Bot | None,
        delay: float,
        read: Callable[[str], str],
        write: Callable[[str], None],
    ) -> None:
        rules = rules_of(settings)
        super().__init__(rules, seed, bot="random", delay=delay, read=read, write=write)
        assert self.me == person_seat(rules.players)
        self.match = new_match(settings, seed, one_deal=True)
        name, options = STRENGTHS[settings["strength"]]
        self.bots = {s: make_bot(name, seed=seed * 7 + s, **options) for s in range(rules.players) if s != self.me}
        self.auto = auto

    def _human_turn(self) -> bool:
        if self.auto is None:
            return super()._human_turn()
        m = self.match
        action = self.auto.act(m.view(self.me))
        if m.deal.phase == "bidding":  # the terminal announces the others' bids only
            self.write(f"{self.names[self.me]} (auto): {Bid(action).pretty()}")
        m.apply(action, seat=self.me)
        return True


def contract_text(line: dict[str, Any]) -> str:
    """``♠``, ``110 ♣``, ``capot no trumps x2``; ``-`` when nobody took."""
    trump = line["trump"]
    if trump is None:
        return "-"
    mode = MODE_LETTERS.index(trump)
    what = SUIT_SYMBOLS[mode] if mode < 4 else MODE_NAMES[mode]
    name = line["contract"]
    if name is not None:
        level = name[: -len(trump)] if name.endswith(trump) else name
        what = f"{level} {what}"
    if line["multiplier"] > 1:
        what += f" x{line['multiplier']}"
    return what


def points_text(points: Sequence[int], names: Sequence[str]) -> str:
    return " - ".join(f"{n} {p}" for n, p in zip(names, points, strict=True))


def _signed(x: float) -> str:
    """``+7.0``, ``-56.0``: a difference, to a tenth (never ``-0.0``)."""
    return f"{round(x, 1) + 0.0:+.1f}"


def _score(x: float) -> str:
    return f"{int(x):+d}" if x == int(x) else f"{x:+.1f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    """Rows in columns, as wide as their widest cell; the columns of ``right`` aligned right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def one(r: Sequence[str]) -> str:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        return "  ".join(cells).rstrip()

    return [one(header), *(one(r) for r in rows)]


class Tournament:
    """A tournament being played: its boards' fields, the person's results, the travellers."""

    def __init__(self, args: argparse.Namespace, seed: int) -> None:
        self.game: str = args.game
        self.boards: int = args.boards
        self.strength: str = args.bots
        self.auto: str | None = args.auto
        self.field_size: int = args.field
        self.seed = seed
        self.tournament = {"settings": check_settings({"variant": self.game, "strength": self.strength})}
        self.settings = board_settings(self.tournament)
        self.rules = rules_of(self.settings)
        self.seat = person_seat(self.rules.players)
        self.entrants = entrants_of(self.strength, self.field_size)
        self.field = field_bots(self.strength, self.field_size)
        self.travellers: list[dict[str, Any]] = []

    def field_args(self, board: int) -> list[tuple[dict[str, Any], int, int, str, int]]:
        bs = board_seed(self.seed, board)
        return [(self.settings, bs, self.seat, strength, draw) for strength, draw in self.field]

    def replay(self) -> str:
        words = ["belote", "tournament", "--game", self.game, "--boards", str(self.boards), "--bots", self.strength]
        if self.field_size != FIELD:
            words += ["--field", str(self.field_size)]
        if self.auto is not None:
            words += ["--auto", self.auto]
        return shlex.join([*words, "--seed", str(self.seed)])

    def traveller(self, board: int, mine: dict[str, Any], bots: list[dict[str, Any]]) -> dict[str, Any]:
        """A board's lines, best first (then in the field's order), each scored against all the others."""
        made = [mine, *bots]
        dist = Distribution()
        for m in made:
            dist.add(m["score"])
        lines = []
        for entrant, m in zip(self.entrants, made, strict=True):
            score = float(m["score"])
            line = m["line"]
            lines.append(
                {
                    "entrant": entrant.id,
                    "name": entrant.name,
                    "mine": entrant.id == YOU,
                    "bot": None if entrant.strength is None else {"strength": entrant.strength, "draw": entrant.draw},
                    **{k: line[k] for k in ("trump", "contract", "multiplier", "taker", "outcome", "points", "side")},
                    "score": score,
                    "rank": 1 + sum(1 for o in made if float(o["score"]) > score),
                    "percent": dist.matchpoints(score, []),
                    "difference": dist.difference(score, []),
                }
            )
        lines.sort(key=lambda x: -x["score"])  # stable: ties in the field's order, the person first
        bs = board_seed(self.seed, board)
        return {
            "board": board + 1,
            "board_seed": bs,
            "dealer": SEATS[bs % self.rules.players],
            "compared": len(made) - 1,
            "lines": lines,
            "record": mine["record"],
        }

    def traveller_text(self, t: dict[str, Any]) -> list[str]:
        names = self.rules.team_names
        rows = [
            [
                ">" if x["mine"] else "",
                str(x["rank"]),
                x["name"],
                contract_text(x),
                x["taker"] or "-",
                x["outcome"],
                points_text(x["points"], names),
                _score(x["score"]),
                f"{x['percent']:.2f}",
                _signed(x["difference"]),
            ]
            for x in t["lines"]
        ]
        header = ["", "#", "Entrant", "Contract", "Taker", "Outcome", "Points", "Score", "MP %", "Diff"]
        mine = next(x for x in t["lines"] if x["mine"])
        return [
            "",
            f"Board {t['board']} of {self.boards}, the traveller: {len(t['lines'])} results, each compared with "
            f"the {t['compared']} other{'s' if t['compared'] > 1 else ''}",
            *("  " + r for r in _table(header, rows, {1, 7, 8, 9})),
            f"Your score {_score(mine['score'])}: {mine['percent']:.2f} % of the matchpoints, "
            f"{_signed(mine['difference'])} to the field's mean.",
        ]

    def ranking(self) -> list[dict[str, Any]]:
        standings = {e.id: Standing(e.id, e.name, None) for e in self.entrants}
        for t in self.travellers:
            board = t["board"] - 1
            for x in t["lines"]:
                s = standings[x["entrant"]]
                s.percents[board], s.differences[board] = x["percent"], x["difference"]
        out: list[dict[str, Any]] = []
        for i, s in enumerate(ranked(standings.values(), len(self.travellers))):
            key = (round(s.percent, 2), round(s.difference, 2))
            tied = out and (out[-1]["percent"], out[-1]["difference"]) == key
            out.append(
                {
                    "rank": out[-1]["rank"] if tied else i + 1,
                    "entrant": s.entrant,
                    "name": s.name,
                    "mine": s.entrant == YOU,
                    "played": s.played,
                    "percent": round(s.percent, 2),
                    "difference": round(s.difference, 2),
                    "percents": [s.percents[b] for b in sorted(s.percents)],
                }
            )
        return out

    def ranking_text(self, rows: list[dict[str, Any]]) -> list[str]:
        table = [
            [">" if r["mine"] else "", str(r["rank"]), r["name"], f"{r['percent']:.2f}", _signed(r["difference"])]
            for r in rows
        ]
        boards = len(self.travellers)
        return [
            "",
            f"The ranking after {boards} board{'s' if boards > 1 else ''} ({self.game}, the bots: {self.strength}): "
            "mean matchpoints, then the mean difference",
            *("  " + r for r in _table(["", "#", "Entrant", "MP %", "Diff"], table, {1, 3, 4})),
        ]

    def to_json(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "format": "belote-tournament-cli/1",
            "game": self.game,
            "boards": self.boards,
            "seed": self.seed,
            "bots": self.strength,
            "field": self.field_size,
            "person": {"name": YOUR_NAME, "seat": SEATS[self.seat], "auto": self.auto},
            "entrants": [
                {
                    "entrant": e.id,
                    "name": e.name,
                    "bot": None if e.strength is None else {"strength": e.strength, "draw": e.draw},
                }
                for e in self.entrants
            ],
            "results": self.travellers,
            "ranking": rows,
            "replay": self.replay(),
        }


def _nowhere(line: str) -> None:
    """The play of ``--auto --json``: not shown."""


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def _stderr_read(prompt: str) -> str:
    """``input`` with its prompt on standard error (standard output holds the JSON)."""
    print(prompt, end="", file=sys.stderr, flush=True)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def run(args: argparse.Namespace) -> int:
    """Plays the tournament of ``args``; prints the travellers and the ranking (or the JSON)."""
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    t = Tournament(args, seed)
    play_write: Callable[[str], None] = print  # the play and the travellers
    if args.json:  # standard output holds the JSON alone
        play_write = _nowhere if args.auto is not None else _to_stderr
    read: Callable[[str], str] = _stderr_read if args.json else input
    delay = args.delay if args.delay is not None else (0.0 if args.auto is not None else DEFAULT_DELAY)
    jobs = args.jobs if args.jobs is not None else min(os.cpu_count() or 1, len(t.field) * t.boards)
    pool: ProcessPool | None = multiprocessing.Pool(jobs, _quiet_worker) if jobs > 0 else None
    try:
        pending: list[list[AsyncResult[dict[str, Any]]]] = []
        if pool is not None:  # every board's field at once: the workers keep ahead of the person
            pending = [[pool.apply_async(_field_result, (a,)) for a in t.field_args(b)] for b in range(t.boards)]
        for board in range(t.boards):
            bs = board_seed(seed, board)
            play_write(f"\n=== Board {board + 1} of {t.boards} ({t.game}, the bots: {t.strength}) ===")
            auto = None if args.auto is None else make_bot(args.auto, seed=bs * 7 + t.seat)
            game = BoardGame(t.settings, bs, auto, delay, read, play_write)
            if not game.play_out():
                play_write("Bye.")
                play_write(f"Seed {seed}: `{t.replay()}` plays the same boards again.")
                return 1
            mine = outcome(game.match.deals[0], t.seat)
            if pool is not None:
                bots = [r.get() for r in pending[board]]
            else:
                bots = [_field_result(a) for a in t.field_args(board)]
            traveller = t.traveller(board, mine, bots)
            t.travellers.append(traveller)
            for line in t.traveller_text(traveller):
                play_write(line)
        rows = t.ranking()
        if args.json:
            print(json.dumps(t.to_json(rows), ensure_ascii=False))
        else:
            for line in t.ranking_text(rows):
                print(line)
            print(f"\nSeed {seed}: `{t.replay()}` plays the same boards again.")
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
