"""/help COMMAND (issue 16): each option's format, allowed values and default, with an
example, in Discord and at the console alike; a refused card list or deck list says how
one is written."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from bot import local
from bot.errors import BadOption, DeckProblem
from bot.homm4.adapter import DECK_LIST_FORM
from bot.homm4.commands import CARD_LIST_FORM, PlayContext, read_cards
from engine.core.ruleset import get_ruleset
from storage import open_repository
from tests.bot.service_helpers import CHANNEL, GUILD, make_service, person


async def _help(service: object, command: str) -> str:
    from bot.service import GameService

    assert isinstance(service, GameService)
    out = await service.run(
        person(1), ("help",), {"command": command}, channel_id=CHANNEL, guild_id=GUILD
    )
    assert out.reply is not None and out.reply.ephemeral
    assert len(out.reply.text) <= 2000
    return out.reply.text


async def test_help_for_a_command_gives_formats_values_defaults_and_an_example(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        text = await _help(service, "/mod undo")
        assert text.splitlines()[:4] == [
            "**/mod undo** — Undo the last move, or the last count: moves (each undo is logged)",
            "Options (written name:value):",
            "• count (optional): a whole number 1-50; default 1 — how many moves",
            "• reason (optional): text (at most 300) — why (shown in the channel and kept "
            "in the log)",
        ]
        assert "Example: /mod undo count:1" in text
        deploy = await _help(service, "battle deploy")
        assert 'Example: /battle deploy stacks:"#12 #13 melee; #20 ranged"' in deploy
        orders = await _help(service, "mmh battle orders")
        assert "• cards (optional): one of ask, windows (pass windows), never — Cards" in (orders)
        group = await _help(service, "mod")
        assert group.splitlines()[0] == "**/mod** — /help mod <command> for one:"
        assert "/mod kick seat [reason] — Remove a player" in group
        with pytest.raises(BadOption) as refused:
            await _help(service, "gam nwe")
        assert refused.value.message.startswith(
            "There is no command /gam nwe. Did you mean /game new"
        )
    finally:
        await repo.close()


async def test_help_game_new_names_every_games_words_and_a_lobby_its_own(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        text = await _help(service, "game new")
        assert 'Example: /game new ruleset:homm4 options:"morale luck flying teams=1+3/2+4"' in text
        assert (
            "homm3: mode:skirmish|adventure|map, size:short|medium|large, heroes:text, siege:yes|no,"
            " time_limit:yes|no;" in text
        )
        assert "mmh: length:quick|standard|epic, factions:text;" in text
        assert "heroforge: layout:auto|crossroads|islands|ring|frontier" in text
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, ruleset="mmh", seed=2)
        lobby = await _help(service, "game options")
        assert 'Example: /game options options:"length:quick factions:haven,necropolis"' in lobby
        assert "• length:quick|standard|epic — Might & Magic Heroes: 3, 4 or 5 week cards" in lobby
        assert "homm4" not in lobby.split("game by game")[1]
        pairs = await service.autocomplete(person(1), ("help",), "command", "game o")
        assert [value for _, value in pairs] == ["game options"]
    finally:
        await repo.close()


async def test_the_console_answers_help_for_a_command(tmp_path: Path) -> None:
    from bot.service import GameService

    repo = await open_repository(tmp_path / "local.db", synchronous="NORMAL")
    console = local.Console(GameService(repo, renderer=None), 1, 1, tmp_path / "i", seed=3)
    try:
        await console.start()
        text = await console.handle("/help battle deploy")
        assert "• stacks (required): text, suggested as you type" in text
        assert "auto-2" in text
    finally:
        await repo.close()


def test_a_refused_card_list_says_how_one_is_written() -> None:
    rules = get_ruleset("homm4")
    state, _ = rules.new_game(rules.parse_options({}), 2, 1)
    context = PlayContext(state=state, seat=0, legal=[], decision=None)
    with pytest.raises(BadOption) as refused:
        read_cards(context, "#3 Nosuchcard")
    assert refused.value.message == (
        f"No card called 'Nosuchcard' is in reach; use its number, e.g. #17. {CARD_LIST_FORM}"
    )
    assert "e.g. #12 #13 #20" in CARD_LIST_FORM


async def test_a_refused_deck_list_says_how_one_is_written(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        with pytest.raises(DeckProblem) as bad:
            await service.deck_import(person(1), None, name="x", text="3x Pikeman, 2x Nosuch")
        assert bad.value.message.endswith(DECK_LIST_FORM)
        assert "3x Orc; 2x Wolf; Asylum" in DECK_LIST_FORM
    finally:
        await repo.close()
