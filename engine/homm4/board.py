"""The assembled Game Board: terrain per hex, edges, labels, sites, and board assembly.

Rule sections: homm4:terrain-map-sections, homm4:start-of-the-game,
homm4:movement-phase.movement-points-and-terrain.

The state stores only the placed sections (`Homm4State.sections`); everything else about
the board (which terrain each hex has, which hexes are edges) is derived from them and
cached per process, so states stay small and cheap to copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.core.rng import Rng
from engine.homm4 import maps as maps_module
from engine.homm4.hexes import (
    Hex,
    Labeller,
    column_name,
    distance,
    free_slots,
    neighbours,
    section_cells,
    to_offset,
)
from engine.homm4.maps import MapData, Terrain
from engine.homm4.state import Homm4State, PlacedSection, Site


def map_data() -> MapData:
    """Return the Terrain Map legend and sections in use (the shipped data, cached).

    Tests replace this function to play on small hand-made maps.

    Rule: homm4:terrain-map-sections.
    """
    return maps_module.load_maps()


@dataclass(frozen=True)
class Board:
    """The derived geometry of one assembled (or partly assembled) board.

    Attributes:
        terrain: board hex -> terrain code.
        section_of: board hex -> index into `Homm4State.sections`.
        edge: hexes with at least one neighbour off the board.
        order: every hex, sorted row by row (r, then q): the canonical iteration order.
        icons: ``(hex, kind)`` of every printed Town / Dwelling / Object icon, in
            section order then the section's own icon order.
        cost2: board hex -> the cost of entering it in half Movement Points (None:
            impassable).
        underground: the hexes of underground sections (a separate map:
            homm4:terrain-map-sections-with-underground).
    """

    terrain: dict[Hex, str]
    section_of: dict[Hex, int]
    edge: frozenset[Hex]
    order: tuple[Hex, ...]
    icons: tuple[tuple[Hex, Literal["town", "dwelling", "object"]], ...]
    cost2: dict[Hex, int | None]
    underground: frozenset[Hex] = frozenset()


_CACHE: dict[tuple[int, tuple[tuple[str, Hex, int], ...]], tuple[MapData, Board]] = {}


def _key(sections: Iterable[PlacedSection]) -> tuple[tuple[str, Hex, int], ...]:
    return tuple((p.section, (p.slot[0], p.slot[1]), p.rotation) for p in sections)


def build_board(data: MapData, sections: Iterable[PlacedSection]) -> Board:
    """Compute the `Board` made of ``sections`` laid out with ``data``'s sections.

    :raises InvalidInput: if a section id is unknown or two sections overlap.
    Rule: homm4:terrain-map-sections.
    """
    key = (id(data), _key(sections))
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is data:
        return cached[1]
    terrain: dict[Hex, str] = {}
    section_of: dict[Hex, int] = {}
    icons: list[tuple[Hex, Literal["town", "dwelling", "object"]]] = []
    below: set[Hex] = set()
    for index, (section_id, slot, rotation) in enumerate(key[1]):
        section = data.sections.get(section_id)
        if section is None:
            raise InvalidInput(f"There is no Terrain Map Section {section_id!r}.")
        local_terrain = section.terrain()
        local_to_board = dict(section_cells(slot, rotation))
        for local, board_hex in local_to_board.items():
            if board_hex in terrain:
                raise InvalidInput(f"Section {section_id!r} would overlap another section.")
            terrain[board_hex] = local_terrain[local]
            section_of[board_hex] = index
            if section.underground:
                below.add(board_hex)
        for icon in section.sites:
            icons.append((local_to_board[(icon.at[0], icon.at[1])], icon.kind))
    edge = frozenset(h for h in terrain if any(n not in terrain for n in neighbours(h)))
    order = tuple(sorted(terrain, key=lambda h: (h[1], h[0])))
    cost2: dict[Hex, int | None] = {
        h: (2 * data.terrain[code].cost if data.terrain[code].passable else None)
        for h, code in terrain.items()
    }
    board = Board(terrain, section_of, edge, order, tuple(icons), cost2, frozenset(below))
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[key] = (data, board)
    return board


def board_of(state: Homm4State) -> Board:
    """Return the `Board` of ``state`` (cached by its placed sections).

    Rule: homm4:terrain-map-sections.
    """
    data = map_data()
    last = _LAST.get("board")
    if last is not None and last[0] is data and last[1] == state.sections:
        return last[2]
    built = build_board(data, state.sections)
    _LAST["board"] = (data, list(state.sections), built)
    return built


_LAST: dict[str, tuple[MapData, list[PlacedSection], Board]] = {}


def terrain_at(state: Homm4State, where: Hex) -> Terrain | None:
    """Return the legend entry of the hex ``where``, or None when it is off the board.

    Rule: homm4:movement-phase.movement-points-and-terrain.
    """
    code = board_of(state).terrain.get(where)
    return None if code is None else map_data().terrain[code]


def step_cost2(state: Homm4State, where: Hex) -> int | None:
    """Return the cost of entering ``where`` in half Movement Points, or None if it is
    impassable or off the board (homm4:movement-phase.movement-points-and-terrain)."""
    return board_of(state).cost2.get(where)


# ----------------------------------------------------------------------- labels
def label(state: Homm4State, where: Hex) -> str:
    """Return the label of ``where`` (``"C4"``) with the labels fixed at assembly.

    Rule: homm4:terrain-map-sections.
    """
    col, row = to_offset(where)
    origin = state.label_origin
    if state.phase == "assemble" and state.sections:
        origin = Labeller(board_of(state).order).origin
    return f"{column_name(col - origin[0])}{row - origin[1] + 1}"


def parse_hex(state: Homm4State, text: str) -> Hex:
    """Return the board hex named ``text``.

    :raises InvalidInput: when ``text`` is not a hex label or names a hex off the board.
    Rule: homm4:terrain-map-sections.
    """
    labeller = Labeller([(0, 0)])
    labeller.origin = state.label_origin
    try:
        where = labeller.parse(text)
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    if where not in board_of(state).terrain:
        raise InvalidInput(f"{text.strip().upper()} is not on the Game Board.")
    return where


# --------------------------------------------------------------------- assembly
def fix_labels_and_sites(state: Homm4State) -> list[Event]:
    """Finish assembly: fix the labels (homm4:start-of-the-game) and create the sites.

    Sites are numbered from 0 in icon order. :returns: one ``board_ready`` event.
    """
    board = board_of(state)
    state.label_origin = Labeller(board.order).origin
    state.sites = [Site(id=i, kind=kind, hex=h) for i, (h, kind) in enumerate(board.icons)]
    return [
        Event(
            kind="board_ready",
            text=(
                f"The Game Board is assembled: {len(state.sections)} Terrain Map Sections, "
                f"{len(board.order)} hexes, {len(state.sites)} icons."
            ),
            data={"sections": len(state.sections), "hexes": len(board.order)},
        )
    ]


def is_underground(section_id: str) -> bool:
    """Whether the section ``section_id`` is an underground one.

    Rule: homm4:terrain-map-sections-with-underground.
    """
    return map_data().sections[section_id].underground


def section_slots(state: Homm4State, underground: bool) -> list[Hex]:
    """Return the macro slots where a section of one map (surface or underground) may be
    attached now (homm4:start-of-the-game, homm4:terrain-map-sections-with-underground).

    A map's first section goes at (0, 0), or, when the other map is already laid, two
    slots beyond it (below it for the underground, above it for the surface), so the two
    maps never touch; a later one touches a section of its own map and never touches the
    other map.
    """
    mine = [p.slot for p in state.sections if is_underground(p.section) == underground]
    other = [p.slot for p in state.sections if is_underground(p.section) != underground]
    if not mine:
        if not other:
            return [(0, 0)]
        rows = [slot[1] for slot in other]
        return [(0, max(rows) + 2)] if underground else [(0, min(rows) - 2)]
    taken = set(mine) | set(other)
    return [
        slot
        for slot in free_slots(mine)
        if slot not in taken and all(distance(slot, o) >= 2 for o in other)
    ]


ENTRANCE_PAIRS = 2
"""Two coins link the maps: each marks one Object icon underground and one on the surface
(homm4:terrain-map-sections-with-underground)."""


def entrance_sites(state: Homm4State) -> tuple[list[Site], list[Site]]:
    """Return the ``(surface, underground)`` Object icons that carry no coin yet, in site
    order: where the next entrance pair may go (homm4:terrain-map-sections-with-underground)."""
    shape = board_of(state)
    free = [s for s in state.sites if s.kind == "object" and s.entrance is None]
    return (
        [s for s in free if s.hex not in shape.underground],
        [s for s in free if s.hex in shape.underground],
    )


def entrance_pairs(state: Homm4State) -> int:
    """Return how many entrance pairs the board gets: `ENTRANCE_PAIRS`, fewer when a map
    has fewer Object icons; 0 without underground sections
    (homm4:terrain-map-sections-with-underground)."""
    shape = board_of(state)
    if not shape.underground:
        return 0
    objects = [s for s in state.sites if s.kind == "object"]
    below = sum(1 for s in objects if s.hex in shape.underground)
    return min(ENTRANCE_PAIRS, below, len(objects) - below)


def coins_placed(state: Homm4State) -> int:
    """Return how many entrance coins (pairs) are on the board
    (homm4:terrain-map-sections-with-underground)."""
    return len({s.entrance for s in state.sites if s.entrance is not None})


def draw_entrance(state: Homm4State, rng: Rng) -> tuple[Site, Site]:
    """Draw the next entrance pair at random with ``rng``: an underground Object icon, then
    a surface one, each uniformly among those without a coin. Returns ``(surface,
    underground)``. With a copy of ``state.rng`` this is the documented default of
    ``place_entrance`` (the state's generator is not advanced;
    homm4:terrain-map-sections-with-underground).

    :raises ValueError: when either map has no free Object icon left.
    """
    above, below = entrance_sites(state)
    down = below[rng.below(len(below))]
    up = above[rng.below(len(above))]
    return up, down


def _coin_line(state: Homm4State, coin: int) -> str:
    up = next(
        s for s in state.sites if s.entrance == coin and s.hex not in board_of(state).underground
    )
    down = next(
        s for s in state.sites if s.entrance == coin and s.hex in board_of(state).underground
    )
    return f"coin {coin}: {label(state, up.hex)} <-> {label(state, down.hex)}"


def place_entrances(state: Homm4State) -> list[Event]:
    """Quick set-up: mark every entrance pair drawn at random (``state.rng``) in the
    players' stead (`draw_entrance`). Such an icon is never identified; it is found when an
    Army sights it, and a Guard is chipped in for it
    (homm4:terrain-map-sections-with-underground).

    :returns: one ``entrances`` event naming the linked hexes (nothing without underground).
    """
    pairs = entrance_pairs(state)
    if not pairs:
        return []
    lines: list[str] = []
    for coin in range(1, pairs + 1):
        up, down = draw_entrance(state, state.rng)
        down.entrance = coin
        up.entrance = coin
        lines.append(_coin_line(state, coin))
    return [
        Event(
            kind="entrances",
            text="The entrances to the underground are marked: " + "; ".join(lines) + ".",
            data={
                "pairs": [
                    [label(state, s.hex) for s in state.sites if s.entrance == coin]
                    for coin in range(1, pairs + 1)
                ]
            },
        )
    ]


def place_entrance(state: Homm4State, seat: int, surface: str, underground: str) -> list[Event]:
    """``seat`` puts the next coin on the surface Object icon at ``surface`` and its pair on
    the underground Object icon at ``underground`` (homm4:terrain-map-sections-with-underground:
    "following the order of turns, place a coin on ... Object Tokens").

    :raises InvalidInput: for a label that is not on the board.
    :raises IllegalMove: for a hex without a free Object icon of that map (the message lists
        the free ones).
    """
    above, below = entrance_sites(state)
    up_hex = parse_hex(state, surface)
    down_hex = parse_hex(state, underground)
    for where, free, what in ((up_hex, above, "surface"), (down_hex, below, "underground")):
        if not any(s.hex == where for s in free):
            shown = ", ".join(label(state, s.hex) for s in free)
            raise IllegalMove(
                f"{label(state, where)} holds no {what} Object icon without a coin. "
                f"Free {what} Object icons: {shown or 'none'}."
            )
    coin = coins_placed(state) + 1
    up = next(s for s in above if s.hex == up_hex)
    down = next(s for s in below if s.hex == down_hex)
    up.entrance = coin
    down.entrance = coin
    return [
        Event(
            kind="place_entrance",
            text=f"{seat_name(seat)} places entrance coin {coin} on {label(state, up_hex)} (surface) "
            f"and its pair on {label(state, down_hex)} (underground).",
            data={
                "seat": seat,
                "coin": coin,
                "surface": label(state, up_hex),
                "underground": label(state, down_hex),
            },
        )
    ]


def legal_placements(state: Homm4State) -> list[tuple[Hex, int]]:
    """Return every ``(slot, rotation)`` where the revealed section may be attached (its
    own map: surface or underground).
    Rule: homm4:start-of-the-game.
    """
    if not state.section_pile:
        return []
    slots = section_slots(state, is_underground(state.section_pile[0]))
    return [(slot, rotation) for slot in slots for rotation in range(6)]


def place_section(state: Homm4State, seat: int, slot: Hex, rotation: int) -> list[Event]:
    """Attach the top section of the pile at ``slot`` turned ``rotation`` (manual assembly).

    :raises IllegalMove: if ``slot`` does not touch the board (names the free slots).
    Rule: homm4:start-of-the-game.
    """
    slots = section_slots(state, is_underground(state.section_pile[0]))
    if slot not in slots:
        shown = ", ".join(f"{s[0]},{s[1]}" for s in slots[:12])
        raise IllegalMove(
            f"Slot {slot[0]},{slot[1]} is not free next to the board. Free slots: {shown}."
        )
    section_id = state.section_pile.pop(0)
    state.sections.append(PlacedSection(section=section_id, slot=slot, rotation=rotation))
    name = map_data().sections[section_id].name
    return [
        Event(
            kind="place_section",
            text=f"{seat_name(seat)} reveals {name} and attaches it (slot {slot[0]},{slot[1]}, turned {rotation}).",
            data={"seat": seat, "section": section_id, "slot": list(slot), "rotation": rotation},
        )
    ]


def quick_assembly(state: Homm4State) -> list[Event]:
    """Attach every section of the pile at a random free slot and rotation (``state.rng``).

    Used for ``assembly = "quick"`` (homm4:start-of-the-game: any legal joining). Each
    section joins its own map (`section_slots`).
    """
    events: list[Event] = []
    while state.section_pile:
        slots = section_slots(state, is_underground(state.section_pile[0]))
        slot = slots[state.rng.below(len(slots))]
        rotation = state.rng.below(6)
        section_id = state.section_pile.pop(0)
        state.sections.append(PlacedSection(section=section_id, slot=slot, rotation=rotation))
    events.append(
        Event(
            kind="quick_assembly",
            text="The Terrain Map Sections are shuffled and joined at random.",
            data={"sections": [p.section for p in state.sections]},
        )
    )
    return events


def is_edge(state: Homm4State, where: Hex) -> bool:
    """Whether ``where`` is on the edge of the board (a neighbour is off the board).

    Rule: homm4:start-of-the-game.
    """
    return where in board_of(state).edge
