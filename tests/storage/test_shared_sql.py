"""The shared SQL (`storage.sql.SqlRepository`, issue 18) that no other storage test runs:
each method once on both backends, so a statement whose marks or dialect one of them
refuses fails here rather than in a bot."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from storage.errors import ExtensionRefused, GameNotFound
from storage.records import (
    DeadlineSpec,
    DigestMark,
    MessageRef,
    NotifySettings,
    PingMode,
    PostSettle,
)
from storage.replay import undo_last_commands
from storage.repository import Repository
from tests.storage.conftest import START
from tests.storage.helpers import play_one, player, started_game


async def test_notify_settings_of_several_users(repo: Repository) -> None:
    await repo.save_notify_settings(NotifySettings(7, PingMode.DM, "Europe/Berlin", 1320, 420))
    await repo.save_notify_settings(NotifySettings(8, PingMode.BOTH))
    await repo.save_notify_settings(NotifySettings(8, PingMode.CHANNEL, "UTC"))
    found = await repo.notify_settings([9, 8, 7, 8])
    assert found == {
        7: NotifySettings(7, PingMode.DM, "Europe/Berlin", 1320, 420),
        8: NotifySettings(8, PingMode.CHANNEL, "UTC"),
        9: NotifySettings(9),
    }
    assert await repo.notify_settings([]) == {}


async def test_digest_marks_and_last_own_command(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2)
    rng = random.Random(5)
    entries = [await play_one(repo, game.id, rng) for _ in range(3)]
    by_seat0 = [e.seq for e in entries if e.seat == 0]
    assert await repo.last_own_command(game.id, 0, player(0)) == max(by_seat0)
    assert await repo.last_own_command(game.id, 0, player(1)) == 0
    assert await repo.digest_mark(game.id, 1) is None
    await repo.set_digest_mark(game.id, 1, DigestMark(player(1), 2))
    await repo.set_digest_mark(game.id, 1, DigestMark(player(1), 4))
    assert await repo.digest_mark(game.id, 1) == DigestMark(player(1), 4)
    with pytest.raises(GameNotFound):
        await repo.set_digest_mark(999, 0, DigestMark(player(0), 0))


async def test_skip_votes_count_per_version(repo: Repository) -> None:
    game = await started_game(repo, 1, players=3)
    assert await repo.record_skip_vote(game.id, 2, 0, player(0)) == 1
    assert await repo.record_skip_vote(game.id, 2, 0, player(0)) == 1  # once per voter
    assert await repo.record_skip_vote(game.id, 2, 0, player(1)) == 2
    assert await repo.record_skip_vote(game.id, 2, 1, player(0)) == 1  # older votes dropped


async def test_an_extension_moves_the_turn_deadline_once_a_turn(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2)
    due = START + timedelta(hours=24)
    await repo.set_deadline(game.id, DeadlineSpec(0, "turn", due))
    extension = await repo.extend_deadline(
        game.id, 0, turn=1, by=timedelta(hours=12), max_count=2, reminder=timedelta(hours=1)
    )
    assert (extension.due_at, extension.used) == (due + timedelta(hours=12), 1)
    assert sorted((d.kind, d.due_at) for d in await repo.deadlines(game.id)) == [
        ("reminder", due + timedelta(hours=11)),
        ("turn", due + timedelta(hours=12)),
    ]
    with pytest.raises(ExtensionRefused):
        await repo.extend_deadline(
            game.id, 0, turn=1, by=timedelta(hours=12), max_count=2, reminder=None
        )
    second = await repo.extend_deadline(
        game.id, 0, turn=2, by=timedelta(hours=1), max_count=2, reminder=None
    )
    assert (second.due_at, second.used) == (due + timedelta(hours=13), 2)
    assert [d.kind for d in await repo.deadlines(game.id)] == ["turn"]
    with pytest.raises(ExtensionRefused):
        await repo.extend_deadline(
            game.id, 0, turn=3, by=timedelta(hours=1), max_count=2, reminder=None
        )


async def test_a_held_deadline_post_is_settled(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2)
    due = START + timedelta(hours=1)
    await repo.set_deadline(game.id, DeadlineSpec(1, "reminder", due))
    (deadline,) = await repo.due_deadlines(due)
    held_until = due + timedelta(minutes=5)
    assert await repo.claim_deadline(deadline, hold_until=held_until)
    assert [(d.kind, d.due_at) for d in await repo.deadlines(game.id)] == [
        ("reminder:sent", held_until)
    ]
    await repo.put_message_ref("reminder", f"{game.id}/1", MessageRef(1, 77))
    await repo.settle_deadline_posts(
        [PostSettle(game.id, 1, "reminder:sent", "reminder", f"{game.id}/1")]
    )
    assert await repo.deadlines(game.id) == []
    assert await repo.message_ref("reminder", f"{game.id}/1") is None


async def test_held_messages_dropped_and_their_users(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2)
    await repo.hold_direct_message(player(0), game.id, "hand", "hand text")
    await repo.hold_direct_message(player(1), game.id, "decision", "decision text")
    await repo.hold_direct_message(player(1), game.id, "notice", "notice text")
    assert await repo.users_with_held_messages() == {player(0), player(1)}
    await repo.drop_held_message(player(1), game.id, "decision")
    await repo.drop_held_message(player(0), game.id, "hand")
    assert await repo.users_with_held_messages() == {player(1)}
    assert [h.slot for h in await repo.held_messages(player(1))] == ["notice"]


async def test_news_owed_counts_and_settings(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2)
    other = await started_game(repo, 2, players=2)
    await repo.create_game(3, ruleset="dice_race")
    assert await repo.count_active_games() == 2
    rng = random.Random(11)
    for _ in range(3):
        await play_one(repo, game.id, rng)
    owed = [(game.id, v) for v in range(4)] + [(other.id, 0)]  # the start's news too
    assert await repo.undelivered_news() == owed
    assert await repo.news_delivered(game.id, 0, 2) == 2
    assert await repo.undelivered_news() == [(game.id, 0), (game.id, 3), (other.id, 0)]
    await repo.set_standing_order(game.id, 1, "pass", "always")
    assert await repo.standing_orders(game.id) == {1: {"pass": "always"}}
    assert await repo.command_tree_hash("global") is None
    await repo.save_command_tree_hash("global", "abc")
    await repo.save_command_tree_hash("global", "def")
    assert await repo.command_tree_hash("global") == "def"


async def test_the_narrower_branches(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2)
    due = START + timedelta(hours=1)
    for seat in (0, 1):
        for kind in ("turn", "reminder"):
            await repo.set_deadline(game.id, DeadlineSpec(seat, kind, due))
    assert await repo.clear_deadlines(game.id, seat=1) == 2
    (turn,) = [d for d in await repo.deadlines(game.id) if d.kind == "turn"]
    assert await repo.claim_deadline(turn, clear_seat=True)  # seat 0's reminder goes too
    assert await repo.deadlines(game.id) == []

    await repo.save_deck(7, ruleset="homm4", name="Might", cards=["a"])
    await repo.save_deck(7, ruleset="mmh", name="Magic", cards=["b"])
    assert [d.name for d in await repo.list_decks(7, ruleset="mmh")] == ["Magic"]

    for number in range(4):
        await repo.hold_direct_message(
            player(0), game.id, "notice", f"notice {number}", notices_kept=2
        )
    held = await repo.take_held_messages(player(0))
    assert [h.message for h in held] == ["notice 2", "notice 3"]


async def test_two_moves_undone_in_one_write(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2)
    rng = random.Random(3)
    entries = [await play_one(repo, game.id, rng) for _ in range(3)]
    due = START + timedelta(hours=2)

    async def deadlines(state: object) -> list[DeadlineSpec]:
        return [DeadlineSpec(1, "turn", due)]

    undone = await undo_last_commands(
        repo,
        game.id,
        count=2,
        expected_version=3,
        moderator_user_id=7,
        reason="misclick",
        deadlines=deadlines,
    )
    assert [(e.undoes, e.version_after) for e in undone] == [
        (entries[2].seq, 4),
        (entries[1].seq, 5),
    ]
    assert (await repo.get_game(game.id)).version == 5
    assert [(d.seat, d.kind, d.due_at) for d in await repo.deadlines(game.id)] == [(1, "turn", due)]
