"""Buttons and selects: versioned custom ids, stale clicks, two actions at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import customids
from bot.errors import NotSeated, WrongStage
from bot.outbox import Button, Select
from engine.core.errors import InvalidInput, NotYourDecision, RuleViolation, StaleState
from engine.homm4 import RULESET as HOMM4
from storage.records import GameStatus
from tests.bot.service_helpers import (
    choose,
    click_choice,
    current,
    make_service,
    option_id,
    person,
    started_game,
)


def test_custom_ids_round_trip_and_stay_within_discords_limit() -> None:
    text = customids.encode(123456789, 4242, "opt", "1z.ab12c")
    assert len(text) <= customids.MAX_LENGTH
    decoded = customids.decode(text)
    assert (decoded.game_id, decoded.version, decoded.action, decoded.args) == (
        123456789,
        4242,
        "opt",
        ("1z.ab12c",),
    )
    assert customids.read_option_token("1z.ab12c") == (71, "ab12c")
    with pytest.raises(customids.CustomIdError):
        customids.decode("somebody-else:button")
    with pytest.raises(ValueError, match="forbidden"):
        customids.encode(1, 1, "opt", "a:b")
    with pytest.raises(ValueError, match="limit"):
        customids.encode(1, 1, "opt", "x" * 100)


async def test_an_old_button_says_why_it_no_longer_applies(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=3)
        row, state = await current(service, game.id)
        index, command = choose(state, 0)
        old = option_id(row, state, index, command)
        await service.click(person(1), old)
        with pytest.raises(StaleState, match=f"sent for move {state.version}") as refused:
            await service.click(person(1), old)
        assert "someone has moved since" in refused.value.message
    finally:
        await repo.close()


async def test_two_clicks_at_once_exactly_one_lands(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=4)
        row, state = await current(service, game.id)
        index, command = choose(state, 0)
        button = option_id(row, state, index, command)
        results = await asyncio.gather(
            service.click(person(1), button),
            service.click(person(1), button),
            return_exceptions=True,
        )
        landed = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(landed) == 1 and len(refused) == 1
        assert isinstance(refused[0], StaleState)
        log = await repo.read_log_unredacted(game.id, limit=1000)
        mine = [e for e in log.entries if e.seat == 0 and e.actor_user_id == 1]
        assert len(mine) == 1
    finally:
        await repo.close()


async def test_two_commands_at_once_one_lands_the_other_gets_the_reason(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=6)
        for _ in range(200):
            row, state = await current(service, game.id)
            if state.phase == "purchase" and HOMM4.pending(state)[0].seat == 0:
                break
            await click_choice(service, game.id, person(1), 0)
        else:
            pytest.fail("no Purchase Phase reached")
        done = ("purchase", "done")
        results = await asyncio.gather(
            service.run(person(1), done, {}, channel_id=row.channel_id),
            service.run(person(1), done, {}, channel_id=row.channel_id),
            return_exceptions=True,
        )
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(refused) == 1
        assert isinstance(refused[0], RuleViolation | WrongStage)
        reasons = (
            "cannot be done now",
            "not your turn",
            "does not answer what you owe now",
            "Your earlier command already moved the game",
        )
        assert any(reason in refused[0].message for reason in reasons)
    finally:
        await repo.close()


async def test_clicks_are_checked_against_the_seat_and_the_choice(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=2, ai=0, seed=8)
        row, state = await current(service, game.id)
        owed = HOMM4.pending(state)[0].seat
        other = 2 if owed == 0 else 1
        index, command = choose(state, owed)
        button = option_id(row, state, index, command)
        with pytest.raises(NotSeated):
            await service.click(person(42), button)
        with pytest.raises(NotYourDecision):
            await service.click(person(other), button)
        wrong = customids.encode(
            row.id, state.version, "opt", customids.option_token(index, '{"type":"x"}')
        )
        with pytest.raises(InvalidInput, match="no longer matches"):
            await service.click(person(owed + 1), wrong)
        with pytest.raises(customids.CustomIdError):
            await service.click(person(1), customids.encode(row.id, state.version, "explode"))
    finally:
        await repo.close()


async def test_every_component_offered_in_a_game_fits_discords_limits(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=12)
        seen = 0
        for _ in range(400):
            row, _ = await current(service, game.id)
            if row.status is not GameStatus.ACTIVE:
                break
            out = await click_choice(service, game.id, person(1), 0)
            parts = [*out.posts, *out.dms, *([out.reply] if out.reply else [])]
            for part in parts:
                assert len(part.text) <= 2000
                assert sum(isinstance(c, Select) for c in part.components) <= 5
                ids = [c.custom_id for c in part.components]
                assert len(ids) == len(set(ids)), "custom ids repeat within one message"
                for component in part.components:
                    seen += 1
                    assert len(component.custom_id) <= 100
                    customids.decode(component.custom_id)
                    if isinstance(component, Button):
                        assert 1 <= len(component.label) <= 80
                    else:
                        assert 1 <= len(component.options) <= 25
                        assert all(
                            len(o.label) <= 100 and len(o.value) <= 100 for o in component.options
                        )
                        assert all(len(o.description) <= 100 for o in component.options)
                        assert len(component.placeholder) <= 150
        assert seen > 20
    finally:
        await repo.close()
