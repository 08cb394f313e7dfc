"""A small test card pool with the rulebook's example numbers, and a state builder.

The cards are ours (test-only) and carry exactly the numbers the rulebook's examples use:
Golden Golems are level 2 with Melee 3 / Defense 7 and act in Phase 7; a Bandit has Melee
1 and acts in Phase 3; an Orc shoots (Ranged > 0) in Phase 6; Halflings shoot; Magi cast a
spell attack with Ranged 0; Basic Chaos Magic gives 10 Mana and Basic Sorcery 10 more.
`use_pool` swaps the shipped pool for this one (monkeypatch of `engine.homm4.zones.pool`).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.rng import Rng
from engine.homm4 import zones
from engine.homm4.cards import CardPool, parse_cards
from engine.homm4.hexes import Hex
from engine.homm4.options import Homm4Options
from engine.homm4.state import Army, Homm4State, Inventory, Player, Site


def _unit(
    cid: str,
    name: str,
    *,
    level: int,
    melee: int,
    ranged: int = 0,
    defense: int,
    phase: int,
    faction: str = "order",
    abilities: list[dict[str, Any]] | None = None,
    movement: int = 2,
) -> dict[str, Any]:
    return {
        "type": "unit",
        "id": cid,
        "name": name,
        "cost": level,
        "faction": faction,
        "level": level,
        "melee": melee,
        "ranged": ranged,
        "defense": defense,
        "movement": movement,
        "phase": phase,
        "abilities": abilities or [],
    }


def _skill(
    cid: str,
    name: str,
    primary: str,
    *,
    ranks: list[int] | None = None,
    secondary: bool = False,
    effects: list[tuple[str, list[int]]] = (),  # type: ignore[assignment]
) -> dict[str, Any]:
    return {
        "type": "skill",
        "id": cid,
        "name": name,
        "primary": primary,
        "secondary": secondary,
        "ranks": ranks or [],
        "effects": [{"kind": k, "values": v} for k, v in effects],
    }


def _spell(cid: str, name: str, school: str, level: int, mana: int, **kw: Any) -> dict[str, Any]:
    return {
        "type": "spell",
        "id": cid,
        "name": name,
        "school": school,
        "level": level,
        "mana": mana,
        **kw,
    }


def _town_level(**kw: Any) -> dict[str, Any]:
    return {"units": [], **kw}


CARDS: list[dict[str, Any]] = [
    # units (rulebook example numbers)
    _unit("golden_golem", "Golden Golem", level=2, melee=3, defense=7, phase=7, movement=1),
    _unit("bandit", "Bandit", level=1, melee=1, defense=2, phase=3, faction="chaos"),
    _unit("orc", "Orc", level=1, melee=1, ranged=3, defense=2, phase=6, faction="chaos"),
    _unit("halfling", "Halfling", level=1, melee=1, ranged=2, defense=2, phase=5),
    _unit(
        "mage",
        "Mage",
        level=2,
        melee=1,
        defense=4,
        phase=4,
        abilities=[{"kind": "spellcaster", "spell": "Magic Fist", "spell_attack": 4}],
    ),
    _unit("troll", "Troll", level=3, melee=5, defense=13, phase=8, faction="might"),
    _unit("pikeman", "Pikeman", level=1, melee=2, defense=3, phase=2, faction="life"),
    _unit(
        "griffin",
        "Griffin",
        level=3,
        melee=4,
        defense=6,
        phase=4,
        faction="nature",
        abilities=[{"kind": "flying"}, {"kind": "unlimited_counter"}],
    ),
    _unit(
        "wolf",
        "Wolf",
        level=1,
        melee=2,
        defense=3,
        phase=2,
        faction="nature",
        abilities=[{"kind": "strikes_twice"}],
    ),
    _unit(
        "elf",
        "Elf",
        level=2,
        melee=1,
        ranged=3,
        defense=3,
        phase=5,
        faction="nature",
        abilities=[{"kind": "shoots_twice"}],
    ),
    _unit(
        "cerberus",
        "Cerberus",
        level=2,
        melee=3,
        defense=4,
        phase=3,
        faction="death",
        abilities=[{"kind": "multi_target", "targets": 2}],
    ),
    _unit(
        "sprite",
        "Sprite",
        level=1,
        melee=1,
        ranged=1,
        defense=2,
        phase=1,
        faction="nature",
        abilities=[{"kind": "flying"}, {"kind": "no_counter"}],
    ),
    # heroes
    {
        "type": "hero",
        "id": "knight",
        "name": "Knight",
        "cost": 3,
        "faction": "life",
        "hero_class": "knight",
        "melee": 3,
        "ranged": 0,
        "defense": 4,
        "movement": 3,
        "phase": 5,
        "starting_primary": "tactics",
        "starting_secondary": "defense_skill",
    },
    {
        "type": "hero",
        "id": "sorcerer",
        "name": "Sorcerer",
        "cost": 3,
        "faction": "chaos",
        "hero_class": "sorcerer",
        "melee": 1,
        "ranged": 1,
        "defense": 3,
        "movement": 3,
        "phase": 4,
        "starting_primary": "chaos_magic",
        "starting_secondary": None,
    },
    {
        "type": "hero",
        "id": "barbarian",
        "name": "Barbarian",
        "cost": 3,
        "faction": "might",
        "hero_class": "barbarian",
        "melee": 4,
        "ranged": 0,
        "defense": 4,
        "movement": 3,
        "phase": 3,
        "starting_primary": "combat",
        "starting_secondary": None,
    },
    # skills
    _skill("tactics", "Tactics", "tactics", ranks=[1, 2]),
    _skill("tactics_expert", "Tactics", "tactics", ranks=[3]),
    _skill("tactics_master", "Tactics", "tactics", ranks=[4]),
    _skill(
        "defense_skill",
        "Defense",
        "tactics",
        secondary=True,
        effects=[("army_defense", [1, 2, 3, 4, 5])],
    ),
    _skill(
        "offense",
        "Offense",
        "tactics",
        secondary=True,
        effects=[("army_melee", [1, 2, 3, 4, 5])],
    ),
    _skill(
        "chaos_magic",
        "Chaos Magic",
        "chaos_magic",
        ranks=[1, 2],
        effects=[("mana", [10, 15, 20, 25, 30]), ("spell_level", [1, 2, 3, 4, 5])],
    ),
    _skill(
        "chaos_magic_expert",
        "Chaos Magic",
        "chaos_magic",
        ranks=[3],
        effects=[("mana", [10, 15, 20, 25, 30]), ("spell_level", [1, 2, 3, 4, 5])],
    ),
    _skill(
        "sorcery",
        "Sorcery",
        "chaos_magic",
        secondary=True,
        effects=[("mana", [10, 15, 20, 25, 30]), ("spell_power", [1, 2, 3, 4, 5])],
    ),
    _skill(
        "scouting",
        "Scouting",
        "scouting",
        ranks=[1, 2],
        effects=[("sight", [1, 1, 2, 2, 3]), ("movement", [1, 2, 3, 4, 5])],
    ),
    _skill(
        "combat",
        "Combat",
        "combat",
        ranks=[1, 2],
        effects=[("hero_melee", [1, 2, 3, 4, 5]), ("hero_defense", [1, 2, 3, 4, 5])],
    ),
    _skill(
        "life_magic",
        "Life Magic",
        "life_magic",
        ranks=[1, 2],
        effects=[("mana", [10, 15, 20, 25, 30])],
    ),
    # spells
    _spell(
        "magic_arrow",
        "Magic Arrow",
        "chaos",
        1,
        2,
        effect="attack",
        target="one_enemy",
        power=3,
    ),
    _spell(
        "bloodlust",
        "Bloodlust",
        "chaos",
        1,
        2,
        effect="stat",
        stat="melee",
        target="one_friend",
        power=2,
    ),
    _spell(
        "fireball",
        "Fireball",
        "chaos",
        3,
        5,
        effect="attack",
        target="all_enemy_front",
        power=4,
    ),
    _spell(
        "resurrection",
        "Resurrection",
        "life",
        1,
        4,
        effect="resurrect",
        target="one_friend",
        power=2,
    ),
    # artifacts
    {
        "type": "artifact",
        "id": "sword_of_might",
        "name": "Sword of Might",
        "category": "treasure",
        "slots": [["right_hand"]],
        "effects": [{"kind": "hero_melee", "value": 2}],
    },
    {
        "type": "artifact",
        "id": "mana_pendant",
        "name": "Mana Pendant",
        "category": "chaos",
        "cost": 2,
        "slots": [["neck"]],
        "effects": [{"kind": "mana", "value": 5}],
    },
    {
        "type": "artifact",
        "id": "boots_of_retreat",
        "name": "Boots of Retreat",
        "category": "treasure",
        "slots": [["feet"]],
        "effects": [{"kind": "retreat_anywhere", "value": 1}, {"kind": "recover", "value": 1}],
    },
    # objects
    {
        "type": "object",
        "id": "ore_pit",
        "name": "Ore Pit",
        "object_type": "mine",
        "effects": [{"kind": "hero_melee", "value": 1}],
    },
    {
        "type": "object",
        "id": "crystal_mine",
        "name": "Crystal Mine",
        "object_type": "mine",
        "effects": [{"kind": "mana", "value": 5}, {"kind": "spell_power", "value": 1}],
    },
    # towns
    {
        "type": "town",
        "id": "asylum",
        "name": "Asylum",
        "faction": "chaos",
        "town": "Asylum",
        "levels": [
            _town_level(units=["bandit", "orc"]),
            _town_level(),
            _town_level(),
            _town_level(effects=[{"kind": "mana_multiplier", "value": 2}]),
        ],
    },
]

POOL: CardPool = parse_cards({"cards": CARDS, "decks": []})


@pytest.fixture
def small_pool(monkeypatch: pytest.MonkeyPatch) -> CardPool:
    """Use the test pool in `engine.homm4.zones` for the duration of a test."""
    monkeypatch.setattr(zones, "pool", lambda: POOL)
    return POOL


class Builder:
    """Builds a `Homm4State` by hand: cards, armies, sites, inventories.

    >>> b = Builder(); golem = b.card("golden_golem", 0)
    """

    def __init__(self, players: int = 2, seed: int = 1) -> None:
        self.state = Homm4State(
            options=Homm4Options(),
            players=players,
            seed=seed,
            rng=Rng(seed=seed),
            card_defs=[],
            card_owner=[],
            players_state=[Player(seat=s) for s in range(players)],
            phase="movement",
        )

    def card(self, card_id: str, owner: int) -> int:
        """Add one instance of ``card_id`` owned by ``owner`` (in no zone yet)."""
        assert card_id in zones.pool().cards, card_id
        self.state.card_defs.append(card_id)
        self.state.card_owner.append(owner)
        return len(self.state.card_defs) - 1

    def cards(self, card_id: str, owner: int, copies: int) -> list[int]:
        """Add ``copies`` instances of ``card_id``."""
        return [self.card(card_id, owner) for _ in range(copies)]

    def hand(self, seat: int, card_id: str, copies: int = 1) -> list[int]:
        """Add cards to ``seat``'s Hand."""
        made = self.cards(card_id, seat, copies)
        self.state.players_state[seat].hand.extend(made)
        return made

    def deck(self, seat: int, card_id: str, copies: int = 1) -> list[int]:
        """Add cards to ``seat``'s draw deck."""
        made = self.cards(card_id, seat, copies)
        self.state.players_state[seat].deck.extend(made)
        return made

    def army(self, owner: int, hex: Hex, cards: list[int]) -> Army:
        """Put an Army of ``cards`` (top first) on ``hex``."""
        made = Army(
            id=self.state.next_army_id,
            owner=owner,
            token=self.state.next_army_id,
            hex=hex,
            cards=list(cards),
        )
        self.state.next_army_id += 1
        self.state.armies.append(made)
        return made

    def site(self, kind: str, hex: Hex, **kw: Any) -> Site:
        """Add a Site (``kind`` town / dwelling / object) on ``hex``."""
        made = Site(id=len(self.state.sites), kind=kind, hex=hex, **kw)  # type: ignore[arg-type]
        self.state.sites.append(made)
        return made

    def town(self, owner: int | None, hex: Hex, level: int = 1, **kw: Any) -> Site:
        """Add a captured Asylum Town owned by ``owner`` on ``hex``."""
        town_card = self.card("asylum", owner if owner is not None else 0)
        return self.site("town", hex, card=town_card, owner=owner, level=level, **kw)

    def inventory(self, hero: int) -> Inventory:
        """Return (creating) ``hero``'s inventory."""
        return self.state.inventories.setdefault(hero, Inventory())

    def skill(self, hero: int, card_id: str, *, advanced: bool = False) -> int:
        """Put a Skill card into ``hero``'s inventory (turned over to Advanced if asked)."""
        made = self.card(card_id, self.state.card_owner[hero])
        inv = self.inventory(hero)
        inv.skills.append(made)
        if advanced:
            inv.advanced.append(made)
        return made

    def spell(self, hero: int, card_id: str) -> int:
        """Put a Spell card into ``hero``'s inventory."""
        made = self.card(card_id, self.state.card_owner[hero])
        self.inventory(hero).spells.append(made)
        return made

    def artifact(self, hero: int, card_id: str, slots: list[str]) -> int:
        """Equip an Artifact on ``hero``."""
        made = self.card(card_id, self.state.card_owner[hero])
        self.inventory(hero).artifacts[made] = slots
        return made


