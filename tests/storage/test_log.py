"""The log: public by default, a seat's own view, page by page; moderator entries say who and why."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from storage.errors import AlreadySeated, SeatNotFound, WrongGameStatus
from storage.records import DeadlineSpec, GameStatus, LogKind, ModeratorAction
from storage.repository import Repository
from tests.storage.conftest import START
from tests.storage.dice_race import DICE_RACE, Play
from tests.storage.helpers import HOST, load, play_one, player, started_game


async def play_a_card(repo: Repository, game_id: int) -> int:
    """Seat to move plays its first card; returns the seat."""
    game = await repo.get_game(game_id)
    state = load(game)
    seat = state.turn
    command = Play(card=state.hands[seat][0])
    new_state, events = DICE_RACE.apply(state, seat, command)
    await repo.commit(
        game_id,
        expected_version=game.version,
        seat=seat,
        command=command,
        state=new_state,
        events=events,
        actor_user_id=player(seat),
    )
    return seat


async def test_the_public_log_has_no_private_line_and_no_command(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2, options={"target": 1000, "hand_size": 3})
    for _ in range(3):
        await play_a_card(repo, game.id)
    full = await repo.read_log_unredacted(game.id)
    assert any(e.private for entry in full.entries for e in entry.events)
    public = await repo.read_log(game.id)
    assert [e.seq for e in public.entries] == [1, 2, 3, 4]
    for entry in public.entries:
        assert entry.command_json is None
        assert all(not e.private and not e.private_data for e in entry.events)
    texts = [e.text for entry in public.entries for e in entry.events]
    assert "Red draws a card." in texts
    assert not any("You draw" in t or "Your hand" in t for t in texts)


async def test_a_seat_sees_its_own_lines_and_commands_only(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2, options={"target": 1000, "hand_size": 3})
    for _ in range(2):
        await play_a_card(repo, game.id)  # Red, then Blue
    red = await repo.read_log_for_seat(game.id, 0)
    setup, red_move, blue_move = red.entries
    assert list(setup.events[1].private) == [0]  # only Red's dealt hand
    assert red_move.command is not None and red_move.command["type"] == "play"
    assert blue_move.command is None
    assert [list(e.private) for e in red_move.events] == [[], [0], []]
    assert all(not e.private for e in blue_move.events)
    hand_line = setup.events[1].private[0]
    full = await repo.read_log_unredacted(game.id)
    assert hand_line == f"Your hand: {full.entries[0].events[1].private_data[0]['hand']}"


async def test_paging_forwards_and_backwards(repo: Repository) -> None:
    game = await started_game(repo, 1, options={"target": 10_000})
    rng = random.Random(0)
    for _ in range(11):
        await play_one(repo, game.id, rng)  # 12 entries in all
    first = await repo.read_log(game.id, limit=5)
    second = await repo.read_log(game.id, after_seq=first.last_seq or 0, limit=5)
    third = await repo.read_log(game.id, after_seq=second.last_seq or 0, limit=5)
    assert [[e.seq for e in p.entries] for p in (first, second, third)] == [
        [1, 2, 3, 4, 5],
        [6, 7, 8, 9, 10],
        [11, 12],
    ]
    assert (first.has_more, second.has_more, third.has_more) == (True, True, False)
    newest = await repo.read_log(game.id, before_seq=13, limit=5)
    older = await repo.read_log(game.id, before_seq=newest.first_seq, limit=5)
    oldest = await repo.read_log(game.id, before_seq=older.first_seq, limit=5)
    assert [[e.seq for e in p.entries] for p in (newest, older, oldest)] == [
        [8, 9, 10, 11, 12],
        [3, 4, 5, 6, 7],
        [1, 2],
    ]
    assert (newest.has_more, older.has_more, oldest.has_more) == (True, True, False)
    assert (await repo.read_log(999)).entries == ()
    with pytest.raises(ValueError):
        await repo.read_log(game.id, limit=0)


async def test_moderator_entries_record_who_why_and_what(repo: Repository) -> None:
    game = await started_game(repo, 1, players=3)
    await repo.pause(game.id, moderator_user_id=HOST, reason="waiting for Blue")
    with pytest.raises(WrongGameStatus):
        await repo.pause(game.id, moderator_user_id=HOST, reason="twice")
    await repo.resume(game.id, moderator_user_id=HOST, reason="Blue is back")
    await repo.kick(game.id, 1, moderator_user_id=HOST, reason="inactive")
    await repo.replace_seat(
        game.id, 2, user_id=555, display_name="Sub", moderator_user_id=HOST, reason="swap"
    )
    with pytest.raises(AlreadySeated):
        await repo.replace_seat(
            game.id, 0, user_id=555, display_name="Sub", moderator_user_id=HOST, reason="x"
        )
    with pytest.raises(SeatNotFound):
        await repo.kick(game.id, 7, moderator_user_id=HOST, reason="x")
    due = START + timedelta(hours=6)
    await repo.moderator_deadline(
        game.id, DeadlineSpec(0, "turn", due), moderator_user_id=HOST, reason="extension"
    )
    await repo.end_game(game.id, moderator_user_id=HOST, reason="called off")

    entries = (await repo.read_log(game.id)).entries[1:]
    assert [(e.kind, e.action, e.actor_user_id, e.seat, e.reason) for e in entries] == [
        (LogKind.MODERATOR, ModeratorAction.PAUSE, HOST, None, "waiting for Blue"),
        (LogKind.MODERATOR, ModeratorAction.RESUME, HOST, None, "Blue is back"),
        (LogKind.MODERATOR, ModeratorAction.KICK, HOST, 1, "inactive"),
        (LogKind.MODERATOR, ModeratorAction.REPLACE, HOST, 2, "swap"),
        (LogKind.MODERATOR, ModeratorAction.DEADLINE, HOST, 0, "extension"),
        (LogKind.MODERATOR, ModeratorAction.END, HOST, None, "called off"),
    ]
    assert entries[2].details == {"user_id": player(1)}
    assert entries[4].details == {"kind": "turn", "due_at": due.isoformat()}
    assert all(e.version_after == 0 for e in entries)  # no engine state changed
    seats = await repo.seats(game.id)
    assert [(s.seat, s.user_id, s.is_ai, s.display_name) for s in seats] == [
        (0, player(0), False, "Player 0"),
        (1, None, True, "Player 1"),
        (2, 555, False, "Sub"),
    ]
    assert (await repo.get_game(game.id)).status is GameStatus.ABANDONED
    assert await repo.deadlines(game.id) == []  # ending drops deadlines
