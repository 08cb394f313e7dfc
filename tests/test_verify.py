"""The integrity check off the start-up path (issue 17): `storage.sqlite.integrity_problems`,
the bot's background check once ready (`bot.app.check_when_ready`) and `heroes-table verify`."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot import cli
from bot.app import check_when_ready, open_service
from storage.errors import DatabaseUnusable
from storage.sqlite import integrity_problems, open_repository


async def _database(path: Path, *, damaged: bool) -> Path:
    repo = await open_repository(path)
    for channel in range(300):
        await repo.create_game(channel, ruleset="dice_race", options={"pad": "x" * 200})
    await repo.close()
    if damaged:
        data = bytearray(path.read_bytes())
        page_size = int.from_bytes(data[16:18], "big")
        for offset in range(3 * page_size, 6 * page_size):  # scribble over b-tree pages
            data[offset] = (offset * 7) % 251
        path.write_bytes(bytes(data))
    return path


class ReadyBot:
    """What `check_when_ready` needs of a `HeroesBot`: a ready signal."""

    def __init__(self) -> None:
        self.waited = False

    async def wait_until_ready(self) -> None:
        self.waited = True


async def test_a_sound_file_has_no_problems_and_a_damaged_one_names_them(tmp_path: Path) -> None:
    sound = await _database(tmp_path / "sound.db", damaged=False)
    damaged = await _database(tmp_path / "damaged.db", damaged=True)
    assert await integrity_problems(sound) == []
    assert await integrity_problems(sound, thorough=True) == []
    problems = await integrity_problems(damaged)
    assert 1 <= len(problems) <= 3 and all("\n" not in p for p in problems)
    (tmp_path / "text.db").write_text("not a database at all, just some words " * 200)
    with pytest.raises(DatabaseUnusable, match="not a readable SQLite file"):
        await integrity_problems(tmp_path / "text.db")
    with pytest.raises(DatabaseUnusable, match="no such file"):
        await integrity_problems(tmp_path / "missing.db")


async def test_the_bot_opens_without_the_check_and_reports_damage_once_ready(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    damaged = await _database(tmp_path / "damaged.db", damaged=True)
    with pytest.raises(DatabaseUnusable, match="damaged"):
        await open_repository(damaged)  # the check at opening, as storage's default
    service, closers = await open_service(damaged, renderer=None)  # the bot's: no check
    assert service.repo.path == damaged
    try:
        bot = ReadyBot()
        with caplog.at_level(logging.INFO, logger="bot.app"):
            problems = await check_when_ready(bot, damaged)  # type: ignore[arg-type]
        assert bot.waited and problems
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1 and "restore it from a backup" in errors[0].getMessage()
    finally:
        for close in reversed(closers):
            await close()
    sound = await _database(tmp_path / "sound.db", damaged=False)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="bot.app"):
        assert await check_when_ready(ReadyBot(), sound) == []  # type: ignore[arg-type]
    assert [r.levelno for r in caplog.records] == [logging.INFO]
    assert "passed its integrity check" in caplog.records[0].getMessage()


async def _verify(argv: list[str]) -> int:
    import asyncio

    return await asyncio.to_thread(cli.main, ["verify", *argv])


async def test_heroes_table_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sound = await _database(tmp_path / "sound.db", damaged=False)
    damaged = await _database(tmp_path / "damaged.db", damaged=True)
    assert await _verify(["--db", str(sound)]) == 0
    assert capsys.readouterr().out.startswith(f"{sound}: sound (quick_check, ")
    assert await _verify(["--db", str(sound), "--thorough"]) == 0
    assert "integrity_check" in capsys.readouterr().out
    assert await _verify(["--db", str(damaged)]) == 1
    err = capsys.readouterr().err
    assert f"{damaged} is damaged (quick_check); restore it from a backup:" in err
    assert await _verify(["--db", str(tmp_path / "missing.db")]) == 1
    assert "there is no such file" in capsys.readouterr().err
