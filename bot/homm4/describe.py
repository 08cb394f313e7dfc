"""Words for homm4 things: card, hex, Army and Creature labels, and every command in a line.

Used for button labels, select options, autocomplete names and the console. Functions that
take a ``seat`` may name that seat's own Hand and Risk Stack cards; their output goes only
to that seat (a DM or an ephemeral reply). `public_command` never names a hidden card: it
is what the channel may read.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.model import Command, seat_name
from engine.homm4 import battle, board, zones
from engine.homm4 import commands as c
from engine.homm4.cards import HeroCard, UnitCard
from engine.homm4.state import Homm4State
from engine.homm4.words import plural


def card_name(state: Homm4State, instance: int) -> str:
    """The pool name of card ``instance`` (``"Orc"``); ``"card #N"`` for an unknown number."""
    if not 0 <= instance < len(state.card_defs):
        return f"card #{instance}"
    return zones.pool().cards[state.card_defs[instance]].name


def card_label(state: Homm4State, instance: int) -> str:
    """``"#17 Orc"``: the number commands accept and the card's name."""
    return f"#{instance} {card_name(state, instance)}"


def card_detail(state: Homm4State, instance: int) -> str:
    """``"#17 Orc — Unit L1, cost 1"``: a card with its type, level and cost."""
    card = zones.pool().cards[state.card_defs[instance]]
    kind = card.type.capitalize()
    extra = ""
    if isinstance(card, UnitCard):
        cost = "X" if card.cost is None else str(card.cost)
        extra = f" L{card.level}, cost {cost}, melee {card.melee}/ranged {card.ranged}/def {card.defense}"
    elif isinstance(card, HeroCard):
        extra = f", cost {card.cost}"
    else:
        price = getattr(card, "cost", None)
        if price is not None:
            extra = f", cost {price}"
    return f"#{instance} {card.name} — {kind}{extra}"


def cards_text(state: Homm4State, instances: Sequence[int]) -> str:
    """``"#12 #13"`` — card numbers as a command option accepts them."""
    return " ".join(f"#{i}" for i in instances)


def cards_named(state: Homm4State, instances: Sequence[int]) -> str:
    """``"#12 Orc, #13 Orc"`` for up to three cards, else ``"5 cards (#12 #13 ...)"``."""
    if len(instances) <= 3:
        return ", ".join(card_label(state, i) for i in instances)
    return f"{len(instances)} cards ({cards_text(state, instances)})"


def hex_label(state: Homm4State, text: str) -> str:
    """A hex with what stands there: ``"C4 (Town, Red)"``; the label alone otherwise."""
    try:
        where = board.parse_hex(state, text)
    except ValueError:
        return text
    site = zones.site_at(state, where)
    parts: list[str] = []
    if site is not None:
        what = site.kind.capitalize()
        if site.card is not None:
            what = card_name(state, site.card)
        if site.owner is not None:
            what += f", {seat_name(site.owner)}"
        elif site.guard:
            what += ", guarded"
        parts.append(what)
    armies = zones.armies_at(state, where)
    if armies:
        parts.append(", ".join(f"Army {a.id} ({seat_name(a.owner)})" for a in armies))
    return f"{text} ({'; '.join(parts)})" if parts else text


def army_label(state: Homm4State, army_id: int) -> str:
    """``"Army 3 at C4: Gem + 4 cards"``."""
    try:
        army = zones.army(state, army_id)
    except ValueError:
        return f"Army {army_id}"
    top = card_name(state, army.cards[0]) if army.cards else "empty"
    more = f" + {len(army.cards) - 1}" if len(army.cards) > 1 else ""
    return f"Army {army.id} at {board.label(state, army.hex)}: {top}{more}"


def creature_label(state: Homm4State, number: int) -> str:
    """``"[3] Orc ×2 (Red, melee line)"`` for battle creature ``number``."""
    if state.battle is None:
        return f"[{number}]"
    found = next((cr for cr in state.battle.creatures if cr.id == number), None)
    if found is None:
        return f"[{number}]"
    owner = battle.side_seat(state.battle, found.side)
    size = f" ×{len(found.cards)}" if len(found.cards) > 1 else ""
    return (
        f"[{number}] {card_name(state, found.cards[0])}{size} "
        f"({seat_name(owner)}, {found.line} line)"
    )


