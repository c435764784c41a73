"""Tables: one match each, its seats (people by secret token, or bots), and the clients watching it.

A table is its meta (kind, seed, settings, seats, lobby and timer state) plus the match's action
list. Every change goes through ``Table.mutate``: under the table's lock, catch up with what other
processes wrote, check the change with the engine, write it, tell the other processes, and send
every connected client its own view and the public events it has not seen. A client only ever
receives ``Match.view(seat)`` and ``Match.events``: no message is built from anything else, so no
hidden card can leave. The process holding the table's lease drives it: bots, the turn timer, the
pause to read a deal's score.

A table is loaded from the hub when somebody first asks for it (a join, an invitation, a seat),
never all at start: a server holding 100,000 stored tables starts at once, and no table's bots
think before its people come. A solo table's bots play only while its person has a socket open
(in any process): they only ever wait for that person, so without them they would think for
nobody. Tables nobody uses are forgotten from memory after a while, and from the store after
``ServerConfig.expire_after`` (``expire_solo_after`` for solo tables): docs/operations.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import random
import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from belote.bots import Bot, make_bot
from belote.game import SEATS, IllegalAction, Match, Refusal, action_str, parse_action
from belote.rules import OPTIONS, OptionSpec, Rules
from belote.server.hub import OUTAGE, Hub, Note, StoreLost
from belote.server.limits import Window
from belote.server.logs import TABLE
from belote.server.metrics import Metrics
from belote.server.thinking import Thinker
from belote.server.wire import has_refused_characters, same_secret

log = logging.getLogger("belote.tables")

#: The seat given to a person who names none (a solo table's person, a private table's host, a guest):
#: South first, then North, East, West; at two hands, where only N and E exist, North.
SEAT_ORDER = (2, 0, 1, 3)
MAX_REPLAY = 256  # a client further behind than this many events starts its history again
CHAT_MAX = 200
CHAT_RATE = (5, 10.0)  # at most 5 lines in 10 seconds per seat, however many sockets it has
ADDRESS_CHAT_RATE = (20, 10.0)  # and 20 per address, whatever the seats and tables (a family may share one)
REACTIONS = ("bravo", "well_played", "thanks", "sorry", "hurry", "good_game")

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
#: The settings of a table that are not rules: the bots, the page's language, the turn timer.
TABLE_SETTINGS: tuple[OptionSpec, ...] = (
    OptionSpec("strength", "choice", default="normal", label="settingsStrength", group="bots",
               help="How well the bots play.", choices=tuple(STRENGTHS)),
    OptionSpec("speed", "choice", default="normal", label="settingsSpeed", group="bots",
               help="How long the bots wait before they play.", choices=tuple(SPEEDS)),
    OptionSpec("lang", "choice", default="en", label="settingsLang", group="table",
               help="The language of the page.", choices=("en", "fr")),
    OptionSpec("turn_timer", "int", default=30, label="settingsTimer", group="table",
               help="Seconds a person has to act before a bot acts for them.", min=5, max=600),
)  # fmt: skip
#: Rule options no table offers yet (docs/protocol.md lists a table's settings): a host keeps their defaults.
NOT_AT_A_TABLE = ("litige", "declaration_tie", "declaration_card_reuse")
#: The rule options a host chooses: fields of ``belote.rules.Rules`` of the same names, with their
#: defaults and their checks (``belote.rules.OPTIONS``). Options a game does not use are ignored by the engine.
RULE_SETTINGS = tuple(spec.name for spec in OPTIONS if spec.name not in NOT_AT_A_TABLE)
DEFAULT_SETTINGS: dict[str, Any] = {
    **{name: getattr(Rules(), name) for name in RULE_SETTINGS},
    **{spec.name: spec.default for spec in TABLE_SETTINGS},
}
SEAT_NAMES = {0: "North", 1: "East", 2: "South", 3: "West"}
#: The bots' names: short French first names, never a seat's ("West" at the top of the screen is not
#: one's partner) and never a person's at the same table. A table's bots are drawn from its seed.
BOT_NAMES = (
    "Léa", "Hugo", "Camille", "Louis", "Manon", "Jules", "Chloé", "Paul",
    "Inès", "Lucas", "Jade", "Théo", "Emma", "Arthur", "Margot", "Gabriel",
)  # fmt: skip
#: How the people the queue seats together sit: ``partners`` (the default) puts them in the same
#: partnership as far as the game has partnerships; ``any`` takes whichever seat the draw gives.
SEATINGS = ("partners", "any")


@dataclass
class ServerConfig:
    """What ``belote serve`` can set: the queue's wait before bots fill a table, the turn timer, the pace."""

    queue_wait: float = 20.0
    turn_timer: int = DEFAULT_SETTINGS["turn_timer"]
    pace: float = 1.0  # multiplies the bots' pauses (0 in tests: bots act at once)
    #: The pages, besides the server's own, whose websockets and requests are taken (``wire.origin_allowed``).
    origins: tuple[str, ...] = ()
    #: New tables (solo and private) one address may open: at most this many in so many seconds (0: no limit).
    table_rate: tuple[int, float] = (20, 60.0)
    #: Websockets open at once from one address (0: no limit).
    sockets_per_address: int = 32
    #: Seconds a table nobody uses (no action, no socket open on it) stays in the store: a private or
    #: online table, and a solo one (docs/operations.md says why these defaults).
    expire_after: float = 7 * 24 * 3600.0
    expire_solo_after: float = 24 * 3600.0
    #: Seconds between two sweeps of the tables that expired.
    sweep_every: float = 600.0
    #: Seconds a table nobody watches and nothing drives stays in memory (it loads again on demand).
    forget_after: float = 60.0

    def expiry(self) -> dict[str, float]:
        """Seconds a table of each kind stays unused before it expires."""
        return {"solo": self.expire_solo_after, "private": self.expire_after, "online": self.expire_after}

    #: Worker processes the bots think in (None: one per core; 0: threads of the server's process).
    think_workers: int | None = None
    #: Where the bots think: the app opens a ``Thinker`` of ``think_workers`` for its lifetime; a
    #: table outside an app thinks in threads.
    thinker: Thinker = field(default_factory=lambda: Thinker(0), compare=False, repr=False)


