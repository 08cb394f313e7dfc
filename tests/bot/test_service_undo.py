"""``/undo`` by players through the GameService (issue 15, "Undo by players"): a plain
move is taken back at once, a die roll or another seat's move needs the others' consent by
button, a refusal changes nothing, two clicks at once undo once, the same command replayed
rolls the same dice, deadlines come back, and the post names no private card."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import customids
from bot.errors import BadOption, NotSeated
from bot.outbox import Button, Outbox
from engine.core.errors import StaleState
from engine.core.model import Command, seat_name
from engine.core.ruleset import Ruleset, get_ruleset
from storage.errors import NothingToUndo
from storage.records import LogKind, ModeratorAction
from tests.bot import privacy_helpers as ph
from tests.bot.service_helpers import (
    Served,
    current,
    make_service,
    person,
    started_game,
)

RED, BLUE = person(1), person(2)


async def _play(
    service: Any, game_id: int, seat: int, pick: Callable[[Command], bool] = lambda c: True
) -> tuple[Outbox, Command]:
    """Click (as seat ``seat``'s player, user ``seat + 1``) the first legal command that
    ``pick`` accepts."""
    game, state = await current(service, game_id)
    rules = get_ruleset(game.ruleset)
    legal = rules.legal_commands(state, seat)
    index = next(i for i, c in enumerate(legal) if pick(c))
    token = customids.option_token(index, legal[index].model_dump_json())
    out = await service.click(
        person(seat + 1), customids.encode(game.id, state.version, "opt", token)
    )
    return out, legal[index]


async def _owing(service: Any, game_id: int) -> int:
    game, state = await current(service, game_id)
    return get_ruleset(game.ruleset).pending(state)[0].seat


async def _both_choose_heroes(service: Any, game_id: int) -> tuple[int, int]:
    """heroforge's opening: the seat owing a decision chooses a hero, then the seat owing
    the next; those two seats, in that order."""
    first = await _owing(service, game_id)
    await _play(service, game_id, first, lambda c: c.type == "choose_hero")
    second = await _owing(service, game_id)
    await _play(service, game_id, second, lambda c: c.type == "choose_hero")
    return first, second


def _undo_buttons(out: Outbox) -> dict[str, str]:
    """``{"y": custom id, "n": custom id}`` of the consent buttons in ``out``."""
    found: dict[str, str] = {}
    for post in out.posts:
        for c in post.components:
            if isinstance(c, Button) and customids.decode(c.custom_id).action == "undo":
                found[customids.decode(c.custom_id).args[0]] = c.custom_id
    return found


def _same_position(a: Any, b: Any) -> bool:
    a, b = a.model_copy(deep=True), b.model_copy(deep=True)
    a.version = b.version = 0
    return Ruleset.dump_state(a) == Ruleset.dump_state(b)


async def _heroforge(tmp_path: Path, **kwargs: Any) -> tuple[Any, Any, Any]:
    repo, service = await make_service(tmp_path, **kwargs)
    game = await started_game(service, humans=2, ai=0, seed=11, ruleset="heroforge")
    return repo, service, game


async def _to_buying(service: Any, game_id: int) -> int:
    """Play the set-up (heroes chosen and placed) until a seat may buy a unit; its seat."""
    for _ in range(10):
        _, state = await current(service, game_id)
        seat = await _owing(service, game_id)
        legal = get_ruleset("heroforge").legal_commands(state, seat)
        if any(c.type == "buy_unit" for c in legal):
            return seat
        await _play(service, game_id, seat)
    raise AssertionError("no buying phase reached")


async def _undo(service: Any, seat: int, channel_id: int) -> Outbox:
    out: Outbox = await service.run(person(seat + 1), ("undo",), channel_id=channel_id)
    return out


async def _undo_entries(repo: Any, game_id: int) -> list[Any]:
    log = await repo.read_log(game_id, limit=1000)
    return [e for e in log.entries if e.action is ModeratorAction.UNDO]


async def test_undo_of_a_plain_move_applies_at_once(tmp_path: Path) -> None:
    repo, service, game = await _heroforge(tmp_path)
    try:
        seat = await _to_buying(service, game.id)
        _, before = await current(service, game.id)
        await _play(service, game.id, seat, lambda c: c.type == "buy_unit")
        out = await _undo(service, seat, game.channel_id)
        assert "took back their last move" in out.posts[0].text
        assert "log entry #" in out.posts[0].text
        assert out.reply is not None and out.reply.text.startswith("Done: your move is taken back")
        assert not [d for d in out.dms if d.slot == "digest" and d.user_id == seat + 1], (
            "no digest of their own undo to the player who asked"
        )
        assert not _undo_buttons(out)
        _, after = await current(service, game.id)
        assert after.version == before.version + 2  # the move and its undo count one each
        assert _same_position(after, before)
        undo = await _undo_entries(repo, game.id)
        assert len(undo) == 1 and undo[0].actor_user_id == seat + 1
        assert (undo[0].reason or "").startswith("player undo")
        shown = await service.log(RED, game.channel_id)
        assert shown.reply is not None
        assert f"↩️ <@{seat + 1}> undid #{undo[0].undoes}" in shown.reply.text
        # the seat owes its decision again, asked in the channel with its buttons
        assert any(f"<@{seat + 1}>" in p.text and "➡️" in p.text for p in out.posts)
    finally:
        await repo.close()


async def test_nothing_of_your_own_to_undo_is_refused(tmp_path: Path) -> None:
    repo, service, game = await _heroforge(tmp_path)
    try:
        seat = await _owing(service, game.id)
        with pytest.raises(NothingToUndo, match="no move of yours"):
            await _undo(service, seat, game.channel_id)
        assert await _undo_entries(repo, game.id) == []
    finally:
        await repo.close()


async def _roll(service: Any, game_id: int) -> int:
    """Buy nothing and end buying until the seat owing may roll its movement die."""
    seat = await _to_buying(service, game_id)
    for _ in range(10):
        _, state = await current(service, game_id)
        legal = get_ruleset("heroforge").legal_commands(state, seat)
        if any(c.type == "roll_move" for c in legal):
            return seat
        await _play(service, game_id, seat, lambda c: c.type == "end_buying")
    raise AssertionError("no movement roll reached")


async def test_a_die_roll_needs_consent_and_the_replay_rolls_the_same(tmp_path: Path) -> None:
    """heroforge:movement — the movement die: undone with the other player's consent, the
    same roll comes again, because the generator's position is part of the restored state."""
    repo, service, game = await _heroforge(tmp_path)
    try:
        seat = await _roll(service, game.id)
        other = 1 - seat
        _, before = await current(service, game.id)
        await _play(service, game.id, seat, lambda c: c.type == "roll_move")
        rolled = [e for e in (await repo.read_log(game.id, limit=1000)).entries][-1]
        assert rolled.kind is LogKind.COMMAND and rolled.seat == seat
        first_roll = [e.model_dump() for e in rolled.events]
        assert any(e.kind == "die_roll" for e in rolled.events)
        _, after_roll = await current(service, game.id)

        asked = await _undo(service, seat, game.channel_id)
        buttons = _undo_buttons(asked)
        assert set(buttons) == {"y", "n"}
        assert "hidden information came out" in asked.posts[0].text
        assert f"agreement of <@{other + 1}> **{seat_name(other)}**, who may refuse." in (
            asked.posts[0].text
        )
        assert (
            f"<@{other + 1}>" in asked.posts[0].text
            and other + 1 in asked.posts[0].mention_user_ids
        )
        # refused without consent: nothing undone yet, not even by the asker's own click
        _, waiting = await current(service, game.id)
        assert Ruleset.dump_state(waiting) == Ruleset.dump_state(after_roll)
        with pytest.raises(BadOption, match="You asked for this undo"):
            await service.click(person(seat + 1), buttons["y"])
        assert await _undo_entries(repo, game.id) == []
        again = await _undo(service, seat, game.channel_id)  # asked again: the same buttons
        assert again.reply is not None and "already waits" in again.reply.text
        assert _undo_buttons(again) == buttons
        assert await _undo_entries(repo, game.id) == []

        done = await service.click(person(other + 1), buttons["y"])
        assert "with the agreement of" in done.posts[0].text
        assert done.reply is not None
        assert done.reply.text == f"Agreed: {seat_name(seat)}'s move is taken back."
        _, restored = await current(service, game.id)
        assert _same_position(restored, before)
        assert restored.rng.counter == before.rng.counter

        await _play(service, game.id, seat, lambda c: c.type == "roll_move")
        again = (await repo.read_log(game.id, limit=1000)).entries[-1]
        assert again.seq != rolled.seq
        assert [e.model_dump() for e in again.events] == first_roll
        _, replayed = await current(service, game.id)
        assert _same_position(replayed, after_roll)
        verdict = await service.mod_verify(person(9, moderator=True), game.channel_id)
        assert "exactly the stored position" in verdict.posts[0].text
    finally:
        await repo.close()


async def test_undo_after_another_seat_acted_needs_that_seat(served: Served) -> None:
    clock, repo, service = served
    game = await started_game(
        service, humans=2, ai=0, seed=11, ruleset="heroforge", deadline_hours=24
    )
    first = await _owing(service, game.id)
    _, before = await current(service, game.id)
    await _play(service, game.id, first, lambda c: c.type == "choose_hero")
    second = await _owing(service, game.id)
    assert second != first
    clock.advance(hours=2)
    await _play(service, game.id, second, lambda c: c.type == "choose_hero")
    _, after_both = await current(service, game.id)

    asked = await _undo(service, first, game.channel_id)
    assert f"{'Blue' if second else 'Red'}** moved since" in asked.posts[0].text
    buttons = _undo_buttons(asked)
    with pytest.raises(NotSeated):  # a member without a seat may not answer
        await service.click(person(7), buttons["n"])
    refused = await service.click(person(second + 1), buttons["n"])
    assert "refused" in refused.posts[0].text and "nothing changed" in refused.posts[0].text
    _, unchanged = await current(service, game.id)
    assert Ruleset.dump_state(unchanged) == Ruleset.dump_state(after_both)
    assert await _undo_entries(repo, game.id) == []
    with pytest.raises(NothingToUndo, match="already answered"):
        await service.click(person(second + 1), buttons["y"])

    clock.advance(hours=1)
    owed = {(d.seat, d.kind): d.due_at for d in await repo.deadlines(game.id)}
    assert owed[(first, "turn")] == clock.now - timedelta(hours=1) + timedelta(hours=24)
    asked = await _undo(service, first, game.channel_id)
    done = await service.click(person(second + 1), _undo_buttons(asked)["y"])
    assert "took back their last move (with the moves after it" in done.posts[0].text
    _, restored = await current(service, game.id)
    assert _same_position(restored, before)
    assert len(await _undo_entries(repo, game.id)) == 2  # both choices, newest first
    deadlines = {(d.seat, d.kind): d.due_at for d in await repo.deadlines(game.id)}
    # the seat owing a decision again keeps the deadline it had; Blue owes nothing
    assert deadlines[(first, "turn")] == owed[(first, "turn")]
    assert (second, "turn") not in deadlines


async def test_a_request_lapses_when_the_game_moves_on(tmp_path: Path) -> None:
    repo, service, game = await _heroforge(tmp_path)
    try:
        first, second = await _both_choose_heroes(service, game.id)
        asked = await _undo(service, first, game.channel_id)
        await _play(service, game.id, await _owing(service, game.id))
        _, moved = await current(service, game.id)
        with pytest.raises(StaleState, match="lapsed"):
            await service.click(person(second + 1), _undo_buttons(asked)["y"])
        _, still = await current(service, game.id)
        assert Ruleset.dump_state(still) == Ruleset.dump_state(moved)
        assert await repo.undo_request(game.id) is None
    finally:
        await repo.close()


async def test_two_agreements_at_once_undo_one_move(tmp_path: Path) -> None:
    repo, service, game = await _heroforge(tmp_path)
    try:
        seat = await _roll(service, game.id)
        await _play(service, game.id, seat, lambda c: c.type == "roll_move")
        asked = await _undo(service, seat, game.channel_id)
        yes = _undo_buttons(asked)["y"]
        results = await asyncio.gather(
            service.click(person(2 - seat), yes),
            service.click(person(2 - seat), yes),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Outbox) for r in results) == 1
        assert all(isinstance(r, Outbox | StaleState | NothingToUndo) for r in results)
        assert len(await _undo_entries(repo, game.id)) == 1
    finally:
        await repo.close()


