"""A whole two-player homm4 game through the real discord.py bot and the fake Discord.

From ``/game new`` to the victory post: ann (DMs open) and cara (DMs closed: 403/50007)
play by clicking the buttons and select menus the bot sent them, or by typing slash
commands when no button offers the move (the AI helper chooses each move among the
engine's legal commands). On the way: hands by DM and the closed-DM fallback, scouting
and chip-in, battles, a moderator undo, a 429 retried, two people acting on one decision
at once, both players acting at once (one moves, the other is refused and sets her
standing orders), an old button refused with its reason, and a restart of the bot (a NEW bot,
service and database connections over the same file) after which the buttons sent before
it still work. After every action the driver checks that no public message or picture
named or showed a card of any Hand, Risk Stack or draw deck; at the end, the fake Discord
must have seen no broken limit and no acknowledgement later than 3 seconds.
"""

from __future__ import annotations

import re
import secrets
import statistics
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from engine.homm4 import RULESET as HOMM4
from storage.records import GameStatus
from tests.bot.discord_driver import Driver, gather_results, named_cards
from tests.bot.discord_helpers import (
    RecordingRenderer,
    Table,
    deleted_placeholders,
    heroes_bot,
    running_bot,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

SEED = 4
"""The game's seed: with the AI helper's choices, 98 moves covering every phase (purchase,
movement with scouting, chip-in, battles with counterattacks and surrender offers,
closing). If the engine's AI changes, pick another seed that still meets the
`check_coverage` assertions."""

MAX_STEPS = 600


def dm_closed_notices(table: Table) -> list[FakeMessage]:
    """The public notices telling cara her DMs are closed."""
    return [
        m
        for m in table.channel.public_messages()
        if "direct messages" in m.content and f"<@{table.cara.id}>" in m.content
    ]


async def play_until(
    driver: Driver, predicate: Callable[[], Awaitable[bool]], limit: int = MAX_STEPS
) -> None:
    """Play moves until ``await predicate()`` is true (fails after ``limit`` moves)."""
    for _ in range(limit):
        if await predicate():
            return
        await driver.step()
    raise AssertionError("the game never reached the expected moment")


@pytest.mark.slow
@pytest.mark.rule("homm4:victory")
async def test_a_two_player_game_from_new_to_the_victory(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)
    table = Table.create(fake_discord)
    renderer = RecordingRenderer()
    db = tmp_path / "heroes.db"

    async with running_bot(fake_discord, db, renderer=renderer) as runner:
        driver = Driver(table, heroes_bot(runner), renderer)
        await open_and_start(driver)
        await closed_dms_fall_back(driver)
        await play_until(driver, lambda: reached(driver, "identify"))
        await a_429_is_retried(driver)
        await moderator_undo(driver)
        await two_people_act_at_once(driver)
        await two_players_act_at_once(driver)
        await play_until(driver, lambda: reached(driver, "battle_act"))
        await a_double_click_lands_once(driver)
        message, custom_id = await await_a_button_for_the_next_move(driver)
        runner.assert_no_errors()

    # A restart: a new bot, a new service and new database connections on the same file.
    async with running_bot(fake_discord, db, renderer=renderer) as runner:
        driver.use(heroes_bot(runner))
        before, _ = await driver.state()
        who = await driver.user_of(HOMM4.pending(HOMM4.load_state(before.state_json or ""))[0].seat)
        await driver.click(who, message, custom_id)
        after, _ = await driver.state()
        assert after.version == before.version + 1, "the old button did not work after a restart"
        await play_until(driver, lambda: finished(driver))
        await the_end(driver)
        runner.assert_no_errors()

    check_coverage(driver)
    assert deleted_placeholders(fake_discord) == [], "a placeholder of the wrong visibility"
    fake_discord.assert_no_violations()
    report_latencies(driver)


async def reached(driver: Driver, kind: str) -> bool:
    """Whether the next decision is of ``kind``."""
    _, state = await driver.state()
    pending = HOMM4.pending(state)
    return bool(pending) and pending[0].kind == kind


async def finished(driver: Driver) -> bool:
    """Whether the game is over."""
    return (await driver.game()).status is not GameStatus.ACTIVE


async def open_and_start(driver: Driver) -> None:
    """ann opens the lobby, cara joins with its button, ann starts; hands go by DM."""
    table, fake = driver.table, driver.fake
    opened = await driver.slash(table.ann, "game new", where="here", players=2)
    assert any(m.ephemeral and "Game #1 is open" in m.content for m in opened.messages)
    lobby = next(m for m in table.channel.public_messages() if m.buttons())
    await driver.click(table.cara, lobby, lobby.find_component(label="Join")["custom_id"])
    assert "cara" in lobby.content and lobby.edits, "the lobby post is edited in place"
    started = await driver.slash(table.ann, "game start")
    assert started.response is not None and started.response.elapsed < 3
    hand_dms = [m for m in fake.dms(table.ann) if m.attachments]
    assert hand_dms and hand_dms[-1].attachments[0].filename == "hand.png"
    assert "your cards" in hand_dms[-1].content
    assert fake.dms(table.cara) == []
    notices = dm_closed_notices(table)
    assert len(notices) == 1 and "/hand" in notices[0].content
    assert named_cards(notices[0].content) == set()


async def closed_dms_fall_back(driver: Driver) -> None:
    """ann reads her hand with /hand in her DMs; cara's undelivered hand reaches her as an
    ephemeral message at her next interaction, /hand shows it again, and the channel is
    told only once."""
    table = driver.table
    in_dm = await driver.timed(
        table.ann,
        "/hand in DM",
        lambda: driver.fake.slash(table.ann, driver.fake.dm_channel(table.ann), "hand"),
    )
    assert any(a.filename == "hand.png" for m in in_dm.messages for a in m.attachments)
    shown = await driver.slash(table.cara, "hand")
    mine = [m for m in shown.messages if m.ephemeral and "your cards" in m.content]
    assert mine and all(m.ephemeral for m in shown.messages)
    assert any(a.filename == "hand.png" for m in mine for a in m.attachments)
    await play_until(driver, lambda: owes(driver, table.cara))
    await driver.step()
    assert len(dm_closed_notices(table)) == 1, "a closed DM is announced once"


async def owes(driver: Driver, user: FakeUser) -> bool:
    """Whether ``user`` owes the next decision."""
    _, state = await driver.state()
    return await driver.user_of(HOMM4.pending(state)[0].seat) is user


async def a_429_is_retried(driver: Driver) -> None:
    """Discord rate-limits the next channel post; discord.py waits and sends it again."""
    rule = driver.fake.rate_limit("POST", "/channels/{channel_id}/messages", times=1)
    posts = len(driver.channel.public_messages())
    for _ in range(20):
        await driver.step()
        if rule.served:
            break
    assert rule.served == 1 and rule.retried
    assert len(driver.channel.public_messages()) > posts


async def moderator_undo(driver: Driver) -> None:
    """A moderator undoes the last move: the position is the one before it, the version
    goes on, the channel is told, and the game continues."""
    table = driver.table
    before_move, state_before = await driver.state()
    await driver.step()
    moved, _ = await driver.state()
    await driver.slash(table.mod, "mod undo", reason="misclick")
    undone, state_undone = await driver.state()
    assert undone.version == moved.version + 1
    same = state_undone.model_copy(update={"version": state_before.version})
    assert HOMM4.dump_state(same) == HOMM4.dump_state(state_before)
    assert any("misclick" in m.content for m in table.channel.public_messages()[-3:])
    log = await driver.slash(table.mod, "game log")
    assert any("undo" in m.content.lower() for m in log.messages)
    assert before_move.version < undone.version


async def two_people_act_at_once(driver: Driver) -> None:
    """At ann's Closing decision, ann clicks her button while a moderator skips her
    decision: exactly one lands, the other is told why."""
    table = driver.table
    await play_until(driver, lambda: reached_for(driver, "closing", table.ann))
    game, state = await driver.state()
    index, command = driver.choose(state, 0)
    control = driver.find_control(table.ann, game, state, index, command)
    assert control is not None and control[2] is None, "ann has no Closing button"
    message, custom_id, _ = control
    fake = driver.fake
    click, skip = await gather_results(
        fake.click(table.ann, message, custom_id, wait=False),
        fake.send_slash(table.mod, table.channel, "mod skip", seat="Red"),
    )
    await click.wait_response()
    await skip.wait_response()
    await driver.bot.wait_idle()
    after, _ = await driver.state()
    assert after.version == game.version + 1, "exactly one of the two actions lands"
    texts = [m.content for r in (click, skip) for m in r.messages if m.ephemeral]
    reasons = [t for t in texts if "someone has moved since" in t or "no longer owes" in t]
    assert len(reasons) == 1, texts
    winner = "the moderator's skip" if "someone has moved since" in reasons[0] else "ann's click"
    print(f"\nrace: {winner} landed; the other was told: {reasons[0]!r}")


async def two_players_act_at_once(driver: Driver) -> None:
    """Both players at once on one game: ann clicks her move while cara types a Closing
    move (not hers to make, before or after ann's) and sets her standing orders. ann's move
    lands, cara's move is refused with the reason, her orders are saved, and every interaction is acknowledged
    in time; nothing public names a private card."""
    table, fake = driver.table, driver.fake
    for _ in range(MAX_STEPS):
        game, state = await driver.state()
        decision = HOMM4.pending(state)[0]
        if await driver.user_of(decision.seat) is table.ann:
            index, command = driver.choose(state, decision.seat)
            control = driver.find_control(table.ann, game, state, index, command)
            if control is not None and control[2] is None:
                break
        await driver.step()
    else:
        raise AssertionError("ann never had a button for her move")
    message, custom_id, _ = control
    click, move, orders = await gather_results(
        fake.click(table.ann, message, custom_id, wait=False),
        fake.send_slash(table.cara, table.channel, "turn close", card="#1"),
        fake.send_slash(table.cara, table.channel, "battle orders", counter="always"),
    )
    for result in (click, move, orders):
        await result.wait_response()
        assert result.response is not None and result.response.elapsed < 3
    await driver.bot.wait_idle()
    after, state_after = await driver.state()
    assert after.version == game.version + 1, "ann's move lands exactly once"
    refused = [m.content for m in move.messages if m.ephemeral]
    # Before ann's move it is not cara's turn; after it, her turn begins with other Phases.
    reasons = ("It is not your turn", "/turn close does not answer what you owe now")
    assert len(refused) == 1 and refused[0].startswith(reasons), refused
    print(f"\nboth players: ann's move landed; cara was told: {refused[0][:60]!r}…")
    saved = [m.content for m in orders.messages if m.ephemeral]
    assert any("counter: always" in t for t in saved), saved
    assert await driver.bot.service.repo.standing_orders(game.id) == {1: {"counter": "always"}}
    driver.check_channel(state, state_after)
    cleared = await driver.slash(table.cara, "battle orders", counter="ask")
    assert any("none" in m.content for m in cleared.messages)
    assert await driver.bot.service.repo.standing_orders(game.id) in ({}, {1: {}})


async def reached_for(driver: Driver, kind: str, user: FakeUser) -> bool:
    """Whether ``user`` owes the next decision and it is of ``kind``."""
    return await reached(driver, kind) and await owes(driver, user)


async def a_double_click_lands_once(driver: Driver) -> None:
    """The same button clicked twice at once: one click moves, the other is refused as
    sent for an older position — and an old button stays refused (in the channel the
    buttons are taken off the post: a click that still arrives is refused)."""
    for _ in range(MAX_STEPS):
        game, state = await driver.state()
        decision = HOMM4.pending(state)[0]
        who = await driver.user_of(decision.seat)
        index, command = driver.choose(state, decision.seat)
        control = driver.find_control(who, game, state, index, command)
        if control is not None and control[2] is None:
            break
        await driver.step()
    else:
        raise AssertionError("no button to double-click")
    message, custom_id, _ = control
    first, second = await gather_results(
        driver.fake.click(who, message, custom_id, wait=False),
        driver.fake.click(who, message, custom_id, wait=False),
    )
    for result in (first, second):
        await result.wait_response()
    await driver.bot.wait_idle()
    after, _ = await driver.state()
    assert after.version == game.version + 1
    refused = [m.content for r in (first, second) for m in r.messages if m.ephemeral]
    assert any("someone has moved since" in t for t in refused), refused
    if custom_id in _custom_ids(message.components):  # a DM or a reply keeps its buttons
        again = await driver.click(who, message, custom_id)
    else:  # the panel shows the next decision now; a click dispatched before the edit is late
        shown = next(
            edit["components"]
            for edit in reversed([*message.edits, {"components": message.components}])
            if custom_id in _custom_ids(edit.get("components") or [])
        )
        again = await driver.late_click(who, message, custom_id, shown)
    assert any("someone has moved since" in m.content for m in again.messages)


def _custom_ids(components: list[dict[str, Any]]) -> set[str]:
    """Every custom_id in a message's component tree (rows, containers, sections)."""
    found: set[str] = set()
    for component in components:
        if "custom_id" in component:
            found.add(component["custom_id"])
        for key in ("components", "accessory"):
            child = component.get(key)
            if isinstance(child, dict):
                found |= _custom_ids([child])
            elif isinstance(child, list):
                found |= _custom_ids(child)
    return found


async def await_a_button_for_the_next_move(driver: Driver) -> tuple[FakeMessage, str]:
    """Play on until the next move is offered by a button; return it (for the restart)."""
    for _ in range(MAX_STEPS):
        game, state = await driver.state()
        decision = HOMM4.pending(state)[0]
        who = await driver.user_of(decision.seat)
        index, command = driver.choose(state, decision.seat)
        control = driver.find_control(who, game, state, index, command)
        if control is not None and control[2] is None:
            driver.kinds.append(decision.kind)
            driver.commands.append(command.type)
            return control[0], control[1]
        await driver.step()
    raise AssertionError("no button for the next move")


async def the_end(driver: Driver) -> None:
    """The victory is announced; status, log and verify still answer after the end."""
    table = driver.table
    game, state = await driver.state()
    assert game.status is GameStatus.FINISHED and state.phase == "over"
    assert any("The game is over" in m.content for m in table.channel.public_messages()[-3:])
    status = await driver.slash(table.bob, "game status")
    assert status.messages
    verify = await driver.slash(table.mod, "mod verify")
    assert verify.messages
    assert any("exactly the stored position" in m.content for m in table.channel.public_messages())


def check_coverage(driver: Driver) -> None:
    """What the game went through (so the seed keeps testing what it should)."""
    kinds = set(driver.kinds)
    for kind in (
        "purchase",
        "movement",
        "identify",
        "reinforce_guard",
        "battle_deploy",
        "battle_act",
        "closing",
    ):
        assert kind in kinds, f"the game never met a {kind} decision"
    assert driver.clicks >= 20 and driver.slashes >= 10
    posted = "\n".join(m.content for m in driver.channel.public_messages())
    for moment in ("sights an unidentified", "Chipping in for the Guard at", "Battle at"):
        assert moment in posted, f"the channel never read {moment!r}"
    assert re.search(r"wins the battle at [A-M]\d+", posted), "no battle was won"
    assert driver.checked_images >= 20 and driver.checked_messages >= 50


def report_latencies(driver: Driver) -> None:
    """Print acknowledgement and completion times (pytest -s shows them)."""
    acks = [a.ack_ms for a in driver.actions]
    dones = [a.done_ms for a in driver.actions]
    assert max(acks) < 3000
    print(
        f"\n{len(acks)} interactions: ack median {statistics.median(acks):.1f} ms, "
        f"max {max(acks):.1f} ms; delivered median {statistics.median(dones):.1f} ms, "
        f"p95 {sorted(dones)[int(0.95 * len(dones))]:.1f} ms, max {max(dones):.1f} ms"
    )
