"""The ASGI app: the table page, the websocket protocol of docs/protocol.md, the score sheet."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from belote.game import IllegalAction
from belote.server.sheets import routes as sheet_routes
from belote.server.store import SQLiteStore, default_path
from belote.server.tables import Client, SettingsError, Table, TableManager, check_settings

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE = 4096
log = logging.getLogger("belote.server")


async def index(request: Request) -> Response:
    return FileResponse(WEB / "index.html")


async def scores_page(request: Request) -> Response:
    return FileResponse(WEB / "scores.html")


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True, "tables": len(request.app.state.tables.tables)})


async def create_solo(request: Request) -> Response:
    body = await request.body()
    if len(body) > MAX_MESSAGE:
        return JSONResponse({"error": "the settings are too long"}, status_code=413)
    try:
        data = json.loads(body) if body.strip() else {}
        settings = check_settings(data)
    except json.JSONDecodeError:
        return JSONResponse({"error": "the settings are not JSON"}, status_code=400)
    except SettingsError as e:
        return JSONResponse({"error": str(e)}, status_code=400)
    table, token = request.app.state.tables.create_solo(settings)
    return JSONResponse({"table": table.id, "token": token, "seat": "S"})


async def play_socket(ws: WebSocket) -> None:
    """One player's connection: join a table with a seat token, then act."""
    await ws.accept()
    manager: TableManager = ws.app.state.tables
    table: Table | None = None
    client: Client | None = None

    async def send(msg: dict[str, Any]) -> None:
        await ws.send_text(json.dumps(msg, ensure_ascii=False))

    async def refuse(message: str) -> None:
        await send({"type": "error", "message": message})

    try:
        while True:
            text = await ws.receive_text()
            if len(text.encode()) > MAX_MESSAGE:
                await refuse(f"message too long: at most {MAX_MESSAGE} bytes")
                continue
            try:
                msg = json.loads(text)
            except json.JSONDecodeError:
                await refuse("the message is not JSON")
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                await refuse('a message is an object with a "type"')
                continue
            kind = msg["type"]
            if kind == "join":
                table_id = msg.get("table")
                found = manager.tables.get(table_id) if isinstance(table_id, str) else None
                token = msg.get("token")
                seat = found.seat_of_token(token) if found is not None and isinstance(token, str) else None
                if found is None or seat is None:
                    await refuse("no such table, or this seat is not yours: start a new game")
                    continue
                since = msg.get("since", -1)
                if not isinstance(since, int) or isinstance(since, bool) or since < -1:
                    since = -1
                if table is not None and client is not None and client in table.clients:
                    table.clients.remove(client)
                table, client = found, Client(seat, send, min(since, len(found.match.events()) - 1))
                table.clients.append(client)
                await table.send_state(client)
            elif table is None or client is None:
                await refuse("join a table first")
            elif kind == "act":
                if client.seat is None:
                    await refuse("a spectator cannot play")
                    continue
                try:
                    await table.act(client.seat, msg.get("action"))
                except IllegalAction as e:
                    await refuse(str(e))
            elif kind == "continue":
                await table.resume()
            elif kind == "new_game":
                try:
                    settings = check_settings(msg.get("settings", table.settings))
                except SettingsError as e:
                    await refuse(str(e))
                    continue
                await table.new_game(settings)
            else:
                await refuse(f"unknown message type {kind!r}")
    except WebSocketDisconnect:
        pass
    finally:
        if table is not None and client is not None and client in table.clients:
            table.clients.remove(client)


def create_app(store: SQLiteStore | None = None, db_path: str | Path | None = None) -> Starlette:
    """The app, with its store (a SQLite file by default) and every stored table brought back."""
    if store is None:
        store = SQLiteStore(db_path or default_path())
    routes: list[Any] = [
        Route("/", index),
        Route("/scores", scores_page),
        Route("/api/health", health),
        Route("/api/solo", create_solo, methods=["POST"]),
        WebSocketRoute("/ws", play_socket),
    ]
    routes.extend(sheet_routes)
    routes.append(Mount("/static", StaticFiles(directory=WEB), name="static"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        manager = TableManager(store)
        app.state.tables = manager
        app.state.store = store
        loaded = manager.load_all()
        log.info("%d tables restored from %s", loaded, store.path)
        yield
        await manager.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.store = store
    return app
