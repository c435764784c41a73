"""The room: a table's rules apart from the cards, as a reducer (state + message -> state + events).

A table's state (``Room``) is its meta (kind, seed, settings, seats, host, lobby or playing, who has
read the last deal's score, the seats a bot stands in for, the people gone from the table) and its
match. ``reduce(room, message)`` checks a message against the room's rules (the lobby's seats and
the host's powers, the rules of a table's settings, the reading of a deal's score before the next
one, the stand-ins, who is gone, what a chat line may hold) and the match's (``Match.apply``), and
returns the next room and what must follow: a ``Write`` to the store (the actions from a number, the
meta when it changed), the seat a person took, a chat line to pass on. A message refused raises
``Refusal`` with the rule, and the room it was given is left as it was. ``reduce`` works on a copy
(``Match.copy`` costs microseconds) and leaves the room it was given as it was; a table's driver,
which keeps one room a table for hours, reduces in place and takes back a change its store refuses
(``Table.mutate``).

Nothing here waits, reads a clock or draws at random (a new game's seed and a chat line's time come
in the message): the room's rules are tested without a socket or an event loop
(``tests/test_room.py``). ``belote.server.tables.Table`` drives a room: it takes the table's lock,
reduces, writes, then tells the processes and the clients; its bots and timers send messages like a
person's (``BotPlay``, ``StandIn``, ``Resume``) when ``Room.next_job`` says their time has come, and
tell it when a person's last socket closed (``Gone``, with the time: the room has no clock).
Every option of a table is written once: the rule options are ``belote.rules.OPTIONS``, the others
``TABLE_SETTINGS`` below.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from belote.game import SEATS, Action, IllegalAction, Match, Refusal, action_str, parse_action
from belote.rules import OPTIONS, OptionSpec, Rules
from belote.server.wire import ClientMessage, given, has_refused_characters, key, new_token, same_secret

#: The seat given to a person who names none (a solo table's person, a private table's host, a guest):
#: South first, then North, East, West; at two hands, where only N and E exist, North.
SEAT_ORDER = (2, 0, 1, 3)

SPEEDS = {  # seconds a bot waits before acting, and a finished trick stays on the table
    "slow": (1.4, 2.6),
    "normal": (0.8, 1.6),
    "fast": (0.25, 0.7),
}
STRENGTHS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("heuristic", {}),
    "normal": ("search", {}),
    # four times the thinking of normal: the worlds of each card and of each bid, and the nodes to solve them
    "strong": ("search", {"think": 4}),
}
#: The settings of a table that are not rules: the bots, the page's language, the turn timer.
TABLE_SETTINGS: tuple[OptionSpec, ...] = (
    OptionSpec("strength", "choice", default="normal", label="settingsStrength", group="bots",
               help="How well the bots play.", choices=tuple(STRENGTHS)),
    OptionSpec("speed", "choice", default="normal", label="settingsSpeed", group="bots",
               help="How long the bots wait before they play.", choices=tuple(SPEEDS)),
    OptionSpec("hints", "bool", default=False, label="settingsHints", group="bots",
               help="At a solo table: whether the person may ask the search bot for a hint (counted)."),
    OptionSpec("lang", "choice", default="en", label="settingsLang", group="table",
               help="The language of the page.", choices=("en", "fr")),
    OptionSpec("turn_timer", "int", default=30, label="settingsTimer", group="table",
               help="Seconds a person has to act before a bot acts for them.", min=5, max=600),
    OptionSpec("rated", "bool", default=False, label="settingsRated", group="table",
               help="At a private table: whether its match moves the ratings of its people (docs/players.md)."),
    OptionSpec("open", "bool", default=False, label="settingsOpen", group="table",
               help="At a private table: whether its lobby is listed among the open tables, for anybody to join."),
)  # fmt: skip
#: Rule options no table offers yet (docs/protocol.md lists a table's settings): a host keeps their defaults.
NOT_AT_A_TABLE = ("litige", "declaration_tie", "declaration_card_reuse")
#: The rule options a host chooses: fields of ``belote.rules.Rules`` of the same names, with their
#: defaults and their checks (``belote.rules.OPTIONS``). Options a game does not use are ignored by the engine.
RULE_SETTINGS = tuple(spec.name for spec in OPTIONS if spec.name not in NOT_AT_A_TABLE)
#: Where a table's match differs from the rules' own defaults: the product's match is to 1,000
#: points (the first team to 1,000 wins, as the product describes it); the rules, the CLI and the
#: score sheet keep the rule book's 501. Solo, private and matchmade tables all start from here.
TABLE_RULE_DEFAULTS: dict[str, Any] = {"target": 1000}
DEFAULT_SETTINGS: dict[str, Any] = {
    **{name: getattr(Rules(), name) for name in RULE_SETTINGS},
    **TABLE_RULE_DEFAULTS,
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


def new_match(settings: dict[str, Any], seed: int, one_deal: bool = False) -> Match:
    """The match a table plays: its rules, its seed, and the first dealer drawn from the seed;
    ``one_deal``: a tournament's board, one deal whatever its outcome."""
    rules = rules_of(settings)
    return Match(rules, seed=seed, first_dealer=seed % rules.players, one_deal=one_deal)


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
    seat = seat_letter(value)
    check_seat(seat, players)
    return seat