def creature_short(state: Homm4State, number: int) -> str:
    """``"[3] Orc ×2"``: a battle Creature by number, top card and size."""
    if state.battle is None:
        return f"[{number}]"
    found = next((cr for cr in state.battle.creatures if cr.id == number), None)
    if found is None:
        return f"[{number}]"
    size = f" ×{len(found.cards)}" if len(found.cards) > 1 else ""
    return f"[{number}] {card_name(state, found.cards[0])}{size}"


def _pay(command: Command) -> str:
    pay = getattr(command, "pay", None)
    if pay:
        return f", paying {' '.join(f'#{p}' for p in pay)}"
    return ""


def describe(state: Homm4State, command: Command) -> str:
    """One line saying what ``command`` does, naming its cards (for its own seat only).

    The line may name Hand and Risk Stack cards: show it only to the seat that would
    issue the command. Use `public_command` for the channel. Commands that name no
    private card (ending a phase, placing a token, a section or an entrance coin, every
    battle command...) read as `public_command` says.
    """
    match command:
        case c.BuyUnit():
            where = f" into Army {command.into}" if command.into is not None else ""
            return f"Buy {card_label(state, command.card)} in {command.town}{where}{_pay(command)}"
        case c.UpgradeTown():
            return f"Upgrade the Town at {command.town}{_pay(command)}"
        case c.BuyArtifact():
            return f"Buy {card_label(state, command.card)} for {card_label(state, command.hero)}"
        case c.BuySkill():
            return f"Buy {card_label(state, command.card)} for {card_label(state, command.hero)}"
        case c.LearnSpell():
            return f"Teach {card_label(state, command.card)} to {card_label(state, command.hero)}"
        case c.Move():
            joined = (
                f" with Armies {', '.join(map(str, command.with_armies))}"
                if command.with_armies
                else ""
            )
            return f"Move Army {command.army} to {hex_label(state, command.to)}{joined}"
        case c.SplitArmy():
            return f"Split {cards_named(state, command.cards)} off Army {command.army}"
        case c.FormArmy():
            return f"Form an Army at {command.town} from {cards_named(state, command.cards)}"
        case c.TransferCards():
            return f"Move {cards_named(state, command.cards)} from Army {command.source} to Army {command.target}"
        case c.TransferArtifact():
            return f"Give {card_label(state, command.artifact)} to {card_label(state, command.to_hero)}"
        case c.DiscardArtifact():
            return f"Discard {card_label(state, command.artifact)}"
        case c.Recruit():
            return f"Recruit {card_label(state, command.card)} into Army {command.army}"
        case c.CastAdventureSpell():
            return f"{card_name(state, command.hero)} casts {card_label(state, command.spell)}"
        case c.Identify():
            return f"Identify {command.site} with {card_label(state, command.card)}"
        case c.PassIdentify():
            return f"Do not identify {command.site}"
        case c.ReinforceGuard():
            if not command.cards:
                return "Add nothing to the Guard"
            return "Add " + ", ".join(card_label(state, i) for i in command.cards) + " to the Guard"
        case c.ChooseRiskStack():
            named = "Risk Stack: " + ", ".join(card_label(state, i) for i in command.cards)
            return named if len(named) <= 64 else "Risk Stack: " + cards_text(state, command.cards)
        case c.DevelopHero():
            named = ", ".join(card_label(state, i) for i in command.cards) or "no card"
            text = f"Develop {_developing(state, command)} with {named}"
            return (
                text
                if len(text) <= 90
                else (
                    f"Develop {_developing(state, command)} with {cards_text(state, command.cards)}"
                )
            )
        case c.LearnSkill():
            if command.card is None:
                return "Play no Skill card"
            return f"{card_name(state, command.hero)} learns {card_label(state, command.card)}"
        case c.MakeArtifactRoom():
            return f"Discard {card_label(state, command.discard)}"
        case c.CloseTurn():
            if command.card is None:
                return "Close the turn"
            return f"Put {card_label(state, command.card)} into the Risk Stack"
        case c.PayPlayer():
            return f"Pay {plural(command.cards, 'Hand card')} to {seat_name(command.to)}{_pay(command)}"
        case _:
            return public_command(state, command)


