"""Duplicate tournaments on the server (docs/tournaments.md): the same boards for every entrant,
each played at a table of one person and the tournament's bots, scored against the field.

- **A daily tournament per game** is made by the server itself, the first time anybody asks for the
  day's (``daily``): ``DAILY_BOARDS`` boards, open from 00:00 to 24:00 UTC, the bots of
  ``DAILY_STRENGTH`` (or the server's ``--daily-boards`` and ``--daily-bots``); its id says its
  game and day (``daily-classic-20261205``), its seed is secret.
  A host with an identity may make a **private** one (``create_private``): its own game, boards,
  bots and dates, seen only through its link (its id and invitation code).
- **A board is played once per entrant** (``play``): the entrant is the identity when the person
  has one, else the browser's seat token's digest with the name typed (``entrant_of``). The first
  ``play`` of a board makes its table (kind ``tournament``, ``Meta.board``; seeded by
  ``tournament.board_seed``, so every entrant meets the same deck, dealer and bots' play); a later
  one gives the same table back until the deal is over, then refuses ``board_played``.
- **When the deal ends** (``finish``, from the tables' manager) the result is kept: its score
  (``tournament.net``), what was made (a *line*: contract, taker, outcome, points) and the deal's
  record, for its review.
- **The bots' results** of each board (``tournament.BOT_FIELD``: the board played by bots alone,
  the person's seat by several bots) are worked out once, in the bots' workers, when the tournament
  is made (``bots``), one board at a time (``BoardQueue``: a board somebody waits for first, then
  the first boards of every tournament); the first of them, the tournament's own bot in the person's seat, is the bots'
  line of the traveller.
- **The traveller** of a board (``traveller``): every line of the field, best first, with how many
  made it, the first names, matchpoints and difference, the entrant's own line and the bots' line
  marked, and how many people and bots' results a result is compared with; shown only to an entrant
  who played the board, or to anybody once the tournament is closed.
- **The ranking** (``standings``) is remade from every result at most every ``RANKING_EVERY``
  seconds (more for a large field: ten times what the last one took), by the store's ``ranker`` in
  a bots' worker process (the event loop never holds the field), and read from the store.

Nothing here shows a deal before it is played: the seed never leaves the server and a table shows
its person only their view.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from belote.bots import make_bot
from belote.contracts import MODE_LETTERS
from belote.game import SEATS, Deal, Match
from belote.ids import new_id
from belote.record import to_record
from belote.server.room import STRENGTHS, check_name, check_settings, person_seat, rules_of
from belote.server.tournament_store import RankJob, TournamentStore
from belote.server.wire import BadRequest
from belote.tournament import (
    BOT_FIELD,
    FIELD,
    MAX_BOARDS,
    MIN_BOARDS,
    Distribution,
    board_seed,
    bot_draw_seed,
    net,
)

log = logging.getLogger("belote.tournaments")

DAILY_BOARDS = 8
DAILY_STRENGTH = "normal"
DAY = 86_400.0
#: Seconds between two rankings of a tournament at least (ten times the last one's cost at most).
RANKING_EVERY = 5.0
#: Rows of a ranking in one answer.
RANKING_PAGE = 50
#: The longest a private tournament stays open, and how far ahead it may open.
LONGEST, AHEAD = 31 * DAY, 31 * DAY
#: An entrant without an identity: the digest of their seat token (never the token).
GUEST = "guest:"


def day_start(now: float) -> float:
    """00:00 UTC of the day of ``now`` (unix seconds).

    >>> day_start(1764892800.0 + 3600) == 1764892800.0
    True
    """
    return float(int(now // DAY) * DAY)


def daily_id(game: str, now: float) -> str:
    """The id of the day's tournament of ``game``: ``daily-classic-20251205``."""
    day = datetime.datetime.fromtimestamp(day_start(now), datetime.UTC)
    return f"daily-{game}-{day:%Y%m%d}"


