"""``/game list`` (issue 16): the server's open lobbies and running games with jump links,
page by page, and joining a lobby from the list — through the `GameService`, then through
the real bot and the fake Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import customids
from bot.errors import BadOption
from bot.lobby import GAME_LIST, LIST_PAGE
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.bot.service_helpers import GUILD, make_service, person, started_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

OTHER_GUILD = GUILD + 1
TITLE = "Heroes of Might & Magic IV: the card & tile game"


async def test_the_list_shows_lobbies_first_then_running_games_of_this_server_only(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    running = await started_game(service, channel=500)
    await service.new_game(person(3), 501, guild_id=GUILD, players=2)
    await service.new_game(person(4), 502, guild_id=OTHER_GUILD)
    out = await service.run(person(5), ("game", "list"), channel_id=503, guild_id=GUILD)
    assert out.reply is not None
    assert out.reply.text.splitlines() == [
        "**Games on this server**: 1 open lobby, 1 running",
        f"**#2 {TITLE}** · lobby · seats 1/2 · host Player 3 · "
        f"https://discord.com/channels/{GUILD}/501",
        f"**#{running.id} {TITLE}** · running · 2 players (Player 1) · "
        f"https://discord.com/channels/{GUILD}/500",
        "Join a lobby with its button, or with /game join in its channel.",
    ]
    [join] = out.reply.components
    assert join.label == "Join #2"
    assert join.custom_id == customids.encode(2, 0, "join")
    # the button joins the lobby in its own channel, wherever the list was shown
    joined = await service.click(person(5), join.custom_id, channel_id=503, guild_id=GUILD)
    assert joined.reply is not None and joined.reply.text.startswith("You have a seat.")
    assert [p.channel_id for p in joined.posts] == [501]
    seats = await repo.seats(2)
    assert [s.user_id for s in seats] == [3, 5]
    full = await service.run(person(6), ("game", "list"), channel_id=503, guild_id=GUILD)
    assert full.reply is not None
    assert "· lobby · seats 2/2 (full) · host Player 3 ·" in full.reply.text
    assert full.reply.components == ()  # a full lobby has no Join button
    await repo.close()


async def test_the_list_goes_page_by_page_with_buttons(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    for number in range(LIST_PAGE + 1):
        await service.new_game(person(10 + number), 600 + number, guild_id=GUILD)
    first = await service.run(person(1), ("game", "list"), channel_id=1, guild_id=GUILD)
    assert first.reply is not None
    lines = first.reply.text.splitlines()
    assert lines[0] == f"**Games on this server**: {LIST_PAGE + 1} open lobbies, 0 running"
    assert [line.split(" · ")[0] for line in lines[1 : LIST_PAGE + 1]] == [
        f"**#{n} {TITLE}**" for n in range(LIST_PAGE + 1, 1, -1)
    ]
    assert lines[LIST_PAGE + 1] == "Page 1 of 2. Next: /game list page:2"
    labels = [b.label for b in first.reply.components]
    assert labels == [*(f"Join #{n}" for n in range(LIST_PAGE + 1, 1, -1)), "Page 2 ▶"]
    after = first.reply.components[-1].custom_id
    assert after == customids.encode(0, 0, GAME_LIST, 2)
    second = await service.click(person(1), after, channel_id=1, guild_id=GUILD)
    assert second.reply is not None
    assert second.reply.text.splitlines()[1].startswith(f"**#1 {TITLE}**")
    assert "Page 2 of 2." in second.reply.text
    assert [b.label for b in second.reply.components] == ["Join #1", "◀ Page 1"]
    with pytest.raises(BadOption, match="This server has 2 pages of games \\(9 games\\); page 3"):
        await service.run(person(1), ("game", "list"), {"page": 3}, channel_id=1, guild_id=GUILD)
    await repo.close()


async def test_an_empty_server_is_told_how_to_open_a_game(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    out = await service.run(person(1), ("game", "list"), channel_id=1, guild_id=GUILD)
    assert out.reply is not None
    assert out.reply.text.startswith("No open lobby or running game on this server.")
    await repo.close()


async def test_joining_from_the_list_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    tavern = table.guild.create_text_channel("tavern")
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        opened = await fake_discord.slash(
            table.ann, table.channel, "game new", where="here", players=2
        )
        await opened.final_message()
        listed = await (await fake_discord.slash(table.bob, tavern, "game list")).final_message()
        assert listed.ephemeral
        link = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}"
        assert f"· lobby · seats 1/2 · host ann · {link}" in listed.content
        join = listed.find_component(label="Join #1")
        clicked = await fake_discord.click(table.bob, listed, join["custom_id"])
        reply = await clicked.final_message()
        assert reply.content.startswith("You have a seat."), reply.content
        seats = await heroes_bot(runner).service.repo.seats(1)
        assert [s.display_name for s in seats] == ["ann", "bob"]
        lobby = table.channel.last_message()
        assert lobby is not None and "• Blue: bob" in lobby.content
        assert tavern.public_messages() == []
    fake_discord.assert_no_violations()