def zone_count(state: Homm4State) -> dict[int, int]:
    """Count in how many zones each card instance is (the invariant: exactly one)."""
    counts = dict.fromkeys(range(len(state.card_defs)), 0)

    def seen(cards: list[int]) -> None:
        for c in cards:
            counts[c] += 1

    for p in state.players_state:
        seen(p.deck)
        seen(p.discard)
        seen(p.hand)
        seen(p.risk)
        if p.free_town is not None:
            seen([p.free_town])
    for a in state.armies:
        seen(a.cards)
    for inv in state.inventories.values():
        seen(inv.skills)
        seen(inv.spells)
        seen(list(inv.artifacts))
    for s in state.sites:
        if s.card is not None:
            seen([s.card])
        seen(s.guard)
        seen(s.garrison)
    seen(state.limbo)
    return counts


def set_rolls(state: Homm4State, rolls: list[int]) -> None:
    """Move ``state.rng`` to the first position whose next d10 rolls are ``rolls``.

    The generator is counter-based, so this only chooses where the game's own seeded
    sequence is read from; every roll still comes from ``state.rng.die(10)``.
    """
    start = state.rng.counter
    for counter in range(start, start + 2_000_000):
        probe = Rng(seed=state.rng.seed, counter=counter)
        if all(probe.die(10) == want for want in rolls):
            state.rng.counter = counter
            return
    raise AssertionError(f"no position gives rolls {rolls}")


