"""Review of issue 15 (deadlines that act, undo by players, the outbox): a forged button
is refused in words and changes nothing; the news of a passed deadline's move and of an
undo is redelivered after a crash with its own line (the "⌛ ... ran out" and "↩️ ... took
back" posts), edited in place under its key rather than posted twice; a multi-move undo is
one commit (house rule 5)."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import customids
from bot.discord_errors import player_text
from bot.errors import FOREIGN_COMPONENT, USER_ERRORS, BadOption
from engine.core.errors import IllegalMove
from engine.core.ruleset import Ruleset
from storage.errors import StorageError
from storage.records import LogKind, ModeratorAction
from tests.bot import privacy_helpers as ph
from tests.bot.service_helpers import (
    FakeClock,
    Served,
    current,
    make_service,
    person,
    started_game,
)
from tests.bot.test_service_undo import (
    _both_choose_heroes,
    _owing,
    _play,
    _same_position,
    _undo,
    _undo_buttons,
)


@pytest.mark.parametrize(
    "forged",
    [
        "ht:zz!:0:undo:y:1",  # not base 36
        "ht:1:0:undo:maybe:1",  # an undo answer that is neither y nor n
        "ht:1:0:skipv",  # a vote without its seat
        "ht:1:0:undo:y:" + "z" * 20,  # a number past SQLite's largest
        "ht:1:0:nosuchaction",
    ],
)
async def test_a_forged_custom_id_is_refused_in_words_and_changes_nothing(
    served: Served, forged: str
) -> None:
    _, repo, service = served
    game = await started_game(service, humans=2, ai=0, seed=11, ruleset="heroforge")
    forged = forged.replace("ht:1:0:", f"ht:{game.id}:{game.version}:")
    _, before = await current(service, game.id)
    with pytest.raises(customids.CustomIdError) as raised:
        await service.click(person(1), forged)
    assert isinstance(raised.value, USER_ERRORS)
    assert player_text(raised.value) == FOREIGN_COMPONENT  # not the generic apology
    _, after = await current(service, game.id)
    assert Ruleset.dump_state(after) == Ruleset.dump_state(before)
    assert await repo.undo_request(game.id) is None


def _texts(out: Any) -> list[str]:
    return [p.text for p in out.posts]


async def test_a_passed_deadline_s_news_is_redelivered_with_its_ran_out_line(
    served: Served,
) -> None:
    """The default policy plays Red's default (homm4); the bot dies before confirming the
    news. At the restart the redelivered news says whose time ran out and what was played
    for them, in a post keyed like the first one (so it is edited in place, not doubled)."""
    clock, repo, service = served
    game = await started_game(service, ai=1, seed=5, deadline_hours=1, deadline_policy="default")
    first = await service.due_reminders(clock.advance(minutes=61))
    ran_out = [p for p in first.posts if "time for a decision" in p.text]
    assert len(ran_out) == 1 and ran_out[0].receipt is not None
    assert ran_out[0].key == "lead"
    owed = await repo.undelivered_news()
    assert owed and all(g == game.id for g, _ in owed)

    again = await service.redeliver()  # the restart: nothing was confirmed
    lead = [p for p in again.posts if p.key == "lead"]
    assert len(lead) == 1
    assert lead[0].receipt is not None and lead[0].receipt.scope == ran_out[0].receipt.scope
    assert lead[0].text == ran_out[0].text.split("\n")[0]
    assert lead[0].text.startswith("⌛ <@1> **Red**'s time for a decision")
    assert lead[0].text.endswith("ran out: the default answer was played for them.")
    assert lead[0].mention_user_ids == (1,)
    _, state = await current(service, game.id)
    checker = ph.channel_checker(None, state)
    for post in again.posts:
        assert checker.leaks(ph.post_texts(post)) == []


async def test_an_undo_is_owed_news_until_delivered_and_redelivered_with_its_line(
    served: Served,
) -> None:
    """heroforge: Red and Blue choose their heroes; Red's undo (with Blue's consent) takes
    both back. The undo's commits are owed news like a move's: after a crash before the
    confirmation, the restart posts the "↩️ ... took back" line again under its key."""
    _, repo, service = served
    game = await started_game(service, humans=2, ai=0, seed=11, ruleset="heroforge")
    first, second = await _both_choose_heroes(service, game.id)
    moved, _ = await current(service, game.id)
    for _, version in await repo.undelivered_news():  # those moves' news went out
        await repo.news_delivered(game.id, version - 1, version)

    asked = await _undo(service, first, game.channel_id)
    done = await service.click(person(second + 1), _undo_buttons(asked)["y"])
    after, _ = await current(service, game.id)
    assert after.version == moved.version + 2
    assert await repo.undelivered_news() == [
        (game.id, moved.version + 1),
        (game.id, moved.version + 2),
    ], "both undo commits are owed until delivered"
    lead = done.posts[0]
    assert "took back their last move" in lead.text
    assert lead.key == "lead" and lead.receipt is not None
    assert (lead.receipt.after_version, lead.receipt.version) == (
        moved.version,
        moved.version + 2,
    )

    again = await service.redeliver()
    redone = [p for p in again.posts if p.key == "lead"]
    assert len(redone) == 1 and redone[0].receipt is not None
    assert redone[0].receipt.scope == lead.receipt.scope
    red = "Red" if first == 0 else "Blue"
    assert redone[0].text.startswith(f"↩️ {red} took back their move")
    undone = [e for e in (await repo.read_log(game.id, limit=100)).entries if e.undoes]
    assert all(f"#{e.undoes}" in redone[0].text for e in undone)
    _, state = await current(service, game.id)
    checker = ph.channel_checker(None, state)
    for post in again.posts:
        assert checker.leaks(ph.post_texts(post)) == []


async def test_a_mod_undo_is_confirmed_with_its_news(served: Served) -> None:
    """/mod undo's commit is owed news too, and its post carries the receipt that the
    deliverer confirms (so a later restart does not post it again)."""
    _, repo, service = served
    game = await started_game(service, humans=2, ai=0, seed=11, ruleset="heroforge")
    first = await _owing(service, game.id)
    await _play(service, game.id, first, lambda c: c.type == "choose_hero")
    moved, _ = await current(service, game.id)
    for _, version in await repo.undelivered_news():
        await repo.news_delivered(game.id, version - 1, version)
    out = await service.run(person(9, moderator=True), ("mod", "undo"), channel_id=game.channel_id)
    assert await repo.undelivered_news() == [(game.id, moved.version + 1)]
    receipts = {p.receipt for p in out.posts} | {d.receipt for d in out.dms}
    assert receipts == {
        next(iter(r for r in receipts if r is not None)),
    }
    (receipt,) = receipts
    assert receipt is not None
    assert (receipt.after_version, receipt.version) == (moved.version, moved.version + 1)
    assert "undid log entry" in out.posts[0].text


async def test_a_multi_move_undo_is_one_commit(tmp_path: Path) -> None:
    """heroforge: Red and Blue choose their heroes; Red's undo with Blue's consent takes
    back both. If the process fails while the second undo entry is written, the first
    must not stay: the game is as it was, with both choices in effect, and the request
    still answerable (house rule 5). The failure is an SQLite trigger refusing the second
    entry (the undo of Red's own choice)."""
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=2, ai=0, seed=11, ruleset="heroforge")
        _, before = await current(service, game.id)
        first, second = await _both_choose_heroes(service, game.id)
        moved, after_both = await current(service, game.id)
        log = (await repo.read_log(game.id, limit=100)).entries
        red_choice = [e for e in log if e.kind is LogKind.COMMAND][-2]
        asked = await _undo(service, first, game.channel_id)

        with sqlite3.connect(tmp_path / "service.db") as db:
            db.execute(
                "CREATE TRIGGER fail_second_undo BEFORE INSERT ON game_log "
                f"WHEN NEW.undoes = {red_choice.seq} "
                "BEGIN SELECT RAISE(ABORT, 'the process died here'); END"
            )
        with pytest.raises((sqlite3.Error, StorageError)):
            await service.click(person(second + 1), _undo_buttons(asked)["y"])
        now, state = await current(service, game.id)
        assert now.version == moved.version
        assert Ruleset.dump_state(state) == Ruleset.dump_state(after_both)
        undos = [
            e
            for e in (await repo.read_log(game.id, limit=100)).entries
            if e.action is ModeratorAction.UNDO
        ]
        assert undos == []
        owed = await repo.undelivered_news()
        assert all(v <= moved.version for _, v in owed), f"no undo's news is owed: {owed}"

        with sqlite3.connect(tmp_path / "service.db") as db:
            db.execute("DROP TRIGGER fail_second_undo")
        await service.click(person(second + 1), _undo_buttons(asked)["y"])
        _, restored = await current(service, game.id)
        assert _same_position(restored, before)
    finally:
        await repo.close()


