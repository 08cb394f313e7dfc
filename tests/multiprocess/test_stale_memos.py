"""What a bot process remembers must not go stale when another process changes the store
(issue 18): two services on one SQLite file stand for two bot processes."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from PIL import Image as PILImage

from bot import customids
from bot.discord_delivery import Deliverer
from bot.discord_reach import KNOWN_FOR, ServiceReachability
from bot.outbox import Button, ChannelPost, Image, Outbox, Receipt
from bot.service import GameService
from storage import open_repository
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.bot.service_helpers import make_service, started_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


class Clock:
    """Monotonic seconds, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_reachable_memo_is_read_again_after_another_process_stored_closed(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    other_repo = await open_repository(tmp_path / "service.db")
    try:
        game = await started_game(service)  # user 1 against the computer
        clock = Clock()
        here = ServiceReachability(service, clock=clock)
        there = ServiceReachability(GameService(other_repo, renderer=None))

        async def stored() -> bool | None:
            seats = await repo.seats(game.id)
            return next(s.dm_reachable for s in seats if s.user_id == 1)

        await here.dm_delivered(1, game.id)
        assert await stored() is True
        notice = await there.dm_failed(1, game.id)  # the other process: DMs closed
        assert notice.posts and await stored() is False
        await here.dm_delivered(1, game.id)  # within KNOWN_FOR: no query, no write
        assert await stored() is False
        clock.now += KNOWN_FOR
        await here.dm_delivered(1, game.id)  # read again: the success is stored
        assert await stored() is True
    finally:
        await other_repo.close()
        await repo.close()


def shown(channel_id: int, version: int, text: str) -> Outbox:
    """Game 1's position at ``version``, with a button of that version."""
    button = Button("Pass", customids.encode(1, version, "opt", "0.abcde"))
    post = ChannelPost(
        channel_id,
        text,
        components=(button,),
        receipt=Receipt(1, version - 1, version),
        decision_of=1,
    )
    return Outbox(posts=[post])


async def test_a_position_another_process_moved_past_goes_without_buttons(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Two deliverers (two processes) on one store: the newer position's buttons stay live
    whichever delivery comes last, also when the game moves on while a post is sent."""
    table = Table.create(fake_discord)
    channel = table.channel
    stored = {"version": 5}
    calls: list[int] = []
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        mine = bot.deliverer
        other = Deliverer(bot, mine.refs, mine.reachability, mine.build_view)

        async def game_version(game_id: int, channel_id: int) -> int:
            calls.append(game_id)
            return stored["version"]

        mine.game_version = other.game_version = game_version
        await other.deliver(shown(channel.id, 5, "five"))
        # The other process moves to 7 and shows it; this one delivers 6 late.
        stored["version"] = 7
        await other.deliver(shown(channel.id, 7, "seven"))
        await mine.deliver(shown(channel.id, 6, "six, late"))
        five, seven, six = channel.public_messages()
        assert not five.components and seven.buttons() and not six.components

        # The game moves on (to 9, shown by the other process) while this one sends 8.
        stored["version"] = 8
        real_send = mine._send_post

        async def send_then_other_moves(post: ChannelPost) -> Any:
            message = await real_send(post)
            stored["version"] = 9
            await other.deliver(shown(channel.id, 9, "nine"))
            return message

        mine._send_post = send_then_other_moves  # type: ignore[method-assign]
        await mine.deliver(shown(channel.id, 8, "eight"))
        eight, nine = channel.public_messages()[-2:]
        assert eight.content == "eight" and not eight.components, "8 is past: its buttons go"
        assert nine.content == "nine" and nine.buttons(), "9's buttons stay live"
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


def panel_news(channel_id: int, version: int, picture: str | None) -> Outbox:
    """Game 1's status panel at ``version`` (with the picture ``picture``, or keeping the
    panel's own when None)."""
    images = (Image(picture, png_bytes(), "the board"),) if picture else ()
    panel = ChannelPost(
        channel_id,
        f"## homm4 · game #1\nmove {version}",
        images=images,
        components=(Button("Pass", customids.encode(1, version, "opt", "0.abcde")),),
        receipt=Receipt(1, version - 1, version),
        decision_of=1,
        panel_of=1,
    )
    return Outbox(posts=[panel])


def png_bytes() -> bytes:
    """A small PNG picture."""
    buffer = io.BytesIO()
    PILImage.new("RGB", (8, 8), (20, 120, 40)).save(buffer, "PNG")
    return buffer.getvalue()


async def test_shared_deliverers_read_the_panel_and_append_no_log_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Deliverers of a sharded bot (``shared``): a panel edit without pictures keeps the
    pictures the panel has now, which another process may have changed (a remembered name
    would point at an attachment the message no longer has: Discord refuses that), and a
    log line is sent as a message of its own rather than appended to one another process
    may have posted after."""
    table = Table.create(fake_discord)
    channel = table.channel
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        base = bot.deliverer
        mine, other = (
            Deliverer(bot, base.refs, base.reachability, base.build_view, shared=True)
            for _ in range(2)
        )
        await mine.deliver(panel_news(channel.id, 3, "board.png"))
        await other.deliver(panel_news(channel.id, 4, "battle.png"))
        await mine.deliver(panel_news(channel.id, 5, None))
        (panel,) = [m for m in channel.public_messages() if m.panel]
        assert "move 5" in panel.text
        assert [a.filename for a in panel.attachments] == ["battle.png"]
        shows = json.dumps(panel.components)
        assert "attachment://battle.png" in shows and "board.png" not in shows
        lines = [ChannelPost(channel.id, f"line {n}", log_of=1) for n in (1, 2)]
        for line in lines:
            await mine.deliver(Outbox(posts=[line]))
        assert [m.content for m in channel.public_messages()[-2:]] == ["line 1", "line 2"]
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
