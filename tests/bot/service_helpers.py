"""Helpers for the GameService tests: a fake clock, a renderer that records what public
pictures showed, a started game, and players who choose legal commands."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import BaseModel

from bot import customids
from bot.actors import Actor
from bot.homm4 import adapter
from bot.homm4.commands import slash_for
from bot.outbox import Button, Image, Outbox, Select
from bot.service import GameService
from engine.core.model import Command
from engine.core.ruleset import get_ruleset
from engine.homm4 import RULESET as HOMM4
from engine.homm4.state import Homm4State
from storage import open_repository
from storage.records import Game
from storage.sqlite import SqliteRepository

CHANNEL = 500
GUILD = 900


class FakeClock:
    """A settable UTC clock (starts at 2030-01-01 12:00)."""

    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@dataclass
class RecordingRenderer:
    """Draws public pictures with the real drawing functions (`rendering.pictures`) and
    records which card instances each one showed (its layout marks); private pictures and
    cards are not drawn (cheap bytes)."""

    shown: list[tuple[str, set[int]]] = field(default_factory=list)

    def draw(self, ruleset: str, kind: str, view: BaseModel) -> Image:
        """`bot.render.Renderer.draw`, recording a public picture's card instances."""
        from rendering.pictures import picture_kind

        spec = picture_kind(ruleset, kind)
        shown = spec.prepare(view)  # a private picture refuses anything but the seat's view
        if not spec.private and kind != "card":
            drawing = spec.draw(shown)
            self.shown.append((kind, drawing.instances()))
        return Image(spec.filename, kind.encode(), spec.description)


class Served(NamedTuple):
    """The `served` fixture (tests/bot/conftest.py): a fake clock, a repository on a fresh
    SQLite file and a service on it reading that clock (no pictures)."""

    clock: FakeClock
    repo: SqliteRepository
    service: GameService


async def make_service(tmp_path: Path, **kwargs: object) -> tuple[SqliteRepository, GameService]:
    """A repository on a fresh SQLite file and a service on it (no pictures by default)."""
    repo = await open_repository(tmp_path / "service.db", synchronous="NORMAL")
    kwargs.setdefault("renderer", None)
    return repo, GameService(repo, **kwargs)  # type: ignore[arg-type]


def person(number: int, *, moderator: bool = False, dm: bool = False) -> Actor:
    """Console-style actor ``number`` (user id = number)."""
    return Actor(number, f"Player {number}", is_moderator=moderator, in_dm=dm)


async def started_game(
    service: GameService,
    *,
    humans: int = 1,
    ai: int = 1,
    seed: int = 11,
    channel: int = CHANNEL,
    deadline_hours: int | None = None,
    ruleset: str = "homm4",
    **options: Any,
) -> Game:
    """Open a lobby of ``ruleset`` with the lobby ``options``, seat ``humans`` people
    (users 1..n) and ``ai`` computers, start it."""
    await service.new_game(
        person(1),
        channel,
        guild_id=GUILD,
        ruleset=ruleset,
        seed=seed,
        deadline_hours=deadline_hours,
        **options,
    )
    for number in range(2, humans + 1):
        await service.join(person(number), channel)
    if ai:
        await service.add_ai(person(1), channel, count=ai)
    await service.start(person(1), channel)
    game = await service.repo.game_in_channel(channel)
    assert game is not None
    return game


async def current(service: GameService, game_id: int) -> tuple[Game, Any]:
    """The game row and its state (loaded by the game's ruleset: a `Homm4State` for
    homm4)."""
    game = await service.repo.get_game(game_id)
    return game, get_ruleset(game.ruleset).load_state(game.state_json or "")


def choose(state: Homm4State, seat: int) -> tuple[int, Command]:
    """A legal command for ``seat`` chosen like the computer player (progress-minded), and
    its index in the legal commands."""
    legal = HOMM4.legal_commands(state, seat)
    pick = adapter.ai_choice(state, seat, 99)
    if pick in legal:
        return legal.index(pick), pick
    return 0, legal[0]


def option_id(game: Game, state: Homm4State, index: int, command: Command) -> str:
    """The custom id of a button for legal command ``index``."""
    token = customids.option_token(index, command.model_dump_json())
    return customids.encode(game.id, state.version, "opt", token)


async def click_choice(service: GameService, game_id: int, actor: Actor, seat: int) -> Outbox:
    """Play one legal command for ``seat`` by clicking its (made-up) button."""
    game, state = await current(service, game_id)
    index, command = choose(state, seat)
    return await service.click(actor, option_id(game, state, index, command))


async def slash_choice(service: GameService, game_id: int, actor: Actor, seat: int) -> Outbox:
    """Play one legal command for ``seat`` by typing its slash command."""
    game, state = await current(service, game_id)
    _, command = choose(state, seat)
    path, options = slash_for(command)
    return await service.run(actor, path, options, channel_id=game.channel_id, guild_id=GUILD)


_GAME_NUMBER = re.compile(r"(?i)game #\d+|deck[^#\n]*\(#\d+")
_CARD_NUMBER = re.compile(r"#(\d+)")


def named_cards(texts: Iterable[str]) -> set[int]:
    """Card numbers (``#17``) named in ``texts`` (game and deck numbers left out)."""
    found: set[int] = set()
    for text in texts:
        cleaned = _GAME_NUMBER.sub("", text)
        found.update(int(m) for m in _CARD_NUMBER.findall(cleaned))
    return found


def channel_texts(out: Outbox) -> list[str]:
    """Every text of the outbox's channel posts, button labels and select options."""
    texts: list[str] = []
    for post in out.posts:
        texts.append(post.text)
        for component in post.components:
            if isinstance(component, Button):
                texts.append(component.label)
            elif isinstance(component, Select):
                texts.append(component.placeholder)
                texts += [o.label for o in component.options]
                texts += [o.description for o in component.options]
    return texts
