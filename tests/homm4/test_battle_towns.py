"""Battles in Towns: the Town card (defense 10), Breach, Sack, ranged penalties, flyers and
sallies (homm4:battles, "Battles in Towns")."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm4 import battle
from engine.homm4.commands import Attack, CastSpell, Defend, FillFront
from tests.homm4.battle_fixtures import (
    Builder,
    act,
    cid,
    fight,
    set_rolls,
    small_pool,
    texts,
    zone_count,
)

__all__ = ["small_pool"]

pytestmark = pytest.mark.usefixtures("small_pool")


def pass_until(b: Builder, creature: int) -> None:
    for _ in range(100):
        assert b.state.battle is not None and b.state.battle.stage == "fight"
        due = [c.id for c in battle.due_creatures(b.state)]
        if creature in due:
            return
        act(b, Defend(creature=due[0]))
    raise AssertionError("creature never became due")


def town_fight(
    b: Builder, attacker: list[tuple[list[int], str]], garrison: list[tuple[list[int], str]]
) -> int:
    cards = [c for group, _ in garrison for c in group]
    town = b.town(1, (0, 0), garrison=cards)
    fight(b, attacker, garrison, kind="town", site=town)
    return town.id


@pytest.mark.rule("homm4:battles")
def test_town_defender_may_stand_behind_the_walls() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    orc = b.card("orc", 1)
    halfling = b.card("halfling", 1)
    town_fight(b, [(golems, "melee")], [([orc], "ranged"), ([halfling], "ranged")])
    view = battle.battle_view(b.state)
    assert view is not None and view.walls == "intact" and view.town is not None
    assert all(c.line == "ranged" for c in view.creatures if c.side == 1)
    # with the walls standing only the Town card is in Melee reach
    g = battle.creature(b.state, cid(b, golems[0]))
    assert battle.melee_targets(b.state, g) == ["walls"]


@pytest.mark.rule("homm4:battles")
def test_walls_defense_10_breach_then_sack() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    garrison = [b.card("bandit", 1), b.card("halfling", 1), b.card("orc", 1)]
    town_fight(b, [(golems, "melee")], [([c], "ranged") for c in garrison])
    g = cid(b, golems[0])
    pass_until(b, g)
    set_rolls(b.state, [2])  # 7 + 2 = 9 < 10
    events, _ = act(b, Attack(creature=g, mode="melee", target_walls=True))
    assert "9 vs defense 10: the walls hold" in texts(events)[0]
    assert b.state.battle is not None and b.state.battle.walls == "intact"
    pass_until(b, g)
    set_rolls(b.state, [3])  # 7 + 3 = 10: a Breach
    events, _ = act(b, Attack(creature=g, mode="melee", target_walls=True))
    assert b.state.battle.walls == "breach"
    assert "a Breach" in texts(events)[0]
    # the Defender must immediately place one Creature on the front line: its choice
    assert b.state.battle.stage == "fill_front" and b.state.battle.to_act == 1
    assert len(battle.battle_legal(b.state, 1)) == 3
    act(b, FillFront(creature=cid(b, garrison[0])))
    assert [c.line for c in battle.creatures_of(b.state, 1)] == ["melee", "ranged", "ranged"]
    # the Attacker may now hit the Bandit in front, or the walls again
    pass_until(b, g)
    set_rolls(b.state, [3])
    events, _ = act(b, Attack(creature=g, mode="melee", target_walls=True))
    assert b.state.battle.walls == "sack"
    # at least two different Creatures on the front line now
    assert b.state.battle.stage == "fill_front"
    act(b, FillFront(creature=cid(b, garrison[2])))
    assert sum(1 for c in battle.creatures_of(b.state, 1) if c.line == "melee") == 2
    pass_until(b, g)
    with pytest.raises(IllegalMove, match="already sacked"):
        act(b, Attack(creature=g, mode="melee", target_walls=True))


@pytest.mark.rule("homm4:battles")
def test_only_melee_attacks_hit_the_walls() -> None:
    b = Builder()
    orcs = b.cards("orc", 0, 2)
    halfling = b.card("halfling", 1)
    town_fight(b, [(orcs, "melee")], [([halfling], "ranged")])
    pass_until(b, cid(b, orcs[0]))
    with pytest.raises(IllegalMove, match="only in Melee"):
        act(b, Attack(creature=cid(b, orcs[0]), mode="ranged", target_walls=True))


def _penalty_setup(b: Builder, walls: str) -> tuple[int, int, int]:
    orcs = b.cards("orc", 0, 2)  # ranged 3 + stack 1 = 4
    pike = b.card("pikeman", 0)
    bandit = b.card("bandit", 0)
    golem = b.card("golden_golem", 1)
    halfling = b.card("halfling", 1)
    town_fight(
        b,
        [(orcs, "melee"), ([pike], "melee"), ([bandit], "melee")],
        [([golem], "melee"), ([halfling], "ranged")],
    )
    assert b.state.battle is not None
    b.state.battle.walls = walls  # type: ignore[assignment]
    pass_until(b, cid(b, orcs[0]))
    return cid(b, orcs[0]), cid(b, halfling), cid(b, golem)


@pytest.mark.rule("homm4:battles")
@pytest.mark.parametrize(("walls", "value"), [("intact", 2), ("breach", 3), ("sack", 4)])
def test_ranged_penalty_against_the_back_line(walls: str, value: int) -> None:
    b = Builder()
    orc, halfling, _ = _penalty_setup(b, walls)
    set_rolls(b.state, [1])
    events, _ = act(b, Attack(creature=orc, mode="ranged", targets=(halfling,)))
    data = next(e.data for e in events if e.kind == "battle_attack")
    assert data["attack_value"] == value


@pytest.mark.rule("homm4:battles")
def test_no_ranged_penalty_against_the_front_line() -> None:
    b = Builder()
    orc, _, golem = _penalty_setup(b, "intact")
    set_rolls(b.state, [1])
    events, _ = act(b, Attack(creature=orc, mode="ranged", targets=(golem,)))
    assert next(e.data for e in events if e.kind == "battle_attack")["attack_value"] == 4


@pytest.mark.rule("homm4:battles")
def test_no_penalty_for_shooters_that_ignore_obstacles_or_for_spells() -> None:
    b = Builder()
    sprite = b.card("sprite", 0)  # flies, Ranged 1
    sorcerer = b.card("sorcerer", 0)
    arrow = b.spell(sorcerer, "magic_arrow")
    pike = b.card("pikeman", 0)
    halflings = b.cards("halfling", 1, 3)
    town_fight(
        b, [([sprite], "melee"), ([sorcerer], "melee"), ([pike], "melee")], [(halflings, "ranged")]
    )
    h = cid(b, halflings[0])
    set_rolls(b.state, [1])
    events, _ = act(b, Attack(creature=cid(b, sprite), mode="ranged", targets=(h,)))
    assert next(e.data for e in events if e.kind == "battle_attack")["attack_value"] == 1
    pass_until(b, cid(b, sorcerer))
    set_rolls(b.state, [1])
    events, _ = act(b, CastSpell(creature=cid(b, sorcerer), spell=arrow, targets=(h,)))
    assert next(e.data for e in events if e.kind == "battle_attack")["attack_value"] == 3 + 1


@pytest.mark.rule("homm4:battles")
def test_flyers_cannot_pass_intact_walls_until_a_breach() -> None:
    b = Builder()
    griffin = b.card("griffin", 0)
    orc = b.card("orc", 1)
    town_fight(b, [([griffin], "melee")], [([orc], "ranged")])
    g = cid(b, griffin)
    with pytest.raises(IllegalMove, match="cannot pass intact Town walls"):
        act(b, Attack(creature=g, mode="melee", targets=(cid(b, orc),)))
    assert b.state.battle is not None
    b.state.battle.walls = "breach"
    assert cid(b, orc) in battle.melee_targets(b.state, battle.creature(b.state, g))


@pytest.mark.rule("homm4:battles")
def test_sally_from_behind_the_walls_keeps_the_attack() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 2)
    troll = b.card("troll", 1)
    town_id = town_fight(b, [(golems, "melee")], [([troll], "ranged")])
    pass_until(b, cid(b, troll))  # Phase 8
    set_rolls(b.state, [10])
    events, outcome = act(
        b, Attack(creature=cid(b, troll), mode="melee", targets=(cid(b, golems[0]),))
    )
    assert any("sallies from behind the walls" in t for t in texts(events))
    assert battle.creature(b.state, cid(b, troll)).line == "melee"
    assert outcome is None
    assert b.state.sites[town_id].garrison == [troll]


@pytest.mark.rule("homm4:battles")
def test_last_garrison_creature_killed_ends_the_battle() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    bandit = b.card("bandit", 1)
    town_id = town_fight(b, [(golems, "melee")], [([bandit], "melee")])
    pass_until(b, cid(b, golems[0]))
    set_rolls(b.state, [1])
    _, outcome = act(b, Attack(creature=cid(b, golems[0]), mode="melee", targets=(cid(b, bandit),)))
    assert outcome is not None and outcome.winner == 0 and outcome.defender_kind == "town"
    assert outcome.site == town_id
    assert b.state.sites[town_id].garrison == []
    assert bandit in b.state.players_state[1].discard
    assert b.state.battle is None
    assert set(zone_count(b.state).values()) == {1}


@pytest.mark.rule("homm4:battles")
def test_town_defenders_never_retreat_or_surrender() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    knight = b.card("knight", 1)
    town_fight(b, [(golems, "melee")], [([knight], "ranged")])
    assert "may not retreat" in (battle.retreat_problem(b.state, 1) or "")
    assert "may not surrender" in (battle.surrender_problem(b.state, 1) or "")
