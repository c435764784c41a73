"""The room's rules as a reducer, without a socket, a store or an event loop.

``reduce(room, message)`` gives the next room and its events, or raises the rule's refusal; the
room it was given never changes. Each rule of the lobby, the host, the reading of a deal's score,
the stand-ins and the chat is checked with its expected value, then a hypothesis test sends random
messages: a refused one changes nothing, an accepted one leaves the old room as it was, and the
``Write`` events, appended one after another, are a log that replays to the room's match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote.game import Match, Refusal, action_str, parse_action
from belote.server.room import (
    DEFAULT_SETTINGS,
    SPEEDS,
    Act,
    Back,
    BotPlay,
    Configure,
    Gone,
    Job,
    Leave,
    Left,
    Message,
    Meta,
    Move,
    NewGame,
    React,
    Reply,
    Resume,
    Room,
    Said,
    Say,
    Seat,
    SeatBot,
    Seated,
    Sit,
    StandIn,
    Start,
    Write,
    bot_seat,
    check_settings,
    new_match,
    reduce,
)

QUICK = check_settings({"deals": 2, "strength": "easy", "turn_timer": 30})


def lobby(**settings: Any) -> Room:
    """A private table in its lobby, its host (Hana) at South."""
    meta = Meta("private", 11, check_settings({**QUICK, **settings}), {2: Seat("t-host", "Hana")}, "lobby", host=2)
    return Room(meta, None)


def solo(seed: int = 0) -> Room:
    seats = {2: Seat("me", "Me"), 0: bot_seat("Léa", "easy"), 1: bot_seat("Hugo", "easy"), 3: bot_seat("Paul", "easy")}
    meta = Meta("solo", seed, {**DEFAULT_SETTINGS, **QUICK}, seats)
    return Room(meta, new_match(meta.settings, seed))


def full_table() -> Room:
    """A private table of four people, started."""
    room = lobby()
    for token, name in (("t-n", "Nina"), ("t-e", "Emil"), ("t-w", "Wes")):
        room, _ = reduce(room, Sit(token, name, None))
    room, _ = reduce(room, Start(2))
    return room


def state(room: Room) -> Any:
    return room.meta.to_json(), None if room.match is None else room.match.to_dict()


def refused(room: Room, message: Message) -> str:
    """The code of the refusal of ``message``; the room is checked to be unchanged."""
    before = state(room)
    with pytest.raises(Refusal) as caught:
        reduce(room, message)
    assert state(room) == before
    return caught.value.code


def play_to_deal_end(room: Room) -> Room:
    """Play the first legal action of each seat in turn until the first deal ends."""
    assert room.match is not None
    while len(room.match.deals) == 1:
        seat = room.match.to_move
        assert seat is not None
        room, _ = reduce(room, Act(seat, room.match.legal_actions()[0]))
        assert room.match is not None
    return room


# ----------------------------------------------------------------- the lobby and the host
def test_people_sit_south_north_east_west_and_the_host_starts() -> None:
    room = lobby()
    seats = []
    for token, name in (("t-n", "Nina"), ("t-e", "Emil")):
        room, events = reduce(room, Sit(token, name, None))
        seats += [e.seat for e in events if isinstance(e, Seated)]
    assert seats == [0, 1]  # South is the host's: North, then East
    assert room.meta.version == 2 and room.match is None
    assert refused(room, Sit("t-x", "Xavier", 1)) == "seat_taken"
    assert refused(room, Start(0)) == "not_host"
    assert refused(room, Act(2, parse_action("pass"))) == "not_started"
    started, events = reduce(room, Start(2))
    assert events == [Write(0, (), True, False)]
    assert started.meta.status == "playing" and started.meta.version == 3
    assert [s.bot for _, s in sorted(started.meta.seats.items())] == [None, None, None, "heuristic"]
    assert started.match is not None and started.match.to_dict() == new_match(started.meta.settings, 11).to_dict()
    assert room.meta.status == "lobby" and room.match is None  # the room it was given is as it was
    assert refused(started, Start(2)) == "game_started"
    assert refused(started, Sit("t-x", "Xavier", None)) == "game_started"
    assert refused(started, Move(0, 3)) == "game_started"


def test_a_table_full_a_seat_moved_a_seat_left() -> None:
    room = lobby()
    room, events = reduce(room, Move(2, 3))  # the host moves West, and stays the host
    assert events[1:] == [Seated(3)] and room.meta.host == 3
    for token in ("a", "b", "c"):
        room, _ = reduce(room, Sit(token, token.upper(), None))
    assert sorted(room.meta.seats) == [0, 1, 2, 3]
    assert refused(room, Sit("d", "D", None)) == "table_full"
    assert refused(room, Leave(3)) == "host_stays"
    room, events = reduce(room, Leave(1))
    assert sorted(room.meta.seats) == [0, 2, 3] and events[1:] == [Left(1), Reply({"type": "left"})]


def test_the_host_sets_the_rules_and_the_seats_fit_the_game() -> None:
    room = lobby()
    room, _ = reduce(room, Sit("t-w", "Wes", 3))
    two = check_settings({**QUICK, "variant": "two-handed"})
    assert refused(room, Configure(3, two)) == "not_host"
    room, _ = reduce(room, Configure(2, two))  # two hands: North and East; South and West move there
    assert {s: seat.name for s, seat in room.meta.seats.items()} == {0: "Hana", 1: "Wes"}
    assert room.meta.host == 0 and room.meta.settings["variant"] == "two-handed"
    assert refused(room, Sit("t-x", "Xavier", None)) == "table_full"
    three = check_settings({**QUICK, "variant": "three-handed"})
    room, _ = reduce(room, Configure(0, three))
    assert sorted(room.meta.seats) == [0, 1]


def test_the_host_seats_an_outside_bot_in_a_free_seat() -> None:
    room = lobby()
    room, _ = reduce(room, Sit("t-n", "Nina", None))  # North
    assert refused(room, SeatBot(0, "b-1", "Robo", None)) == "not_host"
    room, events = reduce(room, SeatBot(2, "b-1", "Robo", 3))
    bot_token = Reply({"type": "bot_token", "seat": "W", "token": "b-1"})
    assert events[1:] == [Seated(3), bot_token] and room.meta.version == 2
    robo = room.meta.seats[3]
    assert (robo.token, robo.name, robo.bot, robo.outside) == ("b-1", "Robo", None, True)
    assert room.seat_of_token("b-1") == 3 and room.meta.people() == [2, 0, 3] and room.meta.readers() == [2, 0]
    assert Meta.from_json(room.meta.to_json()).seats[3] == robo  # kept in the store as it is
    assert refused(room, SeatBot(2, "b-2", "Robi", 3)) == "seat_taken"
    room, events = reduce(room, SeatBot(2, "b-2", "Robi", None))  # the first free seat: East
    assert events[1:] == [Seated(1), Reply({"type": "bot_token", "seat": "E", "token": "b-2"})]
    assert refused(room, SeatBot(2, "b-3", "Rob", None)) == "table_full"
    room, _ = reduce(room, Leave(1))  # an outside bot gives its seat up like a person
    started, _ = reduce(room, Start(2))
    assert [(s.bot, s.outside) for _, s in sorted(started.meta.seats.items())] == [
        (None, False),
        ("heuristic", False),
        (None, False),
        (None, True),
    ]
    assert refused(started, SeatBot(2, "b-4", "Late", None)) == "game_started"


def test_nobody_waits_for_an_outside_bot_to_read_the_score() -> None:
    room = lobby()
    for token, name in (("b-n", "Bot N"), ("b-e", "Bot E"), ("b-w", "Bot W")):
        room, _ = reduce(room, SeatBot(2, token, name, None))
    room, _ = reduce(room, Start(2))
    room = play_to_deal_end(room)
    assert room.waiting_continue and room.unread() == [2]  # only the host reads the score
    assert room.match is not None
    first = room.match.to_move
    assert first is not None and first != 2
    assert refused(room, Act(first, room.match.legal_actions()[0])) == "waiting_for_others"
    room, _ = reduce(room, Resume(2))
    assert not room.waiting_continue
    room, _ = reduce(room, Act(first, room.match.legal_actions()[0]))  # the bot plays on at once


# ----------------------------------------------------------------- playing
def test_an_action_is_written_from_its_number_and_a_new_game_resets_the_log() -> None:
    room = solo()
    assert room.match is not None and room.match.to_move == 1
    assert refused(room, Act(2, parse_action("pass"))) == "not_your_turn"
    room, events = reduce(room, BotPlay(1, parse_action("pass")))
    assert events == [Write(0, ("pass",), False, False)] and room.meta.version == 0
    again, events = reduce(room, NewGame(2, check_settings({**QUICK, "variant": "two-handed"}), 99))
    assert events == [Write(0, (), True, True)]
    assert again.meta.game == 1 and again.meta.seed == 99 and again.meta.version == 1
    assert {s: seat.bot for s, seat in again.meta.seats.items()} == {0: None, 1: "heuristic"}  # the person: North
    assert again.match is not None and again.match.to_dict() == new_match(again.meta.settings, 99).to_dict()


def test_the_next_deal_waits_until_every_person_has_read_the_score() -> None:
    room = play_to_deal_end(full_table())
    assert room.waiting_continue and sorted(room.unread()) == [0, 1, 2, 3]
    assert room.match is not None
    first = room.match.to_move
    assert first is not None
    others = [s for s in (0, 1, 2, 3) if s != first]
    code = refused(room, Act(first, room.match.legal_actions()[0]))
    assert code == "waiting_for_others"
    for seat in others:
        room, events = reduce(room, Resume(seat))
        assert isinstance(events[0], Write) and events[0].meta
    assert room.meta.acks == others and room.waiting_continue
    room, _ = reduce(room, Act(first, room.match.legal_actions()[0]))  # acting is reading the score
    assert not room.waiting_continue and room.meta.acks == [] and room.meta.continued == 1


def test_a_stand_in_plays_for_an_absent_person_until_they_are_back() -> None:
    room = full_table()
    assert room.match is not None and room.match.to_move is not None
    seat = room.match.to_move
    room, events = reduce(room, StandIn(seat))
    assert room.meta.standin == [seat] and events == [Write(0, (), True, False)]
    job = room.next_job(0.0, people_here=True, pace=1.0)
    assert job == Job(SPEEDS["normal"][0], "bot", seat)
    same, events = reduce(room, Back(2 if seat != 2 else 0))  # somebody else: nothing changes
    assert same is room and events == []
    room, events = reduce(room, Act(seat, room.match.legal_actions()[0]))
    assert room.meta.standin == [] and isinstance(events[0], Write) and events[0].meta


def test_what_a_table_waits_for() -> None:
    room = solo()
    assert room.next_job(0.2, people_here=False) is None  # a solo table's bots wait for their person
    assert room.next_job(0.2, people_here=True, pace=0.5) == Job(0.5 * SPEEDS["normal"][0] - 0.2, "bot", 1)
    table = full_table()
    assert table.match is not None
    person = table.match.to_move
    assert table.next_job(4.0, people_here=True) == Job(26.0, "timeout", person)


# ----------------------------------------------------------------- who is gone
def test_a_person_gone_is_marked_and_a_bot_stands_in_when_the_turn_timer_has_passed() -> None:
    room = full_table()  # Nina (North) to move, 30 seconds a turn
    assert room.match is not None and room.match.to_move == 0
    room, events = reduce(room, Gone(3, 100_000))  # Wes's last socket closed
    assert room.meta.away == {3: 100_000} and events == [Write(0, (), True, False)]
    assert room.meta.to_json()["away"] == {"W": 100_000}
    assert Meta.from_json(room.meta.to_json()).away == {3: 100_000}  # kept in the store as it is
    same, events = reduce(room, Gone(3, 104_000))  # said again (another process): gone since the first time
    assert same is room and events == []
    # Four seconds into Nina's turn, ten after Wes left: a bot stands in for Wes in 20 s, before Nina's 26.
    assert room.next_job(4.0, people_here=True, now=110_000) == Job(20.0, "timeout", 3)
    assert room.next_job(4.0, people_here=True) == Job(26.0, "timeout", 0)  # the turn alone
    assert room.standin_in(3, 4.0, 110_000) == 20.0
    assert room.standin_in(0, 4.0, 110_000) is None  # Nina is here
    assert room.standin_in(3, 4.0, 140_000) == 0.0  # due
    room, _ = reduce(room, StandIn(3))
    assert room.standin_in(3, 4.0, 110_000) is None  # a bot plays for him now
    assert room.next_job(4.0, people_here=True, now=110_000) == Job(26.0, "timeout", 0)
    room, events = reduce(room, Back(3))  # his join: here again, and no bot plays for him
    assert room.meta.away == {} and room.meta.standin == [] and events == [Write(0, (), True, False)]


def test_a_person_gone_on_their_turn_has_what_is_left_of_it_if_that_is_less() -> None:
    room, _ = reduce(full_table(), Gone(0, 100_000))  # Nina leaves 25 seconds into her turn
    assert room.next_job(25.0, people_here=True, now=100_000) == Job(5.0, "timeout", 0)
    assert room.standin_in(0, 25.0, 100_000) == 5.0
    assert room.match is not None
    room, events = reduce(room, Act(0, room.match.legal_actions()[0]))  # she plays: she is here
    assert room.meta.away == {} and isinstance(events[0], Write) and events[0].meta


def test_who_is_gone_in_the_lobby_at_a_solo_table_and_at_a_bots_seat() -> None:
    room = lobby()
    room, _ = reduce(room, Sit("t-w", "Wes", 3))
    room, _ = reduce(room, Gone(3, 5))
    assert room.meta.away == {3: 5}
    assert room.next_job(0.0, people_here=True, now=10**9) is None and room.standin_in(3, 0.0, 10**9) is None
    two = check_settings({**QUICK, "variant": "two-handed"})
    moved, _ = reduce(room, Configure(2, two))  # Wes moves to East, still gone
    assert moved.meta.seats[1].name == "Wes" and moved.meta.away == {1: 5}
    here, _ = reduce(room, Move(3, 1))  # his own move says he is here
    assert here.meta.away == {}
    left, _ = reduce(room, Leave(3))
    assert left.meta.away == {}
    assert refused(solo(), Gone(0, 5)) == "no_such_seat"  # a bot's seat
    same, events = reduce(solo(), Gone(2, 5))  # a solo table's bots wait for their person: nobody is told
    assert events == [] and same.meta.away == {}


# ----------------------------------------------------------------- chat
def test_a_chat_line_is_checked_and_made_by_the_room() -> None:
    room = full_table()
    same, events = reduce(room, Say(1, "  bien   joué ", 1234))
    line = {"type": "chat", "seat": "E", "name": "Emil", "text": "bien joué", "reaction": None, "at": 1234}
    assert same is room and events == [Said(line)]
    assert reduce(room, React(1, "bravo", 5))[1] == [Said({**line, "text": None, "reaction": "bravo", "at": 5})]
    # A spectator's line: no seat, marked; its name is the spectator's, which the table gives (tables.py).
    watcher = {
        "type": "chat",
        "seat": None,
        "name": None,
        "text": "allez",
        "reaction": None,
        "at": 7,
        "spectator": True,
    }
    assert reduce(room, Say(None, " allez ", 7))[1] == [Said(watcher)]
    assert reduce(room, React(None, "oops", 8))[1] == [Said({**watcher, "text": None, "reaction": "oops", "at": 8})]
    assert refused(room, Say(1, "x\u202ey", 0)) == "chat_control_characters"
    assert refused(room, Say(1, "x" * 201, 0)) == "chat_too_long"
    assert refused(room, Say(1, "   ", 0)) == "bad_chat"
    assert refused(room, React(1, "boo", 0)) == "bad_reaction"


# ----------------------------------------------------------------- any sequence
@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(1, 120))
def test_refused_messages_change_nothing_and_the_writes_replay(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    room = lobby(variant=rng.choice(["classic", "coinche", "three-handed", "two-handed"]))
    twin = room.copy()  # reduced in place, as a table's driver does: the same rooms and events
    log: list[str] = []
    for _ in range(steps):
        message = random_message(room, rng)
        before = state(room)
        try:
            new, events = reduce(room, message)
        except Refusal as refusal:
            assert state(room) == before
            with pytest.raises(Refusal) as again:
                reduce(twin, message, in_place=True)
            assert again.value.code == refusal.code and state(twin) == before
            continue
        assert state(room) == before  # the room given is never changed
        changed, twin_events = reduce(twin, message, in_place=True)
        assert changed is twin and twin_events == events and state(twin) == state(new)
        for event in events:
            if isinstance(event, Write):
                assert event.start == (0 if event.reset else len(log))
                log[event.start :] = event.actions
        room = new
        if room.match is not None:
            replayed = new_match(room.meta.settings, room.meta.seed)
            for a in log:
                replayed.apply(parse_action(a))
            assert replayed.to_dict() == room.match.to_dict()


def random_message(room: Room, rng: random.Random) -> Message:
    """Mostly what a table sees (legal actions, reads of the score), with refused messages mixed in."""
    seat = rng.randrange(4)
    match: Match | None = room.match
    roll = rng.random()
    if match is not None and match.to_move is not None and roll < 0.6:
        legal = match.legal_actions()
        return Act(match.to_move, legal[rng.randrange(len(legal))])
    choices: list[Message] = [
        Act(seat, parse_action(rng.choice(["pass", "take", "JH", "7S", "80H"]))),
        Resume(rng.choice([None, seat])),
        StandIn(seat),
        Gone(seat, rng.randrange(10**6)),
        Back(seat),
        Sit(f"t{rng.randrange(99)}", "Guest", rng.choice([None, seat])),
        SeatBot(seat, f"b{rng.randrange(99)}", "Robo", rng.choice([None, rng.randrange(4)])),
        Move(seat, rng.randrange(4)),
        Leave(seat),
        Configure(seat, check_settings({**QUICK, "variant": rng.choice(["classic", "two-handed"])})),
        Start(seat),
        NewGame(seat, check_settings({**QUICK, "variant": rng.choice(["classic", "coinche"])}), rng.randrange(1000)),
    ]
    if match is not None and match.to_move is not None and rng.random() < 0.2:
        return BotPlay(match.to_move, match.legal_actions()[0])
    return rng.choice(choices)


def test_an_action_written_is_the_engine_text() -> None:
    room = solo(3)
    assert room.match is not None
    action = room.match.legal_actions()[-1]
    seat = room.match.to_move
    assert seat is not None
    _, events = reduce(room, BotPlay(seat, action))
    assert events == [Write(0, (action_str(action),), False, False)]
