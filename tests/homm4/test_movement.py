"""The Movement Phase: managing Armies, Movement Points and terrain, captures, battles."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm4 import adventure, board, movement, zones
from engine.homm4.hexes import Hex, distance, neighbours
from engine.homm4.state import Army, Homm4State
from tests.homm4.adventure_helpers import (
    R,
    add_card,
    apply,
    clear_board,
    decline_all_sites,
    give_town,
    label,
    place_army,
    started,
    to_hand,
)


def _board_game(players: int = 2) -> Homm4State:
    """Seat 0 in its Movement Phase on an empty board, no scouting pending."""
    state = started(
        players=players,
        seed=21,
        decks=[{"deck": "deck_asylum"}, *[{"deck": "deck_haven"}] * (players - 1)],
    )
    clear_board(state)
    decline_all_sites(state)
    state.phase, state.active = "movement", 0
    corners = [
        h for h in reversed(board.board_of(state).order) if board.step_cost2(state, h) is not None
    ]
    for seat in range(1, players):
        _army(state, seat, corners[seat * 3], "peasant")
    return state


def _open_hex(state: Homm4State, min_passable: int = 6) -> Hex:
    """A hex whose neighbours are all passable and which has no site near it."""
    shape = board.board_of(state)
    for h in shape.order:
        ring = neighbours(h)
        if board.step_cost2(state, h) is None or any(n not in shape.terrain for n in ring):
            continue
        if sum(1 for n in ring if board.step_cost2(state, n) is not None) < min_passable:
            continue
        if any(distance(s.hex, h) <= 1 for s in state.sites):
            continue
        return h
    raise AssertionError("no open hex")


def _army(state: Homm4State, seat: int, where: Hex, *card_ids: str) -> Army:
    cards = [add_card(state, seat, c) for c in card_ids]
    army = place_army(state, seat, where, cards)
    for c in cards:
        if zones.is_hero(state, c):
            adventure.inventory(state, c)
    army.mp2 = movement.army_rules.full_mp2(state, army)
    return army


@pytest.mark.rule("homm4:movement-phase.movement-points-and-terrain")
def test_movement_points_come_from_the_top_card_and_terrain_costs_them() -> None:
    state = _board_game()
    start = _open_hex(state)
    army = _army(state, 0, start, "orc")
    assert army.mp2 == 2 * 3, "an Orc has 3 Movement Points"
    hero_army = _army(state, 0, start, "kestrel", "orc")
    assert hero_army.cards[0] == hero_army.cards[0] and zones.is_hero(state, hero_army.cards[0])
    assert hero_army.mp2 == 2 * 5, "the Hero on top gives the Army its 5 Movement Points"
    tree = movement.reachable(state, army)
    assert all(board.step_cost2(state, h) is not None for h in tree), (
        "impassable terrain is never entered"
    )
    assert all(cost <= army.mp2 for cost, _ in tree.values())
    step = next(n for n in neighbours(start) if board.step_cost2(state, n) is not None)
    cost = board.step_cost2(state, step)
    assert cost is not None
    state, events = apply(state, 0, {"type": "move", "army": army.id, "to": label(state, step)})
    moved = zones.army(state, army.id)
    assert moved.hex == step and moved.mp2 == 6 - cost
    assert events[-1].data["path"] == [label(state, start), label(state, step)]
    far = next(
        h
        for h in board.board_of(state).order
        if board.step_cost2(state, h) and h not in movement.reachable(state, moved)
    )
    with pytest.raises(IllegalMove, match="cannot reach"):
        apply(state, 0, {"type": "move", "army": army.id, "to": label(state, far)})


@pytest.mark.rule("homm4:movement-phase.movement-points-and-terrain")
def test_the_path_taken_is_the_cheapest() -> None:
    state = _board_game()
    start = _open_hex(state)
    army = _army(state, 0, start, "kestrel")
    tree = movement.reachable(state, army)
    target = max(tree, key=lambda h: (tree[h][0], h))
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": label(state, target)})
    moved = zones.army(state, army.id)
    assert moved.mp2 == 10 - tree[target][0]
    assert (
        state.last_move is not None
        and state.last_move.path[0] == start
        and state.last_move.path[-1] == target
    )
    walked = sum(board.step_cost2(state, h) or 0 for h in state.last_move.path[1:])
    assert walked == tree[target][0]


@pytest.mark.rule("homm4:movement-phase.managing-armies")
def test_at_most_four_armies_and_stack_order_after_a_split() -> None:
    state = _board_game()
    start = _open_hex(state)
    army = _army(state, 0, start, "kestrel", "orc", "bandit", "medusa", "efreet")
    kestrel, orc, bandit, medusa, efreet = army.cards
    state, _ = apply(state, 0, {"type": "split_army", "army": army.id, "cards": [orc, efreet]})
    new = zones.armies_of(state, 0)[-1]
    assert new.cards == [efreet, orc], (
        "without a Hero, the Unit with the highest Movement is on top"
    )
    assert new.mp2 == 2 * 5 and new.token == army.token + 1, "a new Army token"
    state, _ = apply(state, 0, {"type": "split_army", "army": army.id, "cards": [bandit]})
    state, _ = apply(state, 0, {"type": "split_army", "army": army.id, "cards": [medusa]})
    assert len(zones.armies_of(state, 0)) == 4
    first = zones.army(state, army.id)
    assert first.cards == [kestrel]
    other = zones.armies_of(state, 0)[1]
    with pytest.raises(IllegalMove, match="4 Armies"):
        apply(state, 0, {"type": "split_army", "army": other.id, "cards": [other.cards[1]]})


@pytest.mark.rule("homm4:movement-phase.managing-armies")
def test_only_armies_that_have_not_moved_split() -> None:
    state = _board_game()
    start = _open_hex(state)
    army = _army(state, 0, start, "kestrel", "orc")
    step = next(n for n in neighbours(start) if board.step_cost2(state, n) is not None)
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": label(state, step)})
    with pytest.raises(IllegalMove, match="already moved"):
        apply(state, 0, {"type": "split_army", "army": army.id, "cards": [army.cards[1]]})


@pytest.mark.rule("homm4:movement-phase.managing-armies")
def test_exchanging_cards_ends_the_movement_of_both_armies() -> None:
    state = _board_game()
    start = _open_hex(state)
    first = _army(state, 0, start, "kestrel", "orc")
    second = _army(state, 0, start, "bandit", "bandit")
    state, _events = apply(
        state,
        0,
        {"type": "transfer", "source": second.id, "target": first.id, "cards": [second.cards[0]]},
    )
    a, b = zones.army(state, first.id), zones.army(state, second.id)
    assert a.done and b.done and len(a.cards) == 3 and len(b.cards) == 1
    with pytest.raises(IllegalMove, match="ended"):
        apply(state, 0, {"type": "move", "army": a.id, "to": label(state, neighbours(start)[0])})
    state, _ = apply(
        state, 0, {"type": "transfer", "source": b.id, "target": a.id, "cards": b.cards}
    )
    assert [x.id for x in zones.armies_of(state, 0)] == [first.id], (
        "moving every card merges the Armies"
    )


@pytest.mark.rule("homm4:movement-phase.managing-armies")
def test_forming_an_army_from_a_garrison() -> None:
    state = _board_game()
    site = give_town(state, 0)
    orc, bandit = add_card(state, 0, "orc"), add_card(state, 0, "bandit")
    site.garrison += [orc, bandit]
    state, _ = apply(
        state, 0, {"type": "form_army", "town": label(state, site.hex), "cards": [orc, bandit]}
    )
    army = zones.armies_of(state, 0)[0]
    assert army.hex == site.hex and army.cards == [bandit, orc] and army.mp2 == 8
    assert state.sites[site.id].garrison == []


@pytest.mark.rule("homm4:battles.attackers-and-defenders")
def test_entering_an_enemy_army_starts_a_battle_and_the_mover_stops() -> None:
    state = _board_game()
    start = _open_hex(state)
    mine = _army(state, 0, start, "kestrel", "orc")
    target = next(n for n in neighbours(start) if board.step_cost2(state, n) is not None)
    theirs = _army(state, 1, target, "squire")
    tree = movement.reachable(state, mine)
    assert target in tree
    assert all(tree[h][1] != target for h in tree), "no path goes through the enemy's hex"
    state, _events = apply(state, 0, {"type": "move", "army": mine.id, "to": label(state, target)})
    assert state.battle is not None
    assert (
        state.battle.attacker == 0
        and state.battle.defender == 1
        and state.battle.defender_kind == "army"
    )
    assert state.battle.defender_armies == [theirs.id]
    moved = zones.army(state, mine.id)
    assert moved.hex == target and moved.done
    assert [d.kind for d in R.pending(state)] != ["movement"], "the battle decides first"


@pytest.mark.rule("homm4:movement-phase.managing-armies")
def test_merging_exception_armies_on_one_hex_attack_together() -> None:
    state = _board_game()
    start = _open_hex(state)
    first = _army(state, 0, start, "kestrel", "orc")
    second = _army(state, 0, start, "bandit")
    target = next(n for n in neighbours(start) if board.step_cost2(state, n) is not None)
    _army(state, 1, target, "squire")
    far = next(
        h
        for h in board.board_of(state).order
        if board.step_cost2(state, h) and distance(h, start) > 1
    )
    with pytest.raises(IllegalMove, match="Merging exception"):
        apply(
            state,
            0,
            {"type": "move", "army": first.id, "to": label(state, far), "with_armies": [second.id]},
        )
    state, events = apply(
        state,
        0,
        {"type": "move", "army": first.id, "to": label(state, target), "with_armies": [second.id]},
    )
    assert [a.id for a in zones.armies_of(state, 0)] == [first.id]
    assert len(zones.army(state, first.id).cards) == 3
    assert events[0].kind == "merge" and state.battle is not None


@pytest.mark.rule("homm4:movement-phase.creature-dwellings")
def test_recruiting_at_a_captured_dwelling_goes_straight_into_the_army() -> None:
    state = _board_game()
    site = next(s for s in state.sites if s.kind == "dwelling")
    site.card = add_card(state, 1, "orc")
    site.owner = 0
    army = _army(state, 0, site.hex, "kestrel")
    orc = to_hand(state, 0, "orc")
    coin = to_hand(state, 0, "magic_arrow")
    bandit = to_hand(state, 0, "bandit")
    with pytest.raises(IllegalMove, match="sells only Orc"):
        apply(state, 0, {"type": "recruit", "army": army.id, "card": bandit, "pay": [coin]})
    state, _events = apply(
        state, 0, {"type": "recruit", "army": army.id, "card": orc, "pay": [coin]}
    )
    assert zones.army(state, army.id).cards[-1] == orc
    assert coin in state.players_state[0].discard
    site.owner = 1
    state.sites[site.id].owner = 1
    orc2 = to_hand(state, 0, "orc")
    with pytest.raises(IllegalMove, match="Dwelling you control"):
        apply(state, 0, {"type": "recruit", "army": army.id, "card": orc2})


def _walk_onto(state: Homm4State, army: Army, where: Hex) -> Homm4State:
    side = next(
        n
        for n in neighbours(where)
        if board.step_cost2(state, n) is not None and zones.site_at(state, n) is None
    )
    army.hex = side
    army.mp2 = 10
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": label(state, where)})
    return state


@pytest.mark.rule("homm4:movement-phase.objects")
def test_objects_are_captured_only_by_an_army_with_a_hero() -> None:
    state = _board_game()
    site = next(s for s in state.sites if s.kind == "object")
    site.card = add_card(state, 1, "gold_mine")
    army = _army(state, 0, site.hex, "orc")
    state = _walk_onto(state, army, site.hex)
    assert state.sites[site.id].owner is None, "an Army without a Hero cannot capture an Object"
    hero_army = _army(state, 0, site.hex, "kestrel")
    state = _walk_onto(state, hero_army, site.hex)
    assert state.sites[site.id].owner == 0


@pytest.mark.rule("homm4:movement-phase.objects")
def test_a_captured_artifact_goes_under_the_hero() -> None:
    state = _board_game()
    site = next(s for s in state.sites if s.kind == "object")
    crown = add_card(state, 1, "crown_of_command")
    site.card = crown
    army = _army(state, 0, site.hex, "kestrel", "orc")
    hero = army.cards[0]
    state = _walk_onto(state, army, site.hex)
    assert crown in state.inventories[hero].artifacts
    assert state.sites[site.id].spent and state.sites[site.id].card is None


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.heroes-and-artifacts")
def test_no_free_slot_asks_which_artifact_to_discard() -> None:
    state = _board_game()
    site = next(s for s in state.sites if s.kind == "object")
    crown = add_card(state, 1, "crown_of_command")
    site.card = crown
    army = _army(state, 0, site.hex, "kestrel")
    hero = army.cards[0]
    helm = add_card(state, 0, "skull_helm")
    state.inventories[hero].artifacts[helm] = ["head"]
    state = _walk_onto(state, army, site.hex)
    assert state.limbo == [crown] and state.interrupts[0].kind == "artifact_room"
    state, _ = apply(state, 0, {"type": "make_artifact_room", "discard": helm})
    assert state.inventories[hero].artifacts == {crown: ["head"]}
    assert helm in state.players_state[0].discard and state.limbo == []


@pytest.mark.rule("homm4:movement-phase.towns")
def test_an_empty_enemy_town_and_a_free_town_are_taken_by_entering() -> None:
    state = _board_game(players=2)
    site = give_town(state, 1)
    army = _army(state, 0, site.hex, "orc")
    state = _walk_onto(state, army, site.hex)
    assert state.sites[site.id].owner == 0 and state.battle is None
    assert state.sites[site.id].level == 1
    other = [s for s in state.sites if s.kind == "town"][1]
    other.card = add_card(state, 1, "haven")
    other.free_town = True
    army2 = _army(state, 0, other.hex, "bandit")
    state = _walk_onto(state, army2, other.hex)
    assert state.sites[other.id].owner == 0, "any Army entering an unguarded free Town takes it"


@pytest.mark.rule("homm4:movement-phase.towns")
def test_a_captured_town_keeps_its_level() -> None:
    state = _board_game(players=2)
    site = give_town(state, 1)
    site.level = 3
    army = _army(state, 0, site.hex, "orc")
    state = _walk_onto(state, army, site.hex)
    assert state.sites[site.id].owner == 0 and state.sites[site.id].level == 3


@pytest.mark.rule("homm4:battles.attackers-and-defenders")
def test_a_guarded_unclaimed_town_is_fought_without_walls_an_owned_one_with_them() -> None:
    """The Guard of a Town nobody holds yet is wandering monsters: a Guard battle, no walls.
    A player's Town with defenders is a Town battle: walls intact, defense 10."""
    for owned in (False, True):
        state = _board_game()
        site = next(s for s in state.sites if s.kind == "town")
        site.card = add_card(state, 1, "haven")
        defender = add_card(state, 1, "squire")
        if owned:
            site.owner, site.garrison = 1, [defender]
        else:
            site.guard, site.guard_player = [defender], 1
        start = next(n for n in neighbours(site.hex) if board.step_cost2(state, n) is not None)
        mine = _army(state, 0, start, "kestrel", "orc")
        state, _ = apply(state, 0, {"type": "move", "army": mine.id, "to": label(state, site.hex)})
        assert state.battle is not None
        kind, walls = ("town", "intact") if owned else ("guard", "none")
        assert (state.battle.defender_kind, state.battle.walls) == (kind, walls)


