"""The tournaments in Redis (``TournamentStore``), for every process of a server alike: the same answers
as ``tournament_store.SQLiteTournaments`` (tests/test_tournament_store.py holds both to them).

Keys (under the link's prefix, ``belote:`` by default; ``{t}`` a tournament's id and ``{kind}`` a kind,
each with ``%`` and ``:`` written ``%25`` and ``%3A`` (``_part``: no key can then be read as another),
``{b}`` a board's number, ``{e}`` an entrant, ``{player}`` a player's id, ``{line}`` a line's key, which
may hold ``:`` and end their keys):

- ``tn:t:{t}`` the tournament (JSON), written once (``SET NX``);
- ``tn:opens`` every tournament by its opening time (a sorted set: id -> opens), whence a result knows
  its tournament is there and when it opened; ``tn:kind:{kind}`` the tournaments of a kind and
  ``tn:game:{kind}:{game}`` those of a kind and game, by opening time (sorted sets: ties by id, as SQL
  orders them);
- ``tn:t:{t}:bots`` the bots' results of each board (a hash: board -> JSON list, each written once);
- ``tn:t:{t}:n:{e}`` an entrant's tables (a hash: board -> entry JSON, each written once), ``tn:e:{e}``
  the tournaments the entrant has one in (a set), whence a forgotten player's are found;
- ``tn:t:{t}:r:{e}`` an entrant's results (a hash: board -> result JSON, each written once);
- ``tn:t:{t}:scores`` every result of the tournament, small (a hash: ``{b}:{e}`` -> JSON ``[board,
  entrant, name, player, score]``): ``scores`` reads it by ``HSCAN`` in batches (a script joins each
  batch's values in one JSON list: redis-py reads one string much faster than a thousand), ``count``
  is its length;
- ``tn:t:{t}:b:{b}:lines`` a board's lines (a hash: line -> line JSON, as its first result gave it),
  ``tn:t:{t}:b:{b}:counts`` their results (a hash: line -> n), ``tn:t:{t}:b:{b}:l:{line}`` the
  entrants who made a line by when they made it (a sorted set: ties by entrant, as SQL orders them),
  whence its first ``LINE_NAMES`` names;
- ``tn:t:{t}:ranking`` the last ranking made (a hash: ``results``, ``at``, ``total``), ``tn:t:{t}:ranks``
  its entrants by rank (a sorted set, ranks from 1), ``tn:t:{t}:rows`` its rows (a hash: entrant -> row
  JSON, with its ``rank``); ``tn:t:{t}:new:{hex}:ranks`` and ``tn:t:{t}:new:{hex}:rows`` a ranking being
  written, in batches, renamed onto those in one script when it is complete (they expire after
  ``WRITING`` seconds, should their writer die); ``tn:forgotten`` the players forgotten so far;
- ``tn:p:{player}`` a player's results (a sorted set of JSON ``[t, b, e]`` by their tournament's
  opening time), ``tn:host:{player}`` the tournaments the player hosts (a set).

Every change of several keys is one Lua script (``create``, ``set_bots``, ``add_entry``, ``add_result``,
the last step of ``rank_redis``) or one ``MULTI`` under ``WATCH`` (``forget_player``, done again when
anything it read changed meanwhile). The scripts make the keys of a line's entrants from the prefix:
one Redis, not a cluster.

``forget_player`` renames what it finds and counts one more forgotten player (``tn:forgotten``): a
ranking whose results were read before is not kept (``rank_redis`` makes it again), so none names
the forgotten entrant again.

The ranking is made by ``rank_redis``, a module's function that reaches Redis by itself: in a bots'
worker process (the server's event loop never reads the 800,000 results of a full daily field).

With 100,000 results of a board, ``add_result`` costs O(log n), ``lines`` O(lines), ``ranking`` O(log n
+ limit) and ``rank_of`` O(1); ``scores`` reads ``BATCH`` results a call.
"""

from __future__ import annotations

import functools
import json
import math
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import redis
from redis.exceptions import WatchError

from belote.server.redis_hub import RedisLink
from belote.server.tournament_store import LINE_NAMES, RankJob, ranking_rows

#: Rows of a ranking written in one pipeline, and results read in one ``HSCAN`` call.
BATCH = 1000
#: Seconds a ranking being written is kept unfinished (its writer died) before Redis drops it.
WRITING = 3600

