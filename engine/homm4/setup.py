"""Setup and the Start of the Game: decks, Starting Forces, board assembly, Risk Stacks
and the first Army tokens.

Rule sections: homm4:setup, homm4:start-of-the-game.

Order of play: every seat's deck is built (a ready-made deck id or a custom list, checked
by `engine.homm4.decks`), its Starting Forces are taken out (the Town card set aside face
up as the "free" Town, the Hero and six Units as the first Army Stack, Hero on top) and the
rest is shuffled into the draw deck. With Pre-developed Heroes every seat first chooses,
from its still unshuffled deck, the cards of its starting Heroes (``develop_hero``, all
seats at once), and the decks are shuffled afterwards. The Terrain Map Sections are
shuffled face down; with quick assembly the engine joins them at random, with manual
assembly each seat in turn from seat 0 reveals the top section and attaches it
(``place_section``). With underground sections the entrance coins are then placed: at
random with quick assembly, by the seats in turn order with manual assembly
(``place_entrance``). Then, from the seat after the last assembler (seat 0 after quick
assembly), each seat draws 8 cards, puts 5 of them face down as its Risk Stack
(``choose_risk_stack``) and places its Army token on an edge hex that is not impassable
(``place_army``). The first seat to set up takes the first turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.core.rng import Rng
from engine.core.words import plural
from engine.homm4 import adventure, board, decks, heroes, payment, variants, zones
from engine.homm4 import armies as army_rules
from engine.homm4.hexes import Hex
from engine.homm4.options import Homm4Options
from engine.homm4.state import Homm4State, Player

MIN_PLAYERS = 2
MAX_PLAYERS = 6
OPENING_DRAW = 8
"""Cards drawn at the start of the game (homm4:start-of-the-game)."""
RISK_STACK_SIZE = 5
"""Of the 8 cards drawn, 5 form the Risk Stack and 3 the Hand (homm4:start-of-the-game)."""


def _deck_lists(options: Homm4Options, players: int, rng: Rng) -> list[tuple[str, dict[str, int]]]:
    """Return ``(name, {card id: copies})`` per seat, checked by `decks.validate_deck`.

    With no deck choices the ready-made decks are shuffled (``rng``) and dealt in seat
    order; `_deal_event` reports that shuffle.
    """
    pool = zones.pool()
    if not options.decks:
        ids = sorted(pool.decks)
        if not ids:
            raise InvalidInput("There are no ready-made decks; give every seat a deck list.")
        rng.shuffle(ids)
        chosen = [ids[i % len(ids)] for i in range(players)]
        return [(pool.decks[d].name, dict(pool.decks[d].cards)) for d in chosen]
    if len(options.decks) != players:
        raise InvalidInput(
            f"Give one deck per seat: {players} seats but {plural(len(options.decks), 'deck')}."
        )
    lists: list[tuple[str, dict[str, int]]] = []
    for seat, choice in enumerate(options.decks):
        if (choice.deck is None) == (choice.cards is None):
            raise InvalidInput(
                f"{seat_name(seat)}: choose either a ready-made deck id or a card list, not both."
            )
        if choice.deck is not None:
            found = pool.decks.get(choice.deck)
            if found is None:
                known = ", ".join(sorted(pool.decks))
                raise InvalidInput(
                    f"{seat_name(seat)}: there is no ready-made deck {choice.deck!r}. Decks: {known}."
                )
            lists.append((found.name, dict(found.cards)))
        else:
            lists.append(("a custom deck", dict(choice.cards or {})))
    for seat, (_, cards) in enumerate(lists):
        problems = decks.validate_deck(
            cards,
            options.sections_in_play(),
            zones.pool(),
            deck_size=options.deck_size,
            forces=options.starting_forces,
        )
        if problems:
            raise InvalidInput(f"{seat_name(seat)}'s deck is not legal: {'; '.join(problems)}")
    return lists


def new_game(options: Homm4Options, players: int, seed: int) -> tuple[Homm4State, list[Event]]:
    """Create a game: decks, Starting Forces, shuffles, the section pile, and (quick
    assembly) the board, ending with the first seat's opening draw (homm4:setup,
    homm4:start-of-the-game).

    :raises InvalidInput: for a bad seat count, deck choice or board size.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidInput(
            f"homm4 is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}."
        )
    every = board.map_data().sections
    available = sorted(k for k, v in every.items() if not v.underground)
    below = sorted(k for k, v in every.items() if v.underground)
    if options.map_sections > len(available):
        raise InvalidInput(
            f"The board can have at most {len(available)} Terrain Map Sections (asked for {options.map_sections})."
        )
    if options.underground > len(below):
        raise InvalidInput(
            f"There are {len(below)} underground Terrain Map Sections (asked for {options.underground})."
        )
    _check_teams(options, players)
    rng = Rng(seed=seed)
    lists = _deck_lists(options, players, rng)
    card_defs: list[str] = []
    card_owner: list[int] = []
    players_state: list[Player] = []
    for seat, (_, cards) in enumerate(lists):
        start = len(card_defs)
        for card_id in sorted(cards):
            for _ in range(cards[card_id]):
                card_defs.append(card_id)
                card_owner.append(seat)
        players_state.append(Player(seat=seat, deck=list(range(start, len(card_defs)))))
    state = Homm4State(
        players=players,
        seed=seed,
        rng=rng,
        options=options,
        card_defs=card_defs,
        card_owner=card_owner,
        players_state=players_state,
    )
    events: list[Event] = [] if options.decks else [_deal_event(lists)]
    for seat, (deck_name, _) in enumerate(lists):
        events += _starting_forces(state, seat, deck_name)
    pile = list(available)
    state.rng.shuffle(pile)
    state.section_pile = pile[: options.map_sections]
    if options.underground:
        deep = list(below)
        state.rng.shuffle(deep)
        state.section_pile += deep[: options.underground]
        if options.assembly == "manual":
            state.rng.shuffle(state.section_pile)
    total = options.sections_in_play()
    events.append(
        Event(
            kind="shuffle",
            text=f"{plural(total, 'Terrain Map Section')} are shuffled face down"
            + (f" ({options.underground} of them underground)." if options.underground else "."),
            data={"zone": "sections", "size": total},
        )
    )
    if state.to_develop:
        state.phase = "develop"
        state.active = state.to_develop[0][0]
        return state, events
    return state, events + begin_board(state)


