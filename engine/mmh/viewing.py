"""Building the views of an mmh game (see `engine.mmh.views` for what is public).

Rule sections: mmh:other-game-rules.using-card-effects (face-down scrolls),
mmh:game-setup.preparing-card-decks.
"""

from __future__ import annotations

from engine.core.model import Result
from engine.mmh import battle as fight
from engine.mmh import board as geometry
from engine.mmh import decisions, heroes
from engine.mmh.common import content, week_event
from engine.mmh.gains import level_up_cost, trophy_xp
from engine.mmh.score import THRESHOLDS, vp
from engine.mmh.state import DragonVein, Hero, KeepCard, MmhState
from engine.mmh.views import (
    ActionCardView,
    ActionView,
    ActivationView,
    BattleView,
    EncounterView,
    HeroView,
    PromptView,
    PublicView,
    SeatPublic,
    SeatView,
    SpaceView,
    TrackUnitView,
    UnitView,
)


def encounter_view(marker: int) -> EncounterView:
    """The face of encounter marker ``marker``.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    e = content().encounter(marker)
    return EncounterView(
        id=e.id,
        name=e.name,
        colour=e.colour,
        might=e.might,
        threat=e.threat,
        initiative=e.initiative,
        xp=e.xp,
        chests=e.chests,
        abilities=tuple(e.abilities),
        resilience=e.resilience,
        elite=e.elite,
    )


def _spaces(state: MmhState) -> tuple[SpaceView, ...]:
    if not state.tiles:
        return ()
    board = geometry.board_of(state)
    capitals = {s.capital: s.seat for s in state.seats if s.capital is not None}
    found = []
    for sp in board.spaces:
        if sp is None:
            continue
        marker = state.encounters.get(sp.index)
        found.append(
            SpaceView(
                index=sp.index,
                label=sp.label,
                x=sp.x,
                y=sp.y,
                tile=sp.tile,
                red=sp.red,
                terrain=sp.terrain,
                location=sp.location,
                symbol=sp.encounter,
                guards=geometry.space_label(state, sp.guards) if sp.guards is not None else None,
                encounter=encounter_view(marker) if marker is not None else None,
                control=state.control.get(sp.index),
                exploration_marker=sp.index in state.exploration_markers,
                capital=capitals.get(sp.index),
            )
        )
    return tuple(found)


def hero_view(state: MmhState, hero: Hero) -> HeroView:
    """The public hero sheet of ``hero``.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    c = content()
    sheet = c.hero(hero.id)
    army = tuple(
        UnitView(
            creature=u.creature,
            name=(c.creature(u.creature).elite if u.elite else c.creature(u.creature).basic).name,
            elite=u.elite,
            might=(c.creature(u.creature).elite if u.elite else c.creature(u.creature).basic).might,
            level=c.creature(u.creature).level,
        )
        for u in sorted(hero.army, key=lambda u: (-c.creature(u.creature).level, not u.elite))
    )
    return HeroView(
        id=hero.id,
        name=sheet.name,
        owner=hero.owner,
        faction=sheet.faction,
        space=geometry.space_label(state, hero.space) if hero.space is not None else None,
        might=heroes.might(state, hero),
        magic=heroes.magic(state, hero),
        initiative=heroes.initiative(state, hero),
        leadership=heroes.leadership(state, hero),
        overwhelm=heroes.overwhelm(state, hero),
        ability=sheet.ability,
        master=sheet.master,
        leader=sheet.leader,
        schools=sheet.schools,
        army=army,
        skills=tuple(hero.skills),
        artefacts=tuple(hero.artefacts),
        scrolls=len(hero.scrolls),
        trophies=tuple(hero.trophies),
        xp=trophy_xp(hero.trophies),
        luck=hero.luck,
        next_level_cost=level_up_cost(hero),
    )


def _seat_public(state: MmhState, seat: int) -> SeatPublic:
    s = state.seats[seat]
    return SeatPublic(
        seat=seat,
        faction=s.faction,
        capital=geometry.space_label(state, s.capital) if s.capital is not None else None,
        level=s.level,
        buildings=tuple(s.buildings),
        gold=s.gold,
        resources=s.resources,
        vp=vp(state, seat) if state.tiles else 0,
        cards=tuple(
            ActionCardView(number=c.number, actions=c.actions, used=c.used) for c in s.cards
        ),
        reserve=dict(s.reserve),
        heroes=tuple(s.heroes),
        unused_heroes=tuple(s.unused_heroes),
        might_deck=len(s.might_deck),
        magic_deck=len(s.magic_deck),
        might_discard=len(s.might_discard),
        magic_discard=len(s.magic_discard),
        temple_artefact=s.temple_artefact,
    )


