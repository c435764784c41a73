"""A bot for the line protocol of docs/bot-protocol.md, in plain Python and nothing else.

It plays a uniformly random legal action, drawn from the seed of each ``match`` line: the same
draws as the project's own ``random`` bot, so that

    belote arena --ns "exec:python examples/random_bot.py" --ew heuristic --deals 200

gives the same figures as ``--ns random``. Start from here to write a bot in any language: read a
line, answer a line, write nothing else on standard output (standard error is yours).
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        if word == "belote":  # the handshake: the version spoken, and a name
            print("belote 1 example-random", flush=True)
        elif word == "match":  # a new match: the arena's seed for this seat
            rng = random.Random(json.loads(rest)["seed"])
        elif word == "view":  # our turn: answer one of the legal actions
            legal = json.loads(rest)["legal"]
            print(legal[rng.randrange(len(legal))], flush=True)
        elif word == "quit":
            break
        # "refused", "deal" and "end" need no answer; unknown words are ignored


if __name__ == "__main__":
    main()
