"""The local console: the same slash commands as Discord, numbered buttons, DMs printed,
hot-seat play, driven by feeding lines."""

from __future__ import annotations

import argparse
import shlex
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot import local
from bot.cli import build_parser
from bot.homm4.commands import slash_for
from bot.local import relative_time
from bot.service import GameService
from storage import open_repository
from tests.bot.service_helpers import choose, current


def _line(path: tuple[str, ...], options: dict[str, object]) -> str:
    parts = ["/" + " ".join(path)] + [f"{k}:{shlex.quote(str(v))}" for k, v in options.items()]
    return " ".join(parts)


async def _console(
    tmp_path: Path, humans: int = 1, ai: int = 1, seed: int = 17
) -> tuple[local.Console, GameService]:
    repo = await open_repository(tmp_path / "local.db", synchronous="NORMAL")
    service = GameService(repo, renderer=None)
    console = local.Console(service, humans, ai, tmp_path / "images", seed=seed)
    return console, service


@pytest.mark.slow
async def test_the_console_plays_a_whole_game_with_typed_commands(tmp_path: Path) -> None:
    console, service = await _console(tmp_path)
    try:
        text = await console.start()
        assert "Game #1 begins" in text
        assert "[DM to Red (Player 1)]" in text
        assert "!1 [Red: my cards and choices]" in text
        assert "!2 Choose 5 cards for your Risk Stack (pick 5-5):" in text
        assert "[you are Player 1]" in text
        pressed = await console.handle("!3")
        assert "✅ Risk Stack" in pressed
        typed = 0
        for _ in range(3000):
            game, state = await current(service, console.game_id or 0)
            if game.status.value != "active":
                break
            _, command = choose(state, 0)
            output = await console.handle(_line(*slash_for(command)))
            assert "✗" not in output.splitlines()[0], output
            typed += 1
        game, _ = await current(service, console.game_id or 0)
        assert game.status.value == "finished"
        assert typed > 10
        final = await console.handle("/game status")
        assert "🏆" in final
    finally:
        await service.repo.close()


async def test_console_helpers_and_refusals(tmp_path: Path) -> None:
    console, service = await _console(tmp_path, humans=2, ai=0, seed=18)
    try:
        await console.start()
        helped = await console.handle("/help")
        # a short overview: one line per family, /help COMMAND for one in full
        families = [line for line in helped.split("\n\n")[0].splitlines() if line.startswith("/")]
        assert "!N presses button N" in helped and "/help COMMAND" in helped
        assert any(line.startswith("/purchase ") and "buy" in line for line in families)
        assert any(line.startswith("/mod ") and "undo" in line for line in families)
        assert any(line.startswith("/deck ") and "import" in line for line in families)
        assert len(families) <= 20 and "[pay]" not in helped
        assert "/mmh" not in helped and "/homm3" not in helped, "only this game's commands"
        now = helped.split("\n\n")[1]
        assert now.startswith("Now: Red chooses 5 of the 8 cards drawn as the Risk Stack.")
        assert "\n/setup risk cards — Choose 5 of the 8 drawn cards as your Risk Stack" in now
        assert "There is no component" in await console.handle("!99")
        assert (
            "✗ There is no console user 7. Console users: 1 (Player 1), 2 (Player 2) "
            "(start the console with --players and --ai for more people)."
        ) in await console.handle("/as 7")
        switched = await console.handle("/as 2")
        assert "You now act as Player 2" in switched and switched.endswith("[you are Player 2]")
        refused = await console.handle("/purchase done")
        assert refused.startswith("✗ It is not your turn to act.")
        assert "Hot-seat" in await console.handle("/as auto")
        bad = await console.handle("/setup army hex:ZZ99")
        assert bad.startswith("✗")
        assert "Unknown command /dance" in await console.handle("/dance")
        passed = await console.handle("/game away until:0")
        assert " UTC has passed; give a later time." in passed and "<t:" not in passed, (
            "a refusal's Discord timestamp is shown as a date at the console too"
        )
        assert "@Player 1" in console.plain("<@1> and <t:1893456000:R>")
        assert console.plain("<t:1893456000:f>") == "2030-01-01 00:00 UTC"
        console.clock = lambda: datetime(2029, 12, 30, 23, 0, tzinfo=UTC)
        assert console.plain("(deadline <t:1893456000:R>, <t:1893456000:f>)") == (
            "(deadline in 1 d 1 h, 2030-01-01 00:00 UTC)"
        ), "a relative timestamp is told from the console's clock, not as a second date"
        assert [
            relative_time(datetime(2030, 1, 1, tzinfo=UTC) + d, datetime(2030, 1, 1, tzinfo=UTC))
            for d in (
                timedelta(hours=23, minutes=59),
                timedelta(minutes=5),
                timedelta(seconds=20),
                -timedelta(minutes=10),
            )
        ] == ["in 23 h 59 min", "in 5 min", "now", "10 min ago"]
        assert await console.handle("/quit") == "Bye."
    finally:
        await service.repo.close()


