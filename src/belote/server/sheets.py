"""The score sheet over HTTP: the page at ``/scores`` and its JSON API under ``/api/sheets``.

Every answer carries the whole sheet (``Sheet.to_json`` and its ``id``), so the page only ever
draws what the server says. A refused request answers 400 with ``{"error": words, "code": kind}``
and changes nothing; an unknown sheet answers 404.

Requests that change a sheet come as ``application/json`` from the server's own page (or a
program, which names no page): others answer 415 (``json``) or 403 (``origin``).

``GET  /scores``                   the page
``POST /api/sheets``               create: ``{"variant", "target" or "deals", "names", "start", "litige",
                                   "rounding", "declarations", ...}``, each optional (``Sheet.new``)
``GET  /api/sheets/{id}``          the sheet
``POST /api/sheets/{id}/deals``    add a deal, as the sheet's game has it (``Sheet.entry_from_dict``):
                                   classic and two-handed ``{"takers", "cards", "declarations", "belote",
                                   "capot"}``; Coinche ``{"bidder", "level", "mode", "coinche", "cards",
                                   "declarations", "belote", "capot", "alone"}``; three-handed ``{"taker",
                                   "dealer", "cards", "declarations", "belote", "capot"}``
``POST /api/sheets/{id}/undo``     remove the last deal
``POST /api/sheets/{id}/names``    rename the teams: ``{"names": {"NS": .., "EW": ..}}`` (at three and two
                                   hands, by player: ``{"N": .., "E": .., "S": ..}``)

A new sheet counts among what the client's address creates (tables and sheets together: ``belote
serve --tables-per-minute``): past it the answer is 429 with ``{"error", "code": "too_many_created",
"args": {"count", "seconds"}}`` (docs/protocol.md). A sheet nobody changes expires
(``--expire-sheets-after``, 90 days).

Sides and players are named by the sheet's ``teams`` (``["NS", "EW"]``, ``["N", "E", "S"]`` or
``["N", "E"]``); the sheet's ``variant`` says which game it keeps.

A deal or an undo may also carry ``"seen"``, the number of deals the client has on screen: when
the sheet holds another number (a second phone, a double tap), the request answers 409 with the
sheet as it stands and changes nothing, so one tap never adds or undoes a deal twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from belote.actions import Refusal
from belote.ids import new_id
from belote.server import assets
from belote.server.limits import TooMany, address, count_new
from belote.server.store import SheetStore
from belote.server.wire import parse_json, read_body, refused
from belote.sheet import Sheet, SheetError

#: A sheet request is a few hundred bytes; anything much larger is not one.
MAX_BODY = 16_384


class Refused(Exception):
    def __init__(self, status: int, message: str, code: str, sheet: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.code, self.sheet = status, message, code, sheet

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"error": self.message, "code": self.code}
        if self.sheet is not None:
            body["sheet"] = self.sheet
        return JSONResponse(body, status_code=self.status)


def _store(request: Request) -> SheetStore:
    """The app's ``state.sheets``: the SQLite file, or Redis when several processes serve the sheets."""
    store: SheetStore = request.app.state.sheets
    return store


#: The sheet's own codes (docs/protocol.md keeps the table's) for what ``wire`` refuses in a request.
WIRE_CODES = {"too_long": "too-large", "bad_origin": "origin"}


async def _body(request: Request) -> dict[str, Any]:
    try:
        raw = await read_body(request, MAX_BODY)
        data = parse_json(raw, MAX_BODY) if raw.strip() else {}
    except Refusal as e:
        words = f"a request to the score sheet is at most {MAX_BODY} bytes" if e.code == "too_long" else str(e)
        raise Refused(getattr(e, "status", 400), words, WIRE_CODES.get(e.code, "json")) from None
    if not isinstance(data, dict):
        raise Refused(400, "the request must be a JSON object", "json")
    return data


def _answer(sheet_id: str, sheet: Sheet) -> dict[str, Any]:
    return {"id": sheet_id, **sheet.to_json()}


