"""The shipped card pool: it loads, meets the issue's counts and honours the rulebook's numbers.

Rule sections: homm4:card-types (and sub-sections), homm4:battles.*, homm4:purchase-phase,
homm4:heroes-levels-skills-and-spells.*, homm4:advanced-rules.*, homm4:errata.
"""

from __future__ import annotations

from collections import Counter
from typing import TypeVar

import pytest

from engine.homm4.cards import (
    ArtifactCard,
    ArtifactCategory,
    CardPool,
    EffectKind,
    Faction,
    HeroCard,
    HeroClass,
    MultiTarget,
    ObjectCard,
    PrimarySkill,
    RequiresObject,
    School,
    SkillCard,
    SpellCard,
    Spellcaster,
    TownCard,
    UnitCard,
    load_card_pool,
)

FACTIONS = [f for f in Faction if f is not Faction.NEUTRAL]
T = TypeVar("T")


@pytest.fixture(scope="module")
def pool() -> CardPool:
    return load_card_pool()


def unit(pool: CardPool, card_id: str) -> UnitCard:
    card = pool.get(card_id)
    assert isinstance(card, UnitCard)
    return card


def town(pool: CardPool, card_id: str) -> TownCard:
    card = pool.get(card_id)
    assert isinstance(card, TownCard)
    return card


def skill(pool: CardPool, card_id: str) -> SkillCard:
    card = pool.get(card_id)
    assert isinstance(card, SkillCard)
    return card


def value(card: SkillCard, kind: EffectKind, rank: int) -> int:
    """The value of ``kind`` on ``card`` at ``rank`` (0 when the card lacks it)."""
    return sum(e.values[rank - 1] for e in card.effects if e.kind is kind)


def of_type(pool: CardPool, kind: type[T]) -> list[T]:
    return [c for c in pool.cards.values() if isinstance(c, kind)]


def stack_attack(top_attack: int, levels_below: list[int]) -> int:
    """The rulebook's Creature Stack attack: the top card's value + each card's level below."""
    return top_attack + sum(levels_below)


# ------------------------------------------------------------------ counts
@pytest.mark.rule("homm4:card-types")
def test_pool_loads_with_at_least_150_distinct_cards(pool: CardPool) -> None:
    assert len(pool.cards) >= 150
    assert len({c.name for c in pool.cards.values()}) == len(pool.cards)


@pytest.mark.rule("homm4:card-types.town-cards")
def test_each_faction_has_one_town_card(pool: CardPool) -> None:
    towns = Counter(t.faction for t in of_type(pool, TownCard))
    assert {f: towns[f] for f in FACTIONS} == dict.fromkeys(FACTIONS, 1)
    assert Faction.NEUTRAL not in towns


@pytest.mark.rule("homm4:card-types.hero-cards")
def test_each_faction_has_two_heroes_and_all_eleven_classes_appear(pool: CardPool) -> None:
    heroes = of_type(pool, HeroCard)
    per_faction = Counter(h.faction for h in heroes)
    assert all(per_faction[f] >= 2 for f in FACTIONS)
    assert {h.hero_class for h in heroes} == set(HeroClass)
    assert len(HeroClass) == 11


@pytest.mark.rule("homm4:card-types.unit-cards")
def test_each_faction_has_eight_units_two_per_level(pool: CardPool) -> None:
    for faction in FACTIONS:
        levels = Counter(u.level for u in of_type(pool, UnitCard) if u.faction is faction)
        assert levels == {1: 2, 2: 2, 3: 2, 4: 2}, faction


@pytest.mark.rule("homm4:card-types.object-cards")
def test_at_least_ten_objects_each_with_an_effect(pool: CardPool) -> None:
    objects = of_type(pool, ObjectCard)
    assert len(objects) >= 10
    assert {o.object_type for o in objects} == {"mine", "strategic"}
    assert all(o.effects for o in objects)