async def test_the_session_reads_lines_until_the_end_of_input(tmp_path: Path) -> None:
    args = build_parser().parse_args(
        ["local", "--seed", "19", "--no-images", "--db", str(tmp_path / "s.db")]
    )
    assert args.players == 2 and args.ai is None
    lines = iter(["/game status", "!1", "/hand"])
    printed: list[str] = []
    code = await local._session(args, lambda: next(lines, None), printed.append)
    assert code == 0
    output = "\n".join(printed)
    assert "(homm4, 1 person, 1 computer)" in output
    assert "removed with its pictures" in output, "the game's --db is kept, the pictures not"
    db = tmp_path / "s.db"
    assert printed[-1].startswith(f"(the game is kept in {db}; resume it with --db {db}; the ")
    assert "pass --db FILE" not in printed[-1]
    assert "[reply to Player 1 (only you)] Red — your cards in game #1" in output
    assert (tmp_path / "s.db").exists()


def test_the_cli_offers_local_with_playable_defaults() -> None:
    args = build_parser().parse_args(["local"])
    assert isinstance(args, argparse.Namespace)
    assert (args.ruleset, args.players, args.ai, args.db) == ("homm4", 2, None, None)


async def test_a_second_session_on_the_same_database_resumes_the_game(tmp_path: Path) -> None:
    db = str(tmp_path / "keep.db")
    first = build_parser().parse_args(["local", "--seed", "20", "--no-images", "--db", db])
    lines = iter(["!3"])
    await local._session(first, lambda: next(lines, None), lambda text: None)
    printed: list[str] = []
    again = build_parser().parse_args(["local", "--no-images", "--db", db])
    code = await local._session(again, lambda: None, printed.append)
    output = "\n".join(printed)
    assert code == 0
    assert "Resuming game #1 from the database." in output
    assert "Red places the Army token on an edge hex." in output


def test_a_resumed_session_numbers_its_pictures_after_the_earlier_ones(tmp_path: Path) -> None:
    from bot.outbox import Image, Outbox, Reply

    out = tmp_path / "images"
    out.mkdir()
    (out / "0007-board.png").write_bytes(b"old")
    console = local.Console(object(), 1, 1, out)
    console.show(Outbox(reply=Reply("x", images=(Image("hand.png", b"new"),))))
    console.show(Outbox(reply=Reply("y", images=(Image("board.png", b"newer"),))))
    assert (out / "0007-board.png").read_bytes() == b"old"
    assert [p.name for p in console.images_written] == ["0008-hand.png", "0009-board.png"]


