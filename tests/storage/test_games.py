"""Games, lobbies and seats: one open game per channel, archives, seat numbering, queries."""

from __future__ import annotations

from datetime import timedelta

import pytest

from storage.errors import (
    AlreadySeated,
    ChannelBusy,
    DeckNotFound,
    GameNotFound,
    LobbyFull,
    SeatNotFound,
    WrongGameStatus,
)
from storage.records import ENDED_STATUSES, GameStatus
from storage.repository import Repository
from tests.storage.conftest import START, Clock
from tests.storage.dice_race import DICE_RACE, Options
from tests.storage.helpers import HOST, load, player, started_game


async def test_a_new_game_is_a_lobby_in_its_channel(repo: Repository) -> None:
    game = await repo.create_game(
        55, ruleset="dice_race", guild_id=9, host_user_id=HOST, options={"target": 20}, seed=77
    )
    assert (game.status, game.version, game.players, game.state_json) == (
        GameStatus.LOBBY,
        0,
        None,
        None,
    )
    assert (game.channel_id, game.guild_id, game.seed, game.options) == (55, 9, 77, {"target": 20})
    assert game.created_at == START
    assert await repo.game_in_channel(55) == game
    assert await repo.game_in_channel(56) is None


async def test_a_seed_is_chosen_when_none_is_given(repo: Repository) -> None:
    a = await repo.create_game(1, ruleset="dice_race")
    b = await repo.create_game(2, ruleset="dice_race")
    assert a.seed != b.seed
    assert 0 <= a.seed < 2**63


async def test_a_second_open_game_in_a_channel_is_refused(repo: Repository) -> None:
    first = await started_game(repo, 55)
    with pytest.raises(ChannelBusy) as caught:
        await repo.create_game(55, ruleset="dice_race")
    assert str(caught.value) == (
        f"This channel already has a dice_race game (game #{first.id}, active). "
        "Finish or end it before creating another."
    )
    other = await repo.create_game(56, ruleset="dice_race")  # other channels are free
    assert other.id == first.id + 1


async def test_ended_games_are_archived_and_free_the_channel(
    repo: Repository, clock: Clock
) -> None:
    first = await started_game(repo, 55)
    clock.advance(timedelta(hours=1))
    await repo.end_game(first.id, moderator_user_id=HOST, reason="players left")
    second = await repo.create_game(55, ruleset="dice_race", guild_id=1)
    archived = await repo.get_game(first.id)
    assert archived.status is GameStatus.ABANDONED
    assert archived.ended_at == START + timedelta(hours=1)
    assert archived.state_json is not None  # kept
    assert (await repo.game_in_channel(55)) == second
    listed = await repo.list_games(guild_id=1, statuses=ENDED_STATUSES)
    assert [g.id for g in listed] == [first.id]
    everything = await repo.list_games(channel_id=55)
    assert [g.id for g in everything] == [second.id, first.id]
    assert [g.id for g in await repo.list_games(channel_id=55, before_id=second.id)] == [first.id]


async def test_seats_fill_the_lowest_free_number(repo: Repository) -> None:
    game = await repo.create_game(5, ruleset="dice_race")
    a = await repo.join_game(game.id, user_id=1, display_name="Ann")
    b = await repo.join_game(game.id, user_id=2, display_name="Bob", ready_deck="starter")
    await repo.leave_game(game.id, 1)
    ai = await repo.add_ai_seat(game.id, display_name="Computer")
    assert (a.seat, b.seat, ai.seat) == (0, 1, 0)
    seats = await repo.seats(game.id)
    assert [(s.seat, s.user_id, s.is_ai, s.ready_deck) for s in seats] == [
        (0, None, True, None),
        (1, 2, False, "starter"),
    ]


async def test_lobby_refusals(repo: Repository) -> None:
    game = await repo.create_game(5, ruleset="dice_race")
    await repo.join_game(game.id, user_id=1, display_name="Ann", max_seats=2)
    with pytest.raises(AlreadySeated):
        await repo.join_game(game.id, user_id=1, display_name="Ann again")
    await repo.join_game(game.id, user_id=2, display_name="Bob", max_seats=2)
    with pytest.raises(LobbyFull, match="full \\(2 seats\\)"):
        await repo.join_game(game.id, user_id=3, display_name="Cat", max_seats=2)
    with pytest.raises(SeatNotFound):
        await repo.leave_game(game.id, 3)
    with pytest.raises(GameNotFound, match="no game #999"):
        await repo.join_game(999, user_id=3, display_name="Cat")
    with pytest.raises(ValueError):
        await repo.join_game(game.id, user_id=4, display_name="D", ready_deck="a", saved_deck_id=1)