def public_command(state: Homm4State, command: Command) -> str:
    """One line for the channel: battle commands in full (everything in battle is face up),
    other commands by their kind only."""
    match command:
        case c.Deploy():
            return "Deploy: " + deployment_summary(state, command)
        case c.Attack():
            who = creature_short(state, command.creature)
            if command.target_walls:
                return f"{who} attacks the Town walls"
            targets = ", ".join(creature_short(state, t) for t in command.targets)
            mass = f" (Mass attack on {command.count} cards)" if command.count > 1 else ""
            return f"{who}: {command.mode} attack on {targets}{mass}"
        case c.SupportCreature():
            return f"{creature_short(state, command.creature)} supports {creature_short(state, command.target)}"
        case c.Group():
            return f"{creature_short(state, command.creature)} groups"
        case c.Defend():
            return f"{creature_short(state, command.creature)} defends"
        case c.Regroup():
            return f"{creature_short(state, command.creature)} regroups"
        case c.CastSpell():
            targets = ", ".join(creature_short(state, t) for t in command.targets)
            on = f" on {targets}" if targets else ""
            return f"{creature_short(state, command.creature)} casts {card_label(state, command.spell)}{on}"
        case c.Counterattack():
            return "Counterattack" if command.strike else "Do not counterattack"
        case c.FillFront():
            return f"Move {creature_short(state, command.creature)} to the Melee Line"
        case c.Retreat():
            return "Retreat with the heroes" if command.retreat else "Fight on (no retreat)"
        case c.OfferSurrender():
            if command.cards is None:
                return "Make no surrender offer"
            return f"Offer {plural(command.cards, 'card')} to surrender"
        case c.AnswerSurrender():
            return "Accept the surrender" if command.accept else "Reject the surrender"
        case c.EndPurchase():
            return "End the Purchase Phase"
        case c.EndMovement():
            return "End the Movement Phase"
        case c.Move():
            return f"Move Army {command.army} to {command.to}"
        case c.PlaceArmy():
            return f"Place the Army token on {command.hex}"
        case c.PlaceSection():
            return f"Attach the section at slot {command.slot[0]},{command.slot[1]} turned {command.rotation}"
        case c.PlaceEntrance():
            return (
                f"Entrance coin: {hex_label(state, command.surface)} (surface) <-> "
                f"{hex_label(state, command.underground)} (underground)"
            )
        case c.DevelopHero():
            return f"Develop {_developing(state, command)} (cards from the deck)"
        case c.PayPlayer():
            return f"Pay {plural(command.cards, 'card')} to {seat_name(command.to)}"
        case c.GiveArmy():
            return f"Hand Army {command.army} over to {seat_name(command.to)}"
        case c.SellObject():
            return f"Sell the Object at {command.site} to {seat_name(command.to)}"
        case c.LootHero():
            return f"Army {command.army} loots the dead {card_label(state, command.hero)}"
        case _:
            return command.type.replace("_", " ").capitalize()


def _developing(state: Homm4State, command: c.DevelopHero) -> str:
    """The starting Hero a ``develop_hero`` command is for (named: it is face up)."""
    hero = command.hero
    if hero is None:
        seat_heroes = [h for _, h in state.to_develop]
        hero = seat_heroes[0] if seat_heroes else None
    return card_name(state, hero) if hero is not None else "the Hero"


def deployment_text(command: c.Deploy) -> str:
    """``"#12 #13 melee; #20 ranged"``: a deployment as the ``/battle deploy`` option reads it."""
    return "; ".join(f"{' '.join(f'#{i}' for i in s.cards)} {s.line}" for s in command.stacks)


def deployment_summary(state: Homm4State, command: c.Deploy) -> str:
    """``"Melee Line: Orc ×3, Medusa; Ranged Line: Ifrit"`` for a button or select option."""
    lines: dict[str, list[str]] = {"melee": [], "ranged": []}
    for stack in command.stacks:
        size = f" ×{len(stack.cards)}" if len(stack.cards) > 1 else ""
        lines[stack.line].append(f"{card_name(state, stack.cards[0])}{size}")
    parts = []
    if lines["melee"]:
        parts.append("Melee: " + ", ".join(lines["melee"]))
    if lines["ranged"]:
        parts.append("Ranged: " + ", ".join(lines["ranged"]))
    return "; ".join(parts)
