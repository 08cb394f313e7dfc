"""Typed settings from the environment and ``.env``: the bot token, database path, logging.

``DISCORD_TOKEN`` has no prefix (it is what every Discord tutorial calls it); the others
start with ``HEROES_``. Values in the environment win over ``.env``; empty values count as
unset, so a copied ``.env.example`` works as it is. Keep ``.env.example`` in sync.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class SettingsError(ValueError):
    """A setting has a value that cannot be used; the message names it in one line."""


class Settings(BaseSettings):
    """Everything configurable about a Heroes Table process.

    Attributes:
        discord_token: the bot token (``DISCORD_TOKEN``); None runs without Discord.
        db_path: the SQLite database (``HEROES_DB_PATH``), relative to the working
            directory; its folder is created when the database is opened.
        dev_guild_id: a guild to sync slash commands to instantly (``HEROES_DEV_GUILD_ID``);
            None syncs globally.
        log_level: ``HEROES_LOG_LEVEL``, case-insensitive.
        render_processes: worker processes that draw the pictures
            (``HEROES_RENDER_PROCESSES``, default 2; 0 draws in threads of the bot process,
            where drawing competes with the event loop for the GIL: docs/PERFORMANCE.md).
    """

    model_config = SettingsConfigDict(
        env_prefix="HEROES_",
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
    )

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    db_path: Path = Path("data/heroes-table.db")
    dev_guild_id: int | None = None
    log_level: LogLevel = "INFO"
    render_processes: int = Field(default=2, ge=0, le=16)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value


_ENV_NAMES = {
    "discord_token": "DISCORD_TOKEN",
    "DISCORD_TOKEN": "DISCORD_TOKEN",
    "db_path": "HEROES_DB_PATH",
    "dev_guild_id": "HEROES_DEV_GUILD_ID",
    "log_level": "HEROES_LOG_LEVEL",
    "render_processes": "HEROES_RENDER_PROCESSES",
}


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read the settings from the environment and ``env_file`` (None: environment only).

    :raises SettingsError: naming the first bad variable and why, in one line.
    """
    try:
        return Settings(_env_file=env_file)
    except ValidationError as error:
        first = error.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "settings"
        name = _ENV_NAMES.get(field, field.upper())
        raise SettingsError(f"Bad setting {name}: {first['msg']}.") from None


class _TokenOnly(BaseSettings):
    """Just the token, so a mistake in another setting cannot hide a configured token."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", env_ignore_empty=True, extra="ignore"
    )

    discord_token: str | None = Field(default=None, validation_alias="DISCORD_TOKEN")


def token_configured(env_file: str | Path | None = ".env") -> bool:
    """Whether a Discord token is set (the CLI then runs the bot rather than the console).

    Only ``DISCORD_TOKEN`` is read: other settings are checked by `load_settings` when the
    chosen command starts, so a bad one is reported rather than silently running the console.
    """
    token = _TokenOnly(_env_file=env_file).discord_token
    return token is not None and bool(token.strip())
