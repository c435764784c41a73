"""The players in Redis (``PlayerStore``), for every process of a server alike: the same answers as
``player_store.SQLitePlayers`` (tests/test_player_store.py holds both to them).

Keys (under the link's prefix, ``belote:`` by default; ``{id}`` a player's id, which holds no ``:``):

- ``p:{id}`` the player (a hash: ``name``, ``folded``, ``tag``, ``created``, ``password`` when one is
  set, ``transfer``: the digest of its transfer code when it has one);
- ``h:{folded}`` the tags of a name as it reads (a hash: tag -> id), whence a tag is drawn unique;
- ``secret:{digest}`` the player of a secret's digest, ``p:{id}:secrets`` the player's digests;
- ``transfer:{digest}`` a transfer code (a hash: ``player``, ``expires``), ``transfers`` every code by
  when it expires (a sorted set), so that taking a code sweeps the expired ones as SQL does;
- ``p:{id}:ratings`` the player's rating in each game (a hash: game -> JSON), ``p:{id}:history:{game}``
  the ratings after each rated match (a sorted set by time of ``[rating, match id]``, the last
  ``HISTORY`` kept);
- ``match:{match id}`` a finished match (JSON), ``records:{match id}`` its deals' records (JSON lines,
  for its review), ``seated:{match id}`` the players who keep it (a set:
  when the last of them is deleted, the match goes), ``p:{id}:matches`` the player's matches (a sorted
  set of match ids by time);
- ``p:{id}:stats`` the games the player has statistics in (a set), ``p:{id}:stats:{game}`` the counters
  (a hash), ``p:{id}:analysed`` the deals whose analysis was added to them (a set of their keys);
- ``board:{game}`` the all-time leaderboard: players by rating (a sorted set; ties are read back by
  id, ascending, as SQL orders them);
- ``week:{game}:{monday}`` the rating each player won in a game in the week that begins at ``monday``
  (Monday 00:00 UTC, unix seconds: a sorted set, ``ZINCRBY`` by each rated match), ``weekn:{game}:
  {monday}`` how many rated matches they played in it (a hash), ``weeks:{game}`` the weeks that have
  one (a sorted set by their Monday), ``p:{id}:weeks`` the player's (``{monday}:{game}``);
- ``p:{id}:friends`` those the player added and ``p:{id}:fans`` those who added the player (sets),
  ``p:{id}:blocks`` those the player blocked and ``p:{id}:blockers`` those who blocked the player.

The weekly board sums the weeks: ``leaderboard(game, since, n)`` reads the weeks whose Monday is at or
after ``since``. That is exactly SQL's answer (the rated matches at or after ``since``) when ``since`` is
a Monday 00:00 UTC, which is what the route asks (``player_routes.week_start``); a ``since`` in the
middle of a week leaves that week out.

Every change that names a player is one Lua script that checks the player is there (a deleted player
is never written back), or one transaction: ``finish_match`` stores its match with ``SET NX`` first, so
that two processes finishing one match write it once; ``take_transfer`` reads and deletes a code in
one script; ``delete_player`` reads everything of the player under ``WATCH`` and removes it in one
``MULTI``, done again when anything it read changed meanwhile. The scripts make the keys they find
in stored values (a player's transfer code) from the prefix: one Redis, not a cluster.
"""

from __future__ import annotations

import json
from typing import Any

from redis.exceptions import WatchError

from belote.server.player_store import HISTORY, free_tag, neutral, week_of
from belote.server.redis_hub import RedisLink

# KEYS: the player, the tags of its folded name, the secret, the player's secrets; ARGV: id, tag, name,
# folded, created, digest. 0: the tag is taken (another is drawn); -1: the id is; -2: the secret is.
_ADD_PLAYER = """
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
if redis.call('EXISTS', KEYS[3]) == 1 then return -2 end
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[3], 'folded', ARGV[4], 'tag', ARGV[2], 'created', ARGV[5])
redis.call('SET', KEYS[3], ARGV[1])
redis.call('SADD', KEYS[4], ARGV[6])
return 1
"""