class SettingsError(Refusal):
    """Settings a table cannot be created with, or a name it cannot take."""


def bad_setting(spec: OptionSpec, value: Any, words: str) -> SettingsError:
    """The refusal of a value, with what the option takes: its choices (true and false for a switch),
    or its range."""
    choices = list(spec.choices) if spec.kind == "choice" else [True, False] if spec.kind == "bool" else None
    return SettingsError(
        words, "bad_setting", option=spec.name, value=value, choices=choices, min=spec.min, max=spec.max
    )


def check_settings(data: Any, defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """Settings from a client, completed with the defaults; refuses anything unknown or out of range."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SettingsError("settings must be an object", "bad_settings")
    base = defaults or DEFAULT_SETTINGS
    unknown = [k for k in data if k not in DEFAULT_SETTINGS]
    if unknown:
        raise SettingsError(
            f"unknown setting {unknown[0]!r}; the settings are: {', '.join(DEFAULT_SETTINGS)}",
            "unknown_setting",
            option=unknown[0],
        )
    s = {**DEFAULT_SETTINGS, **base, **data}
    for spec in TABLE_SETTINGS:
        problem = spec.problem(s[spec.name], "setting")
        if problem is not None:
            raise bad_setting(spec, s[spec.name], problem)
    # The rule options, each checked by its spec in the order ``Rules`` checks them (``Rules`` checks
    # nothing else), so that the refusal names the option and what it takes.
    for spec in OPTIONS:
        problem = spec.problem(s[spec.name]) if spec.name in s else None
        if problem is not None:
            raise bad_setting(spec, s[spec.name], problem)
    return s


def rules_of(settings: dict[str, Any]) -> Rules:
    """The engine's rules for a table's settings (raises RulesError naming a bad option)."""
    return Rules.from_dict({name: settings[name] for name in RULE_SETTINGS if name in settings})


def new_match(settings: dict[str, Any], seed: int) -> Match:
    """The match a table plays: its rules, its seed, and the first dealer drawn from the seed."""
    rules = rules_of(settings)
    return Match(rules, seed=seed, first_dealer=seed % rules.players)


def seat_list(players: int) -> str:
    """The seats of a game of ``players``: ``N, E, S and W``, ``N, E and S``, ``N and E``."""
    return f"{', '.join(SEATS[: players - 1])} and {SEATS[players - 1]}"


def person_seat(players: int) -> int:
    """Where a person sits when no seat is named: South, or North at two hands."""
    return next(s for s in SEAT_ORDER if s < players)


def check_name(name: Any) -> str:
    """A player's name: free text of 1 to 24 characters after trimming, no control characters."""
    if not isinstance(name, str):
        raise SettingsError("a name is text of 1 to 24 characters", "bad_name", min=1, max=24)
    if has_refused_characters(name):
        raise SettingsError("a name cannot hold control characters", "name_control_characters")
    clean = " ".join(name.split())
    if not 1 <= len(clean) <= 24:
        raise SettingsError("a name is text of 1 to 24 characters", "bad_name", min=1, max=24)
    return clean


def parse_seat(value: Any, players: int = 4) -> int:
    """A seat letter; at two and three hands only the seats of the game (N E S, N E) exist."""
    if not isinstance(value, str) or len(value) != 1 or value not in SEATS:
        raise IllegalAction("a seat is N, E, S or W", "bad_seat")
    seat = SEATS.index(value)
    check_seat(seat, players)
    return seat


def check_seat(seat: int, players: int) -> None:
    if seat >= players:
        raise IllegalAction(
            f"this game has {players} seats, {seat_list(players)}: there is no {SEATS[seat]}",
            "no_such_seat",
            seat=SEATS[seat],
            seats=list(SEATS[:players]),
        )


#: What a table id (``new_token``) looks like; anything else names no table and is not looked up.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_token() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


@dataclass
class Seat:
    token: str | None  # the secret of the person sitting there; None for a bot's seat
    name: str
    bot: str | None = None  # the bot's name when a bot plays the seat
    bot_options: dict[str, Any] = field(default_factory=dict)

    def to_meta(self) -> dict[str, Any]:
        return {"token": self.token, "name": self.name, "bot": self.bot, "bot_options": self.bot_options}

    @classmethod
    def from_meta(cls, data: dict[str, Any]) -> Seat:
        return cls(data["token"], data["name"], data.get("bot"), dict(data.get("bot_options") or {}))


def bot_seat(name: str, strength: str) -> Seat:
    """A seat played by the bot of a strength (``easy``, ``normal``, ``strong``), called ``name``."""
    bot, options = STRENGTHS[strength]
    return Seat(None, name, bot, dict(options))


def same_name(a: str, b: str) -> bool:
    """Whether two names read alike: case and accents aside (``lea`` is ``Léa``).

    >>> same_name("LEA", "Léa"), same_name("Louis", "Louise")
    (True, False)
    """

    def folded(name: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(c))

    return folded(a) == folded(b)


def bot_names(seed: int, count: int, taken: list[str]) -> list[str]:
    """``count`` names for a table's bots, drawn from its ``seed``: all different, none like a
    name already at the table (``taken``: its people and bots).

    >>> names = bot_names(7, 3, ["lea", "HUGO"])
    >>> names == bot_names(7, 3, ["lea", "HUGO"]), len(set(names)), {"Léa", "Hugo"} & set(names)
    (True, 3, set())
    """
    drawn = random.Random(seed).sample(BOT_NAMES, len(BOT_NAMES))
    return [name for name in drawn if not any(same_name(name, t) for t in taken)][:count]


def fill_with_bots(seats: dict[int, Seat], players: int, strength: str, seed: int) -> None:
    """Bots take every seat of the game nobody took, with names drawn from the table's ``seed``."""
    free = [s for s in range(players) if s not in seats]
    names = bot_names(seed, len(free), [seat.name for seat in seats.values()])
    for s, name in zip(free, names, strict=True):
        seats[s] = bot_seat(name, strength)


def online_seats(seatings: list[str], players: int, partners: bool, seed: int) -> list[int]:
    """The seats of the people the queue matched, in queue order, each with their ``seating``.

    Where the game has partnerships, the people who asked for ``partners`` sit South, North, East,
    West in that order (two sit as partners, a third against them); the others, and everybody in a
    game without partners, take the seats left as the table's ``seed`` draws them.

    >>> online_seats(["partners", "partners"], 4, True, 1)
    [2, 0]
    >>> online_seats(["partners", "partners", "partners"], 4, True, 1)
    [2, 0, 1]
    """
    free = [s for s in SEAT_ORDER if s < players]
    places: list[int | None] = [None] * len(seatings)
    if partners:
        for i, seating in enumerate(seatings):
            if seating == "partners":
                places[i] = free.pop(0)
    drawn = iter(random.Random(seed).sample(free, places.count(None)))
    return [next(drawn) if place is None else place for place in places]


@dataclass
class Meta:
    """Everything about a table but its actions; written whole on each change."""

    kind: str  # solo | online | private
    seed: int
    settings: dict[str, Any]
    seats: dict[int, Seat]
    status: str = "playing"  # lobby | playing
    host: int | None = None
    invite: str | None = None
    watch: str = field(default_factory=new_token)
    game: int = 0  # bumped by each new match at the table
    continued: int = 0  # deals whose score everybody has read (the next deal waits for it)
    acks: list[int] = field(default_factory=list)  # seats that have read the last score
    standin: list[int] = field(default_factory=list)  # seats a bot plays for an absent person
    version: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seed": self.seed,
            "settings": self.settings,
            "seats": {SEATS[s]: seat.to_meta() for s, seat in sorted(self.seats.items())},
            "status": self.status,
            "host": self.host,
            "invite": self.invite,
            "watch": self.watch,
            "game": self.game,
            "continued": self.continued,
            "acks": self.acks,
            "standin": self.standin,
            "version": self.version,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], defaults: dict[str, Any] | None = None) -> Meta:
        return cls(
            kind=data.get("kind", "solo"),
            seed=int(data["seed"]),
            settings=check_settings(data["settings"], defaults),
            seats={SEATS.index(k): Seat.from_meta(v) for k, v in data["seats"].items()},
            status=data.get("status", "playing"),
            host=data.get("host"),
            invite=data.get("invite"),
            watch=data.get("watch") or new_token(),
            game=int(data.get("game", 0)),
            continued=int(data.get("continued", -1)),
            acks=list(data.get("acks", [])),
            standin=list(data.get("standin", [])),
            version=int(data.get("version", 0)),
        )

    def people(self) -> list[int]:
        return [s for s, seat in self.seats.items() if seat.bot is None]

    @property
    def players(self) -> int:
        """Seats at the table: 4, or 3 or 2 in the three- and two-handed games."""
        return rules_of(self.settings).players

    def fit(self, settings: dict[str, Any]) -> None:
        """Seat the table for the game of ``settings``: bots leave the seats it has not, and a person
        sitting in one of those moves to a free seat of the game (South, North, East first); refused
        when more people sit than the game has seats."""
        players = rules_of(settings).players
        people = self.people()
        if len(people) > players:
            raise IllegalAction(
                f"{settings['variant']} has {players} seats, {seat_list(players)}: "
                f"{len(people)} people sit here, {len(people) - players} must leave first",
                "too_many_people",
                variant=settings["variant"],
                seats=list(SEATS[:players]),
                people=len(people),
            )
        for s in [s for s in self.seats if s >= players and self.seats[s].bot is not None]:
            del self.seats[s]
        free = [s for s in SEAT_ORDER if s < players and (s not in self.seats or self.seats[s].bot is not None)]
        for s in sorted(s for s in people if s >= players):
            to = free.pop(0)
            self.seats[to] = self.seats.pop(s)
            if self.host == s:
                self.host = to


