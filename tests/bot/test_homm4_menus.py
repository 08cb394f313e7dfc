"""homm4 select menus cut at 25 options (issue 16): the decision's text names every
command left out and how it is typed, the same words the console reads back; the
deployment hint and a card list's refusal say what to type."""

from __future__ import annotations

import random

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from bot.adapters import adapter_for, offered_commands, typed_command
from bot.command_table import parse_console_line
from bot.commands import ALL_SPECS
from bot.homm4.commands import slash_for
from engine.core.model import Command, Decision
from engine.core.ruleset import get_ruleset
from engine.homm4 import commands as c
from engine.homm4.state import Homm4State

HOMM4 = get_ruleset("homm4")


def _movement_with_more_than_25() -> tuple[Homm4State, Decision, list[Command]]:
    """A movement decision of a 7-section game with more than 25 offered commands (the
    computer plays both seats from seed 0 until one comes)."""
    state, _ = HOMM4.new_game(HOMM4.parse_options({"map_sections": 7}), 2, 0)
    rng = random.Random(0)
    for _ in range(800):
        decision = HOMM4.pending(state)[0]
        legal = HOMM4.legal_commands(state, decision.seat)
        if (
            decision.kind == "movement"
            and len(offered_commands(state, decision.seat, decision, legal)) > 26
        ):
            assert isinstance(state, Homm4State)
            return state, decision, legal
        state, _ = HOMM4.apply(state, decision.seat, HOMM4.ai_command(state, decision.seat, rng))
    raise AssertionError("no long movement decision in 800 commands")


def test_a_cut_movement_menu_names_the_left_out_moves_as_the_console_reads_them() -> None:
    state, decision, legal = _movement_with_more_than_25()
    ui = adapter_for("homm4").decision_ui(
        state, decision.seat, decision, 9, legal, HOMM4.default_command(state, decision.seat)
    )
    offered = offered_commands(state, decision.seat, decision, legal)
    prompt, left_line = ui.text.split("\n", 1)
    assert prompt == decision.prompt
    ends = [cmd for cmd in offered if cmd.type in ("end_purchase", "end_movement")]
    left = len(offered) - len(ends) - 25
    assert left_line.startswith(f"Not in the menu ({left}), typed as shown: ")
    typed = [entry.rsplit(": ", 1)[1] for entry in left_line.split(": ", 1)[1].split("; ")]
    assert typed and all(t.startswith("/") for t in typed)
    for line in typed:
        parsed = parse_console_line(line, ALL_SPECS)  # what the console reads back
        assert parsed.spec.kind == "play" and parsed.spec.ruleset == "homm4", line


def test_a_recruit_is_typed_with_its_army_and_card() -> None:
    recruit = c.Recruit(army=2, card=31)
    assert typed_command(*slash_for(recruit)) == "/army recruit army:2 card:#31"
    parsed = parse_console_line("/army recruit army:2 card:#31", ALL_SPECS)
    assert parsed.options == {"army": "2", "card": "#31"}


def test_the_deploy_hint_is_what_the_console_takes() -> None:
    parsed = parse_console_line("/battle deploy auto-2", ALL_SPECS)
    assert parsed.options == {"stacks": "auto-2"}
    spec = next(s for s in ALL_SPECS if s.path == ("battle", "deploy"))
    assert "auto-2" in spec.options[0].description


def test_every_written_form_of_a_suggested_deployment_reads_the_same() -> None:
    """``auto-2`` (what the bot suggests), ``auto:2``, ``auto2`` and ``auto 2`` pick the
    second suggested deployment; one past the last is refused naming the range."""
    import pytest

    from bot.errors import BadOption
    from bot.homm4.commands import PlayContext, read_stacks

    state, _ = HOMM4.new_game(HOMM4.parse_options({"map_sections": 7}), 2, 0)
    rng = random.Random(0)
    for _ in range(2000):
        decision = HOMM4.pending(state)[0]
        legal = HOMM4.legal_commands(state, decision.seat)
        deploys = [cmd for cmd in legal if cmd.type == "deploy"]
        if decision.kind == "battle_deploy" and len(deploys) >= 2:
            break
        state, _ = HOMM4.apply(state, decision.seat, HOMM4.ai_command(state, decision.seat, rng))
    else:
        raise AssertionError("no deployment with two suggestions in 2000 commands")
    assert isinstance(state, Homm4State)
    context = PlayContext(state=state, seat=decision.seat, legal=legal, decision=decision)
    for written in ("auto-2", "auto:2", "auto2", "auto 2", "AUTO-2"):
        assert read_stacks(context, written) == deploys[1], written
    assert read_stacks(context, "auto") == deploys[0]
    with pytest.raises(BadOption) as refused:
        read_stacks(context, f"auto-{len(deploys) + 1}")
    assert refused.value.message == (
        f"There are {len(deploys)} suggested deployments: /battle deploy auto-1 .. "
        f"auto-{len(deploys)} (or write the stacks, e.g. #12 #13 melee; #20 ranged)."
    )
