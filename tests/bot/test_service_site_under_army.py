"""An Army standing on an icon identifies it (e.g. the starting Army token placed on an
edge hex that carries an Object icon): the engine forms the Guard and the battle begins on
that hex at once. The bot shows it like any battle: the mover's reply says the Army never
left, the channel gets the battle line, the board picture and the deployment prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.homm4.commands import slash_for
from bot.outbox import Outbox
from bot.service import GameService
from engine.homm4 import RULESET as HOMM4
from engine.homm4 import board, zones
from engine.homm4 import commands as c
from engine.homm4.state import Homm4State, ScoutOffer
from tests.bot.service_helpers import (
    RecordingRenderer,
    click_choice,
    current,
    make_service,
    option_id,
    person,
    started_game,
)

RED = person(1)


async def _play(service: GameService, game_id: int, command: c.Command) -> Outbox:
    game, state = await current(service, game_id)
    index = HOMM4.legal_commands(state, 0).index(command)
    return await service.click(RED, option_id(game, state, index, command))


async def _red_owes(service: GameService, game_id: int, kind: str) -> Homm4State | None:
    for _ in range(60):
        _, state = await current(service, game_id)
        owed = HOMM4.pending(state)[0]
        if owed.seat == 0 and owed.kind == kind:
            return state
        if owed.seat == 0 and owed.kind in ("movement", "closing", "purchase"):
            return None
        await click_choice(service, game_id, RED, 0)
    return None


async def _fight_under_the_army(
    service: GameService, renderer: RecordingRenderer, seed: int
) -> bool:
    game = await started_game(service, seed=seed)
    state = await _red_owes(service, game.id, "place_army")
    if state is None:
        return False
    places = [
        cmd
        for cmd in HOMM4.legal_commands(state, 0)
        if isinstance(cmd, c.PlaceArmy)
        and (site := zones.site_at(state, board.parse_hex(state, cmd.hex))) is not None
        and site.card is None
    ]
    if not places:
        return False
    await _play(service, game.id, places[0])
    under = board.parse_hex(state, places[0].hex)
    state = await _red_owes(service, game.id, "movement")
    if state is None:
        return False
    for move in (m for m in HOMM4.legal_commands(state, 0) if isinstance(m, c.Move)):
        after, _ = HOMM4.apply(state, 0, move)
        head = after.interrupts[0] if after.interrupts else None
        if isinstance(head, ScoutOffer) and after.sites[head.site].hex == under:
            break
    else:
        return False
    path, options = slash_for(move)
    moved = await service.run(RED, path, options, channel_id=game.channel_id)
    where = board.label(state, under)
    assert moved.reply is not None and f"is at {where}" in moved.reply.text.splitlines()[0]
    _, state = await current(service, game.id)
    identify = [
        cmd
        for cmd in HOMM4.legal_commands(state, 0)
        if isinstance(cmd, c.Identify) and cmd.site == where
    ]
    if not identify:
        return False
    out = await _play(service, game.id, identify[0])
    for _ in range(5):
        _, state = await current(service, game.id)
        owed = HOMM4.pending(state)[0]
        if state.battle is not None or owed.kind != "reinforce_guard":
            break
        out = await _play(service, game.id, HOMM4.default_command(state, 0))
    if state.battle is None:
        return False  # no Guard (e.g. a free Town): captured at once, no battle to show
    assert state.battle.hex == under and state.battle.attacker == 0
    texts = "\n".join(post.text for post in out.posts)
    assert f"Battle at {where}: Red attacks the Guard" in texts
    assert f"Red must deploy for the battle at {where}" in texts
    assert any(image.filename == "board.png" for post in out.posts for image in post.images)
    assert [kind for kind, _ in renderer.shown[-2:]] == ["board", "board-focus"]
    return True


@pytest.mark.rule("homm4:chipping-in-for-the-guard")
async def test_an_army_on_the_icon_it_identifies_fights_the_guard_there_at_once(
    tmp_path: Path,
) -> None:
    for seed in range(1, 30):
        renderer = RecordingRenderer()
        repo, service = await make_service(tmp_path / f"s{seed}", renderer=renderer)
        try:
            if await _fight_under_the_army(service, renderer, seed):
                return
        finally:
            await repo.close()
    pytest.fail("no seed put Red's Army on an icon it could identify and fight")
