"""A failure after a move was committed is never reported as a refusal (issue 21).

The move stands (commits are atomic and already done), so: a picture that cannot be drawn
is left out and the move's text is posted, the reply saying it was applied; narration
that fails altogether still says so and posts the move's public lines; a computer
player that fails stops automatic play with a note. Each failure is logged with its
stack and type, never its message (which may name a private card).
"""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest

from bot import service_core
from bot.homm4.commands import slash_for
from bot.service_core import NO_PICTURE
from engine.homm4 import RULESET as HOMM4
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.bot.service_helpers import (
    choose,
    current,
    make_service,
    person,
    slash_choice,
    started_game,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

SECRET = "the drawing failed on card #17"
"""The failures' message: it must reach no log line and no player."""


class BrokenRenderer:
    """A renderer whose every drawing raises (whatever the drawing method is called)."""

    def close(self) -> None:
        """Nothing to close."""

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> bytes:
            raise RuntimeError(SECRET)

        return fail


def _logged(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(r.getMessage() for r in caplog.records)


async def test_a_move_whose_picture_fails_is_posted_and_the_reply_says_it_was_applied(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = Table.create(fake_discord)
    caplog.set_level(logging.WARNING, logger="bot")
    async with running_bot(
        fake_discord, tmp_path / "broken.db", renderer=BrokenRenderer()
    ) as runner:
        bot = heroes_bot(runner)
        channel = table.channel
        for command, options in (
            ("game new", {"players": 2, "where": "here"}),
            ("game add-ai", {"count": 1}),
            ("game start", {}),
        ):
            await (await fake_discord.slash(table.ann, channel, command, **options)).final_message()
        await bot.wait_idle()
        rng = random.Random(4)
        for _ in range(60):  # ann's moves until one has a picture (the board)
            game = await bot.service.repo.game_in_channel(channel.id)
            assert game is not None
            state = HOMM4.load_state(game.state_json or "")
            path, options = slash_for(HOMM4.ai_command(state, 0, rng))
            posted = len(channel.public_messages())
            result = await fake_discord.slash(table.ann, channel, " ".join(path), **options)
            reply = (await result.final_message()).content
            await bot.wait_idle()
            assert reply.startswith("✅"), reply  # applied, whatever the picture did
            after = await bot.service.repo.get_game(game.id)
            assert after.version > game.version
            if NO_PICTURE in reply:
                break
        else:
            pytest.fail("no move of ann's had a picture")
        assert "unchanged" not in reply and "try again" not in reply.split(NO_PICTURE)[0]
        news = channel.public_messages()[posted:]
        assert news and all(not m.attachments for m in news)
        events = [e.text for e in (await bot.service.repo.read_log(game.id)).entries[-1].events]
        shown = "\n".join(m.content for m in news)
        assert any(text and text in shown for text in events), (events, shown)
        logged = _logged(caplog)
        assert "picture at move" in logged and "RuntimeError" in logged
        assert SECRET not in logged and SECRET not in reply
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_narration_that_fails_still_says_the_move_was_applied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    repo, service = await make_service(tmp_path)
    caplog.set_level(logging.WARNING, logger="bot")
    try:
        game = await started_game(service)
        row, _ = await current(service, game.id)

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise KeyError(SECRET)

        monkeypatch.setattr(service, "_prompts", broken)
        out = await slash_choice(service, game.id, person(1), 0)
        after, _ = await current(service, game.id)
        assert after.version > row.version
        assert out.reply is not None and out.reply.ephemeral
        assert out.reply.text.startswith("✅ Your move was applied")
        assert f"move {after.version}" in out.reply.text
        entry = (await repo.read_log(game.id)).entries[-1]
        posted = "\n".join(p.text for p in out.posts)
        assert all(e.text in posted for e in entry.events if e.text)
        assert f"Game #{game.id} is at move {after.version}" in posted
        logged = _logged(caplog)
        assert "showing 1 committed step(s) failed: KeyError" in logged
        assert SECRET not in logged
    finally:
        await repo.close()


async def test_a_failing_computer_player_stops_with_a_note_and_the_move_stands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    repo, service = await make_service(tmp_path)
    caplog.set_level(logging.WARNING, logger="bot")
    try:
        game = await started_game(service)
        for _ in range(100):  # to a move of Red's after which the computer (Blue) owes one
            row, state = await current(service, game.id)
            _, command = choose(state, 0)
            after, _ = HOMM4.apply(state, 0, command)
            if any(d.seat == 1 for d in HOMM4.pending(after)):
                break
            await slash_choice(service, game.id, person(1), 0)
        else:
            pytest.fail("the computer never came to move")

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise ZeroDivisionError(SECRET)

        monkeypatch.setattr(service_core, "ai_choice", broken)
        path, options = slash_for(command)
        out = await service.run(person(1), path, options, channel_id=row.channel_id)
        moved, _ = await current(service, game.id)
        assert moved.version == row.version + 1, "Red's move stands; Blue's did not happen"
        assert out.reply is not None and out.reply.text.startswith("✅")
        posted = "\n".join(p.text for p in out.posts)
        assert "The automatic answers stopped because of an error on my side" in posted
        logged = _logged(caplog)
        assert "automatic play failed after 1 committed step(s): ZeroDivisionError" in logged
        assert SECRET not in logged and SECRET not in posted
        monkeypatch.undo()
        resumed = await service.status(person(1), row.channel_id)  # the computer moves now
        assert resumed.reply is not None
        later, _ = await current(service, game.id)
        assert later.version > moved.version
    finally:
        await repo.close()
