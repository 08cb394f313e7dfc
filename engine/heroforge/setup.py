"""Setting up a Hero Forge game: the board builder, choosing heroes, placing them.

Rule sections: heroforge:basic-rules ("Each player places their hero in the center of a
plain land of their choice"), heroforge:lands (the board: plates attached by edge or
corner, at least as many Plain Lands as players, Basic Lands, one or two Special Lands),
heroforge:economy (each player starts with 1000e), heroforge:enchantment-lists.

Order: the board is built at creation (random ``B``/``S`` plates drawn with logged rolls),
then each seat in turn chooses a hero (unless the options assign them), then each seat in
turn places its hero; Red (seat 0) takes the first turn.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.core.rng import Rng
from engine.heroforge import board, turns
from engine.heroforge.catalog import Layout, load_catalog
from engine.heroforge.options import GAP, HeroforgeOptions, parse_grid, resolve_list
from engine.heroforge.plates import connected
from engine.heroforge.state import HeroforgeState, Plate, Player, Square

MIN_PLAYERS, MAX_PLAYERS = 2, 6
STARTING_ECONOMY = 1000
"""heroforge:economy: "Each player starts the game with 1000e"."""


def choose_layout(options: HeroforgeOptions, players: int) -> tuple[str, list[list[str]]]:
    """The board's name and token grid for ``options`` and ``players``.

    :raises InvalidInput: when no ready-made board suits the player count.

    Rule: heroforge:what-you-will-need-to-play-hero-forge
    (assemble the board).
    """
    layouts = load_catalog().layouts
    if options.grid.strip():
        return "Custom board", parse_grid(options.grid)
    if options.layout == "auto":
        fitting = [lay for lay in layouts.values() if lay.players[0] <= players <= lay.players[1]]
        if not fitting:
            raise InvalidInput(f"No ready-made board is made for {players} players.")
        chosen: Layout = fitting[0]
    else:
        chosen = layouts[options.layout]
    return chosen.name, [[token.upper() for token in row] for row in chosen.cells()]


def build_plates(state_rng: Rng, cells: list[list[str]]) -> tuple[list[Plate], list[Event]]:
    """Turn a token grid into plates (labels in reading order); ``B``/``S`` plates get a
    Basic/Special Land drawn with a logged roll.

    :raises InvalidInput: for a board in pieces or with fewer than two plates.

    Rule: heroforge:what-you-will-need-to-play-hero-forge, heroforge:lands.
    """
    catalog = load_catalog()
    tokens = [(x, y, t) for y, row in enumerate(cells) for x, t in enumerate(row) if t != GAP]
    if len(tokens) < 2:
        raise InvalidInput("A board needs at least two land plates.")
    if not connected((x, y) for x, y, _ in tokens):
        raise InvalidInput(
            "Every land plate must be attached to the board by an edge or a corner; "
            "this board is in pieces."
        )
    labels = board.plate_labels(len(tokens))
    plates, events = [], []
    probe = HeroforgeStateless(state_rng)
    for label, (x, y, token) in zip(labels, tokens, strict=True):
        if token in ("B", "S"):
            choices = catalog.lands_of("basic" if token == "B" else "special")
            face, event = probe.roll(len(choices), f"the land of plate {label}")
            land_id = choices[face - 1].id
            events.append(event)
        else:
            found = catalog.land_by_code(token)
            assert found is not None  # parse_grid checked the codes
            land_id = found.id
        plates.append(Plate(label=label, land=land_id, x=x, y=y))
    return plates, events


class HeroforgeStateless:
    """Rolls logged like `dice.roll` before a state exists (the board is drawn first)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def roll(self, sides: int, purpose: str) -> tuple[int, Event]:
        """Roll a die of ``sides`` faces for ``purpose``; return the face and its event."""
        result = self.rng.die(sides)
        return result, Event(
            kind="die_roll",
            text=f"Rolled D{sides}: {result} ({purpose}).",
            data={"sides": sides, "result": result, "purpose": purpose},
        )