def entrant_of(player: dict[str, Any] | None, token: str | None) -> str | None:
    """Who plays: the identity's id, or ``guest:`` and the digest of a browser's token."""
    if player is not None:
        return str(player["id"])
    if token:
        return GUEST + hashlib.sha256(token.encode()).hexdigest()[:32]
    return None


def no_such_tournament() -> BadRequest:
    return BadRequest("no tournament of that id (or not with that link)", "no_such_tournament", 404)


def board_settings(tournament: dict[str, Any]) -> dict[str, Any]:
    """The settings of a board's table: the tournament's game, rules and bots, one deal, no hint."""
    return check_settings({**tournament["settings"], "deals": 1, "hints": False})


# ----------------------------------------------------------------- what a deal made
def outcome(deal: Deal, seat: int) -> dict[str, Any]:
    """What a finished board made, seen from ``seat``: the score, the line and the record."""
    rules, r = deal.rules, deal.result
    assert r is not None
    side = rules.team(seat)
    contract = deal.contract
    line = {
        "trump": None if deal.trump is None else MODE_LETTERS[deal.trump],
        "contract": None if contract is None else contract.name,
        "multiplier": 1 if contract is None else contract.multiplier,
        "taker": None if deal.taker is None else SEATS[deal.taker],
        "outcome": r.outcome,
        "points": list(r.points),
        "side": side,
    }
    score = net(r.points, side)
    key = json.dumps([line[k] for k in ("contract", "trump", "multiplier", "taker", "outcome", "points")])
    return {"score": score, "line": {**line, "line": key, "score": score}, "record": to_record(deal)}


def play_board(settings: dict[str, Any], seed: int, seat: int, strength: str, draw: int) -> dict[str, Any]:
    """A board played by bots alone: the tournament's at every seat (seeded as at the table), and at
    ``seat`` a bot of ``strength`` and draw ``draw`` (draw 0: the seat's own seed). What it made."""
    match = Match(rules_of(settings), seed=seed, first_dealer=seed % rules_of(settings).players, one_deal=True)
    name, options = STRENGTHS[settings["strength"]]
    bots = [make_bot(name, seed=seed * 7 + s, **options) for s in range(match.rules.players)]
    own, own_options = STRENGTHS[strength]
    bots[seat] = make_bot(own, seed=bot_draw_seed(seed * 7 + seat, draw), **own_options)
    while not match.over:
        turn = match.to_move
        assert turn is not None
        match.apply(bots[turn].act(match.view(turn)), turn)
    made = outcome(match.deals[0], seat)
    return {"bot": strength, "draw": draw, **made}


def _play_board(args: tuple[dict[str, Any], int, int, str, int]) -> dict[str, Any]:
    return play_board(*args)


def bot_field(tournament: dict[str, Any]) -> list[tuple[str, int]]:
    """The bots that play the person's seat for the fill-in field, the tournament's own first."""
    own = (str(tournament["settings"]["strength"]), 0)
    return [own, *(b for b in BOT_FIELD if b != own)][:FIELD]