@pytest.mark.rule("homm4:card-types.artifact-cards")
def test_at_least_fifteen_artifacts_with_slots_and_every_category(pool: CardPool) -> None:
    artifacts = of_type(pool, ArtifactCard)
    assert len(artifacts) >= 15
    assert {a.category for a in artifacts} == set(ArtifactCategory)
    assert all(a.effects and a.slots for a in artifacts)
    # a two-handed weapon fills both hands; a ring goes on either hand
    assert any(len(alt) == 2 for a in artifacts for alt in a.slots)
    assert any(len(a.slots) == 2 for a in artifacts)


@pytest.mark.rule("homm4:card-types.skill-cards")
def test_nine_primaries_with_four_cards_each_and_27_secondaries(pool: CardPool) -> None:
    skills = of_type(pool, SkillCard)
    for primary in PrimarySkill:
        ranks = sorted(s.ranks for s in skills if s.primary is primary and not s.secondary)
        assert ranks == [(1, 2), (3,), (4,), (5,)], primary
        secondaries = [s for s in skills if s.primary is primary and s.secondary]
        assert len(secondaries) == 3, primary
    assert len([s for s in skills if s.secondary]) == 27


@pytest.mark.rule("homm4:card-types.spell-cards")
def test_at_least_four_spells_per_school_spanning_levels_1_to_5(pool: CardPool) -> None:
    for school in School:
        spells = [s for s in of_type(pool, SpellCard) if s.school is school]
        assert len(spells) >= 4, school
        assert {s.level for s in spells} == {1, 2, 3, 4, 5}, school


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.mana")
def test_spell_mana_costs_by_level(pool: CardPool) -> None:
    # A level 1 Spell costs 2 Mana (rulebook); 3, 5, 8 as in the computer game; 12 at level 5.
    expected = {1: 2, 2: 3, 3: 5, 4: 8, 5: 12}
    assert all(s.mana == expected[s.level] for s in of_type(pool, SpellCard))


# ------------------------------------------------------------------ rulebook numbers
@pytest.mark.rule("homm4:battles.making-a-melee-attack")
def test_three_golden_golems_attack_at_7(pool: CardPool) -> None:
    golem = unit(pool, "golden_golem")
    assert (golem.faction, golem.level, golem.melee, golem.ranged) == (Faction.ORDER, 2, 3, 0)
    assert stack_attack(golem.melee, [golem.level, golem.level]) == 7


@pytest.mark.rule("homm4:battles.grouping")
def test_grouped_golden_golems_attack_at_14_and_kill_a_defense_13_monster(pool: CardPool) -> None:
    golem = unit(pool, "golden_golem")
    grouped = 2 * stack_attack(golem.melee, [golem.level, golem.level])
    assert grouped == 14
    assert grouped + 0 >= 13  # kills without a die roll


@pytest.mark.rule("homm4:battles.defense")
def test_defending_golden_golem_has_defense_9_and_acts_in_phase_7(pool: CardPool) -> None:
    golem = unit(pool, "golden_golem")
    assert golem.defense == 7
    assert golem.defense + golem.level == 9
    assert golem.phase == 7


@pytest.mark.rule("homm4:battles.making-support")
def test_three_golden_golems_support_with_6(pool: CardPool) -> None:
    golem = unit(pool, "golden_golem")
    assert 3 * golem.level == 6


@pytest.mark.rule("homm4:battles.defense")
def test_halflings_shoot_from_the_ranged_line_behind_six_golems(pool: CardPool) -> None:
    # Halflings may attack from the Ranged Line (ranged > 0); Golden Golems cannot (0) and
    # reach their turn in Phase 7, after the Halflings have shot.
    halfling, golem = unit(pool, "halfling"), unit(pool, "golden_golem")
    assert (halfling.faction, halfling.level) == (Faction.ORDER, 1)
    assert halfling.ranged > 0 and golem.ranged == 0
    assert halfling.phase < golem.phase == 7