def new_game(
    options: HeroforgeOptions, players: int, seed: int
) -> tuple[HeroforgeState, list[Event]]:
    """Create the game: the board, the enchantment lists, the seats.

    :raises InvalidInput: for a bad player count, a board that does not suit it (fewer
        Plain Lands than players), or heroes given for the wrong number of seats.

    Rule: heroforge:what-you-will-need-to-play-hero-forge,
    heroforge:economy (1000e each), heroforge:enchantment-lists.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidInput(f"Hero Forge is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}.")
    if options.heroes and len(options.heroes) != players:
        raise InvalidInput(
            f"Give one hero per seat ({players}), or none to let each player choose."
        )
    name, cells = choose_layout(options, players)
    rng = Rng(seed=seed)
    plates, events = build_plates(rng, cells)
    catalog = load_catalog()
    plains = sum(1 for p in plates if catalog.lands[p.land].land_class == "plain")
    if plains < players:
        raise InvalidInput(
            f"The board has {plains} Plain Lands; it needs at least one per player ({players})."
        )
    seats = [Player(seat=s, economy=STARTING_ECONOMY) for s in range(players)]
    state = HeroforgeState(
        players=players,
        seed=seed,
        rng=rng,
        options=options,
        list1=resolve_list(options.list1),
        list5=resolve_list(options.list5),
        plates=plates,
        players_state=seats,
    )
    events.insert(
        0,
        Event(
            kind="setup",
            text=f"Hero Forge for {players} on {name}: {len(plates)} land plates. "
            f"Enchantment list 1: {state.list1.name}; list 5: {state.list5.name}.",
            data={"board": name, "plates": len(plates)},
        ),
    )
    if options.heroes:
        for seat, hero in enumerate(options.heroes):
            state.player(seat).hero = hero
            events.append(_chosen(seat, hero))
        state.phase = "place_hero"
    return state, events


def _chosen(seat: int, hero_id: str) -> Event:
    hero = load_catalog().heroes[hero_id]
    return Event(
        kind="hero_chosen",
        text=f"{seat_name(seat)} plays {hero.name}"
        + (f" ({hero.faction})." if hero.faction else " (no faction)."),
        data={"seat": seat, "hero": hero_id},
    )


def available_heroes(state: HeroforgeState) -> list[str]:
    """Hero ids nobody has chosen yet, in data order.

    Rule: heroforge:what-you-will-need-to-play-hero-forge (choose a Hero).
    """
    taken = {p.hero for p in state.players_state}
    return [h for h in load_catalog().heroes if h not in taken]


def choose_hero(state: HeroforgeState, seat: int, hero: str) -> list[Event]:
    """``seat`` chooses ``hero``; after the last seat, placing begins.

    :raises InvalidInput: for an unknown hero. :raises IllegalMove: if it is taken.

    Rule: heroforge:what-you-will-need-to-play-hero-forge (choose a Hero).
    """
    heroes = load_catalog().heroes
    key = hero.strip().lower()
    match = (
        key
        if key in heroes
        else next((h.id for h in heroes.values() if h.name.lower() == key), None)
    )
    if match is None:
        raise InvalidInput(f"Unknown hero {hero!r}; heroes: {', '.join(available_heroes(state))}.")
    if match not in available_heroes(state):
        raise IllegalMove(
            f"{heroes[match].name} is already taken; choose one of "
            f"{', '.join(available_heroes(state))}."
        )
    state.player(seat).hero = match
    events = [_chosen(seat, match)]
    if seat + 1 < state.players:
        state.active = seat + 1
    else:
        state.phase, state.active = "place_hero", 0
    return events


def free_plains(state: HeroforgeState) -> list[str]:
    """Labels of Plain Lands with no hero yet (one hero per starting Plain Land).

    Rule: heroforge:what-you-will-need-to-play-hero-forge
    (each hero on a Plain Land).
    """
    catalog = load_catalog()
    taken = {p.at.plate for p in state.players_state if p.at is not None}
    return [
        p.label
        for p in state.plates
        if catalog.lands[p.land].land_class == "plain" and p.label not in taken
    ]


def place_hero(state: HeroforgeState, seat: int, plate: str) -> list[Event]:
    """Put ``seat``'s hero in the centre of Plain Land ``plate``; after the last seat the
    first turn begins.

    :raises InvalidInput: for an unknown plate. :raises IllegalMove: if it is not a free
        Plain Land.

    Rule: heroforge:what-you-will-need-to-play-hero-forge
    (each player places their hero in the center of a Plain Land).
    """
    label = plate.strip().upper()
    try:
        state.plate(label)
    except KeyError:
        raise InvalidInput(f"There is no land plate {plate!r}.") from None
    options = free_plains(state)
    if label not in options:
        raise IllegalMove(
            f"Plate {label} is not a free Plain Land; choose one of {', '.join(options)}."
        )
    state.player(seat).at = Square(plate=label, cx=board.CENTRE, cy=board.CENTRE)
    events = [
        Event(
            kind="hero_placed",
            text=f"{seat_name(seat)} places the hero in the centre of plate {label}.",
            data={"seat": seat, "plate": label},
        )
    ]
    if seat + 1 < state.players:
        state.active = seat + 1
        return events
    state.phase = "play"
    return events + turns.start_turn(state, 0)
