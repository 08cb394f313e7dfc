"""Setting up an mmh game: player areas, the board of map tiles, encounter markers,
capitals, card decks, week cards, the start player and the starting heroes.

Rule sections: mmh:game-setup and every sub-section, mmh:course-of-play.choosing-the-start-player.

Order: the player areas, decks and week stack are prepared at once (``new_game``); with
``assembly = "quick"`` the map tiles are laid at random (legally), otherwise the players
take turns placing the shuffled tiles (``place_tile``). Then encounter markers are placed,
the power markers are drawn for the capital order (``place_capital``), and finally every
player picks a starting hero (``choose_hero``, all at once) and round 1 begins.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event
from engine.core.rng import Rng
from engine.mmh import board as geometry
from engine.mmh.common import content, ev, hero_name, roll, who
from engine.mmh.content import Faction
from engine.mmh.gains import queue_skill_draw
from engine.mmh.options import MmhOptions
from engine.mmh.rounds import begin_round
from engine.mmh.state import ActionCard, Hero, MmhState, PlacedTile, Seat, Unit

MIN_PLAYERS = 2
MAX_PLAYERS = 4
ACTION_CARDS: dict[int, tuple[str, str]] = {
    1: ("hero", "build"),
    2: ("hero", "gather"),
    3: ("hero", "recruit"),
    4: ("build", "gather"),
}
"""The four action cards of a player: three with boots on the back (Activate Hero and one
other action), and the Marketplace's fourth card BUILD - GATHER RESOURCES (scale)."""
ACTION_NAMES: dict[str, str] = {
    "hero": "Activate Hero",
    "build": "Build",
    "gather": "Gather Resources",
    "recruit": "Recruit",
    "pass": "pass",
}
WEEKS_PER_MOON: dict[str, int] = {"quick": 3, "standard": 4, "epic": 5}
STARTING_GOLD = 7
STARTING_RESOURCES = 5


