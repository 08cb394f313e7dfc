"""`Repository.leader_lock`: one holder per name at a time, released when its block exits
(issue 18: start-up recovery and command sync done by one process)."""

from __future__ import annotations

from storage.repository import Repository


async def test_a_second_holder_of_the_same_name_is_refused_until_the_first_leaves(
    repo: Repository,
) -> None:
    async with repo.leader_lock("startup") as first:
        assert first is True
        async with repo.leader_lock("startup") as second:
            assert second is False
        async with repo.leader_lock("command-sync") as other:
            assert other is True
    async with repo.leader_lock("startup") as again:
        assert again is True


async def test_the_lock_is_released_when_its_block_raises(repo: Repository) -> None:
    try:
        async with repo.leader_lock("startup") as held:
            assert held
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    async with repo.leader_lock("startup") as again:
        assert again is True
