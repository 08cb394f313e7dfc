"""Building the homm3 views: the public view from the public parts of the state only, and
a seat's view adding its own hidden cards.

Rule sections: DESIGN "Private information" (hands, decks, looked-at cards and the
Adventure hand reach only their owner); homm3bf:battlefield-combat (the board shown).
"""

from __future__ import annotations

from engine.core.model import SEAT_COLOURS
from engine.homm3 import combat_core as core
from engine.homm3 import combat_flow
from engine.homm3.content import load_content
from engine.homm3.decisions import pending
from engine.homm3.rules import EXPERT_LIMIT, hand_limit
from engine.homm3.state import CombatUnit, Homm3State
from engine.homm3.views import (
    AdventureView,
    ArmyView,
    CardRef,
    ChoiceView,
    CombatView,
    PlacedView,
    PlayerView,
    PublicView,
    SeatView,
    UnitView,
)


def refs(state: Homm3State, cards: list[int]) -> list[CardRef]:
    """Card references (number, id, name) for instances.

    Rule: none (label)"""
    content = load_content()
    return [
        CardRef(number=c, id=state.cards[c], name=content.card_name(state.cards[c])) for c in cards
    ]


def _player(state: Homm3State, seat: int) -> PlayerView:
    content = load_content()
    p = state.player(seat)
    hero = content.heroes[p.hero]
    return PlayerView(
        seat=seat,
        colour=SEAT_COLOURS[seat],
        hero=p.hero,
        hero_name=hero.name,
        hero_type=hero.type,
        faction=p.faction,
        level=p.level,
        experience=p.experience,
        hand_limit=hand_limit(p),
        experts=p.experts,
        expert_limit=EXPERT_LIMIT[p.level],
        hand=len(p.hand),
        deck=len(p.deck),
        discard=refs(state, p.discard),
        removed=len(p.removed),
        aside=len(p.aside),
        scroll=len(p.scroll),
        permanent=refs(state, p.permanent),
        gold=p.resources.gold,
        materials=p.resources.materials,
        valuables=p.resources.valuables,
        income_gold=p.income.gold,
        income_materials=p.income.materials,
        income_valuables=p.income.valuables,
        buildings=list(p.buildings),
        build_token=p.tokens.build,
        population_token=p.tokens.population,
        spellbook_token=p.tokens.spellbook,
        army=[
            ArmyView(
                unit=u.unit,
                name=content.units[u.unit].name,
                tier=content.units[u.unit].tier,
                pack=u.pack,
                paralysed=u.paralysed,
            )
            for u in p.army
        ],
        positive=refs(state, p.positive),
        negative=refs(state, p.negative),
        positive_token=p.positive_token,
        negative_token=p.negative_token,
        adventure_hand=len(p.adventure_hand),
        resolved=refs(state, p.resolved),
    )


def _effects(state: Homm3State, unit: CombatUnit) -> list[str]:
    out = []
    for mod in unit.modifiers:
        out.append(f"{mod.amount:+d} {mod.stat[:3].capitalize()}")
    for flag in unit.flags:
        name, _, value = flag.partition(":")
        out.append(name.replace("_", " ").title() + (f" {value}" if value else ""))
    if unit.extra_retaliation:
        out.append("Counterstrike")
    return out