async def test_joining_a_started_game_is_refused(repo: Repository) -> None:
    game = await started_game(repo, 5)
    with pytest.raises(WrongGameStatus) as caught:
        await repo.join_game(game.id, user_id=77, display_name="Late")
    assert str(caught.value) == f"Cannot join: game #{game.id} is already under way."
    assert caught.value.status == "active"


async def test_starting_renumbers_seats_and_stores_the_initial_state(
    repo: Repository,
) -> None:
    game = await repo.create_game(5, ruleset="dice_race", host_user_id=HOST, seed=4242)
    for user in (1, 2, 3):
        await repo.join_game(game.id, user_id=user, display_name=f"U{user}")
    await repo.leave_game(game.id, 1)  # seats 1 and 2 remain
    options = Options(target=25, hand_size=3)
    state, events = DICE_RACE.new_game(options, 2, game.seed)
    started = await repo.start_game(
        game.id, state=state, events=events, options=options, actor_user_id=HOST
    )
    assert (started.status, started.players, started.version) == (GameStatus.ACTIVE, 2, 0)
    assert started.options == {"target": 25, "hand_size": 3}
    assert started.state_json == DICE_RACE.dump_state(state)
    assert [(s.seat, s.user_id) for s in await repo.seats(game.id)] == [(0, 2), (1, 3)]
    page = await repo.read_log_unredacted(game.id)
    assert [(e.seq, e.kind.value, e.actor_user_id) for e in page.entries] == [(1, "setup", HOST)]
    assert page.entries[0].events == tuple(events)


async def test_starting_with_seat_gaps_keeps_every_seats_columns(repo: Repository) -> None:
    """Seats renumbered at the start (a gap left by a leaver) keep their computer level,
    deck and DM reachability: the rows move, nothing is rebuilt from a partial read."""
    game = await repo.create_game(5, ruleset="dice_race", host_user_id=HOST, seed=99)
    await repo.join_game(game.id, user_id=1, display_name="Ann")  # seat 0, leaves
    await repo.add_ai_seat(game.id, display_name="Hard", ai_level="hard")  # seat 1
    await repo.join_game(game.id, user_id=3, display_name="Cat", ready_deck="red")  # seat 2
    await repo.add_ai_seat(game.id, display_name="Normal", ai_level="normal")  # seat 3
    await repo.add_ai_seat(game.id, display_name="Easy")  # seat 4, no level named
    await repo.leave_game(game.id, 1)
    assert await repo.set_dm_reachable(3, False) == 1
    options = Options(target=25, hand_size=3)
    state, events = DICE_RACE.new_game(options, 4, game.seed)
    await repo.start_game(game.id, state=state, events=events, options=options, actor_user_id=HOST)
    seats = await repo.seats(game.id)
    assert [
        (s.seat, s.display_name, s.is_ai, s.ai_level, s.ready_deck, s.dm_reachable) for s in seats
    ] == [
        (0, "Hard", True, "hard", None, None),
        (1, "Cat", False, None, "red", False),
        (2, "Normal", True, "normal", None, None),
        (3, "Easy", True, None, None, None),
    ]


async def test_start_checks_the_state_against_the_lobby(repo: Repository) -> None:
    game = await repo.create_game(5, ruleset="dice_race", seed=1)
    await repo.join_game(game.id, user_id=1, display_name="Ann")
    options = Options()
    wrong_seed, _ = DICE_RACE.new_game(options, 1, 2)
    with pytest.raises(ValueError, match="seed"):
        await repo.start_game(
            game.id, state=wrong_seed, events=[], options=options, actor_user_id=1
        )
    two_players, _ = DICE_RACE.new_game(options, 2, 1)
    with pytest.raises(ValueError, match=r"2 players but .* 1 seats"):
        await repo.start_game(
            game.id, state=two_players, events=[], options=options, actor_user_id=1
        )
    assert (await repo.get_game(game.id)).status is GameStatus.LOBBY


async def test_games_a_user_sits_in(repo: Repository) -> None:
    a = await started_game(repo, 1, players=2)
    b = await started_game(repo, 2, players=3)
    finished = await started_game(repo, 3, players=2)
    await repo.end_game(finished.id, moderator_user_id=HOST, reason="done")
    mine = await repo.games_for_user(player(1))
    assert sorted((s.game.id, s.seat.seat) for s in mine) == [(a.id, 1), (b.id, 1)]
    assert [s.game.id for s in await repo.games_for_user(player(2))] == [b.id]
    everything = await repo.games_for_user(player(0), statuses=frozenset(GameStatus))
    assert len(everything) == 3


