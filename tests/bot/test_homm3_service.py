"""homm3 through the GameService: the lobby with its options, a whole Adventure played by
typed ``/homm3`` commands against the computer, hand and status texts, refusals."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest

from bot.errors import BadOption, WrongStage
from bot.homm3.commands import CARD_WINDOWS, slash_for
from engine.homm3 import RULESET as HOMM3
from engine.homm3.state import Homm3State
from storage.records import GameStatus
from tests.bot.service_helpers import CHANNEL, GUILD, current, make_service, person, started_game

_open = partial(started_game, ruleset="homm3", seed=7)
"""Open a homm3 game of person 1 against the computer and start it."""


@pytest.mark.rule("homm3bf:adventure-mode")
async def test_the_lobby_takes_homm3_options(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        with pytest.raises(BadOption, match="map-sections is not an option"):
            await service.new_game(person(1), CHANNEL, ruleset="homm3", map_sections=5)
        out = await service.new_game(
            person(1),
            CHANNEL,
            ruleset="homm3",
            mode="adventure",
            size="medium",
            heroes="Catherine, Tamika",
            siege=True,
        )
        assert "Adventure, medium" in out.posts[0].text and "Siege" in out.posts[0].text
        await service.add_ai(person(1), CHANNEL, count=1)
        await service.start(person(1), CHANNEL)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        _, state = await current(service, game.id)
        assert state.rounds == 13 and state.siege == 1 - state.first
        assert [p.hero for p in state.seats] == ["catherine", "tamika"]
    finally:
        await repo.close()


@pytest.mark.rule("homm3core:scenarios")
async def test_the_seat_count_follows_the_mode(tmp_path: Path) -> None:
    """Skirmish and Adventure are 1 vs 1; Border Clash takes 2 or 3 players: the lobby
    offers the mode's seats, /game new, /game options and /game start refuse others."""
    repo, service = await make_service(tmp_path)
    try:
        with pytest.raises(BadOption, match="with these options is played by 2 players, not 3"):
            await service.new_game(person(1), CHANNEL, ruleset="homm3", players=3)
        assert await repo.game_in_channel(CHANNEL) is None, "nothing was created"
        with pytest.raises(BadOption, match="played by 2 to 3 players"):
            await service.new_game(person(1), CHANNEL, ruleset="homm3", mode="map", players=4)
        out = await service.new_game(person(1), CHANNEL, ruleset="homm3", mode="map")
        assert "Seats 1/3 (at least 2 to start)" in out.posts[0].text
        await service.join(person(2), CHANNEL)
        await service.add_ai(person(1), CHANNEL, count=1)
        with pytest.raises(BadOption, match=r"3 seats are taken; .* played by 2 players"):
            await service.set_options(person(1), CHANNEL, mode="skirmish")
        with pytest.raises(BadOption, match="played by 2 players, not 3"):
            await service.set_options(person(1), CHANNEL, mode="adventure", players=3)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.options["mode"] == "map", "nothing was changed"
        await service.start(person(1), CHANNEL)
        _, state = await current(service, game.id)
        assert state.mode == "map" and state.players == 3 and len(state.map.heroes) == 3
    finally:
        await repo.close()


