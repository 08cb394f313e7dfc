"""A whole mmh game through the real discord.py bot and the fake Discord.

ann opens a quick game with ``/game new ruleset:mmh`` against the computer and starts it,
then plays every decision the way people do: clicking the button or select option that offers the
move when one is on screen (in the channel, a reply or their DMs: keep-one choices go by
DM), typing ``/mmh <group> <command>`` otherwise and for every fourth move (the engine's
AI chooses each move). After every move no public message names a card that was hidden
(a held scroll, a card drawn for a choice) before and after it. At the end: the victory
post; the board and initiative-track pictures, each after its focus, shown in the channel
at some point (the game's panel is edited in place, a new picture replacing the one
before) and the panel showing the final position's; no error in the bot, no broken
Discord limit, every acknowledgement within 3 s.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.mmh.adapter import hidden_cards
from bot.mmh.commands import slash_for
from engine.mmh import RULESET as MMH
from engine.mmh.content import load_content
from engine.mmh.state import MmhState
from storage.records import GameStatus
from tests.bot.discord_helpers import (
    RecordingRenderer,
    Table,
    game_panel,
    heroes_bot,
    running_bot,
    shown_pictures,
)
from tests.bot.ruleset_driver import RulesetDriver
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

MAX_STEPS = 2500


def _names(cards: set[str]) -> set[str]:
    """Card names safe to look for in text (not part of another card's name)."""
    content = load_content()
    every = {
        content.card_name(c.id)
        for t in (content.skills, content.scrolls, content.artefacts)
        for c in t
    }
    names = {content.card_name(c) for c in cards}
    return {n for n in names if not any(n != other and n in other for other in every)}


class MmhDriver(RulesetDriver):
    """Plays the game in the table's channel for ann (Red); the computer plays Blue."""

    def __init__(self, table: Table, bot: object) -> None:
        super().__init__(table, bot, MMH, slash_for, (table.ann,), seed=7)

    def check(self, before: MmhState, after: MmhState) -> None:
        """No public text names a card hidden before and after the move."""
        hidden: set[str] = set()
        for seat in range(before.players):
            hidden |= set(hidden_cards(before, seat)) & set(hidden_cards(after, seat))
        names = _names(hidden)
        for text in self.new_public_texts():
            for name in names:
                assert name not in text, f"a public message names a hidden card {name!r}: {text!r}"


@pytest.mark.slow
@pytest.mark.rule("mmh:game-end")
async def test_a_two_player_mmh_game_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    renderer = RecordingRenderer()
    async with running_bot(fake_discord, tmp_path / "mmh.db", renderer=renderer) as runner:
        bot = heroes_bot(runner)
        driver = MmhDriver(table, bot)
        channel = table.channel
        await driver.slash(
            table.ann, "game new", where="here", ruleset="mmh", players=2, options="length:quick"
        )
        await driver.slash(table.ann, "game add-ai", count=1)
        await driver.slash(table.ann, "game start")
        game, state = await driver.play_out(MAX_STEPS)
        assert game.status is GameStatus.FINISHED and MMH.result(state).finished
        texts = [m.text for m in channel.public_messages()]
        assert any("wins the throne of Ashan" in t or "draw" in t for t in texts)
        pictures = {"board-focus.png", "board.png", "battle-focus.png", "battle.png"}
        assert pictures <= shown_pictures(channel)
        renderer.assert_panel_shows(game_panel(channel), "mmh", MMH.public_view(state))
        assert driver.clicks > 10 and driver.slashes > 5
        assert {"place_capital", "choose_hero", "play_action", "action_hero"} <= driver.kinds
        assert any(k.startswith("battle_") for k in driver.kinds)
        status = await driver.slash(table.ann, "game status")
        assert status.response is not None
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