def test_the_console_lists_each_messages_buttons_under_it(tmp_path: Path) -> None:
    from bot.outbox import Button, ChannelPost, DirectMessage, Outbox

    console = local.Console(object(), 1, 1, tmp_path / "images")
    done = Button("End the Movement Phase", "ht:1:4:opt:0.abcde")
    hand = Button("Red: my cards and choices", "ht:1:4:hand")
    shown = console.show(
        Outbox(
            posts=[ChannelPost(1, "➡️ Red's Movement Phase.", components=(done,))],
            dms=[DirectMessage(1, 1, "decision", "nothing waits for you", components=(hand,))],
        )
    )
    assert shown == [
        "[#game] ➡️ Red's Movement Phase.",
        "  !1 [End the Movement Phase]",
        "[DM to user 1] nothing waits for you",
        "  !2 [Red: my cards and choices]",
    ]
    assert console.components == [done, hand]
    again = console.show(Outbox(dms=[DirectMessage(1, 1, "decision", "Your Closing Phase")]))
    assert again == ["[DM to user 1, replacing the last one] Your Closing Phase"]
    notice = console.show(Outbox(dms=[DirectMessage(1, 1, "notice", "a notice")] * 2))
    assert notice == ["[DM to user 1] a notice"] * 2, "notices are never replaced"


def test_the_console_lists_a_component_once_and_prints_embeds(tmp_path: Path) -> None:
    from bot.outbox import Button, DirectMessage, Embed, Outbox, Reply

    console = local.Console(object(), 1, 1, tmp_path / "images")
    end = Button("End the Purchase Phase", "ht:1:4:opt:0.abcde")
    shown = console.show(
        Outbox(
            reply=Reply(
                "✅ Bought",
                components=(end,),
                embeds=(Embed("Grouping", "Two Creatures", "homm4:battles.grouping"),),
            ),
            dms=[DirectMessage(1, 1, "decision", "Your Purchase Phase", components=(end,))],
        )
    )
    assert [line for line in shown if "End the Purchase Phase" in line] == [
        "  !1 [End the Purchase Phase]"
    ]
    assert console.components == [end]
    assert "  ┃ Grouping" in shown and "  ┃ Two Creatures" in shown
    assert "  ┃ (homm4:battles.grouping)" in shown


async def test_a_database_whose_game_cannot_be_read_is_reported_in_one_line(
    tmp_path: Path,
) -> None:
    import sqlite3

    db = tmp_path / "s.db"
    args = build_parser().parse_args(["local", "--seed", "19", "--no-images", "--db", str(db)])
    assert await local._session(args, lambda: None, lambda text: None) == 0
    with sqlite3.connect(db) as conn:  # a snapshot this engine cannot read (newer, broken)
        conn.execute("""UPDATE games SET state = '{"ruleset": "homm4"}'""")
    conn.close()
    printed: list[str] = []
    assert await local._session(args, lambda: None, printed.append) == 1
    assert printed[-3].startswith("✗ Not a valid homm4 game state")
    assert "pass another --db" in printed[-2]
    assert printed[-1].startswith(f"(the database {db} is kept; the temporary folder ")
    assert printed[-1].endswith(
        " is removed with its pictures; pass --out DIR to keep the pictures)"
    )
    assert "--db FILE" not in printed[-1], "the game's database was given"


async def test_a_file_that_is_not_a_database_is_reported_in_one_line_and_kept(
    tmp_path: Path,
) -> None:
    db = tmp_path / "garbage.db"
    garbage = bytes(range(256)) * 20
    db.write_bytes(garbage)
    args = build_parser().parse_args(["local", "--no-images", "--db", str(db)])
    printed: list[str] = []
    assert await local._session(args, lambda: None, printed.append) == 1
    assert printed == [
        f"✗ Cannot open the database {db}: it is not a SQLite database (or it is encrypted). "
        "Nothing was changed."
    ]
    assert db.read_bytes() == garbage


