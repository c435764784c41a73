"""Players who come back: an identity without sign-up, what a finished match does to it, its profile.

An identity is made on a first visit: a random secret that the browser keeps (the store has only its
SHA-256 digest: 128 random bits need no slow hash) and a display name the player picks, checked as
every name (``room.check_name``) and made unique by a tag: ``Léa#4821`` (``handle``). It is carried
to another device by a one-time transfer code (``transfer`` / ``claim``: ten minutes, used once,
shown as a link and a QR code), or by a password (Argon2id through argon2-cffi, docs/players.md says
why) with ``login``. Every device has a secret of its own. ``delete`` removes everything personal.

An identity is optional everywhere: a seat names one (``Seat.player``) when the person who took it
gave their secret, and nothing else changes at the table. A finished match (``finish``) keeps its
summary for each identity that sat at it, adds to their statistics (``player_stats``), and, when
it was between people (``ratings.rated_sides``) at a table that counts (matchmaking, or a private
table its host marked rated), moves their ratings in that game.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from belote.actions import Refusal
from belote.game import SEATS, Match
from belote.ids import new_id
from belote.record import dumps as record_dumps
from belote.record import match_records
from belote.server import player_stats, ratings
from belote.server.player_store import HISTORY, PlayerStore
from belote.server.room import Meta, check_name, folded_name

log = logging.getLogger("belote.players")

#: How long a transfer code may be used, once.
TRANSFER_SECONDS = 600
#: A transfer code: 10 letters and digits that read unambiguously (no 0/O, 1/I/L), about 48 bits;
#: tried at most a few times a minute from one address (``belote serve --tables-per-minute``).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
PASSWORD = (8, 128)
#: Argon2id with argon2-cffi's defaults (RFC 9106's second recommendation: 3 passes, 64 MiB, 4 lanes).
HASHER = PasswordHasher()
RECENT = 20


def digest(secret: str) -> str:
    """The digest the store keeps of a secret or a code."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def handle(player: dict[str, Any]) -> str:
    """``Léa#4821``."""
    return f"{player['name']}#{player['tag']}"


def parse_handle(text: Any) -> tuple[str, int]:
    """The name and tag of a handle ``Name#1234``; refused ``bad_handle`` otherwise.

    >>> parse_handle(" Léa#4821 ")
    ('Léa', 4821)
    """
    if isinstance(text, str):
        name, sep, tag = text.strip().rpartition("#")
        if sep and tag.isascii() and tag.isdigit() and len(tag) == 4 and name.strip():
            return check_name(name), int(tag)
    raise Refusal("a player is named by their name and tag, as Léa#4821", "bad_handle")


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text: Any) -> str:
    """A transfer code as typed: case, spaces and dashes aside."""
    if not isinstance(text, str) or len(text) > 40:
        return ""
    return "".join(c for c in text.upper() if c.isalnum())


def check_password(password: Any) -> str:
    low, high = PASSWORD
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise Refusal(f"a password is {low} to {high} characters", "bad_password", min=low, max=high)
    return password


def public(player: dict[str, Any]) -> dict[str, Any]:
    """What anybody may know of a player: id, name, tag, handle."""
    return {"id": player["id"], "name": player["name"], "tag": player["tag"], "handle": handle(player)}


def own(player: dict[str, Any]) -> dict[str, Any]:
    """What a player's own page knows of them: the public face, and whether a password protects it."""
    return {**public(player), "password": bool(player.get("password"))}