def seat_letter(value: Any) -> int:
    """The seat of a letter N, E, S or W (whether the table's game has it is the room's to say)."""
    if not isinstance(value, str) or len(value) != 1 or value not in SEATS:
        raise IllegalAction("a seat is N, E, S or W", "bad_seat")
    return SEATS.index(value)


def any_seat_letter(value: Any) -> int | None:
    """A seat letter, or None (any seat)."""
    return None if value is None else seat_letter(value)


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


@dataclass
class Seat:
    token: str | None  # the secret of the person sitting there; None for a bot's seat
    name: str
    bot: str | None = None  # the bot's name when a bot plays the seat
    bot_options: dict[str, Any] = field(default_factory=dict)
    #: An outside bot (a program with the seat's token, ``SeatBot``): it plays through the same
    #: messages as a person, but nobody waits for it to read a deal's score.
    outside: bool = False
    #: The identity of the person sitting there (``belote.server.players``), when they gave one.
    player: str | None = None

    def to_meta(self) -> dict[str, Any]:
        out: dict[str, Any] = {"token": self.token, "name": self.name, "bot": self.bot, "bot_options": self.bot_options}
        if self.outside:
            out["outside"] = True
        if self.player is not None:
            out["player"] = self.player
        return out

    @classmethod
    def from_meta(cls, data: dict[str, Any]) -> Seat:
        return cls(
            data["token"],
            data["name"],
            data.get("bot"),
            dict(data.get("bot_options") or {}),
            bool(data.get("outside")),
            data.get("player"),
        )


def bot_seat(name: str, strength: str) -> Seat:
    """A seat played by the bot of a strength (``easy``, ``normal``, ``strong``), called ``name``."""
    bot, options = STRENGTHS[strength]
    return Seat(None, name, bot, dict(options))


def folded_name(name: str) -> str:
    """A name as it reads: case and accents aside (``folded_name("Léa") == "lea"``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(c))


def same_name(a: str, b: str) -> bool:
    """Whether two names read alike: case and accents aside (``lea`` is ``Léa``).

    >>> same_name("LEA", "Léa"), same_name("Louis", "Louise")
    (True, False)
    """
    return folded_name(a) == folded_name(b)


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
    #: The people gone from a shared table (``Gone``): seat -> when their last socket closed (unix
    #: milliseconds). Public (every page shows it), and a bot stands in ``turn_timer`` seconds after.
    away: dict[int, int] = field(default_factory=dict)
    #: Hints each seat asked for in this match (``Hint``): kept here, so a reload still counts them.
    hints: dict[int, int] = field(default_factory=dict)
    #: Whether a person of the table has come to it (joined or sent a message): False at a table the
    #: queue has just formed, whose people have yet to join it. Its bots wait for them.
    arrived: bool = True
    #: A table the queue formed that none of its people came to within the turn timer: nothing is
    #: played there (``Room.active`` is false) and it expires soon (``store.stored_kind``). A person
    #: of it who still comes takes it up where it was.
    abandoned: bool = False
    #: A board of a duplicate tournament (kind ``tournament``): ``{"tournament", "board", "entrant"}``.
    #: Its match is that one deal (``Match(one_deal=True)``); no hint, no new game, no settings.
    board: dict[str, Any] | None = None
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
            "away": {SEATS[s]: at for s, at in sorted(self.away.items())},
            "hints": {SEATS[s]: n for s, n in sorted(self.hints.items())},
            "arrived": self.arrived,
            "abandoned": self.abandoned,
            **({"board": self.board} if self.board is not None else {}),
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
            away={SEATS.index(k): int(at) for k, at in (data.get("away") or {}).items()},
            hints={SEATS.index(k): int(n) for k, n in (data.get("hints") or {}).items()},
            arrived=bool(data.get("arrived", True)),
            abandoned=bool(data.get("abandoned", False)),
            board=dict(data["board"]) if isinstance(data.get("board"), dict) else None,
            version=int(data.get("version", 0)),
        )

    @property
    def open_lobby(self) -> bool:
        """A private table's lobby its host opened to all (``settings.open``): listed for anybody to join."""
        return self.kind == "private" and self.status == "lobby" and bool(self.settings.get("open"))

    def copy(self) -> Meta:
        """A meta that changes apart from this one."""
        seats = {s: replace(seat, bot_options=dict(seat.bot_options)) for s, seat in self.seats.items()}
        return replace(
            self,
            settings=dict(self.settings),
            seats=seats,
            acks=list(self.acks),
            standin=list(self.standin),
            away=dict(self.away),
            hints=dict(self.hints),
        )

    def people(self) -> list[int]:
        """The seats played through a token: people, and outside bots."""
        return [s for s, seat in self.seats.items() if seat.bot is None]

    def readers(self) -> list[int]:
        """The people a deal's score waits for: not the outside bots."""
        return [s for s, seat in self.seats.items() if seat.bot is None and not seat.outside]

    def missing(self, seat: int) -> bool:
        """Whether the room has the person of ``seat`` as not there: a bot stands in for them, they
        are gone, or none of the table's people has come yet (``Back`` says they are)."""
        return seat in self.standin or seat in self.away or not self.arrived or self.abandoned

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
            if s in self.away:
                self.away[to] = self.away.pop(s)
            if self.host == s:
                self.host = to


