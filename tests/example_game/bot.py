"""Pig's bot side (the example game's adapter): its command table, its lobby option
``target`` and its picture. Importing this module registers `PigAdapter` in
`bot.adapters.ADAPTERS`; `bot.registry.add` with `GAME` makes the bot offer Pig."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from bot.adapters import ADAPTERS, CommandTable, Picture, RulesetAdapter
from bot.command_table import OptionSpec
from bot.registry import Game
from engine.core.model import seat_name
from tests.example_game import commands
from tests.example_game import rendering as _pictures  # noqa: F401  (registers the picture)
from tests.example_game.engine import PIG, PigView

if TYPE_CHECKING:
    from bot.render import Renderer

GAME = Game(PIG.id, "Pig", __name__)
"""Pig's registry line."""


class PigAdapter(RulesetAdapter):
    """Pig for the shared bot: the generic buttons (roll, hold), a status line with the
    scores, the scores picture after every move."""

    ruleset: ClassVar[str] = PIG.id
    lobby_options: ClassVar[tuple[str, ...]] = ("target",)
    lobby_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("target", "Pig: points to win", "integer", min_value=10, max_value=100),
    )
    command_table: ClassVar[CommandTable | None] = commands

    def status_lines(self, view: Any, names: Mapping[int, str]) -> list[str]:
        """Whose turn it is and both scores."""
        assert isinstance(view, PigView)
        scores = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(view.scores))
        return [f"**{seat_name(view.active)}** to roll (this turn: {view.turn_total}). {scores}."]

    def picture(self, renderer: Renderer, kind: str, view: Any) -> Picture | None:
        """The scores."""
        return renderer.draw(self.ruleset, "board", view)


ADAPTERS[PigAdapter.ruleset] = PigAdapter()
