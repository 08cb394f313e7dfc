"""A game's status panel (issue 16): one Components V2 message per game, edited in place,
sent anew when a moderator deleted it; the plain post below it links to it and pings;
the fake Discord refuses V2 payloads that Discord refuses; the console prints the panel
as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot import customids, local
from bot.discord_components import build_panel
from bot.outbox import Button, ChannelPost, Image, Outbox, Receipt
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.limits import component_problems, message_problems
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

Json = dict[str, Any]
V2 = 1 << 15
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16


def panel_payload(
    text: str = "## homm4 · game #1\nRound 1", *, images: int = 1, buttons: int = 2
) -> list[Json]:
    """What discord.py sends for a panel (`build_panel`)."""
    pictures = [Image(f"p{n}.png", PNG, "the board") for n in range(images)]
    buttons = [Button(f"b{n}", customids.encode(1, 3, "opt", f"{n}.abcde")) for n in range(buttons)]
    components: list[Json] = build_panel(text, pictures, buttons).to_components()
    return components


def test_the_fake_accepts_a_panel_and_refuses_what_discord_refuses() -> None:
    good = panel_payload()
    assert (
        message_problems({"components": good, "flags": V2}, filenames=["p0.png"], partial=False)
        == []
    )
    assert [t for t in (c["type"] for c in good[0]["components"])] == [10, 10, 12, 14, 1]
    # one button goes beside the text, in a section
    lone = panel_payload(buttons=1)
    assert (
        message_problems({"components": lone, "flags": V2}, filenames=["p0.png"], partial=False)
        == []
    )
    section, gallery = lone[0]["components"]
    assert (section["type"], gallery["type"]) == (9, 12)
    assert [c["type"] for c in section["components"]] == [10, 10]
    assert section["accessory"]["label"] == "b0"
    # without the flag, a layout component is refused
    assert any("IS_COMPONENTS_V2" in m for _, m in component_problems(good, v2=False))
    # content or embeds on a V2 message
    refused = message_problems(
        {"components": good, "flags": V2, "content": "hi"}, filenames=["p0.png"], partial=False
    )
    assert any("cannot carry content" in m for _, m in refused)
    # a gallery naming no attachment of the message
    assert any(
        "names no attachment" in m for _, m in component_problems(good, v2=True, filenames=[])
    )
    # more than 4000 characters of text displays
    long = [{"type": 10, "content": "x" * 2001}, {"type": 10, "content": "y" * 2000}]
    assert any("4001 characters" in m for _, m in component_problems(long, v2=True))
    # more than 40 components
    many = [{"type": 14} for _ in range(41)]
    assert any("41 components" in m for _, m in component_problems(many, v2=True))
    # a section needs 1-3 text displays and a button or thumbnail
    section = [{"type": 9, "components": [{"type": 10, "content": "a"}]}]
    assert any("accessory" in p for p, _ in component_problems(section, v2=True))
    # a gallery holds 1-10 items; types 15/16 are no message components
    gallery = [{"type": 12, "items": []}, {"type": 16}]
    problems = component_problems(gallery, v2=True)
    assert any("0 items" in m for _, m in problems) and any("type 16" in m for _, m in problems)


def test_build_panel_stays_within_discords_limits() -> None:
    text = "## heading\n" + "\n".join(f"line {n} " + "x" * 90 for n in range(60))
    components = [Button(f"b{n}", customids.encode(1, 3, "opt", f"{n}.abcde")) for n in range(30)]
    built = build_panel(text, [Image("board.png", PNG)], components).to_components()
    names = ["board.png"]
    assert component_problems(built, v2=True, filenames=names) == []
    rows = [c for c in built[0]["components"] if c["type"] == 1]
    assert len(rows) == 5 and sum(len(r["components"]) for r in rows) == 25


async def test_the_panel_is_edited_in_place_and_sent_anew_once_deleted(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    channel = table.channel

    def news(version: int, picture: bool = True) -> Outbox:
        receipt = Receipt(1, version - 1, version)
        panel = ChannelPost(
            channel.id,
            f"## homm4 · game #1\nmove {version}",
            images=(Image("board.png", PNG, "the board"),) if picture else (),
            components=(Button("Pass", customids.encode(1, version, "opt", "0.abcde")),),
            receipt=receipt,
            decision_of=1,
            panel_of=1,
        )
        ping = ChannelPost(
            channel.id,
            f"Red moved.\n➡️ <@{table.ann.id}> is up:",
            mention_user_ids=(table.ann.id,),
            receipt=receipt,
            panel_link=1,
            guild_id=table.guild.id,
            log_of=1,
        )
        return Outbox(posts=[panel, ping])

    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        deliver = heroes_bot(runner).deliverer.deliver
        await deliver(news(3))
        panel, ping = channel.public_messages()
        assert panel.panel and panel.content == "" and "move 3" in panel.text
        assert [a.filename for a in panel.attachments] == ["board.png"]
        link = f"https://discord.com/channels/{table.guild.id}/{channel.id}/{panel.id}"
        assert ping.content.endswith(link) and not ping.panel
        await deliver(news(4, picture=False))
        assert [m.id for m in channel.public_messages() if m.panel] == [panel.id]
        assert "move 4" in panel.text and len(panel.edits) == 1
        assert [a.filename for a in panel.attachments] == ["board.png"], "the picture stays"
        assert customids.decode(panel.buttons()[0]["custom_id"]).version == 4
        panel.deleted = True  # a moderator cleans the channel
        await deliver(news(5))
        panels = [m for m in channel.public_messages() if m.panel]
        assert len(panels) == 1 and panels[0].id != panel.id and "move 5" in panels[0].text
        newest = channel.public_messages()[-1]
        assert newest.content.endswith(f"/{channel.id}/{panels[0].id}")
        runner.assert_no_errors()
    # a restart re-attaches to the remembered panel
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        await heroes_bot(runner).deliverer.deliver(news(6, picture=False))
        again = [m for m in channel.public_messages() if m.panel]
        assert [m.id for m in again] == [panels[0].id] and "move 6" in again[0].text
        assert [a.filename for a in again[0].attachments] == ["board.png"]
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


def test_the_console_shows_the_panel_as_text(tmp_path: Path) -> None:
    console = local.Console(object(), 1, 1, tmp_path / "images")
    done = Button("End the Movement Phase", "ht:1:4:opt:0.abcde")
    panel = ChannelPost(
        1, "## homm4 · game #1\nRound 1 · Movement Phase", components=(done,), panel_of=1
    )
    ping = ChannelPost(1, "Red moved.\n➡️ <@1> is up:", panel_link=1, log_of=1)
    first = console.show(Outbox(posts=[panel, ping]))
    assert first[0] == "[#game panel of game #1, new]"
    assert first[1:3] == ["  ┃ ## homm4 · game #1", "  ┃ Round 1 · Movement Phase"]
    assert "  !1 [End the Movement Phase]" in first
    assert first[-1].endswith("(↑ the panel)")
    again = console.show(Outbox(posts=[panel]))
    assert again[0] == "[#game panel of game #1, edited in place]"
