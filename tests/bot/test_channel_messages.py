"""How many messages a game puts in its channel per Round (issue 16): a 4-player homm4
game (ann, bob, cara and morgan) played through the real discord.py bot and the fake
Discord by the test driver, counting per Round the messages the bot posted in the game's
channel (``POST /channels/{id}/messages``) and the edits (``PATCH``). The figure goes
in docs/DISCORD.md; the test keeps it under a bound.
"""

from __future__ import annotations

import secrets
from collections import Counter
from pathlib import Path

import pytest

from engine.homm4 import RULESET as HOMM4
from tests.bot.discord_driver import Driver
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.bot.test_discord_game import finished
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

SEED = 5
ROUNDS = 2
"""Rounds counted (the first ones: set-up, purchase, movement, battles)."""

MAX_STEPS = 400


async def open_four(driver: Driver) -> None:
    """ann opens a 4-player lobby here; bob, cara and morgan join with its button; ann
    starts."""
    table = driver.table
    await driver.slash(table.ann, "game new", where="here", players=4)
    lobby = next(m for m in table.channel.public_messages() if m.buttons())
    join = lobby.find_component(label="Join")["custom_id"]
    for who in (table.bob, table.cara, table.mod):
        await driver.click(who, lobby, join)
    await driver.slash(table.ann, "game start")


def channel_requests(fake: FakeDiscord, channel_id: int) -> tuple[int, int]:
    """``(messages posted, messages edited)`` in the channel so far."""
    posted = len(fake.requests_to("POST", f"/channels/{channel_id}/messages"))
    edited = len(fake.requests_to("PATCH", f"/channels/{channel_id}/messages/{{message_id}}"))
    return posted, edited


async def messages_per_round(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Counter[int], Counter[int], Counter[int]]:
    """Play Rounds 1..`ROUNDS`; ``(posted, edited, moves)`` per Round (the Round the game
    was in when the move was made; Round 0: the lobby, the start and set-up)."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)
    table = Table.create(fake)
    renderer = RecordingRenderer()
    posted: Counter[int] = Counter()
    edited: Counter[int] = Counter()
    moves: Counter[int] = Counter()
    async with running_bot(fake, tmp_path / "heroes.db", renderer=renderer) as runner:
        driver = Driver(table, heroes_bot(runner), renderer)
        await open_four(driver)
        posted[0], edited[0] = channel_requests(fake, table.channel.id)
        for _ in range(MAX_STEPS):
            if await finished(driver):
                break
            _, state = await driver.state()
            round_now = HOMM4.turn(state).round
            if round_now > ROUNDS:
                break
            before = channel_requests(fake, table.channel.id)
            await driver.step()
            after = channel_requests(fake, table.channel.id)
            posted[round_now] += after[0] - before[0]
            edited[round_now] += after[1] - before[1]
            moves[round_now] += 1
        assert len([m for m in table.channel.public_messages() if m.panel]) == 1
        runner.assert_no_errors()
    fake.assert_no_violations()
    return posted, edited, moves


@pytest.mark.slow
async def test_messages_per_round_of_a_four_player_game(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    posted, edited, moves = await messages_per_round(fake_discord, tmp_path, monkeypatch)
    for number in sorted(moves | posted):
        print(
            f"\nRound {number}: {moves[number]} moves, {posted[number]} messages posted, "
            f"{edited[number]} edits"
        )
    # before the panel (main at 580724b) every move posted a message: 35 in Round 1, 21 in
    # Round 2; now a player's run of moves fills one log message and pictures and buttons
    # live in the one panel (edited in place)
    for number in (1, 2):
        assert 0 < posted[number] < moves[number], (number, posted[number], moves[number])
