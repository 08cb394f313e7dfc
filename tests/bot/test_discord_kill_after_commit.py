"""A bot process SIGKILLed right after a commit, before any of its messages went out
(issue 15): once a new process is up on the same database, the channel is told of that
move and the next player is pinged — exactly once.

The real bot runs as its own OS process against the fake Discord (`benchmarks.e2e_bot`,
as `tests.bot.test_discord_restart_process` does). With ``HEROES_E2E_KILL_AFTER_COMMIT=1``
the process kills itself with SIGKILL as soon as its first commit is stored
(`benchmarks.e2e_bot.kill_after_commit`): the move is in the database, nothing of it was
delivered. The move is a player's Risk Stack choice (homm4:start-of-the-game).
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from benchmarks.e2e_bot import KILL_AFTER_COMMIT
from bot.homm4 import adapter
from bot.homm4.commands import slash_for
from engine.homm4 import RULESET as HOMM4
from storage import verify_game
from tests.bot.discord_driver import message_texts, named_cards
from tests.bot.test_discord_restart_process import WAIT, bot_processes
from tests.fakediscord import FakeMessage


@pytest.mark.slow
@pytest.mark.rule("homm4:start-of-the-game")
async def test_a_move_whose_bot_was_killed_after_the_commit_is_posted_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEROES_RENDER_PROCESSES", "0")
    monkeypatch.setenv(KILL_AFTER_COMMIT, "1")
    # bot_processes opens and starts the game: no commit yet, the game's setup only
    async with bot_processes(tmp_path) as run:
        fake, table, repo, driver, first = run.fake, run.table, run.repo, run.driver, run.first

        game, state = await driver.state()
        decision = HOMM4.pending(state)[0]
        who = await driver.user_of(decision.seat)
        index, command = driver.choose(state, decision.seat)
        control = driver.find_control(who, game, state, index, command)
        mark = fake.world.message_seq
        if control is not None and control[2] is None:
            await fake.click(who, control[0], control[1])
        else:
            path, options = slash_for(command)
            await fake.slash(who, table.channel, " ".join(path), **options)
        assert await first.process.wait() == -signal.SIGKILL, "killed after the commit"
        await first._reader

        after, moved = await driver.state()
        assert after.version == game.version + 1, "the move was stored"
        assert await repo.undelivered_news() == [(game.id, after.version)]

        def news(message: FakeMessage) -> bool:
            return not message.ephemeral and message.channel is table.channel

        told = [m for m in table.channel.public_messages() if m.seq > mark and news(m)]
        assert told == [], "nothing of the move went out before the kill"

        monkeypatch.delenv(KILL_AFTER_COMMIT)
        second = await run.start_second()
        post = await fake.wait_for_message(table.channel, check=news, after=mark, timeout=WAIT)
        owed = [await driver.user_of(d.seat) for d in HOMM4.pending(moved)]
        assert owed, "somebody owes a decision after the move"
        for user in owed:
            assert f"<@{user.id}>" in post.content, f"{user.name} is pinged"
        hidden = adapter.private_cards(moved)
        for text in message_texts(post):
            assert not named_cards(text) & hidden, text  # homm4:card-types

        await second.stop()  # a clean stop waits until start-up's deliveries are done
        assert await repo.undelivered_news() == [], "the redelivery was confirmed"
        posts = [m for m in table.channel.public_messages() if m.seq > mark and news(m)]
        assert posts == [post], "the move's news was posted once"
        verification = await verify_game(repo, after.id)
        assert verification.ok, verification
