"""``HEROES_SHARD_COUNT`` / ``HEROES_SHARD_IDS`` (issue 18): read, checked, and turned into
an `AutoShardedBot` running exactly this process's shards."""

from __future__ import annotations

import pytest
from discord.ext import commands

from bot.discord_bot import HeroesBot, bot_class, shard_of, shard_options
from bot.settings import SettingsError, load_settings, parse_shard_ids


@pytest.fixture(autouse=True)
def _no_shard_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HEROES_SHARD_COUNT", "HEROES_SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)


def test_unsharded_by_default() -> None:
    settings = load_settings(None)
    assert settings.shard_count is None and settings.shard_ids is None
    assert settings.owned_shards() is None
    assert shard_options(None, None) == {}
    assert bot_class(HeroesBot, sharded=False) is HeroesBot


def test_count_alone_runs_every_shard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEROES_SHARD_COUNT", "3")
    settings = load_settings(None)
    assert settings.owned_shards() == (0, 1, 2)
    assert shard_options(3, None) == {"shard_count": 3, "shard_ids": None}


def test_ids_and_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEROES_SHARD_COUNT", "8")
    monkeypatch.setenv("HEROES_SHARD_IDS", " 6, 0-2,2 ")
    settings = load_settings(None)
    assert settings.shard_ids == (0, 1, 2, 6)
    assert shard_options(8, settings.shard_ids) == {"shard_count": 8, "shard_ids": [0, 1, 2, 6]}
    assert parse_shard_ids("4-7, 9") == (4, 5, 6, 7, 9)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"HEROES_SHARD_IDS": "1"},
            "Bad settings: HEROES_SHARD_IDS needs HEROES_SHARD_COUNT (the shards of all processes).",
        ),
        (
            {"HEROES_SHARD_COUNT": "2", "HEROES_SHARD_IDS": "0-2"},
            "Bad settings: HEROES_SHARD_IDS 2 is not a shard of HEROES_SHARD_COUNT=2 "
            "(ids run from 0 to 1).",
        ),
        (
            {"HEROES_SHARD_COUNT": "2", "HEROES_SHARD_IDS": "one"},
            "Bad setting HEROES_SHARD_IDS: 'one' is not a shard id or a range like 0-3 "
            "(write e.g. 0,1 or 0-3).",
        ),
        (
            {"HEROES_SHARD_COUNT": "2", "HEROES_SHARD_IDS": "3-1"},
            "Bad setting HEROES_SHARD_IDS: '3-1' is not a range from a lower to a higher id.",
        ),
        (
            {"HEROES_SHARD_COUNT": "0"},
            "Bad setting HEROES_SHARD_COUNT: Input should be greater than or equal to 1.",
        ),
    ],
)
def test_bad_shard_settings_are_named(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as error:
        load_settings(None)
    assert str(error.value) == message


def test_sharded_class_is_the_same_bot_on_auto_sharded_bot() -> None:
    sharded = bot_class(HeroesBot, sharded=True)
    assert issubclass(sharded, HeroesBot) and issubclass(sharded, commands.AutoShardedBot)
    assert bot_class(HeroesBot, sharded=True) is sharded  # made once


def test_discords_shard_formula() -> None:
    # Discord: shard_id = (guild_id >> 22) % num_shards; DMs on shard 0.
    guild = (5 << 22) | 12345
    assert shard_of(guild, 2) == 1 and shard_of(guild, 5) == 0 and shard_of(None, 4) == 0