async def test_an_undo_and_its_deadlines_are_one_commit(tmp_path: Path) -> None:
    """heroforge with 24 h deadlines: Red's plain undo gives Red back its decision and its
    deadline. If writing that deadline fails, the undo is not stored either (before, the
    undo stood and Red was left with no deadline at all: nothing would ever move the
    game on)."""
    clock = FakeClock()
    repo, service = await make_service(tmp_path, clock=clock)
    try:
        game = await started_game(
            service, humans=2, ai=0, seed=11, ruleset="heroforge", deadline_hours=24
        )
        _, second = await _both_choose_heroes(service, game.id)
        moved, after_both = await current(service, game.id)
        owed = {(d.seat, d.kind) for d in await repo.deadlines(game.id)}
        with sqlite3.connect(tmp_path / "service.db") as db:
            db.execute(
                "CREATE TRIGGER fail_deadline BEFORE INSERT ON deadlines "
                "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
            )
        # the undo is Blue's own (plain: nothing hidden came out, nobody else acted)
        with pytest.raises((sqlite3.Error, StorageError)):
            await _undo(service, second, game.channel_id)
        now, state = await current(service, game.id)
        assert now.version == moved.version
        assert Ruleset.dump_state(state) == Ruleset.dump_state(after_both)
        assert {(d.seat, d.kind) for d in await repo.deadlines(game.id)} == owed

        with sqlite3.connect(tmp_path / "service.db") as db:
            db.execute("DROP TRIGGER fail_deadline")
        await _undo(service, second, game.channel_id)
        deadlines = {(d.seat, d.kind): d.due_at for d in await repo.deadlines(game.id)}
        assert deadlines[(second, "turn")] == clock.now + timedelta(hours=24)
    finally:
        await repo.close()


