"""Hand-built homm4 views for the rendering tests (and the README pictures' dry runs).

Views are built directly from the view models, the shipped card pool and the shipped Terrain
Map Sections, so rendering is tested independently of the rules engine.
"""

from __future__ import annotations

from engine.core.model import Decision, Result
from engine.homm4.cards import CardPool, HeroCard, TownCard, UnitCard, load_card_pool
from engine.homm4.hexes import Labeller, neighbours, section_cells
from engine.homm4.maps import load_maps
from engine.homm4.views import (
    ArmyView,
    AttackView,
    BattleView,
    CardRef,
    CreatureView,
    HexView,
    InventoryView,
    PlayerView,
    PublicView,
    SeatView,
    SiteView,
)

PLACEMENT = (
    ("greenvale", (0, 0), 0),
    ("frostpeak", (1, 0), 2),
    ("ashen_wastes", (0, 1), 1),
    ("crossroads", (-1, 1), 3),
)


def pool() -> CardPool:
    """The shipped card pool."""
    return load_card_pool()


def _ids(kind: type, faction: str | None = None) -> list[str]:
    return [
        c.id
        for c in pool().cards.values()
        if isinstance(c, kind) and (faction is None or getattr(c, "faction", None) == faction)
    ]


class Numbers:
    """Hands out card instance numbers in order, so every CardRef is distinct."""

    def __init__(self, start: int = 1) -> None:
        self.next = start

    def ref(self, card: str) -> CardRef:
        """A new instance of ``card``."""
        made = CardRef(id=self.next, card=card)
        self.next += 1
        return made


def board_hexes() -> tuple[
    list[HexView], dict[tuple[int, int], str], list[tuple[str, tuple[int, int]]]
]:
    """The four placed sections: hex views, board hex -> terrain, and (kind, hex) icons."""
    maps = load_maps()
    terrain: dict[tuple[int, int], str] = {}
    section_of: dict[tuple[int, int], int] = {}
    icons: list[tuple[str, tuple[int, int]]] = []
    for index, (name, slot, rotation) in enumerate(PLACEMENT):
        section = maps.sections[name]
        local = section.terrain()
        where = dict(section_cells(slot, rotation))
        for loc, board in where.items():
            terrain[board] = local[loc]
            section_of[board] = index
        icons += [(icon.kind, where[icon.at]) for icon in section.sites]
    labeller = Labeller(terrain)
    views = [
        HexView(
            q=h[0],
            r=h[1],
            label=labeller.label(h),
            terrain=code,
            section=section_of[h],
            edge=any(n not in terrain for n in neighbours(h)),
        )
        for h, code in sorted(terrain.items(), key=lambda item: (item[0][1], item[0][0]))
    ]
    return views, terrain, icons