def begin_board(state: Homm4State) -> list[Event]:
    """Build the Game Board: with quick assembly at random, then the per-seat set-up from
    seat 0; with manual assembly seat 0 reveals and attaches the first section
    (homm4:start-of-the-game)."""
    if state.options.assembly == "quick":
        return board.quick_assembly(state) + finish_assembly(state, first_setup=0)
    state.phase = "assemble"
    state.active = 0
    return []


def _check_teams(options: Homm4Options, players: int) -> None:
    """Team Play: every seat in exactly one team, teams of equal size
    (homm4:game-variants.team-play; the options model checks sizes and repeats).

    :raises InvalidInput: naming the seats that are missing or do not exist.
    """
    if not options.teams:
        return
    seats = sorted(s for team in options.teams for s in team)
    if seats != list(range(players)):
        shown = " / ".join(",".join(str(s + 1) for s in team) for team in options.teams)
        splits = [
            f"{players // k} teams of {k}"
            for k in range(2, players + 1)
            if players % k == 0 and players // k >= 2
        ]
        possible = (
            f"{players} players: " + ", ".join(splits)
            if splits
            else f"{players} players cannot be split into equal teams of 2 or more"
        )
        raise InvalidInput(
            f"Team Play: the teams ({shown}) must hold every one of the {players} seats exactly "
            f"once, in teams of equal size ({possible})."
        )


def _deal_event(lists: Sequence[tuple[str, dict[str, int]]]) -> Event:
    """The ``shuffle`` event of dealing the ready-made decks at random (house rule 9)."""
    names = [name for name, _ in lists]
    dealt = "; ".join(f"{seat_name(seat)} {name}" for seat, name in enumerate(names))
    return Event(
        kind="shuffle",
        text=f"The ready-made decks are shuffled and dealt: {dealt}.",
        data={"zone": "ready_made_decks", "size": len(names), "decks": names},
    )


