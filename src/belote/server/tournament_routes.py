"""The duplicate tournaments over HTTP (docs/tournaments.md, ``server/tournaments.py``).

Who plays is told by ``Authorization``: ``Bearer <player secret>`` for an identity, or ``Guest
<token>`` for a person without one (a random token the browser keeps, 16 to 128 characters: the
server keeps only its digest), with the name they typed. A private tournament is seen only with its
link's code (``?invite=``). Every refusal answers ``{"error", "code", "args"}`` and changes nothing.

``GET  /api/tournaments``                            today's daily tournaments, one per game
``POST /api/tournaments``                            a private one (an identity's): ``{"name", "settings",
                                                     "boards", "opens", "closes"}``
``GET  /api/tournaments/{id}``                       the tournament and each board for the asker
``POST /api/tournaments/{id}/boards/{k}/play``       the asker's table of board k (``{"name"}`` for a guest)
``GET  /api/tournaments/{id}/boards/{k}/traveller``  the board's field, once the asker played it
``GET  /api/tournaments/{id}/boards/{k}/records``    its deal and the bots' line's, for the review
``GET  /api/tournaments/{id}/ranking``               the ranking (``?offset=``)
``GET  /api/tournaments/monthly/{game}``             the month's ranking of the daily ones (``?month=YYYY-MM``)
``GET  /api/players/{id}/tournaments``               a player's past tournaments and average by game
``GET  /tournaments``, ``/tournaments/{id}``         the pages
"""

from __future__ import annotations

import datetime
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from belote.record import dumps as record_dumps
from belote.server import assets
from belote.server.limits import address, count_new, too_many_created
from belote.server.player_routes import json_object, me, no_identity, routed
from belote.server.room import check_name
from belote.server.tournaments import DAY, Tournaments, entrant_of
from belote.server.wire import BadRequest
from belote.variants import VARIANTS

#: Daily tournaments a month's ranking counts at least for a player to be ranked.
MONTHLY_MIN = 3
#: Seconds a month's ranking is kept before it is made again.
MONTHLY_EVERY = 60.0


def _tournaments(request: Request) -> Tournaments:
    found: Tournaments = request.app.state.tournaments
    return found


async def asker(request: Request, name: Any = None) -> tuple[str | None, str, str | None]:
    """(entrant, name, player id) of the request: an identity, a guest's token, or nobody."""
    scheme, _, secret = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        player = await me(request)
        return str(player["id"]), str(player["name"]), str(player["id"])
    if scheme.lower() == "guest":
        if not 16 <= len(secret) <= 128:
            raise BadRequest("a guest's token is 16 to 128 characters", "bad_guest", min=16, max=128)
        return entrant_of(None, secret), check_name(name) if name is not None else "Guest", None
    return None, "Guest", None


def _board(request: Request) -> int:
    raw = request.path_params["board"]
    if not raw.isdigit() or len(raw) > 3:
        raise BadRequest("a board is numbered from 1", "no_such_board", 404, boards=0)
    return int(raw) - 1


async def _find(request: Request) -> dict[str, Any]:
    return await _tournaments(request).find(request.path_params["tournament"], request.query_params.get("invite"))


async def list_daily(request: Request) -> Response:
    service = _tournaments(request)
    entrant, _, _ = await asker(request)
    out = []
    for game in VARIANTS:
        t = await service.daily(game)
        out.append({**service.public(t), "mine": await service.mine(t, entrant)})
    return JSONResponse({"daily": out})


async def create(request: Request) -> Response:
    service = _tournaments(request)
    data = await json_object(request)
    scheme = request.headers.get("authorization", "").partition(" ")[0]
    if scheme.lower() != "bearer":
        raise no_identity()
    host = await me(request)
    await count_new(request.app.state.limits, address(request), too_many_created)
    t = await service.create_private(host, data)
    return JSONResponse({**service.public(t, host["id"]), "link": f"/tournaments/{t['id']}?invite={t['invite']}"})


async def show(request: Request) -> Response:
    service = _tournaments(request)
    t = await _find(request)
    entrant, _, player = await asker(request)
    return JSONResponse({**service.public(t, player), "mine": await service.mine(t, entrant)})


async def play(request: Request) -> Response:
    service = _tournaments(request)
    t = await _find(request)
    board = _board(request)
    data = await json_object(request)
    entrant, name, player = await asker(request, data.get("name"))
    if entrant is None:
        raise BadRequest("a tournament is played with an identity or a guest's token", "no_entrant", 401)
    if await service.store.entry(t["id"], board, entrant) is None:
        await count_new(request.app.state.limits, address(request), too_many_created)
    entry = await service.play(t, board, entrant, name, player)
    return JSONResponse({k: entry[k] for k in ("table", "token", "seat")}, headers={"Cache-Control": "no-store"})


async def traveller(request: Request) -> Response:
    service = _tournaments(request)
    t = await _find(request)
    entrant, _, _ = await asker(request)
    return JSONResponse(await service.traveller(t, _board(request), entrant))


async def records(request: Request) -> Response:
    service = _tournaments(request)
    t = await _find(request)
    board = _board(request)
    entrant, _, _ = await asker(request)
    lines = "".join(record_dumps(r) + "\n" for r in await service.record(t, board, entrant))
    name = f"belote-{t['id'][:24]}-board{board + 1}.jsonl"
    headers = {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}
    return Response(lines, media_type="application/x-ndjson", headers=headers)


