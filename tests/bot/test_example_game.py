"""A game added from its own folders plays through the real bot and the fake Discord.

The example game, Pig (`tests.example_game`: its engine, its drawing and its bot adapter
with a two-row command table), is kept outside the bot's package and named nowhere in the
shared bot. The test adds its one registry line (`bot.registry.add`), starts the bot, and
ann and bob play a whole game: ``/game new ruleset:pig options:target:...`` (the ruleset choice
and the ``target`` option come from the registry and Pig's adapter), ``/game join``,
``/game start``, then every move by clicking the roll / hold buttons of the channel post,
or typing the generated ``/pig roll`` and ``/pig hold`` for every fourth move. The winner
is announced, the scores picture is posted, nothing errs, no Discord limit is broken.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import registry
from bot.adapters import adapter_for
from bot.commands import ALL_SPECS, all_specs, spec_for
from bot.errors import BadOption
from storage.records import GameStatus
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.bot.ruleset_driver import RulesetDriver
from tests.example_game.bot import GAME
from tests.example_game.commands import slash_for
from tests.example_game.engine import PIG
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

MAX_STEPS = 400


@pytest.fixture
def pig_registered() -> Iterator[None]:
    """Pig in the registry for one test (the shipped games alone before and after)."""
    registry.add(GAME)
    try:
        yield
    finally:
        registry.remove(GAME.ruleset)


def test_the_example_game_is_not_offered_unless_registered() -> None:
    assert "pig" not in [g.ruleset for g in registry.games()]
    new = spec_for(("game", "new"))
    assert "pig" not in [c.value for o in new.options if o.name == "ruleset" for c in o.choices]
    assert not any(s.path[0] == "pig" for s in all_specs())


def test_registering_adds_its_commands_and_lobby_option_after_the_shipped_ones(
    pig_registered: None,
) -> None:
    specs = all_specs()
    assert [s.path for s in specs if s.path[0] == "pig"] == [("pig", "roll"), ("pig", "hold")]
    lobby = {("game", "new"), ("game", "options")}
    assert [s for s in specs if s.path not in lobby and s.path[0] != "pig"] == [
        s for s in ALL_SPECS if s.path not in lobby
    ]
    new = spec_for(("game", "new"))
    ruleset = next(o for o in new.options if o.name == "ruleset")
    assert [c.value for c in ruleset.choices] == ["homm4", "heroforge", "homm3", "mmh", "pig"]
    # Pig's target is a word of the one options: text, not a Discord option of its own.
    shipped_new = next(s for s in ALL_SPECS if s.path == ("game", "new"))
    assert new.options == tuple(o if o.name != "ruleset" else ruleset for o in shipped_new.options)
    assert adapter_for("pig").read_options_text("target:40") == {"target": 40}
    with pytest.raises(BadOption) as refused:
        adapter_for("pig").read_options_text("target:400")
    assert str(refused.value) == "Pig: target is 10-100, not 400."


async def test_a_whole_game_of_the_example_ruleset_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path, pig_registered: None
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(
        fake_discord, tmp_path / "pig.db", renderer=RecordingRenderer()
    ) as runner:
        bot = heroes_bot(runner)
        driver = RulesetDriver(table, bot, PIG, slash_for, (table.ann, table.bob), seed=5)
        opened = await driver.slash(
            table.ann, "game new", where="here", ruleset="pig", options="target:15"
        )
        assert opened.response is not None
        await driver.slash(table.bob, "game join")
        await driver.slash(table.ann, "game start")
        game, state = await driver.play_out(MAX_STEPS)
        assert game.status is GameStatus.FINISHED and PIG.result(state).finished
        winner = PIG.result(state).winners[0]
        assert state.scores[winner] >= 15 > state.scores[1 - winner]
        texts = [m.text for m in table.channel.public_messages()]
        assert any("The game is over" in t and "points" in t for t in texts)
        pictures = [a for m in table.channel.public_messages() for a in m.attachments]
        assert pictures and all(a.filename == "board.png" for a in pictures)
        assert driver.clicks > 3 and driver.slashes > 1
        assert driver.kinds == {"turn"}
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