def new_game(options: MmhOptions, players: int, seed: int) -> tuple[MmhState, list[Event]]:
    """Create a game (version 0).

    :raises InvalidInput: for a player count outside 2-4 or a bad faction list.

    Rule: mmh:game-setup.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidInput(f"Might & Magic Heroes is played by 2-4 players, not {players}.")
    rng = Rng(seed=seed)
    events: list[Event] = []
    factions = _factions(options, players, rng, events)
    cols, rows = geometry.GRIDS[players]
    state = MmhState(
        players=players,
        seed=seed,
        rng=rng,
        options=options,
        width=cols * 4,
        height=rows * 4,
        luck_supply=13,
        element_supply=[e.id for e in content().elements],
        encounter_box=[e.id for e in content().encounters],
    )
    for seat, faction in enumerate(factions):
        state.seats.append(_player_area(state, seat, faction, events))
    _prepare_decks(state, events)
    stack = geometry.tiles_for(players)
    state.rng.shuffle(stack)
    events.append(ev("shuffle", f"The {len(stack)} map tiles are shuffled.", deck="tiles"))
    state.tile_stack = stack
    if options.assembly == "quick":
        _quick_board(state, events)
    else:
        state.phase = "tiles"
        events.append(
            ev("setup", f"{who(0)} places the first map tile (tile {stack[0]}).", tile=stack[0])
        )
    return state, events


def _factions(options: MmhOptions, players: int, rng: Rng, events: list[Event]) -> list[str]:
    if options.factions:
        chosen = [str(f) for f in options.factions]
        if len(chosen) != players or len(set(chosen)) != players:
            raise InvalidInput(
                f"Give {players} different factions (sanctuary, necropolis, haven, stronghold)."
            )
        return chosen
    pool = [f.value for f in Faction]
    rng.shuffle(pool)
    events.append(ev("shuffle", "The factions are dealt at random.", deck="factions"))
    return pool[:players]


def _player_area(state: MmhState, seat: int, faction: str, events: list[Event]) -> Seat:
    c = content()
    record = Seat(
        seat=seat,
        faction=faction,
        gold=STARTING_GOLD,
        resources=STARTING_RESOURCES,
        cards=[ActionCard(number=n, actions=ACTION_CARDS[n]) for n in (1, 2, 3)],
        reserve={cr.id: cr.markers for cr in c.faction_creatures(faction)},
        unused_heroes=[h.id for h in c.faction_heroes(faction)],
    )
    record.might_deck = [s.id for s in c.faction_skills(faction, "might")]
    record.magic_deck = [s.id for s in c.faction_skills(faction, "magic")]
    state.rng.shuffle(record.might_deck)
    state.rng.shuffle(record.magic_deck)
    events.append(
        ev(
            "setup",
            f"{who(seat)} plays {c.faction(faction).name}: 7 gold, 5 resources, capital level I.",
            seat=seat,
            faction=faction,
        )
    )
    events.append(
        ev("shuffle", f"{who(seat)}'s might and magic skill decks are shuffled.", deck="skills")
    )
    return record


def _prepare_decks(state: MmhState, events: list[Event]) -> None:
    c = content()
    state.scroll_deck = [s.id for s in c.scrolls]
    state.artefact_deck = [a.id for a in c.artefacts]
    state.treasure_deck = [t.id for t in c.treasures]
    for deck in (state.scroll_deck, state.artefact_deck, state.treasure_deck):
        state.rng.shuffle(deck)
    events.append(
        ev("shuffle", "The scroll, artefact and treasure decks are shuffled.", deck="cards")
    )
    per = WEEKS_PER_MOON[state.options.length]
    stack: list[str] = []
    for moon in ("crescent", "half", "full"):
        cards = [w.id for w in c.weeks if w.moon == moon]
        state.rng.shuffle(cards)
        stack += cards[:per]
        state.week_box += cards[per:]
    state.week_stack = stack
    events.append(
        ev(
            "shuffle",
            f"The week stack holds {len(stack)} cards ({per} per moon phase, {state.options.length} game).",
            deck="weeks",
        )
    )


# ------------------------------------------------------------------------- the board
def _quick_board(state: MmhState, events: list[Event]) -> None:
    slots = [(c, r) for r in range(state.height // 4) for c in range(state.width // 4)]
    for slot in slots:
        tile = state.tile_stack.pop(0)
        options = geometry.legal_rotations(state.tiles, tile, slot)
        rotation = options[state.rng.below(len(options))]
        state.tiles.append(PlacedTile(tile=tile, slot=slot, rotation=rotation))
    events.append(ev("setup", "The map tiles are laid at random.", tiles=len(state.tiles)))
    _after_tiles(state, events)


def place_tile(state: MmhState, seat: int, column: int, row: int, rotation: int) -> list[Event]:
    """Lay the next map tile of the shuffled stack at grid slot (column, row), 1-based,
    turned ``rotation`` quarter turns (mmh:game-setup.setting-up-the-game-board).

    :raises IllegalMove: for a taken or missing slot, or a turn the portal rule forbids.
    """
    cols, rows = state.width // 4, state.height // 4
    slot = (column - 1, row - 1)
    if not (0 <= slot[0] < cols and 0 <= slot[1] < rows):
        raise IllegalMove(
            f"The board is {cols} tiles wide and {rows} high (columns 1-{cols}, rows 1-{rows})."
        )
    if any(t.slot == slot for t in state.tiles):
        raise IllegalMove(f"A tile already lies at column {column}, row {row}.")
    tile = state.tile_stack[0]
    allowed = geometry.legal_rotations(state.tiles, tile, slot)
    if rotation not in allowed:
        raise IllegalMove(
            f"Portals on neighbouring tiles must be as far apart as possible: tile {tile} may "
            f"lie there with rotation {' or '.join(map(str, allowed))} (in quarter turns)."
        )
    state.tile_stack.pop(0)
    state.tiles.append(PlacedTile(tile=tile, slot=slot, rotation=rotation))
    events = [
        ev(
            "tile",
            f"{who(seat)} lays map tile {tile} at column {column}, row {row} (turned {rotation}).",
            tile=tile,
            slot=[column, row],
            rotation=rotation,
        )
    ]
    if state.tile_stack:
        nxt = tile_placer(state)
        events.append(
            ev(
                "setup",
                f"{who(nxt)} places map tile {state.tile_stack[0]}.",
                tile=state.tile_stack[0],
            )
        )
    else:
        _after_tiles(state, events)
    return events


def tile_placer(state: MmhState) -> int:
    """The seat placing the next tile (the players take turns, Red first).

    Rule: mmh:game-setup.setting-up-the-game-board.
    """
    return len(state.tiles) % state.players


def free_slots(state: MmhState) -> list[tuple[int, int]]:
    """Empty grid slots, 1-based (column, row).

    Rule: mmh:game-setup.setting-up-the-game-board.
    """
    taken = {t.slot for t in state.tiles}
    return [
        (c + 1, r + 1)
        for r in range(state.height // 4)
        for c in range(state.width // 4)
        if (c, r) not in taken
    ]


def _after_tiles(state: MmhState, events: list[Event]) -> None:
    _place_encounters(state, events)
    order = list(range(state.players))
    state.rng.shuffle(order)
    state.capital_order = order
    state.phase = "capitals"
    events.append(
        ev(
            "shuffle",
            "The power markers are drawn: capitals are placed by "
            + ", ".join(who(s) for s in order)
            + ".",
            order=order,
        )
    )


def _place_encounters(state: MmhState, events: list[Event]) -> None:
    """Shuffle each colour and place a marker on every symbol of that colour, upper left
    to lower right; unused markers go back to the box."""
    c = content()
    board = geometry.board_of(state)
    for colour in ("yellow", "purple", "gold"):
        markers = [m for m in state.encounter_box if c.encounter(m).colour == colour]
        state.rng.shuffle(markers)
        for space in board.spaces:
            if space is not None and space.encounter == colour:
                marker = markers.pop(0)
                state.encounter_box.remove(marker)
                state.encounters[space.index] = marker
    events.append(
        ev(
            "encounters",
            f"{len(state.encounters)} encounter markers are placed face up.",
            placed=len(state.encounters),
        )
    )


def capital_placer(state: MmhState) -> int:
    """The seat placing the next capital (order of the drawn power markers).

    Rule: mmh:game-setup.setting-up-the-game-board.
    """
    placed = sum(1 for s in state.seats if s.capital is not None)
    return state.capital_order[placed]


def capital_spaces(state: MmhState) -> list[int]:
    """Spaces where the next capital may stand: on a red tile no capital lies on yet, with
    no location and no encounter symbol (mmh:game-setup.setting-up-the-game-board)."""
    board = geometry.board_of(state)
    used = {board.space(s.capital).tile for s in state.seats if s.capital is not None}
    return [
        sp.index
        for sp in board.spaces
        if sp is not None
        and sp.red
        and sp.tile not in used
        and sp.location is None
        and sp.encounter is None
    ]


def place_capital(state: MmhState, seat: int, space: int) -> list[Event]:
    """Place ``seat``'s capital marker on ``space``.

    :raises IllegalMove: naming the allowed tiles when the space is not allowed.

    Rule: mmh:game-setup.setting-up-the-game-board.
    """
    allowed = capital_spaces(state)
    if space not in allowed:
        board = geometry.board_of(state)
        tiles = sorted({board.space(s).tile for s in allowed})
        raise IllegalMove(
            "A capital goes on a free red map tile, on a space with no location and no "
            f"encounter: red tiles still free are {', '.join(map(str, tiles))}."
        )
    state.seats[seat].capital = space
    events = [
        ev(
            "capital",
            f"{who(seat)} places the capital at {geometry.space_label(state, space)}.",
            seat=seat,
            space=space,
        )
    ]
    if all(s.capital is not None for s in state.seats):
        state.phase = "heroes"
        events.append(ev("setup", "Every player now chooses a starting hero."))
    return events


# ------------------------------------------------------------------------- heroes
def choose_hero(state: MmhState, seat: int, hero: str) -> list[Event]:
    """Take ``hero`` as the seat's starting hero (mmh:game-setup.choosing-the-starting-hero,
    mmh:game-setup.assembling-the-starting-army).

    :raises IllegalMove: if the hero is not one of the seat's three.
    """
    record = state.seats[seat]
    if record.heroes:
        raise IllegalMove("You have chosen your starting hero already.")
    if hero not in record.unused_heroes:
        names = ", ".join(f"{hero_name(h)} ({h})" for h in record.unused_heroes)
        raise IllegalMove(f"Choose one of your faction's heroes: {names}.")
    events = enter_play(state, seat, hero, starting=True)
    if all(s.heroes for s in state.seats):
        state.phase = "play"
        _start_player(state, events)
        events += begin_round(state)
    return events


def _start_player(state: MmhState, events: list[Event]) -> None:
    state.start_player = roll(state, state.players, "the start player", events) - 1
    events.append(
        ev(
            "start_player",
            f"{who(state.start_player)} is the start player.",
            seat=state.start_player,
        )
    )


def enter_play(state: MmhState, seat: int, hero: str, *, starting: bool) -> list[Event]:
    """Put a hero into play in the seat's capital with his army and the effects of his
    starting ability (Supply Delivery, Inheritance, Sage, Celebrated Leader).

    A starting hero brings 3 elite might-2 and 3 elite might-3 creatures; a recruited one
    1 elite creature of capital level I; Celebrated Leader adds 2 elite might-2 creatures.

    Rule: mmh:game-setup.choosing-the-starting-hero.
    """
    c = content()
    record = state.seats[seat]
    record.unused_heroes.remove(hero)
    record.heroes.append(hero)
    sheet = c.hero(hero)
    unit = Hero(id=hero, owner=seat)
    state.heroes[hero] = unit
    level1, level2 = (cr.id for cr in c.faction_creatures(record.faction)[:2])
    wanted = [level1] * 3 + [level2] * 3 if starting else [level1]
    if sheet.ability == "celebrated_leader":
        wanted += [level1] * 2
    for creature in wanted:
        if record.reserve.get(creature, 0) > 0:
            record.reserve[creature] -= 1
            unit.army.append(Unit(creature=creature, elite=True))
    events = [
        ev(
            "hero",
            f"{who(seat)} takes {sheet.name} with {len(unit.army)} elite creatures into the capital.",
            seat=seat,
            hero=hero,
        )
    ]
    if sheet.ability == "supply_delivery":
        record.resources += 5
        events.append(ev("gain", f"Supply Delivery: {who(seat)} takes 5 resources.", resources=5))
    elif sheet.ability == "inheritance":
        record.gold += 5
        events.append(ev("gain", f"Inheritance: {who(seat)} takes 5 gold.", gold=5))
    elif sheet.ability == "sage":
        queue_skill_draw(state, unit, draw=1)
        events.append(ev("sage", f"Sage: {who(seat)} draws a skill card for {sheet.name}."))
    return events
