"""The players over HTTP: identities, profiles, leaderboards, friends and blocks (docs/players.md).

A request for one's own identity carries its secret: ``Authorization: Bearer <secret>``; without
it, or with a wrong one, it answers 401 ``no_identity``. Every refusal answers ``{"error", "code",
"args"}`` as the tables' routes do, and changes nothing.

``POST   /api/players``             a new identity: ``{"name"}`` -> ``{"player", "secret"}``
``POST   /api/players/claim``       ``{"code"}``: a transfer code -> ``{"player", "secret"}`` (once)
``POST   /api/players/login``       ``{"handle", "password"}`` -> ``{"player", "secret"}``
``GET    /api/players?handle=H``    the public face of a handle (``Léa#4821``)
``GET    /api/players/{id}``        a public profile: ratings, statistics, history, recent matches
``GET    /api/matches/{id}``        a finished match kept for its players: sides, names, score, ratings moved
``GET    /api/matches/{id}/records`` its deals' records (JSON lines, as a table's), for its review
``GET    /api/leaderboard/{game}``  ``?period=all|week``: the best of a game
``GET    /api/ratings``             the scale: the bots' fixed ratings, the start, the provisional period
``GET    /api/me``                  one's identity, friends (online or not), requests and blocks
``DELETE /api/me``                  delete the identity and everything personal
``POST   /api/me/name``             ``{"name"}``: a new name (and tag when the old one is taken)
``POST   /api/me/password``         ``{"password"}`` (null removes it)
``POST   /api/me/transfer``         a one-time code for another device, its link and QR code (SVG)
``POST   /api/me/friends``          ``{"player": id or handle}``: add a friend (mutual once both did)
``DELETE /api/me/friends/{id}``     remove one
``POST   /api/me/blocks``           ``{"player": id or handle}``: block (never matched, chat hidden)
``DELETE /api/me/blocks/{id}``      unblock
``POST   /api/me/reports``          ``{"player", "reason"?}``: report to the operators (and block)
``POST   /api/me/invite``           ``{"player", "table", "invite"}``: invite a friend to a table (pushed
                                   to their open pages as ``invited``, and kept ten minutes)
``GET    /api/open-tables``         the private lobbies open to all, with their invitations
"""

from __future__ import annotations

import datetime
import io
import logging
from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from belote.actions import Refusal
from belote.server import assets, ratings
from belote.server.limits import Rate, address, count_new, counted, slow_down, too_many_created
from belote.server.player_store import NEUTRAL_NAME
from belote.server.players import PASSWORD, Players, handle, own, public, shown_ratings
from belote.server.wire import BadRequest, parse_json, read_body, refused
from belote.variants import VARIANTS

log = logging.getLogger("belote.players")

#: Tries of a transfer code or a password from one address: a code has about 48 bits, and a
#: password's hash costs the server a tenth of a second.
SIGN_IN = Rate(10, 60.0)
LEADERBOARD = 50
MAX_BODY = 4096