CHAT_MAX = 200
#: The quick reactions, in the order a page offers them: the one list the pages read (GET /api/games),
#: each page drawing and wording them its own way. A name stays once given: a client may send it.
REACTIONS = ("well_played", "bravo", "nice_trick", "thanks", "oops", "sorry", "hurry", "good_game")


# ----------------------------------------------------------------- the room
@dataclass
class Room:
    """A table's state: its meta and its match (None in a private table's lobby)."""

    meta: Meta
    match: Match | None

    def copy(self) -> Room:
        return Room(self.meta.copy(), None if self.match is None else self.match.copy())

    @property
    def active(self) -> bool:
        """Whether the table goes on: a lobby, or a match under way that is not abandoned."""
        if self.meta.abandoned:
            return False
        return self.meta.status == "lobby" or (self.match is not None and not self.match.over)

    @property
    def shared(self) -> bool:
        """A table of several people (the turn timer runs, the next deal waits for everybody): not a
        solo table, nor a tournament's board (one person against bots, who takes their time)."""
        return self.meta.kind not in ("solo", "tournament")

    @property
    def n_actions(self) -> int:
        return 0 if self.match is None else self.match.action_count

    def deal_just_ended(self) -> bool:
        m = self.match
        return m is not None and not m.over and not m.deal.bids and len(m.deals) > 1

    @property
    def waiting_continue(self) -> bool:
        """Whether the next deal waits for people to read the last one's score."""
        m = self.match
        return (
            m is not None
            and self.deal_just_ended()
            and self.meta.continued < len(m.deals) - 1
            and any(s not in self.meta.standin for s in self.meta.readers())
        )

    def unread(self, exclude: int | None = None) -> list[int]:
        """The people (not played by a bot) who have not read the last deal's score."""
        meta = self.meta
        return [s for s in meta.readers() if s != exclude and s not in meta.standin and s not in meta.acks]

    def seat_of_token(self, token: str) -> int | None:
        for s, seat in self.meta.seats.items():
            if seat.token is not None and same_secret(seat.token, token):
                return s
        return None

    def next_job(self, elapsed: float, people_here: bool, pace: float = 1.0, now: int | None = None) -> Job | None:
        """What the table waits for, ``elapsed`` seconds after its last change: a bot to play, a
        person's turn or everybody's reading of the score to time out, or a bot to stand in for a
        person gone from the table (``Gone``); None when only people can move it. ``people_here``:
        whether a person has a socket open on it (a solo table's bots wait for their person);
        ``pace`` multiplies the bots' pauses; ``now`` is the time (unix milliseconds) the absences
        are counted to (None: they are not counted).

        >>> room = Room(Meta("private", 1, check_settings({"turn_timer": 30}), {}), None)
        >>> room.match = new_match(room.meta.settings, 1)
        >>> room.meta.seats = {s: Seat(f"t{s}", f"P{s}") for s in range(4)}
        >>> room.next_job(4.0, True, now=60_000)  # the first bidder, South, has 26 seconds left
        Job(wait=26.0, kind='timeout', seat=2)
        >>> room.meta.away = {3: 50_000}  # West's last socket closed ten seconds ago
        >>> room.next_job(4.0, True, now=60_000)  # a bot stands in for West in 20
        Job(wait=20.0, kind='timeout', seat=3)

        A table the queue formed waits for its people, its bots idle: once the turn timer has passed
        and none has come, its first person's time is out, and ``StandIn`` abandons it.

        >>> room.meta.away, room.meta.arrived = {}, False
        >>> room.next_job(4.0, False, now=60_000)
        Job(wait=26.0, kind='timeout', seat=0)
        """
        m = self.match
        if m is None or m.over or self.meta.abandoned:
            return None
        if not self.shared and not people_here:
            return None
        if not self.meta.arrived:
            people = sorted(self.meta.people())
            return Job(float(self.meta.settings["turn_timer"]) - elapsed, "timeout", people[0]) if people else None
        job = self._turn_job(elapsed, pace)
        for seat, wait in self._absences(now):
            if job is None or wait < job.wait:
                job = Job(wait, "timeout", seat)
        return job

    def standin_in(self, seat: int, elapsed: float, now: int) -> float | None:
        """Seconds until a bot stands in for the person of ``seat``, gone from the table: when their
        absence has lasted the turn timer, or when their turn times out, whichever comes first (0
        when it is due). None when they are not gone, a bot already plays for them, or nothing is
        being played (a lobby, a match over, a solo table)."""
        waits = [wait for s, wait in self._absences(now) if s == seat]
        if not waits:
            return None
        turn = self._turn_job(elapsed, 1.0)
        if turn is not None and turn.kind == "timeout" and turn.seat == seat:
            waits.append(turn.wait)
        return max(0.0, min(waits))

    def _absences(self, now: int | None) -> list[tuple[int, float]]:
        """The people gone from a shared table whose match goes on, no bot playing for them yet, and
        the seconds until one does: the turn timer after their last socket closed."""
        m = self.match
        if now is None or not self.shared or m is None or m.over:
            return []
        timer_ms = 1000 * int(self.meta.settings["turn_timer"])
        return [
            (seat, (at + timer_ms - now) / 1000)
            for seat, at in sorted(self.meta.away.items())
            if seat not in self.meta.standin
        ]

    def _turn_job(self, elapsed: float, pace: float) -> Job | None:
        """What the turn waits for: a bot to play, a person's turn or the reading of the score to time out."""
        m = self.match
        assert m is not None
        timer = float(self.meta.settings["turn_timer"])
        delay, trick_pause = (d * pace for d in SPEEDS[self.meta.settings["speed"]])
        if self.waiting_continue:
            return Job(timer - elapsed, "continue", None) if self.shared else None
        seat = m.to_move
        if seat is None:
            return None
        if self.meta.seats[seat].bot is not None or seat in self.meta.standin:
            deal = m.deal
            finished_trick = deal.phase == "play" and not deal.trick and bool(deal.tricks)
            return Job(delay + (trick_pause if finished_trick else 0.0) - elapsed, "bot", seat)
        if self.shared:
            return Job(timer - elapsed, "timeout", seat)
        return None


