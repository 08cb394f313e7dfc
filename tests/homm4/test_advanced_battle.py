"""Advanced rules in battle with the rulebook's numbers: Luck, Morale, Distance Penalties,
Native and Special Lands, Potions of Immortality (homm4:advanced-rules.*)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine.homm4 import battle, board, lands, zones
from engine.homm4.battle_spirit import distance_penalty, luck, luck_rolls, morale
from engine.homm4.cards import CardPool, SpellCard, load_card_pool, parse_cards
from engine.homm4.commands import Attack, CastSpell, Counterattack, Defend, Group
from engine.homm4.maps import load_maps
from engine.homm4.options import Homm4Options
from engine.homm4.state import Creature, StatMod
from tests.homm4.battle_fixtures import (
    CARDS,
    Builder,
    act,
    begin,
    cid,
    deploy,
    fight,
    set_rolls,
)

EXTRA: list[dict[str, Any]] = [
    {
        "type": "unit",
        "id": "skeleton",
        "name": "Skeleton",
        "cost": 1,
        "faction": "death",
        "level": 1,
        "melee": 2,
        "ranged": 0,
        "defense": 3,
        "movement": 3,
        "phase": 4,
        "abilities": [{"kind": "undead"}],
    },
    {
        "type": "unit",
        "id": "crossbowman",
        "name": "Crossbowman",
        "cost": 1,
        "faction": "life",
        "level": 1,
        "melee": 1,
        "ranged": 3,
        "defense": 3,
        "movement": 3,
        "phase": 5,
        "abilities": [{"kind": "no_distance_penalty"}],
    },
    {
        "type": "artifact",
        "id": "war_banner",
        "name": "War Banner",
        "category": "life",
        "cost": 2,
        "slots": [["pocket"]],
        "effects": [{"kind": "morale", "value": 2}, {"kind": "luck", "value": 1}],
    },
    {
        "type": "skill",
        "id": "leadership",
        "name": "Leadership",
        "primary": "tactics",
        "secondary": True,
        "ranks": [],
        "effects": [{"kind": "morale", "values": [1, 1, 2, 2, 3]}],
    },
    {
        "type": "spell",
        "id": "mirth",
        "name": "Mirth",
        "school": "life",
        "level": 1,
        "mana": 2,
        "effect": "stat",
        "stat": "melee",
        "power": 1,
        "morale": 2,
        "target": "one_friend",
    },
]

POOL: CardPool = parse_cards({"cards": CARDS + EXTRA, "decks": []})


@pytest.fixture(autouse=True)
def advanced_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[CardPool]:
    """The battle test pool plus Morale / Luck sources."""
    monkeypatch.setattr(zones, "pool", lambda: POOL)
    yield POOL


def builder(**options: Any) -> Builder:
    b = Builder()
    b.state.options = Homm4Options(**options)
    return b


def on_terrain(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    """Fight every battle (and price every Spell) on terrain ``code`` of the shipped legend."""
    terrain = load_maps().terrain[code]
    monkeypatch.setattr(board, "terrain_at", lambda state, where: terrain)


def rolls(events: list[Any]) -> list[int]:
    return [e.data["result"] for e in events if e.kind == "die_roll"]


def attack_data(events: list[Any]) -> dict[str, Any]:
    found = [e for e in events if e.kind == "battle_attack"]
    assert found, [e.kind for e in events]
    data = found[0].data
    assert isinstance(data, dict)
    return data


def pass_until(b: Builder, creature: int) -> None:
    """Let every other due Creature defend until ``creature`` is due."""
    for _ in range(100):
        assert b.state.battle is not None and b.state.battle.stage == "fight"
        due = [c.id for c in battle.due_creatures(b.state)]
        if creature in due:
            return
        act(b, Defend(creature=due[0]))
    raise AssertionError("creature never became due")


def mod(cr: Creature, stat: str, amount: int) -> None:
    cr.mods.append(StatMod.model_validate({"stat": stat, "amount": amount, "source": -1}))


def creature_of(b: Builder, card: int) -> Creature:
    assert b.state.battle is not None
    return next(c for c in b.state.battle.creatures if card in c.cards)


# --------------------------------------------------------------------------- Luck
@pytest.mark.rule("homm4:advanced-rules.luck")
def test_luck_3_rolls_the_die_4_times_and_keeps_the_best() -> None:
    b = builder(luck=True)
    golems = b.cards("golden_golem", 0, 3)
    troll = b.cards("troll", 1, 1)
    fight(b, [(golems, "melee")], [(troll, "melee")])
    mod(creature_of(b, golems[0]), "luck", 3)
    set_rolls(b.state, [2, 6, 4, 1])
    events, _ = act(
        b, Attack(creature=cid(b, golems[0]), mode="melee", targets=(cid(b, troll[0]),))
    )
    assert rolls(events) == [2, 6, 4, 1]
    data = attack_data(events)
    assert (data["attack_value"], data["roll"], data["total"]) == (7, 6, 13)
    assert data["killed"] == troll
    text = next(e.text for e in events if e.kind == "battle_attack")
    assert "+ roll 6 (Luck +3: best of 2, 6, 4, 1) = 13 vs defense 13" in text


@pytest.mark.rule("homm4:advanced-rules.luck")
def test_luck_minus_3_rolls_4_times_and_keeps_the_worst() -> None:
    b = builder(luck=True)
    golems = b.cards("golden_golem", 0, 3)
    troll = b.cards("troll", 1, 1)
    fight(b, [(golems, "melee")], [(troll, "melee")])
    mod(creature_of(b, golems[0]), "luck", -3)
    set_rolls(b.state, [9, 7, 3, 8])
    events, _ = act(
        b, Attack(creature=cid(b, golems[0]), mode="melee", targets=(cid(b, troll[0]),))
    )
    assert rolls(events) == [9, 7, 3, 8]
    assert attack_data(events)["roll"] == 3
    assert attack_data(events)["killed"] == []


@pytest.mark.rule("homm4:advanced-rules.luck")
def test_luck_is_capped_at_plus_and_minus_3_and_off_without_the_rule() -> None:
    assert [luck_rolls(v) for v in (-3, -1, 0, 1, 2, 3)] == [4, 2, 1, 2, 3, 4]
    b = builder(luck=True)
    golems = b.cards("golden_golem", 0, 1)
    troll = b.cards("troll", 1, 1)
    fight(b, [(golems, "melee")], [(troll, "melee")])
    cr = creature_of(b, golems[0])
    mod(cr, "luck", 7)
    assert luck(b.state, cr) == 3
    mod(cr, "luck", -12)
    assert luck(b.state, cr) == -3
    b.state.options = Homm4Options()
    assert luck(b.state, cr) == 0


@pytest.mark.rule("homm4:advanced-rules.luck")
def test_luck_comes_from_the_sides_best_hero_artifact() -> None:
    b = builder(luck=True, morale=True)
    knight = b.card("knight", 0)
    b.artifact(knight, "war_banner", ["pocket"])
    golems = b.cards("golden_golem", 0, 1)
    troll = b.cards("troll", 1, 1)
    fight(b, [([knight], "melee"), (golems, "melee")], [(troll, "melee")])
    assert luck(b.state, creature_of(b, golems[0])) == 1
    assert morale(b.state, creature_of(b, golems[0])) == 2
    assert luck(b.state, creature_of(b, troll[0])) == 0


# --------------------------------------------------------------------- Distance
def _shooting_battle(b: Builder, shooter: str) -> tuple[int, int]:
    front = [b.card("pikeman", 0), b.card("bandit", 0), b.card("golden_golem", 0)]
    gun = b.card(shooter, 0)
    enemy_front = [b.card("pikeman", 1), b.card("bandit", 1), b.card("golden_golem", 1)]
    target = b.card("troll", 1)
    fight(
        b,
        [*[([c], "melee") for c in front], ([gun], "ranged")],
        [*[([c], "melee") for c in enemy_front], ([target], "ranged")],
    )
    pass_until(b, cid(b, gun))
    return gun, target


@pytest.mark.rule("homm4:advanced-rules.distance-penalties")
@pytest.mark.parametrize(("roll", "used"), [(7, 5), (2, 0), (1, 0)])
def test_back_line_to_back_line_subtracts_2_but_never_below_zero(roll: int, used: int) -> None:
    b = builder(distance_penalties=True)
    orc, troll = _shooting_battle(b, "orc")
    set_rolls(b.state, [roll])
    events, _ = act(b, Attack(creature=cid(b, orc), mode="ranged", targets=(cid(b, troll),)))
    data = attack_data(events)
    assert (data["attack_value"], data["roll"], data["total"]) == (3, used, 3 + used)
    assert f"roll {used} ({roll} - 2 distance)" in next(
        e.text for e in events if e.kind == "battle_attack"
    )


@pytest.mark.rule("homm4:advanced-rules.distance-penalties")
def test_no_penalty_for_the_crossbowman_at_a_front_target_or_without_the_rule() -> None:
    b = builder(distance_penalties=True)
    bow, troll = _shooting_battle(b, "crossbowman")
    assert distance_penalty(b.state, creature_of(b, bow), creature_of(b, troll)) == 0
    set_rolls(b.state, [7])
    events, _ = act(b, Attack(creature=cid(b, bow), mode="ranged", targets=(cid(b, troll),)))
    assert attack_data(events)["roll"] == 7

    b = builder(distance_penalties=True)
    orc, troll = _shooting_battle(b, "orc")
    front = b.state.battle.creatures[4] if b.state.battle else None
    assert front is not None and front.line == "melee" and front.side == 1
    assert distance_penalty(b.state, creature_of(b, orc), front) == 0
    assert distance_penalty(b.state, creature_of(b, orc), creature_of(b, troll)) == 2
    b.state.options = Homm4Options()
    assert distance_penalty(b.state, creature_of(b, orc), creature_of(b, troll)) == 0


# ----------------------------------------------------------------------- Morale
def _morale_battle(b: Builder, value: int, roll: int) -> tuple[list[int], list[int]]:
    """Golems (seat 0) with Morale ``value`` against a Troll; the Round's Morale roll is
    ``roll``."""
    golems = b.cards("golden_golem", 0, 3)
    troll = b.cards("troll", 1, 1)
    begin(b, golems, troll)
    deploy(b, 0, [(golems, "melee")])
    mod(creature_of(b, golems[0]), "morale", value)
    set_rolls(b.state, [roll])
    deploy(b, 1, [(troll, "melee")])
    return golems, troll


@pytest.mark.rule("homm4:advanced-rules.morale")
def test_morale_higher_than_the_roll_gives_two_actions_group_then_double() -> None:
    b = builder(morale=True)
    golems, troll = _morale_battle(b, 3, 2)
    assert b.state.battle is not None and b.state.battle.morale_roll == 2
    g = creature_of(b, golems[0])
    assert g.morale_extra
    act(b, Group(creature=g.id))
    assert g in battle.due_creatures(b.state)
    set_rolls(b.state, [1])
    events, outcome = act(b, Attack(creature=g.id, mode="melee", targets=(cid(b, troll[0]),)))
    data = attack_data(events)
    assert (data["attack_value"], data["total"]) == (14, 15)  # (3+2+2) x 2, + 1
    assert outcome is not None and outcome.winner == 0
    assert not g.morale_extra


@pytest.mark.rule("homm4:advanced-rules.morale")
@pytest.mark.parametrize("roll", [3, 7])
def test_morale_not_higher_than_the_roll_gives_nothing(roll: int) -> None:
    b = builder(morale=True)
    golems, _ = _morale_battle(b, 3, roll)
    g = creature_of(b, golems[0])
    assert not g.morale_extra and not g.demoralized


@pytest.mark.rule("homm4:advanced-rules.morale")
def test_negative_morale_lower_than_minus_the_roll_does_not_attack_nor_strike_back() -> None:
    b = builder(morale=True)
    golems, troll = _morale_battle(b, -3, 2)
    g = creature_of(b, golems[0])
    assert g.demoralized and g.acted
    assert g not in battle.due_creatures(b.state)
    # the Troll (Phase 8) is due next; its attack gets no counterattack from the Golems
    assert b.state.battle is not None and b.state.battle.phase == 8
    set_rolls(b.state, [1])
    act(b, Attack(creature=cid(b, troll[0]), mode="melee", targets=(g.id,)))
    assert b.state.battle is not None and b.state.battle.stage != "counter"


@pytest.mark.rule("homm4:advanced-rules.morale")
def test_morale_minus_3_against_a_roll_of_3_still_attacks() -> None:
    b = builder(morale=True)
    golems, _ = _morale_battle(b, -3, 3)
    assert not creature_of(b, golems[0]).demoralized


@pytest.mark.rule("homm4:advanced-rules.morale")
def test_no_morale_roll_when_every_morale_is_zero_and_undead_ignore_it() -> None:
    b = builder(morale=True)
    skeletons = b.cards("skeleton", 0, 2)
    troll = b.cards("troll", 1, 1)
    begin(b, skeletons, troll)
    deploy(b, 0, [(skeletons, "melee")])
    mod(creature_of(b, skeletons[0]), "morale", 5)
    events, _ = deploy(b, 1, [(troll, "melee")])
    assert morale(b.state, creature_of(b, skeletons[0])) == 0
    assert b.state.battle is not None and b.state.battle.morale_roll is None
    assert not [e for e in events if e.kind in ("die_roll", "battle_morale")]


@pytest.mark.rule("homm4:advanced-rules.morale")
def test_morale_is_capped_at_5_and_comes_from_leadership() -> None:
    b = builder(morale=True)
    knight = b.card("knight", 0)
    b.skill(knight, "leadership")
    golems = b.cards("golden_golem", 0, 1)
    troll = b.cards("troll", 1, 1)
    fight(b, [([knight], "melee"), (golems, "melee")], [(troll, "melee")])
    g = creature_of(b, golems[0])
    assert morale(b.state, g) == 1  # Leadership at Basic Tactics
    mod(g, "morale", 9)
    assert morale(b.state, g) == 5


@pytest.mark.rule("homm4:advanced-rules.morale")
def test_a_morale_spell_changes_morale_only_with_the_rule() -> None:
    for rule in (True, False):
        b = builder(morale=rule)
        hero = b.card("knight", 0)
        b.skill(hero, "life_magic")
        spell = b.spell(hero, "mirth")
        golems = b.cards("golden_golem", 0, 1)
        troll = b.cards("troll", 1, 1)
        fight(b, [([hero], "melee"), (golems, "melee")], [(troll, "melee")])
        pass_until(b, cid(b, hero))
        act(b, CastSpell(creature=cid(b, hero), spell=spell, targets=(cid(b, golems[0]),)))
        g = creature_of(b, golems[0])
        assert morale(b.state, g) == (2 if rule else 0)
        assert [m.stat for m in g.mods] == (["melee", "morale"] if rule else ["melee"])


# --------------------------------------------------------- Native and Special Lands
@pytest.mark.rule("homm4:advanced-rules.native-and-special-lands")
def test_native_units_get_plus_1_attack_and_defense(monkeypatch: pytest.MonkeyPatch) -> None:
    on_terrain(monkeypatch, "fo")  # Forest: Nature
    b = builder(native_lands=True)
    griffin = b.cards("griffin", 0, 1)  # Nature: Melee 4, Defense 6
    troll = b.cards("troll", 1, 1)  # Might: not native
    fight(b, [(griffin, "melee")], [(troll, "melee")])
    g, t = creature_of(b, griffin[0]), creature_of(b, troll[0])
    assert (battle.melee_value(b.state, g), battle.card_defense(b.state, g, griffin[0])) == (5, 7)
    assert (battle.melee_value(b.state, t), battle.card_defense(b.state, t, troll[0])) == (5, 13)
    b.state.options = Homm4Options()
    assert battle.melee_value(b.state, g) == 4


@pytest.mark.rule("homm4:advanced-rules.native-and-special-lands")
def test_cursed_ground_gives_death_plus_2_and_stops_morale_and_luck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    on_terrain(monkeypatch, "cu")
    b = builder(native_lands=True, morale=True, luck=True)
    cerberus = b.cards("cerberus", 0, 1)  # Death: Melee 3, Defense 4
    troll = b.cards("troll", 1, 1)
    fight(b, [(cerberus, "melee")], [(troll, "melee")])
    c = creature_of(b, cerberus[0])
    assert (battle.melee_value(b.state, c), battle.card_defense(b.state, c, cerberus[0])) == (5, 6)
    mod(c, "morale", 4)
    mod(c, "luck", 2)
    assert (morale(b.state, c), luck(b.state, c)) == (0, 0)


@pytest.mark.rule("homm4:advanced-rules.native-and-special-lands")
def test_fields_of_life_give_life_units_top_morale_and_magic_garden_nature_top_luck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    on_terrain(monkeypatch, "fl")
    b = builder(native_lands=True, morale=True, luck=True)
    pikemen = b.cards("pikeman", 0, 1)  # Life
    griffin = b.cards("griffin", 1, 1)  # Nature
    fight(b, [(pikemen, "melee")], [(griffin, "melee")])
    p, g = creature_of(b, pikemen[0]), creature_of(b, griffin[0])
    assert (morale(b.state, p), morale(b.state, g)) == (5, 0)
    assert battle.melee_value(b.state, p) == 4  # Pikeman 2 + 2 on a special land

    on_terrain(monkeypatch, "mg")
    assert (luck(b.state, p), luck(b.state, g)) == (0, 3)
    assert battle.card_defense(b.state, g, griffin[0]) == 8  # 6 + 2


@pytest.mark.rule("homm4:advanced-rules.native-and-special-lands")
@pytest.mark.parametrize(
    ("code", "spell", "cost"),
    [
        ("es", "magic_fist", 1),  # Order, 2 Mana: half on Enchanted Stone
        ("es", "magic_arrow", 4),  # Chaos, 2 Mana: double on Enchanted Stone
        ("fg", "heal", 6),  # Fields of Glory: every Spell double
        ("mg", "wasp_swarm", 2),  # Nature, 3 Mana: half rounded up on a Magic Garden
        ("se", "fire_bolt", 2),  # Chaos 3 -> 2 on Scorched Earth
        ("se", "slow", 6),  # Order 3 -> 6 on Scorched Earth
        ("gr", "slow", 3),
    ],
)
def test_special_lands_halve_or_double_spell_costs(
    monkeypatch: pytest.MonkeyPatch, code: str, spell: str, cost: int
) -> None:
    monkeypatch.setattr(zones, "pool", load_card_pool)
    on_terrain(monkeypatch, code)
    b = builder(native_lands=True)
    found = load_card_pool().get(spell)
    assert isinstance(found, SpellCard)
    assert lands.spell_mana(b.state, found, (0, 0)) == cost
    b.state.options = Homm4Options()
    assert lands.spell_mana(b.state, found, (0, 0)) == found.mana


@pytest.mark.rule("homm4:advanced-rules.native-and-special-lands")
def test_a_hero_pays_double_for_chaos_on_enchanted_stone(monkeypatch: pytest.MonkeyPatch) -> None:
    on_terrain(monkeypatch, "es")
    b = builder(native_lands=True)
    hero = b.card("sorcerer", 0)  # Basic Chaos Magic: 10 Mana
    spell = b.spell(hero, "magic_arrow")  # 2 Mana
    golems = b.cards("golden_golem", 0, 1)
    troll = b.cards("troll", 1, 1)
    fight(b, [([hero], "melee"), (golems, "melee")], [(troll, "melee")])
    pass_until(b, cid(b, hero))
    set_rolls(b.state, [1])
    events, _ = act(b, CastSpell(creature=cid(b, hero), spell=spell, targets=(cid(b, troll[0]),)))
    assert "(4 Mana; 6 left)" in next(e.text for e in events if e.kind == "battle_cast")


# ------------------------------------------------------------ Potions of Immortality
@pytest.mark.rule("homm4:advanced-rules.potions-of-immortality")
def test_the_potion_saves_a_hero_from_the_first_killing_blow_only() -> None:
    b = builder(potions=True)
    troll = b.cards("troll", 0, 1)  # Melee 5
    knight = b.card("knight", 1)  # Defense 4 (+1 Defense secondary)
    pikemen = b.cards("pikeman", 1, 1)
    fight(b, [(troll, "melee")], [([knight], "melee"), (pikemen, "melee")])
    while b.state.battle is not None and b.state.battle.phase < 8:
        due = battle.due_creatures(b.state)
        act(b, Defend(creature=due[0].id))
    set_rolls(b.state, [9])
    events, _ = act(b, Attack(creature=cid(b, troll[0]), mode="melee", targets=(cid(b, knight),)))
    data = attack_data(events)
    assert data["total"] >= data["defense"] and data["killed"] == [] and data["potion"] == [knight]
    assert "Potion of Immortality" in next(e.text for e in events if e.kind == "battle_attack")
    assert b.state.battle is not None and knight in b.state.battle.potions_used
    if b.state.battle.stage == "counter":
        act(b, Counterattack(strike=False))
    # next Round: the next killing blow is final
    for _ in range(200):
        assert b.state.battle is not None
        if b.state.battle.stage == "fight" and cid(b, troll[0]) in [
            c.id for c in battle.due_creatures(b.state)
        ]:
            break
        decision = battle.battle_default(
            b.state, battle.side_seat(b.state.battle, b.state.battle.to_act)
        )
        if isinstance(decision, Attack) and decision.creature != cid(b, troll[0]):
            decision = Defend(creature=decision.creature)
        act(b, decision)
    set_rolls(b.state, [9])
    events, _ = act(b, Attack(creature=cid(b, troll[0]), mode="melee", targets=(cid(b, knight),)))
    assert attack_data(events)["killed"] == [knight]
    assert knight in b.state.players_state[1].discard


@pytest.mark.rule("homm4:advanced-rules.potions-of-immortality")
def test_without_the_rule_the_first_blow_kills() -> None:
    b = builder()
    troll = b.cards("troll", 0, 1)
    knight = b.card("knight", 1)
    pikemen = b.cards("pikeman", 1, 1)
    fight(b, [(troll, "melee")], [([knight], "melee"), (pikemen, "melee")])
    while b.state.battle is not None and b.state.battle.phase < 8:
        act(b, Defend(creature=battle.due_creatures(b.state)[0].id))
    set_rolls(b.state, [9])
    events, _ = act(b, Attack(creature=cid(b, troll[0]), mode="melee", targets=(cid(b, knight),)))
    assert attack_data(events)["killed"] == [knight]