@pytest.mark.rule("homm4:battles.counterattack")
def test_bandit_melee_1_phase_3_kills_a_golem_on_a_7(pool: CardPool) -> None:
    bandit = unit(pool, "bandit")
    golem = unit(pool, "golden_golem")
    assert (bandit.faction, bandit.level, bandit.melee, bandit.phase) == (Faction.CHAOS, 1, 1, 3)
    assert bandit.melee + 7 >= golem.defense
    assert bandit.melee + 5 < golem.defense


@pytest.mark.rule("homm4:battles.counterattack")
def test_orc_is_level_1_ranged_in_phase_6(pool: CardPool) -> None:
    orc = unit(pool, "orc")
    assert (orc.faction, orc.level, orc.phase) == (Faction.CHAOS, 1, 6)
    assert orc.ranged > 0
    assert unit(pool, "golden_golem").ranged == 0  # so Golems cannot answer an Orc's shot


@pytest.mark.rule("homm4:battles.counterattack")
def test_cyclops_and_evil_eye_shoot_harder_than_they_strike(pool: CardPool) -> None:
    for card_id in ("cyclops", "evil_eye"):
        card = unit(pool, card_id)
        assert card.ranged > card.melee, card_id


@pytest.mark.rule("homm4:battles.counterattack")
def test_magi_have_no_ranged_value_and_cast_spells(pool: CardPool) -> None:
    mage = unit(pool, "mage")
    assert mage.ranged == 0
    caster = mage.ability("spellcaster")
    assert isinstance(caster, Spellcaster)
    assert caster.spell == "magic_fist"


@pytest.mark.rule("homm4:battles.making-support")
def test_spellcasters_cast_known_attack_spells(pool: CardPool) -> None:
    casters = [u for u in of_type(pool, UnitCard) if u.ability("spellcaster")]
    assert {u.id for u in casters} >= {"mage", "faerie_dragon"}
    for card in casters:
        caster = card.ability("spellcaster")
        assert isinstance(caster, Spellcaster)
        spell = pool.get(caster.spell)
        assert isinstance(spell, SpellCard) and spell.effect == "attack", card.id
        assert card.ranged == 0, card.id


@pytest.mark.rule("homm4:advanced-rules.distance-penalties")
def test_crossbowman_ignores_the_distance_penalty(pool: CardPool) -> None:
    crossbowman = unit(pool, "crossbowman")
    assert crossbowman.ranged > 0
    assert crossbowman.ability("no_distance_penalty") is not None
    assert unit(pool, "orc").ability("no_distance_penalty") is None


@pytest.mark.rule("homm4:purchase-phase")
def test_asylum_sells_the_rulebooks_creatures_level_by_level(pool: CardPool) -> None:
    asylum = town(pool, "asylum")
    assert asylum.faction is Faction.CHAOS and asylum.town == "Asylum"
    assert [set(level.units) for level in asylum.levels] == [
        {"bandit", "orc"},
        {"medusa"},
        {"efreet"},
        {"black_dragon"},
    ]
    assert unit(pool, "efreet").level == 3 and unit(pool, "black_dragon").level == 4


@pytest.mark.rule("homm4:purchase-phase")
def test_asylum_teaches_chaos_nature_death_and_sells_chaos_artifacts(pool: CardPool) -> None:
    asylum = town(pool, "asylum")
    for level in asylum.levels:
        assert set(level.spell_schools) == {School.CHAOS, School.NATURE, School.DEATH}
    assert [level.max_spell_level for level in asylum.levels] == [1, 2, 5, 5]
    assert asylum.levels[0].artifact_categories == ()
    assert asylum.levels[1].artifact_categories == (ArtifactCategory.CHAOS,)


@pytest.mark.rule("homm4:purchase-phase")
def test_asylum_level_4_doubles_the_mana_of_all_heroes(pool: CardPool) -> None:
    effects = town(pool, "asylum").levels[3].effects
    assert [(e.kind, e.value) for e in effects] == [(EffectKind.MANA_MULTIPLIER, 2)]


