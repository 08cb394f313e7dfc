"""Replay: seed + log rebuild the snapshot exactly; verify finds tampering; undo by replay."""

from __future__ import annotations

import random

import pytest

from engine.core import StaleState
from storage.errors import ChannelBusy, NothingToUndo, WrongGameStatus
from storage.records import GameStatus, LogKind, ModeratorAction
from storage.replay import (
    first_difference,
    read_full_log,
    replay_game,
    undo_last_command,
    verify_game,
)
from storage.repository import Repository
from tests.storage.conftest import RawSql
from tests.storage.dice_race import DICE_RACE
from tests.storage.helpers import HOST, load, play_one, started_game


@pytest.mark.slow
async def test_a_whole_game_of_hundreds_of_commands_replays_to_its_snapshot(
    repo: Repository,
) -> None:
    game = await started_game(repo, 1, players=3, seed=987654321, options={"target": 400})
    rng = random.Random(42)
    undone = 0
    while (current := await repo.get_game(game.id)).status is GameStatus.ACTIVE:
        await play_one(repo, game.id, rng)
        if current.version % 50 == 49:  # a moderator steps in now and then
            await repo.pause(game.id, moderator_user_id=HOST, reason="check")
            await repo.resume(game.id, moderator_user_id=HOST, reason="ok")
            undo = await undo_last_command(
                repo,
                game.id,
                expected_version=current.version + 1,
                moderator_user_id=HOST,
                reason="misclick",
            )
            assert undo.undoes is not None
            undone += 1

    final = await repo.get_game(game.id)
    state = load(final)
    entries = await read_full_log(repo, game.id)
    commands = [e for e in entries if e.kind is LogKind.COMMAND]
    in_effect = [e for e in commands if e.in_effect]
    assert len(commands) >= 300  # "a few hundred" commands
    assert undone >= 5
    assert len(in_effect) == len(commands) - undone
    assert final.version == len(commands) + undone  # a command or an undo each count one
    assert [e.version_after for e in entries if e.kind is not LogKind.MODERATOR or e.undoes] == [
        *range(final.version + 1)
    ]

    rebuilt = await replay_game(repo, game.id)
    assert DICE_RACE.dump_state(rebuilt) == final.state_json
    verification = await verify_game(repo, game.id)
    assert (verification.ok, verification.commands, verification.version) == (
        True,
        len(in_effect),
        final.version,
    )

    # Every square moved is in the public log: the moves in effect add up to each position.
    moved = [0, 0, 0]
    for entry in in_effect:
        for event in entry.events:
            if event.kind == "move":
                moved[event.data["seat"]] += event.data["steps"]
    assert moved == state.positions
    assert state.winner is not None and state.positions[state.winner] >= 400
    assert final.status is GameStatus.FINISHED


async def test_undo_restores_the_position_before_the_last_command(
    repo: Repository,
) -> None:
    game = await started_game(repo, 1, options={"target": 1000})
    rng = random.Random(8)
    for _ in range(5):
        await play_one(repo, game.id, rng)
    before = load(await repo.get_game(game.id))
    last = await play_one(repo, game.id, rng)
    undo = await undo_last_command(
        repo, game.id, expected_version=6, moderator_user_id=HOST, reason="wrong card"
    )
    after = await repo.get_game(game.id)
    restored = load(after)
    assert (undo.action, undo.undoes, undo.seat, undo.version_after) == (
        ModeratorAction.UNDO,
        last.seq,
        last.seat,
        7,
    )
    assert after.version == restored.version == 7
    assert restored.model_copy(update={"version": 5}) == before
    entries = await read_full_log(repo, game.id)
    assert [e.undone_by for e in entries if e.seq == last.seq] == [undo.seq]

    # an old button for version 5 or 6 is stale now; the game goes on from version 7
    with pytest.raises(StaleState):
        await undo_last_command(
            repo, game.id, expected_version=6, moderator_user_id=HOST, reason="again"
        )
    await play_one(repo, game.id, rng)
    second = await undo_last_command(
        repo, game.id, expected_version=8, moderator_user_id=HOST, reason="again"
    )
    third = await undo_last_command(
        repo, game.id, expected_version=9, moderator_user_id=HOST, reason="and again"
    )
    assert third.undoes is not None and second.undoes is not None
    assert third.undoes < last.seq < second.undoes
    assert load(await repo.get_game(game.id)).positions != before.positions
    assert (await verify_game(repo, game.id)).ok