async def test_the_closing_line_says_where_the_game_and_pictures_are_kept(tmp_path: Path) -> None:
    db, out = tmp_path / "keep.db", tmp_path / "pictures"
    temp = tmp_path / "temporary"
    assert local._closing_line(db, None, str(temp), resumable=True, again="heroes-table") == (
        f"(the game is kept in {db}; heroes-table resumes it; the temporary folder {temp} is "
        "removed with its pictures; pass --out DIR to keep the pictures)"
    )
    assert local._closing_line(db, out, str(temp), resumable=True) == (
        f"(the game is kept in {db}; resume it with --db {db}; the pictures are kept in {out})"
    )
    args = build_parser().parse_args(
        ["local", "--seed", "19", "--no-images", "--db", str(db), "--out", str(out)]
    )
    printed: list[str] = []
    assert await local._session(args, lambda: None, printed.append) == 0
    assert printed[-1] == (
        f"(the game is kept in {db}; resume it with --db {db}; the pictures are kept in {out})"
    )


async def test_verify_in_the_console_counts_one_command_in_the_singular(tmp_path: Path) -> None:
    console, service = await _console(tmp_path, humans=2, ai=0)
    try:
        await console.start()
        assert "✅ Risk Stack" in await console.handle("!3")
        verified = await console.handle("/mod verify")
        assert "verified game #1: replaying 1 command gives exactly the stored position" in (
            verified
        )
    finally:
        await service.repo.close()


async def test_help_in_another_games_console_shows_only_that_games_words(tmp_path: Path) -> None:
    """An mmh console's /help names no homm4-only thing: no Hand and Risk Stack for /hand,
    no deck commands, no other game's lobby options."""
    repo = await open_repository(tmp_path / "local.db", synchronous="NORMAL")
    service = GameService(repo, renderer=None)
    console = local.Console(service, 1, 1, tmp_path / "images", seed=3, ruleset="mmh")
    try:
        await console.start()
        helped = await console.handle("/help")
        assert "Risk Stack" not in helped and "/deck" not in helped
        assert "/game new|" in helped and "|join|" in helped and "map-sections" not in helped
        assert "\n/hand\n" in helped and "/mmh " in helped
    finally:
        await repo.close()


def test_a_fixed_choice_is_read_by_a_word_of_its_name_and_refused_with_the_names() -> None:
    """``/mmh battle orders cards:pass`` reads the choice named "pass windows"; a value
    that fits none is refused listing each value with its name."""
    import pytest

    from bot.command_table import LineError, parse_console_line
    from bot.commands import ALL_SPECS

    parsed = parse_console_line("/mmh battle orders cards:pass", ALL_SPECS)
    assert parsed.options == {"cards": "windows"}
    assert parse_console_line("/mmh battle orders cards:never", ALL_SPECS).options == {
        "cards": "never"
    }
    with pytest.raises(LineError) as refused:
        parse_console_line("/mmh battle orders cards:sometimes", ALL_SPECS)
    assert str(refused.value) == (
        "cards must be one of: ask, windows (pass windows), never (never use)."
    )


async def test_a_game_opened_later_in_the_console_has_no_deadline(tmp_path: Path) -> None:
    """The console's server has no decision deadline: a game opened with /game new after
    the first one (another mode, say) gets none either (was 48 h and dated reminders)."""
    console, service = await _console(tmp_path)
    try:
        await console.start()
        await console.handle("/mod end reason:another")
        opened = await console.handle("/game new ruleset:homm3 mode:adventure")
        assert "deadline: none" in opened
        settings = await service.repo.guild_settings(local.GUILD_ID)
        assert settings.turn_deadline is None
    finally:
        await service.repo.close()


