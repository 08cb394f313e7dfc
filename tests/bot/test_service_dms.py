"""Private information: hands by DM (slot "hand"), private decisions by DM, the closed-DM
fallback to /hand, and /hand in DMs."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import ChooseGame
from bot.outbox import Button, Select
from engine.homm4 import RULESET as HOMM4
from tests.bot.service_helpers import (
    CHANNEL,
    GUILD,
    RecordingRenderer,
    click_choice,
    current,
    make_service,
    person,
)


async def _start(service, *, humans: int = 1, ai: int = 1, seed: int = 21, channel: int = CHANNEL):  # type: ignore[no-untyped-def]
    await service.new_game(person(1), channel, guild_id=GUILD, seed=seed)
    for number in range(2, humans + 1):
        await service.join(person(number), channel)
    if ai:
        await service.add_ai(person(1), channel, count=ai)
    return await service.start(person(1), channel)


@pytest.mark.rule("homm4:start-of-the-game")
async def test_the_start_sends_each_person_their_hand_and_risk_choice_by_dm(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path, renderer=RecordingRenderer())
    try:
        out = await _start(service, humans=2, ai=1)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        _, state = await current(service, game.id)
        hands = [dm for dm in out.dms if dm.slot == "hand"]
        assert sorted(dm.user_id for dm in hands) == [1, 2]
        for dm in hands:
            seat = dm.user_id - 1
            player = state.players_state[seat]
            for card in [*player.hand, *player.risk]:
                assert f"#{card} " in dm.text
            assert dm.images and dm.images[0].data == b"hand"
            assert dm.fallback_channel_id == CHANNEL and dm.game_id == game.id
        decision = [dm for dm in out.dms if dm.slot == "decision"]
        assert [dm.user_id for dm in decision] == [1]
        select = decision[0].components[0]
        assert isinstance(select, Select) and (select.min_values, select.max_values) == (5, 5)
        panel = next(p for p in out.posts if p.panel_of == game.id)
        assert "Your choices are in your DMs" in panel.text and not panel.mention_user_ids
        ping = next(p for p in out.posts if p.panel_link == game.id)
        assert 1 in ping.mention_user_ids and "<@1>" in ping.text
    finally:
        await repo.close()


async def test_choosing_the_risk_stack_by_multi_select_updates_the_hand_dm(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        out = await _start(service)
        select = next(dm for dm in out.dms if dm.slot == "decision").components[0]
        assert isinstance(select, Select)
        chosen = [o.value for o in select.options[:5]]
        result = await service.click(person(1, dm=True), select.custom_id, chosen)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        _, state = await current(service, game.id)
        assert sorted(state.players_state[0].risk) == sorted(int(v) for v in chosen)
        hand = next(dm for dm in result.dms if dm.slot == "hand")
        assert "Risk Stack** (5)" in hand.text
        cleared = next(dm for dm in result.dms if dm.slot == "decision")
        assert cleared.components == () and "nothing waits for you" in cleared.text
        # seat 0 places its Army next, a decision asked in the channel, not in the DM
        assert {d.seat: d.kind for d in HOMM4.pending(state)} == {0: "place_army"}
        assert cleared.text == (
            "Game #1: nothing waits for you here now — your next decision is asked in the "
            "game's channel."
        )
        assert result.reply is not None and result.reply.text.startswith("✅ Risk Stack")
    finally:
        await repo.close()


async def test_closed_dms_fall_back_to_hand_in_the_channel(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await _start(service)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        notice = await service.record_dm_result(1, delivered=False, game_id=game.id)
        assert notice.posts[0].mention_user_ids == (1,)
        assert "/hand" in notice.posts[0].text and "#" not in notice.posts[0].text.replace("<#", "")
        seats = await repo.seats(game.id)
        assert seats[0].dm_reachable is False
        status = await service.status(person(1), CHANNEL)
        assert status.reply is not None
        hand = await service.hand(person(1), CHANNEL)
        assert hand.reply is not None and hand.reply.ephemeral
        _, state = await current(service, game.id)
        assert all(f"#{c} " in hand.reply.text for c in state.players_state[0].hand)
        select = hand.reply.components[0]
        assert isinstance(select, Select)
        out = await service.click(
            person(1), select.custom_id, [o.value for o in select.options[:5]]
        )
        for _ in range(100):
            assert all(dm.user_id == 1 for dm in out.dms)  # at most the turn's retry
            _, state = await current(service, game.id)
            owed = HOMM4.pending(state)[0]
            if owed.seat == 0 and owed.kind == "purchase":
                break
            out = await click_choice(service, game.id, person(1), 0)
        else:
            pytest.fail("Red never reached a Purchase Phase")
        closed = [
            p for p in out.posts if "Your DMs are closed" in p.text or "opened them again" in p.text
        ]
        assert closed and closed[0].panel_of == game.id, "the panel says so"
        assert any(1 in p.mention_user_ids for p in out.posts if p.panel_link == game.id)
        button = closed[0].components[0]
        assert isinstance(button, Button) and button.label == "Red: my cards and choices"
        private = await service.click(person(1), button.custom_id)
        assert private.reply is not None and private.reply.ephemeral
        assert "Red's Purchase Phase" in private.reply.text and private.reply.components
        await service.record_dm_result(1, delivered=True)
        assert (await repo.seats(game.id))[0].dm_reachable is True
    finally:
        await repo.close()


async def test_hand_in_a_dm_asks_which_game_when_there_are_several(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await _start(service, channel=CHANNEL)
        await _start(service, channel=CHANNEL + 1, seed=22)
        with pytest.raises(ChooseGame, match="several games"):
            await service.hand(person(1, dm=True), None)
        games = await repo.games_for_user(1)
        chosen = games[0].game.id
        out = await service.run(person(1, dm=True), ("hand",), {"game": chosen})
        assert out.reply is not None and f"game #{chosen}" in out.reply.text
        assert out.reply.ephemeral
    finally:
        await repo.close()


async def test_a_new_private_decision_pings_and_a_re_render_edits_quietly(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        out = await _start(service)
        risk = next(dm for dm in out.dms if dm.slot == "decision")
        assert risk.notify, "the first decision of the game is news"
        assert all(not dm.notify for dm in out.dms if dm.slot == "hand")
        select = risk.components[0]
        assert isinstance(select, Select)
        out = await service.click(
            person(1, dm=True), select.custom_id, [o.value for o in select.options[:5]]
        )
        cleared = next(dm for dm in out.dms if dm.slot == "decision")
        assert not cleared.notify and "nothing waits" in cleared.text
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        for _ in range(100):
            news = [dm for dm in out.dms if dm.slot == "decision" and dm.components]
            if news:
                break
            out = await click_choice(service, game.id, person(1), 0)
        else:
            pytest.fail("Red never owed another private decision")
        assert [dm.notify for dm in news] == [True]
        moderator = person(9, moderator=True)
        await service.mod_pause(moderator, CHANNEL)
        resumed = await service.mod_resume(moderator, CHANNEL)
        again = [dm for dm in resumed.dms if dm.slot == "decision"]
        assert again and not any(dm.notify for dm in again), "the same decision is edited"
    finally:
        await repo.close()


async def test_closed_dms_are_retried_once_at_the_start_of_each_turn(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await _start(service)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        await service.record_dm_result(1, delivered=False, game_id=game.id)
        turns_begun = 0
        for _ in range(300):
            _, before = await current(service, game.id)
            out = await click_choice(service, game.id, person(1), 0)
            _, after = await current(service, game.id)
            began = after.active == 0 and (before.active != 0 or before.turn != after.turn)
            assert not any("cannot send you direct messages" in p.text for p in out.posts)
            if not began:
                assert out.dms == [], "DMs to a closed seat outside the retry"
                continue
            turns_begun += 1
            hand = [dm for dm in out.dms if dm.slot == "hand"]
            assert [dm.user_id for dm in hand] == [1] and len(out.dms) <= 2
            if turns_begun == 2:
                break
        else:
            pytest.fail("Red's turn did not begin twice")
        await service.record_dm_result(1, delivered=True)  # the retry got through
        assert (await repo.seats(game.id))[0].dm_reachable is True
        for _ in range(100):
            out = await click_choice(service, game.id, person(1), 0)
            if out.dms:
                assert {dm.user_id for dm in out.dms} == {1}
                break
        else:
            pytest.fail("no DM after the seat became reachable again")
    finally:
        await repo.close()
