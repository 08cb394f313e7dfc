"""House rule 6 asked of the engines: every decision that could show a hidden card is
built ``private`` by its engine (`Decision.private`), and every command naming one is
flagged by `Ruleset.names_hidden_card`, so the bot needs no table of its own.

Over random games of every ruleset, for each decision owed: its prompt (always posted in
the channel) names no hidden card; a public decision's channel buttons and the labels of
its commands that the engine does not flag name none either; the public view names none.
Hidden cards are found independently of the engines (`privacy_helpers.secrets`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from bot.adapters import adapter_for, offered_commands
from engine.core.model import Decision
from engine.core.ruleset import get_ruleset
from tests.bot import privacy_helpers as ph

GAMES = [
    ("homm4", {}, 3, True),
    ("homm4", {"pre_developed": {"primary": 1, "secondary": 1}, "underground": 1}, 2, False),
    ("homm3", {"mode": "adventure"}, 2, True),
    ("homm3", {}, 2, True),
    ("mmh", {"length": "quick"}, 3, True),
    ("heroforge", {}, 2, False),
]
"""Ruleset, options, players, and whether these games must reach a command naming a hidden
card (Hero Forge hides nothing; the second homm4 set-up spends its moves on set-up)."""


@pytest.mark.slow
@pytest.mark.rule("homm4:card-types")
@pytest.mark.parametrize(("ruleset", "options", "players", "flags"), GAMES)
def test_every_decision_that_can_show_a_hidden_card_is_private(
    ruleset: str, options: dict[str, Any], players: int, flags: bool
) -> None:
    rules = get_ruleset(ruleset)
    adapter = adapter_for(ruleset)
    seen: Counter[str] = Counter()
    for seed in range(2):
        state = rules.new_game(rules.parse_options(options), players, seed)[0]
        rng = random.Random(seed)
        for _ in range(300):
            if rules.result(state).finished:
                break
            channel = ph.channel_checker(state, state)
            view = rules.public_view(state).model_dump(mode="json")
            assert not channel.leaks(ph.json_strings(view), ids=True)
            for decision in rules.pending(state):
                where = f"seed {seed}, version {state.version}, {decision.kind}"
                assert not channel.leaks([decision.prompt], ids=True), where
                legal = rules.legal_commands(state, decision.seat)
                if decision.private:
                    seen["private"] += 1
                    continue
                seen["public"] += 1
                shown = offered_commands(state, decision.seat, decision, legal)
                seen["flagged"] += len(legal) - len(shown)
                labels = [adapter.describe(state, cmd) for cmd in shown]
                labels += [adapter.describe_for(state, decision.seat, cmd) for cmd in shown]
                assert not channel.leaks(labels), where
                ui = adapter.decision_ui(state, decision.seat, decision, 1, legal, None)
                assert not ui.private, where
                assert not channel.leaks([ui.text, *ph.component_texts(ui.components)]), where
            decision = rules.pending(state)[0]
            command = rules.ai_command(state, decision.seat, rng)
            state = rules.apply(state, decision.seat, command)[0]
    assert seen["public"] > 50
    assert (seen["private"] > 0) == (ruleset != "heroforge"), seen
    if flags:
        assert seen["flagged"] > 0, seen


@pytest.mark.rule("homm3bf:adventure-mode.round-structure")
def test_the_check_finds_a_private_choice_built_public() -> None:
    """The check above can fail: the starting player's keep-one-of-3 Adventure cards,
    were it built public, would put the drawn cards on channel buttons."""
    rules = get_ruleset("homm3")
    state = rules.new_game(rules.parse_options({"mode": "adventure"}), 2, 7)[0]
    (decision,) = rules.pending(state)
    assert decision.kind == "choose_adventure_keep" and decision.private
    public = decision.model_copy(update={"private": False})
    legal = rules.legal_commands(state, decision.seat)
    ui = adapter_for("homm3").decision_ui(state, decision.seat, public, 1, legal, None)
    hits = ph.channel_checker(state, state).leaks(ph.component_texts(ui.components))
    assert len(hits) >= 3, hits  # each of the three drawn cards


@pytest.mark.rule("mmh:game-material.cards")
def test_a_held_scroll_is_never_on_a_channel_button() -> None:
    """mmh: a command naming a scroll a hero holds face down is flagged by the engine and
    left out of a public decision's buttons; one naming no held card is not."""
    from engine.mmh import commands as c

    rules = get_ruleset("mmh")
    state = rules.new_game(rules.parse_options({"length": "quick"}), 2, 3)[0]
    rng = random.Random(3)
    while not state.heroes:
        decision = rules.pending(state)[0]
        state = rules.apply(state, decision.seat, rules.ai_command(state, decision.seat, rng))[0]
    hero = next(iter(state.heroes.values()))
    scroll, other = state.scroll_deck[:2]
    hero.scrolls.append(scroll)
    state.scroll_deck.remove(scroll)
    assert rules.names_hidden_card(state, hero.owner, c.UseCard(card=scroll))
    assert not rules.names_hidden_card(state, hero.owner, c.UseCard(card=other))
    assert not rules.names_hidden_card(state, hero.owner, c.PassWindow())
    decision = Decision(seat=hero.owner, kind="battle_window", prompt="", commands=())
    legal = [c.UseCard(card=scroll), c.PassWindow()]
    assert offered_commands(state, hero.owner, decision, legal) == [c.PassWindow()]
    mine = decision.model_copy(update={"private": True})
    assert offered_commands(state, hero.owner, mine, legal) == legal