class Tournaments:
    """The tournaments of a server: made, played, scored, ranked."""

    def __init__(
        self,
        store: TournamentStore,
        clock: Callable[[], float] = time.time,
        daily_boards: int = DAILY_BOARDS,
        daily_strength: str = DAILY_STRENGTH,
    ) -> None:
        self.store = store
        self.clock = clock
        #: The boards and the bots of the daily tournaments this server makes (``belote serve
        #: --daily-boards --daily-bots``): a day's tournament keeps those it was made with.
        self.daily_boards, self.daily_strength = daily_boards, daily_strength
        self.manager: Any = None  # the tables' manager (``TableManager``), set by the app
        self._bots: dict[tuple[str, int], asyncio.Task[list[dict[str, Any]]]] = {}
        self._ranking: dict[str, asyncio.Task[None]] = {}
        self._ranked_at: dict[str, tuple[float, float]] = {}  # id -> (when, seconds it took)
        #: The bots' boards are worked out one at a time in this process, a board somebody waits for
        #: first: the tables' bots always find a worker (or a thread) free of them.
        self._boards = BoardQueue()

    async def close(self) -> None:
        """Stop the bots' boards and the rankings under way (the server stops)."""
        for task in [*self._bots.values(), *self._ranking.values()]:
            task.cancel()
        for task in [*self._bots.values(), *self._ranking.values()]:
            with contextlib.suppress(BaseException):
                await task
        self.store.close()

    # ----------------------------------------------------------------- making them
    async def daily(self, game: str) -> dict[str, Any]:
        """Today's tournament of ``game``, made by the first to ask."""
        now = self.clock()
        tid = daily_id(game, now)
        found = await self.store.tournament(tid)
        if found is not None:
            return found
        opens = day_start(now)
        made = {
            "id": tid,
            "kind": "daily",
            "name": None,
            "game": game,
            "settings": board_settings({"settings": {"variant": game, "strength": self.daily_strength}}),
            "boards": self.daily_boards,
            "opens": opens,
            "closes": opens + DAY,
            "created": now,
            "host": None,
            "invite": None,
            "seed": secrets.randbelow(2**31),
        }
        if await self.store.create(made):
            log.info("the daily tournament %s is made", tid)
            self._start_bots(made)
            return made
        return await self.store.tournament(tid) or made  # made meanwhile by another process

    async def create_private(self, host: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        """A host's private tournament: ``{"name", "settings", "boards", "opens", "closes"}``."""
        now = self.clock()
        name = check_name(data.get("name"))
        settings = board_settings({"settings": data.get("settings") or {}})
        boards = data.get("boards", DAILY_BOARDS)
        if not isinstance(boards, int) or isinstance(boards, bool) or not MIN_BOARDS <= boards <= MAX_BOARDS:
            raise BadRequest(
                f"a tournament has {MIN_BOARDS} to {MAX_BOARDS} boards",
                "bad_boards",
                min=MIN_BOARDS,
                max=MAX_BOARDS,
            )
        opens, closes = data.get("opens", now), data.get("closes", now + DAY)
        if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in (opens, closes)):
            raise BadRequest("opens and closes are times in unix seconds", "bad_dates")
        if not (now - DAY <= opens < closes <= opens + LONGEST and opens <= now + AHEAD):
            raise BadRequest(
                "a tournament closes after it opens, within 31 days, and opens within 31 days", "bad_dates"
            )
        made = {
            "id": new_id(),
            "kind": "private",
            "name": name,
            "game": settings["variant"],
            "settings": settings,
            "boards": boards,
            "opens": float(opens),
            "closes": float(closes),
            "created": now,
            "host": host["id"],
            "invite": secrets.token_urlsafe(12),
            "seed": secrets.randbelow(2**31),
        }
        await self.store.create(made)
        self._start_bots(made)
        return made

    async def find(self, tid: str, invite: str | None = None) -> dict[str, Any]:
        """A tournament one may see: a daily one, or a private one with its link's code."""
        found = await self.store.tournament(tid)
        if found is None or (found["kind"] == "private" and not _same(found["invite"], invite)):
            raise no_such_tournament()
        return found

    def state(self, t: dict[str, Any]) -> str:
        now = self.clock()
        return "soon" if now < t["opens"] else "open" if now < t["closes"] else "closed"

    def public(self, t: dict[str, Any], viewer: str | None = None) -> dict[str, Any]:
        """What anybody who may see it is told (the seed never; the invitation to its host)."""
        out = {k: t[k] for k in ("id", "kind", "name", "game", "boards", "opens", "closes", "host")}
        out["settings"] = {k: t["settings"][k] for k in ("variant", "strength")}
        out["state"] = self.state(t)
        if viewer is not None and viewer == t["host"]:
            out["invite"] = t["invite"]
        return out

    # ----------------------------------------------------------------- the bots' field
    def _start_bots(self, t: dict[str, Any]) -> None:
        for board in range(t["boards"]):
            self._bots_of(t, board)

    def _bots_of(self, t: dict[str, Any], board: int) -> asyncio.Task[list[dict[str, Any]]]:
        key = (t["id"], board)
        task = self._bots.get(key)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = self._bots[key] = asyncio.ensure_future(self._work_out_bots(t, board))
        return task

    async def _work_out_bots(self, t: dict[str, Any], board: int) -> list[dict[str, Any]]:
        kept = await self.store.bots(t["id"], board)
        if kept is not None:
            return kept
        settings = board_settings(t)
        seed = board_seed(t["seed"], board)
        seat = person_seat(rules_of(settings).players)
        thinker = None if self.manager is None else self.manager.config.thinker
        results = []
        async with self._boards.turn((t["id"], board), board):
            for strength, draw in bot_field(t):
                args = (settings, seed, seat, strength, draw)
                if thinker is not None:
                    owner = f"tournament:{t['id']}"
                    results.append(await thinker.work(_play_board, args, "a tournament's bots", owner))
                else:
                    results.append(await asyncio.to_thread(_play_board, args))
        await self.store.set_bots(t["id"], board, results)
        return await self.store.bots(t["id"], board) or results

    async def bots(self, t: dict[str, Any], board: int) -> list[dict[str, Any]]:
        """The bots' results of a board (worked out now if they were not yet)."""
        kept = await self.store.bots(t["id"], board)
        if kept is not None:
            return kept
        task = self._bots_of(t, board)
        self._boards.urge((t["id"], board))  # somebody waits for it: before the others
        return await asyncio.shield(task)

    # ----------------------------------------------------------------- playing
    async def play(self, t: dict[str, Any], board: int, entrant: str, name: str, player: str | None) -> dict[str, Any]:
        """The entrant's table of a board: made at the first call, the same until the deal ends."""
        _check_board(t, board)
        state = self.state(t)
        if state != "open":
            raise BadRequest(
                "the tournament is not open yet" if state == "soon" else "the tournament is closed",
                "tournament_closed",
                409,
            )
        if await self.store.result(t["id"], board, entrant) is not None:
            raise BadRequest(
                "you have played this board: each board is played once", "board_played", 409, board=board + 1
            )
        held = await self.store.entry(t["id"], board, entrant)
        if held is not None:
            return held
        table, token, seat = await self.manager.create_board(
            board_settings(t),
            board_seed(t["seed"], board),
            name,
            player,
            {"tournament": t["id"], "board": board, "entrant": entrant},
        )
        entry = {"table": table.id, "token": token, "seat": SEATS[seat], "started": self.clock()}
        kept = await self.store.add_entry(t["id"], board, entrant, entry)
        if kept["table"] != table.id:  # another request of the entrant made one first: theirs is the table
            await self.manager.drop(table.id)
        return kept

    async def finish(self, table: Any) -> None:
        """A board's deal is over at ``table``: the entrant's result is kept."""
        meta = table.meta
        board = meta.board
        if board is None or table.match is None or not table.match.over:
            return
        t = await self.store.tournament(board["tournament"])
        if t is None:
            return
        if self.clock() >= t["closes"]:  # the ranking is final: a deal ended after the close counts nothing
            log.info("a board of %s ended after its close: not kept", t["id"], extra={"table": table.id})
            return
        (seat, person), *_ = [(s, p) for s, p in meta.seats.items() if p.bot is None]
        made = outcome(table.match.deals[0], seat)
        result = {
            "tournament": t["id"],
            "board": int(board["board"]),
            "entrant": board["entrant"],
            "name": person.name,
            "player": person.player,
            "score": made["score"],
            "line": made["line"]["line"],
            "at": self.clock(),
            "table": table.id,
            "record": made["record"],
            **{k: made["line"][k] for k in ("trump", "contract", "multiplier", "taker", "outcome", "points", "side")},
        }
        await self.store.add_result(result, made["line"])

    # ----------------------------------------------------------------- reading
    async def mine(self, t: dict[str, Any], entrant: str | None) -> list[dict[str, Any]]:
        """Each board for the entrant: played (its score and percentage), under way, or to play."""
        results = {} if entrant is None else await self.store.entrant_results(t["id"], entrant)
        out = []
        for board in range(t["boards"]):
            if board in results:
                r = results[board]
                dist, bots = await self._distribution(t, board)
                out.append(
                    {
                        "board": board + 1,
                        "state": "played",
                        "score": r["score"],
                        "percent": dist.matchpoints(r["score"], bots),
                        "difference": dist.difference(r["score"], bots),
                    }
                )
                continue
            entry = None if entrant is None else await self.store.entry(t["id"], board, entrant)
            out.append({"board": board + 1, "state": "playing" if entry else "to_play"})
        return out

    async def _distribution(self, t: dict[str, Any], board: int) -> tuple[Distribution, list[float]]:
        dist = Distribution(await self.store.distribution(t["id"], board))
        bots = [float(b["score"]) for b in await self.bots(t, board)]
        return dist, bots

    async def traveller(self, t: dict[str, Any], board: int, entrant: str | None) -> dict[str, Any]:
        """Every line of a board's field, for an entrant who played it (or anybody once closed)."""
        _check_board(t, board)
        own = None if entrant is None else await self.store.result(t["id"], board, entrant)
        if own is None and self.state(t) != "closed":
            raise BadRequest(
                "a board's results are shown once you have played it", "board_not_played", 409, board=board + 1
            )
        lines = await self.store.lines(t["id"], board)
        bots = await self.bots(t, board)
        bot_scores = [float(b["score"]) for b in bots]
        dist = Distribution()
        for line in lines:
            dist.counts[float(line["score"])] = dist.counts.get(float(line["score"]), 0) + int(line["n"])
            dist.total += int(line["n"])
        out_lines = []
        for line in lines:
            score = float(line["score"])
            out_lines.append(
                {
                    **{k: line[k] for k in ("trump", "contract", "multiplier", "taker", "outcome", "points", "score")},
                    "n": line["n"],
                    "names": line["names"],
                    "percent": dist.matchpoints(score, bot_scores),
                    "difference": dist.difference(score, bot_scores),
                    "mine": own is not None and own["line"] == line["line"],
                }
            )
        people, filled = dist.compared(bot_scores)
        line0 = bots[0]["line"]
        bots_line = {
            **{k: line0[k] for k in ("trump", "contract", "multiplier", "taker", "outcome", "points", "score")},
            "percent": _against_people(float(bots[0]["score"]), dist, bot_scores[1:]),
        }
        return {
            "tournament": t["id"],
            "board": board + 1,
            "game": t["game"],
            "results": dist.total,
            "compared": {"people": people, "bots": filled},
            "lines": out_lines,
            "bots": bots_line,
            "mine": None
            if own is None
            else {
                "score": own["score"],
                "percent": dist.matchpoints(float(own["score"]), bot_scores),
                "difference": dist.difference(float(own["score"]), bot_scores),
                "table": own["table"],
            },
        }

    async def record(self, t: dict[str, Any], board: int, entrant: str | None) -> list[dict[str, Any]]:
        """The records of a board for its review: the entrant's deal, then the bots' line's."""
        _check_board(t, board)
        own = None if entrant is None else await self.store.result(t["id"], board, entrant)
        if own is None:
            raise BadRequest(
                "a board's results are shown once you have played it", "board_not_played", 409, board=board + 1
            )
        bots = await self.bots(t, board)
        return [own["record"], bots[0]["record"]]

    async def standings(self, t: dict[str, Any], entrant: str | None, offset: int = 0) -> dict[str, Any]:
        """The ranking (remade when results came since, at most every ``RANKING_EVERY`` seconds)."""
        await self._maybe_rank(t)
        page = await self.store.ranking(t["id"], offset, RANKING_PAGE) or {
            "results": 0,
            "at": self.clock(),
            "total": 0,
            "rows": [],
        }
        page["you"] = None if entrant is None else await self.store.rank_of(t["id"], entrant)
        page["boards"] = t["boards"]
        page["state"] = self.state(t)
        return page

    async def _maybe_rank(self, t: dict[str, Any]) -> None:
        tid = t["id"]
        running = self._ranking.get(tid)
        if running is not None and not running.done():
            return
        last = await self.store.ranking(tid, 0, 0)
        count = await self.store.count(tid)
        if last is not None and last["results"] >= count:
            return
        at, took = self._ranked_at.get(tid, (0.0, 0.0))
        now = time.monotonic()
        if last is not None and now - at < max(RANKING_EVERY, 10 * took):
            return
        task = self._ranking[tid] = asyncio.ensure_future(self._rank(t))
        if last is None:  # the first ranking: waited for (it is small)
            await asyncio.shield(task)

    async def _rank(self, t: dict[str, Any]) -> None:
        tid, boards = t["id"], t["boards"]
        bots: list[tuple[float, ...] | None] = []
        for k in range(boards):  # a board whose bots are not worked out yet waits for the next ranking
            kept = await self.store.bots(tid, k)
            if kept is None:
                self._bots_of(t, k)
            bots.append(None if kept is None else tuple(float(b["score"]) for b in kept))
        started = time.monotonic()
        job = RankJob(tid, boards, tuple(bots), self.clock())
        rank, elsewhere = self.store.ranker()
        thinker = None if self.manager is None else self.manager.config.thinker
        if elsewhere and thinker is not None:  # a worker process: the loop never holds the field
            await thinker.work(rank, job, "a tournament's ranking", owner=f"tournament:{tid}")
        else:
            await asyncio.to_thread(rank, job)
        self._ranked_at[tid] = (time.monotonic(), time.monotonic() - started)


