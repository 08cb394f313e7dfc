"""Counted words read right at 1: "1 card", "2 cards", never "1 cards" or "card(s)"."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from bot.adapters import PlayRequest, adapter_for
from bot.outbox import Select
from engine.core.ruleset import get_ruleset
from tests.bot.service_helpers import CHANNEL, GUILD, make_service, person


async def test_adding_one_computer_player_says_so_in_the_singular(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, players=4)
        one = await service.add_ai(person(1), CHANNEL, count=1)
        assert one.reply is not None and one.reply.text == "Added 1 computer player."
        assert "Player 1 added 1 computer player." in one.posts[0].text
        two = await service.add_ai(person(1), CHANNEL, count=2)
        assert two.reply is not None and two.reply.text == "Added 2 computer players."
    finally:
        await repo.close()


def test_homm3_empower_with_one_card() -> None:
    from bot.homm3.adapter import describe
    from engine.homm3 import commands as c

    rules = get_ruleset("homm3")
    state, _ = rules.new_game(rules.parse_options({}), 2, 7)
    first, second, third = sorted(state.cards)[:3]
    assert describe(state, c.Play(card=first, power=(second,))).endswith(", Empower with 1 card")
    assert describe(state, c.Play(card=first, power=(second, third))).endswith(
        ", Empower with 2 cards"
    )


@pytest.mark.rule("heroforge:enchantments")
def test_heroforge_enchantment_in_one_list_and_a_fort_with_one_unit() -> None:
    from bot.heroforge.commands import target_label
    from bot.heroforge.components import components, enchantment_text
    from engine.heroforge.catalog import load_catalog
    from tests.heroforge.helpers import fort, started

    texts = {value: text for _label, value, _keys, _spec, text in components()}
    assert texts["enchantment:windfall"].endswith(" In the ready-made list: Fortunes 1.")
    spec = load_catalog().lists["fortunes"].enchantments[0]
    assert enchantment_text(spec, ["Fortunes 1", "Omens 4"]).endswith(
        " In the ready-made lists: Fortunes 1, Omens 4."
    )
    state = started()
    built = fort(state, 1, "PL", 1, 1, 2)
    request = PlayRequest(state=state, seat=0, legal=(), decision=None)
    assert target_label(request, f"fort:{built.id}") == f"Blue's fort F{built.id} (1 unit)"
    built = fort(state, 1, "PL", 3, 3, 2, 3)
    assert target_label(request, f"fort:{built.id}") == f"Blue's fort F{built.id} (2 units)"


@pytest.mark.rule("mmh:course-of-play")
def test_mmh_status_with_one_week_card_left_and_a_one_creature_army() -> None:
    rules = get_ruleset("mmh")
    state, _ = rules.new_game(rules.parse_options({}), 2, 5)
    while state.phase != "play":
        owed = rules.pending(state)[0]
        state, _ = rules.apply(state, owed.seat, rules.default_command(state, owed.seat))
    state.week_stack = state.week_stack[:1]
    hero = next(iter(state.heroes.values()))
    hero.army = hero.army[:1]
    lines = adapter_for("mmh").status_lines(rules.public_view(state), {})
    assert lines[0] == "Round 1 (no week card yet); 1 week card left; 12 VP win. **Blue** to play."
    assert lines[1].endswith("; Sandor (capital, 1 creature)")
    assert lines[2].endswith("; Anton (capital, 8 creatures)")


@pytest.mark.rule("homm4:setup")
def test_homm4_one_card_for_the_risk_stack_and_in_the_draw_deck() -> None:
    from bot.homm4 import adapter

    rules = get_ruleset("homm4")
    state, _ = rules.new_game(rules.parse_options({}), 2, 11)
    owed = rules.pending(state)[0]
    assert owed.kind == "choose_risk_stack"
    player = state.players_state[owed.seat]
    player.hand = player.hand[:1]
    player.deck = player.deck[:1]
    legal = rules.legal_commands(state, owed.seat)
    menus = adapter._multi_select(state, owed.seat, owed, 1, legal)
    assert isinstance(menus[0], Select)
    assert menus[0].placeholder == "Choose 1 card for your Risk Stack"
    text = adapter.hand_text(state, owed.seat, game_id=1, channel_id=CHANNEL)
    assert text.splitlines()[-1] == "Draw deck: 1 card; discard pile: 0."


def test_no_command_or_option_description_hedges_a_plural() -> None:
    from bot.commands import ALL_SPECS

    texts = [spec.description for spec in ALL_SPECS]
    texts += [option.description for spec in ALL_SPECS for option in spec.options]
    assert texts and not [text for text in texts if "(s)" in text]
    undo = next(spec for spec in ALL_SPECS if spec.path == ("mod", "undo"))
    assert undo.description == "Undo the last move, or the last count: moves (each undo is logged)"