def _combat(state: Homm3State) -> CombatView | None:
    combat = state.combat
    if combat is None:
        return None
    content = load_content()
    units = []
    for u in combat.units:
        card = content.units.get(u.unit)
        units.append(
            UnitView(
                number=u.number,
                seat=u.seat,
                unit=u.unit,
                name=card.name if card else "Arrow Tower",
                tier=card.tier if card else "gold",
                kind=core.kind(u),
                pack=u.pack,
                hex=u.hex,
                damage=u.damage,
                health=core.health(u),
                attack=core.attack(state, u),
                defense=core.defense(state, u),
                initiative=core.initiative(state, u),
                activated=u.activated,
                retaliated=u.retaliated,
                defending=u.defending,
                paralysed=u.paralysed,
                effects=_effects(state, u),
                alive=u.alive,
            )
        )
    order = sorted(
        combat_flow.candidates(state) if combat.stage == "round" else [],
        key=lambda u: (-core.initiative(state, u), u.seat != combat.token, u.number),
    )
    window = None
    if combat.window is not None:
        # Looked up among every unit, standing or not: a view describes the state and never
        # refuses (the audit is what fails for a window naming a fallen unit).
        numbered = {u.number: u for u in combat.units}
        att = numbered[combat.window.attacker]
        tgt = numbered[combat.window.target]
        window = f"{core.unit_name(att)} {'retaliates against' if combat.window.retaliation else 'attacks'} {core.unit_name(tgt)}"
        if combat.window.stage == "resurrection":
            window += " (a Spell may cancel it)"
    if combat.reaction is not None:
        spell = content.card_name(state.cards[combat.reaction.card])
        window = f"{spell} is cast: the other side may answer it"
    elif combat.opening is not None:
        window = "Start of the Combat: cards played before any unit activates"
    last = None
    if combat.last is not None:
        a = combat.last
        last = (
            f"[{a.attacker}] attacks [{a.target}]: {a.attack - a.die} {a.die:+d} = {a.attack} vs Defense {a.defense}: {a.damage} damage"
            + (f" ({a.note})" if a.note else "")
        )
    return CombatView(
        stage=combat.stage,
        round=combat.round,
        token=combat.token,
        placing=combat.placing,
        zones=dict(combat.zones),
        siege=combat.siege,
        placed=[
            PlacedView(kind=p.kind, name=p.name, hexes=list(p.hexes), damage=p.damage)
            for p in combat.placed
        ],
        pool=list(combat.pool),
        units=units,
        active=combat.active,
        order=[u.number for u in order],
        window=window,
        last_attack=last,
        spells=dict(combat.spells),
    )


def public_view(state: Homm3State) -> PublicView:
    """What everyone may see (built from public parts of the state only).

    Rule: none (bookkeeping: DESIGN private information)"""
    adventure = None
    if state.adventure is not None:
        adventure = AdventureView(
            stage=state.adventure.stage,
            starter=state.adventure.starter,
            active=state.adventure.active,
            deck=len(state.adventure_deck),
            discard=refs(state, state.adventure_discard[:5]),
        )
    return PublicView(
        ruleset=state.ruleset,
        version=state.version,
        mode=state.mode,
        template=state.template,
        phase=state.phase,
        round=state.round,
        rounds=state.rounds,
        turn=state.turn,
        first=state.first,
        players=[_player(state, s) for s in range(state.players)],
        ability_deck=len(state.ability_deck),
        artifact_deck=len(state.artifact_deck),
        spell_deck=len(state.spell_deck),
        ability_discard=refs(state, state.ability_discard[:3]),
        artifact_discard=refs(state, state.artifact_discard[:3]),
        spell_discard=refs(state, state.spell_discard[:3]),
        positive_deck=len(state.positive_deck),
        negative_deck=len(state.negative_deck),
        adventure=adventure,
        combat=_combat(state),
        prompts=[d.prompt for d in pending(state)],
        winners=list(state.winners),
        reason=state.reason,
    )


def seat_view(state: Homm3State, seat: int) -> SeatView:
    """The public view plus ``seat``'s own hand, set-aside cards, Scroll, Adventure hand,
    looked-at cards and open choice.
    Rule: none (bookkeeping: DESIGN private information)"""
    player = state.player(seat)
    choice = state.choice.get(seat)
    return SeatView(
        **public_view(state).model_dump(),
        seat=seat,
        hand=refs(state, player.hand),
        aside_cards=refs(state, player.aside),
        scroll_cards=refs(state, player.scroll),
        adventure_cards=refs(state, player.adventure_hand),
        looking=refs(state, state.looking.get(seat, [])),
        choice=ChoiceView(kind=choice.kind, prompt=choice.prompt, options=list(choice.options))
        if choice
        else None,
    )
