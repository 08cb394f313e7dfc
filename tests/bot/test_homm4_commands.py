"""The command table: Discord's limits, no clashes, every player action covered, option
text read into engine commands, and autocomplete from the legal commands."""

from __future__ import annotations

import typing

import pytest

from bot.command_table import CommandSpec, OptionSpec, check_table, parse_console_line
from bot.commands import ALL_SPECS, table_problems
from bot.errors import BadOption
from bot.homm4 import commands as table
from engine.core.ruleset import Ruleset
from engine.homm4 import RULESET as HOMM4
from engine.homm4 import commands as c
from engine.homm4.options import Homm4Options
from engine.homm4.state import Homm4State

SETUP_ONLY = {"place_section"}  # manual assembly; covered by /setup section


def test_the_table_fits_discords_limits_and_nothing_clashes() -> None:
    assert table_problems() == []
    paths = [s.path for s in ALL_SPECS]
    assert len(paths) == len(set(paths))
    tops = {p[0] for p in paths}
    assert len(tops) <= 100
    for spec in ALL_SPECS:
        assert all(part == part.lower() and len(part) <= 32 for part in spec.path)
        assert 1 <= len(spec.description) <= 100
        for option in spec.options:
            assert 1 <= len(option.description) <= 100 and len(option.name) <= 32


def test_the_checker_catches_what_discord_refuses() -> None:
    bad = (
        CommandSpec(("Game", "x"), "d"),
        CommandSpec(("game", "y"), "x" * 101),
        CommandSpec(("game", "y"), "again"),
        CommandSpec(("z",), "d", (OptionSpec("a", "d"), OptionSpec("b", "d", required=True))),
        *(CommandSpec(("many", f"s{i}"), "d") for i in range(26)),
    )
    problems = "\n".join(check_table(bad))
    for expected in (
        "bad name 'Game'",
        "description of 101",
        "defined twice",
        "required option b",
        "26 subcommands",
    ):
        assert expected in problems


def test_every_player_command_of_the_engine_has_a_slash_command() -> None:
    union = typing.get_args(typing.get_args(c.Homm4Command)[0])
    types = {model.model_fields["type"].default for model in union}
    covered = {p.command_type for p in table.PLAY}
    assert types == covered
    assert len(table.PLAY) == len(covered)


def _state(seed: int = 3) -> Homm4State:
    state, _ = HOMM4.new_game(Homm4Options(), 2, seed)
    return state


def _context(state: Homm4State, seat: int) -> table.PlayContext:
    owed = next((d for d in HOMM4.pending(state) if d.seat == seat), None)
    return table.PlayContext(state, seat, HOMM4.legal_commands(state, seat), owed)