def _not_found() -> Refused:
    return Refused(404, "no score sheet with that id", "not-found")


async def _load(request: Request) -> tuple[str, Sheet]:
    sheet_id = request.path_params["sheet_id"]
    data = await _store(request).load_sheet(sheet_id)
    if data is None:
        raise _not_found()
    return sheet_id, Sheet.from_dict(data)


def _check_seen(body: dict[str, Any], sheet_id: str, sheet: Sheet) -> None:
    seen = body.pop("seen", None)
    if seen is not None and seen != len(sheet.entries):
        raise Refused(
            409,
            f"the sheet has changed: it holds {len(sheet.entries)} deals, not {seen}; here it is as it stands",
            "stale",
            _answer(sheet_id, sheet),
        )


async def create_sheet(request: Request) -> Response:
    try:
        sheet = Sheet.new(await _body(request))
        await count_new(request.app.state.limits, address(request))
        sheet_id = new_id()
        await _store(request).create_sheet(sheet_id, sheet.to_dict())
    except Refused as r:
        return r.response()
    except SheetError as e:
        return Refused(400, str(e), e.code).response()
    except TooMany as e:
        return refused(request, e)
    return JSONResponse(_answer(sheet_id, sheet), status_code=201)


async def get_sheet(request: Request) -> Response:
    try:
        sheet_id, sheet = await _load(request)
    except Refused as r:
        return r.response()
    return JSONResponse(_answer(sheet_id, sheet))


async def _change(request: Request, change: Callable[[dict[str, Any], str, Sheet], None]) -> Response:
    """Load the sheet, apply one change, save it; a refused change answers 400 and saves nothing.

    The store may run ``apply`` again when another request changed the sheet meanwhile (Redis): each
    run starts from the body as it came.
    """
    sheet_id = request.path_params["sheet_id"]
    changed: list[Sheet] = []

    def apply(data: dict[str, Any]) -> dict[str, Any]:
        sheet = Sheet.from_dict(data)
        change(dict(body), sheet_id, sheet)
        changed[:] = [sheet]
        return sheet.to_dict()

    try:
        body = await _body(request)
        if await _store(request).change_sheet(sheet_id, apply) is None:
            raise _not_found()
        sheet = changed[0]
    except Refused as r:
        return r.response()
    except SheetError as e:
        return Refused(400, str(e), e.code).response()
    return JSONResponse(_answer(sheet_id, sheet))


def _add(body: dict[str, Any], sheet_id: str, sheet: Sheet) -> None:
    _check_seen(body, sheet_id, sheet)
    sheet.add(sheet.entry_from_dict(body))


def _undo(body: dict[str, Any], sheet_id: str, sheet: Sheet) -> None:
    _check_seen(body, sheet_id, sheet)
    if body:
        raise SheetError(f"an undo takes no field but 'seen', not {sorted(body)}", "format")
    sheet.undo()


def _rename(body: dict[str, Any], sheet_id: str, sheet: Sheet) -> None:
    if set(body) != {"names"}:
        raise SheetError("a rename takes one field, 'names'", "format")
    sheet.rename(body["names"])


async def add_deal(request: Request) -> Response:
    return await _change(request, _add)


async def undo_deal(request: Request) -> Response:
    return await _change(request, _undo)


async def rename_teams(request: Request) -> Response:
    return await _change(request, _rename)


async def scores_page(request: Request) -> Response:
    return assets.page(request, "scores.html")


routes: list[Route] = [
    Route("/scores", scores_page, methods=["GET"]),
    Route("/api/sheets", create_sheet, methods=["POST"]),
    Route("/api/sheets/{sheet_id}", get_sheet, methods=["GET"]),
    Route("/api/sheets/{sheet_id}/deals", add_deal, methods=["POST"]),
    Route("/api/sheets/{sheet_id}/undo", undo_deal, methods=["POST"]),
    Route("/api/sheets/{sheet_id}/names", rename_teams, methods=["POST"]),
]