class Job(NamedTuple):
    """What a table's driver waits for: in ``wait`` seconds (from now), a ``bot`` to play at ``seat``,
    a person's turn or absence to time out (``timeout``: a bot stands in for them), or everybody's
    reading of the score (``continue``).
    A tuple: the driver of every table holds one while it waits, and a tuple of plain values is no
    work for the garbage collector."""

    wait: float
    kind: str
    seat: int | None


# ----------------------------------------------------------------- messages
# A person's messages are client messages (``belote.server.wire.ClientMessage``): each declares its
# wire name, the protocol's words for it and where each field comes from, and the table of client
# messages (``belote.server.messages``) parses the socket's JSON into them. The driver's (``BotPlay``,
# ``StandIn``, ``Resume(None)``) and the HTTP routes' (``Sit``) are made by the server itself.
SEAT = {"$ref": "common.json#/$defs/seat"}
NAME = {"$ref": "common.json#/$defs/name"}
SETTINGS = {"$ref": "common.json#/$defs/settings"}
#: The longest action a client may send: the longest bid (``capotNT``, ``surcoinche``) and then some.
MAX_ACTION = 24  # 10H/quiet/nobelote: a card and what its player keeps quiet


def read_action(text: Any) -> Action:
    """A card or a bid as a client sends it; refused when it is not text, or names neither."""
    if not isinstance(text, str) or len(text) > MAX_ACTION:
        raise IllegalAction(
            "an action is a card such as JH, or pass, take, a suit letter, "
            "or in Coinche a contract such as 110H, coinche or surcoinche",
            "not_an_action",
            text=text[:16] if isinstance(text, str) else repr(text)[:16],
        )
    return parse_action(text)


def as_sent(value: Any) -> Any:
    """A value the room checks itself (settings, a chat line): taken as it comes."""
    return value