def public_view(*, with_battle: bool = False, hand_ids: tuple[int, ...] = ()) -> PublicView:
    """A mid-game three-player board: every site state, five Armies, a last move."""
    hexes, terrain, icons = board_hexes()
    labels = {(h.q, h.r): h.label for h in hexes}
    n = Numbers(100)
    towns = _ids(TownCard)
    units = _ids(UnitCard)
    heroes = _ids(HeroCard)
    objects = [c.id for c in pool().cards.values() if c.type == "object"]
    sites: list[SiteView] = []
    cycles = {
        "town": ("owned", "guarded", "owned", "unidentified", "identified"),
        "dwelling": ("unidentified", "owned", "guarded", "identified"),
        "object": ("guarded", "unidentified", "owned", "spent", "identified"),
    }
    seen = {"town": 0, "dwelling": 0, "object": 0}
    owners = 0
    for i, (kind, h) in enumerate(icons):
        status = cycles[kind][seen[kind] % len(cycles[kind])]
        seen[kind] += 1
        card = None
        if status != "unidentified" and status != "spent":
            pick = {"town": towns, "dwelling": units, "object": objects}[kind]
            card = n.ref(pick[i % len(pick)])
        owner = None
        if status == "owned":
            owner, owners = owners % 3, owners + 1
        guard = (
            (n.ref(units[i % len(units)]), n.ref(units[i % len(units)]))
            if status == "guarded"
            else ()
        )
        sites.append(
            SiteView(
                id=i + 1,
                kind=kind,  # type: ignore[arg-type]
                q=h[0],
                r=h[1],
                label=labels[h],
                status=status,  # type: ignore[arg-type]
                card=card,
                owner=owner,
                level=(1 + i % 4) if kind == "town" else None,
                guard=guard,
                guard_player=1 if guard else None,
            )
        )
    passable = [
        h
        for h, code in sorted(terrain.items(), key=lambda t: (t[0][1], t[0][0]))
        if load_maps().terrain[code].passable
    ]
    town_hex = next((s.q, s.r) for s in sites if s.kind == "town" and s.status == "owned")
    spots = [passable[10], town_hex, passable[60], passable[60], passable[95], passable[130]]
    armies = []
    for i, h in enumerate(spots):
        owner = (0, 0, 1, 2, 1, 2)[i]
        hero = n.ref(heroes[i % len(heroes)])
        cards = (hero, *(n.ref(units[(i * 3 + k) % len(units)]) for k in range(2 + i % 3)))
        armies.append(
            ArmyView(
                id=i + 1,
                owner=owner,
                token=i + 1,
                q=h[0],
                r=h[1],
                label=labels[h],
                cards=cards,
                movement=5,
                mp_left=2.5 if i == 0 else 5,
                done=False,
                heroes=(InventoryView(hero=hero, level=2, mana=20, mana_spent=4),),
            )
        )
    path_end = spots[0]
    path = [path_end]
    for _ in range(4):
        step = next(
            nb
            for nb in neighbours(path[-1])
            if nb in terrain and nb not in path and load_maps().terrain[terrain[nb]].passable
        )
        path.append(step)
    last_move = tuple(labels[h] for h in reversed(path))
    players = tuple(
        PlayerView(
            seat=s,
            name=("Red", "Blue", "Green")[s],
            hand_size=3 + s,
            risk_size=6 - s,
            deck_size=30,
            discard=(n.ref(units[s]),),
            free_town=None,
            towns=1,
            armies=sum(1 for a in armies if a.owner == s),
            eliminated=False,
        )
        for s in range(3)
    )
    battle = battle_view(armies, n, labels[spots[2]]) if with_battle else None
    return PublicView(
        version=57,
        players=players,
        phase="movement",
        active=0,
        turn=9,
        round=4,
        hexes=tuple(hexes),
        sites=tuple(sites),
        armies=tuple(armies),
        last_move=last_move,
        last_move_owner=0,
        battle=battle,
        pending=(
            Decision(
                seat=0,
                kind="move",
                prompt="Red may move an Army or end the Movement Phase",
                commands=("move", "end_movement"),
            ),
        ),
        result=Result(),
    )


def battle_view(
    armies: list[ArmyView], n: Numbers, label: str, walls: str = "breach"
) -> BattleView:
    """A battle at a Town: Red attacks Blue; every tile marker appears somewhere."""
    chaos = _ids(UnitCard, "chaos")
    order = _ids(UnitCard, "order")
    hero = armies[2].cards[0]
    creatures = [
        CreatureView(
            id=1,
            side=0,
            line="melee",
            cards=(n.ref(chaos[1]), n.ref(chaos[1]), n.ref(chaos[1])),
            hero=False,
            phase=6,
            melee=4,
            ranged=3,
            defense=3,
            acted=True,
            grouped=False,
            defending=False,
            countered=True,
            support=0,
        ),
        CreatureView(
            id=2,
            side=0,
            line="melee",
            cards=(n.ref(chaos[3]),),
            hero=False,
            phase=5,
            melee=6,
            ranged=0,
            defense=6,
            acted=False,
            grouped=True,
            defending=False,
            countered=False,
            support=0,
        ),
        CreatureView(
            id=3,
            side=0,
            line="melee",
            cards=(n.ref(chaos[0]), n.ref(chaos[0])),
            hero=False,
            phase=3,
            melee=2,
            ranged=0,
            defense=3,
            acted=True,
            grouped=False,
            defending=True,
            countered=False,
            support=0,
        ),
        CreatureView(
            id=4,
            side=0,
            line="ranged",
            cards=(n.ref(chaos[2]),),
            hero=False,
            phase=4,
            melee=1,
            ranged=4,
            defense=4,
            acted=False,
            grouped=False,
            defending=False,
            countered=False,
            support=3,
        ),
        CreatureView(
            id=5,
            side=1,
            line="ranged",
            cards=(hero,),
            hero=True,
            phase=5,
            melee=3,
            ranged=2,
            defense=5,
            acted=False,
            grouped=False,
            defending=False,
            countered=False,
            support=0,
        ),
        CreatureView(
            id=6,
            side=1,
            line="ranged",
            cards=(n.ref(order[1]), n.ref(order[1])),
            hero=False,
            phase=4,
            melee=1,
            ranged=3,
            defense=2,
            acted=True,
            grouped=False,
            defending=False,
            countered=False,
            support=0,
        ),
        CreatureView(
            id=7,
            side=1,
            line="melee",
            cards=(n.ref(order[2]), n.ref(order[2]), n.ref(order[2])),
            hero=False,
            phase=7,
            melee=7,
            ranged=0,
            defense=7,
            acted=False,
            grouped=False,
            defending=False,
            countered=False,
            support=0,
        ),
    ]
    return BattleView(
        label=label,
        attacker=0,
        defender=1,
        defender_kind="town",
        town=n.ref("academy"),
        walls=walls,  # type: ignore[arg-type]
        stage="fight",
        round=2,
        phase=5,
        to_act=0,
        creatures=tuple(creatures),
        last_attack=AttackView(
            attacker=1,
            targets=(7,),
            mode="melee",
            attack_value=4,
            roll=7,
            total=11,
            defense=7,
            killed=1,
            walls=False,
        ),
    )


