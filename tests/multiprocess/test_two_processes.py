"""Two real bot processes, one per shard, on one database (issue 18).

Each process is the real bot (`tests.multiprocess.cluster`: ``benchmarks.e2e_bot`` as
``heroes-table run`` composes it) with ``HEROES_SHARD_COUNT=2`` and its own
``HEROES_SHARD_IDS``; one guild lives on each shard. Checked, on SQLite and on PostgreSQL:

- a click from each process on the same decision at once (the player's DM, which Discord
  sends to shard 0's process, and the same choices in the ``/hand`` reply in the guild,
  whose interactions go to shard 1's): exactly one applies, the other gets the stale
  reply, and the log replays to the snapshot;
- deadlines due in both processes' guilds while both tick every 0.2 s: each acts exactly
  once (one ``deadline missed`` command per passed turn deadline; one reminder post);
- SIGKILL of one process while it commits: its game is at one whole version (log and
  snapshot agree), and when it starts again its game goes on (the next click applies),
  while the other process kept serving its own guild meanwhile.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.deadlines import DEADLINE_MISSED
from engine.homm4 import RULESET as HOMM4
from storage import verify_game
from storage.records import DeadlineSpec, LogEntry, LogKind
from storage.replay import read_full_log
from tests.fakediscord import FakeMessage, FakeUser, InteractionResult
from tests.multiprocess.cluster import STALE, WAIT, Cluster, Site, cluster, decision_controls

BACKENDS = ["sqlite", "postgresql"]

pytestmark = [pytest.mark.slow, pytest.mark.rule("homm4:start-of-the-game")]


async def eventually(read: Callable[[], Awaitable[object]], what: str) -> None:
    """Wait until ``read()`` (a database read) gives nothing, re-reading every 50 ms."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while await read():
        assert loop.time() < deadline, f"not done in {WAIT} s: {what}"
        await asyncio.sleep(0.05)


async def dm_decision(
    run: Cluster, site: Site, game_id: int
) -> tuple[int, FakeMessage, str, tuple[str, ...]]:
    """ann's DM offering her decision now: ``(version, message, custom id, values)``."""
    game = await run.repo.get_game(game_id)
    for message in reversed(run.fake.dms(site.ann)):
        controls = decision_controls(message, game_id, game.version)
        if controls:
            custom_id, values = controls[0]
            return game.version, message, custom_id, values
    raise AssertionError("ann has no DM offering her decision")


async def send_control(
    run: Cluster, who: FakeUser, message: FakeMessage, custom_id: str, values: tuple[str, ...]
) -> InteractionResult:
    """Dispatch a click (or a select) without waiting for the bot's answer."""
    if values:
        return await run.fake.select(who, message, custom_id, list(values), wait=False)
    return await run.fake.click(who, message, custom_id, wait=False)


async def commands_of(run: Cluster, game_id: int) -> list[LogEntry]:
    """The game's logged command entries, in order."""
    return [e for e in await read_full_log(run.repo, game_id) if e.kind is LogKind.COMMAND]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_racing_clicks_from_both_processes_apply_once(tmp_path: Path, backend: str) -> None:
    async with cluster(tmp_path, backend) as run:
        site = run.sites[1]  # the guild of shard 1; DMs reach shard 0's process
        game_id = await run.open_game(site)
        version, dm, custom_id, values = await dm_decision(run, site, game_id)
        hand = await run.slash(site.ann, site.channel, "hand")
        shown = hand.messages[-1]
        assert (custom_id, values) in decision_controls(shown, game_id, version), (
            "/hand in the guild offers the same choice"
        )
        before = len(await commands_of(run, game_id))

        from_dm, from_guild = await asyncio.gather(
            send_control(run, site.ann, dm, custom_id, values),
            send_control(run, site.ann, shown, custom_id, values),
        )
        assert run.process_for(from_dm.channel) is run.processes[0]
        assert run.process_for(from_guild.channel) is run.processes[1]
        await asyncio.gather(run.answered(from_dm), run.answered(from_guild))

        game = await run.repo.get_game(game_id)
        assert game.version == version + 1, "exactly one of the two clicks applied"
        assert len(await commands_of(run, game_id)) == before + 1
        replies = [m.content for r in (from_dm, from_guild) for m in r.messages if m.ephemeral]
        assert sum(bool(STALE.search(text)) for text in replies) == 1, replies
        assert (await verify_game(run.repo, game_id)).ok


