"""Building the views: what everyone may see of a homm4 game, and what one seat may see.

Rule section: homm4:card-types (face-up and face-down cards). The public view holds only
face-up cards (Army Stacks, Guard Stacks, garrisons, identifying cards, discard piles,
free Town cards, inventories) and the sizes of Hands, Risk Stacks and decks; a seat's view
adds its own Hand and Risk Stack. Event logs are filtered separately (`Event.public`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from engine.core.model import seat_name
from engine.homm4 import adventure, battle, board, decisions, heroes, zones
from engine.homm4 import armies as army_rules
from engine.homm4.state import Army, Homm4State, Site
from engine.homm4.views import (
    ArmyView,
    BattleView,
    CardRef,
    FallenHeroView,
    HexView,
    InventoryView,
    PlayerView,
    PublicView,
    SeatView,
    SiteView,
)


def ref(state: Homm4State, instance: int) -> CardRef:
    """Return the `CardRef` of a face-up card instance.

    Rule: homm4:start-of-the-game.
    """
    return CardRef(id=instance, card=state.card_defs[instance])


def refs(state: Homm4State, instances: Iterable[int]) -> tuple[CardRef, ...]:
    """Return `CardRef`s of face-up card instances, in order.

    Rule: homm4:start-of-the-game.
    """
    return tuple(ref(state, i) for i in instances)


def hex_views(state: Homm4State) -> tuple[HexView, ...]:
    """Every board hex with its label, terrain, section and edge flag, row by row.

    Rule: homm4:terrain-map-sections.
    """
    data = board.map_data()
    key = (
        tuple((p.section, p.slot, p.rotation) for p in state.sections),
        state.label_origin,
        state.phase == "assemble",
    )
    found = _HEXES.get(key)
    if found is not None and found[0] is data:
        return found[1]
    shape = board.board_of(state)
    made = tuple(
        HexView(
            q=h[0],
            r=h[1],
            label=board.label(state, h),
            terrain=shape.terrain[h],
            section=shape.section_of[h],
            edge=h in shape.edge,
        )
        for h in shape.order
    )
    if len(_HEXES) >= _HEXES_KEPT:
        _HEXES.clear()
    _HEXES[key] = (data, made)
    return made


_HEXES_KEPT = 1024
"""Boards whose hex views `hex_views` keeps (a board is fixed once assembled, and the
views are frozen, so every view of a game at any version shares one tuple; building it
again was an eighth of the bot's own CPU with 50 games at once, docs/PERFORMANCE.md)."""

_HEXES: dict[
    tuple[tuple[tuple[str, tuple[int, int], int], ...], tuple[int, int], bool],
    tuple[object, tuple[HexView, ...]],
] = {}


def site_status(site: Site) -> Literal["unidentified", "identified", "guarded", "owned", "spent"]:
    """Return a site's public status (see `SiteView.status`).

    Rule: homm4:movement-phase.scouting-terrain.
    """
    if site.spent:
        return "spent"
    if site.card is None and not site.found:
        return "unidentified"
    if site.guard:
        return "guarded"
    if site.owner is not None:
        return "owned"
    return "identified"


def site_view(state: Homm4State, site: Site) -> SiteView:
    """The public view of one site.

    Rule: homm4:movement-phase.scouting-terrain.
    """
    return SiteView(
        id=site.id,
        kind=site.kind,
        q=site.hex[0],
        r=site.hex[1],
        label=board.label(state, site.hex),
        status=site_status(site),
        card=ref(state, site.card) if site.card is not None else None,
        free_town=site.free_town,
        owner=site.owner,
        level=site.level if site.kind == "town" and site.card is not None else None,
        guard=refs(state, site.guard),
        guard_player=site.guard_player if site.guard else None,
        garrison=refs(state, site.garrison),
        entrance=site.entrance,
        entrance_found=site.found,
        sold_to=site.sold_to,
    )


def inventory_view(state: Homm4State, hero: int) -> InventoryView:
    """The public view of a Hero and the cards under it.

    Rule: homm4:heroes-levels-skills-and-spells.hero-level.
    """
    inv = heroes.inventory(state, hero)
    return InventoryView(
        hero=ref(state, hero),
        level=heroes.hero_level(state, hero),
        mana=heroes.max_mana(state, hero),
        mana_spent=inv.mana_spent,
        skills=refs(state, inv.skills),
        spells=refs(state, inv.spells),
        artifacts=tuple(
            (ref(state, a), tuple(slots)) for a, slots in sorted(inv.artifacts.items())
        ),
    )


def army_view(state: Homm4State, army: Army) -> ArmyView:
    """The public view of an Army token and its face-up Army Stack.

    Rule: homm4:army-and-object-town-tokens.
    """
    return ArmyView(
        id=army.id,
        owner=army.owner,
        token=army.token,
        q=army.hex[0],
        r=army.hex[1],
        label=board.label(state, army.hex),
        cards=refs(state, army.cards),
        movement=army_rules.full_mp2(state, army) // 2,
        mp_left=army.mp2 / 2,
        done=army.done,
        heroes=tuple(inventory_view(state, h) for h in army.cards if zones.is_hero(state, h)),
    )


def player_view(state: Homm4State, seat: int) -> PlayerView:
    """One seat's public summary: counts of hidden zones, the face-up discard pile.

    Rule: homm4:start-of-the-game.
    """
    player = state.players_state[seat]
    return PlayerView(
        seat=seat,
        name=seat_name(seat),
        hand_size=len(player.hand),
        risk_size=len(player.risk),
        deck_size=len(player.deck),
        discard=refs(state, player.discard),
        free_town=ref(state, player.free_town) if player.free_town is not None else None,
        towns=len(zones.towns_of(state, seat)),
        armies=len(zones.armies_of(state, seat)),
        eliminated=player.eliminated,
    )


def battle_view(state: Homm4State) -> BattleView | None:
    """The battle in progress, as the battle module draws it.

    Rule: homm4:battles.tactical-deployment.
    """
    if state.battle is None:
        return None
    return battle.battle_view(state)


def public_view(state: Homm4State) -> PublicView:
    """Everything everyone may see (no Hand, Risk Stack or deck card).

    Rule: homm4:start-of-the-game.
    """
    return PublicView(**_public_fields(state))


def _public_fields(state: Homm4State) -> dict[str, object]:
    last = state.last_move
    assembled = bool(state.sites) or state.phase not in ("assemble",)
    return {
        "version": state.version,
        "players": tuple(player_view(state, s) for s in range(state.players)),
        "phase": state.phase,
        "active": state.active,
        "turn": state.turn,
        "round": state.round,
        "hexes": hex_views(state) if state.sections else (),
        "sites": tuple(site_view(state, s) for s in state.sites) if assembled else (),
        "armies": tuple(army_view(state, a) for a in state.armies),
        "last_move": tuple(board.label(state, h) for h in last.path) if last else (),
        "last_move_owner": last.owner if last else None,
        "battle": battle_view(state),
        "pending": tuple(decisions.pending(state)),
        "result": adventure.game_result(state),
        "rules": tuple(state.options.summary()),
        "teams": state.options.teams,
        "fallen": tuple(
            FallenHeroView(
                hero=ref(state, f.hero),
                seat=f.seat,
                label=board.label(state, f.hex),
                army=f.army,
                token=f.token,
            )
            for f in state.fallen_heroes
        ),
    }


def seat_view(state: Homm4State, seat: int) -> SeatView:
    """The public view plus ``seat``'s own Hand and Risk Stack.

    Rule: homm4:start-of-the-game.
    """
    player = state.players_state[seat]
    return SeatView(
        **_public_fields(state),
        seat=seat,
        hand=refs(state, player.hand),
        risk=refs(state, player.risk),
    )