def _play_until(
    predicate: typing.Callable[[Homm4State], bool], seed: int = 3, limit: int = 3000
) -> Homm4State:
    import random

    state = _state(seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if predicate(state):
            return state
        seat = HOMM4.pending(state)[0].seat
        state, _ = HOMM4.apply(state, seat, HOMM4.ai_command(state, seat, rng))
    raise AssertionError("never reached")


def test_cards_are_read_by_number_or_name() -> None:
    state = _state()
    ctx = _context(state, 0)
    card = state.players_state[0].hand[0]
    name = table.d.card_name(state, card)
    assert table.read_card(ctx, f"#{card}") == card
    assert table.read_card(ctx, str(card)) == card
    assert table.read_card(ctx, name.upper()) in state.players_state[0].hand
    assert table.read_cards(ctx, f"#{card}, #{state.players_state[0].hand[1]}") == (
        card,
        state.players_state[0].hand[1],
    )
    with pytest.raises(BadOption, match="No card called"):
        table.read_card(ctx, "Nonexistent Beast")


def test_a_risk_stack_command_is_built_from_its_options() -> None:
    state = _state()
    hand = state.players_state[0].hand
    options = {"cards": " ".join(f"#{i}" for i in hand[:5])}
    command = table.build_command(("setup", "risk"), _context(state, 0), options)
    assert command == {"type": "choose_risk_stack", "cards": tuple(hand[:5])}
    new_state, _ = HOMM4.apply(state, 0, command)
    assert sorted(new_state.players_state[0].risk) == sorted(hand[:5])


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_deployments_are_read_from_text_and_auto() -> None:
    state = _play_until(lambda s: s.battle is not None and s.battle.stage == "deploy")
    seat = HOMM4.pending(state)[0].seat
    ctx = _context(state, seat)
    auto = table.build_command(("battle", "deploy"), ctx, {"stacks": "auto"})
    assert auto == ctx.legal[0].model_dump(mode="json")
    first = ctx.legal[0]
    assert isinstance(first, c.Deploy)
    text = table.d.deployment_text(first)
    rebuilt = table.build_command(("battle", "deploy"), ctx, {"stacks": text})
    assert HOMM4.parse_command(rebuilt) == first
    with pytest.raises(BadOption, match="names no card"):
        table.build_command(("battle", "deploy"), ctx, {"stacks": "melee; #1 ranged"})


def test_slash_options_round_trip_every_legal_command_of_a_game() -> None:
    import random

    state = _state(7)
    rng = random.Random(7)
    checked = 0
    for _ in range(400):
        if HOMM4.result(state).finished:
            break
        seat = HOMM4.pending(state)[0].seat
        ctx = _context(state, seat)
        for command in ctx.legal[:40]:
            path, options = table.slash_for(command)
            built = HOMM4.parse_command(table.build_command(path, ctx, options))
            assert built == command, (path, options)
            checked += 1
        state, _ = HOMM4.apply(state, seat, HOMM4.ai_command(state, seat, rng))
    assert checked > 500


def test_autocomplete_suggests_at_most_25_legal_values() -> None:
    state = _play_until(lambda s: s.phase == "movement" and HOMM4.pending(s)[0].kind == "movement")
    seat = HOMM4.pending(state)[0].seat
    ctx = _context(state, seat)
    armies = table.suggest(("army", "move"), ctx, "army", "", {})
    assert 1 <= len(armies) <= 25
    army = armies[0][1]
    hexes = table.suggest(("army", "move"), ctx, "to", "", {"army": army})
    assert 1 <= len(hexes) <= 25
    legal = {m.to for m in ctx.legal if isinstance(m, c.Move) and str(m.army) == army}
    assert {value for _, value in hexes} <= legal
    assert all(len(name) <= 100 and len(value) <= 100 for name, value in hexes)
    assert table.suggest(("army", "move"), ctx, "nonexistent", "", {}) == []


def test_a_move_alone_is_suggested_as_with_none_and_typed_back() -> None:
    """/army move with: suggested a move without other Armies as an empty name and value
    (Discord refuses the whole answer); it is now "no other Army" with the value none,
    which builds the same command as leaving with: out."""
    state = _play_until(lambda s: s.phase == "movement" and HOMM4.pending(s)[0].kind == "movement")
    seat = HOMM4.pending(state)[0].seat
    ctx = _context(state, seat)
    army, to = next(
        (m.army, m.to) for m in ctx.legal if isinstance(m, c.Move) and not m.with_armies
    )
    given = {"army": str(army), "to": to}
    pairs = table.suggest(("army", "move"), ctx, "with", "", given)
    assert ("no other Army (this Army alone)", "none") in pairs
    assert all(name and value for name, value in pairs)
    alone = HOMM4.parse_command(table.build_command(("army", "move"), ctx, given))
    typed = table.build_command(("army", "move"), ctx, {**given, "with": "none"})
    assert HOMM4.parse_command(typed) == alone and alone in ctx.legal
    assert isinstance(alone, c.Move) and alone.with_armies == ()


def test_console_lines_parse_against_the_same_table() -> None:
    parsed = parse_console_line('/battle deploy stacks:"#12 #13 melee; #20 ranged"', ALL_SPECS)
    assert parsed.spec.path == ("battle", "deploy")
    assert parsed.options == {"stacks": "#12 #13 melee; #20 ranged"}
    parsed = parse_console_line("/game new players:3 assembly:manual", ALL_SPECS)
    assert parsed.options == {"players": 3, "assembly": "manual"}
    from bot.command_table import LineError

    with pytest.raises(LineError, match="needs one of"):
        parse_console_line("/purchase", ALL_SPECS)
    with pytest.raises(LineError, match="no option"):
        parse_console_line("/purchase buy colour:red card:#1", ALL_SPECS)
    with pytest.raises(LineError, match="needs card"):
        parse_console_line("/purchase buy", ALL_SPECS)
    with pytest.raises(LineError, match="whole number"):
        parse_console_line("/game new players:many", ALL_SPECS)


def test_console_values_without_a_name_fill_the_required_options_in_order() -> None:
    from bot.command_table import LineError

    assert parse_console_line("/setup army F3", ALL_SPECS).options == {"hex": "F3"}
    parsed = parse_console_line("/army move 1 E3 with:2", ALL_SPECS)
    assert parsed.options == {"army": "1", "to": "E3", "with": "2"}
    parsed = parse_console_line("/purchase buy #12 C4", ALL_SPECS)
    assert parsed.options == {"card": "#12", "town": "C4"}
    assert parse_console_line("/turn close #15", ALL_SPECS).options == {"card": "#15"}
    with pytest.raises(LineError, match=r"takes: \[card\]"):
        parse_console_line("/turn close #15 #16", ALL_SPECS)
    with pytest.raises(LineError, match=r"needs hex \(an edge hex"):
        parse_console_line("/setup army", ALL_SPECS)


def test_states_are_not_changed_by_building_or_suggesting() -> None:
    state = _state(4)
    before = Ruleset.dump_state(state)
    ctx = _context(state, 0)
    table.suggest(("setup", "risk"), ctx, "cards", "#", {})
    table.build_command(
        ("setup", "risk"),
        ctx,
        {"cards": " ".join(f"#{i}" for i in state.players_state[0].hand[:5])},
    )
    assert Ruleset.dump_state(state) == before


def test_long_labels_are_clipped_at_a_word_with_an_ellipsis() -> None:
    from bot.adapters import clip

    label = "Deploy: Melee: Squire ×2, Pikeman ×2, Crusader; Ranged: Mother Ysolde, Crossbowman ×2"
    assert (
        clip(label, 80) == "Deploy: Melee: Squire ×2, Pikeman ×2, Crusader; Ranged: Mother Ysolde…"
    )
    assert clip("short", 80) == "short"
    assert len(clip("x" * 120, 80)) == 80


def test_the_board_is_shown_when_a_site_changes_hands_without_a_move() -> None:
    from bot.homm4.adapter import picture_after

    before = _play_until(lambda s: s.phase == "movement" and bool(s.sites))
    after = before.model_copy(deep=True)
    assert picture_after(before, after, [c.PassIdentify(site="A1")]) is None
    after.sites[0].owner = 1 if after.sites[0].owner != 1 else 0
    assert picture_after(before, after, [c.Identify(site="A1", card=3)]) == "board"