def _starting_forces(state: Homm4State, seat: int, deck_name: str) -> list[Event]:
    """Take ``seat``'s Starting Forces out of its deck (standard or Different Starting
    Forces), add its carried Campaign Heroes, and shuffle the rest — or, with Pre-developed
    Heroes, queue its starting Heroes in `Homm4State.to_develop` (after checking the deck
    can supply them) and leave the deck unshuffled until they are developed (homm4:setup,
    homm4:game-variants.different-starting-forces, homm4:game-variants.campaigns,
    homm4:game-variants.pre-developed-heroes)."""
    options = state.options
    player = state.players_state[seat]
    counts: dict[str, int] = {}
    for instance in player.deck:
        counts[state.card_defs[instance]] = counts.get(state.card_defs[instance], 0) + 1
    picked = decks.starting_forces(counts, zones.pool(), options.starting_forces)
    remaining = sorted(player.deck)

    def take(card_id: str) -> int:
        instance = next(c for c in remaining if state.card_defs[c] == card_id)
        remaining.remove(instance)
        return instance

    carried = [h for h in options.campaign.heroes if h.seat == seat] if options.campaign else []
    campaign_events: list[Event] = []
    carried_heroes: list[int] = []
    for hero_option in carried:
        instance, more = variants.carry_in(state, hero_option)
        carried_heroes.append(instance)
        campaign_events += more
    carried_ids = {h.hero for h in carried}
    town = take(picked.town)
    hero_list = [take(h) for h in picked.heroes if h not in carried_ids]
    units = [take(u) for u in picked.units]
    for hero in hero_list:
        heroes.ensure_inventory(state, hero)
    starting_heroes = carried_heroes + hero_list
    player.deck = remaining
    player.free_town = town
    player.starting_stack = [*starting_heroes, *units]
    rule = options.pre_developed
    chosen = [h for h in hero_list if rule is not None and variants.developing(rule, state, h)]
    if chosen:
        variants.check_development(state, seat, chosen)
        state.to_develop += [(seat, hero) for hero in chosen]
    else:
        state.rng.shuffle(player.deck)
    events = [
        *campaign_events,
        Event(
            kind="starting_forces",
            text=f"{seat_name(seat)} plays {deck_name}. Starting Forces: free Town card "
            f"{zones.name(state, town)}; Army Stack {', '.join(zones.name(state, c) for c in player.starting_stack)}.",
            data={"seat": seat, "town": town, "army": list(player.starting_stack)},
        ),
    ]
    if chosen:
        return events
    return [*events, _deck_shuffled(state, seat)]


def _deck_shuffled(state: Homm4State, seat: int) -> Event:
    """The ``shuffle`` event of ``seat``'s draw deck (made after its Starting Forces, and
    its Pre-developed Heroes' cards, were taken out)."""
    size = len(state.players_state[seat].deck)
    return Event(
        kind="shuffle",
        text=f"{seat_name(seat)} shuffles the other {plural(size, 'card')} into a draw deck.",
        data={"seat": seat, "zone": "deck", "size": size},
    )


def develop_hero(
    state: Homm4State, seat: int, hero: int | None, cards: Sequence[int]
) -> list[Event]:
    """Pre-developed Heroes: ``seat`` gives its starting Hero its cards (`variants.develop_hero`);
    when every seat is done, each deck still unshuffled is shuffled (seat order) and the
    board is built (`begin_board`) (homm4:game-variants.pre-developed-heroes).

    :raises IllegalMove: for a choice `variants.develop_problem` refuses.
    """
    events = variants.develop_hero(state, seat, hero, list(cards))
    if state.to_develop:
        if state.active == seat and all(s != seat for s, _ in state.to_develop):
            state.active = state.to_develop[0][0]
        return events
    developed = sorted({state.card_owner[h] for h in state.developed})
    for owner in developed:
        state.rng.shuffle(state.players_state[owner].deck)
        events.append(_deck_shuffled(state, owner))
    return events + begin_board(state)


def finish_assembly(state: Homm4State, first_setup: int) -> list[Event]:
    """Fix labels and sites; mark the underground entrances (quick assembly: at random,
    `board.place_entrances`; manual assembly: the seats place them in turn order from
    ``first_setup``, `place_entrance`); then start the per-seat setup with ``first_setup``
    (homm4:start-of-the-game, homm4:terrain-map-sections-with-underground)."""
    events = board.fix_labels_and_sites(state)
    state.setup_first = first_setup
    if state.options.assembly == "manual" and board.entrance_pairs(state):
        state.phase = "entrances"
        state.active = first_setup
        return events
    events += board.place_entrances(state)
    state.phase = "setup"
    return events + begin_seat_setup(state, first_setup)


def place_section(state: Homm4State, seat: int, slot: Hex, rotation: int) -> list[Event]:
    """Manual assembly: ``seat`` attaches the top section; the next seat reveals the next
    one; after the last, setup starts with the seat after the last assembler
    (homm4:start-of-the-game).

    :raises IllegalMove: for a slot that does not touch the board.
    """
    events = board.place_section(state, seat, slot, rotation)
    nxt = (seat + 1) % state.players
    if state.section_pile:
        state.active = nxt
        return events
    return events + finish_assembly(state, first_setup=nxt)


def place_entrance(state: Homm4State, seat: int, surface: str, underground: str) -> list[Event]:
    """Underground with manual assembly: ``seat`` places the next entrance coin pair
    (`board.place_entrance`); the next seat in turn order places the next pair; after the
    last pair the per-seat setup starts with `Homm4State.setup_first`
    (homm4:terrain-map-sections-with-underground: "following the order of turns").

    :raises InvalidInput | IllegalMove: as `board.place_entrance`.
    """
    events = board.place_entrance(state, seat, surface, underground)
    if board.coins_placed(state) < board.entrance_pairs(state):
        state.active = (seat + 1) % state.players
        return events
    state.phase = "setup"
    return events + begin_seat_setup(state, state.setup_first)


