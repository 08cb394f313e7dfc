"""Moderator commands through the GameService: each checked, logged and announced."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bot.actors import Actor
from bot.command_table import UserRef
from bot.errors import GamePaused, NotModerator
from engine.core.ruleset import Ruleset
from engine.homm4 import RULESET as HOMM4
from storage.errors import NothingToUndo
from storage.records import GameStatus, LogKind, ModeratorAction
from tests.bot.service_helpers import (
    CHANNEL,
    GUILD,
    click_choice,
    current,
    make_service,
    person,
    started_game,
)

MOD = person(77, moderator=True)
ADMIN = Actor(78, "Admin", is_moderator=True, manages_server=True)


async def test_players_cannot_use_moderator_commands(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service)
        for path in (("mod", "pause"), ("mod", "undo"), ("mod", "skip"), ("mod", "end")):
            with pytest.raises(NotModerator, match="Only moderators"):
                await service.run(person(1), path, {}, channel_id=game.channel_id, guild_id=GUILD)
        with pytest.raises(NotModerator):
            await service.mod_verify(person(1), game.channel_id)
    finally:
        await repo.close()


async def test_pause_stops_moves_until_resume_and_both_are_logged(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=4)
        out = await service.mod_pause(MOD, game.channel_id, reason="holiday")
        assert "paused game" in out.posts[0].text and "holiday" in out.posts[0].text
        with pytest.raises(GamePaused, match="paused by a moderator"):
            await click_choice(service, game.id, person(1), 0)
        await service.mod_resume(MOD, game.channel_id, reason="back")
        await click_choice(service, game.id, person(1), 0)
        log = await repo.read_log(game.id, limit=1000)
        actions = [e.action for e in log.entries if e.kind is LogKind.MODERATOR]
        assert actions == [ModeratorAction.PAUSE, ModeratorAction.RESUME]
        assert [e.reason for e in log.entries if e.kind is LogKind.MODERATOR] == ["holiday", "back"]
    finally:
        await repo.close()


async def test_skip_plays_the_documented_default(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=5)
        _, state = await current(service, game.id)
        expected = HOMM4.default_command(state, 0)
        out = await service.mod_skip(MOD, game.channel_id, reason="asleep")
        assert "skipped Red's decision" in out.posts[0].text
        log = await repo.read_log_unredacted(game.id, limit=1000)
        skip = next(
            e for e in log.entries if e.kind is LogKind.COMMAND and e.actor_user_id == MOD.user_id
        )
        assert skip.reason == "moderator skip: asleep"
        assert json.loads(skip.command_json or "{}") == expected.model_dump(mode="json")
        shown = await service.log(person(1), game.channel_id)
        assert shown.reply is not None
        assert f"`{skip.seq}` Red (🛡️ <@77> moderator skip: asleep): " in shown.reply.text
    finally:
        await repo.close()


async def test_undo_goes_back_one_move_and_verify_agrees(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=2, ai=0, seed=6)
        before = (await current(service, game.id))[1]
        owed = HOMM4.pending(before)[0].seat
        await click_choice(service, game.id, person(owed + 1), owed)
        out = await service.mod_undo(MOD, game.channel_id, reason="misclick")
        assert "undid log entry" in out.posts[0].text
        _, after = await current(service, game.id)
        assert after.version == before.version + 2
        after.version = before.version
        assert Ruleset.dump_state(after) == Ruleset.dump_state(before)
        verdict = await service.mod_verify(MOD, game.channel_id)
        assert "exactly the stored position" in verdict.posts[0].text
        log = await repo.read_log(game.id, limit=1000)
        assert [e.action for e in log.entries if e.kind is LogKind.MODERATOR] == [
            ModeratorAction.UNDO,
            ModeratorAction.VERIFY,
        ]
        with pytest.raises(NothingToUndo):
            await service.mod_undo(MOD, game.channel_id)
    finally:
        await repo.close()


async def test_kick_hands_the_seat_to_the_computer_which_plays_on(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=2, ai=0, seed=7)
        out = await service.mod_kick(MOD, game.channel_id, seat="red", reason="left the server")
        assert "the computer plays that seat now" in out.posts[0].text
        seats = await repo.seats(game.id)
        assert seats[0].is_ai and seats[0].user_id is None
        _, state = await current(service, game.id)
        assert all(d.seat == 1 for d in HOMM4.pending(state))
    finally:
        await repo.close()


async def test_replace_gives_the_seat_and_its_cards_to_another_member(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=8)
        out = await service.mod_replace(
            MOD, game.channel_id, seat="1", user=UserRef(55, "Newcomer"), reason="swap"
        )
        assert "gave Red to <@55>" in out.posts[0].text
        seats = await repo.seats(game.id)
        assert seats[0].user_id == 55 and seats[0].display_name == "Newcomer"
        assert any(dm.user_id == 55 and dm.slot == "hand" for dm in out.dms)
        await click_choice(service, game.id, person(55), 0)
    finally:
        await repo.close()


async def test_end_deadline_and_settings(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        settings = await service.server_settings(
            ADMIN, None, guild_id=GUILD, role=1234, deadline_hours=24, reminder_hours=6
        )
        assert (
            settings.reply is not None
            and "<@&1234>" in settings.reply.text
            and "24 h" in settings.reply.text
        )
        stored = await repo.guild_settings(GUILD)
        assert stored.moderator_role_id == 1234 and stored.turn_deadline is not None
        policy = await service.server_settings(
            ADMIN, CHANNEL, guild_id=GUILD, deadline_policy="computer"
        )
        assert policy.reply is not None and policy.reply.text.splitlines() == [
            "✅ Saved.",
            "Moderator role: <@&1234>",
            "Decision deadline: 24 h; reminders: every 6 h",
            "When a deadline passes: the computer plays",
            "Away (the computer plays the seat): after 2 missed deadlines in a row",
            "/game away: up to 72 h; /game extend: 2 per game, up to 24 h each",
        ]
        assert "deadline policy remind the moderators → the computer plays" in (
            policy.posts[0].text
        )
        game = await started_game(service, seed=9)
        out = await service.mod_deadline(MOD, game.channel_id, hours=3, reason="busy week")
        assert "deadline" in out.posts[0].text
        deadline = next(d for d in await repo.deadlines(game.id) if d.kind == "turn")
        assert round((deadline.due_at - service.clock()).total_seconds() / 3600) == 3
        await service.mod_end(MOD, game.channel_id, reason="done")
        row = await repo.get_game(game.id)
        assert row.status is GameStatus.ABANDONED
        assert await repo.game_in_channel(game.channel_id) is None
    finally:
        await repo.close()


async def test_only_manage_server_chooses_the_moderator_role(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        with pytest.raises(NotModerator, match="Manage Server"):
            await service.server_settings(MOD, None, guild_id=GUILD, role=55)
        with pytest.raises(NotModerator, match="Manage Server"):
            await service.server_settings(MOD, None, guild_id=GUILD, clear_role=True)
        with pytest.raises(NotModerator):
            await service.server_settings(person(3), None, guild_id=GUILD)
        out = await service.server_settings(MOD, None, guild_id=GUILD, deadline_hours=12)
        assert out.reply is not None and out.reply.ephemeral and "12 h" in out.reply.text
        assert out.posts == [], "no channel (a DM or a test): nothing to announce in"
        stored = await repo.guild_settings(GUILD)
        assert stored.moderator_role_id is None
        assert (
            stored.turn_deadline is not None and stored.turn_deadline.total_seconds() == 12 * 3600
        )
    finally:
        await repo.close()


async def test_a_settings_change_is_announced_with_who_what_and_why_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        with caplog.at_level(logging.INFO, logger="bot.moderation"):
            out = await service.server_settings(
                ADMIN, CHANNEL, guild_id=GUILD, role=77, deadline_hours=24, reason="slow season"
            )
        [post] = out.posts
        assert post.channel_id == CHANNEL and post.mention_role_ids == ()
        assert post.text == (
            f"🛡️ Moderator {ADMIN.display_name} (<@{ADMIN.user_id}>) changed this server's "
            "settings: moderator role none (Manage Server only) → <@&77>; decision deadline "
            "48 h → 24 h. Reason: slow season"
        )
        [record] = [r for r in caplog.records if r.name == "bot.moderation"]
        assert f"moderator {ADMIN.user_id}" in record.getMessage()
        assert "decision deadline 48 h → 24 h" in record.getMessage()
        again = await service.server_settings(MOD, CHANNEL, guild_id=GUILD, deadline_hours=24)
        assert again.posts == [] and again.reply is not None
        assert not again.reply.text.startswith("Saved.")
    finally:
        await repo.close()