# KEYS: the player, the tags of its old folded name, those of the new; ARGV: id, old folded, old tag,
# name, folded, tag. 0: the player or the new name's tags changed meanwhile (read again); -1: no player.
_RENAME = """
local had = redis.call('HMGET', KEYS[1], 'folded', 'tag')
if not had[1] then return -1 end
if had[1] ~= ARGV[2] or had[2] ~= ARGV[3] then return 0 end
if ARGV[2] ~= ARGV[5] then
  if redis.call('HSETNX', KEYS[3], ARGV[6], ARGV[1]) == 0 then return 0 end
  if redis.call('HGET', KEYS[2], ARGV[3]) == ARGV[1] then redis.call('HDEL', KEYS[2], ARGV[3]) end
end
redis.call('HSET', KEYS[1], 'name', ARGV[4], 'folded', ARGV[5], 'tag', ARGV[6])
return 1
"""

# KEYS: the player; ARGV: '1' and the hash to set it, '0' to remove it.
_SET_PASSWORD = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == '1' then
  redis.call('HSET', KEYS[1], 'password', ARGV[2])
else
  redis.call('HDEL', KEYS[1], 'password')
end
return 1
"""

# KEYS: the player, the secret, the player's secrets; ARGV: id, digest. -1: no player; -2: the secret is taken.
_ADD_SECRET = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if not redis.call('SET', KEYS[2], ARGV[1], 'NX') then return -2 end
redis.call('SADD', KEYS[3], ARGV[2])
return 1
"""

# KEYS: the player, the code, every code; ARGV: id, digest, expires, the prefix of a code's key.
# The player's code before is removed (one at a time). -1: no player; -2: another player's code.
_ADD_TRANSFER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local old = redis.call('HGET', KEYS[1], 'transfer')
if old ~= ARGV[2] and redis.call('EXISTS', KEYS[2]) == 1 then return -2 end
if old then
  redis.call('DEL', ARGV[4] .. old)
  redis.call('ZREM', KEYS[3], old)
end
redis.call('HSET', KEYS[2], 'player', ARGV[1], 'expires', ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[1], 'transfer', ARGV[2])
return 1
"""

# KEYS: every code; ARGV: digest, now, the prefix of a code's key, that of a player's. The code is used
# up, and every code expired before now goes with it; its player and when it expires, or nil.
_TAKE_TRANSFER = """
local function drop(digest)
  local key = ARGV[3] .. digest
  local player = redis.call('HGET', key, 'player')
  redis.call('DEL', key)
  redis.call('ZREM', KEYS[1], digest)
  if player and redis.call('HGET', ARGV[4] .. player, 'transfer') == digest then
    redis.call('HDEL', ARGV[4] .. player, 'transfer')
  end
end
local row = redis.call('HMGET', ARGV[3] .. ARGV[1], 'player', 'expires')
drop(ARGV[1])
for _, digest in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2])) do
  drop(digest)
end
if not row[1] then return false end
return {row[1], row[2]}
"""

# KEYS: the match, its players, the game's board, the week's gains, the week's counts, the game's weeks;
# then for each person: player, matches, ratings, history, stats' games, stats of the game, weeks.
# ARGV: match JSON, match id, at, game, week, history kept, persons; then for each person: id, rating
# won ('' for none), rating JSON ('' for none), rating, history entry, counters (-1: no statistics)
# and as many name, value pairs. 0: the match is already kept, and nothing is written.
_FINISH = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
if ARGV[#ARGV] ~= '' then redis.call('SET', KEYS[#KEYS], ARGV[#ARGV]) end
local id, at, game, week, keep = ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6])
local a = 8
for i = 0, tonumber(ARGV[7]) - 1 do
  local k = 6 + 7 * i
  local p, gained, rating, score, entry = ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
  local n = tonumber(ARGV[a + 5])
  a = a + 6
  if redis.call('EXISTS', KEYS[k + 1]) == 1 then
    redis.call('SADD', KEYS[2], p)
    redis.call('ZADD', KEYS[k + 2], at, id)
    if gained ~= '' then
      redis.call('ZINCRBY', KEYS[4], gained, p)
      redis.call('HINCRBY', KEYS[5], p, 1)
      redis.call('ZADD', KEYS[6], week, week)
      redis.call('SADD', KEYS[k + 7], week .. ':' .. game)
    end
    if rating ~= '' then
      redis.call('HSET', KEYS[k + 3], game, rating)
      redis.call('ZADD', KEYS[3], score, p)
      redis.call('ZADD', KEYS[k + 4], at, entry)
      redis.call('ZREMRANGEBYRANK', KEYS[k + 4], 0, -keep - 1)
    end
    if n >= 0 then
      redis.call('SADD', KEYS[k + 5], game)
      for j = 0, n - 1 do
        redis.call('HINCRBY', KEYS[k + 6], ARGV[a + 2 * j], ARGV[a + 2 * j + 1])
      end
    end
  end
  if n > 0 then a = a + 2 * n end
end
return 1
"""

