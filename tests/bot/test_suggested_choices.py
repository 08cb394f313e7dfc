"""Fixed choices offered by autocomplete (`OptionSpec.suggest_choices`, issue 16): they are
not sent with the command (so /mmh and /homm3 stay within 3,500 of Discord's 4,000
characters), Discord asks the bot for them as the player types, and a value typed past the
suggestions is refused naming the choices — as Discord would refuse it for sent choices."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands import ALL_SPECS
from bot.errors import BadOption
from tests.bot.service_helpers import CHANNEL, GUILD, make_service, person


def _suggested() -> list[tuple[tuple[str, ...], str]]:
    return [
        (spec.path, option.name)
        for spec in ALL_SPECS
        for option in spec.options
        if option.suggest_choices
    ]


def test_the_long_games_choices_are_suggested_not_sent() -> None:
    found = _suggested()
    assert (("mmh", "battle", "orders"), "attack") in found
    assert (("mmh", "turn", "play"), "action") in found
    assert (("homm3", "combat", "orders"), "deploy") in found
    assert (("homm3", "card", "play"), "school") in found
    for spec in ALL_SPECS:
        for option in spec.options:
            if option.suggest_choices:
                assert option.sent_choices == () and option.suggested, (spec.path, option.name)


async def test_every_suggested_choice_is_answered_and_narrowed(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        for path, name in _suggested():
            option = next(
                o for s in ALL_SPECS if s.path == path for o in s.options if o.name == name
            )
            every = await service.autocomplete(person(1), path, name, "", channel_id=CHANNEL)
            assert every == [(c.name, str(c.value)) for c in option.choices], (path, name)
        pairs = await service.autocomplete(
            person(1), ("mmh", "battle", "orders"), "cards", "win", channel_id=CHANNEL
        )
        assert pairs == [("pass windows", "windows")]
    finally:
        await repo.close()


async def test_a_value_typed_past_the_suggestions_is_refused_naming_the_choices(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        with pytest.raises(BadOption) as refused:
            await service.run(
                person(1),
                ("mmh", "battle", "orders"),
                {"cards": "sometimes"},
                channel_id=CHANNEL,
                guild_id=GUILD,
            )
        assert refused.value.message == (
            "cards must be one of: ask, windows (pass windows), never (never use)."
        )
        with pytest.raises(BadOption) as refused:
            await service.run(
                person(1),
                ("homm3", "card", "play"),
                {"card": "#3", "school": "ice"},
                channel_id=CHANNEL,
                guild_id=GUILD,
            )
        assert refused.value.message == ("school must be one of: air, earth, fire, water.")
    finally:
        await repo.close()
