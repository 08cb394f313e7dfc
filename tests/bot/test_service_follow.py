"""Following a game: status, the public log page by page, cards, help, autocomplete; and
computer seats that play in bounded steps and resume after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters import adapter_for
from bot.errors import BadOption, NoGameHere
from bot.service import GameService
from engine.homm4 import RULESET as HOMM4
from storage.records import GameStatus
from tests.bot.service_helpers import (
    CHANNEL,
    GUILD,
    RecordingRenderer,
    click_choice,
    current,
    make_service,
    person,
    started_game,
)


async def test_status_shows_the_board_whose_turn_and_the_deadline(tmp_path: Path) -> None:
    renderer = RecordingRenderer()
    repo, service = await make_service(tmp_path, renderer=renderer)
    try:
        with pytest.raises(NoGameHere, match="/game new"):
            await service.status(person(1), CHANNEL)
        game = await started_game(service, seed=41)
        out = await service.status(person(3), CHANNEL)
        assert out.reply is not None and not out.reply.ephemeral
        text = out.reply.text
        assert f"**Game #{game.id}** (active)" in text
        assert "Red (Player 1): Hand" in text and "Blue (Computer Gelu)" in text
        assert (
            "⏳ Red (<@1>): Red chooses 5 of the 8 cards drawn as the Risk Stack. — deadline <t:"
            in text
        )
        # the focus first (around the acting Army, readable on a phone), then the board
        assert [i.filename for i in out.reply.images] == ["board-focus.png", "board.png"]
        assert [kind for kind, _ in renderer.shown[-2:]] == ["board", "board-focus"]
    finally:
        await repo.close()


async def test_the_log_pages_back_and_shows_only_public_lines(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=42)
        for _ in range(40):
            await click_choice(service, game.id, person(1), 0)
        first = await service.log(person(5), CHANNEL)
        assert first.reply is not None and first.reply.ephemeral
        assert first.reply.text.startswith(f"**Log of game #{game.id}**")
        older = first.reply.components[0]
        second = await service.click(person(5), older.custom_id)
        assert second.reply is not None
        numbers = [
            int(line.split("`")[1])
            for line in second.reply.text.splitlines()[1:]
            if line.startswith("`")
        ]
        top = [
            int(line.split("`")[1])
            for line in first.reply.text.splitlines()[1:]
            if line.startswith("`")
        ]
        assert numbers and max(numbers) < min(top)
        full = await repo.read_log_unredacted(game.id, limit=1000)
        private = {text for e in full.entries for ev in e.events for text in ev.private.values()}
        shown = first.reply.text + second.reply.text
        assert private and not any(p in shown for p in private)
        pages = (first.reply.text, second.reply.text)
        lines = [line for page in pages for line in page.splitlines() if line.startswith("`")]
        assert all(len(line) <= 320 for line in lines)
        long = [line for line in lines if len(line.split(": ", 1)[1]) == 300]
        assert all(line.endswith("…") for line in long), "a cut log line says so"
    finally:
        await repo.close()


async def test_cards_help_and_autocomplete(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path, renderer=RecordingRenderer())
    try:
        found = adapter_for("homm4").card_names("drag")
        assert ("Black Dragon (unit)", "black_dragon") in found and len(found) <= 25
        out = await service.run(person(1), ("card",), {"name": "black_dragon"})
        assert out.reply is not None and out.reply.text.startswith("**Black Dragon** (unit)")
        assert out.reply.images[0].data == b"card"
        with pytest.raises(BadOption, match="No card is called"):
            await service.card(person(1), None, name="zzzz")
        game = await started_game(service, seed=43)
        helped = await service.run(person(1), ("help",), {}, channel_id=CHANNEL)
        assert helped.reply is not None and "**Now:** Red chooses 5" in helped.reply.text
        assert "/setup risk cards" in helped.reply.text
        suggestions = await service.autocomplete(
            person(1), ("setup", "risk"), "cards", "", {}, channel_id=CHANNEL
        )
        _, state = await current(service, game.id)
        assert len(suggestions) == len(state.players_state[0].hand) + 1
        assert (
            await service.autocomplete(
                person(2), ("setup", "risk"), "cards", "", {}, channel_id=CHANNEL
            )
            == []
        )
        decks = await service.autocomplete(person(1), ("game", "join"), "deck", "hav", {})
        assert decks == [("Knights of Haven (ready-made)", "haven")]
    finally:
        await repo.close()


async def test_computer_seats_play_in_bounded_steps_and_resume_after_a_restart(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path, max_auto_steps=2)
    try:
        game = await started_game(service, humans=1, ai=2, seed=44)
        for _ in range(300):
            _, state = await current(service, game.id)
            owed = HOMM4.pending(state)[0].seat
            if owed != 0:
                break
            await click_choice(service, game.id, person(1), 0)
        else:
            pytest.fail("the computers never had to wait")
        assert game.id in service._unfinished
        restarted = GameService(repo, renderer=None)
        out = await restarted.recover()
        assert out.posts and any("🤖" in p.text for p in out.posts)
        row, state = await current(restarted, game.id)
        assert row.status is not GameStatus.ACTIVE or HOMM4.pending(state)[0].seat == 0
    finally:
        await repo.close()


async def test_moves_in_a_dm_or_without_a_seat_are_refused_clearly(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await started_game(service, seed=45)
        from bot.errors import NotSeated, WrongStage

        with pytest.raises(NotSeated, match="You can follow it with /game status"):
            await service.run(person(9), ("turn", "close"), {}, channel_id=CHANNEL, guild_id=GUILD)
        with pytest.raises(WrongStage, match="not in a DM"):
            await service.run(person(1, dm=True), ("game", "status"), {})
        with pytest.raises(NoGameHere):
            await service.run(person(1, dm=True), ("turn", "close"), {})
    finally:
        await repo.close()