@pytest.mark.slow
@pytest.mark.rule("homm3bf:adventure-mode.victory-condition")
async def test_a_whole_adventure_by_typed_commands(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await _open(service, mode="adventure", heroes="Deemer, Septienna")
        rng = random.Random(3)
        typed = 0
        kinds: set[str] = set()
        for _ in range(3000):
            game, state = await current(service, game.id)
            if game.status is not GameStatus.ACTIVE:
                break
            pending = HOMM3.pending(state)
            assert pending and pending[0].seat == 0, "the computer answers its own decisions"
            kinds.add(pending[0].kind)
            command = HOMM3.ai_command(state, 0, rng)
            path, options = slash_for(command)
            out = await service.run(person(1), path, options, channel_id=CHANNEL, guild_id=GUILD)
            typed += 1
            assert out.reply is not None and out.reply.text.startswith("✅"), out.reply
        game, state = await current(service, game.id)
        assert game.status is GameStatus.FINISHED and HOMM3.result(state).finished
        assert {
            "adventure_turn",
            "choose_adventure_keep",
            "place_obstacle",
            "deploy",
            "activation",
        } <= kinds
        assert typed > 30
    finally:
        await repo.close()


async def test_hand_status_and_refusals(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await _open(service, heroes="Catherine, Mutare")
        _, state = await current(service, game.id)
        out = await service.hand(person(1), CHANNEL)
        assert out.reply is not None and "Choice:" in out.reply.text
        for number in state.player(1).hand + state.player(1).deck:
            assert f"#{number} " not in out.reply.text.replace(f"#{game.id} ", "")
        status = await service.status(person(1), CHANNEL)
        text = "\n".join(p.text for p in status.posts) + (status.reply.text if status.reply else "")
        assert "Catherine" in text and "Mutare" in text
        with pytest.raises(WrongStage, match="does not answer what you owe now"):
            await service.run(
                person(1), ("homm3", "combat", "defend"), {}, channel_id=CHANNEL, guild_id=GUILD
            )
    finally:
        await repo.close()


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules")
async def test_standing_orders_answer_windows_obstacles_and_deployment(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await _open(service, heroes="Tamika, Mutare")
        out = await service.run(
            person(1),
            ("homm3", "combat", "orders"),
            {"cards": "pass", "obstacles": "pass", "deploy": "auto"},
            channel_id=CHANNEL,
            guild_id=GUILD,
        )
        assert out.reply is not None and "cards: pass" in out.reply.text
        rng = random.Random(4)
        for _ in range(2000):
            game, state = await current(service, game.id)
            if game.status is not GameStatus.ACTIVE:
                break
            decision = HOMM3.pending(state)[0]
            assert decision.kind not in ("attack_window", *CARD_WINDOWS, "place_obstacle", "deploy")
            path, options = slash_for(HOMM3.ai_command(state, 0, rng))
            await service.run(person(1), path, options, channel_id=CHANNEL, guild_id=GUILD)
        assert game.status is GameStatus.FINISHED
    finally:
        await repo.close()


async def test_game_rules_looks_up_homm3_topics(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await _open(service)
        out = await service.rules_topic(person(1), CHANNEL, topic="walls")
        assert out.reply is not None
        text = out.reply.text + " ".join(str(e) for e in getattr(out.reply, "embeds", ()))
        assert "Siege" in text and "/homm3 combat wall" in text
    finally:
        await repo.close()


@pytest.mark.rule("homm3bf:battlefield-setup.skirmish-mode")
async def test_the_first_post_names_the_first_player(tmp_path: Path) -> None:
    """Step 10 of the set-up (the Resource dice roll decides the first player) comes after
    the shuffles and rolls: the start post keeps the last set-up lines and points to the log
    for the middle ones, instead of stopping at the twelfth line."""
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(
            person(1), CHANNEL, guild_id=GUILD, ruleset="homm3", seed=7, heroes="Catherine, Deemer"
        )
        await service.add_ai(person(1), CHANNEL, count=1)
        out = await service.start(person(1), CHANNEL)
        first = out.posts[0].text
        lines = first.splitlines()
        assert len(lines) == 1 + 12
        assert "is the first player, holding the Initiative token." in first
        assert any(line.endswith("more set-up lines in /game log …") for line in lines)
        assert lines[1] == "Red (Catherine) plays Castle."
    finally:
        await repo.close()


@pytest.mark.rule("homm3bf:battlefield-combat.place-obstacles")
def test_long_battlefield_menus_name_every_token_unit_and_target() -> None:
    """Discord shows 25 options of a select menu: the Obstacle menu offers each of the 10
    tokens (at its most central hexes), the deployment menu each unit, the activation menu
    each attack target and some moves, rather than the first 25 in alphabetical order."""
    from bot.homm3.adapter import Homm3Adapter
    from bot.outbox import Select
    from engine.homm3 import commands as c
    from engine.homm3.options import Homm3Options
    from tests.homm3.helpers import answer_choices, battle

    adapter = Homm3Adapter()

    def menu(state: Homm3State) -> list[str]:
        decision = HOMM3.pending(state)[0]
        legal = HOMM3.legal_commands(state, decision.seat)
        ui = adapter.decision_ui(state, decision.seat, decision, 1, legal, None)
        select = next(x for x in ui.components if isinstance(x, Select))
        return [o.label for o in select.options]

    state, _ = HOMM3.new_game(Homm3Options(heroes=("catherine", "deemer"), size="large"), 2, 3)
    state = answer_choices(state)
    assert HOMM3.pending(state)[0].kind == "place_obstacle"
    labels = menu(state)
    assert len(labels) == 25
    assert {int(label.split("(token ")[1].split(")")[0]) for label in labels} == set(range(1, 11))
    assert any(label.endswith(" on G5") for label in labels)  # the centre first
    state, _ = HOMM3.apply(state, state.first, c.PassObstacles())
    state, _ = HOMM3.apply(state, 1 - state.first, c.PassObstacles())
    labels = menu(state)
    assert len({label.split(" on ")[0] for label in labels}) == 7  # all 7 of a large army
    fight = battle(
        [
            (0, "griffins", True, "F5"),
            (1, "zombies", False, "K5"),
            (1, "skeletons", False, "K3"),
            (1, "wraiths", False, "K7"),
        ]
    )
    labels = menu(fight)
    assert {n for n in ("[2]", "[3]", "[4]") if any(n in label for label in labels)} == {
        "[2]",
        "[3]",
        "[4]",
    }
    assert any(label.startswith("Move") for label in labels)


def test_every_engine_choice_is_answered_by_choice_pick() -> None:
    """Every kind of Choice the engine sets is in its `CHOICE_KINDS`, and so among the
    decisions ``/homm3 choice pick`` answers: Braced Pikes, Guardian Angel and Death Cloud
    were missing, and their typed answers were refused as another decision's command."""
    import ast
    from pathlib import Path as P

    from bot.homm3.commands import SPECS
    from engine.homm3.decisions import CHOICE_KINDS

    found: set[str] = set()
    for path in P("engine/homm3").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", "")
            if name == "Choice":
                kind = {k.arg: k.value for k in node.keywords}["kind"]
            elif name == "_set_choice":
                kind = node.args[2]
            else:
                continue
            values = [kind.body, kind.orelse] if isinstance(kind, ast.IfExp) else [kind]
            found |= {v.value for v in values if isinstance(v, ast.Constant)}
    assert {"braced_pikes", "guardian_angel", "death_cloud", "dice_pick"} <= found
    assert found <= set(CHOICE_KINDS), found - set(CHOICE_KINDS)
    pick = next(spec for spec in SPECS if spec.path == ("homm3", "choice", "pick"))
    assert {f"choose_{kind}" for kind in found} <= set(pick.phase)


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules")
def test_braced_pikes_and_guardian_angel_answers_can_be_typed() -> None:
    """Each legal answer to Braced Pikes and Guardian Angel has a ``/homm3 choice pick``
    form that builds that very command."""
    from bot.adapters import PlayRequest
    from bot.homm3.commands import TABLE
    from tests.homm3.helpers import RULES, braced_pikes_moment, guardian_angel_moment

    def typed_back(state: Homm3State, seat: int, kind: str) -> None:
        decision = RULES.pending(state)[0]
        assert (decision.kind, decision.seat) == (kind, seat)
        legal = RULES.legal_commands(state, seat)
        request = PlayRequest(state=state, seat=seat, legal=legal, decision=decision)
        assert len(legal) == 2
        for command in legal:
            path, options = slash_for(command)
            assert path == ("homm3", "choice", "pick")
            built = TABLE.build_command(path, request, options)
            assert RULES.parse_command(built) == command

    typed_back(braced_pikes_moment(["attack"]), 1, "choose_braced_pikes")
    typed_back(guardian_angel_moment(), 1, "choose_guardian_angel")


def test_every_private_engine_choice_goes_by_dm() -> None:
    """Each choice the engine marks private (its options name hidden cards) is answered by
    DM: the engine's list of private choices (whose decisions it builds ``private``) holds
    every such kind found in the engine."""
    import ast
    from pathlib import Path as P

    from engine.homm3.decisions import PRIVATE_CHOICES

    found: set[str] = set()
    for path in P("engine/homm3").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Choice":
                words = {k.arg: k.value for k in node.keywords}
                private = words.get("private")
                kind = words.get("kind")
                if isinstance(private, ast.Constant) and private.value is True:
                    assert isinstance(kind, ast.IfExp | ast.Constant)
                    values = [kind.body, kind.orelse] if isinstance(kind, ast.IfExp) else [kind]
                    found |= {v.value for v in values if isinstance(v, ast.Constant)}
    assert "braced_pikes" in found and "vortex_pick" in found
    assert found <= PRIVATE_CHOICES, found - PRIVATE_CHOICES


async def test_card_looks_up_homm3_units_cards_and_buildings(tmp_path: Path) -> None:
    """/card in a homm3 channel shows that game's components in our words: a unit with
    both sides and abilities, Adventure cards, buildings; names shared by two kinds are
    told apart by the autocomplete's keys."""
    repo, service = await make_service(tmp_path)
    try:
        await _open(service, heroes="Catherine, Deemer")
        out = await service.card(person(1), CHANNEL, name="Griffins")
        text = out.reply.text if out.reply else ""
        assert text.startswith("**Griffins**\nCastle, Bronze, Flying. Recruit (Few): 4 Gold;")
        assert "Pack: Attack 3, Defense 0, Health 4, Initiative 9; Ever Vigilant" in text
        out = await service.card(person(1), CHANNEL, name="Black Dragons")
        assert "Few: Attack 6, Defense 3, Health 8, Initiative 11; Dragon Hide" in (
            out.reply.text if out.reply else ""
        )
        choices = await service.autocomplete(
            person(1), ("card",), "name", "scholar", channel_id=CHANNEL
        )
        keys = [value for _label, value in choices]
        assert "card:scholar" in keys and "event:scholar_event" in keys
        out = await service.card(person(1), CHANNEL, name="event:scholar_event")
        assert (out.reply.text if out.reply else "").startswith("**Scholar**\nAdventure Event.")
        out = await service.card(person(1), CHANNEL, name="Mana Vortex")
        assert "Dungeon building, costs" in (out.reply.text if out.reply else "")
        out = await service.card(person(1), CHANNEL, name="Crypt")
        assert "Combat Power 4: 1 Treasure die" in (out.reply.text if out.reply else "")
    finally:
        await repo.close()


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic")
def test_cards_are_named_by_number_or_by_the_players_own_card_names() -> None:
    """``card:Magic Arrow`` reads as the acting player's own Magic Arrow (a name's start
    is enough; two copies by name are two cards); a name only the opponent holds is
    refused exactly as a name nobody holds (house rule 6)."""
    from bot.adapters import PlayRequest
    from bot.homm3.commands import build_command
    from tests.homm3.helpers import battle, card

    state = battle(
        [(0, "griffins", True, "E5"), (1, "zombies", False, "H5")],
        hands={0: ["magic_arrow", "defense", "defense"], 1: ["fireball", "haste"]},
    )
    decision = next(d for d in HOMM3.pending(state) if d.seat == 0)
    request = PlayRequest(state, 0, HOMM3.legal_commands(state, 0), decision)
    arrow = card(state, 0, "magic_arrow")
    defenses = [c for c in state.player(0).hand if state.cards[c] == "defense"]
    path = ("homm3", "card", "play")
    built = build_command(path, request, {"card": "magic arrow", "unit": "2"})
    assert built["card"] == arrow and built["unit"] == 2
    assert build_command(path, request, {"card": "Magic A"})["card"] == arrow
    assert build_command(path, request, {"card": f"#{arrow}"})["card"] == arrow
    powered = build_command(path, request, {"card": "Magic Arrow", "power": "Defense, defense"})
    assert sorted(powered["power"]) == sorted(defenses)
    refusals = []
    for name in ("Fireball", "Haste", "Armageddon"):  # Blue's two cards, a card nobody holds
        with pytest.raises(BadOption) as refused:
            build_command(path, request, {"card": name})
        refusals.append(refused.value.message.replace(name, "NAME"))
    assert refusals[0] == refusals[1] == refusals[2]
    assert refusals[0].startswith("None of your cards is called 'NAME'")