def seat_view(public: PublicView, seat: int = 0, hand: int = 5, risk: int = 7) -> SeatView:
    """``public`` plus a Hand and a Risk Stack for ``seat`` of every card type."""
    every = list(pool().cards)
    step = max(1, len(every) // (hand + risk))
    picks = [every[(i * step + 3) % len(every)] for i in range(hand + risk)]
    n = Numbers(1)
    refs = [n.ref(card) for card in picks]
    return SeatView(
        **public.model_dump(), seat=seat, hand=tuple(refs[:hand]), risk=tuple(refs[hand:])
    )


def advanced_view(public: PublicView) -> PublicView:
    """``public`` with the advanced rules' public state: two entrance pairs (coin 1 found at
    one end), a sold Object, three dead Heroes (one on an empty hex, one on a site's hex,
    one carried by Army 2), teams and every option in the options line."""
    from engine.homm4.options import (
        Homm4Options,
        PreDevelopedOption,
        StartingForcesOption,
    )
    from engine.homm4.views import FallenHeroView

    objects = [s for s in public.sites if s.kind == "object"]
    owned = next(s for s in objects if s.status == "owned")
    ends = [s for s in objects if s is not owned][:4]
    changed = {
        ends[0].id: {"entrance": 1, "entrance_found": True, "status": "identified", "card": None},
        ends[1].id: {"entrance": 1},
        ends[2].id: {"entrance": 2},
        ends[3].id: {"entrance": 2},
        owned.id: {"sold_to": (owned.owner or 0) + 1},
    }
    sites = tuple(
        s.model_copy(update=changed[s.id]) if s.id in changed else s for s in public.sites
    )
    taken = {(s.q, s.r) for s in sites} | {(a.q, a.r) for a in public.armies}
    empty = next(h for h in public.hexes if (h.q, h.r) not in taken)
    heroes = _ids(HeroCard)
    n = Numbers(900)
    fallen = (
        FallenHeroView(hero=n.ref(heroes[0]), seat=1, label=empty.label, army=None, token=1),
        FallenHeroView(hero=n.ref(heroes[1]), seat=2, label=owned.label, army=None, token=2),
        FallenHeroView(
            hero=n.ref(heroes[2]), seat=0, label=public.armies[1].label, army=2, token=0
        ),
    )
    options = Homm4Options(
        morale=True,
        luck=True,
        flying=True,
        native_lands=True,
        distance_penalties=True,
        other_faction_heroes=True,
        resurrection=True,
        potions=True,
        resource_trading=True,
        diplomacy=True,
        teams=((0, 2), (1, 3)),
        starting_forces=StartingForcesOption(units=(6, 4, 2, 1), heroes=2),
        pre_developed=PreDevelopedOption(),
        underground=2,
    )
    return public.model_copy(
        update={
            "sites": sites,
            "fallen": fallen,
            "teams": ((0, 2), (1,)),
            "rules": tuple(options.summary()),
        }
    )
