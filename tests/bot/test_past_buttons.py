"""A decision's buttons leave the channel once the position has moved past it (issue 16),
through the real discord.py bot and the fake Discord.

A homm4 game between ann and cara, played by the test driver (clicks where a button offers
the move, slash commands otherwise). After every action has been delivered, no public
message of the game's channel holds an enabled button or select of an older position (its
custom id names the game's version: `bot.customids`), and the channel holds one panel
(the Components V2 status message, edited in place by each move: one edit per move at
most). A restart in the middle (a new bot over the same database) edits the panel the old
process sent, from the reference kept in the database. A click that still reaches an old
version of the panel (a client that had not redrawn it yet) gets the stale reply and
changes nothing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from bot import customids
from bot.news import past_position
from bot.outbox import Button, ChannelPost, Outbox, Receipt
from tests.bot.discord_driver import Driver
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.bot.test_discord_game import finished, open_and_start
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)
from tests.fakediscord.world import iter_components

Json = dict[str, Any]

SEED = 5
"""The game's seed (with the driver's AI choices, a whole game of every phase)."""

STALE = "someone has moved since"
"""Words of the stale reply (`bot.service_core.stale`)."""


def live_controls(message: FakeMessage, game_id: int) -> list[tuple[str, int]]:
    """``(custom id, version)`` of each enabled button or select of game ``game_id`` in
    ``message`` (the lobby post's included: the start takes them off)."""
    found = []
    for component in message.all_components():
        custom_id = str(component.get("custom_id") or "")
        if not custom_id.startswith(f"{customids.PREFIX}:") or component.get("disabled"):
            continue
        decoded = customids.decode(custom_id)
        if decoded.game_id == game_id:
            found.append((custom_id, decoded.version))
    return found


def stripped(message: FakeMessage) -> int:
    """How many edits of ``message`` took its components off (the rest unchanged)."""
    versions = [*message.edits, message.snapshot()]
    return sum(
        1
        for old, new in pairwise(versions)
        if old["components"]
        and not new["components"]
        and (old["content"], old["attachments"]) == (new["content"], new["attachments"])
    )


@dataclass
class Watch:
    """What the channel went through: moves played, edits of public messages, and how
    many of them only took components off."""

    moves: int = 0
    patches: int = 0
    strips: int = 0
    panel_edits: int = 0
    finished: bool = False


async def check_no_past_button(driver: Driver) -> FakeMessage | None:
    """No public message holds an enabled control of a version before the game's;
    :returns: the message holding the current position's controls (at most one), if any."""
    game = await driver.game()
    live = []
    for message in driver.channel.public_messages():
        controls = live_controls(message, game.id)
        past = [cid for cid, version in controls if version != game.version]
        assert not past, f"message {message.id} keeps buttons of a past position: {past}"
        if controls:
            live.append(message)
    assert len(live) <= 1, f"{len(live)} channel messages hold the current buttons"
    assert len(panels(driver)) <= 1, "one panel per game"
    return live[0] if live else None


async def play(driver: Driver, moves: int, watch: Watch) -> None:
    """Play up to ``moves`` moves (fewer if the game ends), checking after each."""
    for _ in range(moves):
        if await finished(driver):
            return
        await driver.step()
        watch.moves += 1
        await check_no_past_button(driver)


def tally(fake: FakeDiscord, driver: Driver, watch: Watch) -> None:
    """Count the edits of the game channel's messages so far."""
    path = f"/channels/{driver.channel.id}/messages/{{message_id}}"
    watch.patches = len(fake.requests_to("PATCH", path))
    watch.strips = sum(stripped(m) for m in driver.channel.public_messages())
    watch.panel_edits = sum(len(m.edits) for m in panels(driver))


def old_button(driver: Driver) -> tuple[FakeMessage, str, list[Json]]:
    """A public message (the game's panel, edited in place) that had a move button
    (``opt``) it no longer has, that button and the components it had then."""
    for message in driver.channel.public_messages():
        now = {str(c.get("custom_id")) for c in message.all_components()}
        for earlier in reversed(message.edits):
            ids = [
                str(c.get("custom_id"))
                for c in iter_components(earlier["components"])
                if c.get("type") == 2
                and str(c.get("custom_id", "")).startswith("ht:")
                and customids.decode(str(c["custom_id"])).action == "opt"
                and str(c.get("custom_id")) not in now
            ]
            if ids:
                return message, ids[0], earlier["components"]
    raise AssertionError("no message had its move buttons taken off")


def panels(driver: Driver) -> list[FakeMessage]:
    """The game's panels in the channel (Components V2 messages)."""
    return [m for m in driver.channel.public_messages() if m.panel]


async def game_with_a_restart(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moves: int, more: int
) -> tuple[Driver, Watch]:
    """Open and start a game, play ``moves`` moves, restart the bot, check that the first
    move after it takes the buttons off the post the old bot sent and that a late click
    on an old button is refused as stale, then play ``more`` moves (or to the end)."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)
    table = Table.create(fake)
    renderer = RecordingRenderer()
    db = tmp_path / "heroes.db"
    watch = Watch()
    async with running_bot(fake, db, renderer=renderer) as runner:
        driver = Driver(table, heroes_bot(runner), renderer)
        await open_and_start(driver)
        await check_no_past_button(driver)
        await play(driver, moves, watch)
        for _ in range(50):  # on to a position whose buttons are in the channel
            before_restart = await check_no_past_button(driver)
            if before_restart is not None:
                break
            await play(driver, 1, watch)
        assert before_restart is not None, "no channel post with buttons before the restart"
        runner.assert_no_errors()
    async with running_bot(fake, db, renderer=renderer) as runner:
        driver.use(heroes_bot(runner))
        edits = len(before_restart.edits)
        await play(driver, 1, watch)
        # the restarted bot finds the panel the old one sent and edits it in place
        assert panels(driver) == [before_restart] and len(before_restart.edits) > edits
        game = await driver.game()
        assert all(v == game.version for _, v in live_controls(before_restart, game.id))
        assert before_restart.attachments and "game #1" in before_restart.text
        message, custom_id, shown = old_button(driver)
        game = await driver.game()
        late = await driver.late_click(table.ann, message, custom_id, shown)
        answer = "\n".join(m.content for m in late.messages if m.ephemeral)
        assert STALE in answer, answer
        assert (await driver.game()).version == game.version, "a stale click changed nothing"
        await check_no_past_button(driver)
        await play(driver, more, watch)
        watch.finished = await finished(driver)
        runner.assert_no_errors()
    tally(fake, driver, watch)
    fake.assert_no_violations()
    return driver, watch


async def test_past_buttons_leave_the_channel_across_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, watch = await game_with_a_restart(fake_discord, tmp_path, monkeypatch, moves=8, more=8)
    assert watch.moves >= 17
    # the panel is edited in place once per move at most; no button is taken off apart
    # from the lobby post's at the start
    assert 0 < watch.panel_edits <= watch.moves and watch.strips <= 1


@pytest.mark.slow
async def test_a_whole_game_leaves_no_button_of_a_past_position(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, watch = await game_with_a_restart(fake_discord, tmp_path, monkeypatch, moves=30, more=600)
    assert watch.finished
    assert 0 < watch.panel_edits <= watch.moves and watch.strips <= 1
    print(
        f"\n{watch.moves} moves: {watch.panel_edits} edits of the panel "
        f"({watch.panel_edits / watch.moves:.2f} per move); all edits of channel messages: "
        f"{watch.patches} ({watch.patches / watch.moves:.2f} per move, "
        f"{(watch.patches - watch.panel_edits) / watch.moves:.2f} without those)"
    )


async def test_the_previous_posts_buttons_are_taken_off_only_when_it_had_any(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The deliverer's side, post by post: one edit takes a past post's buttons off, none
    when it had none; an older version delivered after a newer one (two deliveries at
    once) goes without its buttons; an empty post sends nothing and still retires."""
    table = Table.create(fake_discord)
    channel = table.channel

    def shown(version: int, text: str, *, button: bool) -> Outbox:
        components = (Button("Pass", customids.encode(1, version, "opt", "0.abcde")),)
        post = ChannelPost(
            channel.id,
            text,
            components=components if button else (),
            receipt=Receipt(1, version - 1, version),
            decision_of=1,
        )
        return Outbox(posts=[post])

    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        deliver = heroes_bot(runner).deliverer.deliver
        patches = f"/channels/{channel.id}/messages/{{message_id}}"
        await deliver(shown(3, "three", button=True))
        await deliver(shown(4, "four", button=False))
        three, four = channel.public_messages()
        assert not three.components and three.content == "three" and len(three.edits) == 1
        assert four.content == "four" and not four.edits
        assert len(fake_discord.requests_to("PATCH", patches)) == 1
        await deliver(shown(5, "five", button=True))
        assert len(fake_discord.requests_to("PATCH", patches)) == 1, "four had no buttons"
        await deliver(shown(4, "four again, late", button=True))
        late = channel.public_messages()[-1]
        assert late.content == "four again, late" and not late.components
        five = channel.public_messages()[-2]
        assert five.content == "five" and five.buttons()
        await deliver(
            Outbox(posts=[ChannelPost(channel.id, "", receipt=Receipt(1, 5, 6), decision_of=1)])
        )
        assert len(channel.public_messages()) == 4, "an empty post sends nothing"
        assert not five.components and five.content == "five"
        assert len(fake_discord.requests_to("PATCH", patches)) == 2
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


def test_news_of_a_past_position_goes_without_buttons() -> None:
    button = Button("Pass", "ht:1:3:opt:0.abcde")
    out = Outbox(
        posts=[
            ChannelPost(5, "lines"),
            ChannelPost(5, "who is up", components=(button,), decision_of=1),
            ChannelPost(5, "", decision_of=1),
        ]
    )
    past = past_position(out)
    assert [(p.text, p.components, p.decision_of) for p in past.posts] == [
        ("lines", (), None),
        ("who is up", (), None),
    ]


async def test_news_redelivered_for_a_past_position_brings_no_buttons_back(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit whose delivery was cut short while later ones went out: its news, delivered
    again (`NewsMixin.news_again`), shows no buttons and leaves the current post's alone."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)
    table = Table.create(fake_discord)
    renderer = RecordingRenderer()
    async with running_bot(fake_discord, tmp_path / "heroes.db", renderer=renderer) as runner:
        bot = heroes_bot(runner)
        driver = Driver(table, bot, renderer)
        await open_and_start(driver)
        watch = Watch()
        await play(driver, 4, watch)
        for _ in range(50):
            current = await check_no_past_button(driver)
            if current is not None:
                break
            await play(driver, 1, watch)
        assert current is not None
        game = await driver.game()
        past = await bot.service.news_again(game.id, game.version - 2, game.version - 1)
        assert past.posts and all(not p.components and p.decision_of is None for p in past.posts)
        assert all(p.panel_of is None for p in past.posts), "the panel shows a later move"
        assert "➡️" in past.posts[-1].text, "it still says who was up then"
        latest = await bot.service.news_again(game.id, game.version - 1, game.version)
        assert any(p.decision_of == game.id and p.panel_of == game.id for p in latest.posts)
        await bot.deliverer.deliver(past)
        assert await check_no_past_button(driver) is current and current.components
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
