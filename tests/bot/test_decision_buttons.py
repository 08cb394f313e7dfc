"""The generic decision UI (bot.adapters.decision_buttons): buttons for a few choices, a
select menu of at most 25 for many, whose placeholder tells a player how to reach the rest."""

from __future__ import annotations

from typing import Literal

from bot.adapters import LEFT_OUT_LIMIT, MAX_BUTTONS, decision_buttons
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
    assert select.placeholder == (
        "Choose (25 of 37 shown; the others are typed, as the message says)…"
    )
    assert len(select.placeholder) <= 150  # Discord's limit for a placeholder


def test_a_cut_menu_names_what_it_left_out_and_how_to_type_each() -> None:
    legal = [Pick(n=i) for i in range(30)]
    ui = decision_buttons(
        DECISION,
        7,
        3,
        legal,
        legal[0],
        lambda cmd: f"hex {cmd.model_dump()['n']}",
        typed=lambda cmd: f"/pick hex:{cmd.model_dump()['n']}",
    )
    # five commands differing only in their last value: one entry, the values as /help
    # writes a choice (a short line on a phone, not the same words five times)
    assert (
        ui.text
        == "Red picks a hex.\nNot in the menu (5), typed as shown: hex: /pick hex:25|26|27|28|29"
    )
    mixed = decision_buttons(
        DECISION,
        7,
        3,
        legal,
        legal[0],
        lambda cmd: (
            f"hex {cmd.model_dump()['n']}" + (" (Town)" if cmd.model_dump()["n"] == 27 else "")
        ),
        typed=lambda cmd: f"/pick hex:{cmd.model_dump()['n']}",
    )
    assert mixed.text == (
        "Red picks a hex.\nNot in the menu (5), typed as shown: hex: /pick hex:25|26|28|29; "
        "hex 27 (Town): /pick hex:27"
    )
    many = decision_buttons(
        DECISION, 7, 3, [Pick(n=i) for i in range(200)], None, lambda cmd: "x" * 80
    )
    assert len(many.text) < len(DECISION.prompt) + 1 + LEFT_OUT_LIMIT
    assert many.text.endswith("… 165 more (see /help)")


def test_a_menu_that_holds_everything_adds_nothing_to_the_text() -> None:
    assert decision_buttons(DECISION, 7, 3, [Pick(n=i) for i in range(25)], None, str).text == (
        DECISION.prompt
    )


def test_a_whole_menu_just_says_choose() -> None:
    select = next(c for c in _ui(25) if isinstance(c, Select))
    assert (len(select.options), select.placeholder) == (25, "Choose…")
