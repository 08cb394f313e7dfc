"""Commits: one transaction guarded by the version; stale and racing commits; atomicity."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from engine.core import StaleState
from storage.errors import GameNotFound, WrongGameStatus
from storage.records import DeadlineSpec, GameStatus, LogKind
from storage.replay import verify_game
from storage.repository import Repository
from storage.sqlite import SqliteRepository
from tests.storage.conftest import RAW_ERRORS, START, OpenStore, RawSql
from tests.storage.dice_race import DICE_RACE, Roll
from tests.storage.helpers import HOST, load, play_one, player, started_game


async def log_length(repo: Repository, game_id: int) -> int:
    page = await repo.read_log_unredacted(game_id, limit=1000)
    return len(page.entries)


async def test_a_commit_writes_log_snapshot_and_version_together(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2, seed=11)
    state = load(game)
    new_state, events = DICE_RACE.apply(state, 0, Roll(), expected_version=0)
    entry = await repo.commit(
        game.id,
        expected_version=0,
        seat=0,
        command=Roll(),
        state=new_state,
        events=events,
        actor_user_id=player(0),
    )
    stored = await repo.get_game(game.id)
    assert (stored.version, stored.state_json) == (1, DICE_RACE.dump_state(new_state))
    assert (entry.seq, entry.kind, entry.seat, entry.version_after) == (2, LogKind.COMMAND, 0, 1)
    assert entry.command == {"type": "roll"}
    face = events[0].data["die"]
    assert load(stored).positions == [face, 0]
    page = await repo.read_log_unredacted(game.id)
    assert page.entries[-1] == entry


async def test_a_stale_commit_raises_stale_state_and_writes_nothing(
    repo: Repository,
) -> None:
    game = await started_game(repo, 1)
    old_state = load(game)
    await play_one(repo, game.id, random.Random(1))
    before = await repo.get_game(game.id)
    new_state, events = DICE_RACE.apply(old_state, 0, Roll())
    with pytest.raises(StaleState) as caught:
        await repo.commit(
            game.id,
            expected_version=0,
            seat=0,
            command=Roll(),
            state=new_state,
            events=events,
            actor_user_id=player(0),
        )
    assert str(caught.value) == (
        "This was sent for move 0 of the game, but the game is now at move 1. "
        "Look at the current position and try again."
    )
    assert await repo.get_game(game.id) == before
    assert await log_length(repo, game.id) == 2


async def test_a_state_that_does_not_follow_is_a_programming_error(
    repo: Repository,
) -> None:
    game = await started_game(repo, 1)
    with pytest.raises(ValueError, match="version 0, expected 1"):
        await repo.commit(
            game.id,
            expected_version=0,
            seat=0,
            command=Roll(),
            state=load(game),
            events=[],
            actor_user_id=None,
        )


async def test_commits_to_a_paused_game_are_refused(repo: Repository) -> None:
    game = await started_game(repo, 1)
    await repo.pause(game.id, moderator_user_id=HOST, reason="holiday")
    with pytest.raises(WrongGameStatus, match="is paused by a moderator"):
        await play_one(repo, game.id, random.Random(1))
    await repo.resume(game.id, moderator_user_id=HOST, reason="back")
    entry = await play_one(repo, game.id, random.Random(1))
    assert entry.version_after == 1


async def test_a_winning_commit_finishes_the_game_and_drops_its_deadlines(
    repo: Repository,
) -> None:
    game = await started_game(repo, 1, players=2, options={"target": 5})
    await repo.set_deadline(game.id, DeadlineSpec(0, "turn", START + timedelta(days=1)))
    rng = random.Random(3)
    while (await repo.get_game(game.id)).status is GameStatus.ACTIVE:
        await play_one(repo, game.id, rng)
    final = await repo.get_game(game.id)
    state = load(final)
    assert final.status is GameStatus.FINISHED
    assert state.winner is not None and state.positions[state.winner] >= 5
    assert final.result == {
        "finished": True,
        "winners": [state.winner],
        "reason": DICE_RACE.result(state).reason,
    }
    assert final.ended_at == START
    assert await repo.deadlines(game.id) == []
    with pytest.raises(WrongGameStatus, match="is over"):
        await repo.commit(
            game.id,
            expected_version=final.version,
            seat=0,
            command=Roll(),
            state=state.model_copy(update={"version": final.version + 1}),
            events=[],
            actor_user_id=None,
        )


async def test_of_many_racing_commits_on_one_game_exactly_one_lands(
    repo: Repository,
) -> None:
    game = await started_game(repo, 1)
    state = load(game)

    async def attempt(_: int) -> bool:
        new_state, events = DICE_RACE.apply(state, 0, Roll(), expected_version=0)
        try:
            await repo.commit(
                game.id,
                expected_version=0,
                seat=0,
                command=Roll(),
                state=new_state,
                events=events,
                actor_user_id=player(0),
            )
        except StaleState:
            return False
        return True

    outcomes = await asyncio.gather(*(attempt(i) for i in range(50)))
    assert outcomes.count(True) == 1
    assert (await repo.get_game(game.id)).version == 1
    assert await log_length(repo, game.id) == 2


async def test_racing_commits_through_two_connections_still_land_once(
    open_store: OpenStore,
) -> None:
    first = await open_store()
    second = await open_store()
    try:
        game = await started_game(first, 1)
        state = load(game)

        async def attempt(repo: Repository, seat_rng: int) -> bool:
            command = DICE_RACE.ai_command(state, 0, random.Random(seat_rng))
            new_state, events = DICE_RACE.apply(state, 0, command)
            try:
                await repo.commit(
                    game.id,
                    expected_version=0,
                    seat=0,
                    command=command,
                    state=new_state,
                    events=events,
                    actor_user_id=player(0),
                )
            except StaleState:
                return False
            return True

        outcomes = await asyncio.gather(
            *(attempt(first if i % 2 else second, i) for i in range(20))
        )
        assert outcomes.count(True) == 1
        assert (await second.get_game(game.id)).version == 1
        assert (await verify_game(second, game.id)).ok
    finally:
        await first.close()
        await second.close()


async def test_players_retrying_after_stale_states_lose_no_move(repo: Repository) -> None:
    game = await started_game(repo, 1, options={"target": 100_000})
    stale = 0

    async def player_task(index: int) -> None:
        nonlocal stale
        rng = random.Random(index)
        for _ in range(10):
            while True:
                try:
                    await play_one(repo, game.id, rng)
                    break
                except StaleState:
                    stale += 1

    await asyncio.gather(*(player_task(i) for i in range(8)))
    final = await repo.get_game(game.id)
    assert final.version == 80
    page = await repo.read_log_unredacted(game.id, limit=1000)
    assert [e.version_after for e in page.entries] == list(range(81))
    assert stale > 0  # the tasks really did collide
    assert (await verify_game(repo, game.id)).ok


async def test_many_games_commit_concurrently(repo: Repository) -> None:
    games = [
        await started_game(repo, channel, seed=channel, options={"target": 100_000})
        for channel in range(10)
    ]

    async def play(game_id: int) -> None:
        rng = random.Random(game_id)
        for _ in range(15):
            await play_one(repo, game_id, rng)

    await asyncio.gather(*(play(g.id) for g in games))
    for game in games:
        assert (await repo.get_game(game.id)).version == 15
        assert (await verify_game(repo, game.id)).ok


async def test_a_failure_inside_the_transaction_rolls_everything_back(
    repo: Repository,
) -> None:
    game = await started_game(repo, 1)
    new_state, events = DICE_RACE.apply(load(game), 0, Roll())
    naive = datetime(2030, 1, 1)  # no timezone: refused before anything is written
    with pytest.raises(ValueError, match="timezone-aware"):
        await repo.commit(
            game.id,
            expected_version=0,
            seat=0,
            command=Roll(),
            state=new_state,
            events=events,
            actor_user_id=player(0),
            deadlines=[DeadlineSpec(1, "turn", naive)],
        )
    assert await repo.get_game(game.id) == game
    assert await log_length(repo, game.id) == 1
    assert (await play_one(repo, game.id, random.Random(2))).version_after == 1


async def test_a_failure_inside_the_commit_statement_writes_nothing(
    repo: Repository,
) -> None:
    game = await started_game(repo, 1)
    kept = DeadlineSpec(0, "turn", START + timedelta(days=1))
    await repo.set_deadline(game.id, kept)
    new_state, events = DICE_RACE.apply(load(game), 0, Roll())
    with pytest.raises(RAW_ERRORS, match="seat"):
        await repo.commit(  # the bad deadline fails after the log entry and the snapshot
            game.id,
            expected_version=0,
            seat=0,
            command=Roll(),
            state=new_state,
            events=events,
            actor_user_id=player(0),
            deadlines=[DeadlineSpec(-1, "turn", START)],
        )
    assert await repo.get_game(game.id) == game
    assert await log_length(repo, game.id) == 1
    assert [(d.seat, d.kind, d.due_at) for d in await repo.deadlines(game.id)] == [
        (kept.seat, kept.kind, kept.due_at)
    ]
    assert (await play_one(repo, game.id, random.Random(2))).version_after == 1


async def test_a_commit_to_a_missing_game_is_refused(repo: Repository) -> None:
    game = await started_game(repo, 1)
    new_state, events = DICE_RACE.apply(load(game), 0, Roll())
    with pytest.raises(GameNotFound, match="no game #99"):
        await repo.commit(
            99,
            expected_version=0,
            seat=0,
            command=Roll(),
            state=new_state,
            events=events,
            actor_user_id=None,
        )


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"seq": 3}, "seq is not the next in the log"),
        ({"seq": 1}, "seq is not the next in the log"),
        ({"version": 2}, "the new version does not follow"),
        ({"expected_version": 1, "version": 2}, "stale version"),
        ({"game_id": 99}, "no such game"),
    ],
)
async def test_the_commit_view_checks_every_request_itself(
    sqlite_repo: SqliteRepository, db_path: Path, change: dict[str, int], refusal: str
) -> None:
    repo = sqlite_repo
    game = await started_game(repo, 1)
    request = {
        "game_id": game.id,
        "expected_version": 0,
        "version": 1,
        "seq": 2,
        "state": game.state_json,
        "status": "active",
        "seat": 0,
        "command": '{"type":"roll"}',
        "events": "[]",
        "replace_deadlines": 0,
        "now": 0,
    }
    request.update(change)
    columns = ", ".join(request)
    marks = ", ".join(f":{name}" for name in request)
    with sqlite3.connect(db_path) as conn, pytest.raises(sqlite3.IntegrityError, match=refusal):
        conn.execute(f"INSERT INTO commit_requests ({columns}) VALUES ({marks})", request)
    conn.close()
    assert await repo.get_game(game.id) == game
    assert await log_length(repo, game.id) == 1


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"p_version": 2}, "the new version does not follow"),
        ({"p_expected_version": 1, "p_version": 2}, "stale version"),
        ({"p_game_id": 99}, "no such game"),
    ],
)
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_the_commit_function_checks_every_request_itself(
    repo: Repository, raw_sql: RawSql, change: dict[str, int], refusal: str
) -> None:
    """PostgreSQL's twin of the view test: ``commit_move`` (schema 5) refuses a request
    that does not follow the game, whoever calls it, and writes nothing."""
    game = await started_game(repo, 1)
    request: dict[str, object] = {"p_game_id": game.id, "p_expected_version": 0, "p_version": 1}
    request.update(change)
    with pytest.raises(RAW_ERRORS, match=refusal):
        await raw_sql(
            "SELECT commit_move(?::bigint, ?::bigint, ?::bigint, ?, 'active', NULL, NULL, 0, "
            "NULL, '{\"type\":\"roll\"}', NULL, '[]', false, NULL, NULL, NULL, 0)",
            request["p_game_id"],
            request["p_expected_version"],
            request["p_version"],
            game.state_json,
        )
    assert await repo.get_game(game.id) == game
    assert await log_length(repo, game.id) == 1


async def test_a_cancelled_commit_lands_wholly_or_not_at_all(repo: Repository) -> None:
    game = await started_game(repo, 1, options={"target": 100_000})
    rng = random.Random(5)
    outcomes: list[str] = []
    step = 0
    # Cancel at every point from before BEGIN to after COMMIT: the delay grows until a
    # commit has landed before its cancel (however slow the machine) and 40 were tried.
    while step < 40 or "LogEntry" not in outcomes:
        task = asyncio.create_task(play_one(repo, game.id, rng))
        await asyncio.sleep(step * 0.0001)
        task.cancel()
        results = await asyncio.gather(task, return_exceptions=True)
        outcomes.append(type(results[0]).__name__)
        current = await repo.get_game(game.id)
        assert await log_length(repo, game.id) == current.version + 1
        step += 1
    assert (await verify_game(repo, game.id)).ok
    assert (await play_one(repo, game.id, rng)).version_after == current.version + 1
    assert {"CancelledError", "LogEntry"} <= set(outcomes)


async def test_the_log_is_append_only(repo: Repository, raw_sql: RawSql) -> None:
    game = await started_game(repo, 1)
    await play_one(repo, game.id, random.Random(1))
    for sql in ("UPDATE game_log SET reason = 'x'", "DELETE FROM game_log"):
        with pytest.raises(RAW_ERRORS, match="append-only"):
            await raw_sql(sql)
    assert await log_length(repo, game.id) == 2