@pytest.mark.rule("homm4:card-types.town-cards")
def test_every_town_level_offers_units_of_that_level_and_faction(pool: CardPool) -> None:
    for card in of_type(pool, TownCard):
        for number, level in enumerate(card.levels, start=1):
            assert level.units, (card.id, number)
            for unit_id in level.units:
                found = unit(pool, unit_id)
                assert (found.faction, found.level) == (card.faction, number), unit_id
                assert found.cost is not None, unit_id
        magic = card.faction is not Faction.MIGHT
        if magic:
            assert card.levels[0].spell_schools[0].value == card.faction.value
            assert [lv.max_spell_level for lv in card.levels] == [1, 2, 5, 5]
            assert card.levels[3].effects[0].kind is EffectKind.MANA_MULTIPLIER
        assert card.levels[1].artifact_categories == (ArtifactCategory(card.faction.value),)


@pytest.mark.rule("homm4:advanced-rules.buying-heroes-of-other-factions")
def test_stronghold_teaches_no_spells(pool: CardPool) -> None:
    stronghold = town(pool, "stronghold")
    assert stronghold.faction is Faction.MIGHT
    assert all(not lv.spell_schools and lv.max_spell_level == 0 for lv in stronghold.levels)
    # it earns income instead of doubling mana
    income = [
        e.value for lv in stronghold.levels for e in lv.effects if e.kind is EffectKind.INCOME
    ]
    assert income == [1, 1]


@pytest.mark.rule("homm4:errata")
def test_haven_university_sells_only_basic_tactics_life_magic_or_combat_for_2(
    pool: CardPool,
) -> None:
    haven = town(pool, "haven")
    assert haven.faction is Faction.LIFE
    assert all(not lv.skills_for_sale for lv in haven.levels[:3])
    university = haven.levels[3]
    assert set(university.skills_for_sale) == {
        "tactics_basic",
        "life_magic_basic",
        "combat_basic",
    }
    assert university.skill_price == 2
    for skill_id in university.skills_for_sale:
        assert skill(pool, skill_id).ranks == (1, 2)
    others = [t for t in of_type(pool, TownCard) if t.id != "haven"]
    assert all(not lv.skills_for_sale for t in others for lv in t.levels)


@pytest.mark.rule("homm4:advanced-rules.buying-heroes-of-other-factions")
def test_heroes_cost_3_cards(pool: CardPool) -> None:
    assert {h.cost for h in of_type(pool, HeroCard)} == {3}


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.hero-level")
def test_knight_starts_with_tactics_and_defense(pool: CardPool) -> None:
    knights = [h for h in of_type(pool, HeroCard) if h.hero_class is HeroClass.KNIGHT]
    assert knights and all(k.faction is Faction.LIFE for k in knights)
    for knight in knights:
        assert knight.starting_primary is PrimarySkill.TACTICS
        assert knight.starting_secondary == "defense"
    defense, attack = skill(pool, "defense"), skill(pool, "attack")
    assert (defense.name, defense.primary, defense.secondary) == (
        "Defense",
        PrimarySkill.TACTICS,
        True,
    )
    assert (attack.name, attack.primary, attack.secondary) == ("Attack", PrimarySkill.TACTICS, True)
    assert skill(pool, "combat_basic").name.startswith("Combat")


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.starting-skills-of-heroes")
def test_every_heros_starting_secondary_rests_on_its_starting_primary(pool: CardPool) -> None:
    for hero in of_type(pool, HeroCard):
        assert hero.starting_secondary is not None, hero.id
        assert skill(pool, hero.starting_secondary).primary is hero.starting_primary, hero.id
        assert skill(pool, hero.starting_secondary).secondary


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.mana")
def test_basic_chaos_magic_and_basic_sorcery_give_20_mana_for_ten_level_1_spells(
    pool: CardPool,
) -> None:
    chaos = skill(pool, "chaos_magic_basic")
    sorcery = skill(pool, "sorcery")
    assert sorcery.primary is PrimarySkill.CHAOS_MAGIC and sorcery.secondary
    mana = value(chaos, EffectKind.MANA, 1) + value(sorcery, EffectKind.MANA, 1)
    assert (value(chaos, EffectKind.MANA, 1), mana) == (10, 20)
    level_1 = [s for s in of_type(pool, SpellCard) if s.school is School.CHAOS and s.level == 1]
    assert level_1 and all(s.mana == 2 for s in level_1)
    assert mana // 2 == 10
    sorcerers = [h for h in of_type(pool, HeroCard) if h.hero_class is HeroClass.SORCERER]
    assert any(h.starting_secondary == "sorcery" for h in sorcerers)


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.primary-magic-skills")
def test_magic_primaries_open_spell_levels_by_rank(pool: CardPool) -> None:
    for primary in PrimarySkill:
        for card in of_type(pool, SkillCard):
            if card.primary is not primary or card.secondary:
                continue
            for rank in card.ranks:
                expected = rank if primary.school else 0
                assert value(card, EffectKind.SPELL_LEVEL, rank) == expected, card.id
                if primary.school:
                    assert value(card, EffectKind.MANA, rank) >= 10, card.id


