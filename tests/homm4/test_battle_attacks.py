"""Attacks, Mass attacks, Support, Grouping, Defense and Counterattacks with the rulebook's
numbers (homm4:battles.*)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm4 import battle
from engine.homm4.commands import Attack, Counterattack, Defend, Group, Regroup, SupportCreature
from tests.homm4.battle_fixtures import Builder, act, cid, fight, set_rolls, small_pool, texts

__all__ = ["small_pool"]

pytestmark = pytest.mark.usefixtures("small_pool")


def pass_until(b: Builder, creature: int) -> None:
    """Let every other due Creature defend until ``creature`` is due."""
    for _ in range(100):
        assert b.state.battle is not None
        assert b.state.battle.stage == "fight", b.state.battle.stage
        due = [c.id for c in battle.due_creatures(b.state)]
        if creature in due:
            return
        act(b, Defend(creature=due[0]))
    raise AssertionError("creature never became due")


def attack_event(events: list[object]) -> dict[str, object]:
    found = [e for e in events if getattr(e, "kind", "") == "battle_attack"]
    assert found, events
    data = found[0].data  # type: ignore[attr-defined]
    assert isinstance(data, dict)
    return data


@pytest.mark.rule("homm4:battles.making-a-melee-attack")
def test_stack_of_three_golden_golems_attacks_at_3_plus_2_plus_2() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    troll = b.cards("troll", 1, 1)
    fight(b, [(golems, "melee")], [(troll, "melee")])
    g = b.state.battle.creatures[0] if b.state.battle else None
    assert g is not None
    assert battle.melee_value(b.state, g) + battle.stack_bonus(b.state, g) == 7
    set_rolls(b.state, [6])
    events, outcome = act(
        b, Attack(creature=cid(b, golems[0]), mode="melee", targets=(cid(b, troll[0]),))
    )
    data = attack_event(events)
    assert (data["attack_value"], data["roll"], data["total"], data["defense"]) == (7, 6, 13, 13)
    assert data["killed"] == troll
    assert "(3, stack +4) + roll 6 = 13 vs defense 13: 1 killed" in texts(events)[0]
    assert outcome is not None and outcome.winner == 0 and outcome.how == "annihilation"
    assert troll[0] in b.state.players_state[1].discard


@pytest.mark.rule("homm4:battles.making-a-melee-attack")
def test_a_roll_below_the_defense_has_no_effect() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    troll = b.cards("troll", 1, 1)
    fight(b, [(golems, "melee")], [(troll, "melee")])
    set_rolls(b.state, [5])
    events, outcome = act(
        b, Attack(creature=cid(b, golems[0]), mode="melee", targets=(cid(b, troll[0]),))
    )
    data = attack_event(events)
    assert (data["total"], data["defense"], data["killed"]) == (12, 13, [])
    assert outcome is None


@pytest.mark.rule("homm4:battles.making-a-melee-attack")
@pytest.mark.parametrize(("roll", "killed"), [(1, 0), (2, 3)])
def test_mass_attack_sums_the_defenses_of_the_declared_cards(roll: int, killed: int) -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    pikemen = b.cards("pikeman", 1, 3)  # Defense 3 each: 3 cards = 9
    fight(b, [(golems, "melee")], [(pikemen, "melee")])
    act(b, Group(creature=cid(b, pikemen[0])))  # Phase 2; grouping leaves Defense alone
    set_rolls(b.state, [roll])
    events, outcome = act(
        b, Attack(creature=cid(b, golems[0]), mode="melee", targets=(cid(b, pikemen[0]),), count=3)
    )
    data = attack_event(events)
    assert data["defense"] == 9
    assert data["total"] == 7 + roll
    assert len(data["killed"]) == killed  # type: ignore[arg-type]
    assert (outcome is not None) == (killed == 3)
    if killed == 0:
        assert b.state.battle is not None and b.state.battle.stage == "counter"


@pytest.mark.rule("homm4:battles.making-a-melee-attack")
def test_mass_attack_cannot_declare_more_cards_than_the_stack() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    pikemen = b.cards("pikeman", 1, 2)
    fight(b, [(golems, "melee")], [(pikemen, "melee")])
    act(b, Group(creature=cid(b, pikemen[0])))
    with pytest.raises(IllegalMove, match="only 2 card"):
        act(
            b,
            Attack(
                creature=cid(b, golems[0]), mode="melee", targets=(cid(b, pikemen[0]),), count=3
            ),
        )


@pytest.mark.rule("homm4:battles.making-a-ranged-attack")
def test_ranged_attack_value_0_cannot_shoot() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    troll = b.cards("troll", 1, 1)
    fight(b, [(golems, "melee")], [(troll, "melee")])
    with pytest.raises(IllegalMove, match="Ranged attack of 0"):
        act(b, Attack(creature=cid(b, golems[0]), mode="ranged", targets=(cid(b, troll[0]),)))
    legal = battle.battle_legal(b.state, 0)
    assert not [c for c in legal if isinstance(c, Attack) and c.mode == "ranged"]
    with pytest.raises(IllegalMove) as no_caster:
        act(b, Attack(creature=cid(b, golems[0]), mode="spell", targets=(cid(b, troll[0]),)))
    assert no_caster.value.message.endswith(
        "cannot make a spell attack: it is no spellcaster. "
        "A Hero casts a Spell by giving up its attack."
    )


@pytest.mark.rule("homm4:battles.making-a-ranged-attack")
def test_ranged_attack_from_the_back_line_at_the_back_line() -> None:
    b = Builder()
    front = [b.card("pikeman", 0), b.card("bandit", 0), b.card("golden_golem", 0)]
    orc = b.card("orc", 0)
    enemy_front = [b.card("pikeman", 1), b.card("bandit", 1), b.card("golden_golem", 1)]
    halfling = b.card("halfling", 1)
    fight(
        b,
        [*[([c], "melee") for c in front], ([orc], "ranged")],
        [*[([c], "melee") for c in enemy_front], ([halfling], "ranged")],
    )
    pass_until(b, cid(b, orc))
    set_rolls(b.state, [2])
    events, _ = act(b, Attack(creature=cid(b, orc), mode="ranged", targets=(cid(b, halfling),)))
    data = attack_event(events)
    # halfling defended in Phase 5: 2 + level 1 = 3; the Orc shoots at 3 + 2 = 5
    assert (data["attack_value"], data["total"], data["defense"]) == (3, 5, 3)
    assert data["killed"] == [halfling]


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_melee_needs_the_front_line_and_reaches_only_the_front_line() -> None:
    b = Builder()
    front = [b.card("pikeman", 0), b.card("bandit", 0), b.card("golden_golem", 0)]
    orc = b.card("orc", 0)
    enemy_front = [b.card("pikeman", 1), b.card("bandit", 1), b.card("golden_golem", 1)]
    halfling = b.card("halfling", 1)
    fight(
        b,
        [*[([c], "melee") for c in front], ([orc], "ranged")],
        [*[([c], "melee") for c in enemy_front], ([halfling], "ranged")],
    )
    act(b, Defend(creature=cid(b, front[0])))  # Phase 2
    act(b, Defend(creature=cid(b, enemy_front[0])))
    with pytest.raises(IllegalMove, match="on the Ranged Line: only Ranged attacks"):
        act(b, Attack(creature=cid(b, front[1]), mode="melee", targets=(cid(b, halfling),)))
    pass_until(b, cid(b, orc))
    with pytest.raises(IllegalMove, match="may only shoot or cast"):
        act(b, Attack(creature=cid(b, orc), mode="melee", targets=(cid(b, enemy_front[0]),)))


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_flying_creature_hits_the_back_line_and_moves_to_the_front() -> None:
    b = Builder()
    front = [b.card("pikeman", 0), b.card("bandit", 0), b.card("golden_golem", 0)]
    griffin = b.card("griffin", 0)
    enemy_front = [b.card("troll", 1), b.card("cerberus", 1), b.card("golden_golem", 1)]
    orc = b.card("orc", 1)
    fight(
        b,
        [*[([c], "melee") for c in front], ([griffin], "ranged")],
        [*[([c], "melee") for c in enemy_front], ([orc], "ranged")],
    )
    pass_until(b, cid(b, griffin))
    set_rolls(b.state, [1])
    events, _ = act(b, Attack(creature=cid(b, griffin), mode="melee", targets=(cid(b, orc),)))
    assert any("moves to the Melee Line" in t for t in texts(events))
    assert attack_event(events)["killed"] == [orc]  # 4 + 1 = 5 vs 2
    assert battle.creature(b.state, cid(b, griffin)).line == "melee"


@pytest.mark.rule("homm4:battles.making-support")
def test_support_of_three_golden_golems_is_6() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    troll = b.card("troll", 0)
    pike = b.card("pikeman", 0)
    enemy = [b.card("golden_golem", 1), b.card("cerberus", 1), b.card("bandit", 1)]
    fight(
        b,
        [(golems, "melee"), ([troll], "melee"), ([pike], "melee")],
        [([c], "melee") for c in enemy],
    )
    pass_until(b, cid(b, golems[0]))
    events, _ = act(b, SupportCreature(creature=cid(b, golems[0]), target=cid(b, troll)))
    assert [e.data["value"] for e in events if e.kind == "battle_support"] == [6]
    assert battle.support_value(b.state, battle.creature(b.state, cid(b, golems[0]))) == 6
    pass_until(b, cid(b, troll))
    set_rolls(b.state, [1])
    target = cid(b, enemy[0])
    events, _ = act(b, Attack(creature=cid(b, troll), mode="melee", targets=(target,)))
    data = attack_event(events)
    # the Troll's 5 + the Golems' Support 6; the enemy Golem defended in Phase 7: 7 + 2
    assert (data["attack_value"], data["total"], data["defense"]) == (11, 12, 9)
    # Support is used by that attack only
    assert battle.creature(b.state, cid(b, troll)).supports == []


@pytest.mark.rule("homm4:battles.making-support")
@pytest.mark.parametrize(("target_line", "value"), [("ranged", 3), ("melee", 3 + 6)])
def test_support_counts_only_against_targets_the_supporter_could_attack(
    target_line: str, value: int
) -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    front = [b.card("pikeman", 0), b.card("bandit", 0)]
    orc = b.card("orc", 0)
    enemy_front = [b.card("troll", 1), b.card("cerberus", 1), b.card("pikeman", 1)]
    halfling = b.card("halfling", 1)
    fight(
        b,
        [(golems, "melee"), *[([c], "melee") for c in front], ([orc], "ranged")],
        [*[([c], "melee") for c in enemy_front], ([halfling], "ranged")],
    )
    pass_until(b, cid(b, golems[0]))
    act(b, SupportCreature(creature=cid(b, golems[0]), target=cid(b, orc)))
    pass_until(b, cid(b, orc))  # next Round, Phase 6
    assert b.state.battle is not None and b.state.battle.round == 2
    target = cid(b, halfling) if target_line == "ranged" else cid(b, enemy_front[0])
    set_rolls(b.state, [1])
    events, _ = act(b, Attack(creature=cid(b, orc), mode="ranged", targets=(target,)))
    assert attack_event(events)["attack_value"] == value


@pytest.mark.rule("homm4:battles.grouping")
def test_grouped_golems_attack_at_14_and_beat_defense_13_on_any_roll() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    troll = b.cards("troll", 1, 1)
    fight(b, [(golems, "melee")], [(troll, "melee")])
    events, _ = act(b, Group(creature=cid(b, golems[0])))
    assert battle.creature(b.state, cid(b, golems[0])).grouped
    act(b, Group(creature=cid(b, troll[0])))  # Phase 8: the Troll does not defend
    assert b.state.battle is not None and b.state.battle.round == 2
    set_rolls(b.state, [1])  # the lowest roll
    events, outcome = act(
        b, Attack(creature=cid(b, golems[0]), mode="melee", targets=(cid(b, troll[0]),))
    )
    data = attack_event(events)
    assert (data["attack_value"], data["total"], data["defense"]) == (14, 15, 13)
    assert data["killed"] == troll
    assert outcome is not None and outcome.winner == 0


@pytest.mark.rule("homm4:battles.defense")
def test_defending_golden_golem_has_defense_9_until_its_next_turn() -> None:
    b = Builder()
    bandit = b.cards("bandit", 0, 1)
    golems = b.cards("golden_golem", 1, 3)
    fight(b, [(bandit, "melee")], [(golems, "melee")])
    act(b, Defend(creature=cid(b, bandit[0])))  # Phase 3
    act(b, Defend(creature=cid(b, golems[0])))  # Phase 7
    g = battle.creature(b.state, cid(b, golems[0]))
    assert battle.card_defense(b.state, g, golems[0]) == 9
    set_rolls(b.state, [7])  # 1 + 7 = 8: kills a Golem at 7, not at 9
    events, _ = act(b, Attack(creature=cid(b, bandit[0]), mode="melee", targets=(g.id,)))
    data = attack_event(events)
    assert (data["total"], data["defense"], data["killed"]) == (8, 9, [])
    act(b, Counterattack(strike=False))
    # at their next turn the Golems leave the defensive position
    act(b, Group(creature=g.id))
    assert battle.card_defense(b.state, g, golems[0]) == 7


@pytest.mark.rule("homm4:battles.regrouping")
def test_regroup_back_keeps_three_creatures_on_the_front_line() -> None:
    b = Builder()
    three = [b.card("pikeman", 0), b.card("bandit", 0), b.card("golden_golem", 0)]
    enemy = [b.card("troll", 1)]
    fight(b, [([c], "melee") for c in three], [(enemy, "melee")])
    pike = cid(b, three[0])
    assert not battle.can_regroup(b.state, battle.creature(b.state, pike))
    with pytest.raises(IllegalMove, match="must keep 3"):
        act(b, Regroup(creature=pike))
    assert Regroup(creature=pike) not in battle.battle_legal(b.state, 0)


@pytest.mark.rule("homm4:battles.regrouping")
def test_regroup_gives_up_the_attack_to_switch_lines() -> None:
    b = Builder()
    four = [b.card("pikeman", 0), b.card("bandit", 0), b.card("golden_golem", 0), b.card("orc", 0)]
    enemy = [b.card("troll", 1)]
    fight(b, [([c], "melee") for c in four], [(enemy, "melee")])
    pike = cid(b, four[0])
    events, _ = act(b, Regroup(creature=pike))
    cr = battle.creature(b.state, pike)
    assert cr.line == "ranged" and cr.acted
    assert "regroups to the Ranged Line" in texts(events)[0]


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_automatic_move_forward_keeps_the_attack() -> None:
    b = Builder()
    front = [b.card("pikeman", 0), b.card("bandit", 0), b.card("golden_golem", 0)]
    orc = b.card("orc", 0)
    cerberus = b.card("cerberus", 1)
    fight(b, [*[([c], "melee") for c in front], ([orc], "ranged")], [([cerberus], "melee")])
    pass_until(b, cid(b, cerberus))  # Phase 3, the Defender
    set_rolls(b.state, [5])  # 3 + 5 = 8 vs the defending Pikeman's 3 + 1
    events, _ = act(b, Attack(creature=cid(b, cerberus), mode="melee", targets=(cid(b, front[0]),)))
    assert attack_event(events)["killed"] == [front[0]]
    assert any("moves up to the Melee Line" in t for t in texts(events))
    o = battle.creature(b.state, cid(b, orc))
    assert o.line == "melee" and not o.acted
    pass_until(b, o.id)  # the Orc still acts in Phase 6
    assert b.state.battle is not None and b.state.battle.phase == 6


@pytest.mark.rule("homm4:battles.regrouping")
def test_fill_front_is_a_decision_when_several_can_move() -> None:
    from engine.homm4.commands import FillFront

    b = Builder()
    front = [b.card("pikeman", 0), b.card("bandit", 0), b.card("golden_golem", 0)]
    back = [b.card("orc", 0), b.card("halfling", 0)]
    cerberus = b.card("cerberus", 1)
    fight(
        b,
        [*[([c], "melee") for c in front], *[([c], "ranged") for c in back]],
        [([cerberus], "melee")],
    )
    pass_until(b, cid(b, cerberus))
    set_rolls(b.state, [5])
    act(b, Attack(creature=cid(b, cerberus), mode="melee", targets=(cid(b, front[0]),)))
    assert b.state.battle is not None and b.state.battle.stage == "fill_front"
    assert [d.seat for d in battle.battle_pending(b.state)] == [0]
    assert battle.battle_legal(b.state, 0) == [FillFront(creature=cid(b, c)) for c in back]
    act(b, FillFront(creature=cid(b, back[1])))
    assert battle.creature(b.state, cid(b, back[1])).line == "melee"
    assert battle.creature(b.state, cid(b, back[0])).line == "ranged"


# --------------------------------------------------------------- counterattack
@pytest.mark.rule("homm4:battles.counterattack")
def test_bandit_kills_the_top_golem_and_the_rest_strike_back() -> None:
    b = Builder()
    bandit = b.cards("bandit", 0, 1)
    golems = b.cards("golden_golem", 1, 3)
    fight(b, [(bandit, "melee")], [(golems, "melee")])
    set_rolls(b.state, [7])
    events, _ = act(
        b, Attack(creature=cid(b, bandit[0]), mode="melee", targets=(cid(b, golems[0]),))
    )
    data = attack_event(events)
    assert (data["attack_value"], data["roll"], data["total"], data["defense"]) == (1, 7, 8, 7)
    assert data["killed"] == [golems[0]]
    assert b.state.battle is not None and b.state.battle.stage == "counter"
    assert [d.seat for d in battle.battle_pending(b.state)] == [1]
    assert battle.battle_legal(b.state, 1) == [
        Counterattack(strike=True),
        Counterattack(strike=False),
    ]
    set_rolls(b.state, [1])
    events, outcome = act(b, Counterattack(strike=True))
    data = attack_event(events)
    # the two Golems left strike back at 3 + 2 = 5
    assert (data["mode"], data["attack_value"], data["killed"]) == ("counter", 5, bandit)
    assert outcome is not None and outcome.winner == 1


@pytest.mark.rule("homm4:battles.counterattack")
def test_golems_cannot_answer_an_orcs_ranged_attack() -> None:
    b = Builder()
    orc = b.cards("orc", 0, 1)
    golems = b.cards("golden_golem", 1, 3)
    fight(b, [(orc, "melee")], [(golems, "melee")])
    set_rolls(b.state, [4])  # 3 + 4 = 7: kills the top Golem
    events, _ = act(b, Attack(creature=cid(b, orc[0]), mode="ranged", targets=(cid(b, golems[0]),)))
    assert attack_event(events)["killed"] == [golems[0]]
    assert b.state.battle is not None and b.state.battle.stage == "fight"
    assert b.state.battle.phase == 7 and b.state.battle.to_act == 1


@pytest.mark.rule("homm4:battles.counterattack")
def test_halflings_may_answer_a_ranged_attack_with_a_ranged_attack() -> None:
    b = Builder()
    orc = b.cards("orc", 0, 1)
    halflings = b.cards("halfling", 1, 2)
    fight(b, [(orc, "melee")], [(halflings, "melee")])
    act(b, Group(creature=cid(b, halflings[0])))  # Phase 5
    set_rolls(b.state, [1, 5])  # 3 + 1 vs 2: one Halfling killed; then 2 + 5 vs 2
    act(b, Attack(creature=cid(b, orc[0]), mode="ranged", targets=(cid(b, halflings[0]),)))
    assert b.state.battle is not None and b.state.battle.stage == "counter"
    events, outcome = act(b, Counterattack(strike=True))
    data = attack_event(events)
    assert data["attack_value"] == 2  # the Halfling's Ranged value
    assert data["killed"] == orc
    assert outcome is not None and outcome.winner == 1


@pytest.mark.rule("homm4:battles.counterattack")
def test_magi_cannot_answer_ranged_attacks_and_nobody_answers_spells() -> None:
    b = Builder()
    orc = b.card("orc", 0)
    mage = b.card("mage", 0)
    pike = b.card("pikeman", 0)
    magi = b.cards("mage", 1, 2)
    golems = b.cards("golden_golem", 1, 3)
    fight(
        b,
        [([orc], "melee"), ([mage], "melee"), ([pike], "melee")],
        [(magi, "melee"), (golems, "melee")],
    )
    pass_until(b, cid(b, mage))  # Phase 4: our Mage casts at the Golems
    set_rolls(b.state, [3])  # 4 + 3 = 7: a Golem dies, the others survive
    events, _ = act(b, Attack(creature=cid(b, mage), mode="spell", targets=(cid(b, golems[0]),)))
    assert attack_event(events)["killed"] == [golems[0]]
    assert b.state.battle is not None and b.state.battle.stage == "fight"  # no counterattack
    pass_until(b, cid(b, orc))  # Phase 6
    set_rolls(b.state, [3])  # 3 + 3 = 6 vs the defending Mage's 4 + 2: one dies
    events, _ = act(b, Attack(creature=cid(b, orc), mode="ranged", targets=(cid(b, magi[0]),)))
    assert attack_event(events)["killed"] == [magi[0]]
    assert b.state.battle.stage == "fight"  # Magi have Ranged 0: no answer


@pytest.mark.rule("homm4:battles.counterattack")
def test_a_creature_counterattacks_only_once_per_round() -> None:
    b = Builder()
    pike = b.card("pikeman", 0)
    bandit = b.card("bandit", 0)
    golems = b.cards("golden_golem", 1, 3)
    fight(b, [([pike], "melee"), ([bandit], "melee")], [(golems, "melee")])
    set_rolls(b.state, [1])  # Phase 2: the Pikeman misses, the Golems strike back
    act(b, Attack(creature=cid(b, pike), mode="melee", targets=(cid(b, golems[0]),)))
    assert b.state.battle is not None and b.state.battle.stage == "counter"
    set_rolls(b.state, [1])  # 7 + 1 vs Pikeman 3: killed
    act(b, Counterattack(strike=True))
    g = battle.creature(b.state, cid(b, golems[0]))
    assert g.countered
    set_rolls(b.state, [1])  # Phase 3: the Bandit misses; the Golems already struck back
    act(b, Attack(creature=cid(b, bandit), mode="melee", targets=(g.id,)))
    assert b.state.battle.stage == "fight"
    # markers are removed at the start of each Round
    act(b, Group(creature=g.id))
    assert b.state.battle.round == 2 and not g.countered


@pytest.mark.rule("homm4:battles.counterattack")
def test_unlimited_counter_and_no_counter_abilities() -> None:
    b = Builder()
    pike = b.card("pikeman", 0)
    bandit = b.card("bandit", 0)
    sprite = b.card("sprite", 0)
    griffins = b.cards("griffin", 1, 2)
    fight(b, [([pike], "melee"), ([bandit], "melee"), ([sprite], "melee")], [(griffins, "melee")])
    g = cid(b, griffins[0])
    set_rolls(b.state, [1])  # Phase 1: the Sprite (no counter) misses
    act(b, Attack(creature=cid(b, sprite), mode="melee", targets=(g,)))
    assert b.state.battle is not None and b.state.battle.stage == "fight"
    set_rolls(b.state, [1, 1])  # Phase 2: the Pikeman misses; the Griffins strike back
    act(b, Attack(creature=cid(b, pike), mode="melee", targets=(g,)))
    assert b.state.battle.stage == "counter"
    act(b, Counterattack(strike=True))
    assert battle.creature(b.state, g).countered
    set_rolls(b.state, [1])  # Phase 3: the Bandit misses; Griffins strike back again
    act(b, Attack(creature=cid(b, bandit), mode="melee", targets=(g,)))
    assert b.state.battle.stage == "counter"
