"""`bot.settings`: defaults, environment over ``.env``, empty values unset, one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings, token_configured

NAMES = ("DISCORD_TOKEN", "HEROES_DB_PATH", "HEROES_DEV_GUILD_ID", "HEROES_LOG_LEVEL")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_defaults_without_environment_or_file() -> None:
    settings = load_settings(None)
    assert settings.discord_token is None
    assert settings.db_path == Path("data/heroes-table.db")
    assert (settings.dev_guild_id, settings.log_level) == (None, "INFO")
    assert not token_configured(None)


def test_the_example_file_as_shipped_loads(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / ".env.example"
    (tmp_path / ".env").write_text(example.read_text())
    settings = load_settings()
    assert (settings.discord_token, settings.dev_guild_id) == (None, None)
    assert settings.db_path == Path("data/heroes-table.db")
    for name in NAMES:
        assert f"{name}=" in example.read_text()


def test_env_file_values_and_environment_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=abc.def\nHEROES_DB_PATH=/srv/heroes.db\n"
        "HEROES_DEV_GUILD_ID=123456789012345678\nHEROES_LOG_LEVEL=debug\n"
    )
    monkeypatch.setenv("HEROES_DB_PATH", "elsewhere.db")
    settings = load_settings()
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc.def"
    assert "abc.def" not in repr(settings)
    assert settings.db_path == Path("elsewhere.db")
    assert (settings.dev_guild_id, settings.log_level) == (123456789012345678, "DEBUG")
    assert token_configured()


def test_a_bad_value_is_one_line_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEROES_DEV_GUILD_ID", "my server")
    with pytest.raises(SettingsError) as caught:
        load_settings(None)
    message = str(caught.value)
    assert message.startswith("Bad setting HEROES_DEV_GUILD_ID: ")
    assert "\n" not in message


def test_a_token_counts_even_when_another_setting_is_bad(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("HEROES_LOG_LEVEL", "LOUD")
    assert token_configured(None)
    with pytest.raises(SettingsError, match="HEROES_LOG_LEVEL"):
        load_settings(None)


def test_a_blank_token_is_not_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    assert load_settings(None).discord_token is None
    assert not token_configured(None)