async def test_dm_reachability_is_recorded_on_open_seats(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2)
    assert (await repo.seats(game.id))[0].dm_reachable is None
    assert await repo.set_dm_reachable(player(0), False) == 1
    seats = await repo.seats(game.id)
    assert [s.dm_reachable for s in seats] == [False, None]


async def test_saved_decks(repo: Repository, clock: Clock) -> None:
    deck = await repo.save_deck(1, ruleset="homm4", name="Necro", cards=["lich", "lich", "ghost"])
    clock.advance(timedelta(minutes=5))
    again = await repo.save_deck(1, ruleset="homm4", name="Necro", cards=["lich"])
    assert again.id == deck.id and again.cards == ("lich",)
    assert again.updated_at == START + timedelta(minutes=5) and again.created_at == START
    await repo.save_deck(1, ruleset="homm4", name="Angels", cards=["angel"])
    await repo.save_deck(2, ruleset="homm4", name="Necro", cards=["imp"])
    assert [d.name for d in await repo.list_decks(1)] == ["Angels", "Necro"]
    assert await repo.get_deck(deck.id) == again

    game = await repo.create_game(5, ruleset="homm4")
    seat = await repo.join_game(game.id, user_id=1, display_name="Ann", saved_deck_id=deck.id)
    assert seat.saved_deck_id == deck.id
    with pytest.raises(DeckNotFound):  # someone else's deck
        await repo.join_game(game.id, user_id=2, display_name="Bob", saved_deck_id=deck.id)
    assert not await repo.delete_deck(deck.id, user_id=2)
    assert await repo.delete_deck(deck.id, user_id=1)
    assert (await repo.seats(game.id))[0].saved_deck_id is None
    with pytest.raises(DeckNotFound):
        await repo.get_deck(deck.id)
    chosen = await repo.choose_deck(game.id, 0, ready_deck="starter")
    assert (chosen.ready_deck, chosen.saved_deck_id) == ("starter", None)


async def test_options_change_only_in_the_lobby(repo: Repository) -> None:
    game = await repo.create_game(5, ruleset="dice_race", options={"target": 30})
    updated = await repo.update_options(game.id, {"target": 50})
    assert updated.options == {"target": 50}
    started = await started_game(repo, 6)
    with pytest.raises(WrongGameStatus):
        await repo.update_options(started.id, {"target": 10})
    assert load(await repo.get_game(started.id)).target == 40


async def test_games_to_resume_are_the_active_ones_with_a_computer_or_standing_orders(
    repo: Repository,
) -> None:
    async def with_computer(channel_id: int) -> int:
        lobby = await repo.create_game(channel_id, ruleset="dice_race", guild_id=1, seed=5)
        await repo.join_game(lobby.id, user_id=player(0), display_name="Player 0")
        await repo.add_ai_seat(lobby.id, display_name="Computer")
        parsed = DICE_RACE.parse_options(lobby.options)
        assert isinstance(parsed, Options)
        state, events = DICE_RACE.new_game(parsed, 2, lobby.seed)
        started = await repo.start_game(
            lobby.id, state=state, events=events, options=parsed, actor_user_id=HOST
        )
        return started.id

    humans = await started_game(repo, 1)
    computer = await with_computer(2)
    ordered = await started_game(repo, 3)
    await repo.set_standing_order(ordered.id, 1, "retreat", "never")
    paused = await with_computer(4)
    await repo.pause(paused, moderator_user_id=HOST, reason="a break")
    ended = await with_computer(5)
    await repo.end_game(ended, moderator_user_id=HOST, reason="players left")
    lobby = await repo.create_game(6, ruleset="dice_race", guild_id=1)
    await repo.add_ai_seat(lobby.id, display_name="Computer")
    assert humans.id < computer
    assert await repo.games_to_resume() == [computer, ordered.id]
    away = await started_game(repo, 7)
    await repo.set_away(away.id, 2, START + timedelta(days=1))  # the computer plays seat 2
    assert await repo.games_to_resume() == [computer, ordered.id, away.id]
    await repo.set_away(away.id, 2, None)
    assert await repo.games_to_resume() == [computer, ordered.id]
