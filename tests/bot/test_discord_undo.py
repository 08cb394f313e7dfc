"""``/undo`` through the real discord.py bot and the fake Discord (issue 15): in a Hero
Forge game ann rolls her movement die, types /undo, is asked for bob's consent by buttons
in the channel; her own click on Agree is refused, bob agrees, and ann's roll typed again
gives the same die (heroforge:movement)."""

from __future__ import annotations

from pathlib import Path

from bot.heroforge.commands import slash_for
from engine.core.model import Command
from engine.heroforge import RULESET as HEROFORGE
from storage.records import LogKind, ModeratorAction
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.bot.ruleset_driver import RulesetDriver
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


def _undo_button(message: FakeMessage, answer: str) -> str | None:
    for component in message.all_components():
        custom_id = str(component.get("custom_id") or "")
        if custom_id.startswith("ht:") and f":undo:{answer}:" in custom_id:
            return custom_id
    return None


async def test_an_undone_die_roll_needs_consent_and_rolls_the_same_again(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "undo.db") as runner:
        bot = heroes_bot(runner)
        driver = RulesetDriver(table, bot, HEROFORGE, slash_for, (table.ann, table.bob), seed=3)
        await driver.slash(table.ann, "game new", where="here", ruleset="heroforge", players=2)
        await driver.slash(table.bob, "game join")
        await driver.slash(table.ann, "game start")
        # play the set-up and buy nothing until someone may roll the movement die
        for _ in range(20):
            game, state = await driver.state()
            seat = HEROFORGE.pending(state)[0].seat
            legal = HEROFORGE.legal_commands(state, seat)
            if any(c.type == "roll_move" for c in legal):
                break
            ending = [c for c in legal if c.type == "end_buying"]
            command: Command = ending[0] if ending else legal[0]
            path, options = slash_for(command)
            await driver.slash(driver.players[seat], " ".join(path), **options)
        else:
            raise AssertionError("no movement roll reached")
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
