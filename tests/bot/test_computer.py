"""Computer players in the bot (`bot.computer`, issue 19): a seat's level, the away level,
the settings, and the search run off the event loop (in the drawing processes)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

import engine.rulesets  # noqa: F401
from bot.computer import ComputerPlayers, computer_command
from bot.errors import BadOption
from bot.render import PictureRenderer
from bot.settings import Settings
from engine.core.errors import InvalidInput
from engine.core.model import GameState
from engine.core.ruleset import get_ruleset
from engine.core.search import Budget, choose

SMALL = Budget(iterations=3, seconds=None, rollout_commands=5)


def _position() -> tuple[GameState, int]:
    rules = get_ruleset("heroforge")
    state, _ = rules.new_game(rules.parse_options({}), 2, 4)
    rng = random.Random(4)
    while True:
        seat = rules.pending(state)[0].seat
        if len(rules.legal_commands(state, seat)) > 1 and state.version > 6:
            return state, seat
        state, _ = rules.apply(state, seat, rules.ai_command(state, seat, rng))


def test_a_seat_plays_at_its_level_and_a_person_at_the_away_level() -> None:
    players = ComputerPlayers(away_level="hard")
    assert players.level_of("normal", is_ai=True) == "normal"
    assert players.level_of(None, is_ai=True) == "easy"  # stored before schema 11
    assert players.level_of(None, is_ai=False) == "hard"
    assert ComputerPlayers().away_level == "easy"
    with pytest.raises(InvalidInput, match="Levels: easy, normal, hard"):
        players.level_of("genius", is_ai=True)


def test_the_settings_name_the_budget_and_the_away_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HEROES_AI_BUDGET_S", "0.5")
    monkeypatch.setenv("HEROES_AI_AWAY_LEVEL", "Hard")
    settings = Settings(_env_file=None)
    assert (settings.ai_budget_s, settings.ai_away_level) == (0.5, "hard")
    from bot.app import computer_players

    players = computer_players(settings)
    assert players.budget == Budget(seconds=0.5) and players.away_level == "hard"
    monkeypatch.setenv("HEROES_AI_BUDGET_S", "0")
    with pytest.raises(ValueError, match="ai_budget_s"):
        Settings(_env_file=None)


def test_the_search_in_a_thread_and_in_a_drawing_process_choose_alike() -> None:
    """The same seed and iteration budget give the same command wherever it is chosen
    (in the drawing worker process or a thread), the engine's own choice."""
    rules = get_ruleset("heroforge")
    state, seat = _position()
    seed = 12
    rng = random.Random(f"{seed}:{state.version}:{seat}")
    expected = choose(rules, state, seat, "hard", rng, SMALL)
    threaded = asyncio.run(computer_command(rules, state, seat, seed, "hard", budget=SMALL))
    renderer = PictureRenderer(processes=1)
    try:
        pooled = asyncio.run(
            computer_command(
                rules,
                state,
                seat,
                seed,
                "hard",
                renderer=renderer,
                budget=SMALL,
            )
        )
    finally:
        renderer.close()
    assert threaded == pooled == expected


async def test_a_hard_computer_seat_keeps_its_level_and_plays(tmp_path: Path) -> None:
    """/game add-ai level:hard stores the level (schema 11), a bad level is refused, and
    the started game's seat is read back with it, so the computer plays it at hard."""
    from tests.bot.service_helpers import CHANNEL, GUILD, make_service, person

    computer = ComputerPlayers(budget=SMALL, seat_level="easy")
    repo, service = await make_service(tmp_path, computer=computer)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, ruleset="heroforge")
        out = await service.add_ai(person(1), CHANNEL, level="Hard")
        assert out.reply is not None and out.reply.text == "Added 1 computer player (hard)."
        with pytest.raises(BadOption, match="The level is one of: easy, normal, hard"):
            await service.add_ai(person(1), CHANNEL, level="expert")
        await service.start(person(1), CHANNEL)
        game = await service.game_here(CHANNEL)
        seats = await repo.seats(game.id)
        assert [(s.is_ai, s.ai_level) for s in seats] == [(False, None), (True, "hard")]
        assert service.computer.level_of(seats[1].ai_level, is_ai=True) == "hard"
    finally:
        await repo.close()


def test_the_console_takes_an_ai_level() -> None:
    """``heroes-table local --ai-level hard`` (default easy); another word is refused."""
    from bot.cli import build_parser

    assert build_parser().parse_args(["local", "--ai-level", "hard"]).ai_level == "hard"
    assert build_parser().parse_args(["local"]).ai_level == "easy"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["local", "--ai-level", "expert"])
