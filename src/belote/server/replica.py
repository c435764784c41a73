"""A table's replica: its room as this process holds it, kept in step with the store.

The room (``belote.server.room``: the table's meta and its match) changes only here: a message is
reduced under the table's lock, after catching up with what other processes wrote, and the change
is written to the store before anybody hears of it; a change the store refuses is taken back. The
replica knows nothing of sockets, bots or clocks: the table (``belote.server.tables.Table``) tells
the clients, and its driver (``belote.server.driver``) plays the bots and keeps the timers.

``revision`` counts the room's changes (a bot's answer is for one revision); ``epoch`` counts the
times its history began again (a new match, a replay from the store, a change taken back): a bot
and a client's events start again with it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from belote.game import Match, Refusal, action_str, parse_action
from belote.server.hub import Hub, StoreLost
from belote.server.room import Event, Message, Meta, Room, Write, new_match, reduce
from belote.server.store import StoreFull

log = logging.getLogger("belote.tables")


class Stale(Exception):
    """The table moved on while a bot was thinking: its answer is dropped."""


class Replica:
    """The room of table ``table_id``, its store in ``hub``, and the defaults its stored settings are read with."""

    def __init__(self, table_id: str, meta: Meta, hub: Hub, defaults: Callable[[], dict[str, Any]]) -> None:
        self.id = table_id
        self.hub = hub
        self.defaults = defaults
        self.room = Room(
            meta, new_match(meta.settings, meta.seed, meta.board is not None) if meta.status == "playing" else None
        )
        self.revision = 0  # bumped by every change of the room
        self.epoch = 0  # bumped when the room's history begins again

    def replay(self, actions: list[str], meta: Meta | None = None) -> None:
        """The room of ``meta`` (its own by default) with the match replayed from ``actions``."""
        meta = meta or self.room.meta
        match = new_match(meta.settings, meta.seed, meta.board is not None)
        for a in actions:
            match.apply(parse_action(a))
        self.room = Room(meta, match)
        self.epoch += 1
        self.revision += 1

    async def sync(self) -> bool:
        """Catch up with what other processes wrote; True when anything changed."""
        if not self.hub.shared:
            return False
        while True:
            room, revision = self.room, self.revision
            snap = await self.hub.store.snapshot(self.id, room.meta.game, room.n_actions)
            # A change made here meanwhile (outside the lock this sync may run without) moved the
            # replica past where it read from: read again from where it is now, or its own actions come twice.
            if self.revision == revision:
                break
        if snap is None:
            return False
        data, actions, full = snap
        changed = bool(actions) or full or data.get("version", 0) != room.meta.version
        if not changed:
            return False
        meta = Meta.from_json(data, self.defaults())
        self.revision += 1
        if meta.status != "playing":
            self.room = Room(meta, None)
        elif full or room.match is None:
            self.replay(actions, meta)
        else:
            match = room.match.copy()
            try:
                for a in actions:
                    match.apply(parse_action(a))
                self.room = Room(meta, match)
            except Refusal:  # this replica went another way than the store (Redis lost a change): start over
                log.warning("table %s: the stored log is not this replica's; replayed from the store", self.id[:6])
                loaded = await self.hub.store.load(self.id)
                self.replay([] if loaded is None else loaded[1], meta)
        return True

    async def change(
        self,
        message: Message,
        expected: int | None,
        caught_up: Callable[[], Awaitable[None]],
        written: Callable[[Write], None],
    ) -> tuple[list[Event], Write | None]:
        """Reduce ``message`` under the table's lock and write the change: the room's events, and what
        was written (None: nothing changed), also given to ``written`` while the lock is held. What
        another process wrote is caught up with first and told (``caught_up``), whatever becomes of
        the change. Raises the room's ``Refusal``, changing
        nothing; ``Stale`` when the room is no longer at revision ``expected``; ``Refusal``
        ``not_saved`` when the store did not keep the change (``store_full`` when its disk is full),
        which is then taken back.

        The room is reduced in place (``room.reduce``): what to take it back to is kept as the meta's
        JSON text (a string is no work for the garbage collector, where the dicts of a meta kept across
        the awaits below reached its oldest generation at every action) and the match's length."""
        async with self.hub.leases.lock(self.id):
            if await self.sync():
                await caught_up()
            if expected is not None and self.revision != expected:
                raise Stale
            before = (json.dumps(self.room.meta.to_json()), self.room.match, self.room.n_actions)
            room, events = reduce(self.room, message, in_place=True)
            write = next((e for e in events if isinstance(e, Write)), None)
            if write is None:
                return events, None
            self.revision += 1
            if write.reset:
                self.epoch += 1
            meta = room.meta.to_json() if write.meta else None
            try:
                try:
                    store = self.hub.store
                    await store.commit(self.id, meta, room.active, write.start, list(write.actions), write.reset)
                except StoreLost:  # Redis came back empty: this process still holds the whole table
                    if not await self.write_back(room):
                        raise
            except StoreFull:  # the store said it once in the log: nobody hears of the change
                self._take_back(*before)
                raise
            except Exception:  # nobody hears of a change the store did not keep
                log.exception("the store did not keep a change; it is taken back", extra={"table": self.id})
                self._take_back(*before)
                raise Refusal("the server could not save that, so nothing changed: try again", "not_saved") from None
            written(write)
        return events, write

    def _take_back(self, meta: str, match: Match | None, actions: int) -> None:
        """The room as it was before a change: ``meta`` (its JSON text), and ``match`` (the one it had:
        a new game made another) back to its first ``actions`` actions."""
        if match is not None:
            while match.action_count > actions:
                match.undo()
        self.room = Room(Meta.from_json(json.loads(meta), self.defaults()), match)
        self.epoch += 1
        self.revision += 1

    async def write_back(self, room: Room | None = None) -> bool:
        """Write the room whole (meta and every action from the first), under the table's lock: the
        store lost it, and appending would leave a log that no longer starts at the beginning. False
        when the store holds a history that is not a beginning of this one (another process wrote it)."""
        room = room or self.room
        actions = [] if room.match is None else [action_str(a) for a in room.match.actions]
        written = await self.hub.store.write_back(self.id, room.meta.to_json(), room.active, actions)
        if written:
            log.warning("table %s: the store had lost it (Redis restarted empty?); written back whole", self.id[:6])
        return written

    async def restore(self) -> bool:
        """The store was found empty (``store_lost``): write the table back, unless a process holding
        a replica further on did first; then catch up with it. True when the room changed here."""
        async with self.hub.leases.lock(self.id):
            return not await self.write_back() and await self.sync()