def begin(
    b: Builder,
    attacker_cards: list[int],
    defender_cards: list[int],
    *,
    kind: str = "army",
    hex: Hex = (0, 0),
    site: Site | None = None,
) -> None:
    """Start a battle on ``hex`` between an Army of seat 0 and an Army of seat 1 (or the
    site's Guard / Town when ``kind`` says so)."""
    from engine.homm4 import battle

    attacker = b.army(0, hex, attacker_cards)
    defenders = [b.army(1, hex, defender_cards).id] if defender_cards else []
    battle.begin_battle(
        b.state,
        hex=hex,
        attacker=0,
        attacker_armies=[attacker.id],
        defender=1,
        defender_kind=kind,  # type: ignore[arg-type]
        defender_armies=defenders,
        site=site.id if site is not None else None,
    )


def deploy(b: Builder, side: int, stacks: list[tuple[list[int], str]]) -> tuple[list[Any], Any]:
    """Deploy ``stacks`` (cards, line) for ``side`` through the public battle API."""
    from engine.homm4 import battle
    from engine.homm4.commands import Deploy, StackOrder

    assert b.state.battle is not None
    seat = battle.side_seat(b.state.battle, side)
    command = Deploy(stacks=tuple(StackOrder(cards=tuple(c), line=line) for c, line in stacks))  # type: ignore[arg-type]
    return battle.apply_battle_command(b.state, seat, command)