@pytest.mark.rule("homm4:card-types.spell-cards")
def test_a_level_3_chaos_spell_needs_expert_chaos_magic(pool: CardPool) -> None:
    basic = skill(pool, "chaos_magic_basic")
    expert = skill(pool, "chaos_magic_expert")
    assert (value(basic, EffectKind.SPELL_LEVEL, 1), value(basic, EffectKind.SPELL_LEVEL, 2)) == (
        1,
        2,
    )
    assert expert.ranks == (3,) and value(expert, EffectKind.SPELL_LEVEL, 3) == 3
    fireball = pool.get("fireball")
    assert isinstance(fireball, SpellCard) and (fireball.school, fireball.level) == (
        School.CHAOS,
        3,
    )


@pytest.mark.rule("homm4:errata")
def test_titans_need_a_gem_mine_and_hydras_an_alchemists_lab(pool: CardPool) -> None:
    titan_needs = unit(pool, "titan").ability("requires_object")
    hydra_needs = unit(pool, "hydra").ability("requires_object")
    assert isinstance(titan_needs, RequiresObject) and titan_needs.object == "gem_mine"
    assert isinstance(hydra_needs, RequiresObject) and hydra_needs.object == "alchemists_lab"
    assert isinstance(pool.get("gem_mine"), ObjectCard)
    assert not any(
        isinstance(a, RequiresObject) and a.object == "crystal_mine"
        for u in of_type(pool, UnitCard)
        for a in u.abilities
    )


@pytest.mark.rule("homm4:errata")
def test_cerberus_strikes_two_stacks_and_hydra_three(pool: CardPool) -> None:
    cerberus = unit(pool, "cerberus").ability("multi_target")
    hydra = unit(pool, "hydra").ability("multi_target")
    assert isinstance(cerberus, MultiTarget) and cerberus.targets == 2
    assert isinstance(hydra, MultiTarget) and hydra.targets == 3


@pytest.mark.rule("homm4:income-phase.mine-income")
def test_alchemists_lab_gives_one_card_of_income(pool: CardPool) -> None:
    lab = pool.get("alchemists_lab")
    assert isinstance(lab, ObjectCard)
    assert [(e.kind, e.value) for e in lab.effects] == [(EffectKind.INCOME, 1)]


@pytest.mark.rule("homm4:income-phase.additional-income")
def test_some_units_pay_tolls_and_some_skills_give_income(pool: CardPool) -> None:
    tolls = [u.id for u in of_type(pool, UnitCard) if u.ability("toll")]
    assert tolls and all(unit(pool, t).level >= 2 for t in tolls)
    earners = [
        s.id
        for s in of_type(pool, SkillCard)
        if any(e.kind is EffectKind.INCOME for e in s.effects)
    ]
    assert {"nobility_basic", "estates"} <= set(earners)