@dataclass(frozen=True)
class Act(ClientMessage):
    """A person plays ``action`` (a bid or a card) from ``seat``; acting is also reading the score."""

    wire = "act"
    about = "Play a card or bid."
    seat: int = given("seat")
    action: Action = key(
        read_action,
        {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_ACTION,
            "description": "A card (JH, TH, 10h), with what its player keeps quiet (JH/quiet, KH/nobelote), "
            "or a bid (pass, take, a suit letter, 110H, coinche...)",
        },
    )


@dataclass(frozen=True)
class BotPlay:
    """The bot of ``seat`` (or the bot standing in for its absent person) plays ``action``."""

    seat: int
    action: Action


@dataclass(frozen=True)
class Back(ClientMessage):
    """The person of ``seat`` is here again: no bot plays for them from now on."""

    wire = "back"
    about = "Take the seat back from the bot that played for you."
    seat: int = given("seat")


@dataclass(frozen=True)
class StandIn:
    """The person of ``seat`` let their turn time out: a bot plays for them until they are back."""

    seat: int


@dataclass(frozen=True)
class Gone:
    """The last socket of ``seat``'s person at the table closed at ``at`` (unix milliseconds). At a
    shared table everybody is shown that they are gone, and a bot stands in for them when their
    absence has lasted the turn timer (sooner if their turn times out first) until they are back:
    their join (``Back``) or any message of theirs. A solo table's person is not marked: its bots
    wait for them."""

    seat: int
    at: int


@dataclass(frozen=True)
class Resume(ClientMessage):
    """``seat`` has read the deal's score (None: the time to read it ran out for everybody)."""

    wire = "continue"
    about = "The deal's score has been read."
    seat: int | None = given("seat")


@dataclass(frozen=True)
class NewGame(ClientMessage):
    """``seat`` asks for a new match at a playing table, of ``settings`` (None: the table's), dealt from ``seed``."""

    wire = "new_game"
    about = "Solo: a new match; private table, host, once the match is over: a new match at the same seats."
    seat: int = given("seat")
    settings: Any = key(as_sent, SETTINGS, required=False)
    seed: int = given("seed")


@dataclass(frozen=True)
class Sit:
    """A person with a new seat ``token`` sits in a private table's lobby (``seat`` None: any)."""

    token: str
    name: str
    seat: int | None
    player: str | None = None  # the person's identity, when they gave one


@dataclass(frozen=True)
class SeatBot(ClientMessage):
    """The host (``seat``) gives the free seat ``to`` (None: the first free one) to an outside bot
    called ``name``, which joins with the new seat ``token`` like a person."""

    wire = "bot_seat"
    about = (
        "Lobby of a private table, host only: give a free seat (the first free one when none is named) to an "
        "outside bot called name; answered by bot_token."
    )
    seat: int = given("seat")
    token: str = given("token")
    name: str = key(check_name, NAME)
    to: int | None = key(any_seat_letter, SEAT, name="seat", required=False)


@dataclass(frozen=True)
class Move(ClientMessage):
    """A person moves from ``seat`` to the free seat ``to`` in the lobby."""

    wire = "seat"
    about = "Lobby: move to a free seat."
    seat: int = given("seat")
    to: int = key(seat_letter, SEAT, name="seat")


@dataclass(frozen=True)
class Leave(ClientMessage):
    """A person gives up their seat in the lobby (their token opens nothing any more)."""

    wire = "leave"
    about = "Lobby, not the host: give the seat up."
    seat: int = given("seat")


@dataclass(frozen=True)
class Configure(ClientMessage):
    """The host sets the rules of the game in the lobby (``settings`` as sent: the room checks them)."""

    wire = "settings"
    about = "Lobby, host only: the table's settings."
    seat: int = given("seat")
    settings: Any = key(as_sent, SETTINGS)


@dataclass(frozen=True)
class Start(ClientMessage):
    """The host starts the game: bots take the free seats."""

    wire = "start"
    about = "Lobby, host only: start the match."
    seat: int = given("seat")


@dataclass(frozen=True)
class Hint(ClientMessage):
    """The person of ``seat`` asks for a hint: counted for the match (the answer is worked out by the
    table's driver, from the seat's view, once the room has taken the request)."""

    wire = "hint"
    about = (
        "Solo table with the setting hints on, at the person's turn: ask for the search bot's card or bid from the "
        "seat's view (answered by hint; counted in the state's hints)."
    )
    seat: int = given("seat")


@dataclass(frozen=True)
class Say(ClientMessage):
    """A chat line of ``text`` from ``seat`` (None: a spectator); ``at`` is the time in unix milliseconds."""

    wire = "chat"
    about = "A line of table chat (a spectator's too)."
    spectators = True
    seat: int | None = given("seat")
    text: Any = key(as_sent, {"type": "string", "minLength": 1, "maxLength": CHAT_MAX})
    at: int = given("now")