async def tick_both(run: Cluster, times: int = 5) -> None:
    """Wait until each process has ticked ``times`` more times (every 0.2 s, each over
    every due deadline of every game)."""
    ticks = {shard: process.ticks for shard, process in run.processes.items()}
    for shard, process in run.processes.items():
        await process.ticked(ticks[shard] + times, timeout=WAIT)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_deadlines_in_both_guilds_fire_once(tmp_path: Path, backend: str) -> None:
    async with cluster(tmp_path, backend) as run:
        games = [await run.open_game(site) for site in run.sites]
        now = datetime.now(UTC)
        for game_id in games:
            kept = await run.repo.game_settings(game_id)
            await run.repo.save_game_settings(replace(kept, deadline_policy="default"))
            state = HOMM4.load_state((await run.repo.get_game(game_id)).state_json or "")
            assert [d.seat for d in HOMM4.pending(state)] == [0]
            # First seat 0's reminder is due, its deadline a day away: one reminder post.
            await run.repo.set_deadline(game_id, DeadlineSpec(0, "turn", now + timedelta(days=1)))
            await run.repo.set_deadline(
                game_id, DeadlineSpec(0, "reminder", now - timedelta(minutes=1))
            )
        await tick_both(run)
        for site, game_id in zip(run.sites, games, strict=True):
            reminders = [
                m for m in site.channel.public_messages() if "is waiting for you" in m.content
            ]
            assert len(reminders) == 1, [m.content for m in reminders]
            assert f"<@{site.ann.id}>" in reminders[0].content
            # Then the turn deadline passes: the default answer is played once.
            await run.repo.set_deadline(
                game_id, DeadlineSpec(0, "turn", now - timedelta(minutes=1))
            )
        await tick_both(run)
        for site, game_id in zip(run.sites, games, strict=True):
            missed = [
                (e.seat, e.version_after)
                for e in await commands_of(run, game_id)
                if (e.reason or "").startswith(DEADLINE_MISSED)
            ]
            assert missed == [(0, 1)], missed  # once, for seat 0, at the first move
            ran_out = [m for m in site.channel.public_messages() if "ran out" in m.content]
            assert len(ran_out) == 1, [m.content for m in ran_out]
            assert not [
                d for d in await run.repo.deadlines(game_id) if d.due_at <= datetime.now(UTC)
            ], "a due deadline was left"
            assert (await verify_game(run.repo, game_id)).ok


async def move_from_guild(run: Cluster, site: Site, game_id: int) -> tuple[int, InteractionResult]:
    """ann makes her move from ``/hand`` in the site's channel (so the process of the
    site's shard handles it): the version the move was sent for and the click, not waited
    for (the process may die on it)."""
    game = await run.repo.get_game(game_id)
    hand = await run.slash(site.ann, site.channel, "hand")
    shown = hand.messages[-1]
    controls = decision_controls(shown, game_id, game.version)
    assert controls, "/hand offers ann's decision"
    custom_id, values = controls[0]
    result = await send_control(run, site.ann, shown, custom_id, values)
    return game.version, result


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_process_killed_mid_commit_leaves_whole_turns_and_its_games_go_on(
    tmp_path: Path, backend: str
) -> None:
    async with cluster(tmp_path, backend, start=False) as run:
        first, doomed = run.sites
        await run.start(0)
        await run.start(1, HEROES_E2E_KILL_AFTER_COMMIT="mid")
        games = [await run.open_game(site) for site in run.sites]

        # Shard 1's process dies while its first commit is on its way.
        sent_at, _ = await move_from_guild(run, doomed, games[1])
        assert await run.died(1) == -signal.SIGKILL
        game = await run.repo.get_game(games[1])
        assert game.version in (sent_at, sent_at + 1), "no half turn: one whole version"
        logged = await commands_of(run, games[1])
        assert len(logged) == game.version  # every version is one logged command
        assert (await verify_game(run.repo, games[1])).ok, "log and snapshot agree"

        # The other process kept serving its own guild meanwhile.
        played, click = await move_from_guild(run, first, games[0])
        await run.answered(click)
        assert (await run.repo.get_game(games[0])).version == played + 1

        # Started again, shard 1's process recovers its game, and the game goes on.
        restarted = await run.start(1)
        again, click = await move_from_guild(run, doomed, games[1])
        await run.answered(click)
        after = await run.repo.get_game(games[1])
        assert after.version == again + 1, "the killed process's game did not go on"
        assert (await verify_game(run.repo, games[1])).ok
        await eventually(run.repo.undelivered_news, "the news a commit owed delivered")
        assert restarted.errors == {}  # reported when it stops, checked by the cluster
