"""Unit tests of the fake Discord's command schema builder and limit checks (no bot, no I/O)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord, ImpossibleInteraction, Upload
from tests.fakediscord.limits import command_problems, message_problems, modal_problems
from tests.fakediscord.schema import InvocationContext, build_command_data

GAME = {
    "name": "game",
    "description": "Play",
    "type": 1,
    "options": [
        {
            "type": 1,
            "name": "new",
            "description": "Start",
            "options": [
                {
                    "type": 4,
                    "name": "players",
                    "description": "Seats",
                    "required": True,
                    "min_value": 2,
                    "max_value": 6,
                },
                {
                    "type": 3,
                    "name": "ruleset",
                    "description": "Game",
                    "required": True,
                    "choices": [
                        {"name": "HoMM IV", "value": "homm4"},
                        {"name": "MMH", "value": "mmh"},
                    ],
                },
                {"type": 6, "name": "rival", "description": "Who", "required": False},
                {"type": 11, "name": "deck", "description": "Deck file", "required": False},
            ],
        },
        {
            "type": 2,
            "name": "admin",
            "description": "Moderation",
            "options": [
                {
                    "type": 1,
                    "name": "kick",
                    "description": "Kick",
                    "options": [
                        {
                            "type": 7,
                            "name": "where",
                            "description": "Channel",
                            "required": True,
                            "channel_types": [0],
                        }
                    ],
                }
            ],
        },
    ],
    "dm_permission": False,
    "contexts": [0],
}
RESET = {
    "name": "reset",
    "description": "Reset",
    "type": 1,
    "default_member_permissions": "32",
    "contexts": [0, 1],
}


@pytest.fixture
def fake() -> FakeDiscord:
    fake = FakeDiscord()
    fake.store_commands(None, [GAME, RESET])
    return fake


def data_for(
    fake: FakeDiscord, user: Any, channel: Any, command: str, **options: Any
) -> dict[str, Any]:
    name, *path = command.split()
    ctx = InvocationContext(fake.world, user, channel)
    return build_command_data(fake.find_command(name, channel), path, options, ctx)


def test_subcommand_options_nest_like_discords_client(fake: FakeDiscord) -> None:
    guild = fake.create_guild()
    ann = fake.create_user("ann")
    bob = fake.create_user("bob")
    guild.add_member(ann)
    guild.add_member(bob)
    data = data_for(
        fake,
        ann,
        guild.channel_named("general"),
        "game new",
        players=3,
        ruleset="mmh",
        rival=bob,
        deck=Upload("deck.txt", b"Griffin x2"),
    )
    (sub,) = data["options"]
    assert sub["name"] == "new" and sub["type"] == 1
    values = {o["name"]: o["value"] for o in sub["options"]}
    assert values["players"] == 3 and values["rival"] == str(bob.id)
    assert data["resolved"]["users"][str(bob.id)]["username"] == "bob"
    assert "user" not in data["resolved"]["members"][str(bob.id)]
    (attachment,) = data["resolved"]["attachments"].values()
    assert attachment["filename"] == "deck.txt" and attachment["size"] == 10


@pytest.mark.parametrize(
    ("command", "options", "message"),
    [
        ("games new", {}, "no synced command /games"),
        ("game", {}, "is a group"),
        ("game start", {}, "no subcommand 'start'"),
        ("game new", {"players": 3}, "required option 'ruleset' is missing"),
        ("game new", {"players": 3, "ruleset": "mmh", "colour": "red"}, "unknown options"),
        ("game new", {"players": "3", "ruleset": "mmh"}, "is a integer"),
        ("game new", {"players": True, "ruleset": "mmh"}, "is a integer"),
        ("game new", {"players": 7, "ruleset": "mmh"}, r"outside \[2, 6\]"),
        ("game new", {"players": 3, "ruleset": "homm9"}, "not one of"),
        ("game new", {"players": 3, "ruleset": "mmh", "rival": "bob"}, "is a user"),
        ("game admin", {}, "is a group"),
    ],
)
def test_what_the_client_would_never_send_is_refused(
    fake: FakeDiscord, command: str, options: dict[str, Any], message: str
) -> None:
    guild = fake.create_guild()
    ann = fake.create_user("ann")
    guild.add_member(ann)
    with pytest.raises(ImpossibleInteraction, match=message):
        data_for(fake, ann, guild.channel_named("general"), command, **options)


def test_channel_option_respects_channel_types(fake: FakeDiscord) -> None:
    guild = fake.create_guild()
    ann = fake.create_user("ann")
    guild.add_member(ann)
    general = guild.channel_named("general")
    thread = guild.create_thread(general, "game-1")
    data = data_for(fake, ann, general, "game admin kick", where=general)
    assert data["options"][0]["options"][0]["options"][0]["value"] == str(general.id)
    with pytest.raises(ImpossibleInteraction, match="channel type 11"):
        data_for(fake, ann, general, "game admin kick", where=thread)


def test_default_member_permissions_hide_a_command(fake: FakeDiscord) -> None:
    guild = fake.create_guild()
    ann, mod = fake.create_user("ann"), fake.create_user("mod")
    guild.add_member(ann)
    guild.add_member(mod, roles=[fake.create_moderator_role(guild)])
    general = guild.channel_named("general")
    assert data_for(fake, mod, general, "reset")["name"] == "reset"
    with pytest.raises(ImpossibleInteraction, match="needs permissions 0x20"):
        data_for(fake, ann, general, "reset")
    assert data_for(fake, ann, fake.dm_channel(ann), "reset")["name"] == "reset"


def test_guild_only_commands_are_not_offered_in_dms(fake: FakeDiscord) -> None:
    ann = fake.create_user("ann")
    with pytest.raises(ImpossibleInteraction, match="not available in DMs"):
        data_for(fake, ann, fake.dm_channel(ann), "game new", players=2, ruleset="mmh")


async def test_users_act_only_where_they_are(fake: FakeDiscord) -> None:
    guild = fake.create_guild()
    stranger = fake.create_user("stranger")
    with pytest.raises(ImpossibleInteraction, match="not a member"):
        await fake.slash(stranger, guild.channel_named("general"), "reset")
    with pytest.raises(ImpossibleInteraction, match="another user's DM"):
        await fake.slash(stranger, fake.dm_channel(fake.create_user("ann")), "reset")


def option(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "d"} | extra


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ({"name": "Game", "description": "d"}, "must be lower case"),
        ({"name": "a" * 33, "description": "d"}, "1-32 letters"),
        ({"name": "has space", "description": "d"}, "1-32 letters"),
        ({"name": "ok", "description": ""}, "description: must be 1-100"),
        ({"name": "ok", "description": "x" * 101}, "description: must be 1-100"),
        (
            {"name": "ok", "description": "d", "options": [option(f"o{i}") for i in range(26)]},
            "26 options",
        ),
        (
            {
                "name": "ok",
                "description": "d",
                "options": [
                    option("o", choices=[{"name": str(i), "value": str(i)} for i in range(26)])
                ],
            },
            "26 choices",
        ),
        (
            {
                "name": "ok",
                "description": "d",
                "options": [option("a"), option("b", required=True)],
            },
            "required options must come",
        ),
        (
            {
                "name": "ok",
                "description": "d",
                "options": [option("a", choices=[{"name": "x", "value": "x"}], autocomplete=True)],
            },
            "both choices and autocomplete",
        ),
        (
            {
                "name": "ok",
                "description": "d",
                "options": [
                    {
                        "type": 2,
                        "name": "g",
                        "description": "d",
                        "options": [
                            {"type": 1, "name": f"s{i}", "description": "d"} for i in range(26)
                        ],
                    }
                ],
            },
            "26 options",
        ),
        (
            {
                "name": "ok",
                "description": "d",
                "options": [{"type": 1, "name": "s", "description": "d"}, option("x")],
            },
            "cannot be mixed",
        ),
    ],
)
def test_command_limits(command: dict[str, Any], message: str) -> None:
    problems = command_problems([command | {"type": 1}], scope="global")
    assert any(message in f"{path}: {text}" for path, text in problems), problems


def test_at_most_100_global_commands() -> None:
    commands = [{"name": f"c{i}", "description": "d", "type": 1} for i in range(101)]
    assert command_problems(commands, scope="global") == [
        ("global", "101 chat input commands, at most 100")
    ]


def button(custom_id: str = "b", label: str = "Go", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label} | extra


@pytest.mark.parametrize(
    ("payload", "files", "message"),
    [
        ({"content": "x" * 2001}, [], "got 2001"),
        ({}, [], "Cannot send an empty message"),
        ({"embeds": [{"title": "t"}] * 11}, [], "11 embeds"),
        ({"embeds": [{"title": "t" * 257}]}, [], "must be 0-256"),
        ({"embeds": [{"description": "d" * 4097}]}, [], "must be 0-4096"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, [], "26 fields"),
        (
            {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
            [],
            "6001 characters",
        ),
        (
            {"embeds": [{"image": {"url": "attachment://board.png"}}]},
            ["map.png"],
            "names no attachment",
        ),
        ({"components": [{"type": 1, "components": [button("x" * 101)]}]}, [], "must be 1-100"),
        ({"components": [{"type": 1, "components": [button(label="L" * 81)]}]}, [], "must be 0-80"),
        (
            {"components": [{"type": 1, "components": [button(f"b{i}") for i in range(6)]}]},
            [],
            "6 components in a row",
        ),
        ({"components": [{"type": 1, "components": [button()]}] * 2}, [], "duplicate custom_ids"),
        (
            {"components": [{"type": 1, "components": [button(f"r{i}")]} for i in range(6)]},
            [],
            "6 action rows",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                            }
                        ],
                    }
                ]
            },
            [],
            "26 options",
        ),
        (
            {"content": "x", "flags": 32768, "components": [{"type": 10, "content": "hi"}]},
            [],
            "cannot carry content",
        ),
    ],
)
def test_message_limits(payload: dict[str, Any], files: list[str], message: str) -> None:
    problems = message_problems(payload, filenames=files, partial=False)
    assert any(message in f"{path}: {text}" for path, text in problems), problems


def test_discord_py_views_pass_the_limits() -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Join", custom_id="join"))
    view.add_item(discord.ui.Select(custom_id="pick", options=[discord.SelectOption(label="a")]))
    embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
    payload = {"content": "x", "embeds": [embed.to_dict()], "components": view.to_components()}
    assert message_problems(payload, filenames=["board.png"], partial=False) == []


def test_modal_limits() -> None:
    modal = {"title": "T" * 46, "custom_id": "m", "components": []}
    texts = [text for _, text in modal_problems(modal)]
    assert "must be 1-45 characters, got 46: " + repr("T" * 46) in texts
    assert "0 components, 1-5 allowed" in texts