async def test_two_undos_typed_at_once_undo_one_move(tmp_path: Path) -> None:
    repo, service, game = await _heroforge(tmp_path)
    try:
        seat = await _to_buying(service, game.id)
        await _play(service, game.id, seat, lambda c: c.type == "buy_unit")
        await _play(service, game.id, seat, lambda c: c.type == "buy_unit")
        results = await asyncio.gather(
            _undo(service, seat, game.channel_id),
            _undo(service, seat, game.channel_id),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Outbox) for r in results) == 1
        assert any(isinstance(r, StaleState) for r in results)
        assert len(await _undo_entries(repo, game.id)) == 1
    finally:
        await repo.close()


async def test_the_undo_post_names_no_private_card(served: Served) -> None:
    """homm4:setup — Red chooses a Risk Stack from its Hand (private; no reveal: Red
    learns nothing new, so it is undone at once without Blue's consent), the cards go back
    to the Hand; the channel posts name none of them and Red's Hand DM is sent afresh."""
    service = served.service
    game = await started_game(service, humans=2, ai=0, seed=6)
    seat = await _owing(service, game.id)
    _, before = await current(service, game.id)
    await _play(service, game.id, seat, lambda c: c.type == "choose_risk_stack")
    done = await _undo(service, seat, game.channel_id)
    assert not _undo_buttons(done) and "took back their last move" in done.posts[0].text
    _, restored = await current(service, game.id)
    assert _same_position(restored, before)
    checker = ph.channel_checker(None, restored)
    for post in done.posts:
        assert checker.leaks(ph.post_texts(post)) == []
    hands = [dm for dm in done.dms if dm.slot == "hand" and dm.user_id == seat + 1]
    assert len(hands) == 1


