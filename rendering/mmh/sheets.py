"""A player's capital board and a hero sheet.

Rule sections: mmh:course-of-play.build (capital levels, costs, buildings),
mmh:game-setup.choosing-the-starting-hero (the hero sheet), mmh:other-game-rules.using-card-effects.

The capital board is public. A hero sheet from a `PublicView` shows how many scrolls the
hero holds; from that hero's owner's `SeatView` it names them, so such a picture goes by
DM only.
"""

from __future__ import annotations

from engine.core.model import seat_name
from engine.mmh.content import SCHOOL_NAMES, load_content
from engine.mmh.text import card_text, hero_ability_text
from engine.mmh.views import PublicView, SeatView
from rendering.canvas import Canvas, Drawing, ellipsize
from rendering.mmh import palette as p

WIDTH = 720
ACTION_WORDS = {"hero": "Activate Hero", "build": "Build", "gather": "Gather", "recruit": "Recruit"}


def draw_capital(view: PublicView, seat: int) -> Drawing:
    """The capital board of ``seat``: levels with costs and creatures, buildings, treasury,
    VP, action cards. :raises IndexError: for a seat not in the game."""
    s = view.seats[seat]
    c = load_content()
    faction = c.faction(s.faction)
    canvas = Canvas(WIDTH, 500, p.PAPER)
    draw = canvas.draw
    draw.rectangle((0, 0, WIDTH, 46), fill=p.seat_rgb(seat))
    canvas.text(
        (16, 10),
        f"{faction.name} capital · {seat_name(seat)}",
        22,
        p.WHITE,
        weight="bold",
        kind="title",
        key=s.faction,
    )
    canvas.text(
        (WIDTH - 16, 14),
        f"{s.vp} VP",
        20,
        p.WHITE,
        weight="bold",
        anchor="ra",
        kind="vp",
        key=str(s.vp),
    )
    y = 60
    for column in faction.capital:
        x = 16 + (column.level - 1) * 174
        reached = column.level <= s.level
        draw.rounded_rectangle(
            (x, y, x + 164, y + 120),
            8,
            fill=(255, 250, 236) if reached else (220, 214, 200),
            outline=p.INK,
            width=3 if column.level == s.level else 1,
        )
        creature = c.creature(column.creature)
        canvas.text(
            (x + 8, y + 6),
            f"Level {['I', 'II', 'III', 'IV'][column.level - 1]}",
            15,
            p.INK,
            weight="bold",
        )
        cost = "start" if column.level == 1 else f"{column.resources} resources"
        canvas.text((x + 8, y + 28), cost, 12, p.INK)
        canvas.text(
            (x + 8, y + 50),
            ellipsize(creature.basic.name, 150, 13),
            13,
            p.INK,
            kind="creature",
            key=creature.id,
        )
        canvas.text(
            (x + 8, y + 66), f"  {column.basic_gold} gold · might {creature.basic.might}", 12, p.INK
        )
        canvas.text(
            (x + 8, y + 84), ellipsize(creature.elite.name, 150, 13), 13, p.INK, weight="bold"
        )
        canvas.text(
            (x + 8, y + 100),
            f"  {column.elite_gold} gold · might {creature.elite.might}",
            12,
            p.INK,
        )
    y += 136
    canvas.text(
        (16, y),
        f"Treasury: {s.gold} gold · {s.resources} resources",
        16,
        p.INK,
        weight="bold",
        kind="treasury",
        key="",
    )
    y += 26
    cards = "   ".join(
        f"[{card.number}] {' / '.join(ACTION_WORDS[a] for a in card.actions)}{' (used)' if card.used else ''}"
        for card in s.cards
    )
    canvas.text((16, y), ellipsize(f"Action cards: {cards}", WIDTH - 32, 13), 13, p.INK)
    y += 26
    canvas.text((16, y), "Buildings", 16, p.INK, weight="bold")
    y += 24
    for index, building in enumerate(c.faction_buildings(s.faction)):
        x = 16 + (index % 3) * 232
        yy = y + (index // 3) * 62
        built = building.id in s.buildings
        draw.rounded_rectangle(
            (x, yy, x + 222, yy + 54),
            6,
            fill=(206, 232, 196) if built else (232, 226, 212),
            outline=p.INK,
        )
        canvas.text(
            (x + 8, yy + 6),
            ellipsize(building.name, 206, 13),
            13,
            p.INK,
            weight="bold" if built else "regular",
            kind="building",
            key=building.id,
        )
        cost = f"{building.resources} res" + (f" + {building.gold} gold" if building.gold else "")
        if building.either:
            cost = f"{building.resources} gold or res"
        canvas.text(
            (x + 8, yy + 28), f"{'built' if built else cost} · level {building.level}", 12, p.INK
        )
    y += 3 * 62 + 8
    reserve = ", ".join(f"{c.creature(k).basic.name} {n}" for k, n in s.reserve.items())
    canvas.text((16, y), ellipsize(f"Reserve: {reserve}", WIDTH - 32, 12), 12, p.INK)
    return canvas.finish()


def draw_hero(view: PublicView, hero_id: str) -> Drawing:
    """The hero sheet of ``hero_id``: values, abilities, schools, army, skills, artefacts,
    trophies, luck and scrolls (named only in the owner's `SeatView`).

    :raises KeyError: for a hero not in play.
    """
    hero = next((h for h in view.heroes if h.id == hero_id), None)
    if hero is None:
        raise KeyError(hero_id)
    c = load_content()
    sheet = c.hero(hero_id)
    private = isinstance(view, SeatView) and view.seat == hero.owner
    scrolls = len(view.scrolls.get(hero.id, ())) if private and isinstance(view, SeatView) else 0
    height = (
        262 + 17 * len(hero.army) + 53 * (len(hero.skills) + scrolls) + 37 * len(hero.artefacts)
    )
    canvas = Canvas(WIDTH, height, p.PAPER)
    draw = canvas.draw
    draw.rectangle((0, 0, WIDTH, 46), fill=p.seat_rgb(hero.owner))
    canvas.text(
        (16, 10),
        f"{hero.name} · {c.faction(hero.faction).name}",
        22,
        p.WHITE,
        weight="bold",
        kind="title",
        key=hero.id,
    )
    where = hero.space or "in the capital"
    canvas.text((WIDTH - 16, 14), where, 16, p.WHITE, anchor="ra")
    y = 58
    stats = f"Might {hero.might} · Magic {hero.magic} · Initiative {hero.initiative} · Leadership {hero.leadership} · Overwhelm {hero.overwhelm}"
    canvas.text((16, y), stats, 15, p.INK, weight="bold", kind="stats", key=hero.id)
    y += 24
    special = [hero_ability_text(sheet.ability)]
    if sheet.master:
        special.append(f"Master of {c.creature(sheet.master).basic.name}s")
    if sheet.leader:
        special.append(f"{c.creature(sheet.leader).basic.name} Leader")
    canvas.text((16, y), "Abilities: " + ", ".join(special), 14, p.INK)
    y += 20
    canvas.text((16, y), "Schools: " + ", ".join(SCHOOL_NAMES[s] for s in hero.schools), 14, p.INK)
    y += 20
    canvas.text(
        (16, y),
        f"XP {hero.xp} (next skill costs {hero.next_level_cost}) · luck {hero.luck} · trophies {len(hero.trophies)}",
        14,
        p.INK,
    )
    y += 28
    canvas.text((16, y), f"Army ({len(hero.army)}/{hero.leadership})", 16, p.INK, weight="bold")
    y += 22
    for unit in hero.army:
        side = "elite" if unit.elite else "basic"
        label = f"{unit.name} ({side}, level {unit.level}, might {unit.might})"
        canvas.text((28, y), label, 13, p.INK, kind="creature", key=unit.creature)
        y += 17
    y += 8
    canvas.text((16, y), "Skills", 16, p.INK, weight="bold")
    y += 22
    for card in hero.skills:
        y = _card_lines(canvas, card, c.skill(card).name, y)
    canvas.text((16, y), "Artefacts (1 VP each)", 16, p.INK, weight="bold")
    y += 22
    for card in hero.artefacts:
        y = _card_lines(canvas, card, c.artefact(card).name, y)
    canvas.text((16, y), f"Scrolls: {hero.scrolls} held face down", 16, p.INK, weight="bold")
    y += 22
    if private:
        assert isinstance(view, SeatView)
        for card in view.scrolls.get(hero.id, ()):
            y = _card_lines(canvas, card, c.scroll(card).name, y)
    return canvas.finish()


def _card_lines(canvas: Canvas, card: str, name: str, y: int) -> int:
    canvas.text((28, y), name, 13, p.INK, weight="bold", kind="card", key=card, card=card)
    y += 17
    for line in card_text(card)[1:]:
        canvas.text((40, y), ellipsize(line, WIDTH - 60, 12), 12, p.INK)
        y += 16
    return y + 4


def draw_heroes(view: SeatView, *, capital: bool = False) -> Drawing:
    """Every hero sheet of the view's seat, one under the other, scrolls named (with
    ``capital``, the seat's capital board on top): a private picture (DM only).

    :raises ValueError: when the seat has neither a hero nor (with ``capital``) a capital.
    """
    sheets = [draw_hero(view, h.id) for h in view.heroes if h.owner == view.seat]
    if capital and view.seats:
        sheets.insert(0, draw_capital(view, view.seat))
    if not sheets:
        raise ValueError("this seat has no hero yet")
    height = sum(s.image.height for s in sheets) + 8 * (len(sheets) - 1)
    canvas = Canvas(WIDTH, height, p.PAGE)
    y = 0
    for sheet in sheets:
        canvas.image.paste(sheet.image, (0, y))
        for mark in sheet.marks:
            x0, y0, x1, y1 = mark.box
            canvas.marks.append(
                type(mark)(
                    mark.kind,
                    mark.key,
                    (x0, y0 + y, x1, y1 + y),
                    mark.text,
                    mark.card,
                    mark.instance,
                )
            )
        y += sheet.image.height + 8
    return canvas.finish()