# KEYS: the player, its stats' games, its stats of the game; ARGV: game, then name, value pairs.
_ADD_STATS = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
for i = 2, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[3], ARGV[i], ARGV[i + 1])
end
return 1
"""

# KEYS: the player, the player's analysed deals, the player's games, the counters of the game; ARGV: the
# deal's key, the game, then counter names and values. 0: the player is gone or the deal was added before.
_ADD_ANALYSIS = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('SADD', KEYS[3], ARGV[2])
for i = 3, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[4], ARGV[i], ARGV[i + 1])
end
return 1
"""

# KEYS: the player, the other, the player's friends, the other's fans; ARGV: id, other. -1: either is missing.
_ADD_FRIEND = """
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[1])
return 1
"""

# KEYS: the player, the other, the player's blocks, the other's blockers, the player's friends and fans,
# the other's friends and fans; ARGV: id, other. -1: either is missing. Their friendship goes both ways.
_BLOCK = """
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[1])
redis.call('SREM', KEYS[5], ARGV[2])
redis.call('SREM', KEYS[6], ARGV[2])
redis.call('SREM', KEYS[7], ARGV[1])
redis.call('SREM', KEYS[8], ARGV[1])
return 1
"""

#: The keys of a player named ``p:{id}:{name}`` (besides those by game: history and statistics).
_OWN = ("secrets", "ratings", "matches", "stats", "weeks", "friends", "fans", "blocks", "blockers")


# KEYS: a board (a sorted set). ARGV: how many (-1: all), the game, the prefix of a player's key, the
# week's counts (a hash's key; '' on the all-time board). The best by score down to the last one's
# score (every tie of it: their order is read by the caller), those gone meanwhile left out and more
# read in their place, each as {id, score, name, tag, rating JSON, count or nil}: one call a board,
# where a pipeline of a few commands per row spent 100-160 ms at p99 in redis-py's packing.
_BOARD = """
local limit, game, p, counts = tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
local size = redis.call('ZCARD', KEYS[1])
local window = limit
while true do
  local complete = window < 0 or window >= size
  local entries
  if complete then
    entries = redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  else
    local top = redis.call('ZREVRANGE', KEYS[1], 0, window - 1, 'WITHSCORES')
    local low = top[#top]
    entries = {}
    for i = 1, #top, 2 do
      if tonumber(top[i + 1]) > tonumber(low) then
        entries[#entries + 1] = top[i]
        entries[#entries + 1] = top[i + 1]
      end
    end
    for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], low, low)) do
      entries[#entries + 1] = member
      entries[#entries + 1] = low
    end
  end
  local rows = {}
  for i = 1, #entries, 2 do
    local id = entries[i]
    local held = redis.call('HMGET', p .. id, 'name', 'tag')
    local rating = redis.call('HGET', p .. id .. ':ratings', game)
    if held[1] and held[2] and rating then
      local n = false
      if counts ~= '' then n = redis.call('HGET', counts, id) end
      rows[#rows + 1] = {id, entries[i + 1], held[1], held[2], rating, n}
    end
  end
  if complete or #rows >= limit then return rows end
  window = window * 2
end
"""


def _real(value: Any) -> float:
    """A number as a column of REAL affinity keeps it."""
    return float(value)


