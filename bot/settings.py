"""Typed settings from the environment and ``.env``: the bot token, database path, logging.

``DISCORD_TOKEN`` has no prefix (it is what every Discord tutorial calls it); the others
start with ``HEROES_``. Values in the environment win over ``.env``; empty values count as
unset, so a copied ``.env.example`` works as it is. Keep ``.env.example`` in sync.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

MAX_SHARDS = 4096
"""The most shards ``HEROES_SHARD_COUNT`` may name (far beyond any one bot's need)."""


class SettingsError(ValueError):
    """A setting has a value that cannot be used; the message names it in one line."""


class Settings(BaseSettings):
    """Everything configurable about a Heroes Table process.

    Attributes:
        discord_token: the bot token (``DISCORD_TOKEN``); None runs without Discord.
        db_path: the SQLite database (``HEROES_DB_PATH``), relative to the working
            directory; its folder is created when the database is opened.
        database_url: a PostgreSQL database to keep the games in instead
            (``HEROES_DATABASE_URL=postgresql://user:password@host:5432/database``; issue
            18: several bot processes share it); None: the SQLite file ``db_path``.
        dev_guild_id: a guild to sync slash commands to instantly (``HEROES_DEV_GUILD_ID``);
            None syncs globally.
        log_level: ``HEROES_LOG_LEVEL``, case-insensitive.
        render_processes: worker processes that draw the pictures
            (``HEROES_RENDER_PROCESSES``, default 2; 0 draws in threads of the bot process,
            where drawing competes with the event loop for the GIL: docs/PERFORMANCE.md).
        shard_count: how many Discord gateway shards the whole bot has, over all its
            processes (``HEROES_SHARD_COUNT``, 1-4096); None: one process, unsharded.
        shard_ids: which of them this process runs (``HEROES_SHARD_IDS``: ``0,2`` or
            ``0-3``, each below ``shard_count``); None: all of them. Several processes
            with disjoint ids share one database (docs/DEPLOY.md).
        ai_budget_s: the seconds one ``normal`` or ``hard`` computer decision may search
            (``HEROES_AI_BUDGET_S``, default 1; 0.05-60), on one core of the drawing
            processes (`bot.computer`).
        ai_away_level: the computer level that plays a person's seat while they are away
            or past a ``computer`` deadline (``HEROES_AI_AWAY_LEVEL``: easy, normal or hard;
            default easy: the search levels do not yet beat it in every game, docs/PERFORMANCE.md).
        ai_level: the level of a computer seat added without one (``HEROES_AI_LEVEL``;
            default easy).
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
    database_url: SecretStr | None = None
    dev_guild_id: int | None = None
    log_level: LogLevel = "INFO"
    render_processes: int = Field(default=2, ge=0, le=16)
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARDS)
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    ai_budget_s: float = Field(default=1.0, ge=0.05, le=60.0)
    ai_away_level: Literal["easy", "normal", "hard"] = "easy"
    ai_level: Literal["easy", "normal", "hard"] = "easy"

    @field_validator("ai_away_level", "ai_level", mode="before")
    @classmethod
    def _lower_level(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("database_url", mode="after")
    @classmethod
    def _postgres_only(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        text = value.get_secret_value().strip()
        if not text.lower().startswith(("postgresql://", "postgres://")):
            raise ValueError(
                "not a PostgreSQL URL (write postgresql://user:password@host:5432/database, "
                "or leave it unset for the SQLite file HEROES_DB_PATH)"
            )
        return SecretStr(text)

    def database(self) -> str | Path:
        """Where the games are kept: the PostgreSQL URL when ``HEROES_DATABASE_URL`` is
        set, else the SQLite file (`storage.opening.open_database` takes either)."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return self.db_path

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: object) -> object:
        return parse_shard_ids(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError(
                "HEROES_SHARD_IDS needs HEROES_SHARD_COUNT (the shards of all processes)"
            )
        outside = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if outside:
            raise ValueError(
                f"HEROES_SHARD_IDS {outside[0]} is not a shard of HEROES_SHARD_COUNT="
                f"{self.shard_count} (ids run from 0 to {self.shard_count - 1})"
            )
        return self

    def owned_shards(self) -> tuple[int, ...] | None:
        """The shard ids this process runs: ``shard_ids``, else every one of
        ``shard_count``; None when the bot is not sharded (one process serves all)."""
        if self.shard_count is None:
            return None
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

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
    "database_url": "HEROES_DATABASE_URL",
    "dev_guild_id": "HEROES_DEV_GUILD_ID",
    "log_level": "HEROES_LOG_LEVEL",
    "render_processes": "HEROES_RENDER_PROCESSES",
    "shard_count": "HEROES_SHARD_COUNT",
    "shard_ids": "HEROES_SHARD_IDS",
    "ai_budget_s": "HEROES_AI_BUDGET_S",
    "ai_away_level": "HEROES_AI_AWAY_LEVEL",
    "ai_level": "HEROES_AI_LEVEL",
}


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``HEROES_SHARD_IDS`` as a sorted tuple without repeats: ids and ranges separated by
    commas (``"0,2"``, ``"0-3"``, ``"4-7, 9"``).

    :raises ValueError: naming the part that is not a number or a range (low-high), or
        when no id is given.
    """
    found: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            first, last = int(low), int(high if dash else low)
        except ValueError:
            raise ValueError(
                f"{part!r} is not a shard id or a range like 0-3 (write e.g. 0,1 or 0-3)"
            ) from None
        if first < 0 or last < first or last - first >= MAX_SHARDS:
            raise ValueError(f"{part!r} is not a range from a lower to a higher id")
        found.update(range(first, last + 1))
    if not found:
        raise ValueError("no shard id given (write e.g. 0,1 or 0-3, or leave it unset)")
    return tuple(sorted(found))


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read the settings from the environment and ``env_file`` (None: environment only).

    :raises SettingsError: naming the first bad variable and why, in one line.
    """
    try:
        return Settings(_env_file=env_file)
    except ValidationError as error:
        first = error.errors()[0]
        message = str(first["msg"]).removeprefix("Value error, ")
        if not first["loc"]:  # a rule between settings (the shards): the message names them
            raise SettingsError(f"Bad settings: {message}.") from None
        field = str(first["loc"][0])
        name = _ENV_NAMES.get(field, field.upper())
        raise SettingsError(f"Bad setting {name}: {message}.") from None


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