@dataclass(frozen=True)
class React(ClientMessage):
    """One of the ``REACTIONS`` from ``seat``, at ``at`` (unix milliseconds): a chat line without text."""

    wire = "react"
    about = "A quick reaction (a spectator's too)."
    spectators = True
    seat: int | None = given("seat")
    reaction: Any = key(as_sent, {"$ref": "common.json#/$defs/reaction"})
    at: int = given("now")


Message = (
    Act
    | BotPlay
    | Back
    | StandIn
    | Gone
    | Resume
    | NewGame
    | Sit
    | SeatBot
    | Move
    | Leave
    | Configure
    | Start
    | Hint
    | Say
    | React
)
#: The messages a person sends from their socket, in the order the protocol lists them.
PERSON_MESSAGES: tuple[type[ClientMessage], ...] = (
    Move, Configure, Start, Leave, Back, Say, React, Act, Resume, NewGame, SeatBot, Hint
)  # fmt: skip


# ----------------------------------------------------------------- events
@dataclass(frozen=True)
class Write:
    """What the store must keep: the ``actions`` from number ``start`` (all of them, the old ones
    dropped, when ``reset``: a new match), and the meta when ``meta`` (its version was bumped)."""

    start: int
    actions: tuple[str, ...]
    meta: bool
    reset: bool


@dataclass(frozen=True)
class Seated:
    """The seat a person took (``Sit``) or moved to (``Move``), or an outside bot was given (``SeatBot``)."""

    seat: int


@dataclass(frozen=True)
class Said:
    """A chat line to keep and pass on to the table."""

    line: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """A message for the sender alone (the table's id is added by its driver): ``bot_token``, ``left``."""

    message: dict[str, Any]


@dataclass(frozen=True)
class Left:
    """The person of ``seat`` left the table (``Leave``): their socket no longer watches it."""

    seat: int


@dataclass(frozen=True)
class Hinted:
    """The room took ``seat``'s hint request: its answer is to be worked out, for the asking socket alone."""

    seat: int


Event = Write | Seated | Said | Reply | Left | Hinted


def reduce(room: Room, message: Message, in_place: bool = False) -> tuple[Room, list[Event]]:
    """The room after ``message``, and what must follow; raises ``Refusal`` (with the rule) for a
    message the room's rules or the match's refuse, and the room is then as it was.

    ``room`` itself is never changed, unless ``in_place``: then the room returned is ``room``, changed
    (a refusal still changes nothing: every rule is checked before anything is changed, and
    ``Match.apply`` changes nothing when it refuses). A table's driver reduces in place: a copy of
    every room that lives until the table's next action would reach Python's oldest generation and
    die there, and its full collections would pause every table (tests/test_room.py holds both
    ways to the same rooms and events)."""
    if isinstance(message, Say | React):
        return room, [Said(_chat_line(room, message))]
    game, start = room.meta.game, room.n_actions
    new = room if in_place else room.copy()
    events: list[Event] = []
    meta_changed = _change(new, message, events)
    reset = new.meta.game != game
    if reset:
        start = 0
    actions = () if new.match is None else tuple(action_str(a) for a in new.match.actions_from(start))
    if not meta_changed and not actions and not reset:
        return room, events
    meta = meta_changed or reset or (new.match is not None and new.match.over)
    if meta:
        new.meta.version += 1
    return new, [Write(start, actions, meta, reset), *events]


