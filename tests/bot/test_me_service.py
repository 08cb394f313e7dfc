"""Coming back to a game (issue 15): the digest DM when a seat's decision opens, ``/me
games`` and ``/me notify`` with quiet hours, through the `GameService`."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.digest import DIGEST_LINES, digest_text, entry_lines
from bot.errors import BadOption
from bot.me import GAMES_PAGE
from bot.notify import (
    ReminderPlan,
    pinged_in_channel,
    quiet_until,
    read_quiet_hours,
    read_zone,
    reminder_plan,
)
from bot.outbox import Button, DirectMessage, Outbox
from engine.homm4 import RULESET as HOMM4
from storage.records import GuildSettings, LogEntry, NotifySettings, PingMode
from tests.bot.service_helpers import (
    CHANNEL,
    GUILD,
    FakeClock,
    RecordingRenderer,
    click_choice,
    current,
    make_service,
    named_cards,
    person,
    started_game,
)


def digests(out: Outbox, user: int | None = None) -> list[DirectMessage]:
    """The digest DMs of an outbox (to ``user`` when given)."""
    return [d for d in out.dms if d.slot == "digest" and user in (None, d.user_id)]


async def play_until_digest(service, game_id: int, user: int, limit: int = 60):  # type: ignore[no-untyped-def]
    """Play legal moves for whoever owes until a digest DM goes to ``user``."""
    for _ in range(limit):
        _, state = await current(service, game_id)
        seat = HOMM4.pending(state)[0].seat
        out = await click_choice(service, game_id, person(seat + 1), seat)
        found = digests(out, user)
        if found:
            return out, found[0]
    raise AssertionError(f"no digest reached user {user}")


# ------------------------------------------------------------------------- the digest
async def test_the_digest_tells_the_public_lines_and_only_the_seats_own_private_lines(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path, renderer=RecordingRenderer())
    try:
        game = await started_game(service, humans=2, ai=0)
        # Red chooses its Risk Stack and places its Army: then Blue draws and owes a choice.
        out, digest = await play_until_digest(service, game.id, user=2)
        assert [d.user_id for d in digests(out)] == [2], "not the player who just acted"
        log = (await repo.read_log_unredacted(game.id, limit=100)).entries
        public = [e.text for entry in log for e in entry.events if e.text]
        blue = [e.private[1] for entry in log for e in entry.events if 1 in e.private]
        red = [e.private[0] for entry in log for e in entry.events if 0 in e.private]
        assert blue and red, "both seats have private lines in the log"
        lines = digest.text.splitlines()
        assert (
            lines[0]
            == f"📬 **Game #{game.id}** (https://discord.com/channels/{GUILD}/{CHANNEL}): since you last acted:"
        )
        assert "Red places Army 1 at O8." in public and "• Red places Army 1 at O8." in lines
        shown = [line.removeprefix("• ") for line in lines if line.startswith("• ")]
        assert len(shown) == DIGEST_LINES
        assert shown[-1] == f"🔒 {blue[-1]}", "Blue's own draw, named card by card"
        assert not [line for line in red if line in digest.text], "never Red's private lines"
        expected = [line for entry in log for line in entry_lines(entry, 1)]
        assert shown == expected, "every line since the start (Blue never acted yet)"
        assert lines[1].startswith("• Red plays Legions of the Necropolis.")
        assert lines[-1].startswith("➡️ Blue, now: Blue chooses 5 of the 8 cards drawn")
        assert "(deadline <t:" in lines[-1]
        assert [i.filename for i in digest.images] == ["board.png"]
        assert digest.fallback_channel_id == CHANNEL and not digest.notify
        assert out.dms.index(digest) < min(
            i for i, d in enumerate(out.dms) if d.user_id == 2 and d.slot != "digest"
        ), "the digest comes before the hand and the choices"
    finally:
        await repo.close()


def test_a_digest_redacts_another_seats_private_line_whatever_it_is_given() -> None:
    from engine.core.model import Decision, Event
    from storage.records import LogKind

    leak = Event(kind="draw", text="Red draws 1 card.", private={0: "You draw Angel #7.", 1: "x"})
    entry = LogEntry(
        game_id=1,
        seq=5,
        kind=LogKind.COMMAND,
        action=None,
        actor_user_id=1,
        seat=0,
        command_json="{}",
        reason=None,
        details={},
        events=(leak,),
        undoes=None,
        undone_by=None,
        version_after=5,
        created_at=datetime(2030, 1, 1, tzinfo=UTC),
    )
    owed = [Decision(seat=1, kind="purchase", prompt="Blue's Purchase Phase.", commands=("buy",))]
    text = digest_text(game_id=1, link="<#5>", seat=1, entries=[entry], unread=0, owed=owed)
    assert "Angel" not in text and "#7" not in text
    assert text.splitlines() == [
        "📬 **Game #1** (<#5>): since you last acted:",
        "• Red draws 1 card.",
        "• 🔒 x",
        "➡️ Blue, now: Blue's Purchase Phase.",
    ]
    many = digest_text(game_id=1, link="<#5>", seat=2, entries=[entry] * 30, unread=4, owed=owed)
    assert many.splitlines()[1] == "… more than 22 earlier lines: /game log"  # 18 + 4 unread
    assert "🔒" not in many, "seat 2 has no line of its own here"


async def test_no_digest_of_their_own_undo_reaches_the_player_who_took_back_a_move(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path, renderer=RecordingRenderer())
    try:
        game = await started_game(service, humans=1, ai=1)  # nobody else to ask
        await click_choice(service, game.id, person(1), 0)  # Red's Risk Stack
        out = await service.undo(person(1), CHANNEL)
        assert out.reply is not None
        assert out.reply.text.startswith("Done: your move is taken back (log entry #")
        assert [p.text for p in out.posts if "Red chooses 5 of the 8" in p.text], "owed again"
        assert not digests(out), "Red asked for it: no digest of their own undo"
        assert "It is your decision again." in out.reply.text
    finally:
        await repo.close()


def test_a_digest_shows_a_players_undo_as_theirs_and_a_moderators_action_with_the_shield() -> None:
    from storage.records import LogKind, ModeratorAction

    def entry(user: int, reason: str) -> LogEntry:
        return LogEntry(
            game_id=1,
            seq=9,
            kind=LogKind.MODERATOR,
            action=ModeratorAction.UNDO,
            actor_user_id=user,
            seat=0,
            command_json=None,
            reason=reason,
            details={},
            events=(),
            undoes=8,
            undone_by=None,
            version_after=9,
            created_at=datetime(2030, 1, 1, tzinfo=UTC),
        )

    mine = entry(1, "player undo: Red took back their move; agreed: Blue")
    assert entry_lines(mine, 1) == ["↩️ Red took back their move; agreed: Blue"]
    assert entry_lines(entry(7, "misclick"), 1) == ["🛡️ A moderator: undo (Red): misclick"]


async def test_a_digest_never_names_another_seats_cards(tmp_path: Path) -> None:
    """Over a three-player game's first moves, every digest names only cards that the log
    named in public or in its own seat's private lines — never one of another seat's
    current cards that no public line named (house rule 6)."""
    repo, service = await make_service(tmp_path, renderer=RecordingRenderer())
    try:
        game = await started_game(service, humans=3, ai=0, seed=5)
        seen = 0
        for _ in range(120):
            _, state = await current(service, game.id)
            if HOMM4.result(state).finished:
                break
            seat = HOMM4.pending(state)[0].seat
            out = await click_choice(service, game.id, person(seat + 1), seat)
            log = (await repo.read_log_unredacted(game.id, before_seq=10**9, limit=1000)).entries
            public = named_cards(e.text for entry in log for e in entry.events)
            _, state = await current(service, game.id)
            for digest in digests(out):
                reader = digest.user_id - 1
                own = named_cards(
                    e.private[reader] for entry in log for e in entry.events if reader in e.private
                )
                named = named_cards([digest.text])
                assert named <= public | own, f"{named - public - own} in {digest.text!r}"
                others = {
                    card
                    for number, player in enumerate(state.players_state)
                    if number != reader
                    for card in [*player.hand, *player.risk, *player.deck]
                }
                assert not (named & (others - public)), digest.text
                seen += 1
        assert seen > 20
    finally:
        await repo.close()


async def test_decisions_opening_in_a_row_edit_one_digest_and_a_new_absence_is_news(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=2, ai=0)
        await service.me_notify(person(2), None, ping="dm")
        out, first = await play_until_digest(service, game.id, user=2)
        assert first.notify, "told by DM: a new digest is sent anew (a DM ping)"
        assert 2 not in out.posts[-1].mention_user_ids, "and no ping in the channel"
        assert "<@2>" in out.posts[-1].text, "the channel line still names Blue"
        # Blue does not act: a moderator plays Blue's default, and Blue's next decision opens.
        skipped = await service.mod_skip(person(9, moderator=True), CHANNEL, seat="Blue")
        again = digests(skipped, 2)
        assert len(again) == 1 and not again[0].notify, "in a row: edited in place"
        assert "🛡️ Blue puts 5 cards face down" in again[0].text
        assert "Red places Army 1 at O8." in again[0].text, "still since Blue last acted"
        # Blue acts; the next opening starts a new absence.
        _, later = await play_until_digest(service, game.id, user=2)
        assert later.notify and "Red places Army 1 at O8." not in later.text
    finally:
        await repo.close()


async def test_computers_get_no_digest_and_closed_dms_only_the_turns_retry(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=2, ai=1)
        await repo.set_dm_reachable(2, False)
        retried = 0
        for _ in range(60):
            _, before = await current(service, game.id)
            seat = HOMM4.pending(before)[0].seat
            out = await click_choice(service, game.id, person(seat + 1), seat)
            _, after = await current(service, game.id)
            assert all(d.user_id in (1, 2) for d in digests(out)), "no computer seat"
            if digests(out, 2):  # closed DMs: only the once-per-turn retry (dm_retries)
                then, now = HOMM4.turn(before), HOMM4.turn(after)
                assert 1 in now.active and (1 not in then.active or then.turn != now.turn)
                retried += 1
        assert retried >= 1
    finally:
        await repo.close()


# ------------------------------------------------------------------------- /me games
async def test_me_games_lists_every_game_with_its_deadline_and_pages(tmp_path: Path) -> None:
    clock = FakeClock()
    repo, service = await make_service(tmp_path, clock=clock)
    try:
        for number in range(GAMES_PAGE + 2):
            await started_game(service, channel=CHANNEL + number, deadline_hours=10 + number)
        first = await service.run(person(1, dm=True), ("me", "games"))
        assert first.reply is not None and first.reply.ephemeral
        text = first.reply.text
        assert text.startswith(f"**Your games** ({GAMES_PAGE + 2}, on every server)")
        assert text.count("https://discord.com/channels/") == GAMES_PAGE
        due = int((clock.now + timedelta(hours=10)).timestamp())
        assert "**#1 " in text and f"your deadline <t:{due}:R> (<t:{due}:f>)" in text
        assert "waiting for: **you** (Red)" in text
        assert text.index("**#1 ") < text.index("**#2 "), "the soonest deadline first"
        assert "Page 1 of 2. Next: /me games page:2" in text
        [forward] = first.reply.components
        assert isinstance(forward, Button) and forward.label == "Page 2 ▶"
        second = await service.click(person(1, dm=True), forward.custom_id)
        assert second.reply is not None and second.reply.text.count("https://discord.com/") == 2
        assert [b.label for b in second.reply.components if isinstance(b, Button)] == ["◀ Page 1"]
        typed = await service.run(person(1, dm=True), ("me", "games"), {"page": 2})
        assert typed.reply is not None and typed.reply.text == second.reply.text
        with pytest.raises(BadOption, match=r"You have 2 pages of games .* page 3 is past the end"):
            await service.run(person(1, dm=True), ("me", "games"), {"page": 3})
        with pytest.raises(BadOption, match="Pages of /me games start at 1, not 0"):
            await service.run(person(1, dm=True), ("me", "games"), {"page": 0})
        nothing = await service.run(person(7, dm=True), ("me", "games"))
        assert nothing.reply is not None and "You sit in no open game" in nothing.reply.text
    finally:
        await repo.close()


# ------------------------------------------------------------------------- /me notify
async def test_me_notify_refuses_unknown_zones_and_bad_hours_and_changes_nothing(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        me = person(1, dm=True)
        bad = [
            ({"time_zone": "Mars/Olympus_Mons"}, "'Mars/Olympus_Mons' is not a time zone I know"),
            ({"time_zone": "../etc/passwd"}, "is not a time zone I know"),
            ({"quiet": "25-7"}, "25:00 is not a time of day"),
            ({"quiet": "22:00-07:75"}, "07:75 is not a time of day"),
            ({"quiet": "22"}, "'22' is not a range of hours"),
            ({"quiet": "22:00-22:00"}, "from 22:00 to 22:00 would be empty"),
            ({"ping": "loud"}, "ping: is one of channel, dm or both"),
            ({"time_zone": "Europe/Berlin", "quiet": "9-99"}, "99:00 is not a time of day"),
        ]
        for options, message in bad:
            with pytest.raises(BadOption, match=message.replace("(", r"\(").replace(".", r"\.")):
                await service.run(me, ("me", "notify"), options)
        assert await repo.notify_settings([1]) == {1: NotifySettings(1)}, "nothing was saved"
        saved = await service.run(
            me, ("me", "notify"), {"time-zone": "europe/berlin", "quiet": "22-7:30", "ping": "both"}
        )
        assert saved.reply is not None and saved.reply.text.startswith("✅ Saved.")
        assert "**Quiet hours:** 22:00-07:30 your time" in saved.reply.text
        assert await repo.notify_settings([1]) == {
            1: NotifySettings(1, PingMode.BOTH, "Europe/Berlin", 22 * 60, 7 * 60 + 30)
        }
        suggested = await service.autocomplete(me, ("me", "notify"), "time-zone", "berl")
        assert suggested[0] == ("Europe/Berlin", "Europe/Berlin")
        assert ("America/New_York", "America/New_York") in await service.autocomplete(
            me, ("me", "notify"), "time-zone", "new york"
        )
        cleared = await service.run(me, ("me", "notify"), {"quiet": "off"})
        assert cleared.reply is not None and "**Quiet hours:** none" in cleared.reply.text
    finally:
        await repo.close()


def test_a_time_zone_may_be_named_by_its_city_and_a_near_miss_is_answered_with_names() -> None:
    assert [read_zone(t) for t in ("berlin", "New York", "kolkata", "utc")] == [
        "Europe/Berlin",
        "America/New_York",
        "Asia/Kolkata",
        "UTC",
    ]
    with pytest.raises(BadOption, match=r"'berl' is not .* Did you mean Europe/Berlin\?"):
        read_zone("berl")
    two = "Did you mean America/Indiana/Indianapolis or America/Indianapolis?"
    with pytest.raises(BadOption, match=re.escape(two)):  # two zones have that city: no guess
        read_zone("indianapolis")
    with pytest.raises(BadOption, match="such as Europe/Berlin, America/New_York"):
        read_zone("Mars/Olympus_Mons")


def test_quiet_hours_follow_the_time_zone_across_midnight_and_summer_time() -> None:
    berlin = NotifySettings(
        1, time_zone=read_zone("Europe/Berlin"), quiet_start=22 * 60, quiet_end=8 * 60
    )
    assert read_quiet_hours("22:00 to 8") == (22 * 60, 8 * 60)
    assert read_quiet_hours("OFF") is None
    winter = datetime(2030, 1, 1, 21, 30, tzinfo=UTC)  # 22:30 in Berlin (UTC+1)
    assert quiet_until(berlin, winter) == datetime(2030, 1, 2, 7, 0, tzinfo=UTC)
    assert quiet_until(berlin, datetime(2030, 1, 2, 6, 59, tzinfo=UTC)) == datetime(
        2030, 1, 2, 7, 0, tzinfo=UTC
    )
    assert quiet_until(berlin, datetime(2030, 1, 2, 7, 0, tzinfo=UTC)) is None
    summer = datetime(2030, 7, 1, 20, 30, tzinfo=UTC)  # 22:30 in Berlin (UTC+2)
    assert quiet_until(berlin, summer) == datetime(2030, 7, 2, 6, 0, tzinfo=UTC)
    daytime = NotifySettings(1, quiet_start=9 * 60, quiet_end=17 * 60)  # UTC without a zone
    assert quiet_until(daytime, datetime(2030, 1, 1, 12, tzinfo=UTC)) == datetime(
        2030, 1, 1, 17, tzinfo=UTC
    )
    assert quiet_until(daytime, datetime(2030, 1, 1, 18, tzinfo=UTC)) is None


async def test_quiet_hours_hold_a_reminder_until_they_end(tmp_path: Path) -> None:
    clock = FakeClock()  # 2030-01-01 12:00 UTC
    repo, service = await make_service(tmp_path, clock=clock)
    try:
        await repo.save_guild_settings(GuildSettings(GUILD, None, timedelta(hours=24), None))
        game = await started_game(service, seed=31)
        await service.me_notify(person(1), None, time_zone="Europe/Berlin", quiet="22-8")
        turn = clock.now + timedelta(hours=24)
        # the reminder falls due at 75% of the deadline: 06:00 UTC, 07:00 in Berlin: quiet
        held = await service.due_reminders(clock.advance(hours=18, minutes=1))
        assert held.posts == [] and held.dms == []
        due = {d.kind: d.due_at for d in await repo.deadlines(game.id)}
        assert due == {"turn": turn, "reminder": datetime(2030, 1, 2, 7, 0, tzinfo=UTC)}
        assert (await service.due_reminders(clock.advance(minutes=58))).posts == []
        sent = await service.due_reminders(clock.advance(minutes=1))  # 08:00 in Berlin
        assert len(sent.posts) == 1 and sent.posts[0].mention_user_ids == (1,)
        assert f"The deadline is <t:{int(turn.timestamp())}:R>" in sent.posts[0].text
        assert {d.kind: d.due_at for d in await repo.deadlines(game.id)} == {"turn": turn}
    finally:
        await repo.close()


async def test_a_held_reminder_is_dropped_once_the_decision_is_answered(tmp_path: Path) -> None:
    clock = FakeClock()
    repo, service = await make_service(tmp_path, clock=clock)
    try:
        await repo.save_guild_settings(GuildSettings(GUILD, None, timedelta(hours=24), None))
        game = await started_game(service, humans=2, ai=0, seed=31)
        await service.me_notify(person(1), None, time_zone="Europe/Berlin", quiet="22-8")
        assert (await service.due_reminders(clock.advance(hours=18, minutes=1))).posts == []
        for _ in range(10):  # Red answers in the night until Blue owes the next decision
            _, state = await current(service, game.id)
            if HOMM4.pending(state)[0].seat != 0:
                break
            await click_choice(service, game.id, person(1), 0)
        assert all(d.seat == 1 for d in await repo.deadlines(game.id))
        later = await service.due_reminders(clock.advance(hours=2))
        assert all(1 not in p.mention_user_ids for p in later.posts)
    finally:
        await repo.close()


async def test_a_reminder_goes_by_dm_to_a_person_told_by_dm(tmp_path: Path) -> None:
    clock = FakeClock()
    repo, service = await make_service(tmp_path, clock=clock)
    try:
        await repo.save_guild_settings(GuildSettings(GUILD, None, timedelta(hours=8), None))
        game = await started_game(service, seed=31)
        await service.me_notify(person(1), None, ping="dm")
        sent = await service.due_reminders(clock.advance(hours=6, minutes=1))
        assert sent.posts == []
        [dm] = sent.dms
        assert (dm.user_id, dm.slot, dm.notify, dm.game_id) == (1, "notice", True, game.id)
        assert "waiting for you" in dm.text and f"/channels/{GUILD}/{CHANNEL}" in dm.text
    finally:
        await repo.close()


def test_a_person_told_by_dm_whose_dms_are_closed_is_told_in_the_channel() -> None:
    moment = datetime(2030, 1, 1, 12, tzinfo=UTC)
    by_dm = NotifySettings(1, PingMode.DM)
    assert reminder_plan(by_dm, moment, dm_reachable=True) == ReminderPlan(None, False, True)
    assert reminder_plan(by_dm, moment, dm_reachable=False) == ReminderPlan(None, True, False)
    both = NotifySettings(1, PingMode.BOTH)
    assert reminder_plan(both, moment, dm_reachable=None) == ReminderPlan(None, True, True)
    assert not pinged_in_channel(by_dm, dm_reachable=None)
    assert pinged_in_channel(by_dm, dm_reachable=False)
    assert pinged_in_channel(NotifySettings(1), dm_reachable=True)
    quiet = NotifySettings(1, PingMode.BOTH, quiet_start=11 * 60, quiet_end=13 * 60)
    assert reminder_plan(quiet, moment, dm_reachable=True) == ReminderPlan(
        datetime(2030, 1, 1, 13, tzinfo=UTC), False, False
    )
