"""The generic decision UI (bot.adapters.decision_buttons): buttons for a few choices, a
select menu of at most 25 for many, whose placeholder tells a player how to reach the rest."""

from __future__ import annotations

from typing import Literal

from bot.adapters import MAX_BUTTONS, decision_buttons
from bot.outbox import Button, Select
from engine.core.model import Command, Decision


class Pick(Command):
    type: Literal["pick"] = "pick"
    n: int


DECISION = Decision(seat=0, kind="pick", prompt="Red picks a hex.", commands=("pick",))


def _ui(count: int) -> tuple[object, ...]:
    legal = [Pick(n=i) for i in range(count)]
    return decision_buttons(
        DECISION, 7, 3, legal, legal[0], lambda cmd: f"hex {cmd.model_dump()['n']}"
    ).components


def test_few_choices_are_buttons_with_the_default_first() -> None:
    components = _ui(MAX_BUTTONS)
    assert all(isinstance(c, Button) for c in components)
    assert [c.label for c in components if isinstance(c, Button)][:2] == ["hex 0", "hex 1"]
    assert [c.style for c in components if isinstance(c, Button)][:2] == ["primary", "secondary"]


def test_a_cut_menu_says_how_many_are_shown_and_how_to_reach_the_others() -> None:
    components = _ui(37)
    select = next(c for c in components if isinstance(c, Select))
    assert len(select.options) == 25
    assert select.placeholder == "Choose (25 of 37 shown; the others: type the command, /help)…"
    assert len(select.placeholder) <= 150  # Discord's limit for a placeholder


def test_a_whole_menu_just_says_choose() -> None:
    select = next(c for c in _ui(25) if isinstance(c, Select))
    assert (len(select.options), select.placeholder) == (25, "Choose…")
