"""Refusals a new player meets, each saying what is allowed instead: a command of another
phase names the decision owed and the commands answering it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import WrongStage
from engine.homm4 import RULESET as HOMM4
from tests.bot.service_helpers import (
    GUILD,
    click_choice,
    current,
    make_service,
    person,
    started_game,
)


async def _until_movement(service, game_id: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        _, state = await current(service, game_id)
        owed = HOMM4.pending(state)[0]
        if owed.seat == 0 and owed.kind == "movement":
            return
        await click_choice(service, game_id, person(1), 0)
    pytest.fail("Red never reached a Movement Phase")


@pytest.mark.parametrize(
    ("path", "options"),
    [
        (("battle", "attack"), {"target": "3"}),
        (("purchase", "buy"), {"card": "#9"}),
        (("turn", "close"), {}),
    ],
)
async def test_a_command_of_another_phase_names_what_is_owed_and_what_answers_it(
    tmp_path: Path, path: tuple[str, ...], options: dict[str, str]
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=5)
        await _until_movement(service, game.id)
        with pytest.raises(WrongStage) as refused:
            await service.run(person(1), path, options, channel_id=game.channel_id, guild_id=GUILD)
        text = refused.value.message
        assert text.startswith(f"/{' '.join(path)} does not answer what you owe now: ")
        assert "Movement Phase" in text and "/army move" in text and "/army done" in text
        assert "/battle attack, " not in text
    finally:
        await repo.close()


@pytest.mark.rule("homm4:movement-phase.scouting-terrain")
async def test_a_move_stopped_by_scouting_says_where_the_army_is(tmp_path: Path) -> None:
    from bot.homm4.commands import slash_for
    from engine.homm4 import board, zones
    from engine.homm4 import commands as c
    from engine.homm4.state import ScoutOffer

    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=7)
        for _ in range(300):
            await _until_movement(service, game.id)
            _, state = await current(service, game.id)
            for move in (m for m in HOMM4.legal_commands(state, 0) if isinstance(m, c.Move)):
                after, _ = HOMM4.apply(state, 0, move)
                head = after.interrupts[0] if after.interrupts else None
                at = board.label(after, zones.army(after, move.army).hex)
                if isinstance(head, ScoutOffer) and at != move.to:
                    break
            else:
                await click_choice(service, game.id, person(1), 0)
                continue
            break
        else:
            pytest.fail("no move of Red was ever stopped by scouting")
        path, options = slash_for(move)
        out = await service.run(person(1), path, options, channel_id=game.channel_id)
        assert out.reply is not None
        first = out.reply.text.splitlines()[0]
        assert first.startswith(f"✅ Move Army {move.army} to {move.to}")
        assert first.endswith(
            f" — Army {move.army} is at {at}: an unidentified icon came into sight; scout it, then move again."
        )
    finally:
        await repo.close()


@pytest.mark.rule("homm4:closing-phase")
async def test_turn_close_without_a_card_lists_the_hand_cards_to_choose_from(
    tmp_path: Path,
) -> None:
    from bot.errors import BadOption

    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=5)
        for _ in range(300):
            _, state = await current(service, game.id)
            owed = HOMM4.pending(state)[0]
            if owed.seat == 0 and owed.kind == "closing" and state.players_state[0].hand:
                break
            await click_choice(service, game.id, person(1), 0)
        else:
            pytest.fail("Red never reached a Closing Phase with cards in Hand")
        with pytest.raises(BadOption) as refused:
            await service.run(person(1), ("turn", "close"), {}, channel_id=game.channel_id)
        text = refused.value.message
        assert text.startswith("Name the Hand card to put into your Risk Stack with card: (")
        assert all(f"#{card}" in text for card in state.players_state[0].hand)
        assert "close_turn" not in text
    finally:
        await repo.close()


async def test_a_move_after_the_game_ended_says_it_is_over(tmp_path: Path) -> None:
    """A command in a channel whose game has ended says which game ended and where it can
    still be seen, instead of claiming the channel never had one."""
    from bot.errors import NoGameHere
    from tests.bot.service_helpers import CHANNEL

    repo, service = await make_service(tmp_path)
    try:
        with pytest.raises(NoGameHere, match="There is no game in this channel"):
            await service.run(person(1), ("turn", "close"), {}, channel_id=CHANNEL, guild_id=GUILD)
        game = await started_game(service, humans=1, ai=1, seed=11)
        await service.mod_end(person(99, moderator=True), CHANNEL, reason="test")
        with pytest.raises(NoGameHere) as refused:
            await service.run(person(1), ("turn", "close"), {}, channel_id=CHANNEL, guild_id=GUILD)
        assert refused.value.message == (
            f"Game #{game.id} in this channel was ended; /game status and /game log still show "
            "it. Start a new one with /game new."
        )
        await service.status(person(1), CHANNEL)  # still shown
    finally:
        await repo.close()
