"""The tables this process holds: created, found by id, driven under lease, forgotten, expired.

A table (``belote.server.tables.Table``) is loaded from the hub when somebody first asks for it (a
join, an invitation, a seat), never all at start: a server holding 100,000 stored tables starts at
once, and no table's bots think before its people come. A solo table's bots play only while its
person has a socket open (in any process): they only ever wait for that person, so without them
they would think for nobody. Tables nobody uses are forgotten from memory after a while, and from
the store after ``ServerConfig.expire_after`` (``expire_solo_after`` for solo tables) by a periodic
sweep: docs/operations.md.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from belote.game import SEATS
from belote.server import tasks
from belote.server.hub import OUTAGE, Hub, Note
from belote.server.limits import LocalRates, Rates
from belote.server.metrics import Metrics
from belote.server.players import Players
from belote.server.room import (
    DEFAULT_SETTINGS,
    TABLE_ID,
    Event,
    Meta,
    Seat,
    Seated,
    Sit,
    check_settings,
    fill_with_bots,
    online_seats,
    parse_seat,
    person_seat,
    rules_of,
)
from belote.server.store import SheetStore, StoreFull
from belote.server.tables import ServerConfig, Table
from belote.server.tournaments import Tournaments
from belote.server.wire import new_token, same_secret
from belote.variants import DEFAULT_GAME

log = logging.getLogger("belote.tables")


def _about(meta: Meta) -> dict[str, Any]:
    """What an invitation opens on: the game, its seats, the free ones, who sits where (names only)."""
    seats = [SEATS[s] for s in range(meta.players)]
    taken = {SEATS[s]: seat.name for s, seat in meta.seats.items() if seat.bot is None}
    return {
        "variant": meta.settings["variant"],
        "status": meta.status,
        "seats": seats,
        "free": [s for s in seats if s not in taken] if meta.status == "lobby" else [],
        "people": taken,
    }


def _seated(events: list[Event]) -> int:
    """The seat a ``Sit`` gave."""
    return next(e.seat for e in events if isinstance(e, Seated))


class TableManager:
    """The tables this process holds: created, loaded from the hub on demand, found by id, driven
    under lease, forgotten when nobody uses them, and expired from the hub by a periodic sweep."""

    def __init__(
        self,
        hub: Hub,
        config: ServerConfig | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
        rates: Rates | None = None,
        sheets: SheetStore | None = None,
    ) -> None:
        self.hub = hub
        self.sheets = sheets  # the score sheets the sweep expires (None: none here)
        self.config = config or ServerConfig()
        self.metrics = metrics or Metrics()
        self.clock = clock  # unix seconds: tests set their own, and give the store the same
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._lease_task: asyncio.Task[None] | None = None
        self._sweep_task: asyncio.Task[None] | None = None
        self.rates = rates or LocalRates()  # the chat's limits, shared by the tables
        self.players: Players | None = None  # the identities whose finished matches are kept (None: none)
        self.tournaments: Tournaments | None = None  # where a board's result goes (None: none)
        hub.bus.listen(self._on_note)

    def defaults(self) -> dict[str, Any]:
        return {**DEFAULT_SETTINGS, "turn_timer": self.config.turn_timer}

    def _table(self, table_id: str, meta: Meta) -> Table:
        table = Table(table_id, meta, self.hub, self.config, self.rates, self.metrics, self.clock)
        if self.players is not None or self.tournaments is not None:
            table.finished = self._finished
        return table

    async def _finished(self, table: Table) -> None:
        """A match ended at ``table``: its people's results, ratings and statistics (``Players.finish``),
        or a tournament board's result (``Tournaments.finish``). A failure is logged and costs the
        table nothing."""
        if table.match is None:
            return
        try:
            if table.meta.board is not None:
                if self.tournaments is not None:
                    await self.tournaments.finish(table)
            elif self.players is not None:
                await self.players.finish(table.id, table.meta, table.match)
        except Exception:
            log.exception("the results of a finished match could not be kept", extra={"table": table.id})

    async def _create(self, meta: Meta) -> Table:
        table_id = new_token()
        table = self._table(table_id, meta)
        meta.version = 1
        await self.hub.store.commit(table_id, meta.to_json(), True, 0, [], False)
        if table.listed:  # a private lobby open to all
            await self.hub.store.list_open(table_id, True)
        self.tables[table_id] = table
        log.info("%s table opened", meta.kind, extra={"table": table_id})
        if await self.hub.leases.hold(table_id):
            table.start()
        return table

    async def create_solo(
        self, settings: dict[str, Any], name: str = "You", player: str | None = None
    ) -> tuple[Table, str, int]:
        """A table of one person (South; North at two hands) and bots; the seat token and the seat.
        ``player``: the person's identity, when they gave one."""
        token = new_token()
        seat = person_seat(rules_of(settings).players)
        seats = {seat: Seat(token, name, player=player)}
        seed = secrets.randbelow(2**31)
        fill_with_bots(seats, rules_of(settings).players, settings["strength"], seed)
        table = await self._create(Meta("solo", seed, settings, seats))
        return table, token, seat

    async def create_board(
        self, settings: dict[str, Any], seed: int, name: str, player: str | None, board: dict[str, Any]
    ) -> tuple[Table, str, int]:
        """A tournament's board (``tournaments.py``): a table of one person and the tournament's bots,
        of the board's ``seed`` (deck, dealer, bots); its match is that one deal."""
        token = new_token()
        seat = person_seat(rules_of(settings).players)
        seats = {seat: Seat(token, name, player=player)}
        fill_with_bots(seats, rules_of(settings).players, settings["strength"], seed)
        table = await self._create(Meta("tournament", seed, settings, seats, board=board))
        return table, token, seat

    async def drop(self, table_id: str) -> None:
        """Forget a table nobody will use (a board's second table, made by a request that lost the
        race for the entry): it expires from the store as any unused table."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            await table.stop()

    async def create_private(
        self, name: str, seat: int, settings: dict[str, Any], player: str | None = None
    ) -> tuple[Table, str]:
        token = new_token()
        meta = Meta(
            "private",
            secrets.randbelow(2**31),
            settings,
            {seat: Seat(token, name, player=player)},
            status="lobby",
            host=seat,
            invite=new_token(),
        )
        return await self._create(meta), token

    async def create_online(
        self,
        names: list[str],
        variant: str = DEFAULT_GAME,
        seatings: list[str] | None = None,
        players: list[str | None] | None = None,
    ) -> tuple[Table, list[tuple[str, int]]]:
        """A table of ``variant`` for the players the queue matched (at most its seats, in queue
        order, each with their ``seating``, ``partners`` by default: ``online_seats``), bots in the
        others; each person's seat token and seat. Its match has the server's ``queue_deals``."""
        short = {} if self.config.queue_deals is None else {"deals": self.config.queue_deals}
        settings = check_settings({"variant": variant, **short}, self.defaults())
        rules = rules_of(settings)
        seed = secrets.randbelow(2**31)
        places = online_seats(seatings or ["partners"] * len(names), rules.players, rules.game.partners, seed)
        given = [(new_token(), s) for s in places]
        who = players or [None] * len(names)
        seats = {
            s: Seat(token, name, player=player) for (token, s), name, player in zip(given, names, who, strict=True)
        }
        fill_with_bots(seats, rules.players, settings["strength"], seed)
        # Its bots wait for its people, and it is abandoned if none comes (``Meta.arrived``).
        table = await self._create(Meta("online", seed, settings, seats, arrived=False))
        return table, given

    async def invitation(self, table_id: str, invite: Any) -> dict[str, Any] | None:
        """What an invitation opens on, before sitting: the game, its seats, the free ones, who sits
        where (names only); None for a wrong table or code."""
        table = await self.get(table_id)
        if table is None or table.meta.invite is None or not same_secret(table.meta.invite, invite):
            return None
        return _about(table.meta)

    async def open_tables(self) -> list[dict[str, Any]]:
        """The private lobbies open to all (``settings.open``), the latest first: each one's id and
        invitation (open: anybody may sit), game, rated or not, host, people and free seats."""
        found = []
        for table_id in await self.hub.store.open_ids():
            table = await self.get(table_id)
            if table is None or not table.listed or table.meta.invite is None:
                continue
            about = _about(table.meta)
            if not about["free"]:
                continue
            host = table.meta.seats.get(table.meta.host) if table.meta.host is not None else None
            found.append(
                {
                    "table": table_id,
                    "invite": table.meta.invite,
                    "rated": bool(table.meta.settings.get("rated")),
                    "host": None if host is None else host.name,
                    **about,
                }
            )
        return found

    async def sit(
        self, table_id: str, invite: Any, name: str, seat: Any, player: str | None = None
    ) -> tuple[Table, str, int] | None:
        """A person takes a seat (a letter, or None for any) through a private table's invitation; None
        for a wrong table or code. The seat is read once the invitation is known to be right."""
        table = await self.get(table_id)
        if table is None or table.meta.invite is None or not same_secret(table.meta.invite, invite):
            return None
        token = new_token()
        asked = None if seat is None else parse_seat(seat, table.meta.players)
        return table, token, _seated(await table.mutate(Sit(token, name, asked, player)))

    async def get(self, table_id: str) -> Table | None:
        """A table by id: held here, or loaded from the hub (once, however many ask at the same time)."""
        if not isinstance(table_id, str) or TABLE_ID.fullmatch(table_id) is None:
            return None
        table = self.tables.get(table_id)
        if table is not None:
            table.used = self.clock()
            return table
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id)
            future.set_result(table)
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # those who wait get it; without them, asyncio would log it as lost
            raise
        finally:
            del self._loading[table_id]
        return table

    async def _load(self, table_id: str) -> Table | None:
        stored = await self.hub.store.load(table_id)
        if stored is None:
            return None
        data, actions = stored
        try:
            meta = Meta.from_json(data, self.defaults())
            table = self._table(table_id, meta)
            if table.match is not None:
                table.replica.replay(actions)
                if meta.continued < 0:  # stored before the table kept it: the last deal's score was read
                    meta.continued = len(table.match.deals) - (2 if table.room.deal_just_ended() else 1)
            table.driver.note_position()
        except (KeyError, ValueError, TypeError) as e:
            log.error("the table could not be restored: %s", e, extra={"table": table_id})
            return None
        self.tables[table_id] = table
        if table.active and await self.hub.leases.hold(table_id):
            if self.hub.shared:
                await table.take_over()
            else:  # a restart: who does not come back within the grace is gone
                table.driver.expect_presence()
                table.start()
        elif self.hub.shared:  # who has a socket in the other processes: a seat's last one closing here is then known
            await self.hub.bus.publish(table_id, {"kind": "who", "from": self.hub.process})
        return table

    async def _on_note(self, table_id: str, note: Note) -> None:
        if note.get("kind") == "store_lost":  # from the hub itself: Redis restarted empty
            for held in list(self.tables.values()):
                try:
                    if await held.restore():
                        await held.broadcast()
                        held.wake()
                except Exception:  # its next change finds the log short and writes it back then
                    log.exception("table %s could not be written back now", held.id[:6])
            return
        if note.get("kind") == "resync":  # from the hub: notes may have been lost while Redis was away
            for held in list(self.tables.values()):
                if await held.sync():
                    await held.broadcast()
                    held.wake()
                # Who is where travels only in notes, and the store does not hold it: say again which
                # seats have a socket here, and ask again from the driver (after a lease taken over
                # meanwhile, a solo table's bots would wait for a person they never heard of).
                if held.here_seats():
                    await held.presence()
                if held.driving:
                    await self.hub.bus.publish(held.id, {"kind": "who", "from": self.hub.process})
            return
        table = self.tables.get(table_id)
        if table is None:
            return
        kind, sender = note.get("kind"), note.get("from")
        if kind == "chat":
            await table.send_chat(note["line"])
        elif kind == "changed" and sender != self.hub.process and await table.sync():
            table.used = self.clock()  # played in another process: still in use here
            await table.broadcast()
            table.wake()
            await table.claim()  # said gone by a process that had not heard of a socket here
        elif kind == "presence" and isinstance(sender, str) and sender != self.hub.process:
            table.driver.heard_presence(sender, [s for s in note.get("seats", []) if isinstance(s, int)])
        elif kind == "who" and sender != self.hub.process and table.here_seats():
            await table.presence()

    def run_leases(self, every: float = 1.0) -> None:
        """In a shared hub: keep the leases of the tables this process holds, take over those whose
        driver died. In both hubs: forget the tables nobody uses (they load again on demand), and
        sweep the expired tables out of the hub every ``config.sweep_every`` seconds."""
        if self._lease_task is None:
            every = every if self.hub.shared else 30.0
            self._lease_task = asyncio.get_running_loop().create_task(self._leases(every), name="leases")
        if self._sweep_task is None:
            self._sweep_task = asyncio.get_running_loop().create_task(self._sweeps(), name="expiry")

    async def _leases(self, every: float) -> None:
        while True:
            try:
                await self.hold_leases()
                await self.catch_up()
                await self.forget_idle()
            except OUTAGE as e:
                log.warning("lease round: Redis is out of reach (%s)", e)
            except Exception:
                log.exception("lease round failed")
            await asyncio.sleep(every)

    async def hold_leases(self) -> None:
        """Renew the leases of the tables held here; drive those whose driver (in another process) died.

        Only the tables held here: a table somebody uses is held by the process of their socket, and one
        nobody uses needs no driver (a solo table's bots wait for their person; the others load again
        when their people come back).
        """
        if not self.hub.shared:
            return
        for table_id, table in list(self.tables.items()):
            if not table.active:
                continue
            held = await self.hub.leases.hold(table_id)
            if held and not table.driving:
                if await table.sync():  # what it missed (a note lost while Redis was away): told here or never
                    await table.broadcast()
                table.driver.note_position()
                await table.take_over()
            elif not held and table.driving:
                await table.stop()

    async def catch_up(self) -> None:
        """A note lost on the way (Redis restarted, the network) leaves a replica behind, its people
        waiting and its bots idle: each round catches up the tables watched or driven here."""
        if not self.hub.shared:
            return
        for table in list(self.tables.values()):
            if (table.clients or table.driving) and await table.sync():
                await table.broadcast()
                table.wake()
                await table.claim()

    async def forget_idle(self) -> list[str]:
        """Forget the tables nobody watches, nobody asked for in ``config.forget_after`` seconds, and
        whose driver waits for people (they load again on demand); the ids forgotten."""
        now = self.clock()
        gone = []
        for table_id, table in list(self.tables.items()):
            if table.clients or now - table.used < self.config.forget_after:
                continue
            if table.driving and table.next_job() is not None:
                continue  # bots or a timer still move it
            await table.stop()
            still_idle = not table.clients and now - table.used >= self.config.forget_after
            if self.tables.get(table_id) is table and still_idle:
                del self.tables[table_id]
                table.release()
                gone.append(table_id)
        return gone

    async def _sweeps(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_every)
            try:
                await self.sweep()
            except StoreFull:  # the store said so once: the next sweep tries again
                pass
            except Exception:
                log.exception("the expiry sweep failed")
                self.metrics.errors.inc(where="sweep")

    async def sweep(self) -> dict[str, list[str]]:
        """Remove from the hub (and from memory) the tables nobody used for longer than their kind may
        stay (``config.expiry()``): finished, or abandoned (no socket open, no action). The tables with
        a socket open here are marked used first. Then the score sheets nobody changed for
        ``config.expire_sheets_after`` seconds. Returns the ids of the tables removed, by kind."""
        now = self.clock()
        await self.sweep_sheets(now)
        await self.hub.store.touch([i for i, t in self.tables.items() if t.clients])
        gone = await self.hub.store.expire({kind: now - seconds for kind, seconds in self.config.expiry().items()})
        for kind, ids in gone.items():
            self.metrics.expired.inc(len(ids), kind=kind)
            for table_id in ids:
                table = self.tables.get(table_id)
                if table is not None and not table.clients:
                    await table.stop()
                    self.tables.pop(table_id, None)
                    table.release()
        if gone:
            log.info("expired %s", ", ".join(f"{len(ids)} {kind}" for kind, ids in sorted(gone.items())))
        return gone

    async def sweep_sheets(self, now: float) -> int:
        """Remove the score sheets last changed over ``config.expire_sheets_after`` seconds before
        ``now`` (in Redis their keys expire by themselves: nothing to do); how many."""
        if self.sheets is None or self.config.expire_sheets_after <= 0:
            return 0
        removed = await self.sheets.expire(now - self.config.expire_sheets_after)
        if removed:
            self.metrics.expired_sheets.inc(removed)
            log.info("expired %d score sheets", removed)
        return removed

    async def close(self) -> None:
        for task in (self._lease_task, self._sweep_task):
            await tasks.stop(task)
        for table in self.tables.values():
            await table.stop()
