"""``/undo`` through the real discord.py bot and the fake Discord (issue 15): in a Hero
Forge game ann rolls her movement die, types /undo, is asked for bob's consent by buttons
in the channel; her own click on Agree is refused, bob agrees, and ann's roll typed again
gives the same die (heroforge:movement)."""

from __future__ import annotations

from pathlib import Path

from bot.heroforge.commands import slash_for
from engine.core.model import Command, GameState
from engine.heroforge import RULESET as HEROFORGE
from storage.records import Game, LogKind, ModeratorAction
from tests.bot.discord_helpers import Table, click_raced, heroes_bot, running_bot
from tests.bot.ruleset_driver import RulesetDriver
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


def _undo_button(message: FakeMessage, answer: str) -> str | None:
    for component in message.all_components():
        custom_id = str(component.get("custom_id") or "")
        if custom_id.startswith("ht:") and f":undo:{answer}:" in custom_id:
            return custom_id
    return None


async def _play_to_the_roll(driver: RulesetDriver, table: Table) -> tuple[Game, GameState]:
    """A 2-player Hero Forge game opened and started, played (set-up, nothing bought) until
    someone may roll the movement die: the game and its state then."""
    await driver.slash(table.ann, "game new", where="here", ruleset="heroforge", players=2)
    await driver.slash(table.bob, "game join")
    await driver.slash(table.ann, "game start")
    for _ in range(20):
        game, state = await driver.state()
        seat = HEROFORGE.pending(state)[0].seat
        legal = HEROFORGE.legal_commands(state, seat)
        if any(c.type == "roll_move" for c in legal):
            return game, state
        ending = [c for c in legal if c.type == "end_buying"]
        command: Command = ending[0] if ending else legal[0]
        path, options = slash_for(command)
        await driver.slash(driver.players[seat], " ".join(path), **options)
    raise AssertionError("no movement roll reached")


async def test_an_undone_die_roll_needs_consent_and_rolls_the_same_again(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "undo.db") as runner:
        bot = heroes_bot(runner)
        driver = RulesetDriver(table, bot, HEROFORGE, slash_for, (table.ann, table.bob), seed=3)
        game, state = await _play_to_the_roll(driver, table)
        seat = HEROFORGE.pending(state)[0].seat
        legal = HEROFORGE.legal_commands(state, seat)
        roller, other = driver.players[seat], driver.players[1 - seat]
        roll = next(c for c in legal if c.type == "roll_move")
        path, options = slash_for(roll)
        await driver.slash(roller, " ".join(path), **options)
        repo = bot.service.repo
        first = (await repo.read_log(game.id, limit=1000)).entries[-1]
        assert first.kind is LogKind.COMMAND and any(e.kind == "die_roll" for e in first.events)
        _, rolled = await driver.state()

        await driver.slash(roller, "undo")
        asking = table.channel.public_messages()[-1]
        assert "asks to take back their last move" in asking.text
        assert f"<@{other.id}>" in asking.text
        agree = _undo_button(asking, "y")
        assert agree is not None and _undo_button(asking, "n") is not None
        own = await driver.act(roller, lambda: fake_discord.click(roller, asking, agree))
        assert any("You asked for this undo" in m.text for m in own.messages)
        _, waiting = await driver.state()
        assert waiting.version == rolled.version  # refused without consent: nothing undone

        await driver.act(other, lambda: fake_discord.click(other, asking, agree))
        # the undo is settled: its buttons are taken off; a click still on its way is stale
        assert not asking.components and "asks to take back" in asking.text
        shown = asking.edits[-1]["components"]
        late = await driver.act(
            roller, lambda: click_raced(fake_discord, roller, asking, agree, shown)
        )
        assert any(m.ephemeral and "moved on" in m.text for m in late.messages), late.messages
        texts = [m.text for m in table.channel.public_messages()]
        assert any("took back their last move" in t and "agreement of" in t for t in texts)
        _, restored = await driver.state()
        assert restored.rng.counter == state.rng.counter
        log = await repo.read_log(game.id, limit=1000)
        assert [e.action for e in log.entries if e.kind is LogKind.MODERATOR] == [
            ModeratorAction.UNDO
        ]

        await driver.slash(roller, " ".join(path), **options)
        again = (await repo.read_log(game.id, limit=1000)).entries[-1]
        assert again.seq > first.seq
        assert [e.text for e in again.events] == [e.text for e in first.events]
        _, replayed = await driver.state()
        assert replayed.rng.counter == rolled.rng.counter
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_a_refused_undo_loses_its_buttons_and_a_late_agreement_is_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 16: the request's message is edited once it was answered (no buttons left),
    the game did not move; an Agree click still on its way is told it was answered."""
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "undo.db") as runner:
        bot = heroes_bot(runner)
        driver = RulesetDriver(table, bot, HEROFORGE, slash_for, (table.ann, table.bob), seed=3)
        _, state = await _play_to_the_roll(driver, table)
        seat = HEROFORGE.pending(state)[0].seat
        roller, other = driver.players[seat], driver.players[1 - seat]
        roll = next(c for c in HEROFORGE.legal_commands(state, seat) if c.type == "roll_move")
        path, options = slash_for(roll)
        await driver.slash(roller, " ".join(path), **options)
        await driver.slash(roller, "undo")
        asking = table.channel.public_messages()[-1]
        agree, refuse = _undo_button(asking, "y"), _undo_button(asking, "n")
        assert agree is not None and refuse is not None
        _, rolled = await driver.state()
        await driver.act(other, lambda: fake_discord.click(other, asking, refuse))
        assert not asking.components and "asks to take back" in asking.text
        assert any("refused" in m.text for m in table.channel.public_messages())
        shown = asking.edits[-1]["components"]
        late = await driver.act(
            other, lambda: click_raced(fake_discord, other, asking, agree, shown)
        )
        assert any(m.ephemeral and "already answered" in m.text for m in late.messages)
        _, after = await driver.state()
        assert after.version == rolled.version, "a refused undo changes nothing"
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