async def test_the_seat_owing_again_gets_a_deadline_and_the_next_loses_its(served: Served) -> None:
    clock, repo, service = served
    game = await started_game(
        service, humans=2, ai=0, seed=11, ruleset="heroforge", deadline_hours=24
    )
    first = await _owing(service, game.id)
    await _play(service, game.id, first, lambda c: c.type == "choose_hero")
    second = await _owing(service, game.id)
    owed = {(d.seat, d.kind) for d in await repo.deadlines(game.id)}
    assert (second, "turn") in owed and (first, "turn") not in owed
    clock.advance(hours=3)
    out = await _undo(service, first, game.channel_id)  # nobody else acted: at once
    assert not _undo_buttons(out)
    deadlines = {(d.seat, d.kind): d.due_at for d in await repo.deadlines(game.id)}
    assert deadlines[(first, "turn")] == clock.now + timedelta(hours=24)
    assert (second, "turn") not in deadlines and (second, "reminder") not in deadlines
    assert f"<@{first + 1}>" in " ".join(p.text for p in out.posts)


async def _find(service: Any, game_id: int, revealing: bool) -> tuple[int, Command]:
    """Play the computer's choices until the seat owing a decision has a legal command
    that reveals hidden information (``revealing``) or one that does not; that seat and
    command (the engine decides, `Ruleset.reveals_hidden`)."""
    chooser = random.Random(5)
    for _ in range(200):
        game, state = await current(service, game_id)
        rules = get_ruleset(game.ruleset)
        seat = rules.pending(state)[0].seat
        for command in rules.legal_commands(state, seat):
            after, events = rules.apply(state, seat, command)
            if rules.reveals_hidden(state, seat, command, after, events) is revealing:
                return seat, command
        pick = rules.ai_command(state, seat, chooser)
        await _play(service, game_id, seat, pick.__eq__)
    raise AssertionError("no such command found")