@pytest.mark.rule("homm4:setup")
async def test_a_redelivered_undo_names_no_private_card_in_a_post_or_another_seat_s_dm(
    served: Served,
) -> None:
    """homm4:setup — Red chooses its Risk Stack from its Hand (private), takes it back
    (at once: the choice revealed nothing), and the bot dies before confirming the news. The redelivered news (the
    '↩️' line, the prompts, the digests and Hand DMs) names no card of a Hand, Risk Stack or
    deck in the channel, and no DM names another seat's card."""
    service = served.service
    game = await started_game(service, humans=2, ai=0, seed=6)
    seat = await _owing(service, game.id)
    _, before = await current(service, game.id)
    await _play(service, game.id, seat, lambda c: c.type == "choose_risk_stack")
    done = await _undo(service, seat, game.channel_id)
    assert not _undo_buttons(done), "no reveal: nobody else is asked"
    _, restored = await current(service, game.id)
    assert _same_position(restored, before)

    again = await service.redeliver()
    assert any(p.key == "lead" and "took back their move" in p.text for p in again.posts)
    channel = ph.channel_checker(before, restored)
    per_seat = {s: ph.seat_checker(before, restored, s) for s in (0, 1, None)}
    users = {1: 0, 2: 1}
    assert {dm.slot for dm in again.dms} >= {"hand"}, "the Hand DM goes again"
    assert ph.outbox_leaks(again, channel, users, per_seat, None) == []