def default_entrance(state: Homm4State) -> tuple[str, str]:
    """The documented default of ``place_entrance``: the pair the quick set-up would draw
    now (`board.draw_entrance` with a copy of ``state.rng``, which is not advanced), as
    ``(surface label, underground label)``.
    Rule: homm4:terrain-map-sections-with-underground.
    """
    up, down = board.draw_entrance(state, Rng(seed=state.rng.seed, counter=state.rng.counter))
    return board.label(state, up.hex), board.label(state, down.hex)


def begin_seat_setup(state: Homm4State, seat: int) -> list[Event]:
    """``seat`` draws its 8 opening cards and must choose its Risk Stack.

    Rule: homm4:start-of-the-game.
    """
    state.active = seat
    state.setup_step = "risk"
    return zones.draw(state, seat, OPENING_DRAW, "opening draw")


def choose_risk_stack(state: Homm4State, seat: int, cards: Sequence[int]) -> list[Event]:
    """Put ``cards`` (5 of the 8 drawn) face down as the Risk Stack; the rest stays as the
    Hand (homm4:start-of-the-game: 8 cards -> 5 Risk Stack, 3 Hand).

    :raises IllegalMove: unless exactly 5 distinct cards of the Hand are named.
    """
    player = state.players_state[seat]
    wanted = min(RISK_STACK_SIZE, len(player.hand))
    chosen = list(cards)
    if (
        len(chosen) != wanted
        or len(set(chosen)) != len(chosen)
        or any(c not in player.hand for c in chosen)
    ):
        raise IllegalMove(
            f"Choose exactly {plural(wanted, 'different card')} of your Hand for the Risk Stack."
        )
    player.hand = [c for c in player.hand if c not in chosen]
    player.risk = chosen
    state.setup_step = "army"
    return [
        Event(
            kind="risk_stack",
            text=f"{seat_name(seat)} puts {plural(len(chosen), 'card')} face down as the Risk Stack and keeps "
            f"{len(player.hand)} in Hand.",
            data={"seat": seat, "risk": len(chosen), "hand": len(player.hand)},
            private={seat: f"Risk Stack: {', '.join(zones.name(state, c) for c in chosen)}."},
        )
    ]


def army_hexes(state: Homm4State, seat: int) -> list[Hex]:
    """Return the hexes where ``seat`` may place its first Army token: edge hexes of the
    surface map that are not impassable and hold no other player's Army, row by row.
    Rule: homm4:start-of-the-game.
    """
    shape = board.board_of(state)
    taken = {a.hex for a in state.armies if a.owner != seat}
    return [
        h
        for h in shape.order
        if h in shape.edge
        and h not in shape.underground
        and board.step_cost2(state, h) is not None
        and h not in taken
    ]


def place_army(state: Homm4State, seat: int, label_text: str) -> list[Event]:
    """Place ``seat``'s Starting Forces Army token on an edge hex (homm4:start-of-the-game);
    then the next seat sets up, or, after the last, the first seat's turn begins.

    :raises IllegalMove: for a hex that is not on the edge, impassable or taken.
    """
    where = board.parse_hex(state, label_text)
    if where not in army_hexes(state, seat):
        raise IllegalMove(
            f"{board.label(state, where)} is not allowed: place the Army token on an edge hex of the board "
            "that is not impassable and has no other player's Army."
        )
    player = state.players_state[seat]
    created = army_rules.new_army(state, seat, where, player.starting_stack)
    player.starting_stack = []
    state.setup_done.append(seat)
    events = [
        Event(
            kind="place_army",
            text=f"{seat_name(seat)} places {army_rules.army_label(created)} at {board.label(state, where)}.",
            data={"seat": seat, "army": created.id, "hex": board.label(state, where)},
        )
    ]
    nxt = (seat + 1) % state.players
    if nxt not in state.setup_done:
        return events + begin_seat_setup(state, nxt)
    state.round = 1
    state.turn = 0
    return events + adventure.start_turn(state, state.setup_done[0])


def default_risk_stack(state: Homm4State, seat: int) -> list[int]:
    """The documented default Risk Stack: keep in Hand the 3 cards the default payment
    rule would spend first (they are the least useful to hold back), risk the other 5.
    Rule: homm4:start-of-the-game.
    """
    player = state.players_state[seat]
    keep = payment.auto_pay(state, seat, max(0, len(player.hand) - RISK_STACK_SIZE))
    return [c for c in player.hand if c not in keep]
