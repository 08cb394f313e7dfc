"""`heroes-table run`: what it says without a token or with a bad setting, that the bare
`heroes-table` runs the bot when a token is set, and that importing it stays cheap."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bot.app
from bot import cli
from bot.settings import Settings
from storage import open_repository
from tests.bot.discord_helpers import Table
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

ENV_NAMES = ("DISCORD_TOKEN", "HEROES_DB_PATH", "HEROES_DEV_GUILD_ID", "HEROES_LOG_LEVEL")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No settings from the environment or a .env file of the working directory."""
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_run_without_a_token_says_what_to_set_and_where(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert cli.main(["run"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and f"the settings file {tmp_path.resolve() / '.env'}\n" in err
    assert "https://discord.com/developers/applications" in err
    assert "Reset Token" in err and "HEROES_DEV_GUILD_ID" in err


def test_run_reports_a_bad_setting_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("HEROES_DEV_GUILD_ID", "not-a-number")
    assert cli.main(["run"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("heroes-table run: Bad setting HEROES_DEV_GUILD_ID") and "\n" not in err


def test_bare_command_runs_the_bot_when_a_token_is_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nHEROES_DB_PATH=games/h.db\n")
    seen: list[Settings] = []

    async def fake_run(settings: Settings) -> int:
        seen.append(settings)
        return 0

    monkeypatch.setattr(bot.app, "run", fake_run)
    monkeypatch.setattr(sys, "argv", ["heroes-table"])
    assert cli.main(None) == 0
    assert seen and seen[0].discord_token is not None
    assert seen[0].discord_token.get_secret_value() == "abc"
    assert seen[0].db_path == Path("games/h.db")


def test_bare_command_without_a_token_says_why_it_opens_the_console(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import bot.local

    seen: list[str] = []

    def fake_local(args: Any) -> int:
        seen.append(args.command)
        return 0

    monkeypatch.setattr(bot.local, "main", fake_local)
    assert cli.main([]) == 0
    assert seen == ["local"]
    err = capsys.readouterr().err
    assert err.startswith("No DISCORD_TOKEN is set") and "heroes-table run" in err


def test_run_db_option_overrides_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    seen: list[Any] = []

    async def fake_run(settings: Settings) -> int:
        seen.append(settings.db_path)
        return 0

    monkeypatch.setattr(bot.app, "run", fake_run)
    assert cli.main(["run", "--db", "other.db"]) == 0
    assert seen == [Path("other.db")]


def test_importing_the_app_does_not_load_discord() -> None:
    code = "import sys, bot.app, bot.cli; print('discord' in sys.modules, 'storage.sqlite' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True
    )
    assert out.stdout.split() == ["False", "False"]


async def test_run_serves_until_sigterm_then_closes_everything(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    db = tmp_path / "heroes.db"
    settings = Settings(_env_file=None, DISCORD_TOKEN="abc", db_path=db)  # type: ignore[call-arg]
    task = asyncio.create_task(bot.app.run(settings))
    while not (fake_discord.command_syncs and fake_discord.gateway.identifies):
        assert not task.done(), task  # waits for the bot to come up, however slowly
        await asyncio.sleep(0.02)
    assert fake_discord.command_syncs == 1
    helped = await fake_discord.slash(table.ann, table.channel, "help")
    assert (await helped.final_message()).ephemeral
    assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL, "no SIGTERM handler"
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 120) == 0  # a guard against a hang, not a timing
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    repo = await open_repository(db)  # closed cleanly: opens again at once
    await repo.close()
    fake_discord.assert_no_violations()


async def test_run_without_a_network_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import discord

    async def no_network(self: discord.Client, token: str) -> None:
        raise OSError(-2, "Name or service not known")

    monkeypatch.setattr(discord.Client, "login", no_network)
    db = tmp_path / "heroes.db"
    settings = Settings(_env_file=None, DISCORD_TOKEN="abc", db_path=db)  # type: ignore[call-arg]
    assert await bot.app.run(settings) == 1
    err = capsys.readouterr().err
    assert err == (
        "heroes-table run: cannot reach Discord ([Errno -2] Name or service not known). "
        "Check the network connection and try again.\n"
    )
    repo = await open_repository(db)  # closed cleanly: opens again at once
    await repo.close()
