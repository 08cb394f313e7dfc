"""Battles between two heroes, initiative ties, faction buildings in battle, and cards used
in the timing windows."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.mmh import battle, score
from engine.mmh.commands import Attack, GuardianAngel
from engine.mmh.content import Window
from engine.mmh.state import MmhState
from tests.mmh.helpers import (
    R,
    activate,
    apply,
    at,
    fixed_board,
    new_game,
    pass_windows,
    place_encounter,
    scripted_dice,
    set_army,
    texts,
)


def _duel(
    attacker: str = "laszlo",
    defender: str = "orson",
    factions: tuple[str, str] = ("haven", "necropolis"),
    a_army: list[tuple[str, bool]] | None = None,
    d_army: list[tuple[str, bool]] | None = None,
) -> MmhState:
    state = new_game(2, factions=factions, heroes=(attacker, defender))
    fixed_board(state)
    if a_army is not None:
        set_army(state, attacker, a_army)
    if d_army is not None:
        set_army(state, defender, d_army)
    state.heroes[defender].space = at(state, "D2")
    state.heroes[attacker].space = at(state, "C2")
    activate(state, attacker)
    return state


@pytest.mark.rule("mmh:course-of-play.battles")
def test_hero_battle_winner_takes_a_reward_and_the_losers_spaces_in_his_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _duel(a_army=[("sentinel", False)] * 3, d_army=[("skeleton", False)])
    state.control[at(state, "D4")] = 1  # the Mine, 2 spaces from D2
    state.control[at(state, "L4")] = 1  # a Sawmill far away
    state.artefact_deck.remove("windrider_boots")
    state.heroes["orson"].artefacts.append("windrider_boots")
    before = (score.vp(state, 0), score.vp(state, 1))
    # Orson (4) and his Skeleton (4) strike before Laszlo (3) and his Sentinels (3)
    with scripted_dice(monkeypatch, [8, 8, 1, 8, 8]) as left:
        state, _ = apply(state, 0, {"type": "move", "to": "D2"})
    assert left == [] and state.battle is None
    assert state.heroes["orson"].space is None  # the loser goes home
    assert state.heroes["laszlo"].space == at(state, "D2")
    assert state.control[at(state, "D4")] == 0 and state.control[at(state, "L4")] == 1
    assert state.queue[0].kind == "reward"
    state, _ = apply(state, 0, {"type": "reward", "artefact": "windrider_boots"})
    assert "windrider_boots" in state.heroes["laszlo"].artefacts
    assert (score.vp(state, 0), score.vp(state, 1)) == (before[0] + 2 + 1, before[1] - 2 - 1)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_hero_battle_reward_may_be_a_skill_card_without_xp(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _duel(a_army=[("sentinel", False)] * 3, d_army=[("skeleton", False)])
    with scripted_dice(monkeypatch, [8, 8, 1, 8, 8]):
        state, _ = apply(state, 0, {"type": "move", "to": "D2"})
    state, _ = apply(state, 0, {"type": "reward", "deck": "might"})
    assert state.queue[0].kind == "keep" and len(state.queue[0].cards) == 2
    assert state.heroes["laszlo"].trophies == []


@pytest.mark.rule("mmh:course-of-play.battles")
def test_passive_player_retreats_first_and_a_retreat_is_a_defeat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _duel(a_army=[("sentinel", False)] * 3, d_army=[("skeleton", False)] * 3)
    with scripted_dice(monkeypatch, [8] * 10):
        state, _ = apply(state, 0, {"type": "move", "to": "D2"})
    b = state.battle
    assert b is not None and b.step == "retreat" and b.retreat_seats == [1, 0]
    with pytest.raises(Exception, match=r"turn|retreat"):
        apply(state, 0, {"type": "fight_on"})
    state, _ = apply(state, 1, {"type": "retreat"})
    assert state.battle is None and state.heroes["orson"].space is None
    assert len(state.heroes["orson"].army) == 1
    assert state.queue[0].kind == "reward" and state.queue[0].seat == 0


@pytest.mark.rule("mmh:course-of-play.battles")
def test_initiative_ties_hero_initiative_then_the_active_player_then_blood_rage() -> None:
    # Laszlo (initiative 3) attacks Orson (4): among equal initiatives Orson's side places first
    state = _duel(a_army=[("crossbowman", False)], d_army=[("lich", False)])  # both 5
    battle.begin_hero_battle(state, state.heroes["laszlo"], state.heroes["orson"])
    order = battle.compute_order(state)
    b = state.battle
    assert b is not None
    kinds = [(b.units[i].side, b.units[i].kind) for i in order]
    assert kinds[:2] == [(1, "stack"), (0, "stack")]
    # encounter battles: the marker goes first among equals
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    set_army(state, "laszlo", [("goblin", False)] if False else [("crossbowman", False)])
    place_encounter(state, at(state, "D3"), 15)  # Brigands, initiative 5
    state.heroes["laszlo"].space = at(state, "D3")
    activate(state, "laszlo")
    battle.begin_encounter_battle(state, state.heroes["laszlo"], at(state, "D3"), "enter", None)
    b = state.battle
    assert b is not None
    first = b.units[battle.compute_order(state)[0]]
    assert first.kind == "encounter"
    state.seats[0].buildings.append("blood_pit")  # Blood Rage (as if Stronghold): priority
    first = b.units[battle.compute_order(state)[0]]
    assert first.kind == "stack"


@pytest.mark.rule("mmh:course-of-play.build")
def test_guardian_angel_ignores_the_elite_die_once_per_exchange(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    state.seats[0].buildings.append("guardian_angel_shrine")
    set_army(state, "laszlo", [("sentinel", False)] * 4)
    place_encounter(state, at(state, "D3"), 9)  # Deserters: elite symbol, might 3, threat 3
    state.heroes["laszlo"].space = at(state, "C3")
    activate(state, "laszlo")
    # Deserters (3) tie with Laszlo and the Sentinels: the marker first. Its controller
    # (Blue) may roll the elite die: 2 d8 + elite die, one hit and two skulls (3).
    state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    owed = R.pending(state)[0]
    assert (owed.seat, owed.kind) == (1, "battle_turn")
    used = state.model_copy(deep=True)  # as if the Angel had been called this exchange
    assert used.battle is not None
    used.battle.angel_used = [0]
    with scripted_dice(monkeypatch, [1, 8, 3, 8, 8, 8]) as left:  # no question: 3 damage
        used, _ = apply(used, 1, {"type": "attack", "elite": True})
    assert left == [] and len(used.heroes["laszlo"].army) == 1
    with scripted_dice(monkeypatch, [1, 8, 3]) as left:
        state, events = apply(state, 1, {"type": "attack", "elite": True})
    assert left == []
    # Red decides (the Angel "can" ignore the elite die's damage, once per exchange)
    owed = R.pending(state)[0]
    assert (owed.seat, owed.kind, owed.commands) == (0, "battle_angel", ("angel",))
    assert "ignore the elite die's 2 damage" in owed.prompt
    assert R.default_command(state, 0) == GuardianAngel(use=True)
    with scripted_dice(monkeypatch, [8, 8, 8]) as left:  # the last Sentinel, Laszlo (2): miss
        kept, _ = apply(state, 0, {"type": "angel", "use": False})
    assert left == [] and kept.battle is not None and kept.battle.angel_used == []
    assert len(kept.heroes["laszlo"].army) == 1  # all 3 damage: 4 basic Sentinels -> 1
    with scripted_dice(monkeypatch, [8] * 5) as left:  # 3 Sentinels, Laszlo (2 dice): miss
        state, events = apply(state, 0, {"type": "angel", "use": True})
    assert left == []
    assert "Guardian Angel: Red ignores the elite die's damage." in texts(events)
    assert len(state.heroes["laszlo"].army) == 3  # only the d8 hit
    # a new exchange of blows: the Angel is ready again
    assert state.battle is not None and state.battle.step == "retreat"
    assert battle.angel_ready(state, 0)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_the_encounter_controller_may_roll_without_the_elite_die(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    set_army(state, "laszlo", [("sentinel", False)] * 4)
    place_encounter(state, at(state, "D3"), 9)  # Deserters: elite symbol, threat 3
    state.heroes["laszlo"].space = at(state, "C3")
    activate(state, "laszlo")
    state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    assert [c.model_dump() for c in R.legal_commands(state, 1)] == [
        {"type": "attack", "elite": True, "target": None},
        {"type": "attack", "elite": False, "target": None},
    ]
    assert R.default_command(state, 1) == Attack(elite=True)
    # three d8 and no elite die; then the 4 Sentinels and Laszlo (2 dice) miss
    with scripted_dice(monkeypatch, [8, 8, 8] + [8] * 6) as left:
        state, events = apply(state, 1, {"type": "attack", "elite": False})
    first = next(e for e in events if e.kind == "attack")
    assert left == [] and first.data["dice"] == [8, 8, 8] and first.data["elite"] is None
    # a marker without the symbol may not: nobody is asked, it just rolls
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    set_army(state, "laszlo", [("sentinel", False)] * 4)
    place_encounter(state, at(state, "D3"), 5)  # Restless Dead: no symbol, initiative 2
    state.heroes["laszlo"].space = at(state, "C3")
    activate(state, "laszlo")
    with scripted_dice(monkeypatch, [8] * 20):  # everyone misses; no one is asked
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    owed = R.pending(state)[0]
    assert (owed.seat, owed.kind) == (0, "battle_retreat")


@pytest.mark.rule("mmh:course-of-play.build")
def test_necromancy_raises_two_after_the_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(2, factions=("necropolis", "haven"), heroes=("orson", "laszlo"))
    fixed_board(state)
    state.seats[0].buildings.append("pillar_of_bones")
    set_army(state, "orson", [("skeleton", False)] * 4)
    place_encounter(state, at(state, "D3"), 2)  # Bandits, initiative 4
    state.heroes["orson"].space = at(state, "C3")
    activate(state, "orson")
    # Bandits kill 2 Skeletons; Orson (4) 1 die, Skeletons 2 dice: 3 hits win
    with scripted_dice(monkeypatch, [1, 1, 1, 1]) as left:
        state, events = apply(state, 0, {"type": "move", "to": "D3"})
    assert left == [] and state.battle is None
    assert "Necromancy" in texts(events)
    raise_prompt = next(p for p in state.queue if p.kind == "raise")
    assert raise_prompt.points == 2 and raise_prompt.fallen == {"skeleton": 2}
    while state.queue[0].kind != "raise":
        state, _ = apply(state, 0, R.default_command(state, 0))
    state, _ = apply(state, 0, {"type": "raise", "creature": "skeleton", "mode": "revive"})
    state, _ = apply(state, 0, {"type": "raise", "creature": "skeleton", "mode": "revive"})
    assert len(state.heroes["orson"].army) == 4


@pytest.mark.rule("mmh:course-of-play.build")
def test_honor_gives_everyone_or_no_one_the_elite_die() -> None:
    state = new_game(2, factions=("sanctuary", "necropolis"), heroes=("sandor", "orson"))
    fixed_board(state)
    state.seats[0].buildings.append("hall_of_honor")
    set_army(state, "sandor", [("kappa", False)] * 3)
    place_encounter(state, at(state, "D3"), 2)
    state.heroes["sandor"].space = at(state, "C3")
    activate(state, "sandor")
    state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    b = state.battle
    assert b is not None and b.step == "honor"
    assert R.pending(state)[0].seat == 0
    state, _ = apply(state, 0, {"type": "honor", "elite_die": True})
    b = state.battle
    assert b is not None
    kappa = next(u for u in b.units if u.creature == "kappa")
    assert battle.can_elite(state, kappa)  # basic creatures roll it under Honor
    b.honor = "none"
    assert not battle.can_elite(state, kappa)


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_scrolls_need_magic_at_least_their_level() -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))  # Magic 1
    fixed_board(state)
    laszlo = state.heroes["laszlo"]
    for card in ("arcane_bolt", "ice_bolt"):
        state.scroll_deck.remove(card)
    laszlo.scrolls = ["arcane_bolt"]
    place_encounter(state, at(state, "D3"), 2)
    laszlo.space = at(state, "C3")
    activate(state, "laszlo")
    battle.begin_encounter_battle(state, laszlo, at(state, "D3"), "enter", None)
    assert battle.usable_cards(state, 0, Window.IN_BATTLE) == ["arcane_bolt"]
    state.scroll_discard.append(laszlo.scrolls.pop())
    state.scroll_discard.remove("arcane_bolt")
    state.scroll_deck.append("arcane_bolt")
    state.scroll_deck.remove("eclipse")
    laszlo.scrolls = ["eclipse"]  # level 5
    assert battle.usable_cards(state, 0, Window.IN_BATTLE) == []


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_secondary_part_needs_the_school_or_and_and(monkeypatch: pytest.MonkeyPatch) -> None:
    # Kaspar: Magic 5, schools Tactics, Dark and Primal; Arcane Bolt is Primal (OR).
    state = new_game(2, factions=("necropolis", "haven"), heroes=("kaspar", "laszlo"))
    fixed_board(state)
    kaspar = state.heroes["kaspar"]
    set_army(state, "kaspar", [("skeleton", False)] * 2)
    state.scroll_deck.remove("arcane_bolt")
    state.scroll_deck.remove("ice_bolt")
    kaspar.scrolls = ["arcane_bolt", "ice_bolt"]  # Ice Bolt is Water: primary only
    place_encounter(state, at(state, "D3"), 5)  # Restless Dead, initiative 2
    kaspar.space = at(state, "C3")
    activate(state, "kaspar")
    state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    with scripted_dice(monkeypatch, [8, 8]):  # the Skeletons (4) attack first
        state = pass_windows(state)
    b = state.battle
    assert b is not None and b.units[b.order[b.pos]].kind == "hero"
    enemy = next(u.id for u in b.units if u.kind == "encounter")
    with pytest.raises(IllegalMove, match="primary"):
        apply(state, 0, {"type": "use_card", "card": "ice_bolt", "part": "both", "target": enemy})
    with pytest.raises(IllegalMove, match="target"):
        apply(state, 0, {"type": "use_card", "card": "arcane_bolt", "part": "secondary"})
    with scripted_dice(monkeypatch, [8, 8, 8]):  # the Restless Dead then attack (3 dice)
        state, events = apply(
            state,
            0,
            {"type": "use_card", "card": "arcane_bolt", "part": "secondary", "target": enemy},
        )
    log = texts(events)
    assert "casts the scroll Arcane Bolt" in log and "takes 2 damage" in log
    assert "arcane_bolt" in state.scroll_discard
    assert state.heroes["kaspar"].scrolls == ["ice_bolt"]


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_dispel_stops_enemy_scrolls(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _duel("ysabel", "kaspar", a_army=[("sentinel", False)], d_army=[("skeleton", False)])
    ysabel, kaspar = state.heroes["ysabel"], state.heroes["kaspar"]
    for card in ("dispel", "arcane_bolt"):
        state.scroll_deck.remove(card)
    ysabel.scrolls = ["dispel"]
    kaspar.scrolls = ["arcane_bolt"]
    battle.begin_hero_battle(state, ysabel, kaspar)
    b = state.battle
    assert b is not None and b.step == "window" and b.window == "before"
    state, _ = apply(state, 0, {"type": "use_card", "card": "dispel"})
    # Ysabel holds no more scrolls and Kaspar may not use his: no window asks anyone
    with scripted_dice(monkeypatch, [8, 8, 8, 8]):  # everyone misses in exchange 1
        state = pass_windows(state)
    b = state.battle
    assert b is not None and b.dispelled == [1] and b.step == "retreat"
    assert battle.usable_cards(state, 1, Window.IN_BATTLE) == []
    assert state.heroes["kaspar"].scrolls == ["arcane_bolt"]


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_summoned_element_joins_the_track_and_goes_back_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new_game(2, factions=("necropolis", "haven"), heroes=("kaspar", "laszlo"))
    fixed_board(state)
    kaspar = state.heroes["kaspar"]
    set_army(state, "kaspar", [("skeleton", False)] * 3)
    state.scroll_deck.remove("summon_fire")
    kaspar.scrolls = ["summon_fire"]
    place_encounter(state, at(state, "D3"), 2)
    kaspar.space = at(state, "C3")
    activate(state, "kaspar")
    state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    b = state.battle
    assert b is not None and b.step == "window" and b.window == "before"
    # Fire Elemental (initiative 6, 2 dice on might 4) attacks first: 2 hits kill the Bandits
    with scripted_dice(monkeypatch, [1, 1]) as left:
        state, events = apply(
            state, 0, {"type": "use_card", "card": "summon_fire", "part": "primary"}
        )
    assert left == [] and "Fire Elemental" in texts(events)
    assert state.battle is None and sorted(state.element_supply) == [
        "air",
        "earth",
        "fire",
        "water",
    ]


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_a_shield_ignores_damage_this_exchange(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("ysabel", "orson"))
    fixed_board(state)
    ysabel = state.heroes["ysabel"]
    set_army(state, "ysabel", [("sentinel", False)] * 3)
    state.scroll_deck.remove("mana_shield")
    ysabel.scrolls = ["mana_shield"]
    place_encounter(state, at(state, "D3"), 5)  # Restless Dead: initiative 2, after Ysabel (5)
    ysabel.space = at(state, "C3")
    activate(state, "ysabel")
    state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    state = pass_windows(state)
    assert state.battle is not None and state.battle.units[state.battle.order[0]].kind == "hero"
    # Ysabel casts Mana Shield instead of attacking (shield 2); Sentinels miss (3 dice);
    # the Restless Dead hit twice: both ignored
    with scripted_dice(monkeypatch, [8, 8, 8, 1, 1, 8]):
        state, events = apply(
            state, 0, {"type": "use_card", "card": "mana_shield", "part": "primary"}
        )
    assert "2 damage is ignored" in texts(events)
    assert len(state.heroes["ysabel"].army) == 3


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_a_magic_attack_hits_on_the_heros_magic(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(2, factions=("necropolis", "haven"), heroes=("kaspar", "laszlo"))
    fixed_board(state)
    kaspar = state.heroes["kaspar"]  # Magic 5, might 2
    set_army(state, "kaspar", [("skeleton", False)] * 2)
    seat = state.seats[0]
    for pile in (seat.magic_deck, seat.magic_discard, kaspar.skills):
        if "necropolis-magic-5" in pile:  # Death Bolt: magic attack 2 dice (OR 3, Primal)
            pile.remove("necropolis-magic-5")
    kaspar.skills.append("necropolis-magic-5")
    place_encounter(state, at(state, "D3"), 5)
    kaspar.space = at(state, "C3")
    activate(state, "kaspar")
    with scripted_dice(monkeypatch, [8, 8]):  # the Skeletons (4) first
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    with scripted_dice(monkeypatch, [5, 4, 3, 8, 8, 8]):  # 3 dice on Magic 5: all hit
        state, events = apply(
            state, 0, {"type": "use_card", "card": "necropolis-magic-5", "part": "secondary"}
        )
    assert "3 hits = 3 damage" in texts(events)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_a_reward_with_nothing_to_take_can_be_skipped() -> None:
    from engine.mmh.state import Reward

    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    state.queue.insert(0, Reward(seat=0, hero="laszlo", loser="orson"))
    with pytest.raises(IllegalMove, match="must be taken"):
        apply(state, 0, {"type": "decline"})
    seat = state.seats[0]
    seat.might_discard += seat.might_deck + seat.magic_deck
    seat.might_deck, seat.magic_deck = [], []
    hero = state.heroes["laszlo"]
    hero.skills += seat.might_discard
    seat.might_discard = []
    assert R.legal_commands(state, 0) == [
        __import__("engine.mmh.commands", fromlist=["Decline"]).Decline()
    ]
    state, _ = apply(state, 0, {"type": "decline"})
    assert not state.queue
