"""The bot's side of Reacting to Combat (homm3turn:reacting-to-combat): the Town action
commands and ``/homm3 adventure start-combat`` answer the window before the final Combat,
by DM buttons or typed commands; other commands are refused with the ones that apply."""

from __future__ import annotations

import pytest

from bot.adapters import PlayRequest
from bot.errors import WrongStage
from bot.homm3.adapter import Homm3Adapter
from bot.homm3.commands import build_command, require_phase, slash_for
from engine.homm3 import commands as c
from tests.bot import privacy_helpers as ph
from tests.homm3.helpers import RULES
from tests.homm3.test_town_reaction import _to_window

pytestmark = pytest.mark.rule("homm3turn:reacting-to-combat")


def _window():  # type: ignore[no-untyped-def]
    state, starter = _to_window(first_gold=10)
    state, _ = RULES.apply(state, 1 - starter, {"type": "end_turn"})
    decision = RULES.pending(state)[0]
    assert decision.kind == "town_reaction" and decision.seat == starter
    return state, starter, decision


def test_the_window_is_offered_by_dm_with_a_muster_and_start_the_combat() -> None:
    state, starter, decision = _window()
    adapter = Homm3Adapter()
    legal = RULES.legal_commands(state, starter)
    default = RULES.default_command(state, starter)
    ui = adapter.decision_ui(state, starter, decision, 1, legal, default)
    labels = ph.component_texts(ui.components)
    assert decision.private and ui.private
    assert any("Start the Combat" in label for label in labels)
    assert any("Griffins" in label for label in labels)
    # the prompt (posted in the channel as the wait notice) names no card
    assert not ph.channel_checker(state, state).leaks([decision.prompt])


def test_typed_town_commands_and_start_combat_answer_the_window() -> None:
    state, starter, decision = _window()
    request = PlayRequest(state, starter, RULES.legal_commands(state, starter), decision)
    muster = build_command(("homm3", "adventure", "muster"), request, {"recruit": "Griffins"})
    assert muster["type"] == "muster" and tuple(muster["recruit"]) == ("griffins",)
    assert slash_for(c.StartCombat()) == (("homm3", "adventure", "start-combat"), {})
    assert build_command(("homm3", "adventure", "start-combat"), request, {}) == {
        "type": "start_combat"
    }
    with pytest.raises(WrongStage, match="start-combat"):
        require_phase(("homm3", "adventure", "end"), request)