# ------------------------------------------------------------------ sanity and balance
@pytest.mark.rule("homm4:card-types.unit-cards")
def test_unit_costs_rise_with_level_and_x_cost_units_are_neutral(pool: CardPool) -> None:
    allowed = {1: {1}, 2: {2}, 3: {3}, 4: {4, 5}}
    for card in of_type(pool, UnitCard):
        if card.cost is None:
            assert card.faction is Faction.NEUTRAL, card.id
        else:
            assert card.cost in allowed[card.level], card.id
    assert any(u.cost is None for u in of_type(pool, UnitCard))


@pytest.mark.rule("homm4:card-types.unit-cards")
def test_fighter_statistics_stay_in_a_killable_range(pool: CardPool) -> None:
    fighters: list[UnitCard | HeroCard] = [*of_type(pool, UnitCard), *of_type(pool, HeroCard)]
    for card in fighters:
        assert 1 <= card.defense <= 12, card.id
        assert 1 <= card.phase <= 10, card.id
        casts = isinstance(card, UnitCard) and card.ability("spellcaster") is not None
        assert card.melee + card.ranged > 0 or casts, card.id
    phases = {u.phase for u in of_type(pool, UnitCard)}
    assert min(phases) == 1 and max(phases) == 10


@pytest.mark.rule("homm4:movement-phase.movement-points-and-terrain")
def test_movement_points_of_units_and_heroes(pool: CardPool) -> None:
    units = of_type(pool, UnitCard)
    assert all(3 <= u.movement <= 5 for u in units)
    best = max(u.movement for u in units)
    for hero in of_type(pool, HeroCard):
        assert hero.movement == best, hero.id
        assert 4 <= hero.phase <= 6, hero.id  # heroes act mid-round
        assert hero.ranged > 0, hero.id  # so Archery has something to raise


@pytest.mark.rule("homm4:card-types.skill-cards")
def test_every_skill_does_something_at_every_rank_and_never_weakens(pool: CardPool) -> None:
    for card in of_type(pool, SkillCard):
        ranks = card.ranks or (1, 2, 3, 4, 5)
        assert card.effects, card.id
        for rank in ranks:
            assert any(e.values[rank - 1] > 0 for e in card.effects), (card.id, rank)
        for e in card.effects:
            assert list(e.values) == sorted(e.values), card.id
            if e.kind is EffectKind.INCOME:
                assert max(e.values) <= 2, card.id
            if e.kind is EffectKind.RETREAT_ANYWHERE:
                assert set(e.values) == {1}, card.id


@pytest.mark.rule("homm4:card-types.skill-cards")
def test_cards_of_one_primary_share_one_effect_table(pool: CardPool) -> None:
    for primary in PrimarySkill:
        tables = {
            c.effects for c in of_type(pool, SkillCard) if c.primary is primary and not c.secondary
        }
        assert len(tables) == 1, primary


@pytest.mark.rule("homm4:card-types.artifact-cards")
def test_artifact_and_object_effects_are_modest(pool: CardPool) -> None:
    cards: list[ArtifactCard | ObjectCard] = [
        *of_type(pool, ArtifactCard),
        *of_type(pool, ObjectCard),
    ]
    for card in cards:
        for e in card.effects:
            assert e.kind is not EffectKind.MANA_MULTIPLIER and e.kind is not EffectKind.SPELL_LEVEL
            limit = 10 if e.kind is EffectKind.MANA else 6
            assert 1 <= e.value <= limit, card.id
            if e.kind is EffectKind.INCOME:
                assert e.value == 1, card.id


@pytest.mark.rule("homm4:card-types")
def test_every_card_has_text(pool: CardPool) -> None:
    assert all(len(c.text) >= 10 for c in pool.cards.values())