def _players(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


async def json_object(request: Request) -> dict[str, Any]:
    """A request's body: a JSON object of at most ``MAX_BODY`` bytes (none: an empty one)."""
    raw = await read_body(request, MAX_BODY)
    data = parse_json(raw, MAX_BODY) if raw.strip() else {}
    if not isinstance(data, dict):
        raise BadRequest("the request is a JSON object", "bad_request")
    return data


def no_identity() -> BadRequest:
    """A request about one's identity without its secret, or with a wrong one: 401 wherever it comes."""
    return BadRequest("no identity with that secret: make one, or carry yours here", "no_identity", 401)


def no_such_player() -> BadRequest:
    return BadRequest("no player of that name and tag", "no_such_player", 404)


async def me(request: Request) -> dict[str, Any]:
    """The identity of the request's ``Authorization: Bearer`` secret; refused ``no_identity``."""
    scheme, _, secret = request.headers.get("authorization", "").partition(" ")
    player = await _players(request).of_secret(secret) if scheme.lower() == "bearer" else None
    if player is None:
        raise no_identity()
    return player


def answer(player: dict[str, Any], secret: str | None = None) -> JSONResponse:
    body: dict[str, Any] = {"player": own(player)}
    if secret is not None:
        body["secret"] = secret
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def _signing_in(request: Request) -> None:
    refused_rate = await counted(request.app.state.limits, [("sign_in", SIGN_IN, address(request))], "a sign-in")
    if refused_rate is not None:
        raise slow_down(refused_rate, "tries")


async def _other(request: Request, value: Any) -> dict[str, Any]:
    """Another player, named by id or handle; refused ``no_such_player``."""
    players = _players(request)
    found = None
    if isinstance(value, str) and "#" in value:
        found = await players.by_handle(value)
    elif isinstance(value, str) and len(value) <= 64:
        found = await players.store.player(value)
    if found is None:
        raise no_such_player()
    return found


def routed(handler: Any) -> Any:
    """A route whose refusals answer as the tables' do: with the status a refusal carries (401 for a
    missing identity or a failed sign-in, 404 for an unknown player), 400 otherwise."""

    async def route(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except Refusal as e:
            return refused(request, e)

    return route


async def create(request: Request) -> Response:
    data = await json_object(request)
    await count_new(request.app.state.limits, address(request), too_many_created)
    player, secret = await _players(request).create(data.get("name"))
    return answer(player, secret)


async def claim(request: Request) -> Response:
    data = await json_object(request)
    await _signing_in(request)
    found = await _players(request).claim(data.get("code"))
    if found is None:
        raise Refusal("that code is wrong, used or expired: ask for a new one on your other device", "bad_code")
    return answer(*found)


async def login(request: Request) -> Response:
    data = await json_object(request)
    await _signing_in(request)
    found = await _players(request).login(data.get("handle"), data.get("password"))
    if found is None:
        raise BadRequest("no identity has that name and password", "login_failed", 401)
    return answer(*found)


async def find(request: Request) -> Response:
    player = await _players(request).by_handle(request.query_params.get("handle"))
    if player is None:
        raise no_such_player()
    return JSONResponse({"player": public(player)})


async def profile(request: Request) -> Response:
    players = _players(request)
    player = await players.store.player(request.path_params["player"])
    if player is None:
        raise no_such_player()
    return JSONResponse(await players.profile(player))


def no_such_match() -> BadRequest:
    return BadRequest("no finished match of that id is kept", "no_such_match", 404)


async def kept_match(request: Request) -> Response:
    found = await _players(request).store.match(request.path_params["match"])
    if found is None:
        raise no_such_match()
    return JSONResponse(found)


async def kept_records(request: Request) -> Response:
    """A kept match's deals as deal records, one JSON line each (``GET /api/tables/{id}/records``'s
    format): public as the match is, since the match is over; its table may be gone."""
    match_id = request.path_params["match"]
    lines = await _players(request).store.match_records(match_id)
    if lines is None:
        raise no_such_match()
    name = f"belote-match-{match_id.replace(':', '-')[:16]}.jsonl"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(lines, media_type="application/x-ndjson", headers=headers)


def week_start(now: float) -> float:
    """Monday 00:00 UTC of the week of ``now`` (unix seconds).

    >>> week_start(1764892800.0)  # Friday 5 December 2025, 00:00 UTC
    1764547200.0
    """
    day = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    monday = day - datetime.timedelta(days=day.weekday())
    return datetime.datetime(monday.year, monday.month, monday.day, tzinfo=datetime.UTC).timestamp()


async def leaderboard(request: Request) -> Response:
    game = request.path_params["game"]
    if game not in VARIANTS:
        raise Refusal(
            f"the games are {', '.join(VARIANTS)}",
            "bad_setting",
            option="variant",
            value=game,
            choices=list(VARIANTS),
            min=None,
            max=None,
        )
    period = request.query_params.get("period", "all")
    if period not in ("all", "week"):
        raise Refusal(
            "the periods are all and week",
            "bad_setting",
            option="period",
            value=period,
            choices=["all", "week"],
            min=None,
            max=None,
        )
    players = _players(request)
    since = None if period == "all" else week_start(players.clock())
    rows = await players.store.leaderboard(game, since, LEADERBOARD)
    out = []
    for rank, row in enumerate(rows, 1):
        who = {"id": row["player"], "name": row["name"], "tag": row["tag"]}
        out.append(
            {
                "rank": rank,
                **public(who),
                **{k: v for k, v in row.items() if k not in ("player", "name", "tag")},
                "provisional": ratings.provisional(row["matches"]) if period == "all" else None,
            }
        )
    return JSONResponse({"game": game, "period": period, "since": since, "rows": out})


async def scale(request: Request) -> Response:
    return JSONResponse(ratings.published())


async def whoami(request: Request) -> Response:
    player = await me(request)
    players = _players(request)
    links = await players.store.friends(player["id"])
    presence = request.app.state.presence

    async def faces(ids: list[str], online: bool = False) -> list[dict[str, Any]]:
        out = []
        for i in ids:
            other = await players.store.player(i)
            if other is not None:
                face = public(other)
                if online:
                    face.update(await presence.where(i))
                out.append(face)
        return out

    body = {
        "player": own(player),
        "ratings": shown_ratings(await players.store.ratings(player["id"])),
        "friends": await faces(links["friends"], online=True),
        "asked": await faces(links["asked"]),
        "asking": await faces(links["asking"]),
        "blocked": await faces(await players.store.blocked(player["id"])),
        "invitations": presence.invitations(player["id"]),
    }
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def forget(request: Request) -> Response:
    player = await me(request)
    await json_object(request)  # from this server's pages only, as every change
    await _players(request).delete(player)
    # Their tournaments' results stay (the others' matchpoints stand) under a neutral name and entrant.
    await request.app.state.tournaments.store.forget_player(player["id"], NEUTRAL_NAME)
    return JSONResponse({"deleted": True})


async def rename(request: Request) -> Response:
    player = await me(request)
    data = await json_object(request)
    return answer(await _players(request).rename(player, data.get("name")))


async def password(request: Request) -> Response:
    player = await me(request)
    data = await json_object(request)
    if "password" not in data:  # only an explicit null removes it
        raise Refusal("send the password, or null to remove it", "bad_password", min=PASSWORD[0], max=PASSWORD[1])
    await _players(request).set_password(player, data["password"])
    return answer({**player, "password": data.get("password") is not None})


def qr_svg(text: str) -> str:
    """The QR code of ``text`` as an SVG document (segno), dark on light, with its quiet zone."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=4, xmldecl=False, svgns=True)
    return out.getvalue().decode()


async def transfer(request: Request) -> Response:
    player = await me(request)
    await json_object(request)  # from this server's pages only, as every change
    code, expires = await _players(request).transfer(player)
    link = str(request.url_for("index")) + f"?transfer={code}"
    body = {"code": code, "link": link, "qr": qr_svg(link), "expires": expires, "handle": handle(player)}
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def befriend(request: Request) -> Response:
    player = await me(request)
    other = await _other(request, (await json_object(request)).get("player"))
    if other["id"] == player["id"]:
        raise Refusal("you cannot add yourself", "self")
    players = _players(request)
    if other["id"] in await players.store.blocked(player["id"]) or player["id"] in await players.store.blocked(
        other["id"]
    ):
        raise Refusal("one of you blocked the other", "blocked")
    await players.store.add_friend(player["id"], other["id"])
    return JSONResponse({"player": public(other)})


async def unfriend(request: Request) -> Response:
    player = await me(request)
    await json_object(request)
    await _players(request).store.remove_friend(player["id"], request.path_params["player"])
    return JSONResponse({"removed": True})


async def _block(request: Request, what: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Block the player the body names (``what``: the request's word for it, in the refusal of
    oneself): the identity, the other player and the body."""
    player = await me(request)
    data = await json_object(request)
    other = await _other(request, data.get("player"))
    if other["id"] == player["id"]:
        raise Refusal(f"you cannot {what} yourself", "self")
    await _players(request).store.block(player["id"], other["id"])
    return player, other, data


async def block(request: Request) -> Response:
    _, other, _ = await _block(request, "block")
    return JSONResponse({"player": public(other)})


#: The longest reason a report keeps (it goes to the log as one line).
REPORT_REASON = 200


async def report(request: Request) -> Response:
    """Report a player to the operators (``{"player", "reason"?}``): they are blocked for the one who
    reports them (their chat hidden, never seated together), and the report goes to the log, one line
    with both ids and the reason, counted in ``/metrics`` (``belote_player_reports_total``)."""
    player, other, data = await _block(request, "report")
    reason = data.get("reason")
    words = ""
    if isinstance(reason, str):
        words = " ".join("".join(c if c.isprintable() else " " for c in reason).split())[:REPORT_REASON]
    request.app.state.metrics.reports.inc()
    log.warning("player %s reported by %s: %s", other["id"], player["id"], words or "(no reason given)")
    return JSONResponse({"player": public(other)})


async def unblock(request: Request) -> Response:
    player = await me(request)
    await json_object(request)
    await _players(request).store.unblock(player["id"], request.path_params["player"])
    return JSONResponse({"removed": True})


async def invite(request: Request) -> Response:
    """Invite a friend (both added each other) to a private table one sits at, by its invitation."""
    player = await me(request)
    data = await json_object(request)
    other = await _other(request, data.get("player"))
    players = _players(request)
    if other["id"] not in (await players.store.friends(player["id"]))["friends"]:
        raise Refusal("you invite your friends: both of you add the other first", "not_friends")
    manager = request.app.state.tables
    table_id, code = data.get("table"), data.get("invite")
    about = await manager.invitation(table_id, code) if isinstance(table_id, str) else None
    table = manager.tables.get(table_id) if about is not None else None
    seated = table is not None and any(seat.player == player["id"] for seat in table.meta.seats.values())
    if about is None or not seated:
        # Only a table one sits at (with one's identity), and the same answer for any other.
        return refused(request, Refusal("no such table, or the invitation is wrong", "no_such_table"), 404)
    if about["status"] != "lobby":
        raise Refusal("the game has started: every seat is taken", "game_started", request="invite")
    invitation = {"from": public(player), "table": table_id, "invite": code, "variant": about["variant"]}
    await request.app.state.presence.invite(other["id"], invitation)
    return JSONResponse({"invited": public(other)})


async def open_tables(request: Request) -> Response:
    """The private lobbies open to all, each joined with its invitation."""
    return JSONResponse({"tables": await request.app.state.tables.open_tables()})


async def profile_page(request: Request) -> Response:
    """``/players/{id}``: a player's profile (the page asks ``GET /api/players/{id}``)."""
    return assets.page(request, "profile.html")


async def leaderboard_page(request: Request) -> Response:
    """``/leaderboard``: the best players of each game, all time and this week."""
    return assets.page(request, "leaderboard.html")


routes = [
    Route("/players/{player}", profile_page, methods=["GET"]),
    Route("/leaderboard", leaderboard_page, methods=["GET"]),
    Route("/api/open-tables", routed(open_tables), methods=["GET"]),
    Route("/api/me/invite", routed(invite), methods=["POST"]),
    Route("/api/players", routed(create), methods=["POST"]),
    Route("/api/players", routed(find), methods=["GET"]),
    Route("/api/players/claim", routed(claim), methods=["POST"]),
    Route("/api/players/login", routed(login), methods=["POST"]),
    Route("/api/players/{player}", routed(profile), methods=["GET"]),
    Route("/api/matches/{match}", routed(kept_match), methods=["GET"]),
    Route("/api/matches/{match}/records", routed(kept_records), methods=["GET"]),
    Route("/api/leaderboard/{game}", routed(leaderboard), methods=["GET"]),
    Route("/api/ratings", routed(scale), methods=["GET"]),
    Route("/api/me", routed(whoami), methods=["GET"]),
    Route("/api/me", routed(forget), methods=["DELETE"]),
    Route("/api/me/name", routed(rename), methods=["POST"]),
    Route("/api/me/password", routed(password), methods=["POST"]),
    Route("/api/me/transfer", routed(transfer), methods=["POST"]),
    Route("/api/me/friends", routed(befriend), methods=["POST"]),
    Route("/api/me/friends/{player}", routed(unfriend), methods=["DELETE"]),
    Route("/api/me/blocks", routed(block), methods=["POST"]),
    Route("/api/me/reports", routed(report), methods=["POST"]),
    Route("/api/me/blocks/{player}", routed(unblock), methods=["DELETE"]),
]
