"""mmh through the GameService: the lobby with its options, a whole game played by typed
``/mmh`` commands against the computer, hand and status texts, refusals, privacy of the
channel buttons."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest

from bot.errors import BadOption, WrongStage
from bot.mmh.commands import slash_for
from engine.mmh import RULESET as MMH
from engine.mmh.state import MmhState
from storage.records import GameStatus
from tests.bot.service_helpers import CHANNEL, GUILD, current, make_service, person, started_game

_open = partial(started_game, ruleset="mmh", seed=5)
"""Open an mmh game of person 1 against the computer and start it."""


@pytest.mark.rule("mmh:game-setup")
async def test_the_lobby_takes_mmh_options(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        with pytest.raises(BadOption, match="map-sections is not an option"):
            await service.new_game(person(1), CHANNEL, ruleset="mmh", map_sections=5)
        out = await service.new_game(
            person(1), CHANNEL, ruleset="mmh", length="quick", factions="Stronghold, haven"
        )
        assert "quick game" in out.posts[0].text and "stronghold" in out.posts[0].text
        await service.add_ai(person(1), CHANNEL, count=1)
        await service.start(person(1), CHANNEL)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        _, state = await current(service, game.id)
        assert [s.faction for s in state.seats] == ["stronghold", "haven"]
        assert len(state.week_stack) == 9
    finally:
        await repo.close()


@pytest.mark.slow
@pytest.mark.rule("mmh:game-end")
async def test_a_whole_game_by_typed_commands(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await _open(service, length="quick")
        rng = random.Random(3)
        kinds: set[str] = set()
        typed = 0
        for _ in range(4000):
            game, state = await current(service, game.id)
            if game.status is not GameStatus.ACTIVE:
                break
            pending = MMH.pending(state)
            assert pending and pending[0].seat == 0, "the computer answers its own decisions"
            kinds.add(pending[0].kind)
            command = MMH.ai_command(state, 0, rng)
            path, options = slash_for(command)
            out = await service.run(person(1), path, options, channel_id=CHANNEL, guild_id=GUILD)
            typed += 1
            assert out.reply is not None and out.reply.text.startswith("✅"), (command, out.reply)
        game, state = await current(service, game.id)
        assert game.status is GameStatus.FINISHED and MMH.result(state).finished
        assert {"place_capital", "choose_hero", "play_action", "action_hero"} <= kinds
        assert any(k.startswith("battle_") for k in kinds)
        assert typed > 40
    finally:
        await repo.close()


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
async def test_hand_names_scrolls_status_does_not(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await _open(service, factions="haven, necropolis")
        rng = random.Random(1)
        for _ in range(40):
            game, state = await current(service, game.id)
            pending = MMH.pending(state)
            if pending[0].seat != 0 or state.phase == "play":
                break
            path, options = slash_for(MMH.ai_command(state, 0, rng))
            await service.run(person(1), path, options, channel_id=CHANNEL, guild_id=GUILD)
        game, state = await current(service, game.id)
        hero = state.heroes[state.seats[0].heroes[0]]
        hero.scrolls.append(state.scroll_deck.pop(0))
        from bot.mmh.adapter import MmhAdapter

        adapter = MmhAdapter()
        name = MMH.public_view(state).heroes[0].name
        text = adapter.hand_text(state, 0, game_id=game.id, channel_id=CHANNEL)
        from engine.mmh.content import load_content

        scroll_name = load_content().card_name(hero.scrolls[-1])
        assert scroll_name in text
        lines = "\n".join(adapter.status_lines(MMH.public_view(state), {0: "Ann", 1: "AI"}))
        assert scroll_name not in lines and name in lines
        with pytest.raises(WrongStage, match="does not answer what you owe now"):
            await service.run(
                person(1), ("mmh", "battle", "fight"), {}, channel_id=CHANNEL, guild_id=GUILD
            )
    finally:
        await repo.close()


async def test_card_in_an_mmh_channel_shows_mmh_cards(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await _open(service)
        out = await service.card(person(1), CHANNEL, name="Arcane Bolt")
        assert out.reply is not None and "Primal Magic" in out.reply.text
        suggestions = await service.autocomplete(
            person(1), ("card",), "name", "ravenous", channel_id=CHANNEL
        )
        assert suggestions and suggestions[0][1] == "ghoul"
    finally:
        await repo.close()


@pytest.mark.rule("mmh:course-of-play")
async def test_moderator_skip_undo_verify_and_a_restart(tmp_path: Path) -> None:
    mod = person(77, moderator=True)
    repo, service = await make_service(tmp_path)
    try:
        game = await _open(service)
        _, state = await current(service, game.id)
        expected = MMH.default_command(state, 0)
        out = await service.mod_skip(mod, CHANNEL, reason="asleep")
        assert "skipped Red's decision" in out.posts[0].text
        _, after = await current(service, game.id)
        assert after.version > state.version
        await service.mod_undo(mod, CHANNEL, reason="oops")
        verdict = await service.mod_verify(mod, CHANNEL)
        assert "exactly the stored position" in verdict.posts[0].text
        assert expected.type in ("place_capital", "place_tile", "choose_hero")
    finally:
        await repo.close()
    repo, service = await make_service(tmp_path)  # a new process on the same database
    try:
        await service.recover()
        game2, state2 = await current(service, game.id)
        assert game2.status is GameStatus.ACTIVE and MMH.pending(state2)
        status = await service.status(person(1), CHANNEL)
        assert status.posts or status.reply
    finally:
        await repo.close()


ALL_ORDERS = {
    "attack": "weakest",
    "cards": "never",
    "retreat": "never",
    "assign": "cheapest",
    "luck": "never",
    "angel": "always",
}


@pytest.mark.slow
@pytest.mark.rule("mmh:course-of-play.battles")
async def test_standing_orders_fight_mmh_battles_without_asking(tmp_path: Path) -> None:
    from storage.records import LogKind

    repo, service = await make_service(tmp_path)
    try:
        game = await _open(service, length="quick")
        with pytest.raises(BadOption, match="retreat orders are one of"):
            await service.set_orders(person(1), CHANNEL, retreat="sometimes")
        shown = await service.set_orders(person(1), CHANNEL)
        assert shown.reply is not None
        assert "Set one with /mmh battle orders and any of: attack ask|weakest|strongest" in (
            shown.reply.text
        )
        out = await service.run(
            person(1), ("mmh", "battle", "orders"), ALL_ORDERS, channel_id=CHANNEL, guild_id=GUILD
        )
        assert out.reply is not None and "cards: never" in out.reply.text
        rng = random.Random(3)
        asked: set[str] = set()
        for _ in range(4000):
            game, state = await current(service, game.id)
            if game.status is not GameStatus.ACTIVE:
                break
            owed = MMH.pending(state)[0]
            assert owed.seat == 0
            asked.add(owed.kind)
            path, options = slash_for(MMH.ai_command(state, 0, rng))
            await service.run(person(1), path, options, channel_id=CHANNEL, guild_id=GUILD)
        assert game.status is GameStatus.FINISHED
        # only Honor (a decision before the battle) is ever asked in a battle
        assert {k for k in asked if k.startswith("battle_")} <= {"battle_honor"}
        log = await repo.read_log_unredacted(game.id, limit=1000)
        ordered = {
            e.command["type"]
            for e in log.entries
            if e.kind is LogKind.COMMAND and e.seat == 0 and e.reason == "standing orders"
        }
        assert "attack" in ordered and ordered <= {
            "attack",
            "pass_window",
            "fight_on",
            "assign",
            "luck",
            "angel",
            "laurel",
        }
    finally:
        await repo.close()


@pytest.mark.rule("mmh:course-of-play.battles")
def test_orders_decide_from_public_facts_only() -> None:
    """A hero's turn under ``attack`` orders is still asked while he holds a scroll,
    whichever it is (a usable one or not), so the orders tell the table nothing."""
    from bot.mmh.adapter import order_command
    from engine.mmh.commands import Attack, PassWindow
    from tests.mmh.helpers import activate, at, fixed_board, new_game, place_encounter, set_army

    def at_turn(scrolls: list[str]) -> MmhState:
        state = new_game(2, factions=("necropolis", "haven"), heroes=("orson", "laszlo"))
        fixed_board(state)
        set_army(state, "orson", [("skeleton", False)] * 3)
        for card in scrolls:
            state.scroll_deck.remove(card)
        state.heroes["orson"].scrolls = list(scrolls)
        place_encounter(state, at(state, "D3"), 5)
        state.heroes["orson"].space = at(state, "C3")
        activate(state, "orson")
        state, _ = MMH.apply(state, 0, {"type": "move", "to": "D3"})
        while MMH.pending(state)[0].kind != "battle_turn":
            owed = MMH.pending(state)[0]
            assert order_command(state, 0, owed, {"cards": "windows"}) == PassWindow()
            state, _ = MMH.apply(state, 0, {"type": "pass_window"})
        return state

    for scroll in ("weakness", "unholy_word"):  # usable In Battle / not (level 3, Magic 2)
        state = at_turn([scroll])
        owed = MMH.pending(state)[0]
        assert owed.prompt == "Red: [0] Orson attacks."
        assert order_command(state, 0, owed, {"attack": "weakest"}) is None
        assert order_command(state, 0, owed, {"attack": "weakest", "cards": "never"}) == Attack(
            elite=False
        )


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_new_choices_are_buttons_in_the_channel(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.mmh.adapter import MmhAdapter
    from engine.mmh import gains
    from tests.mmh.helpers import (
        activate,
        at,
        fixed_board,
        new_game,
        place_encounter,
        scripted_dice,
        set_army,
    )

    adapter = MmhAdapter()

    def labels(state: MmhState, seat: int) -> list[str]:
        owed = MMH.pending(state)[0]
        legal = MMH.legal_commands(state, seat)
        ui = adapter.decision_ui(state, seat, owed, 1, legal, MMH.default_command(state, seat))
        assert not ui.private
        found: list[str] = []
        for component in ui.components:
            found += [o.label for o in getattr(component, "options", ())]
            if getattr(component, "label", None):
                found.append(component.label)
        return found

    # passing an unguarded Sawmill: take it or leave it
    state = new_game(2, heroes=("laszlo", "orson"))
    fixed_board(state)
    state.heroes["laszlo"].space = at(state, "B2")
    activate(state, "laszlo")
    state, _ = MMH.apply(state, 0, {"type": "move", "to": "C2"})
    assert labels(state, 0) == ["Take control of C2", "Leave C2 as it is"]
    # Leadership dropped: which creatures go back
    hero = state.heroes["laszlo"]
    state.queue = []
    state.artefact_deck.remove("legion_helm")
    gains.take_artefact(state, hero, "legion_helm")
    set_army(state, "laszlo", [("sentinel", True)] * 4 + [("crossbowman", False)] * 4)
    gains.lose_artefact(state, hero, "legion_helm")
    state.artefact_discard.append("legion_helm")
    # the default first: basic before elite (a basic Crossbowman before a Praetorian)
    assert labels(state, 0) == ["Send back Crossbowman", "Send back Praetorian"]
    # the encounter's controller and the elite die; the Guardian Angel
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    state.seats[0].buildings.append("guardian_angel_shrine")
    set_army(state, "laszlo", [("sentinel", False)] * 4)
    place_encounter(state, at(state, "D3"), 9)  # Deserters: elite symbol
    state.heroes["laszlo"].space = at(state, "C3")
    activate(state, "laszlo")
    state, _ = MMH.apply(state, 0, {"type": "move", "to": "D3"})
    assert labels(state, 1) == ["Attack with the elite die", "Attack without the elite die"]
    with scripted_dice(monkeypatch, [1, 8, 3]):
        state, _ = MMH.apply(state, 1, {"type": "attack", "elite": True})
    assert labels(state, 0) == [
        "Call the Guardian Angel: ignore the elite die's damage",
        "Take the damage, keep the Angel for later",
    ]


@pytest.mark.rule("mmh:course-of-play.playing-action-cards")
async def test_an_mmh_turn_has_a_deadline_a_reminder_and_a_moderator_call(tmp_path: Path) -> None:
    from datetime import timedelta

    from storage.records import GuildSettings
    from tests.bot.service_helpers import FakeClock

    clock = FakeClock()
    repo, service = await make_service(tmp_path, clock=clock)
    try:
        await repo.save_guild_settings(GuildSettings(GUILD, 4321, timedelta(hours=8), None))
        game = await _open(service)
        _, state = await current(service, game.id)
        assert MMH.pending(state)[0].seat == 0  # the computer has answered its own part
        deadlines = {d.kind: d.due_at for d in await repo.deadlines(game.id)}
        assert deadlines["turn"] == clock.now + timedelta(hours=8)
        reminder = await service.due_reminders(clock.advance(hours=6, minutes=1))
        assert len(reminder.posts) == 1 and reminder.posts[0].mention_user_ids == (1,)
        passed = await service.due_reminders(clock.advance(hours=2))
        assert len(passed.posts) == 1
        assert "has run out" in passed.posts[0].text and "/mod skip" in passed.posts[0].text
        assert passed.posts[0].mention_role_ids == (4321,)
    finally:
        await repo.close()
