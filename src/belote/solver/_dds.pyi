"""Type stub: the C solver has the interface of ``belote.solver.alphabeta``."""

def value(
    hands: tuple[int, int, int, int],
    mode: int,
    leader: int,
    trick: tuple[int, ...],
    step: int,
    undertrump: bool,
    tricks_won: tuple[int, int],
) -> int: ...
def card_values(
    hands: tuple[int, int, int, int],
    mode: int,
    leader: int,
    trick: tuple[int, ...],
    step: int,
    undertrump: bool,
    tricks_won: tuple[int, int],
) -> dict[int, int]: ...
def stats() -> dict[str, int]: ...
