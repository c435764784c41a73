"""Tables: one match each, its seats (people by secret token, or bots), and the clients watching it.

A table owns its match: every action goes through ``Table.act`` (people) or the table's driver
(bots), is checked by the engine, appended to the store, then every connected client is sent its
own view and the public events it has not seen. A client only ever receives ``Match.view(seat)``
and ``Match.events``: no message is built from anything else, so no hidden card can leave.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from belote.bots import Bot, make_bot
from belote.game import SEATS, IllegalAction, Match, action_str, parse_action
from belote.rules import Rules, RulesError
from belote.server.store import SQLiteStore

log = logging.getLogger("belote.tables")

HUMAN_SEAT = 2  # South, at a solo table

SPEEDS = {  # seconds a bot waits before acting, and a finished trick stays on the table
    "slow": (1.4, 2.6),
    "normal": (0.8, 1.6),
    "fast": (0.25, 0.7),
}
STRENGTHS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("heuristic", {}),
    "normal": ("search", {"think": 1.0}),
    "strong": ("search", {"think": 3.0}),
}
DEFAULT_SETTINGS: dict[str, Any] = {
    "target": 501,
    "deals": None,
    "direction": "clockwise",
    "declarations": True,
    "rounding": False,
    "undertrump": True,
    "strength": "normal",
    "speed": "normal",
    "lang": "en",
}


class SettingsError(ValueError):
    """Settings a table cannot be created with."""


def check_settings(data: Any) -> dict[str, Any]:
    """Settings from a client, completed with the defaults; refuses anything unknown or out of range."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SettingsError("settings must be an object")
    unknown = [k for k in data if k not in DEFAULT_SETTINGS]
    if unknown:
        raise SettingsError(f"unknown setting {unknown[0]!r}; the settings are: {', '.join(DEFAULT_SETTINGS)}")
    s = {**DEFAULT_SETTINGS, **data}
    if not isinstance(s["target"], int) or isinstance(s["target"], bool) or not 100 <= s["target"] <= 5000:
        raise SettingsError("target must be a number of points from 100 to 5000")
    if s["deals"] is not None and (
        not isinstance(s["deals"], int) or isinstance(s["deals"], bool) or not 1 <= s["deals"] <= 100
    ):
        raise SettingsError("deals must be a number of deals from 1 to 100, or null to play to the target")
    if s["strength"] not in STRENGTHS:
        raise SettingsError(f"strength must be one of {', '.join(STRENGTHS)}")
    if s["speed"] not in SPEEDS:
        raise SettingsError(f"speed must be one of {', '.join(SPEEDS)}")
    if s["lang"] not in ("en", "fr"):
        raise SettingsError("lang must be en or fr")
    try:
        rules_of(s)
    except RulesError as e:
        raise SettingsError(str(e)) from None
    return s


def rules_of(settings: dict[str, Any]) -> Rules:
    return Rules(
        direction=settings["direction"],
        declarations=settings["declarations"],
        rounding=settings["rounding"],
        undertrump=settings["undertrump"],
        target=settings["target"],
        deals=settings["deals"],
    )


@dataclass
class Seat:
    token: str | None  # the secret of the person sitting there; None for a bot's seat
    name: str
    bot: str | None = None  # the bot's name when a bot plays the seat
    bot_options: dict[str, Any] = field(default_factory=dict)

    def to_meta(self) -> dict[str, Any]:
        return {"token": self.token, "name": self.name, "bot": self.bot, "bot_options": self.bot_options}


Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class Client:
    seat: int | None
    send: Send
    last: int = -1  # the number of the last event sent


