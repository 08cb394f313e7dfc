"""End-to-end tests of the fake Discord with a tiny demo bot run by the real discord.py."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from typing import Literal

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import FakeDiscord, FakeGuild, FakeUser, ImpossibleInteraction, Upload
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (the fake_discord fixture)

RULESETS = ["homm4", "mmh", "homm3", "heroforge"]


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"game:join:(?P<game>\d+)"):
    """A Join button whose custom id carries the game number, so it works after a restart."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"game:join:{game}"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        seats = interaction.client.seats.setdefault(self.game, [])  # type: ignore[attr-defined]
        seats.append(interaction.user.id)
        await interaction.response.send_message(f"{interaction.user.name} joined game {self.game}")


class HeroModal(discord.ui.Modal, title="Name your hero"):
    hero = discord.ui.TextInput(label="Hero", custom_id="hero", max_length=20)
    town = discord.ui.Label(
        text="Town",
        component=discord.ui.Select(
            custom_id="town",
            options=[discord.SelectOption(label=t.title(), value=t) for t in ("haven", "inferno")],
        ),
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        town = self.town.component
        assert isinstance(town, discord.ui.Select)
        text = f"Hero: {self.hero.value} of {town.values[0]}"
        await interaction.response.send_message(text, ephemeral=True)


class FactionView(discord.ui.View):
    @discord.ui.select(
        custom_id="faction",
        options=[
            discord.SelectOption(label=name.title(), value=name) for name in ("haven", "necropolis")
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"Faction: {select.values[0]}", view=None)


class HandView(discord.ui.View):
    @discord.ui.button(label="Play", custom_id="hand:play")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="played Griffin", view=None)


def png_bytes(width: int = 120, height: int = 90) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


def make_bot(*, shards: bool = False) -> commands.Bot:
    """The demo bot: one of each kind of thing the fake must handle."""
    intents = discord.Intents.default()
    intents.members = True
    cls = commands.AutoShardedBot if shards else commands.Bot
    bot = cls(command_prefix="!", intents=intents, guild_ready_timeout=0.01)
    bot.seats = {}  # type: ignore[attr-defined]
    game = app_commands.Group(name="game", description="Play a game", guild_only=True)

    @game.command(name="new", description="Start a game")
    @app_commands.describe(players="How many seats", ruleset="Which game")
    async def game_new(
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 6],
        ruleset: Literal["homm4", "mmh", "homm3", "heroforge"],
    ) -> None:
        number = len(bot.seats) + 1  # type: ignore[attr-defined]
        bot.seats[number] = []  # type: ignore[attr-defined]
        view = discord.ui.View(timeout=None).add_item(JoinButton(number))
        embed = discord.Embed(title=f"Game {number}", description=f"{ruleset}, {players} seats")
        await interaction.response.send_message(embed=embed, view=view)

    @game.command(name="join", description="Join by ruleset")
    async def game_join(interaction: discord.Interaction, ruleset: str) -> None:
        await interaction.response.send_message(f"looking for {ruleset}", ephemeral=True)

    @game_join.autocomplete("ruleset")
    async def ruleset_choices(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=r, value=r) for r in RULESETS if r.startswith(current)]

    bot.tree.add_command(game)

    # Not a subcommand: discord.py drops default_permissions on subcommands (Discord only
    # supports them on top-level commands), and the fake then lets anyone run it.
    @bot.tree.command(name="deal", description="Deal hands by DM")
    @app_commands.default_permissions(manage_guild=True)
    async def deal(interaction: discord.Interaction, game_number: int) -> None:
        failed = []
        for seat, user_id in enumerate(bot.seats[game_number], 1):  # type: ignore[attr-defined]
            user = await bot.fetch_user(user_id)
            try:
                await user.send(f"Your hand (seat {seat}): Griffin, Angel")
            except discord.Forbidden as exc:
                if exc.code != 50007:
                    raise
                failed.append(user.name)
        text = f"could not DM {', '.join(failed)}" if failed else "hands dealt"
        await interaction.response.send_message(text, ephemeral=True)

    @bot.tree.command(description="Is the bot alive?")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    @bot.tree.command(description="Draw the board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        image = await asyncio.to_thread(png_bytes)
        await interaction.followup.send(
            "the board", file=discord.File(io.BytesIO(image), "board.png")
        )

    @bot.tree.command(description="Post in the channel")
    async def announce(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        await interaction.channel.send("Hear ye!")  # type: ignore[union-attr]
        await interaction.followup.send("announced")  # stays ephemeral: it edits the defer

    @bot.tree.command(description="Answers too late")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.15)
        await interaction.response.send_message("finally")

    @bot.tree.command(description="Too much text")
    async def shout(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("A" * 2001)
        except discord.HTTPException:  # refused: the interaction is still unacknowledged
            await interaction.response.send_message("too long, sorry", ephemeral=True)

    @bot.tree.command(description="Name your hero")
    async def hero(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(HeroModal())

    @bot.tree.command(description="Pick a faction")
    async def faction(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Pick a faction", view=FactionView())

    @bot.tree.command(description="Your hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Griffin, Angel", view=HandView(), ephemeral=True)

    @bot.tree.command(description="Echo resolved options")
    async def inspect(
        interaction: discord.Interaction,
        who: discord.Member,
        where: discord.TextChannel,
        role: discord.Role,
        deck: discord.Attachment,
    ) -> None:
        data = await deck.read()
        await interaction.response.send_message(
            f"{who.display_name} {where.name} {role.name} {deck.filename} {data.decode()}"
        )

    @bot.tree.command(description="Post a recap with a thread")
    async def recap(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        embed = discord.Embed(title="Recap").set_image(url="attachment://map.png")
        posted = await channel.send(
            embed=embed, file=discord.File(io.BytesIO(png_bytes()), "map.png")
        )
        await posted.edit(content="Round 1 recap")
        thread = await posted.create_thread(name="round-1")
        await thread.send("discuss here")
        await posted.add_reaction("\N{CROSSED SWORDS}")
        temporary = await channel.send("temporary")
        await temporary.delete()
        seen = [m.content async for m in channel.history(limit=10)]
        await interaction.edit_original_response(content=f"history: {seen}")

    @bot.event
    async def on_message(message: discord.Message) -> None:
        if message.guild is None and message.author != bot.user:
            await message.channel.send(f"echo: {message.content}")

    async def setup_hook() -> None:
        bot.add_dynamic_items(JoinButton)
        await bot.tree.sync()

    async def no_identify_delay(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    bot.before_identify_hook = no_identify_delay  # type: ignore[method-assign]
    return bot


class Table:
    """A guild with a moderator and two players."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.guild: FakeGuild = fake.create_guild("Heroes Tavern")
        self.general = self.guild.channel_named("general")
        self.mod: FakeUser = fake.create_user("morgan")
        self.ann: FakeUser = fake.create_user("ann")
        self.bob: FakeUser = fake.create_user("bob")
        self.guild.add_member(self.mod, roles=[fake.create_moderator_role(self.guild)])
        self.guild.add_member(self.ann)
        self.guild.add_member(self.bob)


@pytest.fixture
def table(fake_discord: FakeDiscord) -> Table:
    return Table(fake_discord)


async def test_login_syncs_commands_and_lists_members(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()) as runner:
        guild = runner.bot.get_guild(table.guild.id)
        assert guild is not None and guild.member_count == 4
        assert {m.name for m in guild.members} == {"Heroes Table", "morgan", "ann", "bob"}
        assert guild.get_member(table.mod.id).guild_permissions.manage_guild  # type: ignore[union-attr]
        assert not guild.get_member(table.ann.id).guild_permissions.manage_guild  # type: ignore[union-attr]
        assert [m.name for m in await guild.query_members("an")] == ["ann"]
        assert (
            not guild.me.guild_permissions.manage_guild and guild.me.guild_permissions.attach_files
        )
        names = {c["name"] for c in fake_discord.commands()}
        assert {"game", "ping", "board"} <= names
        assert fake_discord.gateway.heartbeats >= 1
        runner.assert_no_errors()
    paths = [r.path for r in fake_discord.requests[:2]]
    assert paths == ["/users/@me", "/oauth2/applications/@me"]
    fake_discord.assert_no_violations()


async def test_slash_reply_is_stored_in_the_channel(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()):
        result = await fake_discord.slash(table.ann, table.general, "ping")
        assert result.response is not None and result.response.type == 4
        assert result.response.content == "pong" and not result.response.ephemeral
        message = await result.final_message()
        assert message in table.general.public_messages()
        assert message.interaction_metadata and message.interaction_metadata["name"] == "ping"
    fake_discord.assert_no_violations()


async def test_defer_then_png_followup(fake_discord: FakeDiscord, table: Table) -> None:
    async with fake_discord.run_bot(make_bot()):
        result = await fake_discord.slash(table.ann, table.general, "board")
        message = await result.final_message()
    assert result.response is not None and result.response.name == "deferred message"
    # Discord: the first followup after a defer edits the "thinking…" message.
    assert message is result.original and result.followups == [] and not message.loading
    assert message.content == "the board" and message.edits[0]["content"] == ""
    image = message.attachment("board.png")
    assert image.is_png and Image.open(io.BytesIO(image.data)).size == (120, 90)
    fake_discord.assert_no_violations()


async def test_autocomplete_returns_the_bots_choices(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()):
        typed = await fake_discord.autocomplete(
            table.ann, table.general, "game join", "ruleset", ruleset="ho"
        )
        assert [c["value"] for c in typed.choices] == ["homm4", "homm3"]
        free = await fake_discord.slash(table.ann, table.general, "game join", ruleset="anything")
        assert (await free.final_message()).ephemeral
    fake_discord.assert_no_violations()


async def test_dynamic_button_works_after_restarting_the_bot(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()):
        created = await fake_discord.slash(
            table.mod, table.general, "game new", players=2, ruleset="homm4"
        )
        board = await created.final_message()
        assert board.embeds[0]["title"] == "Game 1"
    async with fake_discord.run_bot(make_bot()) as second:
        click = await fake_discord.click(table.ann, board, label="Join")
        assert (await click.final_message()).content == "ann joined game 1"
        assert second.bot.seats == {1: [table.ann.id]}  # type: ignore[attr-defined]
    assert fake_discord.gateway.identifies == 2 and fake_discord.command_syncs == 2
    fake_discord.assert_no_violations()


async def test_dm_to_a_closed_inbox_gets_50007(fake_discord: FakeDiscord, table: Table) -> None:
    async with fake_discord.run_bot(make_bot()) as runner:
        game = await fake_discord.slash(
            table.mod, table.general, "game new", players=2, ruleset="mmh"
        )
        board = await game.final_message()
        await fake_discord.click(table.ann, board, "game:join:1")
        await fake_discord.click(table.bob, board, "game:join:1")
        fake_discord.close_dms(table.bob)
        deal = await fake_discord.slash(table.mod, table.general, "deal", game_number=1)
        assert (await deal.final_message()).content == "could not DM bob"
        runner.assert_no_errors()
    assert [m.content for m in fake_discord.dms(table.ann)] == [
        "Your hand (seat 1): Griffin, Angel"
    ]
    assert fake_discord.dms(table.bob) == []
    failed = fake_discord.requests_to("POST", "/channels/{channel_id}/messages")
    assert [r.status for r in failed] == [200, 403]


async def test_rate_limited_request_is_retried(fake_discord: FakeDiscord, table: Table) -> None:
    rule = fake_discord.rate_limit("POST", "/channels/{channel_id}/messages", retry_after=0.02)
    async with fake_discord.run_bot(make_bot()) as runner:
        result = await fake_discord.slash(table.ann, table.general, "announce")
        reply = await result.final_message()
        assert reply.content == "announced" and reply.ephemeral
        runner.assert_no_errors()
    assert rule.served == 1 and rule.retried
    assert [m.content for m in table.general.public_messages()] == ["Hear ye!"]
    statuses = [
        r.status for r in fake_discord.requests_to("POST", "/channels/{channel_id}/messages")
    ]
    assert statuses == [429, 200]
    fake_discord.assert_no_violations()


async def test_late_acknowledgement_gets_10062(fake_discord: FakeDiscord, table: Table) -> None:
    fake_discord.ack_timeout = 0.05
    async with fake_discord.run_bot(make_bot()) as runner:
        result = await fake_discord.slash(table.ann, table.general, "slow")
        assert [(c.status, c.code) for c in result.callbacks] == [(404, 10062)]
        assert result.response is None and result.callbacks[0].elapsed > 0.05
        with pytest.raises(AssertionError, match="not acknowledged"):
            await result.final_message()
        (error,) = await runner.wait_for_errors()
        assert error.exc_info and "Unknown interaction" in str(error.exc_info[1])
    assert [v.kind for v in fake_discord.violations] == ["late_ack"]


async def test_second_acknowledgement_gets_40060(fake_discord: FakeDiscord, table: Table) -> None:
    async with fake_discord.run_bot(make_bot()):
        result = await fake_discord.slash(table.ann, table.general, "ping")
        await result.wait_response()
        url = f"{fake_discord.api_url}/interactions/{result.id}/{result.token}/callback"
        async with (
            aiohttp.ClientSession() as http,
            http.post(url, json={"type": 4, "data": {"content": "again"}}) as resp,
        ):
            assert resp.status == 400 and (await resp.json())["code"] == 40060
    assert [(c.status, c.code) for c in result.callbacks] == [(200, None), (400, 40060)]
    assert [v.kind for v in fake_discord.violations] == ["double_ack"]


async def test_content_over_2000_is_refused_and_a_retry_accepted(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()) as runner:
        result = await fake_discord.slash(table.ann, table.general, "shout")
        reply = await result.final_message()
        assert reply.content == "too long, sorry" and reply.ephemeral
        assert [(c.status, c.code) for c in result.callbacks] == [(400, 50035), (200, None)]
        runner.assert_no_errors()
    with pytest.raises(AssertionError, match="content: must be 0-2000 characters, got 2001"):
        fake_discord.assert_no_violations()


async def test_modal_and_select_menu(fake_discord: FakeDiscord, table: Table) -> None:
    async with fake_discord.run_bot(make_bot()) as runner:
        opened = await fake_discord.slash(table.ann, table.general, "hero")
        assert opened.modal["title"] == "Name your hero"
        with pytest.raises(ImpossibleInteraction, match="length 21"):
            await fake_discord.submit_modal(
                table.ann, opened, {"hero": "X" * 21, "town": ["haven"]}
            )
        with pytest.raises(ImpossibleInteraction, match="takes 1-1 values"):
            await fake_discord.submit_modal(table.ann, opened, {"hero": "Gem"})
        submitted = await fake_discord.submit_modal(
            table.ann, opened, {"hero": "Gem", "town": ["haven"]}
        )
        assert (await submitted.final_message()).content == "Hero: Gem of haven"

        menu = await (await fake_discord.slash(table.bob, table.general, "faction")).final_message()
        with pytest.raises(ImpossibleInteraction, match="not in"):
            await fake_discord.select(table.bob, menu, "faction", ["inferno"])
        picked = await fake_discord.select(table.bob, menu, "faction", ["necropolis"])
        assert picked.response is not None and picked.response.name == "update"
        assert menu.content == "Faction: necropolis" and menu.components == []
        assert len(menu.edits) == 1
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_two_players_and_their_dms(fake_discord: FakeDiscord, table: Table) -> None:
    async with fake_discord.run_bot(make_bot()) as runner:
        with pytest.raises(ImpossibleInteraction, match="needs permissions"):
            await fake_discord.slash(table.ann, table.general, "deal", game_number=1)
        game = await fake_discord.slash(
            table.mod, table.general, "game new", players=2, ruleset="homm4"
        )
        board = await game.final_message()
        for player in (table.ann, table.bob):
            joined = await fake_discord.click(player, board, label="Join")
            assert (await joined.final_message()).content == f"{player.name} joined game 1"
        deal = await fake_discord.slash(table.mod, table.general, "deal", game_number=1)
        assert (await deal.final_message()).content == "hands dealt"

        bob_dm = fake_discord.dm_channel(table.bob)
        assert [m.content for m in bob_dm.history()] == ["Your hand (seat 2): Griffin, Angel"]
        private = await fake_discord.slash(table.bob, bob_dm, "hand")
        assert (await private.final_message()).ephemeral
        with pytest.raises(ImpossibleInteraction, match="not available in DMs"):
            await fake_discord.slash(table.bob, bob_dm, "game new", players=2, ruleset="mmh")
        mark = fake_discord.world.message_seq
        await fake_discord.send_message(table.bob, bob_dm, "ready")
        echo = await fake_discord.wait_for_message(bob_dm, after=mark)
        assert echo.content == "echo: ready"
        runner.assert_no_errors()
    assert all("Griffin" not in m.text for m in table.general.public_messages())
    fake_discord.assert_no_violations()


async def test_reconnect_resumes_and_replays_missed_events(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()) as runner:
        await fake_discord.reconnect_gateway()
        result = await fake_discord.slash(table.ann, table.general, "ping")
        assert (await result.final_message()).content == "pong"
        assert fake_discord.gateway.sessions[0].resumes == 1
        runner.assert_no_errors()
    assert fake_discord.gateway.identifies == 1
    fake_discord.assert_no_violations()


async def test_a_malformed_gateway_payload_kills_the_bot_visibly(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()) as runner:
        await fake_discord.gateway.dispatch(
            "INTERACTION_CREATE", {"type": 2}, guild_id=table.guild.id
        )
        await asyncio.wait({runner.task}, timeout=60)  # a guard against a hang only
        with pytest.raises(AssertionError, match="bot task ended"):
            runner.assert_running()
        await runner.stop()


async def test_auto_sharded_bot_gets_each_guild_on_its_shard(fake_discord: FakeDiscord) -> None:
    fake_discord.shard_count = 2
    guilds = [fake_discord.create_guild(f"Tavern {n}") for n in range(4)]
    ann = fake_discord.create_user("ann")
    for guild in guilds:
        guild.add_member(ann)
    async with fake_discord.run_bot(make_bot(shards=True)) as runner:
        assert sorted(runner.bot.shards) == [0, 1]  # type: ignore[attr-defined]
        for guild in guilds:
            result = await fake_discord.slash(ann, guild.channel_named("general"), "ping")
            assert (await result.final_message()).content == "pong"
        shard_of = {s.shard_id for s in fake_discord.gateway.sessions}
        assert shard_of == {0, 1}
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_resolved_options_and_the_attachment_cdn(
    fake_discord: FakeDiscord, table: Table
) -> None:
    heroes = table.guild.create_role("Heroes")
    async with fake_discord.run_bot(make_bot()) as runner:
        result = await fake_discord.slash(
            table.ann,
            table.general,
            "inspect",
            who=table.bob,
            where=table.general,
            role=heroes,
            deck=Upload("deck.txt", b"Griffin x2"),
        )
        message = await result.final_message()
        assert message.content == "bob general Heroes deck.txt Griffin x2"
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_channel_messages_edits_threads_and_reactions(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()) as runner:
        result = await fake_discord.slash(table.mod, table.general, "recap")
        final = await result.final_message()
        runner.assert_no_errors()
    assert final is result.original and result.original_edits == 1
    assert final.content == "history: ['Round 1 recap', '']"
    posted = next(m for m in table.general.public_messages() if m.content == "Round 1 recap")
    assert (
        posted.edits[0]["content"] == ""
        and posted.embeds[0]["image"]["url"] == "attachment://map.png"
    )
    assert posted.attachment("map.png").is_png and posted.reactions == ["\N{CROSSED SWORDS}"]
    (thread,) = table.guild.threads()
    assert thread.id == posted.id and thread.parent is table.general
    assert [m.content for m in thread.history()] == ["discuss here"]
    assert [m.content for m in table.general.messages if m.deleted] == ["temporary"]
    fake_discord.assert_no_violations()


async def test_ephemeral_messages_are_only_clickable_by_their_user(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()):
        shown = await (await fake_discord.slash(table.ann, table.general, "hand")).final_message()
        assert shown.ephemeral and shown not in table.general.public_messages()
        with pytest.raises(ImpossibleInteraction, match="cannot see ephemeral"):
            await fake_discord.click(table.bob, shown, "hand:play")
        played = await fake_discord.click(table.ann, shown, "hand:play")
        assert (await played.final_message()).content == "played Griffin"
    fake_discord.assert_no_violations()


async def eventually(predicate: Callable[[], object], timeout: float = 60.0) -> None:
    """Poll until the bot's cache caught up with a gateway event (``timeout``: a guard
    against a hang, not a timing)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "condition never became true"
        await asyncio.sleep(0.005)


async def test_members_and_channels_added_while_running(
    fake_discord: FakeDiscord, table: Table
) -> None:
    async with fake_discord.run_bot(make_bot()) as runner:
        guild = runner.bot.get_guild(table.guild.id)
        assert guild is not None
        carl = fake_discord.create_user("carl")
        await fake_discord.member_joins(table.guild, carl)
        second = table.guild.create_text_channel("game-2")
        await fake_discord.channel_created(second)
        thread = table.guild.create_thread(second, "round-1")
        await fake_discord.channel_created(thread)
        await eventually(lambda: guild.get_member(carl.id) and guild.get_thread(thread.id))
        assert guild.get_channel(second.id).name == "game-2"  # type: ignore[union-attr]
        result = await fake_discord.slash(carl, thread, "ping")
        assert (await result.final_message()).channel is thread
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
