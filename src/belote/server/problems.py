"""Training problems over HTTP: the page at ``/problems`` and its JSON API under ``/api/problems``.

The problems are those ``belote problems`` wrote into the package (``belote/data/problems.jsonl``,
format ``belote-problem/1``, docs/analysis.md). A problem holds its answer, the analysis of every
legal card and the whole deal; a page must not see any of that before it answers, or the problem is
no problem. So the routes split it:

``GET  /problems``              the page
``GET  /api/problems``          the list: ``{"problems": [{"id", "game"}, ...]}``, in the file's order
``GET  /api/problems/{id}``     the position as its player sees it: ``{"id", "game", "seat", "view"}``
                                (the seat's ``PlayerView``: its own hand, the table, the contract, the score)
``POST /api/problems/{id}``     an answer ``{"card": "JH"}``: ``{"id", "card", "right", "answer",
                                "cards", "bot", "deal", "index", "seat", "game", "hands"}``: now every
                                card's double-dummy value and cost, the search bot's view-only means,
                                the deal record up to the position and every hand there, to show why

A refused request answers ``{"error", "code", "args"}`` (docs/protocol.md): an unknown problem 404
``no_such_problem``; a card the seat may not play 400 ``not_a_legal_card``; a body that is not a JSON
object 400 (``not_json``, ``bad_request``), and the limits of every request (``belote.server.wire``).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from belote.actions import Refusal
from belote.cards import CardError, parse_card
from belote.game import SEATS
from belote.record import load_deal
from belote.server import assets
from belote.server.wire import BadRequest, parse_json, read_body, refused

#: An answer is a card: a few bytes of JSON.
MAX_BODY = 1024


@functools.cache
def problem_set() -> dict[str, dict[str, Any]]:
    """The problems shipped in the package, by id, in the file's order (read once)."""
    text = resources.files("belote").joinpath("data/problems.jsonl").read_text(encoding="utf-8")
    problems = (json.loads(line) for line in text.splitlines() if line.strip())
    return {p["id"]: p for p in problems}


def _problem(request: Request) -> dict[str, Any]:
    pid = request.path_params["problem"]
    found = problem_set().get(pid)
    if found is None:
        raise BadRequest(f"no training problem {pid[:64]}", "no_such_problem", 404, id=pid[:64])
    return found


async def page(request: Request) -> Response:
    return assets.page(request, "problems.html")


async def listing(request: Request) -> Response:
    return JSONResponse({"problems": [{"id": p["id"], "game": p["game"]} for p in problem_set().values()]})


def position(problem: dict[str, Any]) -> dict[str, Any]:
    """What a player may see before answering: the seat's view, nothing else of the problem."""
    return {"id": problem["id"], "game": problem["game"], "seat": problem["seat"], "view": problem["view"]}


async def show(request: Request) -> Response:
    try:
        return JSONResponse(position(_problem(request)))
    except Refusal as e:
        return refused(request, e)


def judge(problem: dict[str, Any], card: Any) -> dict[str, Any]:
    """The verdict on ``card`` (text such as ``JH``), with the whole analysis; refused (changing
    nothing) for anything but a card the seat may play."""
    legal: list[str] = problem["view"]["legal"]
    try:
        text: str | None = str(parse_card(card))
    except CardError:
        text = None
    if text not in legal:
        shown = card[:16] if isinstance(card, str) else json.dumps(card)[:16]
        raise BadRequest(
            f"{shown} is not a card you may play here: {' or '.join(legal)}",
            "not_a_legal_card",
            card=shown,
            cards=legal,
        )
    keys = ("id", "game", "seat", "answer", "cards", "bot", "deal", "index")
    return {"card": text, "right": text == problem["answer"], **{k: problem[k] for k in keys}, "hands": hands(problem)}


def hands(problem: dict[str, Any]) -> dict[str, list[str]]:
    """Every seat's hand at the position (the deal record replayed), for the page to show after the answer."""
    deal, _, error = load_deal(problem["deal"])
    assert error is None, error  # a problem's record is the engine's own
    return {SEATS[s]: sorted(str(c) for c in deal.hand(s)) for s in range(deal.players)}


async def answer(request: Request) -> Response:
    try:
        problem = _problem(request)
        raw = await read_body(request, MAX_BODY)
        data = parse_json(raw, MAX_BODY) if raw.strip() else {}
        if not isinstance(data, dict):
            raise BadRequest('an answer is an object: {"card": "JH"}', "bad_request")
        return JSONResponse(judge(problem, data.get("card")))
    except Refusal as e:
        return refused(request, e)


routes = [
    Route("/problems", page),
    Route("/api/problems", listing),
    Route("/api/problems/{problem}", show, methods=["GET"]),
    Route("/api/problems/{problem}", answer, methods=["POST"]),
]