class BoardQueue:
    """Turns to work out a board's bots' results, one board at a time: a board somebody waits for
    first, then the lowest board (the first board of every tournament before any second one), then
    the first asked.

    >>> async def order() -> list[str]:
    ...     queue, done = BoardQueue(), []
    ...     async def work(key: str, board: int) -> None:
    ...         async with queue.turn(key, board):
    ...             done.append(key)
    ...             await asyncio.sleep(0)
    ...     tasks = [asyncio.ensure_future(work(k, b)) for k, b in (("a0", 0), ("a1", 1), ("b1", 1), ("b0", 0))]
    ...     await asyncio.sleep(0)
    ...     queue.urge("b1")
    ...     await asyncio.gather(*tasks)
    ...     return done
    >>> asyncio.run(order())
    ['a0', 'b1', 'b0', 'a1']
    """

    def __init__(self) -> None:
        self._busy = False
        self._order = itertools.count()
        #: key -> [urgency (0: waited for), board, order, the future that gives the turn]
        self._waiting: dict[Any, list[Any]] = {}

    def urge(self, key: Any) -> None:
        waiting = self._waiting.get(key)
        if waiting is not None:
            waiting[0] = 0

    @contextlib.asynccontextmanager
    async def turn(self, key: Any, board: int) -> AsyncIterator[None]:
        if self._busy:
            given: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting[key] = [1, board, next(self._order), given]
            try:
                await given
            except BaseException:
                if self._waiting.pop(key, None) is None and given.done() and not given.cancelled():
                    self._next()  # the turn was given as this one was cancelled: the next takes it
                raise
        self._busy = True
        try:
            yield
        finally:
            self._next()

    def _next(self) -> None:
        if not self._waiting:
            self._busy = False
            return
        key = min(self._waiting, key=lambda k: self._waiting[k][:3])
        self._waiting.pop(key)[3].set_result(None)


def _against_people(score: float, dist: Distribution, bots: list[float]) -> float | None:
    """The bots' line's percentage against the people's results (and the other bots' to fill)."""
    taken = bots[: max(0, FIELD - dist.total)]
    n = dist.total + len(taken)
    if n == 0:
        return None
    below = sum(k for s, k in dist.counts.items() if s < score) + sum(1 for b in taken if b < score)
    ties = dist.counts.get(score, 0) + sum(1 for b in taken if b == score)
    return 100.0 * (below + ties / 2) / n


def _check_board(t: dict[str, Any], board: int) -> None:
    if not 0 <= board < t["boards"]:
        raise BadRequest(f"the tournament has boards 1 to {t['boards']}", "no_such_board", 404, boards=t["boards"])


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and secrets.compare_digest(a, b)
