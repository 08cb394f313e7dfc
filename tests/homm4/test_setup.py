"""Setup and the Start of the Game: decks, Starting Forces, assembly, Risk Stack, Army token."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, InvalidInput
from engine.homm4 import board, setup, zones
from engine.homm4.audit import zone_problems
from engine.homm4.cards import HeroCard, TownCard, UnitCard
from engine.homm4.hexes import neighbours
from tests.homm4.adventure_helpers import R, apply, finish_setup, new_game


@pytest.mark.rule("homm4:setup")
def test_starting_forces_composition() -> None:
    state = new_game(players=3, seed=5)
    for player in state.players_state:
        town = zones.card(state, player.free_town)  # type: ignore[arg-type]
        assert isinstance(town, TownCard)
        stack = player.starting_stack
        assert len(stack) == 7
        hero = zones.card(state, stack[0])
        assert isinstance(hero, HeroCard), "the Hero card is on the very top"
        units = [zones.card(state, c) for c in stack[1:]]
        assert all(isinstance(u, UnitCard) for u in units)
        levels = sorted(u.level for u in units if isinstance(u, UnitCard))
        assert levels == [1, 1, 1, 2, 2, 3]
        factions = {town.faction, hero.faction} | {
            u.faction for u in units if isinstance(u, UnitCard)
        }
        assert len(factions) == 1, "all Starting Forces are of the same faction"
        assert len(player.deck) == 40 - 8 - (8 if player.seat == state.active else 0)
    assert zone_problems(state) == []


@pytest.mark.rule("homm4:setup")
def test_deck_is_shuffled_as_an_event() -> None:
    _, events = R.new_game(R.parse_options({}), 2, 3)
    shuffles = [e for e in events if e.kind == "shuffle" and e.data.get("zone") == "deck"]
    assert [e.data["seat"] for e in shuffles] == [0, 1]
    assert all(e.data["size"] == 32 for e in shuffles)


@pytest.mark.rule("homm4:setup")
def test_dealing_the_ready_made_decks_is_a_shuffle_event() -> None:
    """Every draw from the game's generator shows in the log: dealing the ready-made decks
    at random is a ``shuffle`` event naming who plays which deck (house rule 9)."""
    _, events = R.new_game(R.parse_options({}), 3, 3)
    dealt = [e for e in events if e.kind == "shuffle" and e.data.get("zone") == "ready_made_decks"]
    assert len(dealt) == 1 and events[0] is dealt[0]
    assert [e.data["seat"] for e in events if e.kind == "starting_forces"] == [0, 1, 2]
    assert len(dealt[0].data["decks"]) == 3
    _, chosen = R.new_game(
        R.parse_options({"decks": [{"deck": "deck_asylum"}, {"deck": "deck_haven"}]}), 2, 3
    )
    assert not [e for e in chosen if e.data.get("zone") == "ready_made_decks"]


@pytest.mark.rule("homm4:setup")
def test_ready_made_and_custom_decks_are_validated() -> None:
    state = new_game(players=2, seed=1, decks=[{"deck": "deck_asylum"}, {"deck": "deck_haven"}])
    assert zones.card(state, state.players_state[0].free_town).id == "asylum"  # type: ignore[arg-type]
    assert zones.card(state, state.players_state[1].free_town).id == "haven"  # type: ignore[arg-type]
    short = dict(zones.pool().decks["deck_haven"].cards)
    short["squire"] -= 1
    with pytest.raises(InvalidInput, match="39 cards"):
        new_game(players=2, seed=1, decks=[{"cards": short}, {"deck": "deck_haven"}])
    with pytest.raises(InvalidInput, match="no ready-made deck"):
        new_game(players=2, seed=1, decks=[{"deck": "nope"}, {"deck": "deck_haven"}])
    with pytest.raises(InvalidInput, match="one deck per seat"):
        new_game(players=2, seed=1, decks=[{"deck": "deck_haven"}])


@pytest.mark.rule("homm4:start-of-the-game")
def test_eight_cards_five_risk_three_hand() -> None:
    state = new_game(players=2, seed=2)
    assert state.phase == "setup" and state.active == 0
    hand = list(state.players_state[0].hand)
    assert len(hand) == 8
    with pytest.raises(IllegalMove, match="exactly 5"):
        apply(state, 0, {"type": "choose_risk_stack", "cards": hand[:4]})
    state, events = apply(state, 0, {"type": "choose_risk_stack", "cards": hand[:5]})
    player = state.players_state[0]
    assert len(player.risk) == 5 and len(player.hand) == 3
    assert player.risk == hand[:5]
    assert "5 cards face down" in events[0].text
    assert str(hand[0]) not in events[0].text, "the Risk Stack is secret"


@pytest.mark.rule("homm4:start-of-the-game")
def test_army_token_goes_on_a_passable_edge_hex() -> None:
    state = new_game(players=2, seed=2)
    state, _ = apply(state, 0, R.default_command(state, 0))
    shape = board.board_of(state)
    inner = next(
        h for h in shape.order if h not in shape.edge and board.step_cost2(state, h) is not None
    )
    with pytest.raises(IllegalMove, match="edge hex"):
        apply(state, 0, {"type": "place_army", "hex": board.label(state, inner)})
    blocked = [h for h in shape.order if h in shape.edge and board.step_cost2(state, h) is None]
    if blocked:
        with pytest.raises(IllegalMove, match="not impassable"):
            apply(state, 0, {"type": "place_army", "hex": board.label(state, blocked[0])})
    edge = setup.army_hexes(state, 0)[0]
    assert any(n not in shape.terrain for n in neighbours(edge))
    state, _ = apply(state, 0, {"type": "place_army", "hex": board.label(state, edge)})
    army = zones.armies_of(state, 0)[0]
    assert army.hex == edge and army.token == 1 and len(army.cards) == 7
    assert state.players_state[0].starting_stack == []
    assert state.active == 1 and state.setup_step == "risk"
    assert len(state.players_state[1].hand) == 8


@pytest.mark.rule("homm4:start-of-the-game")
def test_first_turn_goes_to_the_first_player_to_set_up() -> None:
    state = finish_setup(new_game(players=3, seed=4))
    assert state.setup_done == [0, 1, 2]
    assert state.active == 0 and state.turn == 1 and state.round == 1
    assert state.phase in ("purchase", "movement")
    assert all(len(p.risk) == 5 for p in state.players_state)


@pytest.mark.rule("homm4:start-of-the-game")
def test_manual_assembly_in_turn_order_then_setup_after_the_last_assembler() -> None:
    state = new_game(players=3, seed=7, assembly="manual", map_sections=4)
    assert state.phase == "assemble" and len(state.section_pile) == 4
    assemblers = []
    while state.phase == "assemble":
        seat = R.pending(state)[0].seat
        assemblers.append(seat)
        if not state.sections:
            with pytest.raises(IllegalMove, match="not free"):
                apply(state, seat, {"type": "place_section", "slot": [1, 0], "rotation": 0})
        command = R.legal_commands(state, seat)[-1]
        state, events = apply(state, seat, command)
        assert events[0].kind == "place_section"
    assert assemblers == [0, 1, 2, 0]
    assert state.phase == "setup" and state.active == 1
    state = finish_setup(state)
    assert state.setup_done == [1, 2, 0]
    assert state.active == 1, "the player after the last one to set up starts"


@pytest.mark.rule("homm4:start-of-the-game")
def test_labels_are_fixed_at_assembly() -> None:
    state = new_game(players=2, seed=9)
    shape = board.board_of(state)
    labels = [board.label(state, h) for h in shape.order]
    assert len(set(labels)) == len(labels)
    rows = [int("".join(ch for ch in lab if ch.isdigit())) for lab in labels]
    assert min(rows) == 1
    assert any(lab.startswith("A") for lab in labels)
    for h in shape.order[:20]:
        assert board.parse_hex(state, board.label(state, h).lower()) == h
    origin = state.label_origin
    state = finish_setup(state)
    assert state.label_origin == origin


@pytest.mark.rule("homm4:setup")
def test_player_count_and_board_size_limits() -> None:
    with pytest.raises(InvalidInput, match="2 to 6"):
        new_game(players=1)
    with pytest.raises(InvalidInput, match="2 to 6"):
        new_game(players=7)
    with pytest.raises(InvalidInput):
        new_game(players=2, map_sections=3)
    with pytest.raises(InvalidInput, match="at most 7"):
        new_game(players=2, map_sections=8)
