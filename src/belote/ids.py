"""The random ids and secrets the program gives out: tables, seats' tokens, invitations, score sheets.

128 random bits in URL-safe base64 (22 characters of ``A-Z a-z 0-9 - _``), never beginning with
``-``: an id is typed or pasted after an option on a command line (``belote scores --sheet ID``),
where one beginning with ``-`` would be read as another option. Drawn again when it does (1 in 64),
so the ids keep their 128 bits but for the first character's 63 choices.

>>> ids = [new_id() for _ in range(2000)]
>>> all(len(i) == 22 and not i.startswith("-") for i in ids), len(set(ids))
(True, 2000)
"""

from __future__ import annotations

import secrets


def new_id() -> str:
    """A new id or secret: 128 random bits, URL-safe, never beginning with ``-``."""
    while True:
        token = secrets.token_urlsafe(16)
        if not token.startswith("-"):
            return token