def _battle_view(state: MmhState) -> BattleView | None:
    b = state.battle
    if b is None:
        return None
    c = content()
    units = []
    for u in b.units:
        elite = basic = dice = mighty = 0
        if u.kind == "stack":
            army = state.heroes[u.hero or ""].army
            members = [army[i] for i in fight.stack_units(state, u)]
            elite = sum(1 for m in members if m.elite)
            basic = len(members) - elite
        alive = fight.alive(state, u)
        if alive:
            mights = fight._dice_mights(state, u, None)
            dice = min(len(mights), fight.MAX_DICE)
            mighty = max(mights) if mights else 0
        if u.kind == "encounter" and u.marker is not None:
            mighty = c.encounter(u.marker).might + week_event(state).encounter_might
        units.append(
            TrackUnitView(
                id=u.id,
                side=u.side,
                kind=u.kind,
                name=fight.unit_name(state, u).split("] ", 1)[1],
                initiative=fight.unit_initiative(state, u),
                alive=alive,
                elite=elite,
                basic=basic,
                damage=u.damage,
                dice=dice,
                might=mighty,
            )
        )
    current = b.order[b.pos] if b.step == "turn" and b.pos < len(b.order) else None
    return BattleView(
        kind=b.kind,
        space=geometry.space_label(state, b.space),
        exchange=b.exchange,
        step=b.step,
        window=b.window,
        attacker=b.attacker,
        defender=b.defender,
        controller=b.controller,
        units=tuple(units),
        order=tuple(b.order),
        current=current,
        honor=b.honor,
        damage=b.damage + b.elite_damage,
        last_dice=tuple(b.last.dice) if b.last else (),
        last_elite=b.last.elite if b.last else None,
        last_unit=b.last.unit if b.last else None,
        last_damage=b.last.damage if b.last else 0,
    )


def _action_view(state: MmhState) -> ActionView | None:
    a = state.action
    if a is None:
        return None
    act = a.activation
    return ActionView(
        kind=a.kind,
        card=a.card,
        recruited=a.recruited,
        activation=ActivationView(hero=act.hero, mp=act.mp, battles=act.battles) if act else None,
        activated=tuple(a.activated),
    )


def _prompt_views(state: MmhState) -> tuple[PromptView, ...]:
    found = []
    for p in state.queue:
        card = getattr(p, "card", None) if p.kind == "treasure" else None
        found.append(PromptView(seat=p.seat, kind=p.kind, hero=p.hero, card=card))
    return tuple(found)


def _result(state: MmhState) -> Result:
    if state.phase != "over":
        return Result()
    return Result(finished=True, winners=tuple(state.winners), reason=state.end_reason)


def public_view(state: MmhState) -> PublicView:
    """What everyone may see (no held scroll, no card drawn for a choice, no deck order).

    Rule: mmh:other-game-rules.using-card-effects.
    """
    week = state.week
    return PublicView(
        version=state.version,
        phase=state.phase,
        round=state.round,
        turn=state.turn,
        players=state.players,
        width=state.width,
        height=state.height,
        week=week,
        weeks_left=len(state.week_stack),
        dark_times=week_event(state).dark_times,
        start_player=state.start_player,
        active=state.active,
        spaces=_spaces(state),
        seats=tuple(_seat_public(state, s.seat) for s in state.seats),
        heroes=tuple(hero_view(state, state.heroes[h]) for s in state.seats for h in s.heroes),
        scroll_deck=len(state.scroll_deck),
        artefact_deck=len(state.artefact_deck),
        treasure_deck=len(state.treasure_deck),
        scroll_discard=len(state.scroll_discard),
        artefact_discard=len(state.artefact_discard),
        treasure_discard=len(state.treasure_discard),
        luck_supply=state.luck_supply,
        action=_action_view(state),
        battle=_battle_view(state),
        queue=_prompt_views(state),
        last_path=tuple(geometry.space_label(state, s) for s in state.last_path)
        if state.tiles
        else (),
        pending=tuple(decisions.pending(state)),
        result=_result(state),
        threshold=THRESHOLDS[state.players],
    )


def seat_view(state: MmhState, seat: int) -> SeatView:
    """The public view plus the seat's own scrolls, the cards drawn for its pending choice,
    and the discard piles while it searches a Dragon Vein.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    base = public_view(state)
    scrolls = {h: tuple(state.heroes[h].scrolls) for h in state.seats[seat].heroes}
    choice: tuple[str, ...] = ()
    discards: dict[str, tuple[str, ...]] = {}
    if state.queue and state.queue[0].seat == seat:
        head = state.queue[0]
        if isinstance(head, KeepCard):
            choice = tuple(head.cards)
        if isinstance(head, DragonVein):
            discards = {
                "treasure": tuple(state.treasure_discard),
                "scroll": tuple(state.scroll_discard),
                "artefact": tuple(state.artefact_discard),
            }
    return SeatView(
        **base.model_dump(), seat=seat, scrolls=scrolls, choice=choice, discards=discards
    )