class Table:
    """One table: its match, seats and clients."""

    def __init__(
        self, table_id: str, seed: int, settings: dict[str, Any], seats: dict[int, Seat], store: SQLiteStore | None
    ) -> None:
        self.id = table_id
        self.seed = seed
        self.settings = settings
        self.seats = seats
        self.store = store
        self.match = Match(rules_of(settings), seed=seed, first_dealer=seed % 4)
        self.clients: list[Client] = []
        self.waiting_continue = False
        self.generation = 0  # bumped by a new game, so a bot's late answer for the old one is dropped
        self._bots: dict[int, Bot] = {}
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._make_bots()

    # ----------------------------------------------------------------- life
    def _make_bots(self) -> None:
        self._bots = {
            s: make_bot(seat.bot, seed=self.seed * 7 + s, **seat.bot_options)
            for s, seat in self.seats.items()
            if seat.bot is not None
        }

    def meta(self) -> dict[str, Any]:
        return {
            "kind": "solo",
            "seed": self.seed,
            "settings": self.settings,
            "seats": {SEATS[s]: seat.to_meta() for s, seat in self.seats.items()},
        }

    def save(self) -> None:
        if self.store is not None:
            self.store.save_table(self.id, self.meta())

    def start(self) -> None:
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"table {self.id[:6]}")

    async def stop(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver

    def seat_of_token(self, token: str) -> int | None:
        for s, seat in self.seats.items():
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                return s
        return None

    # ----------------------------------------------------------------- actions
    def _apply(self, action: int, seat: int) -> None:
        self.match.apply(action, seat=seat)
        n = len(self.match.actions) - 1
        if self.store is not None:
            self.store.append_action(self.id, n, action_str(action))
        # When a deal has just ended, the people at the table read its score before the next begins.
        self.waiting_continue = self._deal_just_ended()

    def _deal_just_ended(self) -> bool:
        m = self.match
        return (
            not m.over
            and not m.deal.bids
            and len(m.deals) > 1
            and any(seat.bot is None for seat in self.seats.values())
        )

    async def act(self, seat: int, text: Any) -> None:
        """A person's action; raises IllegalAction (with the rule) and changes nothing when refused."""
        if not isinstance(text, str) or len(text) > 8:
            raise IllegalAction("an action is a card such as JH, or pass, take, or a suit letter")
        action = parse_action(text)
        if self.match.over:
            raise IllegalAction("the match is over: start a new game")
        self._apply(action, seat)
        await self.broadcast()
        self._wake.set()

    async def resume(self) -> None:
        """The score of the deal has been read: bots may start the next deal."""
        self.waiting_continue = False
        await self.broadcast()
        self._wake.set()

    async def new_game(self, settings: dict[str, Any]) -> None:
        self.generation += 1
        self.settings = settings
        self.seed = secrets.randbelow(2**31)
        bot, options = STRENGTHS[settings["strength"]]
        for seat in self.seats.values():
            if seat.bot is not None:
                seat.bot, seat.bot_options = bot, dict(options)
        self._make_bots()
        self.match = Match(rules_of(settings), seed=self.seed, first_dealer=self.seed % 4)
        self.waiting_continue = False
        if self.store is not None:
            self.store.reset_actions(self.id)
        self.save()
        for c in self.clients:
            c.last = -1
        await self.broadcast()
        self._wake.set()

    # ----------------------------------------------------------------- bots
    def _bot_to_move(self) -> int | None:
        seat = self.match.to_move
        if seat is None or self.match.over or self.waiting_continue:
            return None
        return seat if seat in self._bots else None

    async def _drive(self) -> None:
        """Let the bots play, at a pace a person can follow."""
        while True:
            seat = self._bot_to_move()
            if seat is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            delay, trick_pause = SPEEDS[self.settings["speed"]]
            deal = self.match.deal
            finished_trick = deal.phase == "play" and not deal.trick and bool(deal.tricks)
            await asyncio.sleep(delay + (trick_pause if finished_trick else 0.0))
            generation = self.generation
            if self._bot_to_move() != seat:
                continue
            view = self.match.view(seat)
            try:
                action = await asyncio.to_thread(self._bots[seat].act, view)
            except Exception:  # a bot must never stop the table: fall back to the first legal action
                log.exception("bot at %s failed; playing its first legal action", SEATS[seat])
                action = view.legal[0]
            if generation != self.generation or self._bot_to_move() != seat:
                continue
            self._apply(action, seat)
            await self.broadcast()

    # ----------------------------------------------------------------- clients
    def state_for(self, client: Client) -> dict[str, Any]:
        events = self.match.events(client.last + 1)
        view = self.match.view(client.seat)
        msg = {
            "type": "state",
            "table": self.id,
            "seat": None if client.seat is None else SEATS[client.seat],
            "view": view.to_json(),
            "events": [[n, e] for n, e in events],
            "last": client.last if not events else events[-1][0],
            "settings": self.settings,
            "players": {
                SEATS[s]: {"name": seat.name, "bot": seat.bot is not None} for s, seat in sorted(self.seats.items())
            },
            "waiting": "continue" if self.waiting_continue else None,
        }
        return msg

    async def send_state(self, client: Client) -> None:
        msg = self.state_for(client)
        client.last = msg["last"]
        await client.send(msg)

    async def broadcast(self) -> None:
        for client in list(self.clients):
            try:
                await self.send_state(client)
            except Exception:  # the socket went away; its handler removes the client
                log.debug("could not send to a client of %s", self.id)


class TableManager:
    """Every table of this process, created, loaded from the store and found by id."""

    def __init__(self, store: SQLiteStore | None) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}

    def create_solo(self, settings: dict[str, Any], name: str = "You") -> tuple[Table, str]:
        table_id = secrets.token_urlsafe(16)
        token = secrets.token_urlsafe(16)
        bot, options = STRENGTHS[settings["strength"]]
        seats = {
            s: (Seat(token, name) if s == HUMAN_SEAT else Seat(None, SEAT_NAMES[s], bot, dict(options)))
            for s in range(4)
        }
        table = Table(table_id, secrets.randbelow(2**31), settings, seats, self.store)
        table.save()
        self.tables[table_id] = table
        table.start()
        return table, token

    def load_all(self) -> int:
        """Bring back every stored table, exactly where it was (its seed and actions through the engine)."""
        if self.store is None:
            return 0
        loaded = 0
        for table_id in self.store.table_ids():
            stored = self.store.load_table(table_id)
            if stored is None:
                continue
            meta, actions = stored
            try:
                seats = {
                    SEATS.index(k): Seat(v["token"], v["name"], v["bot"], v.get("bot_options", {}))
                    for k, v in meta["seats"].items()
                }
                table = Table(table_id, int(meta["seed"]), check_settings(meta["settings"]), seats, self.store)
                for a in actions:
                    table.match.apply(parse_action(a))
            except (KeyError, ValueError) as e:
                log.error("table %s could not be restored: %s", table_id, e)
                continue
            table.waiting_continue = table._deal_just_ended()
            self.tables[table_id] = table
            table.start()
            loaded += 1
        return loaded

    async def close(self) -> None:
        for table in self.tables.values():
            await table.stop()


SEAT_NAMES = {0: "North", 1: "East", 2: "South", 3: "West"}