def _change(room: Room, message: Message, events: list[Event]) -> bool:
    """Apply ``message`` to ``room`` (a copy); whether the meta changed."""
    m = room.meta
    match message:
        case Act(seat, action):
            match = _playing(room)
            if room.waiting_continue:
                # Acting is reading the score; the next deal starts once every person has.
                unread = room.unread(exclude=seat)
                if unread:
                    who = " and ".join(SEATS[s] for s in unread)
                    raise IllegalAction(
                        f"the next deal starts when everybody has read the score: waiting for {who}",
                        "waiting_for_others",
                        seats=[SEATS[s] for s in unread],
                    )
                match.apply(action, seat=seat)
                m.continued, m.acks = len(match.deals) - 1, []
                _back(m, seat)
                return True
            match.apply(action, seat=seat)
            return _back(m, seat)
        case BotPlay(seat, action):
            _playing(room).apply(action, seat=seat)
            return False
        case Back(seat):
            return _back(m, seat)
        case StandIn(seat):
            _person(m, seat)
            if not m.arrived:  # none of the table's people came within the turn timer: nobody to play for
                m.abandoned = True
                return True
            if seat in m.standin:
                return False
            m.standin.append(seat)
            return True
        case Gone(seat, at):
            _person(m, seat)
            if not room.shared or seat in m.away:  # gone since the first time it was said
                return False
            m.away[seat] = at
            return True
        case Resume(seat):
            changed = _back(m, seat) if seat is not None else False
            if not room.waiting_continue or room.match is None:
                return changed
            if seat is not None and seat not in m.acks:
                m.acks.append(seat)
                changed = True
            if seat is None or not room.unread():
                m.continued, m.acks = len(room.match.deals) - 1, []
                changed = True
            return changed  # read again by a seat that had: nothing to write, nobody to tell
        case NewGame(seat, settings, seed):
            _new_game(room, seat, settings, seed)
            return True
        case Sit(token, name, seat, player):
            events.append(Seated(_sit(m, token, name, seat, player=player)))
            return True
        case SeatBot(seat, token, name, to):
            if to is not None:
                check_seat(to, m.players)
            _require_host(m, seat)
            at = _sit(m, token, name, to, "bot_seat")
            m.seats[at].outside = True
            events += [Seated(at), Reply({"type": "bot_token", "seat": SEATS[at], "token": token})]
            return True
        case Move(seat, to):
            check_seat(to, m.players)
            _in_lobby(m, "seats can change only in the lobby", "seat")
            _person(m, seat)
            check_seat(to, m.players)
            if to in m.seats:
                raise IllegalAction(f"{SEAT_NAMES[to]} is taken: choose a free seat", "seat_taken", seat=SEATS[to])
            m.seats[to] = m.seats.pop(seat)
            m.away.pop(seat, None)  # their move says they are here
            if m.host == seat:
                m.host = to
            events.append(Seated(to))
            return True
        case Leave(seat):
            _in_lobby(m, "a seat is left only in the lobby", "leave")
            if m.host == seat:
                raise IllegalAction("the host stays in the lobby: the table is theirs", "host_stays")
            _person(m, seat)
            del m.seats[seat]
            m.away.pop(seat, None)
            events += [Left(seat), Reply({"type": "left"})]
            return True
        case Configure(seat, sent):
            settings = check_settings(sent, m.settings)
            _require_host(m, seat)
            if m.status != "lobby":
                raise IllegalAction("the rules are set before the game starts", "game_started", request="settings")
            m.fit(settings)
            m.settings = settings
            return True
        case Hint(seat):
            check_hint(room, seat)
            m.hints[seat] = m.hints.get(seat, 0) + 1
            events.append(Hinted(seat))
            return True
        case Start(seat):
            _require_host(m, seat)
            if m.status != "lobby":
                raise IllegalAction("the game has already started", "game_started", request="start")
            fill_with_bots(m.seats, m.players, m.settings["strength"], m.seed)
            m.status, m.continued = "playing", 0
            room.match = new_match(m.settings, m.seed)
            return True
    raise TypeError(f"not a message of the room: {message!r}")


def check_hint(room: Room, seat: int) -> None:
    """Refuses a hint but to the person of a solo table whose setting ``hints`` is on, at their turn:
    a hint is the search bot's advice against bots, never help against other people."""
    if room.meta.kind != "solo":  # a tournament's board too: its bots are the field's
        raise IllegalAction("hints are given only at a table against bots", "hints_solo_only")
    if not room.meta.settings.get("hints"):
        raise IllegalAction("hints are off at this table: turn them on in the settings", "hints_off")
    _person(room.meta, seat)
    match = _playing(room)
    turn = match.to_move
    if turn != seat:
        who = "nobody" if turn is None else SEATS[turn]
        raise IllegalAction(
            f"a hint is for your turn: it is {who}'s", "not_your_turn", seat=who, phase=match.deal.phase
        )


def _playing(room: Room) -> Match:
    """The match a card or a bid is played in: refused in the lobby and once the match is over."""
    if room.match is None:
        raise IllegalAction("the game has not started: the host starts it", "not_started")
    if room.match.over:
        raise IllegalAction("the match is over: start a new game", "match_over")
    return room.match


def _back(meta: Meta, seat: int) -> bool:
    """The person of ``seat`` is here: no bot plays for them, they are not gone, and the table has
    a person (an abandoned one goes on); whether that changed the meta."""
    changed = meta.away.pop(seat, None) is not None
    if seat in meta.standin:
        meta.standin.remove(seat)
        changed = True
    if not meta.arrived or meta.abandoned:
        meta.arrived, meta.abandoned = True, False
        changed = True
    return changed