Send = Callable[[dict[str, Any] | str], Awaitable[None]]  # a message, or one already in JSON


@dataclass
class Client:
    seat: int | None  # None: a spectator
    send: Send
    last: int = -1  # the number of the last event sent
    token: str | None = None  # a person's seat token: their seat follows it when seats change
    address: str = ""  # where the socket comes from: the limits count by it


class Stale(Exception):
    """The table moved on while a bot was thinking: its answer is dropped."""


class Table:
    """One table: its meta, its match (a replica, in a shared hub), and this process's clients."""

    def __init__(
        self,
        table_id: str,
        meta: Meta,
        hub: Hub,
        config: ServerConfig,
        address_chat: Window | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.id = table_id
        self.meta = meta
        self.hub = hub
        self.config = config
        self.match: Match | None = None
        self.clients: list[Client] = []
        self._bots: dict[int, Bot] = {}
        self.chat_window = Window(*CHAT_RATE)  # by seat
        self.address_chat = address_chat or Window(*ADDRESS_CHAT_RATE)  # by address, shared by the tables
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._position: tuple[int, int, int, int] = (-1, -1, -1, -1)
        self.turn_started = time.monotonic()
        self.closed = False
        self.metrics = metrics or Metrics()
        self.clock = clock
        self.used = clock()  # when somebody last asked for the table or it changed (unix seconds)
        self.remote: dict[str, set[int]] = {}  # in a shared hub: the seats with a socket in each other process
        if meta.status == "playing":
            self.match = self._new_match()
        self._note_position()

    # ----------------------------------------------------------------- state
    def _new_match(self) -> Match:
        return new_match(self.meta.settings, self.meta.seed)

    def _replay(self, actions: list[str]) -> None:
        self.match = self._new_match()
        for a in actions:
            self.match.apply(parse_action(a))

    @property
    def active(self) -> bool:
        return self.meta.status == "lobby" or (self.match is not None and not self.match.over)

    @property
    def shared(self) -> bool:
        """A table of several people (the turn timer runs, the next deal waits for everybody)."""
        return self.meta.kind != "solo"

    @property
    def n_actions(self) -> int:
        return 0 if self.match is None else self.match.action_count

    def deal_just_ended(self) -> bool:
        m = self.match
        return m is not None and not m.over and not m.deal.bids and len(m.deals) > 1

    @property
    def waiting_continue(self) -> bool:
        m = self.match
        return (
            m is not None
            and self.deal_just_ended()
            and self.meta.continued < len(m.deals) - 1
            and any(s not in self.meta.standin for s in self.meta.people())
        )

    def _note_position(self) -> None:
        """Start the turn clock when the table has moved on."""
        position = (self.meta.game, self.n_actions, self.meta.continued, len(self.meta.standin))
        if position != self._position:
            self._position = position
            self.turn_started = time.monotonic()

    def seat_of_token(self, token: str) -> int | None:
        for s, seat in self.meta.seats.items():
            if seat.token is not None and same_secret(seat.token, token):
                return s
        return None

    def _seat_clients(self) -> None:
        """A person's clients follow their seat token: a move in the lobby, a solo game of another size."""
        for c in self.clients:
            if c.token is not None:
                c.seat = self.seat_of_token(c.token)

    # ----------------------------------------------------------------- changes
    async def sync(self) -> bool:
        """Catch up with what other processes wrote; True when anything changed."""
        if not self.hub.shared:
            return False
        while True:
            meta, version, start, match = self.meta, self.meta.version, self.n_actions, self.match
            snap = await self.hub.snapshot(self.id, meta.game, start)
            # A change made here meanwhile (outside the lock this sync may run without) moved the
            # replica past ``start``: read again from where it is now, or its own actions come twice.
            if (self.meta, self.meta.version, self.n_actions, self.match) == (meta, version, start, match):
                break
        if snap is None:
            return False
        data, actions, full = snap
        changed = bool(actions) or full or data.get("version", 0) != self.meta.version
        if not changed:
            return False
        self.meta = Meta.from_json(data, self._defaults())
        if self.meta.status != "playing":
            self.match = None
        elif full or self.match is None:
            self._replay(actions)
            self._bots = {}
            if full:  # a new match: every client starts its history again
                for c in self.clients:
                    c.last = -1
        else:
            try:
                for a in actions:
                    self.match.apply(parse_action(a))
            except Refusal:  # this replica went another way than the store (Redis lost a change): start over
                log.warning("table %s: the stored log is not this replica's; replayed from the store", self.id[:6])
                loaded = await self.hub.load(self.id)
                self._replay([] if loaded is None else loaded[1])
                self._bots = {}
                for c in self.clients:
                    c.last = -1
        self._seat_clients()
        self._note_position()
        return True

    def _defaults(self) -> dict[str, Any]:
        return {**DEFAULT_SETTINGS, "turn_timer": self.config.turn_timer}

    async def mutate(self, change: Callable[[], bool]) -> None:
        """Apply ``change`` (it returns whether the meta changed, and raises, changing nothing, to refuse)."""
        async with self.hub.lock(self.id):
            # What another process wrote is told now, whatever becomes of the change (refused, or a
            # bot's answer gone stale): this sync is the only one to see it, the note of it finds
            # nothing new here later.
            if await self.sync():
                await self.broadcast()
                self.wake()
            game, start = self.meta.game, self.n_actions
            before = (self.meta.to_json(), self.match)
            meta_changed = change()
            reset = self.meta.game != game
            if reset:
                start = 0
            actions = [] if self.match is None else [action_str(a) for a in self.match.actions_from(start)]
            if not meta_changed and not actions and not reset:
                return
            if meta_changed or reset:
                self._seat_clients()
            if meta_changed or reset or (self.match is not None and self.match.over):
                self.meta.version += 1
                meta: dict[str, Any] | None = self.meta.to_json()
            else:
                meta = None
            try:
                try:
                    await self.hub.commit(self.id, meta, self.active, start, actions, reset)
                except StoreLost:  # Redis came back empty: this process still holds the whole table
                    if not await self._write_back():
                        raise
            except Exception:  # nobody hears of a change the store did not keep
                log.exception("the store did not keep a change; it is undone", extra={"table": self.id})
                self._undo(*before, start)
                raise Refusal("the server could not save that, so nothing changed: try again", "not_saved") from None
        self.used = self.clock()
        if actions:
            self.metrics.actions.inc(len(actions), kind=self.meta.kind)
        self._note_position()
        await self.hub.publish(self.id, {"kind": "changed", "from": self.hub.process})
        await self.broadcast()
        self._wake.set()
        if self.active and not self.driving and not self.hub.shared:  # a new match at a finished table
            self.start()

    async def _write_back(self) -> bool:
        """Write the table whole (meta and every action from the first), under its lock: the store
        lost it, and appending would leave a log that no longer starts at the beginning. False when
        the store holds a history that is not a beginning of this one (another process wrote it)."""
        actions = [] if self.match is None else [action_str(a) for a in self.match.actions]
        written = await self.hub.write_back(self.id, self.meta.to_json(), self.active, actions)
        if written:
            log.warning("table %s: the store had lost it (Redis restarted empty?); written back whole", self.id[:6])
        return written

    async def restore(self) -> bool:
        """The store was found empty (``store_lost``): write the table back, unless a process holding
        a replica further on did first; then catch up with it. True when the table changed here."""
        async with self.hub.lock(self.id):
            return not await self._write_back() and await self.sync()

    def _undo(self, meta: dict[str, Any], match: Match | None, actions: int) -> None:
        """Back to the meta and the first ``actions`` actions of ``match`` that the table had before a change."""
        self.meta = Meta.from_json(meta, self._defaults())
        if match is None:
            self.match = None
        else:
            self._replay([action_str(a) for a in match.actions[:actions]])
        self._bots = {}
        self._seat_clients()

    async def act(self, seat: int, text: Any) -> None:
        """A person's action; raises IllegalAction (with the rule) and changes nothing when refused."""
        if not isinstance(text, str) or len(text) > 12:
            raise IllegalAction(
                "an action is a card such as JH, or pass, take, a suit letter, "
                "or in Coinche a contract such as 110H, coinche or surcoinche",
                "not_an_action",
                text=text[:16] if isinstance(text, str) else repr(text)[:16],
            )
        action = parse_action(text)

        def change() -> bool:
            if self.match is None:
                raise IllegalAction("the game has not started: the host starts it", "not_started")
            if self.match.over:
                raise IllegalAction("the match is over: start a new game", "match_over")
            if self.waiting_continue:
                # Acting is reading the score; the next deal starts once every person has.
                unread = self._unread(exclude=seat)
                if unread:
                    who = " and ".join(SEATS[s] for s in unread)
                    raise IllegalAction(
                        f"the next deal starts when everybody has read the score: waiting for {who}",
                        "waiting_for_others",
                        seats=[SEATS[s] for s in unread],
                    )
                self.match.apply(action, seat=seat)
                self.meta.continued = len(self.match.deals) - 1
                self.meta.acks = []
                self._back(seat)
                return True
            self.match.apply(action, seat=seat)
            return self._back(seat)

        await self.mutate(change)

    def _unread(self, exclude: int | None = None) -> list[int]:
        """The people (not played by a bot) who have not read the last deal's score."""
        meta = self.meta
        return [s for s in meta.people() if s != exclude and s not in meta.standin and s not in meta.acks]

    def _back(self, seat: int) -> bool:
        if seat in self.meta.standin:
            self.meta.standin.remove(seat)
            return True
        return False

    async def back(self, seat: int) -> None:
        """The person is here again: no bot plays for them from now on."""
        if seat in self.meta.standin or self.hub.shared:
            await self.mutate(lambda: self._back(seat))

    async def resume(self, seat: int | None) -> None:
        """``seat`` has read the deal's score; the next deal starts when every person has."""

        def change() -> bool:
            changed = self._back(seat) if seat is not None else False
            if not self.waiting_continue or self.match is None:
                return changed
            if seat is not None and seat not in self.meta.acks:
                self.meta.acks.append(seat)
            waiting_for = self._unread()
            if seat is None or not waiting_for:
                self.meta.continued = len(self.match.deals) - 1
                self.meta.acks = []
            return True

        await self.mutate(change)

    async def new_game(self, settings: dict[str, Any]) -> None:
        def change() -> bool:
            m = self.meta
            if m.status == "lobby":  # a private table's match begins with the host's start, never before
                raise IllegalAction("the game has not started: the host starts it from the lobby", "not_started")
            players = rules_of(settings).players
            if m.kind == "solo" and players != m.players:  # the person takes the solo seat of the new game
                (person,) = (seat for seat in m.seats.values() if seat.bot is None)
                m.seats = {person_seat(players): person}
            m.fit(settings)
            m.seed = secrets.randbelow(2**31)
            fill_with_bots(m.seats, players, settings["strength"], m.seed)  # the bots kept keep their names
            m.game += 1
            m.settings = settings
            bot, options = STRENGTHS[settings["strength"]]
            for seat in m.seats.values():
                if seat.bot is not None:
                    seat.bot, seat.bot_options = bot, dict(options)
            m.continued, m.acks, m.standin = 0, [], []
            self._bots = {}
            self.match = self._new_match()
            for c in self.clients:
                c.last = -1
            return True

        await self.mutate(change)

    # ----------------------------------------------------------------- lobby
    def sit(self, token: str, name: str, seat: int | None) -> int:
        """Seat a person at a private table's lobby (called inside ``mutate``)."""
        m = self.meta
        if m.status != "lobby":
            raise IllegalAction("the game has started: every seat is taken", "game_started", request="sit")
        players = m.players
        free = [s for s in SEAT_ORDER if s < players and s not in m.seats]
        if not free:
            raise IllegalAction(f"the table is full: {players} people sit there", "table_full", players=players)
        if seat is None:
            seat = free[0]
        check_seat(seat, players)
        if seat in m.seats:
            raise IllegalAction(f"{SEAT_NAMES[seat]} is taken: choose a free seat", "seat_taken", seat=SEATS[seat])
        m.seats[seat] = Seat(token, name)
        return seat

    async def move(self, seat: int, to: int) -> int:
        def change() -> bool:
            m = self.meta
            if m.status != "lobby":
                raise IllegalAction(
                    "the game has started: seats can change only in the lobby", "game_started", request="seat"
                )
            check_seat(to, m.players)
            if to in m.seats:
                raise IllegalAction(f"{SEAT_NAMES[to]} is taken: choose a free seat", "seat_taken", seat=SEATS[to])
            m.seats[to] = m.seats.pop(seat)
            if m.host == seat:
                m.host = to
            return True

        await self.mutate(change)
        return to

    async def leave(self, seat: int) -> None:
        """A person gives up their seat in the lobby (their token opens nothing any more)."""

        def change() -> bool:
            m = self.meta
            if m.status != "lobby":
                raise IllegalAction(
                    "the game has started: a seat is left only in the lobby", "game_started", request="leave"
                )
            if m.host == seat:
                raise IllegalAction("the host stays in the lobby: the table is theirs", "host_stays")
            del m.seats[seat]
            return True

        await self.mutate(change)

    def _require_host(self, seat: int) -> None:
        if self.meta.kind != "private" or self.meta.host != seat:
            raise IllegalAction("only the host of a private table can do that", "not_host")

    async def configure(self, seat: int, settings: dict[str, Any]) -> None:
        def change() -> bool:
            self._require_host(seat)
            if self.meta.status != "lobby":
                raise IllegalAction("the rules are set before the game starts", "game_started", request="settings")
            self.meta.fit(settings)
            self.meta.settings = settings
            return True

        await self.mutate(change)

    async def start_game(self, seat: int) -> None:
        def change() -> bool:
            self._require_host(seat)
            m = self.meta
            if m.status != "lobby":
                raise IllegalAction("the game has already started", "game_started", request="start")
            fill_with_bots(m.seats, m.players, m.settings["strength"], m.seed)
            m.status = "playing"
            m.continued = 0
            self.match = self._new_match()
            return True

        await self.mutate(change)

    # ----------------------------------------------------------------- chat
    async def chat(self, client: Client, text: Any = None, reaction: Any = None) -> None:
        if client.seat is None:
            raise IllegalAction("a spectator cannot talk at the table", "read_only")
        if reaction is not None:
            if reaction not in REACTIONS:
                raise IllegalAction(
                    f"the reactions are: {', '.join(REACTIONS)}", "bad_reaction", reactions=list(REACTIONS)
                )
            text = None
        else:
            if not isinstance(text, str) or not text.strip():
                raise IllegalAction(f"a chat line is text of 1 to {CHAT_MAX} characters", "bad_chat", max=CHAT_MAX)
            text = " ".join(text.split())
            if has_refused_characters(text):
                raise IllegalAction("a chat line cannot hold control characters", "chat_control_characters")
            if len(text) > CHAT_MAX:
                raise IllegalAction(f"a chat line is at most {CHAT_MAX} characters", "chat_too_long", max=CHAT_MAX)
        for window, key in ((self.chat_window, str(client.seat)), (self.address_chat, client.address)):
            if not window.allow(key):
                raise IllegalAction(
                    f"slow down: at most {window.count} messages in {window.seconds:.0f} seconds",
                    "slow_down",
                    count=window.count,
                    seconds=round(window.seconds),
                )
        line = {
            "type": "chat",
            "seat": SEATS[client.seat],
            "name": self.meta.seats[client.seat].name,
            "text": text,
            "reaction": reaction,
            "at": int(time.time() * 1000),
        }
        await self.hub.add_chat(self.id, line)
        await self.hub.publish(self.id, {"kind": "chat", "line": line})

    async def send_chat(self, line: dict[str, Any]) -> None:
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.send(line)

    # ----------------------------------------------------------------- bots and timers
    def people_here(self) -> bool:
        """Whether a person of the table has a socket open on it, here or in another process."""
        return any(c.seat is not None for c in self.clients) or any(self.remote.values())

    def here_seats(self) -> list[int]:
        """The seats with a socket open in this process."""
        return sorted({c.seat for c in self.clients if c.seat is not None})

    async def presence(self) -> None:
        """A person came or went: the driver looks again (a solo table's bots wait for their person), and
        in a shared hub the other processes hear which seats have a socket here."""
        self._wake.set()
        if self.hub.shared:
            await self.hub.publish(self.id, {"kind": "presence", "from": self.hub.process, "seats": self.here_seats()})

    def heard_presence(self, process: str, seats: list[int]) -> None:
        if seats:
            self.remote[process] = set(seats)
        else:
            self.remote.pop(process, None)
        self._wake.set()

    async def take_over(self) -> None:
        """This process drives the table from now on (in a shared hub): it asks the others who is there."""
        self.remote = {}
        await self.hub.publish(self.id, {"kind": "who", "from": self.hub.process})
        self.start()

    def start(self) -> None:
        if self._driver is None or self._driver.done():
            context = contextvars.copy_context()
            context.run(TABLE.set, self.id)  # what is logged while driving (a bot that fails...) names the table
            self._driver = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table {self.id[:6]}", context=context
            )

    @property
    def driving(self) -> bool:
        return self._driver is not None and not self._driver.done()

    async def stop(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
            self._driver = None

    def wake(self) -> None:
        self._wake.set()

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            sitting = self.meta.seats[seat]
            name, options = (
                (sitting.bot, sitting.bot_options)
                if sitting.bot is not None
                else STRENGTHS[self.meta.settings["strength"]]
            )
            bot = self._bots[seat] = make_bot(name, seed=self.meta.seed * 7 + seat, **options)
        return bot

    def next_job(self) -> tuple[float, str, int | None] | None:
        """What the table waits for: (seconds from now, job, seat), or None when only people can move it."""
        m = self.match
        if m is None or m.over:
            return None
        if not self.shared and not self.people_here():
            return None  # a solo table's person is away: its bots wait for them (``presence``)
        elapsed = time.monotonic() - self.turn_started
        timer = float(self.meta.settings["turn_timer"])
        delay, trick_pause = (d * self.config.pace for d in SPEEDS[self.meta.settings["speed"]])
        if self.waiting_continue:
            return (timer - elapsed, "continue", None) if self.shared else None
        seat = m.to_move
        if seat is None:
            return None
        if self.meta.seats[seat].bot is not None or seat in self.meta.standin:
            deal = m.deal
            finished_trick = deal.phase == "play" and not deal.trick and bool(deal.tricks)
            return (delay + (trick_pause if finished_trick else 0.0) - elapsed, "bot", seat)
        if self.shared:
            return (timer - elapsed, "timeout", seat)
        return None

    async def _drive(self) -> None:
        """Let the bots play at a pace a person can follow, and stand in for the absent; ends with the match."""
        while self.active:
            job = self.next_job()
            self._wake.clear()
            if job is None:
                await self._wake.wait()
                continue
            wait, kind, seat = job
            if wait > 0:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancel (stop) that
                # comes as the table is woken, and the driver then never stops.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await self._wake.wait()
                if self._wake.is_set():
                    continue
            try:
                await self._run(kind, seat)
            except Stale:
                continue
            except Exception:
                log.exception("%s failed", kind)
                self.metrics.errors.inc(where="table")
                await asyncio.sleep(1.0)

    async def _run(self, kind: str, seat: int | None) -> None:
        position = self._position
        match = self.match
        if kind == "continue":

            def resume() -> bool:
                if self._position != position or match is not self.match:
                    raise Stale
                if self.match is None or not self.waiting_continue:
                    return False
                self.meta.continued = len(self.match.deals) - 1
                self.meta.acks = []
                return True

            await self.mutate(resume)
        elif kind == "timeout" and seat is not None:

            def stand_in() -> bool:
                if self._position != position or match is not self.match:
                    raise Stale
                self.meta.standin.append(seat)
                return True

            await self.mutate(stand_in)
        elif kind == "bot" and seat is not None and match is not None:
            view = match.view(seat)
            thinking = time.perf_counter()
            try:
                action = await self.config.thinker.act(self._bot(seat), view)
                self.metrics.bot_seconds.observe(time.perf_counter() - thinking)
            except Exception:  # a bot must never stop the table: its first legal action
                log.exception("bot at %s failed; playing its first legal action", SEATS[seat])
                action = view.legal[0]

            def play() -> bool:
                if self._position != position or match is not self.match or self.match is None:
                    raise Stale
                self.match.apply(action, seat=seat)
                return False

            await self.mutate(play)

    # ----------------------------------------------------------------- clients
    def players(self) -> dict[str, dict[str, Any]]:
        return {
            SEATS[s]: {"name": seat.name, "bot": seat.bot is not None, "standin": s in self.meta.standin}
            for s, seat in sorted(self.meta.seats.items())
        }

    def timer(self) -> dict[str, Any] | None:
        job = self.next_job()
        if job is None or job[1] not in ("timeout", "continue"):
            return None
        seat = job[2]
        return {
            "seat": None if seat is None else SEATS[seat],
            "left_ms": max(0, int(job[0] * 1000)),
            "seconds": self.meta.settings["turn_timer"],
        }

    def _states(self, clients: list[Client]) -> list[str]:
        """The ``state`` message of each client, as JSON text: what every seat shares is built once,
        each distinct message (seat, last event seen) made and encoded once."""
        m, meta = self.match, self.meta
        events = [] if m is None else m.events()
        views = {} if m is None else m.view_json(list({c.seat for c in clients}))
        waiting = self.waiting_continue
        shared = {
            "type": "state",
            "table": self.id,
            "kind": meta.kind,
            "status": meta.status,
            "host": None if meta.host is None else SEATS[meta.host],
            "settings": meta.settings,
            "players": self.players(),
            "timer": self.timer(),
        }
        made: dict[tuple[int | None, int], tuple[str, int]] = {}
        out: list[str] = []
        for client in clients:
            key = (client.seat, client.last)
            if key not in made:
                since = client.last + 1
                shown = events[since:]
                gap = len(shown) > MAX_REPLAY and since > 0  # too far behind to patch: everything, from 0
                if gap:
                    shown = events
                last = shown[-1][0] if shown else client.last
                seated = client.seat is not None
                msg = {
                    **shared,
                    "seat": None if client.seat is None else SEATS[client.seat],
                    "view": views.get(client.seat),
                    "events": [[n, e] for n, e in shown],
                    "last": last,
                    "gap": gap,
                    "waiting": None if not waiting else "continue" if client.seat not in meta.acks else "others",
                    "invite": meta.invite if seated else None,
                    "watch": meta.watch if seated else None,
                }
                made[key] = (dumps(msg), last)
            text, client.last = made[key]
            out.append(text)
        return out

    async def send_state(self, client: Client) -> None:
        await client.send(self._states([client])[0])

    async def broadcast(self) -> None:
        clients = list(self.clients)
        if not clients:
            return
        for client, text in zip(clients, self._states(clients), strict=True):
            try:
                await client.send(text)
            except Exception:  # the socket went away; its handler removes the client
                log.debug("could not send to a client of %s", self.id)


class TableManager:
    """The tables this process holds: created, loaded from the hub on demand, found by id, driven
    under lease, forgotten when nobody uses them, and expired from the hub by a periodic sweep."""

    def __init__(
        self,
        hub: Hub,
        config: ServerConfig | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.hub = hub
        self.config = config or ServerConfig()
        self.metrics = metrics or Metrics()
        self.clock = clock  # unix seconds: tests set their own, and give the store the same
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._lease_task: asyncio.Task[None] | None = None
        self._sweep_task: asyncio.Task[None] | None = None
        self.address_chat = Window(*ADDRESS_CHAT_RATE)
        hub.listen(self._on_note)

    def defaults(self) -> dict[str, Any]:
        return {**DEFAULT_SETTINGS, "turn_timer": self.config.turn_timer}

    def _table(self, table_id: str, meta: Meta) -> Table:
        return Table(table_id, meta, self.hub, self.config, self.address_chat, self.metrics, self.clock)

    async def _create(self, meta: Meta) -> Table:
        table_id = new_token()
        table = self._table(table_id, meta)
        meta.version = 1
        await self.hub.commit(table_id, meta.to_json(), True, 0, [], False)
        self.tables[table_id] = table
        log.info("%s table opened", meta.kind, extra={"table": table_id})
        if await self.hub.hold_lease(table_id):
            table.start()
        return table

    async def create_solo(self, settings: dict[str, Any], name: str = "You") -> tuple[Table, str, int]:
        """A table of one person (South; North at two hands) and bots; the seat token and the seat."""
        token = new_token()
        seat = person_seat(rules_of(settings).players)
        seats = {seat: Seat(token, name)}
        seed = secrets.randbelow(2**31)
        fill_with_bots(seats, rules_of(settings).players, settings["strength"], seed)
        table = await self._create(Meta("solo", seed, settings, seats))
        return table, token, seat

    async def create_private(self, name: str, seat: int, settings: dict[str, Any]) -> tuple[Table, str]:
        token = new_token()
        meta = Meta(
            "private",
            secrets.randbelow(2**31),
            settings,
            {seat: Seat(token, name)},
            status="lobby",
            host=seat,
            invite=new_token(),
        )
        return await self._create(meta), token

    async def create_online(
        self, names: list[str], variant: str = "classic", seatings: list[str] | None = None
    ) -> tuple[Table, list[tuple[str, int]]]:
        """A table of ``variant`` for the players the queue matched (at most its seats, in queue
        order, each with their ``seating``, ``partners`` by default: ``online_seats``), bots in the
        others; each person's seat token and seat."""
        settings = check_settings({"variant": variant}, self.defaults())
        rules = rules_of(settings)
        seed = secrets.randbelow(2**31)
        places = online_seats(seatings or ["partners"] * len(names), rules.players, rules.game.partners, seed)
        given = [(new_token(), s) for s in places]
        seats = {s: Seat(token, name) for (token, s), name in zip(given, names, strict=True)}
        fill_with_bots(seats, rules.players, settings["strength"], seed)
        table = await self._create(Meta("online", seed, settings, seats))
        return table, given

    async def invitation(self, table_id: str, invite: Any) -> dict[str, Any] | None:
        """What an invitation opens on, before sitting: the game, its seats, the free ones, who sits
        where (names only); None for a wrong table or code."""
        table = await self.get(table_id)
        if table is None or table.meta.invite is None or not same_secret(table.meta.invite, invite):
            return None
        meta = table.meta
        seats = [SEATS[s] for s in range(meta.players)]
        taken = {SEATS[s]: seat.name for s, seat in meta.seats.items() if seat.bot is None}
        return {
            "variant": meta.settings["variant"],
            "status": meta.status,
            "seats": seats,
            "free": [s for s in seats if s not in taken] if meta.status == "lobby" else [],
            "people": taken,
        }

    async def sit(self, table_id: str, invite: Any, name: str, seat: Any) -> tuple[Table, str, int] | None:
        """A person takes a seat (a letter, or None for any) through a private table's invitation; None
        for a wrong table or code. The seat is read once the invitation is known to be right."""
        table = await self.get(table_id)
        if table is None or table.meta.invite is None or not same_secret(table.meta.invite, invite):
            return None
        token = new_token()
        taken: list[int] = []

        asked = None if seat is None else parse_seat(seat, table.meta.players)

        def change() -> bool:
            taken.append(table.sit(token, name, asked))
            return True

        await table.mutate(change)
        return table, token, taken[0]

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
        stored = await self.hub.load(table_id)
        if stored is None:
            return None
        data, actions = stored
        try:
            meta = Meta.from_json(data, self.defaults())
            table = self._table(table_id, meta)
            if table.match is not None:
                table._replay(actions)
                if meta.continued < 0:  # stored before the table kept it: the last deal's score was read
                    meta.continued = len(table.match.deals) - (2 if table.deal_just_ended() else 1)
            table._note_position()
        except (KeyError, ValueError, TypeError) as e:
            log.error("the table could not be restored: %s", e, extra={"table": table_id})
            return None
        self.tables[table_id] = table
        if table.active and await self.hub.hold_lease(table_id):
            if self.hub.shared:
                await table.take_over()
            else:
                table.start()
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
                    await self.hub.publish(held.id, {"kind": "who", "from": self.hub.process})
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
        elif kind == "presence" and isinstance(sender, str) and sender != self.hub.process:
            table.heard_presence(sender, [s for s in note.get("seats", []) if isinstance(s, int)])
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
            held = await self.hub.hold_lease(table_id)
            if held and not table.driving:
                if await table.sync():  # what it missed (a note lost while Redis was away): told here or never
                    await table.broadcast()
                table._note_position()
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
                gone.append(table_id)
        return gone

    async def _sweeps(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("the expiry sweep failed")
                self.metrics.errors.inc(where="sweep")

    async def sweep(self) -> dict[str, list[str]]:
        """Remove from the hub (and from memory) the tables nobody used for longer than their kind may
        stay (``config.expiry()``): finished, or abandoned (no socket open, no action). The tables with
        a socket open here are marked used first. Returns the ids removed, by kind."""
        now = self.clock()
        await self.hub.touch([i for i, t in self.tables.items() if t.clients])
        gone = await self.hub.expire({kind: now - seconds for kind, seconds in self.config.expiry().items()})
        for kind, ids in gone.items():
            self.metrics.expired.inc(len(ids), kind=kind)
            for table_id in ids:
                table = self.tables.get(table_id)
                if table is not None and not table.clients:
                    await table.stop()
                    self.tables.pop(table_id, None)
        if gone:
            log.info("expired %s", ", ".join(f"{len(ids)} {kind}" for kind, ids in sorted(gone.items())))
        return gone

    async def close(self) -> None:
        for task in (self._lease_task, self._sweep_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for table in self.tables.values():
            await table.stop()


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