def shown_ratings(held: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A player's ratings as people read them, by game: the number shown, the rated matches, provisional."""
    return {
        g: {"rating": r["rating"], "matches": r["matches"], "provisional": ratings.provisional(r["matches"])}
        for g, r in held.items()
    }


class Players:
    """The identities of a server and what matches do to them, over a ``PlayerStore``."""

    def __init__(self, store: PlayerStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    # ----------------------------------------------------------------- identity
    async def create(self, name: Any) -> tuple[dict[str, Any], str]:
        """A new identity called ``name``: the player and its secret (said once, kept by the browser)."""
        clean = check_name(name)
        secret, player_id = new_id(), new_id()
        tag = await self.store.add_player(player_id, clean, folded_name(clean), digest(secret), self.clock())
        return {"id": player_id, "name": clean, "tag": tag, "password": None}, secret

    async def of_secret(self, secret: Any) -> dict[str, Any] | None:
        if not isinstance(secret, str) or not 10 <= len(secret) <= 64:
            return None
        return await self.store.by_secret(digest(secret))

    async def by_handle(self, text: Any) -> dict[str, Any] | None:
        name, tag = parse_handle(text)
        return await self.store.by_handle(folded_name(name), tag)

    async def rename(self, player: dict[str, Any], name: Any) -> dict[str, Any]:
        clean = check_name(name)
        tag = await self.store.rename(player["id"], clean, folded_name(clean))
        return {**player, "name": clean, "tag": tag}

    async def set_password(self, player: dict[str, Any], password: Any) -> None:
        """Protect the identity with a password (None: remove it)."""
        hashed = None if password is None else await asyncio.to_thread(HASHER.hash, check_password(password))
        await self.store.set_password(player["id"], hashed)

    async def login(self, text: Any, password: Any) -> tuple[dict[str, Any], str] | None:
        """A new device's secret for the identity of handle ``text`` and its password; None when
        either is wrong (the same answer: nobody learns which handles have a password)."""
        player = await self.by_handle(text)
        if not isinstance(password, str) or len(password) > PASSWORD[1]:
            return None
        hashed = None if player is None else player.get("password")
        try:
            # A wrong handle costs the same time as a wrong password.
            await asyncio.to_thread(HASHER.verify, hashed or _dummy(), password)
        except (VerificationError, InvalidHashError):
            return None
        if player is None or hashed is None:
            return None
        secret = new_id()
        await self.store.add_secret(player["id"], digest(secret))
        return player, secret

    async def transfer(self, player: dict[str, Any]) -> tuple[str, float]:
        """A one-time code that carries the identity to another device, and when it expires."""
        code = new_code()
        expires = self.clock() + TRANSFER_SECONDS
        await self.store.add_transfer(digest(code), player["id"], expires)
        return code, expires

    async def claim(self, code: Any) -> tuple[dict[str, Any], str] | None:
        """The identity of a transfer code, with a new secret for this device; None when the code is
        wrong, used or expired."""
        clean = clean_code(code)
        if len(clean) != CODE_LENGTH:
            return None
        player_id = await self.store.take_transfer(digest(clean), self.clock())
        player = None if player_id is None else await self.store.player(player_id)
        if player is None:
            return None
        secret = new_id()
        await self.store.add_secret(player["id"], digest(secret))
        return player, secret

    async def delete(self, player: dict[str, Any]) -> None:
        await self.store.delete_player(player["id"])
        log.info("an identity was deleted with everything it held")

    # ----------------------------------------------------------------- matches
    async def finish(self, table_id: str, meta: Meta, match: Match) -> dict[str, Any] | None:
        """Keep a finished match for the identities that sat at it (once); move their ratings when it
        counts. The match as kept, or None when nobody with an identity sat at it."""
        rules = match.rules
        people = {s: seat.player for s, seat in meta.seats.items() if seat.player is not None}
        if not people:
            return None
        game = str(meta.settings["variant"])
        teams: list[list[ratings.Seat]] = [[] for _ in range(rules.teams)]
        sides: list[list[dict[str, Any]]] = [[] for _ in range(rules.teams)]
        for s in range(rules.players):
            seat = meta.seats[s]
            teams[rules.team(s)].append(seat.player)
            sides[rules.team(s)].append({"seat": SEATS[s], "name": seat.name, "player": seat.player, "bot": seat.bot})
        at = self.clock()
        records = match_records(match)
        summary: dict[str, Any] = {
            "id": f"{table_id}:{meta.game}",
            "game": game,
            "table": table_id,
            "finished": at,
            "rated": False,
            "score": list(match.score),
            "winner": match.winner,
            "sides": sides,
            "deals": len(records),
        }
        new: dict[str, dict[str, Any]] = {}
        if counts(meta) and ratings.rated_sides(teams):
            held = {p: await self.store.ratings(p) for p in set(people.values())}
            before = {p: _rating(r.get(game)) for p, r in held.items()}
            moved = ratings.rate(
                teams, ratings.ranks_of(list(match.score), match.winner), before, meta.settings["strength"]
            )
            changes = {}
            for p, r in moved.items():
                n = int(held[p].get(game, {}).get("matches", 0)) + 1
                new[p] = {**r.to_json(), "matches": n, "rating": ratings.shown(r)}
                changes[p] = {"before": ratings.shown(before[p]), "after": ratings.shown(r)}
            summary["rated"] = True
            summary["changes"] = changes
        stats = {p: player_stats.match_counters(match, s) for s, p in people.items()}
        lines = "".join(record_dumps(r) + "\n" for r in records)
        if not await self.store.finish_match(summary, new, stats, at, lines):
            return None
        return summary

    # ----------------------------------------------------------------- what people read
    async def profile(self, player: dict[str, Any]) -> dict[str, Any]:
        """A player's public profile: name, ratings (provisional or not), statistics by game, the
        rating's history for the chart, recent matches."""
        held = await self.store.ratings(player["id"])
        stats = await self.store.stats(player["id"])
        games = sorted(set(held) | set(stats))
        return {
            **public(player),
            "since": player.get("created"),
            "ratings": shown_ratings(held),
            "stats": {g: player_stats.summary(stats.get(g, {})) for g in games},
            "history": {g: await self.store.history(player["id"], g) for g in held},
            "history_length": HISTORY,
            "recent": await self.store.recent(player["id"], RECENT),
        }


async def queued_as(players: Players, player: dict[str, Any], game: str) -> dict[str, Any]:
    """What the queue keeps of a person with an identity (``matchmaking``): their id, their rating
    in the game (a new player's when none) and the players they blocked, never seated with them."""
    held = (await players.store.ratings(player["id"])).get(game)
    return {
        "player": player["id"],
        "rating": ratings.shown(_rating(held)),
        "blocks": await players.store.blocked(player["id"]),
    }


def counts(meta: Meta) -> bool:
    """Whether a table's match may move ratings: made by the queue, or private and marked rated."""
    return meta.kind == "online" or (meta.kind == "private" and bool(meta.settings.get("rated")))


def _rating(held: dict[str, Any] | None) -> ratings.Rating:
    return ratings.Rating() if held is None else ratings.Rating(float(held["mu"]), float(held["sigma"]))


@functools.cache
def _dummy() -> str:
    """A hash no password matches, verified for a handle without one: the same time either way."""
    return HASHER.hash(secrets.token_hex(16))
