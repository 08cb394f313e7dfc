"""Hero Forge through the GameService: the lobby with its options, a whole game played by
slash commands and button clicks against the computer, status and inventory, refusals."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest

from bot import customids
from bot.errors import BadOption, DeckProblem, UnknownCommand, WrongStage
from bot.heroforge.commands import slash_for
from bot.outbox import Button, Outbox, Select
from bot.render import DEFAULT_RENDERER
from engine.core.errors import IllegalMove
from engine.core.model import Command
from engine.heroforge import RULESET as HEROFORGE
from engine.heroforge.state import HeroforgeState
from storage.records import Game, GameStatus
from tests.bot.service_helpers import CHANNEL, GUILD, current, make_service, person, started_game

GRID = "PL GR PL / FO S HI / PL B PL"
LIST = "; ".join(f"Gift {i} (Instant): economy +{50 * i}" for i in range(1, 11))


_open = partial(started_game, ruleset="heroforge", seed=21)
"""Open a Hero Forge game of person 1 against the computer and start it."""


def _choice(state: HeroforgeState, seat: int, rng: random.Random) -> tuple[int, Command]:
    legal = HEROFORGE.legal_commands(state, seat)
    pick = HEROFORGE.ai_command(state, seat, rng)
    return legal.index(pick), pick


def _components_for(out: Outbox) -> list[Button | Select]:
    found: list[Button | Select] = []
    posts = list(out.posts)
    if out.reply is not None:
        found += [c for c in out.reply.components if isinstance(c, Button | Select)]
    for post in posts:
        found += [c for c in post.components if isinstance(c, Button | Select)]
    return found


def _offered(out: Outbox, index: int, command: Command, game: Game, version: int) -> str | None:
    """The custom id of a component in ``out`` offering legal command ``index``."""
    token = customids.option_token(index, command.model_dump_json())
    for component in _components_for(out):
        if isinstance(component, Button) and component.custom_id == customids.encode(
            game.id, version, "opt", token
        ):
            return component.custom_id
        if isinstance(component, Select) and any(o.value == token for o in component.options):
            return component.custom_id
    return None


@pytest.mark.rule("heroforge:lands")
async def test_the_lobby_takes_hero_forge_options(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        with pytest.raises(BadOption, match="map-sections is not an option of Hero Forge"):
            await service.new_game(person(1), CHANNEL, ruleset="heroforge", map_sections=5)
        with pytest.raises(DeckProblem, match="played without decks"):
            await service.new_game(person(1), CHANNEL, ruleset="heroforge", deck="haven")
        out = await service.new_game(
            person(1), CHANNEL, ruleset="heroforge", board=GRID, list1=LIST, layout=None
        )
        assert (
            "custom board PL GR PL / FO S HI / PL B PL, enchantment lists a written list (roll 1)"
            in out.posts[0].text
        )
        with pytest.raises(Exception, match="unknown land 'XX'"):
            await service.set_options(person(1), CHANNEL, board="PL XX PL")
        await service.set_options(person(1), CHANNEL, list5="shifting_sands")
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.options["grid"] == GRID
        assert game.options["list5"] == "shifting_sands"
        await service.add_ai(person(1), CHANNEL, count=1)
        out = await service.start(person(1), CHANNEL)
        game, state = await current(service, game.id)
        assert [p.land for p in state.plates][:3] == ["plain", "grassland", "plain"]
        assert state.list1.enchantments[6].name == "Gift 7"
        assert "Custom board" in out.posts[0].text
    finally:
        await repo.close()


@pytest.mark.rule("heroforge:lands")
async def test_the_options_text_sets_and_clears_a_hero_forge_board(tmp_path: Path) -> None:
    """/game new options:board:"..." list5:omens, then /game options options:board:none
    goes back to a ready-made board and layout:frontier picks one; a wrong word names the
    settings."""
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(
            person(1),
            CHANNEL,
            ruleset="heroforge",
            options=f'board:"{GRID}" list1:"{LIST}" list5:omens',
        )
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.options["grid"] == GRID
        assert (game.options["layout"], game.options["list5"]) == ("custom", "omens")
        assert game.options["list1"] == LIST  # a written list keeps its ; separators
        await service.set_options(person(1), CHANNEL, options="board:none")
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and (game.options["grid"], game.options["layout"]) == ("", "auto")
        assert game.options["list5"] == "omens"
        await service.set_options(person(1), CHANNEL, options="frontier")
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.options["layout"] == "frontier"
        with pytest.raises(BadOption) as refused:
            await service.set_options(person(1), CHANNEL, options="lyout:ring")
        assert refused.value.message == (
            "'lyout:ring' is not an option of Hero Forge. Did you mean layout:? Its options: "
            "layout:auto|crossroads|islands|ring|frontier, board:text, list1:text, list5:text "
            "(written name:value)."
        )
    finally:
        await repo.close()


@pytest.mark.slow
@pytest.mark.rule("heroforge:basic-rules")
async def test_a_whole_game_by_buttons_and_slash_commands(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await _open(service)
        rng = random.Random(5)
        clicks = typed = 0
        last = Outbox()
        for step in range(3000):
            game, state = await current(service, game.id)
            if game.status is not GameStatus.ACTIVE:
                break
            pending = HEROFORGE.pending(state)
            assert pending and pending[0].seat == 0, "the computer answers its own decisions"
            index, command = _choice(state, 0, rng)
            offered = _offered(last, index, command, game, state.version)
            if offered is not None and step % 3:
                values = (customids.option_token(index, command.model_dump_json()),)
                last = await service.click(person(1), offered, values)
                clicks += 1
            else:
                path, options = slash_for(command)
                last = await service.run(
                    person(1), path, options, channel_id=CHANNEL, guild_id=GUILD
                )
                typed += 1
            assert last.reply is not None and last.reply.text.startswith("✅")
        game, state = await current(service, game.id)
        assert game.status is GameStatus.FINISHED
        assert HEROFORGE.result(state).finished
        assert clicks > 10 and typed > 10
        assert any("The game is over" in p.text for p in last.posts)
    finally:
        await repo.close()


@pytest.mark.rule("heroforge:inventory")
async def test_status_and_inventory_with_pictures(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path, renderer=DEFAULT_RENDERER)
    try:
        await _open(service, board=GRID)
        out = await service.status(person(1), CHANNEL)
        assert out.reply is not None
        assert "List 1 (Fortunes): 1. Windfall (Instant)" in out.reply.text
        names = [i.filename for i in out.reply.images]
        assert names == ["board-focus.png", "board.png"]  # the focus first (issue 16)
        assert all(i.data[:4] == b"\x89PNG" for i in out.reply.images)
        hand = await service.hand(person(1), CHANNEL)
        assert hand.reply is not None and hand.reply.ephemeral
        assert "your inventory" in hand.reply.text
        # the lists with what each enchantment does, a written list included
        assert (
            "Enchantment list 1 (Fortunes, scenario roll 1): 1. Windfall (Instant): +300e; "
            "2. Iron Banners (Stack) [HighLands]: units +1 level;" in hand.reply.text
        )
        assert "6. Tax Collector (Stack) [Tidewater]: +100e each turn;" in hand.reply.text
        assert "Enchantment list 5 (Omens, scenario roll 5): 1. Plague (Instant): -300e;" in (
            hand.reply.text
        )
        assert hand.reply.images and hand.reply.images[0].filename == "inventory.png"
    finally:
        await repo.close()


@pytest.mark.rule("heroforge:lands")
async def test_card_in_a_hero_forge_channel_shows_its_lands_units_heroes_and_enchantments(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await _open(service, board=GRID)
        shown = {}
        for name in ("TF", "Swordsman", "weir", "builder's blessing", "land:grassland"):
            out = await service.card(person(1), CHANNEL, name=name)
            assert out.reply is not None and out.reply.ephemeral
            shown[name] = out.reply.text
        assert shown["TF"] == (
            "**Titan Forge**\nSpecial Land (TF). Economy 250e a turn; fort 1100e; owning it "
            "adds 3 to the cap. Red squares (for the hero standing there): column 3 row 2: "
            "unit levels +2."
        )
        assert "Level 4 unit, 200e. A damage roll of 4 or more kills it" in shown["Swordsman"]
        assert "Hero (HighLands). Cap 5, speed -1." in shown["weir"]
        assert (
            "your next fort this turn costs 500e less. In the ready-made list: Omens 3."
            in shown["builder's blessing"]
        )
        assert shown["land:grassland"].startswith("**Grassland**\nBasic Land (GR). Economy 100e")
        # a homm4 card's name is not a Hero Forge component: refused, never another game's card
        with pytest.raises(BadOption, match=r"^Hero Forge has nothing called 'Pikeman'; closest: "):
            await service.card(person(1), CHANNEL, name="Pikeman")
        pairs = await service.autocomplete(person(1), ("card",), "name", "tit", channel_id=CHANNEL)
        assert pairs[:2] == [
            ("Titan (level 9 unit)", "unit:9"),
            ("Titan Forge (TF, special land)", "land:titan_forge"),
        ]
        pairs = await service.autocomplete(
            person(1), ("card",), "name", "pikeman", channel_id=CHANNEL
        )
        assert pairs and all(
            value.split(":")[0] in ("land", "unit", "hero", "enchantment") for _, value in pairs
        )
    finally:
        await repo.close()


@pytest.mark.rule("heroforge:turns")
async def test_refusals_name_what_to_do(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await _open(service)
        with pytest.raises(WrongStage, match="/heroforge setup hero"):
            await service.run(
                person(1), ("heroforge", "move", "roll"), {}, channel_id=CHANNEL, guild_id=GUILD
            )
        with pytest.raises(UnknownCommand):
            await service.run(
                person(1), ("purchase", "done"), {}, channel_id=CHANNEL, guild_id=GUILD
            )
        await service.run(
            person(1),
            ("heroforge", "setup", "hero"),
            {"hero": "Weir Of HopeSeeking"},
            channel_id=CHANNEL,
            guild_id=GUILD,
        )
        with pytest.raises(IllegalMove, match="not a free Plain Land"):
            await service.run(
                person(1),
                ("heroforge", "setup", "place"),
                {"plate": "E"},
                channel_id=CHANNEL,
                guild_id=GUILD,
            )
        pairs = await service.autocomplete(
            person(1), ("heroforge", "setup", "place"), "plate", "", channel_id=CHANNEL
        )
        assert [v for _, v in pairs] == ["A", "C", "G", "I"]
    finally:
        await repo.close()


@pytest.mark.rule("heroforge:manning-forts")
def test_options_are_read_as_players_type_them() -> None:
    from bot.adapters import PlayRequest
    from bot.heroforge.commands import build_command
    from engine.core.model import Decision
    from tests.heroforge.helpers import started

    state = started()
    legal = HEROFORGE.legal_commands(state, 0)
    buying = Decision(seat=0, kind="buy", prompt="", commands=())
    request = PlayRequest(state, 0, legal, buying)
    path = ("heroforge", "fort", "man")
    assert build_command(path, request, {"fort": "F2", "units": "#3, #5"}) == {
        "type": "man_fort",
        "fort": 2,
        "units": (3, 5),
    }
    with pytest.raises(BadOption, match="Name units by number"):
        build_command(path, request, {"fort": "F1", "units": "all"})
    give = ("heroforge", "enchant", "pass")
    assert build_command(give, request, {"to": "blue"})["to"] == 1
    assert build_command(give, request, {"to": "2"})["to"] == 1
    with pytest.raises(BadOption, match="by colour"):
        build_command(give, request, {"to": "Mauve"})


@pytest.mark.rule("heroforge:turns")
async def test_moderators_skip_undo_and_verify_a_hero_forge_game(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await _open(service)
        mod = person(1, moderator=True)
        await service.mod_skip(mod, CHANNEL, reason="away")
        game, state = await current(service, game.id)
        assert state.player(0).hero == "weir"  # the default: the first hero free
        await service.mod_undo(mod, CHANNEL, count=2, reason="oops")
        game, state = await current(service, game.id)
        # Red's skip and Blue's computer choice are undone; Red chooses again
        assert [p.hero for p in state.players_state] == [None, None]
        assert HEROFORGE.pending(state)[0].seat == 0
        out = await service.mod_verify(mod, CHANNEL)
        texts = " ".join(p.text for p in out.posts) + (out.reply.text if out.reply else "")
        assert "gives exactly the stored position" in texts
    finally:
        await repo.close()


@pytest.mark.rule("heroforge:enchantment-lists")
def test_the_inventory_text_shortens_long_written_lists_to_leave_room_for_the_decision() -> None:
    from bot.heroforge.adapter import LISTS_BUDGET, inventory_text
    from engine.heroforge.catalog import parse_enchantment_list
    from tests.heroforge.helpers import started

    state = started()
    text = "\n".join(inventory_text(state, 0))
    assert "4. Master Masons [Stonehold]: forts cost 200e less;" in text
    long = "; ".join(
        f"A Very Long Enchantment Name Number {chr(65 + i)} (Stack) [HighLands]: fort_cost -500"
        for i in range(10)
    )
    state.list1 = state.list5 = parse_enchantment_list(long)
    lines = inventory_text(state, 0)
    assert len("\n".join(lines)) <= LISTS_BUDGET
    assert lines[-1].startswith("Enchantment list 5 (Custom list, scenario roll 5): 1. A Very Long")
    assert lines[-1].endswith("10. A Very Long Enchantment Name Number J")


@pytest.mark.rule("heroforge:basic-rules")
def test_buttons_say_where_a_move_ends_what_a_fort_costs_and_what_a_retreat_needs() -> None:
    from bot.heroforge.adapter import describe
    from engine.heroforge import commands as hc
    from engine.heroforge.state import Defence
    from tests.heroforge.helpers import give, put, started, to_step

    state = started(heroes=("weir", "kestrel"))
    # Weir (speed -1) rolled a 5 in the centre of plate A: 4 squares east ends on plate B
    to_step(state, "moving")
    state.move_roll = 5
    assert describe(state, hc.Move(direction="E", distance=4)) == "Move 4 E to plate B"
    assert describe(state, hc.Move(direction="W", distance=4)) == "Move 4 W"  # off the board
    to_step(state, "buy2")
    put(state, 0, "B")  # Grassland: a fort costs 400e
    assert describe(state, hc.BuyFort(step="N")) == "Build a fort here (400e), step N"
    give(state, 0, 3)
    give(state, 1, 3)
    put(state, 1, "B")
    state.defence = Defence(attacker=0, defender=1, plate="B")
    assert describe(state, hc.Retreat()) == "Retreat (D10 over 3)"  # Kestrel


@pytest.mark.rule("heroforge:combat")
def test_end_buying_says_what_comes_next_and_a_defender_learns_why_there_is_no_retreat() -> None:
    """The second buying step's end leads to combat only with an enemy on the hero's
    plate, else it ends the turn: the button says which. A buying step where nothing can
    be bought, and a defender owning no uncontested land (no Retreat button), say why."""
    from bot.adapters import adapter_for
    from bot.heroforge.adapter import describe
    from engine.heroforge import commands as hc
    from engine.heroforge.state import Defence
    from tests.heroforge.helpers import fort, give, put, started, to_step

    state = started(heroes=("weir", "kestrel"))
    assert describe(state, hc.EndBuying()) == "End buying (to moving)"
    to_step(state, "buy2")
    give(state, 0, 3)
    assert describe(state, hc.EndBuying()) == "End buying (ends the turn)"
    give(state, 1, 2)
    put(state, 0, "B")
    put(state, 1, "B", 4, 4)
    assert describe(state, hc.EndBuying()) == "End buying (to combat)"
    adapter = adapter_for("heroforge")
    decision = HEROFORGE.pending(state)[0]
    assert decision.kind == "buy"
    legal = HEROFORGE.legal_commands(state, 0)
    assert [cmd.type for cmd in legal] == ["end_buying"]
    ui = adapter.decision_ui(state, 0, decision, 1, legal, None)
    assert ui.text.endswith(
        "Nothing to buy: Plate B is contested (two or more heroes are on it): nothing can be "
        "bought there."
    )

    state.defence = Defence(attacker=0, defender=1, plate="B")

    def ui_text() -> tuple[str, list[str]]:
        decision = HEROFORGE.pending(state)[0]
        legal = HEROFORGE.legal_commands(state, 1)
        ui = adapter.decision_ui(state, 1, decision, 1, legal, None)
        labels = [c.label for c in ui.components if isinstance(c, Button)]
        return ui.text, labels

    text, labels = ui_text()
    assert not any(label.startswith("Retreat") for label in labels)
    assert text.endswith(
        "No retreat: you own no uncontested land (a plate with your fort and no hero on it) "
        "to retreat to."
    )
    fort(state, 1, "C", 2, 2, 1)  # Blue's fort on an empty plate: somewhere to retreat to
    text, labels = ui_text()
    assert "Retreat (D10 over 3)" in labels and "No retreat" not in text