def _integer(value: Any) -> Any:
    """A number as a column of INTEGER affinity keeps it: a float without a fraction becomes an int."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _number(score: float) -> int | float:
    return int(score) if score.is_integer() else score


def _limit(limit: int) -> int:
    """The last index of a range of ``limit`` (SQL's ``LIMIT``: a negative one is none)."""
    return -1 if limit < 0 else limit - 1


class RedisPlayers:
    """The players in Redis."""

    def __init__(self, link: RedisLink) -> None:
        self.r, self._k = link.r, link.k
        self._add_player = self.r.register_script(_ADD_PLAYER)
        self._rename = self.r.register_script(_RENAME)
        self._set_password = self.r.register_script(_SET_PASSWORD)
        self._add_secret = self.r.register_script(_ADD_SECRET)
        self._add_transfer = self.r.register_script(_ADD_TRANSFER)
        self._take_transfer = self.r.register_script(_TAKE_TRANSFER)
        self._finish = self.r.register_script(_FINISH)
        self._add_stats = self.r.register_script(_ADD_STATS)
        self._add_analysis = self.r.register_script(_ADD_ANALYSIS)
        self._add_friend = self.r.register_script(_ADD_FRIEND)
        self._block = self.r.register_script(_BLOCK)
        self._board = self.r.register_script(_BOARD)

    def _p(self, player_id: str, *parts: str) -> str:
        return self._k("p", player_id, *parts)

    # ----------------------------------------------------------------- identity
    async def add_player(self, player_id: str, name: str, folded: str, secret: str, now: float) -> int:
        tags = self._k("h", folded)
        keys = [self._p(player_id), tags, self._k("secret", secret), self._p(player_id, "secrets")]
        while True:
            tag = free_tag({int(t) for t in await self.r.hkeys(tags)})
            done = await self._add_player(keys=keys, args=[player_id, tag, name, folded, repr(_real(now)), secret])
            if done == -1:
                raise ValueError(f"player {player_id} exists")
            if done == -2:
                raise ValueError("that secret is another player's")
            if done == 1:
                return tag

    async def player(self, player_id: str) -> dict[str, Any] | None:
        row = await self.r.hgetall(self._p(player_id))
        if not row:
            return None
        return {
            "id": player_id,
            "name": row["name"],
            "tag": int(row["tag"]),
            "password": row.get("password"),
            "created": float(row["created"]),
        }

    async def by_secret(self, secret: str) -> dict[str, Any] | None:
        player_id = await self.r.get(self._k("secret", secret))
        return None if player_id is None else await self.player(str(player_id))

    async def by_handle(self, folded: str, tag: int) -> dict[str, Any] | None:
        player_id = await self.r.hget(self._k("h", folded), str(tag))
        return None if player_id is None else await self.player(str(player_id))

    async def rename(self, player_id: str, name: str, folded: str) -> int:
        key = self._p(player_id)
        while True:
            had: list[Any] = await self.r.hmget(key, ["folded", "tag"])
            if had[0] is None or had[1] is None:
                raise KeyError(player_id)
            old_folded, old_tag = str(had[0]), str(had[1])
            tag = int(old_tag)
            if old_folded != folded:
                taken = {int(t) for t in await self.r.hkeys(self._k("h", folded))}
                if tag in taken:
                    tag = free_tag(taken)
            done = await self._rename(
                keys=[key, self._k("h", old_folded), self._k("h", folded)],
                args=[player_id, old_folded, old_tag, name, folded, tag],
            )
            if done == -1:
                raise KeyError(player_id)
            if done == 1:
                return tag

    async def set_password(self, player_id: str, hashed: str | None) -> None:
        args = ["0", ""] if hashed is None else ["1", hashed]
        await self._set_password(keys=[self._p(player_id)], args=args)

    async def add_secret(self, player_id: str, secret: str) -> None:
        keys = [self._p(player_id), self._k("secret", secret), self._p(player_id, "secrets")]
        done = await self._add_secret(keys=keys, args=[player_id, secret])
        if done == -1:
            raise KeyError(player_id)
        if done == -2:
            raise ValueError("that secret is already kept")

    async def add_transfer(self, code: str, player_id: str, expires: float) -> None:
        keys = [self._p(player_id), self._k("transfer", code), self._k("transfers")]
        done = await self._add_transfer(
            keys=keys, args=[player_id, code, repr(_real(expires)), self._k("transfer", "")]
        )
        if done == -1:
            raise KeyError(player_id)
        if done == -2:
            raise ValueError("that transfer code is another player's")

    async def take_transfer(self, code: str, now: float) -> str | None:
        row = await self._take_transfer(
            keys=[self._k("transfers")], args=[code, repr(_real(now)), self._k("transfer", ""), self._k("p", "")]
        )
        if row is None or float(row[1]) < now:
            return None
        return str(row[0])

    async def delete_player(self, player_id: str) -> None:
        key = self._p(player_id)
        own = {name: self._p(player_id, name) for name in _OWN}
        pipeline: Any = self.r.pipeline(transaction=True)
        async with pipeline as pipe:
            while True:
                try:
                    # Whatever would name the player anew changes one of these keys: read under WATCH.
                    await pipe.watch(key, *own.values())
                    async with self.r.pipeline(transaction=False) as read:
                        read.hmget(key, ["folded", "tag", "transfer"])
                        read.smembers(own["secrets"])
                        read.hkeys(own["ratings"])
                        read.zrange(own["matches"], 0, -1)
                        for name in _OWN[3:]:
                            read.smembers(own[name])
                        (folded, tag, transfer), digests, games, matches, *sets = await read.execute()
                    stat_games, weeks, friends, fans, blocks, blockers = sets
                    matches = [str(m) for m in matches]
                    match_keys = [self._k("match", m) for m in matches]
                    seated_keys = [self._k("seated", m) for m in matches]
                    if matches:
                        await pipe.watch(*match_keys, *seated_keys)
                    async with self.r.pipeline(transaction=False) as read:
                        read.hget(self._k("h", folded or ""), tag or "")
                        if matches:
                            read.mget(match_keys)
                        for seated in seated_keys:
                            read.smembers(seated)
                        holder, *kept = await read.execute()
                    data = kept[0] if matches else []
                    holders = kept[1:]

                    pipe.multi()
                    if folded is not None and tag is not None and holder == player_id:
                        pipe.hdel(self._k("h", folded), tag)
                    for digest in digests:
                        pipe.delete(self._k("secret", digest))
                    if transfer is not None:
                        pipe.delete(self._k("transfer", transfer))
                        pipe.zrem(self._k("transfers"), transfer)
                    for game in games:
                        pipe.zrem(self._k("board", game), player_id)
                        pipe.delete(self._p(player_id, "history", game))
                    for game in stat_games:
                        pipe.delete(self._p(player_id, "stats", game))
                    for entry in weeks:
                        week, game = str(entry).split(":", 1)
                        pipe.zrem(self._k("week", game, week), player_id)
                        pipe.hdel(self._k("weekn", game, week), player_id)
                    for others, theirs in (
                        (friends, "fans"),
                        (fans, "friends"),
                        (blocks, "blockers"),
                        (blockers, "blocks"),
                    ):
                        for other in others:
                            pipe.srem(self._p(other, theirs), player_id)
                    for match_id, match_key, seated_key, raw, seated in zip(
                        matches, match_keys, seated_keys, data, holders, strict=True
                    ):
                        if seated - {player_id} and raw is not None:
                            pipe.set(match_key, json.dumps(neutral(json.loads(raw), player_id)))
                            pipe.srem(seated_key, player_id)
                        elif seated - {player_id}:
                            pipe.srem(seated_key, player_id)
                        else:  # nobody else keeps it
                            pipe.delete(match_key, seated_key, self._k("records", match_id))
                    pipe.delete(key, *own.values(), self._p(player_id, "analysed"))
                    await pipe.execute()
                    return
                except WatchError:
                    continue

    # ----------------------------------------------------------------- ratings, matches, statistics
    async def ratings(self, player_id: str) -> dict[str, dict[str, Any]]:
        held = await self.r.hgetall(self._p(player_id, "ratings"))
        return {str(game): json.loads(raw) for game, raw in held.items()}

    async def finish_match(
        self,
        match: dict[str, Any],
        ratings: dict[str, dict[str, Any]],
        stats: dict[str, dict[str, int]],
        at: float,
        records: str = "",
    ) -> bool:
        people = {seat["player"] for side in match["sides"] for seat in side if seat.get("player")}
        game, match_id, week = str(match["game"]), str(match["id"]), week_of(at)
        when = repr(_real(at))
        keys = [
            self._k("match", match_id),
            self._k("seated", match_id),
            self._k("board", game),
            self._k("week", game, str(week)),
            self._k("weekn", game, str(week)),
            self._k("weeks", game),
        ]
        args: list[str | int] = [json.dumps(match), match_id, when, game, week, HISTORY, len(people)]
        changes = match.get("changes", {})
        for p in sorted(people):
            keys += [self._p(p), *(self._p(p, name) for name in ("matches", "ratings")), self._p(p, "history", game)]
            keys += [self._p(p, "stats"), self._p(p, "stats", game), self._p(p, "weeks")]
            change = changes.get(p)
            args += [p, "" if change is None else str(change["after"] - change["before"])]
            if p in ratings:
                r = ratings[p]
                rating = _integer(r["rating"])
                held = {
                    "mu": _real(r["mu"]),
                    "sigma": _real(r["sigma"]),
                    "matches": _integer(r["matches"]),
                    "rating": rating,
                    "updated": _real(at),
                }
                args += [json.dumps(held), str(rating), json.dumps([rating, match_id])]
            else:
                args += ["", "", ""]
            counters = stats.get(p)
            if counters is None:
                args.append(-1)
            else:
                args.append(len(counters))
                for name, value in counters.items():
                    args += [name, int(value)]
        keys.append(self._k("records", match_id))
        args.append(records)
        return bool(await self._finish(keys=keys, args=args))

    async def match(self, match_id: str) -> dict[str, Any] | None:
        raw = await self.r.get(self._k("match", match_id))
        return None if raw is None else dict(json.loads(raw))

    async def match_records(self, match_id: str) -> str | None:
        raw = await self.r.get(self._k("records", match_id))
        return None if raw is None else str(raw)

    async def recent(self, player_id: str, limit: int) -> list[dict[str, Any]]:
        if limit == 0:
            return []
        ids: list[Any] = await self.r.zrevrange(self._p(player_id, "matches"), 0, _limit(limit))
        if not ids:
            return []
        found = await self.r.mget([self._k("match", m) for m in ids])
        return [json.loads(raw) for raw in found if raw is not None]

    async def history(self, player_id: str, game: str) -> list[dict[str, Any]]:
        entries: Any = await self.r.zrange(self._p(player_id, "history", game), -HISTORY, -1, withscores=True)
        return [{"at": float(at), "rating": json.loads(entry)[0]} for entry, at in entries]

    async def stats(self, player_id: str) -> dict[str, dict[str, int]]:
        games = sorted(str(g) for g in await self.r.smembers(self._p(player_id, "stats")))
        if not games:
            return {}
        async with self.r.pipeline(transaction=False) as read:
            for game in games:
                read.hgetall(self._p(player_id, "stats", game))
            found = await read.execute()
        return {game: {str(k): int(v) for k, v in sorted(c.items())} for game, c in zip(games, found, strict=True)}

    async def add_stats(self, player_id: str, game: str, counters: dict[str, int]) -> None:
        keys = [self._p(player_id), self._p(player_id, "stats"), self._p(player_id, "stats", game)]
        args: list[str | int] = [game]
        for name, value in counters.items():
            args += [name, int(value)]
        await self._add_stats(keys=keys, args=args)

    async def add_analysis(self, player_id: str, game: str, deal: str, counters: dict[str, int]) -> bool:
        keys = [
            self._p(player_id),
            self._p(player_id, "analysed"),
            self._p(player_id, "stats"),
            self._p(player_id, "stats", game),
        ]
        args: list[str | int] = [deal, game]
        for name, value in counters.items():
            args += [name, int(value)]
        return bool(await self._add_analysis(keys=keys, args=args))

    # ----------------------------------------------------------------- leaderboards
    async def _rows(self, game: str, found: list[tuple[str, float]], weeks: list[str]) -> list[dict[str, Any]]:
        """The leaderboard's rows of these players and scores, each with its name, tag and rating
        (those without, gone meanwhile, are left out); with ``weeks``, what they won in them."""
        async with self.r.pipeline(transaction=False) as read:
            for player_id, _ in found:
                read.hmget(self._p(player_id), ["name", "tag"])
                read.hget(self._p(player_id, "ratings"), game)
                for week in weeks:
                    read.hget(self._k("weekn", game, week), player_id)
            got = await read.execute()
        rows = []
        step = 2 + len(weeks)
        for i, (player_id, score) in enumerate(found):
            (name, tag), raw, *counts = got[step * i : step * (i + 1)]
            if name is None or tag is None or raw is None:
                continue
            held = json.loads(raw)
            row = {"player": player_id, "name": name, "tag": int(tag), "rating": held["rating"]}
            if weeks:
                row["matches"] = sum(int(n) for n in counts if n is not None)
                row["gained"] = _number(score)
            else:
                row["matches"] = held["matches"]
            rows.append(row)
        return rows

    async def leaderboard(self, game: str, since: float | None, limit: int) -> list[dict[str, Any]]:
        if limit == 0:
            return []
        if since is None:
            key, weeks = self._k("board", game), []
        else:
            weeks = [str(w) for w in await self.r.zrangebyscore(self._k("weeks", game), repr(_real(since)), "+inf")]
            if not weeks:
                return []
            key = self._k("week", game, weeks[0])
        if len(weeks) > 1:
            async with self.r.pipeline(transaction=False) as read:
                for week in weeks:
                    read.zrange(self._k("week", game, week), 0, -1, withscores=True)
                sums: dict[str, float] = {}
                for entries in await read.execute():
                    for member, score in entries:
                        sums[str(member)] = sums.get(str(member), 0.0) + float(score)
            rows = await self._rows(game, list(sums.items()), weeks)
        else:
            counts = self._k("weekn", game, weeks[0]) if weeks else ""
            found: Any = await self._board(keys=[key], args=[limit, game, self._p(""), counts])
            rows = []
            for player_id, score, name, tag, raw, n in found:
                held = json.loads(raw)
                row = {"player": str(player_id), "name": name, "tag": int(tag), "rating": held["rating"]}
                if weeks:
                    row["matches"], row["gained"] = int(n or 0), _number(float(score))
                else:
                    row["matches"] = held["matches"]
                rows.append(row)
        if weeks:
            rows.sort(key=lambda row: (-row["gained"], -row["rating"], row["player"]))
        else:
            rows.sort(key=lambda row: (-row["rating"], row["player"]))
        return rows if limit < 0 else rows[:limit]

    # ----------------------------------------------------------------- friends and blocks
    async def add_friend(self, player_id: str, other: str) -> None:
        keys = [self._p(player_id), self._p(other), self._p(player_id, "friends"), self._p(other, "fans")]
        if await self._add_friend(keys=keys, args=[player_id, other]) == -1:
            raise KeyError(player_id if not await self.r.exists(self._p(player_id)) else other)

    async def remove_friend(self, player_id: str, other: str) -> None:
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.srem(self._p(player_id, "friends"), other)
            pipe.srem(self._p(other, "fans"), player_id)
            pipe.srem(self._p(other, "friends"), player_id)
            pipe.srem(self._p(player_id, "fans"), other)
            await pipe.execute()

    async def friends(self, player_id: str) -> dict[str, list[str]]:
        async with self.r.pipeline(transaction=False) as read:
            read.smembers(self._p(player_id, "friends"))
            read.smembers(self._p(player_id, "fans"))
            added, adding = (set(map(str, s)) for s in await read.execute())
        return {
            "friends": sorted(added & adding),
            "asked": sorted(added - adding),
            "asking": sorted(adding - added),
        }

    async def block(self, player_id: str, other: str) -> None:
        keys = [self._p(player_id), self._p(other), self._p(player_id, "blocks"), self._p(other, "blockers")]
        keys += [self._p(player_id, "friends"), self._p(player_id, "fans"), self._p(other, "friends")]
        keys.append(self._p(other, "fans"))
        if await self._block(keys=keys, args=[player_id, other]) == -1:
            raise KeyError(player_id if not await self.r.exists(self._p(player_id)) else other)

    async def unblock(self, player_id: str, other: str) -> None:
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.srem(self._p(player_id, "blocks"), other)
            pipe.srem(self._p(other, "blockers"), player_id)
            await pipe.execute()

    async def blocked(self, player_id: str) -> list[str]:
        return sorted(str(o) for o in await self.r.smembers(self._p(player_id, "blocks")))
