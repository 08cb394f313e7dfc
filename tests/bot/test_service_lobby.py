"""The lobby through the GameService: one game per channel, seats, options, decks, start."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import BadOption, DeckProblem, NotHost, WrongStage
from engine.homm4.cards import load_card_pool
from engine.homm4.decks import deck_text
from storage.errors import AlreadySeated, ChannelBusy, LobbyFull
from storage.records import GameStatus
from tests.bot.service_helpers import CHANNEL, GUILD, make_service, person


def haven_list() -> str:
    """The ready-made Haven deck as pasted text (40 cards)."""
    return deck_text(dict(load_card_pool().decks["deck_haven"].cards))


async def test_the_host_opens_a_lobby_and_takes_the_first_seat(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        out = await service.new_game(person(1), CHANNEL, guild_id=GUILD, players=3)
        assert out.posts[0].key == "lobby"
        assert "Seats 1/3" in out.posts[0].text
        labels = [c.label for c in out.posts[0].components]  # type: ignore[union-attr]
        assert labels == ["Join", "Leave", "Add a computer player", "Start (host)"]
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.host_user_id == 1 and game.status is GameStatus.LOBBY
        seats = await repo.seats(game.id)
        assert [(s.seat, s.user_id) for s in seats] == [(0, 1)]
        assert 0 <= game.seed < 2**63
    finally:
        await repo.close()


async def test_one_game_per_channel(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD)
        with pytest.raises(ChannelBusy, match="already has"):
            await service.new_game(person(2), CHANNEL, guild_id=GUILD)
        await service.new_game(person(2), CHANNEL + 1, guild_id=GUILD)
    finally:
        await repo.close()


async def test_only_the_host_or_a_moderator_starts_adds_computers_and_changes_options(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD)
        await service.join(person(2), CHANNEL)
        with pytest.raises(NotHost, match="Only the host"):
            await service.start(person(2), CHANNEL)
        with pytest.raises(NotHost):
            await service.add_ai(person(2), CHANNEL)
        with pytest.raises(NotHost):
            await service.set_options(person(2), CHANNEL, map_sections=5)
        await service.set_options(person(1), CHANNEL, map_sections=5, deadline_hours=12)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.options["map_sections"] == 5
        settings = await repo.game_settings(game.id)
        assert (
            settings.turn_deadline is not None
            and settings.turn_deadline.total_seconds() == 12 * 3600
        )
        out = await service.start(person(7, moderator=True), CHANNEL)
        assert out.posts[0].text.startswith(
            "⚔️ **Game #1 begins.** 🛡️ Started by moderator Player 7 (<@7>) for the host <@1>."
        )
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.status is GameStatus.ACTIVE
        with pytest.raises(WrongStage, match="already started"):
            await service.join(person(3), CHANNEL)
    finally:
        await repo.close()


@pytest.mark.rule("homm4:setup")
async def test_a_game_needs_two_players_and_a_lobby_holds_the_seats_wanted(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, players=2)
        with pytest.raises(BadOption, match="at least 2 players; 1 seated"):
            await service.start(person(1), CHANNEL)
        await service.join(person(2), CHANNEL)
        with pytest.raises(LobbyFull):
            await service.join(person(3), CHANNEL)
        await service.set_options(person(1), CHANNEL, players=3)
        with pytest.raises(AlreadySeated):
            await service.join(person(2), CHANNEL)
        await service.leave(person(2), CHANNEL)
        seats = await repo.seats((await repo.game_in_channel(CHANNEL)).id)  # type: ignore[union-attr]
        assert [s.user_id for s in seats] == [1]
    finally:
        await repo.close()


async def test_lobby_buttons_join_and_start(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        out = await service.new_game(person(1), CHANNEL, guild_id=GUILD)
        join, _, add_ai, start = out.posts[0].components
        await service.click(person(2), join.custom_id)
        await service.click(person(1), add_ai.custom_id)
        with pytest.raises(NotHost):
            await service.click(person(2), start.custom_id)
        await service.click(person(1), start.custom_id)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.players == 3
    finally:
        await repo.close()


@pytest.mark.rule("homm4:setup")
async def test_deck_import_lists_every_problem_and_saves_only_legal_decks(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        with pytest.raises(DeckProblem) as unreadable:
            await service.deck_import(
                person(1), None, name="bad", text="3x Orc; 2x Gobblin; 4x Notacard"
            )
        assert "Line 2" in unreadable.value.message and "Line 3" in unreadable.value.message
        with pytest.raises(DeckProblem) as small:
            await service.deck_import(person(1), None, name="small", text="3x Orc; 2x Medusa")
        assert "not legal, so it was not saved" in small.value.message
        assert "at least 40" in small.value.message
        assert await repo.list_decks(1) == []
        out = await service.deck_import(
            person(1), None, name="Knights", text=haven_list().replace("\n", "; ")
        )
        assert out.reply is not None and out.reply.ephemeral and "40 cards" in out.reply.text
        listed = await service.deck_list(person(1), None)
        assert "Knights" in listed.reply.text  # type: ignore[union-attr]
        shown = await service.deck_show(person(1), None, name="knights")
        assert "40 cards" in shown.reply.text and shown.reply.ephemeral  # type: ignore[union-attr]
        await service.deck_delete(person(1), None, name="Knights")
        with pytest.raises(DeckProblem, match="no deck called"):
            await service.deck_show(person(1), None, name="Knights")
    finally:
        await repo.close()


@pytest.mark.rule("homm4:setup")
async def test_a_pasted_list_whose_line_breaks_discord_dropped_is_still_read(
    tmp_path: Path,
) -> None:
    """Discord turns the line breaks of a list pasted into a slash option into spaces; the
    entries are found again by their counts, and commas separate entries as well."""
    repo, service = await make_service(tmp_path)
    try:
        flat = haven_list().replace("\n", " ")
        assert flat.startswith("2x Haven 1x Mother Ysolde 1x Sir Aldric")
        out = await service.deck_import(person(1), None, name="flat", text=flat)
        assert out.reply is not None and "40 cards" in out.reply.text
        commas = haven_list().replace("\n", ", ")
        out = await service.deck_import(person(1), None, name="commas", text=commas)
        assert out.reply is not None and "40 cards" in out.reply.text
        decks = {d.name: sorted(d.cards) for d in await repo.list_decks(1)}
        assert decks["flat"] == decks["commas"] and len(decks["flat"]) == 40
        with pytest.raises(DeckProblem) as bad:
            await service.deck_import(person(1), None, name="x", text="3x Pikeman, 2x Nosuch")
        assert "Line 2: 'Nosuch' is not a card of the pool" in bad.value.message
    finally:
        await repo.close()


async def test_saved_decks_are_used_and_a_ready_made_only_game_refuses_them(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.deck_import(person(2), None, name="mine", text=haven_list())
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, deck="necropolis")
        await service.join(person(2), CHANNEL, deck="mine")
        with pytest.raises(DeckProblem, match="No deck called"):
            await service.choose_deck(person(1), CHANNEL, deck="nonsense")
        await service.start(person(1), CHANNEL)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        decks = game.options["decks"]
        assert decks[0]["deck"] == "deck_necropolis"
        assert sum(decks[1]["cards"].values()) == 40
        await service.new_game(person(1), CHANNEL + 1, guild_id=GUILD, deck_rule="ready-made")
        with pytest.raises(DeckProblem, match="ready-made decks only"):
            await service.join(person(2), CHANNEL + 1, deck="mine")
    finally:
        await repo.close()


async def test_seats_without_a_deck_are_dealt_different_ready_made_decks(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, seed=3)
        await service.add_ai(person(1), CHANNEL, count=3)
        await service.start(person(1), CHANNEL)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        dealt = [d["deck"] for d in game.options["decks"]]
        assert len(set(dealt)) == 4
    finally:
        await repo.close()
