"""Type stub: the C solver has the interface of ``belote.solver.alphabeta``."""

def value(
    hands: tuple[int, ...],
    mode: int,
    leader: int,
    trick: tuple[int, ...],
    step: int,
    undertrump: bool,
    tricks_won: tuple[int, int],
    camps: tuple[int, ...] | None = None,
    under: tuple[int, ...] | None = None,
    limit: int | None = None,
    keep: bool = False,
    /,
) -> int | None: ...
def card_values(
    hands: tuple[int, ...],
    mode: int,
    leader: int,
    trick: tuple[int, ...],
    step: int,
    undertrump: bool,
    tricks_won: tuple[int, int],
    camps: tuple[int, ...] | None = None,
    under: tuple[int, ...] | None = None,
    limit: int | None = None,
    keep: bool = False,
    /,
) -> dict[int, int] | None: ...
def forget() -> None: ...
def stats() -> dict[str, int]: ...
