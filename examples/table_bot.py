"""A bot at a private table of a belote server, through ``belote.client``.

The host of a private table gives a free lobby seat to a bot; the bot joins with that seat's token
and plays the match like a person (docs/protocol.md, "Outside bots"). With the host's own token this
script asks for the seat itself:

    belote serve &
    python examples/table_bot.py --server http://127.0.0.1:8000 --table TABLE --host-token TOKEN

and with a bot token the host got (``{"type": "bot_seat"}`` answered by ``bot_token``):

    python examples/table_bot.py --server http://127.0.0.1:8000 --table TABLE --token BOT_TOKEN

It plays with a built-in bot (``--bot heuristic``) or any program of the line protocol
(``--exec "python examples/random_bot.py"``, docs/bot-protocol.md), and prints the final score.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from belote.bot_protocol import ExecBot
from belote.bots import Bot, make_bot
from belote.client import TableBot, TableError, seat_bot


async def main(args: argparse.Namespace) -> int:
    url = args.server.replace("http", "ws", 1).rstrip("/") + "/ws"
    token = args.token
    if token is None:
        token, seat = await seat_bot(url, args.table, args.host_token, args.name, args.seat)
        print(f"seated at {seat}", flush=True)
    bot: Bot = ExecBot(args.exec, timeout=args.timeout) if args.exec else make_bot(args.bot)
    try:
        played = await TableBot(url, args.table, token, bot).play()
    finally:
        if isinstance(bot, ExecBot):
            bot.close()
    view = played.state["view"]
    print(json.dumps({"actions": played.actions, "score": view["score"], "winner": view["match_winner"]}))
    return 0 if not played.refusals else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the server's address")
    parser.add_argument("--table", required=True, help="the table's id")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--token", help="the bot's seat token, given to the host")
    who.add_argument("--host-token", help="the host's seat token: ask for a bot seat first")
    parser.add_argument("--name", default="Example bot", help="the bot's name at the table")
    parser.add_argument("--seat", default=None, help="the seat to ask for (N, E, S, W; default the first free)")
    parser.add_argument("--bot", default="heuristic", help="a built-in bot: random, heuristic, search")
    parser.add_argument("--exec", default=None, metavar="COMMAND", help="a program of the line protocol instead")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds the program has for a decision")
    try:
        sys.exit(asyncio.run(main(parser.parse_args())))
    except TableError as e:
        print(f"table_bot: {e} ({e.code})", file=sys.stderr)
        sys.exit(2)
