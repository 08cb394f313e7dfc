"""The games the bot plays: one line per game, the flagship first.

Rule: none. Each `Game` names its ruleset id, the name it has in /game new's ruleset
choice, and the module that holds its bot side (``bot.<game>.adapter``; importing it
registers the game's `RulesetAdapter` in `bot.adapters.ADAPTERS` and, through its engine
import, the engine ruleset). Everything the shared bot knows of a game comes through
that adapter: the shared modules (``bot/*.py``, ``bot/cogs/``) name no ruleset, and only
this module names the games' packages (an import-linter contract in pyproject keeps it
so). Adding a game is its ``engine/<game>/``, ``rendering/<game>/`` and ``bot/<game>/``
folders plus one line in `SHIPPED`.

The first game is the flagship: the default of /game new and of the console, and the
game whose rules and cards /rules and /card show outside any game's channel.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """One game the bot plays.

    Attributes:
        ruleset: the engine ruleset id (``"homm4"``), also the game's key in storage.
        choice: its name in /game new's ruleset choice (at most 100 characters).
        adapter: the module whose import registers its bot adapter (``"bot.homm4.adapter"``).
    """

    ruleset: str
    choice: str
    adapter: str


SHIPPED: tuple[Game, ...] = (
    Game("homm4", "Heroes of Might & Magic IV card game", "bot.homm4.adapter"),
    Game("heroforge", "Hero Forge", "bot.heroforge.adapter"),
    Game("homm3", "Heroes III (map game, Battlefield Adventure and Skirmish)", "bot.homm3.adapter"),
    Game("mmh", "Might & Magic Heroes", "bot.mmh.adapter"),
)
"""The games this package ships, the flagship first (the order of /game new's choices
and of the slash commands)."""

_GAMES: list[Game] = list(SHIPPED)
_LOADED: set[str] = set()


def games() -> tuple[Game, ...]:
    """Every game the bot plays now: `SHIPPED`, then those added with `add`, in order."""
    return tuple(_GAMES)


def flagship() -> str:
    """The first game's ruleset id (the default game; /card and /rules outside a game)."""
    return _GAMES[0].ruleset


def add(game: Game) -> None:
    """Play ``game`` too, after the shipped ones (a game kept outside this package, such as
    the tests' example game); adding the same game again changes nothing.

    :raises ValueError: if another game already has that ruleset id.
    """
    for known in _GAMES:
        if known.ruleset == game.ruleset:
            if known == game:
                return
            raise ValueError(f"A game with ruleset id {game.ruleset!r} is already registered")
    _GAMES.append(game)


def remove(ruleset: str) -> None:
    """Stop offering the added game ``ruleset`` (its adapter stays importable).

    :raises ValueError: for a shipped game or one not added.
    """
    if any(g.ruleset == ruleset for g in SHIPPED):
        raise ValueError(f"{ruleset!r} is a shipped game")
    found = [g for g in _GAMES if g.ruleset == ruleset]
    if not found:
        raise ValueError(f"No added game {ruleset!r}")
    _GAMES.remove(found[0])


def load() -> tuple[Game, ...]:
    """Import every game's adapter module once (registering its adapter) and return
    `games`. :raises ModuleNotFoundError: for a game whose adapter module is missing."""
    for game in _GAMES:
        if game.adapter not in _LOADED:
            importlib.import_module(game.adapter)
            _LOADED.add(game.adapter)
    return games()