def _person(meta: Meta, seat: int) -> None:
    """Refuses a message for a seat where no person sits (a seat's messages come from its person)."""
    if seat not in meta.people():
        raise IllegalAction(
            f"nobody sits at {SEAT_NAMES[seat]}", "no_such_seat", seat=SEATS[seat], seats=list(SEATS[: meta.players])
        )


def _in_lobby(meta: Meta, words: str, request: str) -> None:
    if meta.status != "lobby":
        raise IllegalAction(f"the game has started: {words}", "game_started", request=request)


def _require_host(meta: Meta, seat: int) -> None:
    if meta.kind != "private" or meta.host != seat:
        raise IllegalAction("only the host of a private table can do that", "not_host")


def _sit(m: Meta, token: str, name: str, seat: int | None, request: str = "sit", player: str | None = None) -> int:
    if m.status != "lobby":
        raise IllegalAction("the game has started: every seat is taken", "game_started", request=request)
    if player is not None and any(s.player == player for s in m.seats.values()):
        raise IllegalAction("you already sit at this table: one seat a person", "already_seated")
    players = m.players
    free = [s for s in SEAT_ORDER if s < players and s not in m.seats]
    if not free:
        raise IllegalAction(f"the table is full: {players} people sit there", "table_full", players=players)
    if seat is None:
        seat = free[0]
    check_seat(seat, players)
    if seat in m.seats:
        raise IllegalAction(f"{SEAT_NAMES[seat]} is taken: choose a free seat", "seat_taken", seat=SEATS[seat])
    m.seats[seat] = Seat(token, name, player=player)
    return seat


def _new_game(room: Room, seat: int, sent: Any, seed: int) -> None:
    """A new match of the settings sent (None: the table's), refused at an online table (it plays one
    match), and at a private one but to its host once the match is over."""
    m = room.meta
    if m.kind == "online":
        raise IllegalAction("an online table plays one match: press Play online for another", "online_one_match")
    if m.kind == "tournament":
        raise IllegalAction("a tournament's board is one deal, played once", "tournament_board")
    if m.kind == "private":
        if m.host != seat:
            raise IllegalAction("only the host of a private table can do that", "not_host")
        if room.match is not None and not room.match.over:
            raise IllegalAction("the match is not over: a new one starts when it ends", "match_not_over")
    settings = check_settings(sent, m.settings)
    if m.status == "lobby":  # a private table's match begins with the host's start, never before
        raise IllegalAction("the game has not started: the host starts it from the lobby", "not_started")
    players = rules_of(settings).players
    if m.kind == "solo" and players != m.players:  # the person takes the solo seat of the new game
        (person,) = (sitting for sitting in m.seats.values() if sitting.bot is None)
        m.seats = {person_seat(players): person}
    m.fit(settings)
    m.seed = seed
    fill_with_bots(m.seats, players, settings["strength"], m.seed)  # the bots kept keep their names
    m.game += 1
    m.settings = settings
    bot, options = STRENGTHS[settings["strength"]]
    for sitting in m.seats.values():
        if sitting.bot is not None:
            sitting.bot, sitting.bot_options = bot, dict(options)
    m.continued, m.acks, m.standin, m.hints = 0, [], [], {}
    room.match = new_match(m.settings, m.seed)


def _chat_line(room: Room, say: Say | React) -> dict[str, Any]:
    """The chat line a ``Say`` or a ``React`` makes, refused for an unknown reaction and for text that
    is empty, too long, or holds control or bidi-override characters. A spectator's line has no seat
    and is marked ``spectator``; its name is the one the spectator joined under, which the table
    knows (``Table``: their socket), or None."""
    text, reaction = (None, say.reaction) if isinstance(say, React) else (say.text, None)
    if isinstance(say, React):
        if reaction not in REACTIONS:
            raise IllegalAction(f"the reactions are: {', '.join(REACTIONS)}", "bad_reaction", reactions=list(REACTIONS))
    else:
        if not isinstance(text, str) or not text.strip():
            raise IllegalAction(f"a chat line is text of 1 to {CHAT_MAX} characters", "bad_chat", max=CHAT_MAX)
        text = " ".join(text.split())
        if has_refused_characters(text):
            raise IllegalAction("a chat line cannot hold control characters", "chat_control_characters")
        if len(text) > CHAT_MAX:
            raise IllegalAction(f"a chat line is at most {CHAT_MAX} characters", "chat_too_long", max=CHAT_MAX)
    said = {"text": text, "reaction": reaction, "at": say.at}
    if say.seat is None:
        return {"type": "chat", "seat": None, "name": None, **said, "spectator": True}
    return {"type": "chat", "seat": SEATS[say.seat], "name": room.meta.seats[say.seat].name, **said}
