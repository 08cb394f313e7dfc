"""Deadlines that act (issue 15, `bot.deadlines`): the deadline policies, away seats,
/game extend, /game away and /game back, votes to skip, and firing once across a restart
or two processes."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from bot import customids
from bot.deadlines import DEADLINE_MISSED
from bot.errors import BadOption, NotSeated
from bot.service import GameService
from engine.core.errors import StaleState
from storage.errors import ExtensionRefused
from storage.records import GuildSettings, LogEntry, LogKind
from storage.sqlite import SqliteRepository
from tests.bot.service_helpers import (
    CHANNEL,
    GUILD,
    Served,
    click_choice,
    current,
    person,
    started_game,
)


async def commands(repo: SqliteRepository, game_id: int) -> list[LogEntry]:
    """Every logged command of the game, oldest first."""
    page = await repo.read_log_unredacted(game_id, before_seq=10**9, limit=1000)
    return [e for e in page.entries if e.kind is LogKind.COMMAND]


async def test_the_default_policy_plays_the_default_once_and_logs_the_rule(served: Served) -> None:
    clock, repo, service = served
    game = await started_game(service, ai=1, seed=5, deadline_hours=1, deadline_policy="default")
    _, state = await current(service, game.id)
    expected = service.rules(game).default_command(state, 0)
    before = len(await commands(repo, game.id))
    out = await service.due_reminders(clock.advance(minutes=61))
    texts = [p.text for p in out.posts]
    assert any("Red**'s time for a decision" in t and "default answer" in t for t in texts)
    played = (await commands(repo, game.id))[before]
    assert played.seat == 0 and played.actor_user_id is None
    assert played.command == expected.model_dump(mode="json")
    assert played.reason == (
        "deadline missed: the default answer, by the deadline policy 'default' "
        "(chosen for this game)"
    )
    assert (await repo.seats(game.id))[0].missed == 1
    again = await service.due_reminders(clock.advance(seconds=1))
    assert not any("time for a decision" in p.text for p in again.posts)
    log = await service.log(person(1), CHANNEL)
    assert log.reply is not None and "deadline missed: the default answer" in log.reply.text


async def test_a_restart_between_the_deadline_and_its_action_fires_it_once(served: Served) -> None:
    clock, repo, service = served
    game = await started_game(service, ai=1, seed=6, deadline_hours=2, deadline_policy="computer")
    before = len(await commands(repo, game.id))
    clock.advance(hours=3)  # the deadline passes while no process ticks
    del service
    first, second = (GameService(repo, renderer=None, clock=clock) for _ in range(2))
    # Two processes come up and tick at the same moment: one of them acts.
    await asyncio.gather(first.due_reminders(), second.due_reminders())
    overdue = [
        e
        for e in (await commands(repo, game.id))[before:]
        if (e.reason or "").startswith("deadline")
    ]
    assert len(overdue) == 1
    assert overdue[0].reason is not None and "'computer'" in overdue[0].reason
    await first.due_reminders(clock.advance(seconds=30))
    overdue_later = [
        e
        for e in (await commands(repo, game.id))[before:]
        if (e.reason or "").startswith("deadline")
    ]
    assert overdue_later == overdue


async def test_two_missed_deadlines_make_a_seat_away_until_it_comes_back(served: Served) -> None:
    clock, repo, service = served
    await repo.save_guild_settings(
        GuildSettings(GUILD, None, timedelta(hours=1), None, deadline_policy="default")
    )
    game = await started_game(service, humans=2, ai=0, seed=7)
    missed = 0
    for _ in range(40):
        out = await service.due_reminders(clock.advance(minutes=61))
        missed += sum("time for a decision" in p.text for p in out.posts)
        seats = await repo.seats(game.id)
        if seats[0].missed >= 2 or seats[1].missed >= 2:
            break
    away = next(s for s in await repo.seats(game.id) if s.missed >= 2)
    assert missed >= 2
    assert any("is away" in p.text for p in out.posts)
    status = await service.status(person(1), CHANNEL)
    assert status.reply is not None and "💤 Away" in status.reply.text
    assert f"{away.display_name}" in status.reply.text.split("💤 Away")[1]
    assert not [d for d in await repo.deadlines(game.id) if d.seat == away.seat]
    await service.back(person(away.user_id or 0), CHANNEL)
    back = next(s for s in await repo.seats(game.id) if s.seat == away.seat)
    assert back.missed == 0 and back.away_until is None
    with pytest.raises(BadOption, match="not away"):
        await service.back(person(away.user_id or 0), CHANNEL)


async def test_a_command_of_the_player_ends_the_run_of_missed_deadlines(served: Served) -> None:
    clock, repo, service = served
    game = await started_game(service, ai=1, seed=8, deadline_hours=1, deadline_policy="default")
    await service.due_reminders(clock.advance(minutes=61))
    assert (await repo.seats(game.id))[0].missed == 1
    for _ in range(20):
        pending = await service.describe_pending(game.id)
        if any(line.startswith("Red") for line in pending):
            break
        await service.due_reminders(clock.advance(minutes=61))
    await click_choice(service, game.id, person(1), 0)
    assert (await repo.seats(game.id))[0].missed == 0


async def test_away_until_refuses_bad_times_and_changes_nothing(served: Served) -> None:
    repo, service = served.repo, served.service
    game = await started_game(service, humans=2, ai=0, seed=9, deadline_hours=24)
    for bad, words in (
        ("next tuesday", "cannot read"),
        ("2029-12-31 10:00", "has passed"),
        ("73", "at most 72 h"),
        ("2030-02-01", "at most 72 h"),
        ("99999999", "more than a year"),
    ):
        with pytest.raises(BadOption, match=words):
            await service.away(person(2), CHANNEL, until=bad)
    assert all(s.away_until is None for s in await repo.seats(game.id))
    out = await service.away(person(2), CHANNEL, until="2030-01-02 18:00")
    assert any("Blue (Player 2) is away until <t:1893607200:f>" in p.text for p in out.posts)
    seat = (await repo.seats(game.id))[1]
    assert seat.away_until == datetime(2030, 1, 2, 18, 0, tzinfo=UTC)
    await service.away(person(2), CHANNEL, until="<t:1893553200:f>")  # a Discord timestamp
    seat = (await repo.seats(game.id))[1]
    assert seat.away_until == datetime(2030, 1, 2, 3, 0, tzinfo=UTC)
    with pytest.raises(NotSeated):
        await service.away(person(3), CHANNEL, until="5")
    version = (await repo.get_game(game.id)).version
    with pytest.raises(BadOption, match="the computer would play this game to its end alone"):
        await service.away(person(1), CHANNEL, until="5")  # Blue is away already
    assert (await repo.seats(game.id))[0].away_until is None
    assert (await repo.get_game(game.id)).version == version, "nobody played for Red"


async def test_away_is_refused_to_the_only_person_in_a_game_against_the_computer(
    served: Served,
) -> None:
    repo, service = served.repo, served.service
    game = await started_game(service, humans=1, ai=2, seed=9, deadline_hours=24)
    with pytest.raises(BadOption, match="Every other seat is the computer's or away"):
        await service.away(person(1), CHANNEL, until="24h")
    assert (await repo.seats(game.id))[0].away_until is None


async def test_extend_once_per_turn_within_the_caps_and_never_when_nothing_is_owed(
    served: Served,
) -> None:
    clock, repo, service = served
    await repo.save_guild_settings(
        GuildSettings(
            GUILD,
            None,
            timedelta(hours=10),
            None,
            extensions=1,
            extension_max=timedelta(hours=6),
        )
    )
    game = await started_game(service, humans=2, ai=0, seed=5)
    assert await service.describe_pending(game.id) == [
        "Red: Red chooses 5 of the 8 cards drawn as the Risk Stack."
    ]
    before = await repo.deadlines(game.id)
    with pytest.raises(BadOption, match="owe no decision"):
        await service.extend(person(2), CHANNEL)  # Blue owes nothing
    with pytest.raises(BadOption, match="1 to 6 hours"):
        await service.extend(person(1), CHANNEL, hours=7)
    assert await repo.deadlines(game.id) == before
    out = await service.extend(person(1), CHANNEL, hours=4)
    turn = next(d for d in await repo.deadlines(game.id) if d.seat == 0 and d.kind == "turn")
    assert turn.due_at == clock.now + timedelta(hours=14)
    assert "extension 1 of 1" in out.posts[0].text
    assert out.reply is not None and out.reply.text == (
        f"✅ Your deadline is now <t:{int(turn.due_at.timestamp())}:f> (extension 1 of 1 "
        "in this game)."
    )
    extended = await repo.deadlines(game.id)
    with pytest.raises(ExtensionRefused, match="already extended"):
        await service.extend(person(1), CHANNEL, hours=1)
    assert await repo.deadlines(game.id) == extended, "a refused extension changes nothing"


async def test_extend_says_when_the_deadline_has_passed_or_the_game_has_none(
    served: Served,
) -> None:
    clock, repo, service = served
    game = await started_game(
        service, humans=3, ai=0, seed=5, deadline_hours=2, deadline_policy="remind"
    )
    await service.due_reminders(clock.advance(minutes=121))  # the moderators are told
    kept = await repo.deadlines(game.id)
    with pytest.raises(BadOption, match="Your deadline has already passed, so it cannot be"):
        await service.extend(person(1), CHANNEL)
    assert await repo.deadlines(game.id) == kept, "nothing changed"
    await service.mod_end(person(9, moderator=True), CHANNEL, reason="next test")
    settings = await repo.guild_settings(GUILD)
    await repo.save_guild_settings(dataclasses.replace(settings, turn_deadline=None))
    other = await started_game(service, humans=2, ai=0, seed=5)  # no deadlines
    with pytest.raises(BadOption, match=f"Game #{other.id} has no decision deadlines"):
        await service.extend(person(1), CHANNEL)


async def test_mod_deadline_is_refused_for_a_seat_that_owes_nothing(served: Served) -> None:
    clock, repo, service = served
    game = await started_game(service, humans=2, ai=0, seed=5, deadline_hours=10)
    before = await repo.deadlines(game.id)
    with pytest.raises(BadOption, match="Blue owes no decision now"):
        await service.mod_deadline(person(9, moderator=True), CHANNEL, hours=50, seat="Blue")
    assert await repo.deadlines(game.id) == before
    await service.mod_deadline(person(9, moderator=True), CHANNEL, hours=500, seat="Red")
    turn = next(d for d in await repo.deadlines(game.id) if d.seat == 0 and d.kind == "turn")
    assert turn.due_at == clock.now + timedelta(hours=500)  # uncapped


async def test_a_majority_of_the_other_players_votes_to_play_the_default(served: Served) -> None:
    clock, repo, service = served
    game = await started_game(service, humans=4, ai=0, seed=5, deadline_hours=1)
    _, state = await current(service, game.id)
    expected = service.rules(game).default_command(state, 0)
    vote = customids.encode(game.id, state.version, "skipv", 0)
    with pytest.raises(BadOption, match="once the deadline has passed"):
        await service.click(person(2), vote)
    out = await service.due_reminders(clock.advance(minutes=61))
    notice = next(p for p in out.posts if "has run out" in p.text)
    assert notice.text.endswith(
        "\nThe other players may vote with the button below: 2 of 3 votes play the "
        "default answer now."
    )
    assert [b.custom_id for b in notice.components] == [vote]
    with pytest.raises(BadOption, match="your own decision"):
        await service.click(person(1), vote)
    first = await service.click(person(2), vote)
    assert first.reply is not None and "1 of 2 needed" in first.reply.text
    again = await service.click(person(2), vote)  # the same person counts once
    assert again.reply is not None and "1 of 2 needed" in again.reply.text
    before = len(await commands(repo, game.id))
    decided = await service.click(person(3), vote)
    assert decided.reply is not None and "decided" in decided.reply.text
    assert any("2 of 3 players voted" in p.text for p in decided.posts)
    played = (await commands(repo, game.id))[before]
    assert played.seat == 0 and played.command == expected.model_dump(mode="json")
    assert played.reason is not None and played.reason.startswith("vote to skip: 2 of 3")
    with pytest.raises(StaleState):
        await service.click(person(4), vote)  # the vote's position is gone


async def test_a_reminder_for_an_answered_decision_is_never_sent(served: Served) -> None:
    clock, repo, service = served
    game = await started_game(service, humans=2, ai=0, seed=5, deadline_hours=10)
    # A moderator's reminder for Blue, who owes nothing (set directly, as an old
    # version of /mod deadline could).
    from storage.records import DeadlineSpec

    await repo.set_deadline(game.id, DeadlineSpec(1, "reminder", clock.now + timedelta(hours=1)))
    out = await service.due_reminders(clock.advance(hours=2))
    assert not any("<@2>" in p.text for p in out.posts)
    assert not [d for d in await repo.deadlines(game.id) if d.seat == 1]


async def test_a_log_page_beyond_any_real_number_is_refused(served: Served) -> None:
    service = served.service
    game = await started_game(service, ai=1, seed=5)
    for page, words in ((2**62 + 5, "no log entry"), (2**70, "does not exist")):
        huge = customids.encode(game.id, game.version, "log", page)
        with pytest.raises(BadOption, match=words):
            await service.click(person(1), huge)
    with pytest.raises(customids.CustomIdError):
        await service.click(person(1), customids.encode(2**70, 0, "status"))


async def test_the_turn_prompt_names_the_away_seat_and_a_new_holder_starts_afresh(
    served: Served,
) -> None:
    clock, repo, service = served
    game = await started_game(service, humans=2, ai=0, seed=5, deadline_hours=24)
    await service.away(person(2), CHANNEL, until="48h")
    assert (await repo.seats(game.id))[1].away_until == clock.now + timedelta(hours=48)
    out = await click_choice(service, game.id, person(1), 0)
    prompts = [p.text for p in out.posts if "➡️" in p.text]
    # Red owes the next decision (Blue's are the computer's at once): its prompt says
    # who is away.
    assert any("💤 Away, the computer plays for them: Blue (Player 2)" in t for t in prompts)
    status = await service.status(person(1), CHANNEL)
    assert status.reply is not None
    assert (
        "💤 Away (the computer plays for them; /game back returns): Blue (Player 2) until <t:"
        in (status.reply.text)
    )
    await service.mod_replace(person(9, moderator=True), CHANNEL, seat="Blue", user=7)
    seat = (await repo.seats(game.id))[1]
    assert (seat.user_id, seat.missed, seat.away_until) == (7, 0, None)


async def test_a_deadline_whose_commit_fails_stays_and_acts_at_the_next_tick(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    from storage.errors import DatabaseBusy

    clock, repo, service = served
    game = await started_game(service, ai=1, seed=5, deadline_hours=1, deadline_policy="default")
    real = repo.commit
    failures = 0

    async def busy_once(*args: object, **kwargs: object) -> object:
        nonlocal failures
        if failures == 0:
            failures += 1
            raise DatabaseBusy("The database is busy; nothing was saved.")
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(repo, "commit", busy_once)
    failed = await service.due_reminders(clock.advance(minutes=61))
    assert not any("time for a decision" in p.text for p in failed.posts)
    assert any(d.seat == 0 and d.kind == "turn" for d in await repo.deadlines(game.id))
    before = len(await commands(repo, game.id))
    acted = await service.due_reminders(clock.advance(seconds=60))
    assert sum("time for a decision" in p.text for p in acted.posts) == 1
    overdue = [
        e
        for e in (await commands(repo, game.id))[before:]
        if (e.reason or "").startswith(DEADLINE_MISSED)
    ]
    assert len(overdue) == 1 and overdue[0].seat == 0


async def test_a_held_reminder_not_confirmed_is_posted_again_under_its_key(
    served: Served,
) -> None:
    clock, repo, service = served
    await repo.save_guild_settings(
        GuildSettings(GUILD, None, timedelta(hours=10), timedelta(hours=2))
    )
    game = await started_game(service, humans=2, ai=0, seed=5)
    first = await service.due_reminders(clock.advance(hours=2, minutes=1), held=True)
    [post] = first.posts
    assert post.key == f"deadline:{game.id}:0:reminder" and "waiting for you" in post.text
    [settle] = first.settles
    kinds = {(d.kind, d.due_at) for d in await repo.deadlines(game.id)}
    assert ("reminder:sent", clock.now + timedelta(minutes=5)) in kinds
    assert ("reminder", clock.now + timedelta(hours=2)) in kinds  # the next one
    # The bot stops before confirming: after the restart the post goes out again, under
    # the same key (the deliverer edits the first message in place).
    restarted = GameService(repo, renderer=None, clock=clock)
    assert (await restarted.due_reminders(clock.advance(minutes=4), held=True)).posts == []
    again = await restarted.due_reminders(clock.advance(minutes=2), held=True)
    assert [p.key for p in again.posts] == [post.key] and again.settles == [settle]
    await restarted.deadline_posts_delivered(again.settles)
    assert {d.kind for d in await repo.deadlines(game.id)} == {"turn", "reminder"}
    assert (await restarted.due_reminders(clock.advance(minutes=30), held=True)).posts == []
    second = await restarted.due_reminders(clock.advance(hours=2), held=True)
    assert [p.key for p in second.posts] == [post.key] and "waiting" in second.posts[0].text


async def test_under_the_remind_policy_two_missed_deadlines_also_make_a_seat_away(
    served: Served,
) -> None:
    clock, repo, service = served
    game = await started_game(service, humans=3, ai=0, seed=5, deadline_hours=1)
    notices: list[str] = []
    for _ in range(30):
        out = await service.due_reminders(clock.advance(minutes=61))
        notices += [p.text for p in out.posts if "has run out" in p.text]
        if (await repo.seats(game.id))[0].missed >= 2:
            break
        fresh, state = await current(service, game.id)
        owing = [d.seat for d in service.rules(fresh).pending(state)]
        if 0 in owing and any(d.seat == 0 for d in await repo.deadlines(game.id)):
            continue  # Red has a deadline running: wait for it
        if 0 in owing:  # Red's deadline passed: Blue and Green vote to skip it
            vote = customids.encode(game.id, fresh.version, "skipv", 0)
            await service.click(person(2), vote)
            await service.click(person(3), vote)
        else:  # someone else owes: they answer
            await click_choice(service, game.id, person(owing[0] + 1), owing[0])
    assert (await repo.seats(game.id))[0].missed == 2
    assert "missed 2 deadlines in a row and is away" in notices[-1]
    assert "missed" not in notices[0] and "/mod skip" in notices[0]
    entries = await commands(repo, game.id)
    assert any(e.seat == 0 and e.reason == "away: computer player" for e in entries)