@pytest.mark.parametrize("ruleset", ["homm4", "mmh", "homm3", "heroforge"])
async def test_every_ruleset_undoes_at_once_or_with_consent(tmp_path: Path, ruleset: str) -> None:
    repo, service = await make_service(tmp_path)
    moderator = person(9, moderator=True)
    try:
        game = await started_game(service, humans=2, ai=0, seed=4, ruleset=ruleset)
        for revealing in (False, True):
            seat, command = await _find(service, game.id, revealing)
            _, before = await current(service, game.id)
            await _play(service, game.id, seat, command.__eq__)
            out = await _undo(service, seat, game.channel_id)
            buttons = _undo_buttons(out)
            assert bool(buttons) is revealing
            if revealing:
                assert "hidden information came out" in out.posts[0].text
                out = await service.click(person(2 - seat), buttons["y"])
            assert "took back their last move" in out.posts[0].text
            _, after = await current(service, game.id)
            assert _same_position(after, before)
            checker = ph.channel_checker(None, after)
            for post in out.posts:
                assert checker.leaks(ph.post_texts(post)) == []
        verdict = await service.mod_verify(moderator, game.channel_id)
        assert "exactly the stored position" in verdict.posts[0].text
        assert len(await _undo_entries(repo, game.id)) == 2
    finally:
        await repo.close()