def fight(
    b: Builder,
    attacker: list[tuple[list[int], str]],
    defender: list[tuple[list[int], str]],
    **kw: Any,
) -> list[Any]:
    """Begin a battle and deploy both sides; return the deployment events."""
    atk = [c for cards, _ in attacker for c in cards]
    dfn = [c for cards, _ in defender for c in cards]
    begin(b, atk, dfn if kw.get("kind", "army") == "army" else [], **kw)
    events, _ = deploy(b, 0, attacker)
    more, _ = deploy(b, 1, defender)
    return events + more


def cid(b: Builder, card: int) -> int:
    """Return the battle Creature number whose stack holds ``card``."""
    assert b.state.battle is not None
    return next(c.id for c in b.state.battle.creatures if card in c.cards)


def act(b: Builder, command: Any, seat: int | None = None) -> tuple[list[Any], Any]:
    """Apply ``command`` for the seat that must decide now (or ``seat``)."""
    from engine.homm4 import battle

    assert b.state.battle is not None
    if seat is None:
        seat = battle.side_seat(b.state.battle, b.state.battle.to_act)
    return battle.apply_battle_command(b.state, seat, command)


def texts(events: list[Any]) -> list[str]:
    """The public lines of ``events`` other than die rolls."""
    return [e.text for e in events if e.kind != "die_roll"]