async def _overdue_vote(service: Any, clock: FakeClock, game: Any) -> str:
    """Let Red's 1 h deadline pass (remind policy) and return the vote button's id."""
    _, state = await current(service, game.id)
    vote = customids.encode(game.id, state.version, "skipv", 0)
    out = await service.due_reminders(clock.advance(minutes=61))
    notice = next(p for p in out.posts if "has run out" in p.text)
    assert [b.custom_id for b in notice.components] == [vote]
    return vote


async def test_a_vote_s_news_is_redelivered_with_its_vote_line(served: Served) -> None:
    """homm4, 4 players, Red's deadline passes (remind policy): 2 of the 3 others vote
    and Red's default answer is played. The '🗳️' post leads the news under its key, and a
    redelivery rebuilds the same line from the log."""
    clock, repo, service = served
    game = await started_game(service, humans=4, ai=0, seed=5, deadline_hours=1)
    vote = await _overdue_vote(service, clock, game)
    await service.click(person(2), vote)
    for _, version in await repo.undelivered_news():
        await repo.news_delivered(game.id, version - 1, version)
    decided = await service.click(person(3), vote)
    lead = decided.posts[0]
    assert lead.text == "🗳️ 2 of 3 players voted: Red's default answer was played."
    assert lead.key == "lead" and lead.receipt is not None

    again = await service.redeliver()
    redone = [p for p in again.posts if p.key == "lead"]
    assert [p.text for p in redone] == [lead.text]
    assert redone[0].receipt is not None and redone[0].receipt.scope == lead.receipt.scope


async def test_a_vote_whose_default_the_rules_refuse_tells_the_voter_no_card(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The voter is another player: if the rules refuse the default answer, their reply
    names the refusal's kind only — never the engine's words, which may name the overdue
    seat's Hand cards (house rule 6) — and nothing is played."""
    clock, service = served.clock, served.service
    game = await started_game(service, humans=4, ai=0, seed=5, deadline_hours=1)
    vote = await _overdue_vote(service, clock, game)
    await service.click(person(2), vote)
    _, before = await current(service, game.id)
    rules = service.rules(game)
    secret = "Archangel #17 is in Red's Hand"

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise IllegalMove(secret)

    monkeypatch.setattr(type(rules), "apply", refuse)
    with pytest.raises(BadOption) as refused:
        await service.click(person(3), vote)
    monkeypatch.undo()
    text = player_text(refused.value) or ""
    assert "IllegalMove" in text and "/mod skip" in text
    assert "Archangel" not in text and "#17" not in text
    _, after = await current(service, game.id)
    assert Ruleset.dump_state(after) == Ruleset.dump_state(before)


async def test_asking_again_posts_the_waiting_request_s_buttons_again(served: Served) -> None:
    """A crash after the undo request was stored and before its post went out left a
    request nobody could answer, and /undo refused while it waited. Asked again, the same
    request is posted again with the same buttons, and they carry it out."""
    _, repo, service = served
    game = await started_game(service, humans=2, ai=0, seed=11, ruleset="heroforge")
    _, before = await current(service, game.id)
    first, second = await _both_choose_heroes(service, game.id)
    await _undo(service, first, game.channel_id)  # its post is lost
    stored = await repo.undo_request(game.id)
    assert stored is not None

    again = await _undo(service, first, game.channel_id)
    buttons = _undo_buttons(again)
    assert set(buttons) == {"y", "n"}
    assert again.reply is not None and "its buttons are posted again" in again.reply.text
    assert await repo.undo_request(game.id) == stored, "the same request, not a new one"
    with pytest.raises(BadOption, match="undo request already waits"):
        await _undo(service, second, game.channel_id)  # another seat's still refused
    await service.click(person(second + 1), buttons["y"])
    _, restored = await current(service, game.id)
    assert _same_position(restored, before)