async def test_options_of_the_game_are_given_on_the_command_line(tmp_path: Path) -> None:
    """``--options 'mode:adventure size:medium'`` opens a homm3 Adventure; an option the
    game does not have is refused in one line, with no word of a game to continue."""
    options = ["--options", "mode:adventure size:medium"]
    args = build_parser().parse_args(
        ["local", "--ruleset", "homm3", "--seed", "5", "--no-images", *options]
    )
    printed: list[str] = []
    code = await local._session(args, lambda: None, printed.append)
    output = "\n".join(printed)
    assert code == 0 and "The Adventure begins: 13 rounds" in output

    for typed, said in (
        ("length:quick", "✗ 'length:quick' is not an option of Heroes of Might and Magic III"),
        ("colour:red", "✗ 'colour:red' is not an option of Heroes of Might and Magic III"),
        ("assembly:sideways", "✗ --options: assembly must be one of"),
        ("players:3", "✗ --options: players come from --ruleset, --players and --ai."),
        ("map-sections:5", "✗ --options: map-sections comes from --map-sections."),
        ("deadline-hours:3", "✗ --options: deadline-hours: a game at the console has no"),
    ):
        fresh = ["--db", str(tmp_path / f"{typed.split(':')[0]}.db")]  # no game to resume
        args = build_parser().parse_args(
            ["local", "--ruleset", "homm3", "--options", typed, *fresh]
        )
        printed = []
        code = await local._session(args, lambda: None, printed.append)
        assert code in (1, 2) and any(line.startswith(said) for line in printed), printed
        assert not any("cannot be continued" in line for line in printed)


def test_free_words_at_the_end_of_a_line_need_no_quotes() -> None:
    """``/card Tree of Knowledge`` looks up that card; a move's extra word is still
    refused as a value without a name."""
    import pytest

    from bot.command_table import LineError, parse_console_line
    from bot.commands import ALL_SPECS

    assert parse_console_line("/card Tree of Knowledge", ALL_SPECS).options == {
        "name": "Tree of Knowledge"
    }
    assert parse_console_line("/game rules topic:combat", ALL_SPECS).options == {"topic": "combat"}
    paused = parse_console_line("/mod pause back after lunch", ALL_SPECS)
    assert paused.options == {"reason": "back after lunch"}
    with pytest.raises(LineError, match="'extra' has no name"):
        parse_console_line("/mmh hero move A9 extra", ALL_SPECS)


async def test_without_db_the_game_is_kept_in_the_data_folder_and_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No --db: the game lives in the user's data folder ($XDG_DATA_HOME/heroes-table,
    one file per game), the first lines say where, and the next session resumes it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = tmp_path / "data" / "heroes-table" / "console-mmh.db"
    assert local.default_database("mmh") == db
    args = build_parser().parse_args(["local", "--ruleset", "mmh", "--seed", "4", "--no-images"])
    printed: list[str] = []
    assert await local._session(args, lambda: None, printed.append) == 0
    assert printed[0].endswith(f"Database: {db}")
    assert printed[1] == (
        "The game is kept there: heroes-table local --ruleset mmh resumes it after /quit "
        "(--db FILE for another)."
    )
    assert printed[-1].startswith(
        f"(the game is kept in {db}; heroes-table local --ruleset mmh resumes it;"
    )
    assert db.is_file()
    again: list[str] = []
    assert await local._session(args, lambda: None, again.append) == 0
    assert any(line.startswith("Resuming game #1 from the database.") for line in again), again


def test_the_resume_hint_names_the_program_as_it_was_started(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """From a fresh clone the quick start runs ``.venv/bin/heroes-table``, which is not on
    the PATH: the console's "resumes it" hint says that path, not bare ``heroes-table``."""
    program = tmp_path / ".venv" / "bin" / "heroes-table"
    program.parent.mkdir(parents=True)
    program.write_text("")
    monkeypatch.setattr(sys, "argv", [str(program)])
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    assert local._again_command("homm4") == str(program)
    assert local._again_command("mmh") == f"{program} local --ruleset mmh"
    monkeypatch.setenv("PATH", str(program.parent))
    program.chmod(0o755)
    assert local._again_command("mmh") == "heroes-table local --ruleset mmh"