async def test_undo_needs_a_command_in_effect(repo: Repository) -> None:
    game = await started_game(repo, 1)
    with pytest.raises(NothingToUndo, match="no move to undo"):
        await undo_last_command(
            repo, game.id, expected_version=0, moderator_user_id=HOST, reason="?"
        )
    await play_one(repo, game.id, random.Random(1))
    await undo_last_command(repo, game.id, expected_version=1, moderator_user_id=HOST, reason="x")
    with pytest.raises(NothingToUndo):
        await undo_last_command(
            repo, game.id, expected_version=2, moderator_user_id=HOST, reason="x"
        )


async def test_undoing_the_winning_move_reopens_the_game(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2, options={"target": 6})
    rng = random.Random(4)
    while (await repo.get_game(game.id)).status is GameStatus.ACTIVE:
        await play_one(repo, game.id, rng)
    finished = await repo.get_game(game.id)
    await undo_last_command(
        repo,
        game.id,
        expected_version=finished.version,
        moderator_user_id=HOST,
        reason="the winner misread the die",
    )
    reopened = await repo.get_game(game.id)
    assert (reopened.status, reopened.result, reopened.ended_at) == (GameStatus.ACTIVE, None, None)
    assert load(reopened).winner is None
    assert (await verify_game(repo, game.id)).ok


async def test_a_finished_game_cannot_reopen_over_a_newer_game(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2, options={"target": 5})
    rng = random.Random(4)
    while (await repo.get_game(game.id)).status is GameStatus.ACTIVE:
        await play_one(repo, game.id, rng)
    finished = await repo.get_game(game.id)
    await repo.create_game(1, ruleset="dice_race")
    with pytest.raises(ChannelBusy, match="another open game"):
        await undo_last_command(
            repo, game.id, expected_version=finished.version, moderator_user_id=HOST, reason="x"
        )
    assert await repo.get_game(game.id) == finished


async def test_an_abandoned_game_cannot_be_undone(repo: Repository) -> None:
    game = await started_game(repo, 1)
    await play_one(repo, game.id, random.Random(1))
    await repo.end_game(game.id, moderator_user_id=HOST, reason="gone")
    with pytest.raises(WrongGameStatus, match="was abandoned"):
        await undo_last_command(
            repo, game.id, expected_version=1, moderator_user_id=HOST, reason="x"
        )


async def test_verify_names_where_a_tampered_snapshot_differs(
    repo: Repository, raw_sql: RawSql
) -> None:
    game = await started_game(repo, 1, players=2)
    for _ in range(4):
        await play_one(repo, game.id, random.Random(2))
    state = load(await repo.get_game(game.id))
    state.hands[1][0] += 1  # someone edits a hidden card in the database
    await raw_sql("UPDATE games SET state = ? WHERE id = ?", state.model_dump_json(), game.id)
    verification = await verify_game(repo, game.id)
    assert (verification.ok, verification.difference) == (False, "hands[1][0]")
    entry = await repo.record_verification(
        game.id,
        ok=verification.ok,
        difference=verification.difference,
        moderator_user_id=HOST,
    )
    assert entry.details == {"ok": False, "difference": "hands[1][0]"}


async def test_replay_skips_moderator_entries_written_in_the_lobby(
    repo: Repository,
) -> None:
    lobby = await repo.create_game(3, ruleset="dice_race", seed=5, options={"target": 50})
    for user in (1, 2, 3):
        await repo.join_game(lobby.id, user_id=user, display_name=f"U{user}")
    await repo.kick(lobby.id, 1, moderator_user_id=HOST, reason="asked to leave")
    options = DICE_RACE.parse_options(lobby.options)
    state, events = DICE_RACE.new_game(options, 2, lobby.seed)
    await repo.start_game(lobby.id, state=state, events=events, options=options, actor_user_id=1)
    await play_one(repo, lobby.id, random.Random(0))
    assert (
        DICE_RACE.dump_state(await replay_game(repo, lobby.id))
        == (await repo.get_game(lobby.id)).state_json
    )


def test_first_difference_paths() -> None:
    assert first_difference({"a": [1, 2]}, {"a": [1, 2]}) is None
    assert first_difference({"a": [1, 2]}, {"a": [1, 3]}) == "a[1]"
    assert first_difference({"a": [1, 2]}, {"a": [1]}) == "a[1]"
    assert first_difference({"a": {"b": 1}}, {"a": {"c": 1}}) == "a.b"
    assert first_difference({"a": 1}, {"a": 1.0}) == "a"