async def ranking(request: Request) -> Response:
    service = _tournaments(request)
    t = await _find(request)
    entrant, _, _ = await asker(request)
    raw = request.query_params.get("offset", "0")
    offset = int(raw) if raw.isdigit() and len(raw) < 9 else 0
    return JSONResponse(await service.standings(t, entrant, offset))


def _month(raw: str | None, now: float) -> tuple[float, float, str]:
    """The first instant of a month (``YYYY-MM``, this one by default), of the next, and its name."""
    day = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    year, month = day.year, day.month
    try:
        if raw is not None:
            if len(raw) != 7 or raw[4] != "-":
                raise ValueError(raw)
            year, month = int(raw[:4]), int(raw[5:])
        start = datetime.datetime(year, month, 1, tzinfo=datetime.UTC)
        end = datetime.datetime(year + month // 12, month % 12 + 1, 1, tzinfo=datetime.UTC)
    except ValueError:
        raise BadRequest("a month is written YYYY-MM", "bad_month") from None
    return start.timestamp(), end.timestamp(), f"{year:04d}-{month:02d}"


async def monthly(request: Request) -> Response:
    game = request.path_params["game"]
    if game not in VARIANTS:
        raise BadRequest(
            f"the games are {', '.join(VARIANTS)}",
            "bad_setting",
            option="variant",
            value=game,
            choices=list(VARIANTS),
            min=None,
            max=None,
        )
    service = _tournaments(request)
    since, until, name = _month(request.query_params.get("month"), service.clock())
    cache: dict[tuple[str, str], tuple[float, dict[str, Any]]] = request.app.state.monthly
    held = cache.get((game, name))
    if held is not None and time.monotonic() - held[0] < MONTHLY_EVERY:
        return JSONResponse(held[1])
    sums: dict[str, dict[str, Any]] = {}
    dailies = await service.store.tournaments("daily", game, since, until)
    for t in dailies:
        if t["closes"] > service.clock():
            continue  # a tournament counts once it is over
        await service.standings(t, None)
        page = await service.store.ranking(t["id"], 0, 10**9) or {"rows": []}
        for row in page["rows"]:
            if row["played"] < t["boards"]:
                continue
            line = sums.setdefault(
                row["entrant"],
                {"entrant": row["entrant"], "name": row["name"], "player": row["player"], "n": 0, "sum": 0.0},
            )
            line["n"] += 1
            line["sum"] += row["percent"]
    rows = sorted(
        (
            {**{k: v for k, v in line.items() if k != "sum"}, "percent": round(line["sum"] / line["n"], 2)}
            for line in sums.values()
        ),
        key=lambda r: (r["n"] < MONTHLY_MIN, -r["percent"], -r["n"], r["name"], r["entrant"]),
    )
    body = {"game": game, "month": name, "tournaments": len(dailies), "min": MONTHLY_MIN, "rows": rows[:100]}
    cache[(game, name)] = (time.monotonic(), body)
    return JSONResponse(body)


async def player_history(request: Request) -> Response:
    service = _tournaments(request)
    player = request.path_params["player"]
    now = service.clock()
    results = await service.store.player_results(player, now - 366 * DAY, now + DAY)
    by_tournament: dict[str, int] = {}
    for r in results:
        by_tournament[r["tournament"]] = by_tournament.get(r["tournament"], 0) + 1
    past = []
    for tid in by_tournament:
        t = await service.store.tournament(tid)
        if t is None or t["kind"] != "daily":  # a private tournament is its members' alone
            continue
        await service.standings(t, None)
        row = await service.store.rank_of(tid, player)
        past.append(
            {
                **service.public(t),
                "played": by_tournament[tid],
                "percent": None if row is None else row["percent"],
                "rank": None if row is None else row["rank"],
            }
        )
    past.sort(key=lambda p: -p["opens"])
    games: dict[str, list[float]] = {}
    for p in past:
        if p["percent"] is not None and p["played"] == p["boards"]:
            games.setdefault(p["game"], []).append(p["percent"])
    average = {g: {"tournaments": len(v), "percent": round(sum(v) / len(v), 2)} for g, v in games.items()}
    return JSONResponse({"player": player, "tournaments": past[:50], "average": average})


async def list_page(request: Request) -> Response:
    return assets.page(request, "tournaments.html")


async def tournament_page(request: Request) -> Response:
    return assets.page(request, "tournament.html")


routes = [
    Route("/tournaments", list_page, methods=["GET"]),
    Route("/tournaments/{tournament}", tournament_page, methods=["GET"]),
    Route("/api/tournaments", routed(list_daily), methods=["GET"]),
    Route("/api/tournaments", routed(create), methods=["POST"]),
    Route("/api/tournaments/monthly/{game}", routed(monthly), methods=["GET"]),
    Route("/api/tournaments/{tournament}", routed(show), methods=["GET"]),
    Route("/api/tournaments/{tournament}/boards/{board}/play", routed(play), methods=["POST"]),
    Route("/api/tournaments/{tournament}/boards/{board}/traveller", routed(traveller), methods=["GET"]),
    Route("/api/tournaments/{tournament}/boards/{board}/records", routed(records), methods=["GET"]),
    Route("/api/tournaments/{tournament}/ranking", routed(ranking), methods=["GET"]),
    Route("/api/players/{player}/tournaments", routed(player_history), methods=["GET"]),
]