# KEYS: the tournament, every tournament, those of its kind, those of its kind and game, [its host's].
# ARGV: JSON, id, opens. 0: the id is taken, and nothing is written.
_CREATE = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
for i = 2, 4 do redis.call('ZADD', KEYS[i], ARGV[3], ARGV[2]) end
if KEYS[5] then redis.call('SADD', KEYS[5], ARGV[2]) end
return 1
"""

# KEYS: every tournament, the bots' results; ARGV: id, board, JSON. -1: no such tournament.
_SET_BOTS = """
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return -1 end
redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[3])
return 1
"""

# KEYS: every tournament, the entrant's tables, the entrant's tournaments; ARGV: id, board, JSON. The
# entry kept (this one when it had none); false: no such tournament.
_ADD_ENTRY = """
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return false end
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[3]) == 1 then
  redis.call('SADD', KEYS[3], ARGV[1])
  return ARGV[3]
end
return redis.call('HGET', KEYS[2], ARGV[2])
"""

# KEYS: every tournament, the entrant's results, the tournament's scores, the board's lines, their
# counts, the entrants of the result's line, [the player's results]. ARGV: id, board, entrant, result
# JSON, score JSON, line key, line JSON, at, the player's entry. 0: the entrant had a result of the
# board, or there is no such tournament, and nothing is written.
_ADD_RESULT = """
local opens = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not opens then return 0 end
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[4]) == 0 then return 0 end
redis.call('HSET', KEYS[3], ARGV[2] .. ':' .. ARGV[3], ARGV[5])
redis.call('HSETNX', KEYS[4], ARGV[6], ARGV[7])
redis.call('HINCRBY', KEYS[5], ARGV[6], 1)
redis.call('ZADD', KEYS[6], ARGV[8], ARGV[3])
if KEYS[7] then redis.call('ZADD', KEYS[7], opens, ARGV[9]) end
return 1
"""

# KEYS: the board's lines, their counts, the tournament's scores. ARGV: board, names, the prefix of a
# line's entrants' key. One JSON list (redis-py reads one string much faster than many), of each line
# as [JSON, n, [the score JSON of each of its first entrants]]: two calls a line.
_LINES = """
local counts = {}
local held = redis.call('HGETALL', KEYS[2])
for i = 1, #held, 2 do counts[held[i]] = held[i + 1] end
local out = {}
local lines = redis.call('HGETALL', KEYS[1])
for i = 1, #lines, 2 do
  local fields = redis.call('ZRANGE', ARGV[3] .. lines[i], 0, tonumber(ARGV[2]) - 1)
  for j = 1, #fields do fields[j] = ARGV[1] .. ':' .. fields[j] end
  local names = {}
  if #fields > 0 then
    for _, score in ipairs(redis.call('HMGET', KEYS[3], unpack(fields))) do
      if score then names[#names + 1] = score end
    end
  end
  out[#out + 1] = '[' .. lines[i + 1] .. ',' .. (counts[lines[i]] or '0') .. ',[' .. table.concat(names, ',') .. ']]'
end
return '[' .. table.concat(out, ',') .. ']'
"""

# KEYS: the tournament's scores; ARGV: cursor, count. {next cursor, the values of the batch as one
# JSON list}.
_SCAN = """
local got = redis.call('HSCAN', KEYS[1], ARGV[1], 'COUNT', ARGV[2])
local values = {}
for i = 2, #got[2], 2 do values[#values + 1] = got[2][i] end
return {got[1], '[' .. table.concat(values, ',') .. ']'}
"""

# KEYS: the ranking, its ranks, its rows, the new ranks, the new rows, the players forgotten. ARGV:
# results, at, total, the players forgotten when its results were read. The new ranking replaces the
# kept one unless that was made from more results. 0: it did not (and goes); -1: the new ranking is not
# whole (it expired while written); -2: a player was forgotten since its results were read (it goes:
# it may name them).
_SAVE_RANKING = """
if (redis.call('GET', KEYS[6]) or '0') ~= ARGV[4] then
  redis.call('UNLINK', KEYS[4], KEYS[5])
  return -2
end
local kept = redis.call('HGET', KEYS[1], 'results')
if kept and tonumber(kept) > tonumber(ARGV[1]) then
  redis.call('UNLINK', KEYS[4], KEYS[5])
  return 0
end
local total = tonumber(ARGV[3])
if redis.call('ZCARD', KEYS[4]) ~= total or redis.call('HLEN', KEYS[5]) ~= total then
  redis.call('UNLINK', KEYS[4], KEYS[5])
  return -1
end
redis.call('UNLINK', KEYS[2], KEYS[3])
if total > 0 then
  redis.call('RENAME', KEYS[4], KEYS[2])
  redis.call('PERSIST', KEYS[2])
  redis.call('RENAME', KEYS[5], KEYS[3])
  redis.call('PERSIST', KEYS[3])
end
redis.call('HSET', KEYS[1], 'results', ARGV[1], 'at', ARGV[2], 'total', ARGV[3])
return 1
"""
#: Times a ranking is made again when players were forgotten while it was made, before it waits for
#: the next one.
RANK_TRIES = 3

# KEYS: the ranking, its ranks, its rows; ARGV: the first and last index. {results, at, total, rows},
# or false before the first ranking.
_RANKING = """
local head = redis.call('HMGET', KEYS[1], 'results', 'at', 'total')
if not head[1] then return false end
local rows = {}
if tonumber(ARGV[2]) >= tonumber(ARGV[1]) then
  for _, e in ipairs(redis.call('ZRANGE', KEYS[2], ARGV[1], ARGV[2])) do
    rows[#rows + 1] = redis.call('HGET', KEYS[3], e) or ''
  end
end
return {head[1], head[2], head[3], rows}
"""


def _part(text: str) -> str:
    """A tournament's id or a kind in a key: without ``:``, so that it ends where the next part begins.

    >>> _part("daily-classic-20251205"), _part("a:b%c")
    ('daily-classic-20251205', 'a%3Ab%25c')
    """
    return text.replace("%", "%25").replace(":", "%3A")


def _real(value: Any) -> str:
    """A number as Redis reads a score back exactly (and infinities as it spells them)."""
    x = float(value)
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return repr(x)


def _t(k: Callable[..., str], tournament_id: str, *parts: str) -> str:
    return k("tn", "t", _part(tournament_id), *parts)


def _ranking_keys(k: Callable[..., str], tournament_id: str) -> list[str]:
    return [_t(k, tournament_id, part) for part in ("ranking", "ranks", "rows")]


def rank_redis(where: tuple[str, str], job: RankJob) -> int:
    """``job``'s ranking from every result in the Redis at ``where`` (its address and prefix), made
    and kept from any process (a bots' worker's): the results read by ``HSCAN`` in batches, the rows
    (``tournament_store.ranking_rows``) written in batches under new keys, then put in place in one
    script, unless a ranking of more results is kept, or a player was forgotten meanwhile (then made
    again, ``RANK_TRIES`` times at most). The results counted."""
    url, prefix = where
    r = redis.Redis.from_url(url, decode_responses=True)

    def k(*parts: str) -> str:
        return prefix + ":".join(parts)

    try:
        scan, save = r.register_script(_SCAN), r.register_script(_SAVE_RANKING)
        forgotten_key = k("tn", "forgotten")
        for _ in range(RANK_TRIES):
            forgotten = str(r.get(forgotten_key) or "0")
            scores: dict[tuple[int, str], tuple[str, str, str | None, int, float]] = {}
            cursor = "0"
            while True:  # HSCAN may give a field twice (the hash resized meanwhile): kept once
                cursor, batch = scan(keys=[_t(k, job.tournament, "scores")], args=[cursor, BATCH])
                for board, entrant, name, player, score in json.loads(batch):
                    scores[(int(board), str(entrant))] = (str(entrant), str(name), player, int(board), float(score))
                if cursor == "0":
                    break
            results = sum(1 for board, _ in scores if 0 <= board < job.boards and job.bots[board] is not None)
            kept = r.hget(_t(k, job.tournament, "ranking"), "results")
            if kept is not None and int(kept) > results:
                return int(kept)  # (checked again as it is replaced)
            rows = ranking_rows(job.boards, list(scores.values()), job.bots)
            written = secrets.token_hex(8)
            new = [_t(k, job.tournament, "new", written, part) for part in ("ranks", "rows")]
            try:
                for start in range(0, len(rows), BATCH):
                    pipe = r.pipeline(transaction=False)
                    batch_rows = range(start, min(start + BATCH, len(rows)))
                    pipe.zadd(new[0], {rows[i]["entrant"]: i + 1 for i in batch_rows})
                    pipe.hset(
                        new[1], mapping={rows[i]["entrant"]: json.dumps({**rows[i], "rank": i + 1}) for i in batch_rows}
                    )
                    pipe.expire(new[0], WRITING)
                    pipe.expire(new[1], WRITING)
                    pipe.execute()
                done = save(
                    keys=[*_ranking_keys(k, job.tournament), *new, forgotten_key],
                    args=[results, _real(job.at), len(rows), forgotten],
                )
            except BaseException:
                r.unlink(*new)
                raise
            if done == -1:
                raise RuntimeError(f"the ranking of {job.tournament} expired while it was written")
            if done != -2:
                return results
        return 0  # players forgotten all along: the next ranking comes with the next result
    finally:
        r.close()


class RedisTournaments:
    """The tournaments in Redis."""

    def __init__(self, link: RedisLink) -> None:
        self.r, self._k = link.r, link.k
        self.url, self.prefix = link.url, link.prefix
        self._create = self.r.register_script(_CREATE)
        self._set_bots = self.r.register_script(_SET_BOTS)
        self._add_entry = self.r.register_script(_ADD_ENTRY)
        self._add_result = self.r.register_script(_ADD_RESULT)
        self._lines = self.r.register_script(_LINES)
        self._scan = self.r.register_script(_SCAN)
        self._ranking = self.r.register_script(_RANKING)

    def _t(self, tournament_id: str, *parts: str) -> str:
        return _t(self._k, tournament_id, *parts)

    def _board(self, tournament_id: str, board: int, *parts: str) -> str:
        return self._t(tournament_id, "b", str(board), *parts)

    def _ranking_keys(self, tournament_id: str) -> list[str]:
        return _ranking_keys(self._k, tournament_id)

    # ----------------------------------------------------------------- tournaments
    async def create(self, tournament: dict[str, Any]) -> bool:
        t, kind, game = str(tournament["id"]), str(tournament["kind"]), str(tournament["game"])
        keys = [
            self._t(t),
            self._k("tn", "opens"),
            self._k("tn", "kind", _part(kind)),
            self._k("tn", "game", _part(kind), game),
        ]
        host = tournament.get("host")
        if isinstance(host, str) and host:
            keys.append(self._k("tn", "host", host))
        return bool(await self._create(keys=keys, args=[json.dumps(tournament), t, _real(tournament["opens"])]))

    async def tournament(self, tournament_id: str) -> dict[str, Any] | None:
        raw = await self.r.get(self._t(tournament_id))
        return None if raw is None else dict(json.loads(raw))

    async def tournaments(self, kind: str, game: str | None, since: float, until: float) -> list[dict[str, Any]]:
        key = self._k("tn", "kind", _part(kind)) if game is None else self._k("tn", "game", _part(kind), game)
        ids: list[Any] = await self.r.zrangebyscore(key, _real(since), "(" + _real(until))
        if not ids:
            return []
        found = await self.r.mget([self._t(str(t)) for t in ids])
        return [json.loads(raw) for raw in found if raw is not None]

    async def set_bots(self, tournament_id: str, board: int, results: list[dict[str, Any]]) -> None:
        keys = [self._k("tn", "opens"), self._t(tournament_id, "bots")]
        if await self._set_bots(keys=keys, args=[tournament_id, board, json.dumps(results)]) == -1:
            raise KeyError(tournament_id)

    async def bots(self, tournament_id: str, board: int) -> list[dict[str, Any]] | None:
        raw = await self.r.hget(self._t(tournament_id, "bots"), str(board))
        return None if raw is None else list(json.loads(raw))

    # ----------------------------------------------------------------- entries and results
    async def entry(self, tournament_id: str, board: int, entrant: str) -> dict[str, Any] | None:
        raw = await self.r.hget(self._t(tournament_id, "n", entrant), str(board))
        return None if raw is None else dict(json.loads(raw))

    async def add_entry(self, tournament_id: str, board: int, entrant: str, entry: dict[str, Any]) -> dict[str, Any]:
        keys = [self._k("tn", "opens"), self._t(tournament_id, "n", entrant), self._k("tn", "e", entrant)]
        raw = await self._add_entry(keys=keys, args=[tournament_id, board, json.dumps(entry)])
        if raw is None:
            raise KeyError(tournament_id)
        return dict(json.loads(raw))

    async def add_result(self, result: dict[str, Any], line: dict[str, Any]) -> bool:
        t, b, e = str(result["tournament"]), int(result["board"]), str(result["entrant"])
        player = result.get("player")
        keys = [
            self._k("tn", "opens"),
            self._t(t, "r", e),
            self._t(t, "scores"),
            self._board(t, b, "lines"),
            self._board(t, b, "counts"),
            self._board(t, b, "l", str(result["line"])),
        ]
        if player is not None:
            keys.append(self._k("tn", "p", str(player)))
        args: list[str | int] = [
            t,
            b,
            e,
            json.dumps(result),
            json.dumps([b, e, result["name"], player, result["score"]]),
            str(line["line"]),
            json.dumps(line),
            _real(result["at"]),
            json.dumps([t, b, e]),
        ]
        return bool(await self._add_result(keys=keys, args=args))

    async def result(self, tournament_id: str, board: int, entrant: str) -> dict[str, Any] | None:
        raw = await self.r.hget(self._t(tournament_id, "r", entrant), str(board))
        return None if raw is None else dict(json.loads(raw))

    async def entrant_results(self, tournament_id: str, entrant: str) -> dict[int, dict[str, Any]]:
        held = await self.r.hgetall(self._t(tournament_id, "r", entrant))
        return {int(b): json.loads(raw) for b, raw in held.items()}

    async def lines(self, tournament_id: str, board: int) -> list[dict[str, Any]]:
        keys = [self._board(tournament_id, board, "lines"), self._board(tournament_id, board, "counts")]
        keys.append(self._t(tournament_id, "scores"))
        found = await self._lines(keys=keys, args=[board, LINE_NAMES, self._board(tournament_id, board, "l", "")])
        out = [{**line, "n": int(n), "names": [held[2] for held in names]} for line, n, names in json.loads(found)]
        out.sort(key=lambda line: (-float(line["score"]), str(line["line"])))
        return out

    async def distribution(self, tournament_id: str, board: int) -> dict[float, int]:
        async with self.r.pipeline(transaction=True) as read:
            read.hgetall(self._board(tournament_id, board, "lines"))
            read.hgetall(self._board(tournament_id, board, "counts"))
            lines, counts = await read.execute()
        out: dict[float, int] = {}
        for key, data in lines.items():
            score = float(json.loads(data)["score"])
            out[score] = out.get(score, 0) + int(counts.get(key, 0))
        return out

    async def scores(self, tournament_id: str) -> AsyncIterator[tuple[str, str, str | None, int, float]]:
        # HSCAN may give a field twice (when the hash is resized meanwhile): each is yielded once.
        key = self._t(tournament_id, "scores")
        seen: set[tuple[int, str]] = set()
        cursor = "0"
        while True:
            cursor, batch = await self._scan(keys=[key], args=[cursor, BATCH])
            for board, entrant, name, player, score in json.loads(batch):
                if (board, entrant) in seen:
                    continue
                seen.add((board, entrant))
                yield str(entrant), str(name), player, int(board), float(score)
            if cursor == "0":
                return

    async def count(self, tournament_id: str) -> int:
        return int(await self.r.hlen(self._t(tournament_id, "scores")))

    # ----------------------------------------------------------------- rankings
    def close(self) -> None:
        """Nothing of its own: the link is the server's."""

    def ranker(self) -> tuple[Callable[[RankJob], int], bool]:
        if self.url is None:
            raise RuntimeError("a ranking in another process needs Redis's address (RedisLink.connect)")
        return functools.partial(rank_redis, (self.url, self.prefix)), True

    async def ranking(self, tournament_id: str, offset: int, limit: int) -> dict[str, Any] | None:
        start, stop = max(offset, 0), offset + limit - 1
        found: Any = await self._ranking(keys=self._ranking_keys(tournament_id), args=[start, stop])
        if found is None:
            return None
        results, at, total, rows = found
        return {
            "results": int(results),
            "at": float(at),
            "total": int(total),
            "rows": [json.loads(raw) for raw in rows if raw],
        }

    async def rank_of(self, tournament_id: str, entrant: str) -> dict[str, Any] | None:
        raw = await self.r.hget(self._t(tournament_id, "rows"), entrant)
        return None if raw is None else dict(json.loads(raw))

    # ----------------------------------------------------------------- players
    async def player_results(self, player: str, since: float, until: float) -> list[dict[str, Any]]:
        held: list[Any] = await self.r.zrangebyscore(self._k("tn", "p", player), _real(since), "(" + _real(until))
        if not held:
            return []
        async with self.r.pipeline(transaction=False) as read:
            for t, b, e in map(json.loads, held):
                read.hget(self._t(t, "r", e), str(b))
            found = await read.execute()
        out = [json.loads(raw) for raw in found if raw is not None]
        out.sort(key=lambda r: (float(r["at"]), str(r["tournament"]), int(r["board"])))
        return out

    async def forget_player(self, player: str, name: str) -> None:
        own, entered, hosted = (self._k("tn", part, player) for part in ("p", "e", "host"))
        gone = f"gone:{secrets.token_hex(8)}"  # one entrant still, named by nothing of theirs
        pipeline: Any = self.r.pipeline(transaction=True)
        async with pipeline as pipe:
            while True:
                try:
                    # Whatever would name the player anew changes one of these keys: read under WATCH.
                    await pipe.watch(own, entered, hosted)
                    async with self.r.pipeline(transaction=False) as read:
                        read.zrange(own, 0, -1)
                        read.smembers(entered)
                        read.smembers(hosted)
                        held, tables, hosts = await read.execute()
                    places = [(str(t), int(b), str(e)) for t, b, e in map(json.loads, held)]
                    ranked = sorted({(t, e) for t, _, e in places})
                    hosts = sorted(str(t) for t in hosts)
                    watched = [self._t(t, "r", e) for t, e in ranked]
                    watched += [key for t in sorted({t for t, _ in ranked}) for key in self._ranking_keys(t)]
                    watched += [self._t(t) for t in hosts]
                    if watched:
                        await pipe.watch(*watched)
                    async with self.r.pipeline(transaction=False) as read:
                        for t, b, e in places:
                            read.hget(self._t(t, "r", e), str(b))
                        for t, e in ranked:
                            read.hget(self._t(t, "rows"), e)
                        for t in hosts:
                            read.get(self._t(t))
                        found = await read.execute()
                    results, rows, tournaments = (
                        found[: len(places)],
                        found[len(places) : len(places) + len(ranked)],
                        found[len(places) + len(ranked) :],
                    )

                    pipe.multi()
                    for (t, b, e), raw in zip(places, results, strict=True):
                        if raw is None:
                            continue
                        result = json.loads(raw)
                        kept = {**result, "name": name, "player": None, "entrant": gone}
                        pipe.hdel(self._t(t, "r", e), str(b))
                        pipe.hset(self._t(t, "r", gone), str(b), json.dumps(kept))
                        pipe.hdel(self._t(t, "scores"), f"{b}:{e}")
                        pipe.hset(
                            self._t(t, "scores"), f"{b}:{gone}", json.dumps([b, gone, name, None, result["score"]])
                        )
                        people = self._board(t, b, "l", str(result["line"]))
                        pipe.zrem(people, e)
                        pipe.zadd(people, {gone: float(result["at"])})
                    for (t, e), raw in zip(ranked, rows, strict=True):
                        if raw is None:
                            continue
                        row = json.loads(raw)
                        pipe.zrem(self._t(t, "ranks"), e)
                        pipe.zadd(self._t(t, "ranks"), {gone: int(row["rank"])})
                        pipe.hdel(self._t(t, "rows"), e)
                        pipe.hset(
                            self._t(t, "rows"),
                            gone,
                            json.dumps({**row, "entrant": gone, "name": name, "player": None}),
                        )
                    for t in tables:
                        pipe.delete(self._t(str(t), "n", player))
                    for t, raw in zip(hosts, tournaments, strict=True):
                        if raw is not None and json.loads(raw).get("host") == player:
                            pipe.set(self._t(t), json.dumps({**json.loads(raw), "host": None}))
                    pipe.delete(own, entered, hosted)
                    pipe.incr(self._k("tn", "forgotten"))  # a ranking made from results read before goes
                    await pipe.execute()
                    return
                except WatchError:
                    continue
