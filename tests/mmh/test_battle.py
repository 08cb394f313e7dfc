"""Battles on the initiative track, with scripted dice (mmh:course-of-play.battles and the
rules that feed into it). Board: `fixed_board` (tiles 1-9 unturned)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.mmh import battle
from engine.mmh.state import MmhState
from tests.mmh.helpers import (
    R,
    activate,
    apply,
    at,
    fixed_board,
    new_game,
    place_encounter,
    scripted_dice,
    set_army,
    texts,
)

BANDITS = 2  # yellow: might 3, threat 2, initiative 4, 1 XP, 1 chest
RESTLESS_DEAD = 5  # yellow: might 2, threat 3, initiative 2, resilience 1


def _encounter_game(
    army: list[tuple[str, bool]], marker: int = BANDITS, hero: str = "laszlo"
) -> MmhState:
    """Laszlo (Might 5, Aggressor: 2 dice, Initiative 3) at C3 next to marker on D3."""
    state = new_game(2, factions=("haven", "necropolis"), heroes=(hero, "orson"))
    fixed_board(state)
    set_army(state, hero, army)
    place_encounter(state, at(state, "D3"), marker)
    state.heroes[hero].space = at(state, "C3")
    activate(state, hero)
    return state


@pytest.mark.rule("mmh:course-of-play.battles")
def test_a_whole_battle_against_an_encounter(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _encounter_game([("sentinel", False), ("sentinel", False)])
    # Bandits (initiative 4) strike first: 2 dice, a 1 hits, an 8 misses.
    # Sentinels (1 basic left, might 1): 1 die. Laszlo: 2 dice on might 5.
    with scripted_dice(monkeypatch, [1, 8, 1, 5, 6]) as left:
        state, events = apply(state, 0, {"type": "move", "to": "D3"})
    assert left == []
    log = texts(events)
    assert "Initiative track: [2] Bandits, [1] Sentinel, [0] Laszlo." in log
    assert "1 flipped to basic, 0 destroyed" not in log
    assert "[1] Sentinel: 0 flipped to basic, 1 destroyed" in log
    assert "Laszlo wins the battle" in log
    assert state.battle is None
    laszlo = state.heroes["laszlo"]
    assert laszlo.space == at(state, "D3") and laszlo.trophies == [BANDITS]
    assert len(laszlo.army) == 1
    assert state.queue and state.queue[0].kind == "treasure"
    treasure = state.queue[0]
    assert treasure.picks == 1 and treasure.artefact is False  # ordinary: no artefact field
    rolls = [e for e in events if e.kind == "die_roll"]
    assert [r.data["sides"] for r in rolls] == [8, 8, 8, 8, 8]
    assert R.audit(state) == []


@pytest.mark.rule("mmh:course-of-play.battles")
def test_one_always_hits_eight_always_misses() -> None:
    assert battle._hit(1, 0) and not battle._hit(8, 9)
    assert battle._hit(5, 5) and not battle._hit(6, 5)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_one_die_per_creature_at_most_five_and_the_elite_die_replaces_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _encounter_game([("sentinel", True)] * 3 + [("sentinel", False)] * 4)
    state.heroes["laszlo"].space = at(state, "C3")
    with scripted_dice(monkeypatch, [8, 8]):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})  # Bandits miss twice
    b = state.battle
    assert b is not None and b.step == "turn"
    stack = b.units[b.order[b.pos]]
    assert stack.kind == "stack" and len(battle.stack_units(state, stack)) == 7
    mights = battle._dice_mights(state, stack, None)
    assert mights == [2, 2, 2, 1, 1, 1, 1]  # elite creatures' dice first
    with scripted_dice(monkeypatch, [8, 8, 8, 8, 8, 6]) as left:
        state, events = apply(state, 0, {"type": "attack", "elite": True})
    assert left == []  # 7 creatures: 5 attack dice plus the elite die
    assert "+ elite die: bad luck" in texts(events)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_with_five_or_fewer_creatures_the_elite_die_takes_a_die_s_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _encounter_game([("sentinel", True)] * 3)
    with scripted_dice(monkeypatch, [8, 8]):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    with scripted_dice(monkeypatch, [8, 8, 1]) as left:  # 2 d8 + the elite die: one skull
        state, events = apply(state, 0, {"type": "attack", "elite": True})
    assert left == []
    assert "0 hits + 1 from the elite die = 1 damage" in texts(events)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_damage_flips_elite_creatures_or_destroys_basic_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _encounter_game([("sentinel", True), ("sentinel", False)])
    with scripted_dice(monkeypatch, [1, 1]):  # Bandits: 2 hits
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    b = state.battle
    assert b is not None and b.step == "assign" and b.damage == 2
    sentinels = next(u.id for u in b.units if u.creature == "sentinel")
    options = battle.assign_options(state)
    assert (sentinels, "elite") in options and (sentinels, "basic") in options
    with scripted_dice(monkeypatch, [8, 8, 8]):  # the last Sentinel and Laszlo then miss
        state, events = apply(state, 0, {"type": "assign", "unit": sentinels, "order": "elite"})
    army = [(u.creature, u.elite) for u in state.heroes["laszlo"].army]
    # the first point flips the elite Praetorian, the second destroys a basic Sentinel
    assert army == [("sentinel", False)]
    assert "1 flipped to basic, 1 destroyed" in texts(events)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_resilience_holds_a_damage_marker_and_piercing_ignores_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    set_army(state, "orson", [("ghoul", False), ("ghoul", False)])  # Resilience 1
    place_encounter(state, at(state, "D3"), BANDITS)
    state.heroes["orson"].space = at(state, "C3")
    activate(state, "orson")
    state.active = 1
    assert state.action is not None
    # Bandits (4) first, then Orson (4, after the marker), then the Ghouls (3)
    with scripted_dice(monkeypatch, [1, 8, 8, 8, 8]):  # one hit: a damage marker, no loss
        state, _ = apply(state, 1, {"type": "move", "to": "D3"})
    ghouls = state.heroes["orson"].army
    assert len(ghouls) == 2 and sorted(g.wounds for g in ghouls) == [0, 1]
    b = state.battle
    assert b is not None
    b.piercing = True
    b.damage = 1
    b.damage_side = 0
    b.step = "assign"
    before = len(state.heroes["orson"].army)
    battle._apply_assign(state, next(u.id for u in b.units if u.creature == "ghoul"), "basic")
    assert len(state.heroes["orson"].army) == before - 1  # Piercing: 1 damage destroys


@pytest.mark.rule("mmh:course-of-play.battles")
def test_resilient_encounter_and_damage_markers_reduce_its_dice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _encounter_game([("sentinel", False)], marker=RESTLESS_DEAD)
    # Laszlo (3) and the Sentinel (3) act before the Restless Dead (2): Sentinel 1 hit,
    # Laszlo 2 hits -> 3 damage, but the marker holds threat 3 + resilience 1.
    with scripted_dice(monkeypatch, [1, 1, 1, 8, 8]) as left:
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    b = state.battle
    assert b is not None
    enc = next(u for u in b.units if u.kind == "encounter")
    assert enc.alive and enc.damage == 3
    assert len(battle._dice_mights(state, enc, None)) == 1  # threat 3 - (3 - 1) = 1 die
    assert left == [8]


@pytest.mark.rule("mmh:course-of-play.battles")
def test_annihilator_battle_fury_and_regeneration(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _encounter_game([("sentinel", False)] * 6, marker=42)  # Lord of the Deep
    # Lord of the Deep: initiative 5, Battle Fury (5 dice at any threat), Annihilator (2
    # damage per hit), Regeneration; then 5 Sentinel dice (6 creatures) and Laszlo's 2.
    dice = [1, 8, 8, 8, 8, 1, 8, 8, 8, 1, 8]  # 2 Sentinels fell: 4 of their dice
    with scripted_dice(monkeypatch, dice) as left:
        state, events = apply(state, 0, {"type": "move", "to": "D3"})
    assert left == []
    log = texts(events)
    assert "[2] Lord of the Deep: 1 hit = 2 damage" in log
    assert "takes 1 damage (2 in all)" in log and "regenerates all damage" in log
    b = state.battle
    assert b is not None and b.step == "retreat"
    enc = next(u for u in b.units if u.kind == "encounter")
    assert enc.damage == 0 and len(battle._dice_mights(state, enc, None)) == 5


@pytest.mark.rule("mmh:course-of-play.battles")
def test_focused_attack_picks_a_target_not_a_defender_and_rerolls_a_miss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new_game(2, factions=("haven", "sanctuary"), heroes=("laszlo", "sandor"))
    fixed_board(state)
    set_army(state, "laszlo", [("crossbowman", True)] * 3)
    set_army(state, "sandor", [("shark_soldier", False), ("kappa", False), ("kenshi", False)])
    state.heroes["sandor"].space = at(state, "D2")
    activate(state, "laszlo")
    battle.begin_hero_battle(state, state.heroes["laszlo"], state.heroes["sandor"])
    b = state.battle
    assert b is not None
    marksmen = next(u for u in b.units if u.creature == "crossbowman")
    by_kind = {u.creature: u.id for u in b.units if u.side == 1 and u.kind == "stack"}
    # Shark Soldiers have Defender: immune to Focused Attack
    assert set(battle.focus_targets(state, marksmen)) == {by_kind["kappa"], by_kind["kenshi"]}
    b.step, b.order, b.pos = "turn", [marksmen.id], 0
    with pytest.raises(IllegalMove, match="cannot pick"):
        apply(state, 0, {"type": "attack", "elite": False, "target": by_kind["shark_soldier"]})
    # 3 dice on might 3: 2 hits and a 7, the 7 rerolled once (to a 5, still a miss); both
    # hits go to the Kenshi the attacker picked, though Sandor would rather lose Kappa
    with scripted_dice(monkeypatch, [1, 2, 7, 5]) as left:
        state, events = apply(
            state, 0, {"type": "attack", "elite": False, "target": by_kind["kenshi"]}
        )
    assert left == []
    assert "Focused Attack reroll" in "\n".join(e.data.get("purpose", "") for e in events)
    assert all(u.creature != "kenshi" for u in state.heroes["sandor"].army)
    assert len(state.heroes["sandor"].army) == 2


@pytest.mark.rule("mmh:course-of-play.battles")
def test_rerolls_at_most_once_per_die_the_rulebook_example(monkeypatch: pytest.MonkeyPatch) -> None:
    # 4 attack dice hitting on 4 or less roll 1, 3, 4, 7 and Luck on the elite die; the
    # defender holds the Ring of Misfortune. The 7 is rerolled for Luck (to a 2, a hit,
    # not rerolled again), then the 1, 3 and 4 for the Ring.
    state = new_game(2, factions=("stronghold", "necropolis"), heroes=("kraal", "orson"))
    fixed_board(state)
    set_army(state, "kraal", [("dreamwalker", True)] * 5)
    set_army(state, "orson", [("ghoul", False)] * 6)
    state.artefact_deck.remove("ring_of_misfortune")
    state.heroes["orson"].artefacts.append("ring_of_misfortune")
    state.heroes["orson"].space = at(state, "D2")
    state.heroes["kraal"].space = at(state, "C2")
    activate(state, "kraal")
    state, _ = apply(state, 0, {"type": "move", "to": "D2"})
    b = state.battle
    assert b is not None
    spirits = next(u for u in b.units if u.creature == "dreamwalker")
    b.step, b.order, b.pos = "turn", [spirits.id], 0
    with scripted_dice(monkeypatch, [1, 3, 4, 7, 5, 2, 8, 8, 2]) as left:
        state, _ = apply(state, 0, {"type": "attack", "elite": True})
    assert left == []
    assert state.battle is not None and state.battle.last is not None
    assert state.battle.last.dice == [8, 8, 2, 2] and state.battle.last.hits == 2


@pytest.mark.rule("mmh:other-game-rules.luck")
def test_a_luck_marker_rerolls_the_missed_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _encounter_game([("sentinel", True)] * 3)
    state.heroes["laszlo"].luck = 1
    state.luck_supply = 12
    with scripted_dice(monkeypatch, [8, 8]):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    with scripted_dice(monkeypatch, [7, 7, 4]):  # two misses, a laurel wreath
        state, _ = apply(state, 0, {"type": "attack", "elite": True})
    b = state.battle
    assert b is not None and b.step == "luck"
    assert set(battle.luck_choices(state)) == {"missed", "elite"}
    with scripted_dice(monkeypatch, [1, 2]):
        state, events = apply(state, 0, {"type": "luck", "choice": "missed"})
    assert state.heroes["laszlo"].luck == 0 and state.luck_supply == 13
    assert "2 hits" in texts(events)


@pytest.mark.rule("mmh:other-game-rules.luck")
def test_a_luck_marker_negates_bad_luck_without_a_reroll(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _encounter_game([("sentinel", True)] * 3)
    state.heroes["laszlo"].luck = 1
    state.luck_supply = 12
    with scripted_dice(monkeypatch, [8, 8]):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    with scripted_dice(monkeypatch, [1, 2, 6]):  # two hits, Bad Luck
        state, _ = apply(state, 0, {"type": "attack", "elite": True})
    assert state.battle is not None and state.battle.step == "negate"
    with scripted_dice(monkeypatch, []):
        state, events = apply(state, 0, {"type": "luck", "choice": "negate"})
    assert "2 hits = 2 damage" in texts(events)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_bad_luck_rerolls_the_hits_and_luck_the_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _encounter_game([("sentinel", True)] * 3)
    with scripted_dice(monkeypatch, [8, 8]):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    with scripted_dice(monkeypatch, [1, 7, 6, 8]) as left:  # Bad Luck: the hit (1) rerolled to 8
        state, events = apply(state, 0, {"type": "attack", "elite": True})
    assert left == [] and "0 hits = 0 damage" in texts(events)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_laurel_wreath_upgrade_or_raise_dead(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _encounter_game([("sentinel", True), ("sentinel", False), ("sentinel", False)])
    with scripted_dice(monkeypatch, [1, 8]):  # one Sentinel falls
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    if state.battle is not None and state.battle.step == "assign":
        unit = battle.assign_options(state)[-1]
        state, _ = apply(state, 0, {"type": "assign", "unit": unit[0], "order": "basic"})
    assert state.battle is not None and state.battle.fallen["laszlo"] == {"sentinel": 1}
    with scripted_dice(monkeypatch, [8, 4]):  # a miss and the laurel wreath
        state, _ = apply(state, 0, {"type": "attack", "elite": True})
    assert state.battle is not None and state.battle.step == "laurel"
    state, _ = apply(state, 0, {"type": "laurel", "choice": "raise"})
    assert state.queue and state.queue[0].kind == "raise"
    state, _ = apply(state, 0, {"type": "raise", "creature": "sentinel", "mode": "revive"})
    assert len(state.heroes["laszlo"].army) == 3


@pytest.mark.rule("mmh:course-of-play.battles")
def test_retreat_loses_two_creatures_or_one_defender(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _encounter_game([("crossbowman", False)] * 3, marker=RESTLESS_DEAD)
    with scripted_dice(monkeypatch, [8] * 8):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    assert state.battle is not None and state.battle.step == "retreat"
    with pytest.raises(IllegalMove, match="2 creature"):
        apply(state, 0, {"type": "retreat", "losses": ["crossbowman"]})
    state, _ = apply(state, 0, {"type": "retreat", "losses": ["crossbowman", "crossbowman"]})
    assert state.battle is None and state.heroes["laszlo"].space is None
    assert len(state.heroes["laszlo"].army) == 1
    assert state.encounters[at(state, "D3")] == RESTLESS_DEAD
    # a Defender creature may be given up alone
    state = _encounter_game([("sentinel", False)] * 3, marker=RESTLESS_DEAD)
    with scripted_dice(monkeypatch, [8] * 8):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    state, _ = apply(state, 0, {"type": "retreat", "losses": ["sentinel"]})
    assert len(state.heroes["laszlo"].army) == 2


@pytest.mark.rule("mmh:course-of-play.battles")
def test_retreat_giving_up_a_creature_the_army_lacks_names_the_army(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _encounter_game([("crossbowman", False)] * 3, marker=RESTLESS_DEAD)
    with scripted_dice(monkeypatch, [8] * 8):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    assert state.battle is not None and state.battle.step == "retreat"
    before = state.model_dump_json()
    held = "it holds crossbowman, crossbowman, crossbowman."
    for losses, named in [
        (["stronghold-might-4", "crossbowman"], "'stronghold-might-4'"),  # no creature's id
        (["crossbowman", "crossbowman+"], "Marksman"),
        (["crossbowman", "ghoul"], "Ghoul"),
    ]:
        with pytest.raises(IllegalMove) as refusal:
            apply(state, 0, {"type": "retreat", "losses": losses})
        assert str(refusal.value) == f"Laszlo's army has no {named} to give up; {held}"
    assert state.model_dump_json() == before


@pytest.mark.rule("mmh:course-of-play.battles")
def test_losing_sends_the_hero_home_and_the_marker_back_healed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _encounter_game([("sentinel", False)], marker=BANDITS)
    with scripted_dice(monkeypatch, [1, 8]):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    assert state.battle is None
    assert state.heroes["laszlo"].space is None and state.heroes["laszlo"].army == []
    assert state.encounters[at(state, "D3")] == BANDITS
    assert state.action is not None and state.action.activation is None


@pytest.mark.rule("mmh:other-game-rules.dark-times")
def test_dark_times_two_markers_one_reward(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _encounter_game([("sentinel", False)] * 4)
    state.week = "blood_moon"
    state.week_stack.remove(
        "blood_moon"
    ) if "blood_moon" in state.week_stack else state.week_box.remove("blood_moon")
    # both markers strike (initiative 4) and miss; 4 Sentinel hits destroy one marker
    # completely, then the other (Laszlo never attacks)
    with scripted_dice(monkeypatch, [8, 8, 8, 8, 1, 1, 1, 1]) as left:
        state, events = apply(state, 0, {"type": "move", "to": "D3"})
    assert "Dark Times" in texts(events)
    assert left == []
    assert state.battle is None and state.heroes["laszlo"].trophies == [BANDITS]
    assert sum(1 for p in state.queue if p.kind == "treasure") == 1
    assert R.audit(state) == []


@pytest.mark.rule("mmh:other-game-rules.overwhelm-markers")
@pytest.mark.parametrize(("marker", "needed"), [(BANDITS, 2), (20, 3), (35, 4)])
def test_overwhelm_thresholds(marker: int, needed: int) -> None:
    state = _encounter_game([("sentinel", True)] * 7, marker=marker)
    from engine.mmh import heroes, movement

    colour = (
        __import__("engine.mmh.content", fromlist=["load_content"])
        .load_content()
        .encounter(marker)
        .colour
    )
    assert movement.overwhelm_needed(state, colour) == needed
    state.week = "blood_moon"
    assert movement.overwhelm_needed(state, colour) == needed + 1  # Dark Times
    state.week = None
    assert heroes.overwhelm(state, state.heroes["laszlo"]) == 0


@pytest.mark.rule("mmh:other-game-rules.overwhelm-markers")
def test_overwhelm_routs_without_a_battle_treasure_but_no_xp(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _encounter_game(
        [("sentinel", True)] * 4 + [("sentinel", False)] * 4 + [("crossbowman", True)]
    )
    state.heroes["laszlo"].skills.append("haven-might-1")  # Forced Attack
    state.seats[0].might_deck.remove("haven-might-1")
    from engine.mmh import heroes

    assert heroes.overwhelm(state, state.heroes["laszlo"]) == 2  # 9 creatures + Forced Attack
    with scripted_dice(monkeypatch, []):
        state, events = apply(state, 0, {"type": "move", "to": "D3"})
    assert state.battle is None and "overwhelms" in texts(events)
    assert state.heroes["laszlo"].trophies == [] and BANDITS in state.encounter_box
    assert state.queue and state.queue[0].kind == "treasure"
    assert state.heroes["laszlo"].space == at(state, "D3")
    assert state.action is not None and state.action.activation is not None
    assert state.action.activation.battles == 1  # a rout is no battle


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_defeating_a_guard_from_its_own_space_leaves_an_exploration_marker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    set_army(state, "laszlo", [("sentinel", False)] * 3)
    place_encounter(state, at(state, "B5"), BANDITS)  # guards the Arcane Library at C5
    state.heroes["laszlo"].space = at(state, "A5")
    activate(state, "laszlo")
    with scripted_dice(monkeypatch, [8, 8, 1, 1, 1, 8, 8]):
        state, _ = apply(state, 0, {"type": "move", "to": "B5"})
    assert state.battle is None and at(state, "C5") in state.exploration_markers


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_exploring_a_guarded_location_fights_its_guard_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("ysabel", "orson"))
    fixed_board(state)
    set_army(state, "ysabel", [("sentinel", False)] * 3)
    place_encounter(state, at(state, "B5"), BANDITS)
    state.heroes["ysabel"].space = at(state, "C5")
    activate(state, "ysabel")
    # Ysabel (initiative 5) and Bandits (4): hero 1 die on might 2, Bandits 2, Sentinels 3
    with scripted_dice(monkeypatch, [1, 8, 8, 1, 1, 8]):
        state, events = apply(state, 0, {"type": "explore"})
    assert state.battle is None and "explores the Arcane Library" in texts(events)
    assert at(state, "C5") not in state.exploration_markers
    assert len(state.heroes["ysabel"].scrolls) == 1
    assert state.heroes["ysabel"].space == at(state, "C5")


@pytest.mark.rule("mmh:course-of-play.battles")
def test_regeneration_heals_a_resilient_marker_while_it_stands() -> None:
    # Fate Spinner: threat 5, Resilience 1, Regeneration. 5 damage markers: its threat is
    # down to 1 die (5 - (5 - 1)) but the Resilience keeps it standing, so it regenerates.
    state = _encounter_game([("sentinel", True)] * 3, marker=36)
    battle.begin_encounter_battle(state, state.heroes["laszlo"], at(state, "D3"), "enter", None)
    b = state.battle
    assert b is not None
    enc = next(u for u in b.units if u.kind == "encounter")
    enc.damage = 5
    assert battle.alive(state, enc) and len(battle._dice_mights(state, enc, None)) == 1
    events = battle._next_exchange(state)
    assert enc.damage == 0 and "regenerates all damage" in texts(events)
    enc.damage, enc.alive = 6, False  # destroyed (threat 5 + Resilience 1): stays so
    battle._next_exchange(state)
    assert enc.damage == 6