@pytest.mark.rule("homm4:movement-phase.movement-points-and-terrain")
def test_one_movement_point_left_is_said_in_the_singular() -> None:
    state = _board_game()
    start = _open_hex(state)
    army = _army(state, 0, start, "orc")
    step = next(n for n in neighbours(start) if board.step_cost2(state, n) == 2)
    army.mp2 = 4  # 2 Movement Points, a step costs 1
    state, events = apply(state, 0, {"type": "move", "army": army.id, "to": label(state, step)})
    move = next(e for e in events if e.kind == "move")
    assert move.text.endswith("(1 Movement Point left).")
    far = next(
        h
        for h in board.board_of(state).order
        if board.step_cost2(state, h) and distance(h, step) > 3
    )
    with pytest.raises(IllegalMove, match="with 1 Movement Point left"):
        apply(state, 0, {"type": "move", "army": army.id, "to": label(state, far)})


@pytest.mark.rule("homm4:movement-phase.movement-points-and-terrain")
def test_a_refused_move_names_the_hexes_that_can_be_reached_nearest_first() -> None:
    state = _board_game()
    start = _open_hex(state)
    army = _army(state, 0, start, "orc")
    army.mp2 = 8  # 4 Movement Points
    tree = movement.reachable(state, army)
    far = next(
        h for h in board.board_of(state).order if board.step_cost2(state, h) and h not in tree
    )
    with pytest.raises(IllegalMove) as refused:
        apply(state, 0, {"type": "move", "army": army.id, "to": label(state, far)})
    text = str(refused.value)
    head = f"Reachable from {label(state, start)} with 4 Movement Points: "
    assert head in text
    listed = text.split(head)[1].split(" (and")[0].rstrip(".").split(", ")
    stops = [h for h in tree if h != start]
    assert len(listed) == min(movement.REACHABLE_SHOWN, len(stops)) == 12
    assert f"(and {len(stops) - 12} more)." in text
    spent = [tree[board.parse_hex(state, name)][0] for name in listed]
    assert spent == sorted(spent), "nearest first"
    assert spent[0] == min(tree[h][0] for h in stops)
    assert {board.parse_hex(state, name) for name in listed} <= set(stops)
    army = zones.army(state, army.id)
    army.mp2 = 0
    assert movement.reachable_text(state, army) == (
        f"Reachable from {label(state, start)} with 0 Movement Points: no hex."
    )
